"""Saint Petersburg: the state of a game, composed of one module per concern.

``SPState.apply`` judges one record statement: it validates everything first and only then changes the state, so a
rejected statement leaves the state untouched. ``legal_actions`` lists what the player to act may do; the replay, the
generator and the property suites all go through these two methods, so each rule lives in exactly one place:

- ``position``: the data of a position and the small queries every rule reads (hand limit, buy-only phase, money);
- ``flow``: setup, rounds, phase headers, deals, whose turn it is, the end of a phase and of a round;
- ``actions``: buy, take, play, pass, the Observatory, prices and upgrade targets;
- ``scoring``: phase scorings and their claims, pubs, final scoring and the outcome;
- ``view``: legal turns and statements, summary, fingerprint;
- ``codes``: the ``sp-`` error codes (and the former ones, still accepted).
"""

from __future__ import annotations

from typing import ClassVar

from referee.saint_petersburg.codes import FORMER_CODES, ILLEGAL, MALFORMED, SPCode
from referee.saint_petersburg.flow import TOKEN_SPREAD, TurnFlow
from referee.saint_petersburg.notation import (
    Actor,
    Deal,
    FinalClaim,
    PhaseHeader,
    RoundMark,
    ScoreClaim,
    Tokens,
    WinClaim,
)
from referee.saint_petersburg.position import ACTING, BETWEEN, DEALING, OVER, SETUP, PlayerState, Scoring
from referee.saint_petersburg.scoring import SPTermination
from referee.saint_petersburg.view import View


class SPState(TurnFlow, View):
    """One game of Saint Petersburg being replayed: the turn flow, the turns, the scoring and the views over one
    position."""

    handlers: ClassVar[dict[type, str]] = {
        Actor: "_apply_actor",
        Deal: "_apply_deal",
        PhaseHeader: "_apply_header",
        RoundMark: "_apply_round",
        ScoreClaim: "_apply_score_claim",
        FinalClaim: "apply_final_claim",
        WinClaim: "apply_win_claim",
        Tokens: "_apply_tokens",
    }


__all__ = [
    "ACTING",
    "BETWEEN",
    "DEALING",
    "FORMER_CODES",
    "ILLEGAL",
    "MALFORMED",
    "OVER",
    "SETUP",
    "TOKEN_SPREAD",
    "PlayerState",
    "SPCode",
    "SPState",
    "SPTermination",
    "Scoring",
]
