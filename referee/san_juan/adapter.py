"""San Juan under test: playouts follow records the generator writes (its hidden cards stay in the generator)."""

from __future__ import annotations

import random
from typing import Any

from referee.record import NameRef
from referee.san_juan import SanJuan
from referee.san_juan.notation import (
    Actor,
    FinalClaim,
    FinalEntry,
    Pass,
    RoleChoice,
    RoundMark,
    statement_text,
)
from referee.san_juan.play import MAX_STATEMENTS
from referee.san_juan.state import CHOOSING, OVER, SJState
from referee.testkit import ScriptedAdapter


def _ref(name: str) -> NameRef:
    return NameRef(name, 0)


class SanJuanAdapter(ScriptedAdapter[SJState]):
    game = SanJuan

    def text(self, statement: Any) -> str:
        return statement_text(statement)

    def statement_bound(self, players: int, options: Any) -> int | None:
        """No rule bounds a San Juan game (nobody has to build); the generator stops at its own cap, which is the
        bound stated here."""
        return MAX_STATEMENTS

    def legal_probes(self, state: SJState, rng: random.Random, history: list) -> list:
        """Every statement the referee lists as legal here (its "legal alternatives", ``?`` for unknown cards),
        parsed back from their text. (The generator's own statements are checked by the replay properties: a
        generated record must replay as valid.)"""
        probes: list = []
        parser = SanJuan.parser()
        for text in state.legal_statements():
            if "PLAYER" in text or text.endswith(" cards"):  # templates, not statements
                continue
            probes.append(parser.parse(text))
        return probes

    def illegal_moves(self, state: SJState, rng: random.Random, history: list) -> list:
        moves: list = []
        players = state.players
        if state.stage == OVER:
            moves += [RoundMark(state.round + 1, 0), Actor(_ref(players[0]), Pass())]
            scores = state.outcome().scores or {}
            moves.append(
                FinalClaim(
                    tuple(FinalEntry(_ref(p), scores[p] + (1 if i == 0 else 0), 0) for i, p in enumerate(players)),
                    0,
                )
            )
            return moves
        moves.append(FinalClaim(tuple(FinalEntry(_ref(p), 0, 0) for p in players), 0))
        if state.stage == CHOOSING and state.owed_seat is None and state.archive_due is None:
            chooser = state.chooser_due()
            for role in state.roles_chosen:  # a role already taken this round
                moves.append(Actor(_ref(players[chooser]), RoleChoice(role)))
            if state.roles_chosen:
                moves.append(RoundMark(state.round + 1, 0))  # not the start of a round
        return moves
