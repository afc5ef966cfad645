"""Statements every game shares — the round checkpoint and the final claim — and the transformer rules that build
them, so each game's grammar transformer only adds its own statements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token, Transformer

from referee.record import NameRef, number, player_token


@dataclass(frozen=True, slots=True)
class RoundMark:
    """``round N``: an optional checkpoint naming the round that starts."""

    number: int
    column: int
    number_column: int = 0


@dataclass(frozen=True, slots=True)
class FinalEntry:
    player: NameRef
    vp: int
    column: int


@dataclass(frozen=True, slots=True)
class FinalClaim:
    """``final: Anna 71, Boris 64``: claimed final VP, checked after the end."""

    entries: tuple[FinalEntry, ...]
    column: int


@dataclass(frozen=True, slots=True)
class WinClaim:
    """``win: Anna``: the claimed winner(s), checked after the end."""

    players: tuple[NameRef, ...]
    column: int


class CommonStatements(Transformer[Token, Any]):
    """Transformer rules for the grammar rules every game spells the same way (player, round, final)."""

    def player(self, children: list[Token]) -> NameRef:
        return player_token(children[0])

    def round(self, children: list[Token]) -> RoundMark:
        return RoundMark(number(children[1]), children[0].column or 1, children[1].column or 1)

    def final(self, children: list[Any]) -> FinalClaim:
        return FinalClaim(tuple(c for c in children if isinstance(c, FinalEntry)), children[0].column)

    def win(self, children: list[Any]) -> WinClaim:
        return WinClaim(tuple(c for c in children if isinstance(c, NameRef)), children[0].column)

    def final_entry(self, children: list[Any]) -> FinalEntry:
        return FinalEntry(children[0], number(children[1]), children[1].column)


def final_text(claim: FinalClaim, reserved: frozenset[str] = frozenset()) -> str:
    from referee.record import quote_player

    return "final: " + ", ".join(f"{quote_player(e.player.name, reserved)} {e.vp}" for e in claim.entries)


def win_text(claim: WinClaim, reserved: frozenset[str] = frozenset()) -> str:
    from referee.record import quote_player

    return "win: " + ", ".join(quote_player(ref.name, reserved) for ref in claim.players)


def common_statement_text(statement: object, reserved: frozenset[str] = frozenset()) -> str:
    """A statement every game shares (``round N``, ``final:``, ``win:``) as its canonical record line; ``TypeError``
    for any other statement (the game writes its own)."""
    if isinstance(statement, RoundMark):
        return f"round {statement.number}"
    if isinstance(statement, FinalClaim):
        return final_text(statement, reserved)
    if isinstance(statement, WinClaim):
        return win_text(statement, reserved)
    raise TypeError(statement)
