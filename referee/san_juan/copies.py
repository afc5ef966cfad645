"""Each name's copies out of the supply: now, when the discard pile is shuffled in during a draw, and the room left
for the face-down cards (goods, unknown cards) kept through the last reshuffle.

When the supply runs out every card is out of it, so the face-down cards then are exactly the copies the record does
not place. Those that stay out after the reshuffle must keep fitting: the copies named since, beyond what was out at
that reshuffle (``down_peak``), may not exceed the copies the record did not place then, less the face-down cards
(``down_room``). The ledger records that reshuffle (``Ledger._reshuffle``) and asks these questions at every draw and
every card named from a hand; without a pool only (the pools' lower bounds are not what the room was counted from).
"""

from __future__ import annotations

from referee.errors import IllegalStatement
from referee.record import NameRef
from referee.san_juan.base import SJBase
from referee.san_juan.codes import SJCode
from referee.san_juan.hidden import UNCOUNTED, out_of_supply, when
from referee.san_juan.notation import UNKNOWN


class Copies(SJBase):
    """Copies out of the supply, and the face-down cards' room (``SJBase.down_*``)."""

    def _out_of_supply(self, name: str, reshuffled: bool) -> int:
        """Copies of ``name`` that a draw cannot yield: those in known places and the pools' candidates that are
        certainly out of the supply — less the discard pile's (named cards and candidates) when it is shuffled into
        the supply during the draw."""
        if reshuffled:
            out = self.located[name] - self.discard_known[name]
            for pool in self.pools:
                out += max(pool.count(name) - pool.gone - pool.away, 0)
            return out
        return out_of_supply(self, name)

    # ------------------------------------------------------------------------- face-down cards through a reshuffle
    def _down_cards(self, hidden_drawn: int = 0) -> int:
        """Face-down cards that stay out of the supply when it is reshuffled now: goods, unknown hand cards, unnamed
        tucked and waiting cards, and ``hidden_drawn`` cards the statement drew unnamed before the supply ran out."""
        count = hidden_drawn + self.pending_unknown
        for player in self.p:
            count += player.goods_total + player.hand_unknown + player.tucked - sum(player.tucked_known.values())
        return count

    def _down_gain(self, adds: dict[str, int]) -> int:
        """How much the copies out of the supply beyond the last reshuffle's peak grow when ``adds`` come out now."""
        peak = self.down_peak
        assert peak is not None
        gain = 0
        for name, k in adds.items():
            over = (self._out_of_supply(name, False) if self.pools else self.located.get(name, 0)) - peak.get(name, 0)
            if over + k > 0:
                gain += k if over >= 0 else over + k
        return gain

    def _down_fits(self, adds: dict[str, int], room: int = 0, short: int = 0) -> bool:
        """The face-down cards kept through the last reshuffle still fit the copies not placed then, with the copies
        ``adds`` out of the supply too (and a draft's exact changes of the room and of the copies beyond the peak)."""
        left = self.down_room + room - self.down_short - short
        return left >= sum(adds.values()) or left - self._down_gain(adds) >= 0

    def _note_out(self, name: str, k: int = 1) -> None:
        """``k`` copies of ``name`` came out of the supply (already counted): past the last reshuffle's peak, they
        leave less room for the face-down cards kept through it."""
        peak = self.down_peak
        if peak is not None:
            over = self._out_of_supply(name, False) - peak[name]
            if over > 0:
                self.down_short += over if over < k else k

    def _down_failed(self, column: int, code: SJCode) -> IllegalStatement:
        """The face-down cards kept through the last reshuffle no longer fit."""
        return self.fail(
            code,
            f"when the discard pile was shuffled into the supply{when(self, len(self.peaks) - 1)}, every card was "
            f"out of it: the {self.down_count} face-down card(s) still out since (goods, unknown cards) are copies "
            "the record did not name then, and the cards named since leave too few of those copies for them",
            column,
        )

    def _pool_tucked_placed(self) -> int:
        """Unnamed tucked cards that may be a pool's named candidates: ``_down_cards`` counts every unnamed tucked
        card as a copy the record does not place, but a candidate tucked from a pool may be one of the named ones,
        which ``_check_down_reshuffle`` counts as placed (``Pool.lower``) — counted twice, a consistent record was
        refused. Only the tucked candidates beyond the named ones are certainly unplaced."""
        return sum(min(pool.fixed, sum(pool.lower(name) for name in pool.names())) for pool in self.pools)

    def _check_down_reshuffle(
        self, refs: tuple[NameRef, ...], index: int, before: dict[str, int], extra_discard: int
    ) -> None:
        """A draw that runs the supply out at ``refs[index]``: the named cards it draws after the reshuffle must leave
        room for the face-down cards that stay out through it (as ``_reshuffle`` will count them)."""
        after: dict[str, int] = {}
        for ref in refs[index:]:
            if ref.name != UNKNOWN:
                after[ref.name] = after.get(ref.name, 0) + 1
        hidden = index - sum(before.values())
        down = self._down_cards(hidden) - extra_discard - self._pool_tucked_placed()  # sold goods are in the pile
        if not after or down <= 0:
            return
        placed = sum(self.located.values()) + sum(before.values())
        for pool in self.pools:
            placed += sum(pool.lower(name) for name in pool.names())
        room = self.total_copies - placed - down
        short = 0
        for name, k in after.items():
            peak = self._out_of_supply(name, False) + before.get(name, 0)
            over = self._out_of_supply(name, True) + before.get(name, 0) - peak
            short += max(over + k, 0) - max(over, 0)
        if room - short < 0:
            raise self.fail(
                SJCode.CARD_EXHAUSTED,
                f"the supply runs out during this draw: the {down} face-down card(s) that stay out of it (goods, "
                "unknown cards) are some of the copies the record does not place then, and the cards drawn after it "
                "leave too few of those copies for them",
                refs[index].column,
            )

    def _end_down(self) -> None:
        """Stop counting the room of the face-down cards kept through the last reshuffle (see ``_check_draft``)."""
        if self.down_count > 0:
            self.widen(UNCOUNTED)
        self.down_peak, self.down_count, self.down_room, self.down_short = None, 0, 0, 0
