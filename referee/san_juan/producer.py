"""The producer phase: goods made on empty production buildings — 1, +1 the chooser's privilege (doubled by the
Library), +1 Aqueduct — each taking a card from the supply; the Well's draw for 2 goods."""

from __future__ import annotations

from referee.san_juan.cards import BUILDING_OF_GOOD
from referee.san_juan.codes import SJCode
from referee.san_juan.ledger import add_counts
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
        buildings = action.buildings
        count = len(buildings)
        # one good is always within the limit (it is at least 1): the privilege's count check only for more
        doubled = count > 1 and self._check_privilege_count(
            seat, buildings, self.produce_limit, SJCode.PRODUCE_LIMIT, "produce", action.column
        )
        wanted: dict[str, int] = {}
        goods, owned, cards = player.goods, player.owned, self.cards
        for ref in buildings:
            building = cards[ref.name]
            if not building.production:
                raise self.fail(SJCode.NOT_PRODUCTION, f"{ref.name} is not a production building", ref.column)
            good = building.good
            k = wanted[good] = wanted.get(good, 0) + 1
            have = owned.get(BUILDING_OF_GOOD[good], 0)  # player.production(good)
            empty = have - goods.get(good, 0)
            if k > empty:
                raise self.fail(
                    SJCode.NO_EMPTY_BUILDING,
                    f"{player.name} has {have} {ref.name}(s), {max(empty, 0)} of them empty",
                    ref.column,
                )
        if count > self.supply and count > (available := self.available()):  # the supply alone may cover it
            raise self.fail(
                SJCode.SUPPLY_EMPTY,
                f"only {available} card(s) remain in supply and discard pile; {count} good(s) cannot be made",
                buildings[available].column,
            )
        # --- commit
        if doubled:
            self.library_used.add(seat)
        self._draw(count)
        add_counts(goods, wanted)
        well = count >= 2 and (not self.options.well_needs_different_kinds or len(wanted) >= 2)
        if well and self.works(seat, "Well"):
            self.owed_seat, self.owed = seat, {"well": 1}
        else:  # nothing owed (``_set_owed`` with nothing above 0)
            self.owed_seat, self.owed = None, {}
