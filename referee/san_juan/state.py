"""San Juan: the state of a game, put together from one module per concern.

``SJState.apply`` judges one record statement: it validates everything first and only then changes the state, so a
rejected statement leaves the state untouched (the few bookkeeping fields touched before validation ends — the owed
draws, the setup stage — are restored on failure). The replay, the generator and the tests all go through ``apply``
and the query methods, so each rule lives in exactly one place:

- ``base.py``: the data of a position (``PlayerState``, the stages) and the questions every role asks (``works``,
  the chooser's privilege and the Library);
- ``ledger.py``: the hidden-card ledger — known, forgotten and unknown hand cards, supply, discard pile, reshuffles;
- ``hidden.py``: a hand's hidden part worked out card by card (unknown cards, pools of candidates) and each name's
  copies at every reshuffle, judged by the record format's standard for ``?`` (docs/san-juan.md, "Hidden cards");
  ``copies.py``: copies out of the supply, and the face-down cards kept through a reshuffle;
- ``owed.py``: the draws an action earns on the next line (Carpenter, Poor House, Well, Market Stand, Market Hall);
- ``builder.py``, ``producer.py``, ``trader.py``, ``councillor.py``, ``prospector.py``: each phase's action;
- ``flow.py``: setup, rounds, role choice, the order of turns, the round start and the end of the game;
- ``scoring.py``: final scores and the tie-break; ``view.py``: legal alternatives, summary, fingerprint;
- ``codes.py``: the error codes (``SJCode``) and how a game ends (``SJTermination``).

Every name the other modules define that callers use is importable from here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from referee.errors import RefereeError
from referee.san_juan.base import (
    ACT,
    ACTING,
    CHOOSING,
    MINE,
    OVER,
    PROSPECT,
    SETUP,
    TILE,
    ArchiveDue,
    LibraryUse,
    PlayerState,
    Turn,
)
from referee.san_juan.builder import Price
from referee.san_juan.codes import ILLEGAL, SJCode, SJTermination
from referee.san_juan.flow import ACTION_OF_ROLE, VERB_OF_ROLE
from referee.san_juan.ledger import KeepPlan, Removal
from referee.san_juan.notation import Actor, FinalClaim, GovernorMark, HandDeal, RoundMark, TileMark, WinClaim
from referee.san_juan.scoring import Scoring
from referee.san_juan.view import View


class SJState(View, Scoring):
    """A San Juan game being replayed: the position (``base``) and every rule (the mixins), judged by ``apply``."""

    handlers: ClassVar[dict[type, str]] = {
        Actor: "_apply_actor",
        TileMark: "_apply_tile",
        HandDeal: "_apply_hand",
        GovernorMark: "_apply_governor",
        RoundMark: "_apply_round",
        FinalClaim: "apply_final_claim",
        WinClaim: "apply_win_claim",
    }

    def apply(self, statement: object) -> None:
        """Judge one statement; after the end only claims and the last builder phase's owed draws follow
        (``GameState.apply``). A rejected statement leaves the state as it was.

        Before the end the statement goes straight to its handler (``_HANDLERS``: what ``GameState.dispatch`` would
        look up, without the lookup by name); after it, through ``GameState.apply`` and its after-end rule."""
        owed_seat, owed, stage = self.owed_seat, self.owed, self.stage
        try:
            if owed:
                self._decline_owed(statement)
            else:  # nothing owed (the common case): ``_decline_owed`` would only clear the seat
                self.owed_seat = None
            if stage == OVER:
                if isinstance(statement, _NAMED_AFTER_END):
                    self.seat_of(statement.player)  # a name that is no player is malformed, after the end too
                    if isinstance(statement, Actor) and not self.open_after_end(statement):
                        raise self.after_end(statement.action.column)  # at the action, not the player
                super().apply(statement)
                return
            handler = _HANDLERS.get(type(statement)) if type(self) is SJState else None
            if handler is None:  # a subclass, or not one of the game's statements: the core's dispatch
                super().apply(statement)
            else:
                handler(self, statement)
        except RefereeError:
            self.owed_seat, self.owed, self.stage = owed_seat, owed, stage
            raise


# The handler of each statement type, as ``GameState.dispatch`` finds it by name in ``SJState.handlers``.
_HANDLERS: dict[type, Callable[[SJState, Any], None]] = {
    kind: getattr(SJState, name) for kind, name in SJState.handlers.items()
}
_NAMED_AFTER_END = (GovernorMark, HandDeal, Actor)  # statements whose player is checked after the end too


__all__ = [
    "ACT",
    "ACTING",
    "ACTION_OF_ROLE",
    "CHOOSING",
    "ILLEGAL",
    "MINE",
    "OVER",
    "PROSPECT",
    "SETUP",
    "TILE",
    "VERB_OF_ROLE",
    "ArchiveDue",
    "KeepPlan",
    "LibraryUse",
    "PlayerState",
    "Price",
    "Removal",
    "SJCode",
    "SJState",
    "SJTermination",
    "Turn",
]
