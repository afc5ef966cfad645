"""The producer phase: goods made on empty production buildings — 1, +1 the chooser's privilege (doubled by the
Library), +1 Aqueduct — each taking a card from the supply; the Well's draw for 2 goods."""

from __future__ import annotations

from collections import Counter

from referee.san_juan.codes import SJCode
from referee.san_juan.notation import Produce
from referee.san_juan.owed import OwedDraws


class ProducerPhase(OwedDraws):
    """A producer turn: how many goods, on which buildings."""

    def produce_limit(self, seat: int, library: bool) -> int:
        limit = 1 + (1 if self.works(seat, "Aqueduct") else 0)
        if seat == self.chooser:
            limit += 2 if library else 1
        return limit

    def _produce(self, seat: int, action: Produce) -> None:
        player = self.p[seat]
        count = len(action.buildings)
        doubled = self._check_privilege_count(
            seat, action.buildings, self.produce_limit, SJCode.PRODUCE_LIMIT, "produce", action.column
        )
        wanted: Counter = Counter()
        for ref in action.buildings:
            building = self.cards[ref.name]
            if not building.production:
                raise self.fail(SJCode.NOT_PRODUCTION, f"{ref.name} is not a production building", ref.column)
            wanted[building.good] += 1
            empty = player.production(building.good) - player.goods[building.good]
            if wanted[building.good] > empty:
                have = player.production(building.good)
                raise self.fail(
                    SJCode.NO_EMPTY_BUILDING,
                    f"{player.name} has {have} {ref.name}(s), {max(empty, 0)} of them empty",
                    ref.column,
                )
        if count > self.available():
            raise self.fail(
                SJCode.SUPPLY_EMPTY,
                f"only {self.available()} card(s) remain in supply and discard pile; {count} good(s) cannot be made",
                action.buildings[self.available()].column,
            )
        # --- commit
        if doubled:
            self.library_used.add(seat)
        self._draw(count)
        player.goods += wanted
        well = count >= 2 and (not self.options.well_needs_different_kinds or len(wanted) >= 2)
        self._set_owed(seat, {"well": 1 if well and self.works(seat, "Well") else 0})
