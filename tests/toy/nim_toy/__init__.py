"""Nim, a toy game plugged into referee from outside its package (tests/test_toy_game.py): one pile, players take 1
to 3 stones in turn, whoever takes the last stone wins. It has winners and no scores."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from referee.errors import ErrorKind, Verdict
from referee.game import Game, GameState, Outcome, SetupContext, Termination, rule_option
from referee.record import LineParser, NameRef, number, quote_player, write_record
from referee.statements import CommonStatements, FinalClaim, RoundMark, WinClaim
from referee.testkit import GameAdapter
from referee.turns import next_seat


@dataclass(frozen=True)
class NimOptions:
    pile: int = rule_option(21, "Stones in the pile at the start.", minimum=1)
    most: int = rule_option(3, "Most stones a player may take at once.", minimum=1)


class NimCode(ErrorKind):
    """Nim's own rules."""

    PILE_FIRST = ("nim-pile-first", Verdict.ILLEGAL, "The game opens with 'pile: N', the stones at the start.")
    TAKE = ("nim-take", Verdict.ILLEGAL, "A player takes 1 to 3 stones, no more than the pile holds.")
    TURN = ("nim-not-your-turn", Verdict.ILLEGAL, "Players take turns in seat order.")


class NimTermination(Termination):
    LAST_STONE = ("last-stone", "took the last stone")


@dataclass(frozen=True)
class Pile:
    stones: int
    column: int


@dataclass(frozen=True)
class Take:
    player: NameRef
    stones: int
    column: int
    stones_column: int


class Builder(CommonStatements):
    def pile(self, children: list) -> Pile:
        return Pile(number(children[1]), children[0].column)

    def actor(self, children: list) -> Take:
        return Take(children[0], number(children[2]), children[0].column, children[2].column)


class NimState(GameState):
    handlers: ClassVar[dict[type, str]] = {
        Pile: "start",
        Take: "take",
        RoundMark: "checkpoint",
        FinalClaim: "apply_final_claim",
        WinClaim: "apply_win_claim",
    }

    def __init__(self, players: list[str], options: NimOptions) -> None:
        self.players, self.options = list(players), options
        self.seats = {name: seat for seat, name in enumerate(players)}
        self.stones: int | None = None
        self.to_act, self.winner = 0, None

    def start(self, st: Pile) -> None:
        if self.stones is not None or st.stones != self.options.pile:
            raise self.fail(NimCode.PILE_FIRST, f"the pile starts once, with {self.options.pile} stones", st.column)
        self.stones = self.options.pile

    def checkpoint(self, st: RoundMark) -> None:
        if st.number != 1:
            self.claim_failed(NimCode.TURN, "Nim has one round", st.number_column)

    def take(self, st: Take) -> None:
        seat = self.seat_of(st.player)
        if self.stones is None:
            raise self.fail(NimCode.PILE_FIRST, "'pile: N' comes first", st.column)
        if seat != self.to_act:
            raise self.fail(NimCode.TURN, f"it is {self.players[self.to_act]}'s turn", st.column)
        if not 1 <= st.stones <= min(self.options.most, self.stones):
            raise self.fail(NimCode.TAKE, f"take 1 to {min(self.options.most, self.stones)}", st.stones_column)
        self.stones -= st.stones
        if self.stones == 0:
            self.winner = seat
        self.to_act = next_seat(seat, len(self.players))

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> Outcome:
        assert self.winner is not None
        return Outcome([self.players[self.winner]], NimTermination.LAST_STONE)

    def legal_statements(self) -> list[str]:
        if self.stones is None:
            return [f"pile: {self.options.pile}"]
        if self.winner is not None:
            return ["win: PLAYER"]
        name = quote_player(self.players[self.to_act], Nim.reserved_words)
        return [f"{name}: take {k}" for k in range(1, min(self.options.most, self.stones) + 1)]

    def summary(self) -> str:
        return f"{self.stones} stone(s) left, {self.players[self.to_act]} to act"

    def fingerprint(self) -> tuple:
        return (self.stones, self.to_act, self.winner)


class Nim(Game[NimState, NimOptions]):
    id: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_type: ClassVar[type] = NimOptions
    rulesets: ClassVar[dict[str, Any]] = {"standard": NimOptions(), "short": NimOptions(pile=7)}
    default_ruleset: ClassVar[str] = "standard"
    reserved_words: ClassVar[frozenset[str]] = frozenset({"pile", "round", "final", "win"})
    property_adapter: ClassVar[str | None] = "nim_toy:NimAdapter"

    @classmethod
    def make_parser(cls) -> LineParser:
        return LineParser(Path(__file__).with_name("nim.lark"), Builder, {"INT": "a number"})

    @classmethod
    def new_state(cls, players: list[str], options: Any, context: SetupContext | None = None) -> NimState:
        return NimState(players, options)

    @classmethod
    def play(cls, players: list[str], rng: random.Random, options: Any, tags: dict[str, str]) -> str:
        state, body = NimState(players, options), [f"pile: {options.pile}"]
        state.stones = options.pile
        while not state.is_terminal():
            take = rng.randint(1, min(options.most, state.stones))
            body.append(f"{quote_player(players[state.to_act], cls.reserved_words)}: take {take}")
            state.take(Take(NameRef(players[state.to_act], 1), take, 1, 1))
        body.append(f"win: {state.outcome().winners[0]}")
        head = {"Game": cls.title, **tags, "Players": ", ".join(players), "Result": state.outcome().winners[0]}
        return write_record(head, body)


class NimAdapter(GameAdapter):
    """Nim joins the generic property suites like any game."""

    game = Nim

    def step(self, state: NimState, rng: random.Random, history: list) -> Any | None:
        moves = self.legal_moves(state, rng, history)
        return rng.choice(moves) if moves else None

    def legal_moves(self, state: NimState, rng: random.Random, history: list) -> list:
        if state.stones is None:
            return [Pile(state.options.pile, 1)]
        if state.is_terminal():
            return [] if state.final_claimed else [WinClaim((NameRef(state.outcome().winners[0], 1),), 1)]
        player = NameRef(state.players[state.to_act], 1)
        return [Take(player, k, 1, 1) for k in range(1, min(state.options.most, state.stones) + 1)]

    def illegal_moves(self, state: NimState, rng: random.Random, history: list) -> list:
        if state.stones is None or state.is_terminal():
            return [Take(NameRef(state.players[0], 1), 1, 1, 1)]
        other = NameRef(state.players[next_seat(state.to_act, len(state.players))], 1)
        player = NameRef(state.players[state.to_act], 1)
        return [Take(player, state.options.most + 1, 1, 1), Take(other, 1, 1, 1), Take(player, 0, 1, 1)]

    def statement_bound(self, players: int, options: Any) -> int | None:
        return options.pile + 2

    def text(self, statement: Any) -> str:
        if isinstance(statement, Pile):
            return f"pile: {statement.stones}"
        if isinstance(statement, WinClaim):
            return "win: " + ", ".join(quote_player(p.name, Nim.reserved_words) for p in statement.players)
        return f"{quote_player(statement.player.name, Nim.reserved_words)}: take {statement.stones}"


__all__ = ["Nim", "NimAdapter", "NimCode", "NimOptions", "NimState"]
