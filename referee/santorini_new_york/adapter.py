"""Santorini: New York under test: playouts follow records the generator writes (its true cards stay in the
generator); the legal probes are the referee's own listed statements; the checker holds the board invariants."""

from __future__ import annotations

import random
from typing import Any

from referee.record import NameRef
from referee.santorini_new_york import SantoriniNewYork
from referee.santorini_new_york.board import shipped_board
from referee.santorini_new_york.engine import ROOF, Position
from referee.santorini_new_york.notation import (
    BuildStep,
    BuildTarget,
    CardRef,
    FinalClaim,
    FinalEntry,
    LossLine,
    MoveStep,
    PlayEntry,
    Reveal,
    RoundMark,
    Square,
    TurnLine,
    WinClaim,
    statement_text,
)
from referee.santorini_new_york.state import OVER, REVEAL, TURNS, SNYState
from referee.testkit import Checker, Config, ScriptedAdapter


def _ref(name: str) -> NameRef:
    return NameRef(name, 0)


def _sq(name: str) -> Square:
    return Square(name, 0)


class SantoriniNewYorkAdapter(ScriptedAdapter[SNYState]):
    game = SantoriniNewYork

    def text(self, statement: Any) -> str:
        return statement_text(statement)

    def statement_bound(self, players: int, options: Any) -> int | None:
        """Every turn builds at least once (the Firefighter's rooftop included) or removes a worker, and a space
        takes at most 4 builds (3 blocks and a rooftop) or one skyscraper: at most 4 x spaces + 2 x players turns,
        so as many rounds. A round adds a reveal, at most 2 round marks and a refill of one deal per player; setup is
        a place and a deal per player, a skyscraper and a round mark; then the win claim."""
        spaces = len(shipped_board(options.board).spaces)
        turns = 4 * spaces + 2 * players
        return 2 * players + 2 + turns * (1 + 2 + players) + turns + 1

    def legal_probes(self, state: SNYState, rng: random.Random, history: list) -> list:
        """Every statement the referee lists as legal here, parsed back (templates of deals left out)."""
        parser = SantoriniNewYork.parser()
        return [parser.parse(text) for text in state.legal_statements() if "(named" not in text]

    def illegal_moves(self, state: SNYState, rng: random.Random, history: list) -> list:
        players = state.players
        moves: list = [FinalClaim(tuple(FinalEntry(_ref(p), 0, 0) for p in players), 0)]
        if state.stage == OVER:
            loser = next(p for p in players if p not in state.outcome().winners)
            moves += [WinClaim((_ref(loser),), 0), RoundMark(state.round + 1, 0), self._some_turn(state, 0)]
            return moves
        moves.append(WinClaim((_ref(players[0]),), 0))
        if state.stage == TURNS:
            seat = state.order[state.turn]
            others = [s for s in range(len(players)) if s != seat]
            moves.append(self._some_turn(state, others[0]))  # not his turn
            moves.append(RoundMark(state.round, 0))  # a checkpoint among the turns
            card = state.played[seat]
            moves.append(Reveal((PlayEntry(_ref(players[seat]), CardRef(card[0], card[1], 0, 0)),), 0))
            turns = state.legal_turns()
            if turns:
                workers = state.pos.workers_of(seat)
                moves.append(LossLine(_ref(players[seat]), _sq(state.board.square(workers[0])), 0))
                moves.append(self._off_board_build(state, seat))
            return moves
        if state.stage == REVEAL:
            moves.append(self._some_turn(state, state.in_game()[0]))  # no reveal yet
            moves.append(RoundMark(state.round + 1, 0))
        return moves

    def _some_turn(self, state: SNYState, seat: int) -> TurnLine:
        workers = state.pos.workers_of(seat) or sorted(state.pos.workers)
        square = state.board.square(workers[0]) if workers else "a1"
        return TurnLine(_ref(state.players[seat]), (MoveStep(_sq(square), _sq(square), 0),), 0)

    def _off_board_build(self, state: SNYState, seat: int) -> TurnLine:
        """The first legal turn with a build claim no build can reach."""
        line = SantoriniNewYork.parser().parse(state.turn_line(seat, state.legal_turns()[0]))
        assert isinstance(line, TurnLine)
        steps = tuple(
            BuildStep(tuple(BuildTarget(t.square, ROOF + 1) for t in s.targets), 0) if isinstance(s, BuildStep) else s
            for s in line.steps
        )
        if not any(isinstance(s, BuildStep) for s in steps):  # a winning move: add a step after it
            steps = (*steps, BuildStep((BuildTarget(_sq("a1")),), 0))
        return TurnLine(line.player, steps, 0)

    def checker(self, config: Config, players: list[str]) -> Checker | None:
        return BoardInvariants()


class BoardInvariants(Checker[SNYState]):
    """After every statement: heights stay 0-3 and never fall; rooftops stand on level 3 and skyscrapers on ground
    level and both stay; no worker stands on a skyscraper or a rooftop; every player has at most two workers."""

    def __init__(self) -> None:
        self.before_pos: Position | None = None

    def before(self, state: SNYState, statement: Any) -> None:
        self.before_pos = state.pos

    def after(self, state: SNYState, statement: Any) -> None:
        pos, old = state.pos, self.before_pos
        assert all(0 <= h <= 3 for h in pos.height), "a height outside 0-3"
        assert all(pos.height[c] == 3 for c in pos.roof), "a rooftop below level 3"
        assert all(pos.height[c] == 0 for c in pos.sky), "a skyscraper above ground level"
        assert not (set(pos.workers) & (pos.roof | pos.sky)), "a worker on a rooftop or a skyscraper"
        assert all(len(pos.workers_of(s)) <= 2 for s in range(len(state.players))), "more than two workers"
        if old is not None:
            assert all(a <= b for a, b in zip(old.height, pos.height, strict=True)), "a building got lower"
            assert old.roof <= pos.roof and old.sky <= pos.sky, "a rooftop or skyscraper disappeared"
