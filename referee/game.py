"""What every game package provides to the game-agnostic core (OpenSpiel-style state, python-chess-style lookup)."""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.errors import ErrorKind, IllegalStatement, RecordCode, illegal, malformed
from referee.record import LineParser, NameRef
from referee.statements import FinalClaim


@dataclass
class Outcome:
    """The end of a game: VP per player (None for games without scores), winners and how ties were broken."""

    scores: dict[str, int] | None
    winners: list[str]
    tiebreak: str = ""
    breakdown: dict[str, dict[str, int]] = field(default_factory=dict)


class GameState(ABC):
    """The state of one game being replayed. ``apply`` judges one parsed statement and changes the state, or raises
    ``IllegalStatement`` (leaving the state as it was).

    A game lists its statement handlers in ``handlers`` (statement class -> method name); ``dispatch`` routes a
    statement to its handler. The final claim and the after-the-end rule are the same for every game and live here.
    """

    players: list[str]
    seats: dict[str, int]
    handlers: ClassVar[dict[type, str]] = {}
    final_claimed: bool = False

    def apply(self, statement: Any) -> None:
        self.dispatch(statement)

    def dispatch(self, statement: Any) -> None:
        handler = self.handlers.get(type(statement))
        if handler is None:  # pragma: no cover - the grammar yields only handled types
            raise TypeError(statement)
        getattr(self, handler)(statement)

    def seat_of(self, ref: NameRef) -> int:
        """The seat of a named player, or ``unknown-player`` (malformed) at the name."""
        seat = self.seats.get(ref.name)
        if seat is None:
            raise malformed(
                RecordCode.UNKNOWN_PLAYER,
                f"'{ref.name}' is not a player of this game (Players: {', '.join(self.players)})",
                ref.column,
            )
        return seat

    def fail(self, kind: ErrorKind, message: str, column: int) -> IllegalStatement:
        """An illegal statement with the state summary and the legal alternatives attached."""
        error = illegal(kind, message, column, self.legal_statements()[:40])
        error.state = self.summary()
        return error

    def after_end(self, column: int) -> IllegalStatement:
        return self.fail(RecordCode.AFTER_END, "the game is over; only the 'final:' claim may follow", column)

    def apply_final_claim(self, claim: FinalClaim) -> None:
        """``final:`` stands once, after the end; every listed player's VP must match."""
        if not self.is_terminal() or self.final_claimed:
            raise self.fail(RecordCode.FINAL_MISPLACED, "'final:' stands once, after the game has ended", claim.column)
        scores = self.outcome().scores or {}
        for entry in claim.entries:
            self.seat_of(entry.player)
            if scores[entry.player.name] != entry.vp:
                raise self.fail(
                    RecordCode.FINAL_MISMATCH,
                    f"{entry.player.name} ends with {scores[entry.player.name]} VP, not {entry.vp}",
                    entry.column,
                )
        self.final_claimed = True

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome: ...

    def settled(self) -> bool:
        """Over, and nothing that could still change the outcome may follow (e.g. San Juan's optional owed draws
        after the last builder phase). The Result tag is checked from here on."""
        return self.is_terminal()

    @abstractmethod
    def summary(self) -> str:
        """A few lines a person reads to see where the game stands."""

    @abstractmethod
    def legal_statements(self) -> list[str]:
        """The statements (as record text) that could legally come next."""

    @abstractmethod
    def fingerprint(self) -> tuple:
        """The whole position as a comparable value: a rejected statement must leave it unchanged."""


class Game(ABC):
    """A game of the referee: metadata as data, its rule options, its grammar and its state class."""

    id: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type]
    rulesets: ClassVar[dict[str, Any]]
    ruleset_aliases: ClassVar[dict[str, str]] = {}
    default_ruleset: ClassVar[str]
    _parser: ClassVar[LineParser | None] = None

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return (cls.id, cls.title, *cls.aliases)

    @classmethod
    @abstractmethod
    def make_parser(cls) -> LineParser: ...

    @classmethod
    def parser(cls) -> LineParser:
        if cls.__dict__.get("_parser") is None:
            cls._parser = cls.make_parser()
        return cls._parser  # type: ignore[return-value]

    @classmethod
    def ruleset(cls, name: str | None) -> Any | None:
        """Options of a ruleset by name (case-insensitive, aliases allowed); None when unknown."""
        if name is None:
            return cls.rulesets[cls.default_ruleset]
        key = " ".join(name.lower().split())
        key = cls.ruleset_aliases.get(key, key)
        for ruleset_name, options in cls.rulesets.items():
            if ruleset_name.lower() == key:
                return options
        return None

    @classmethod
    @abstractmethod
    def new_state(cls, players: list[str], options: Any) -> GameState: ...

    @classmethod
    @abstractmethod
    def play(cls, players: list[str], rng: random.Random, options: Any, tags: dict[str, str]) -> str:
        """A complete random legal game as record text (tag section included)."""


def rule_option(default: Any, doc: str) -> Any:
    """A rule option: a dataclass field with its documentation (shown by ``referee options`` and the docs)."""
    return dataclasses.field(default=default, metadata={"doc": doc})


def option_docs(options_type: type) -> list[tuple[str, Any, str]]:
    """(name, default, doc) of every rule option of a game, for docs and ``referee options``."""
    rows = []
    for f in dataclasses.fields(options_type):
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        rows.append((f.name, default, f.metadata.get("doc", "")))
    return rows
