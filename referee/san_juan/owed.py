"""Owed draws: the cards an action earns on its own line right after it, by the same player — the Carpenter and
the Poor House after a building, the Well after production, the Market Stand and Market Hall after a sale (the
prospector's draw is written the same way but is his phase turn, see ``prospector.py``).

Any other statement declines what is still owed ([D9], ``effects_optional``); with effects mandatory it is refused,
except where nothing is left to draw ([D11]: the draw is skipped).
The owed draws of the last builder phase may still follow the end of the game: they can change the tie-break.
"""

from __future__ import annotations

from referee.errors import IllegalStatement
from referee.san_juan.base import OVER
from referee.san_juan.codes import SJCode
from referee.san_juan.ledger import Ledger
from referee.san_juan.notation import Actor, OwedDraw


class OwedDraws(Ledger):
    """What the last action left owing its player, and the draws that pay it."""

    def settled(self) -> bool:
        """Over, with no optional owed draw (Carpenter, Poor House) of the last builder phase still to come."""
        return self.stage == OVER and not self.owed

    def open_after_end(self, statement: object) -> bool:
        """The owed draws of the last builder phase may still follow the end (they can change the tie-break)."""
        return self._is_owed_draw(statement)

    def _is_owed_draw(self, statement: object) -> bool:
        return (
            isinstance(statement, Actor)
            and isinstance(statement.action, OwedDraw)
            and self.owed_seat is not None
            and self.seats.get(statement.player.name) == self.owed_seat
            and statement.action.source in self.owed
        )

    def _decline_owed(self, statement: object) -> None:
        """A statement other than an owed draw declines the draws still owed (refused when effects are mandatory).

        Runs before the statement is judged: the caller restores ``owed`` when the statement is rejected."""
        if not self.owed:  # nothing owed (the common case)
            self.owed_seat = None
            return
        if self._is_owed_draw(statement):
            return
        source = self.mandatory_owed()
        if source is not None and self.owed_seat is not None:
            raise self.fail(
                SJCode.OWED_DRAW_MISSING,
                f"{self.p[self.owed_seat].name} owes the {source} draw first (effects are mandatory in this ruleset)",
                1,
            )
        self.owed_seat, self.owed = None, {}

    def mandatory_owed(self) -> str | None:
        """With effects mandatory ([D9]), the owed draw that must be written next: the first one a card is left for.

        A draw supply and discard pile cannot yield is skipped ([D11]): owing it does not stop the game."""
        if self.options.effects_optional:
            return None
        return next((source for source, count in self.owed.items() if self.capped(count)), None)

    def _set_owed(self, seat: int, owed: dict[str, int]) -> None:
        owed = {source: count for source, count in owed.items() if count > 0}
        self.owed_seat, self.owed = (seat, owed) if owed else (None, {})

    def _owed_draw(self, seat: int, action: OwedDraw) -> None:
        if action.source == "poor house" and "carpenter" in self.owed and not self.options.effects_optional:
            raise self.fail(
                SJCode.OWED_DRAW_MISSING,
                f"{self.p[seat].name} owes the carpenter draw first: the Carpenter's draw comes before the Poor "
                "House's (effects are mandatory in this ruleset)",
                action.source_column,
            )
        wanted = self.owed[action.source]
        due = self.capped(wanted)
        if not 1 <= len(action.draws) <= due:
            raise self.fail(
                SJCode.DRAW_COUNT,
                f"the {action.source} draw is {due} card(s) here, not {len(action.draws)}",
                action.column,
            )
        self._check_draws(action.draws)
        self._draw_into_hand(seat, action.draws)
        owed = dict(self.owed)
        owed.pop(action.source)
        if action.source == "poor house":
            owed.pop("carpenter", None)  # the Carpenter's draw comes before the Poor House's
        if (
            action.source == "carpenter"
            and "poor house" in owed
            and self.p[seat].hand_size > 1
            and self.options.poor_house_after_carpenter
        ):
            owed.pop("poor house")  # only with poor_house_after_carpenter: the hand is no longer small
        self._set_owed(seat, owed)

    def _not_owed(self, seat: int, action: OwedDraw) -> IllegalStatement:
        owed = ", ".join(self.owed) if self.owed_seat == seat and self.owed else "nothing"
        return self.fail(
            SJCode.NOT_OWED,
            f"no {action.source} draw is owed to {self.p[seat].name} here (owed: {owed})",
            action.column,
        )
