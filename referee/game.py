"""What every game package provides to the game-agnostic core (OpenSpiel-style state, python-chess-style lookup)."""

from __future__ import annotations

import dataclasses
import random
import sys
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from referee.errors import ErrorKind, IllegalStatement, RecordCode, RefereeError, error_of, illegal, malformed
from referee.record import LineParser, NameRef, Tag, excerpt, shown_value
from referee.resources import DEFAULT_POLICY, ReadPolicy, ReadRefused, read_limited
from referee.statements import FinalClaim, WinClaim, common_statement_text


class Termination(Enum):
    """How a game ended (like python-chess's ``Termination``). Each game lists its own members; a member's value is
    ``(code, description)``, the code being what reports and jsonl output show."""

    def __init__(self, code: str, description: str) -> None:
        self.code = code
        self.description = description


@dataclass(frozen=True)
class TieBreak:
    """One tie-break step as data: the criterion and each tied player's value (the highest goes on)."""

    criterion: str
    values: dict[str, int]


@dataclass
class Outcome:
    """The end of a game: who won and how; VP per player only for games with scores (None otherwise)."""

    winners: list[str]
    termination: Termination
    scores: dict[str, int] | None = None
    tiebreaks: tuple[TieBreak, ...] = ()
    breakdown: dict[str, dict[str, int]] = field(default_factory=dict)
    detail: str = ""

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1

    def as_dict(self) -> dict[str, Any]:
        """The outcome as plain data, as ``check --format jsonl`` and the live API report it."""
        return {
            "winners": self.winners,
            "termination": self.termination.code,
            "scores": self.scores,
            "tiebreak": self.tiebreak,
            "tiebreaks": [dataclasses.asdict(step) for step in self.tiebreaks],
        }

    @property
    def tiebreak(self) -> str:
        """The tie-breaks in words ("tied on 60 VP; rubles left after conversion; shared win"), or ""."""
        if not self.tiebreaks:
            return ""
        best = max(self.scores.values()) if self.scores else None
        words = [f"tied on {best} VP"] if best is not None else []
        words += [step.criterion for step in self.tiebreaks]
        if self.shared:
            words.append("shared win")
        return "; ".join(words)


def rank_by_score(
    scores: dict[str, int],
    termination: Termination,
    tiebreaks: list[tuple[str, dict[str, int]]] = (),  # type: ignore[assignment]
    breakdown: dict[str, dict[str, int]] | None = None,
) -> Outcome:
    """The winners of a game won on points: the most VP, then each tie-break criterion in turn among those still
    tied (the highest value goes on); whoever is tied after the last one shares the win."""
    best = max(scores.values())
    leaders = [name for name, vp in scores.items() if vp == best]
    steps: list[TieBreak] = []
    for criterion, values in tiebreaks:
        if len(leaders) < 2:
            break
        steps.append(TieBreak(criterion, {name: values[name] for name in leaders}))
        most = max(values[name] for name in leaders)
        leaders = [name for name in leaders if values[name] == most]
    return Outcome(leaders, termination, dict(scores), tuple(steps), breakdown or {})


def statement_column(statement: Any) -> int:
    """Where a statement starts: its own column, or its player's for an actor line."""
    column = getattr(statement, "column", None)
    if column is None:
        player = getattr(statement, "player", None)
        column = getattr(player, "column", None)
    return column if isinstance(column, int) and column > 0 else 1


ALTERNATIVES_SHOWN = 40  # an error lists this many legal statements; `explain` lists them all


class GameState(ABC):
    """The state of one game being replayed. ``apply`` judges one parsed statement and changes the state, or raises
    ``IllegalStatement`` (leaving the state as it was).

    A game lists its statement handlers in ``handlers`` (statement class -> method name); ``dispatch`` routes a
    statement to its handler. The final claim and the after-the-end rule are the same for every game and live here.
    """

    players: list[str]
    seats: dict[str, int]
    handlers: ClassVar[dict[type, str]] = {}
    check_claims: bool = True  # False: a broken claim is noted in ``claims_broken`` and the game goes on
    probing: bool = False  # True while a legal list tries a statement's checks: a refusal then lists no alternatives

    @property
    def claims_broken(self) -> list[RefereeError]:
        found: list[RefereeError] | None = self.__dict__.get("_claims_broken")
        if found is None:
            found = self.__dict__["_claims_broken"] = []
        return found

    def claim_failed(self, kind: ErrorKind, message: str, column: int) -> None:
        """A claim (a price, a score, a checkpoint, a winner) that does not hold: the statement is illegal — or,
        when claims are only noted (a house rule laid over stored games), the claim is noted and play goes on."""
        error = self.fail(kind, message, column)
        if self.check_claims:
            raise error
        self.claims_broken.append(error)

    final_claimed: bool = False  # a 'final:' or 'win:' claim has been checked (claims may be repeated)

    def apply(self, statement: Any) -> None:
        """Judge one statement: after the end only claims may follow (the one after-end rule of every game)."""
        if (
            self.is_terminal()
            and not isinstance(statement, (FinalClaim, WinClaim))
            and not self.open_after_end(statement)
        ):
            raise self.after_end(statement_column(statement))
        self.dispatch(statement)

    def open_after_end(self, statement: Any) -> bool:
        """Whether a statement other than a claim may still follow the end (San Juan's optional owed draws)."""
        return False

    def dispatch(self, statement: Any) -> None:
        handler = self.handlers.get(statement.__class__)
        if handler is None:  # pragma: no cover - the grammar yields only handled types
            raise TypeError(statement)
        getattr(self, handler)(statement)

    def seat_of(self, ref: NameRef) -> int:
        """The seat of a named player, or ``unknown-player`` (malformed) at the name."""
        seat = self.seats.get(ref.name)
        if seat is None:
            raise malformed(
                RecordCode.UNKNOWN_PLAYER,
                f"{excerpt(ref.name)} is not a player of this game (Players: {', '.join(self.players)})",
                ref.column,
            )
        return seat

    def fail(self, kind: ErrorKind, message: str, column: int) -> IllegalStatement:
        """An illegal statement with the state summary and the legal alternatives attached (none while probing: the
        legal list itself is being worked out)."""
        if self.probing:
            return illegal(kind, message, column, [])
        legal = self.legal_statements()
        error = illegal(kind, message, column, legal[:ALTERNATIVES_SHOWN])
        error.alternatives_left = max(len(legal) - ALTERNATIVES_SHOWN, 0)
        error.state = self.summary()
        return error

    def after_end(self, column: int) -> IllegalStatement:
        return self.fail(RecordCode.AFTER_END, "the game is over; only 'final:' and 'win:' claims may follow", column)

    def claimed_seats(self, players: Iterable[NameRef]) -> list[int]:
        """The seats a claim line names, each player at most once: an unknown name or a name given twice makes the
        whole line malformed, whatever the values (so names are checked before any value)."""
        seats: list[int] = []
        for ref in players:
            seat = self.seat_of(ref)
            if seat in seats:
                raise malformed(
                    RecordCode.CLAIM_NAMES_TWICE,
                    f"the claim names {ref.name} twice; a claim line names each player at most once",
                    ref.column,
                )
            seats.append(seat)
        return seats

    def apply_final_claim(self, claim: FinalClaim) -> None:
        """``final:`` follows the end (and may be repeated); every listed player's VP must match."""
        self.claimed_seats(entry.player for entry in claim.entries)
        if not self.is_terminal():
            raise self.fail(
                RecordCode.FINAL_MISPLACED, "the game has not ended yet; 'final:' stands after its end", claim.column
            )
        scores = self.outcome().scores
        if scores is None:
            raise self.fail(
                RecordCode.FINAL_NO_SCORES,
                "this game has winners but no scores; claim the winners with 'win:'",
                claim.column,
            )
        for entry in claim.entries:
            if scores[entry.player.name] != entry.vp:
                self.claim_failed(
                    RecordCode.FINAL_MISMATCH,
                    f"{entry.player.name} ends with {scores[entry.player.name]} VP, not {entry.vp}",
                    entry.column,
                )
                break
        self.final_claimed = True

    def apply_win_claim(self, claim: WinClaim) -> None:
        """``win:`` follows the end (and may be repeated) and names exactly the winners."""
        self.claimed_seats(claim.players)
        if not self.is_terminal():
            raise self.fail(
                RecordCode.WIN_MISPLACED,
                "the game has not ended yet; 'win:' stands after the winning turn",
                claim.column,
            )
        winners = self.outcome().winners
        wrong = next((ref for ref in claim.players if ref.name not in winners), None)
        missing = [name for name in winners if name not in {ref.name for ref in claim.players}]
        if wrong is not None:
            message = f"{wrong.name} did not win; the game was won by {', '.join(winners)}"
            self.claim_failed(RecordCode.WIN_MISMATCH, message, wrong.column)
        elif missing:
            message = f"the claim leaves out {', '.join(missing)}, who shares the win"
            self.claim_failed(RecordCode.WIN_MISMATCH, message, claim.column)
        self.final_claimed = True

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome: ...

    def settled(self) -> bool:
        """Over, and nothing that could still change the outcome may follow (e.g. San Juan's optional owed draws
        after the last builder phase). The Result tag is checked from here on."""
        return self.is_terminal()

    def settled_before(self, statement: Any) -> bool:
        """Whether the outcome is settled when ``statement`` comes next: over, and the statement is not one of the
        few that may still change it (so a claim or a stray line after the end closes the game)."""
        return self.settled() or (self.is_terminal() and not self.open_after_end(statement))

    @abstractmethod
    def summary(self) -> str:
        """A few lines a person reads to see where the game stands."""

    @abstractmethod
    def legal_statements(self) -> list[str]:
        """The statements (as record text) that could legally come next — as an error's alternatives list them: a game
        may shorten a long list (``all_legal_statements`` has every one, as ``explain`` lists them)."""

    def all_legal_statements(self) -> list[str]:
        """Every statement that could legally come next, for ``explain`` and completion as a line is typed. The same as
        ``legal_statements`` unless the game shortens that list; such a game overrides this."""
        return self.legal_statements()

    @abstractmethod
    def fingerprint(self) -> tuple[Any, ...]:
        """The whole position as a comparable value: a rejected statement must leave it unchanged."""


@dataclass
class SetupContext:
    """What a game may read at setup besides its players and options: the record's tags (a game may give its own
    tags a meaning, e.g. a board) and the files the record may name, through the read policy (docs/security.md)."""

    tags: dict[str, Tag] = field(default_factory=dict)
    record_dir: Path | None = None
    policy: ReadPolicy = DEFAULT_POLICY
    first_line: int = 1

    def tag(self, name: str) -> Tag | None:
        return next((tag for key, tag in self.tags.items() if key.lower() == name.lower()), None)

    def error_at_tag(self, name: str, kind: ErrorKind, message: str, within: str | None = None) -> RefereeError:
        """A setup error (malformed or illegal, as ``kind`` says) placed on the tag's value — on the part ``within``
        of it when given (a wrong name in a list) — or on the game's first line when the tag is absent."""
        tag = self.tag(name)
        column = tag.column if tag else 1
        if tag is not None and within and within in tag.value:
            column = tag.column + 1 + tag.value.index(within)  # after the opening quote
        error = error_of(kind, message, column)
        return error.at(tag.line if tag else self.first_line)

    def read_resource(
        self, reference: str, registered: Mapping[str, Path], kind: ErrorKind, what: str, tag: str
    ) -> tuple[str, Path]:
        """The text of a file the record names (a registered name, or a file inside the record's folder) and its
        path. Everything else, existing or not, is the same ``kind`` error at ``tag``: a record cannot probe."""
        path = self.policy.locate(reference, registered, self.record_dir)
        if path is None:
            names = ", ".join(sorted(registered)) or "none"
            raise self.error_at_tag(
                tag,
                kind,
                f"no {what} {excerpt(reference)} (registered: {names}; "
                f"{self.policy.where_files_may_be(self.record_dir)})",
            )
        try:
            return _read_resource_text(path, self.policy.max_resource_bytes), path
        except ReadRefused as refused:
            raise self.error_at_tag(
                tag, kind, f"the {what} file {excerpt(reference)} cannot be read: {refused.reason}"
            ) from None
        except UnicodeDecodeError:
            raise self.error_at_tag(tag, kind, f"the {what} file {excerpt(reference)} is not UTF-8 text") from None


_RESOURCE_TEXTS: dict[tuple[Path, int], tuple[tuple[int, int, int], str]] = {}


def _read_resource_text(path: Path, max_bytes: int) -> str:
    """A resource file's text, read again only when the file changed (its inode, size or modification time): every
    game of a large file names the same board, and reading it per game was a tenth of a short game's check."""
    try:
        info = path.stat()
    except OSError as exc:
        raise ReadRefused(exc.strerror or str(exc)) from None
    version = (info.st_ino, info.st_size, info.st_mtime_ns)
    cached = _RESOURCE_TEXTS.get((path, max_bytes))
    if cached is not None and cached[0] == version:
        return cached[1]
    text = read_limited(path, max_bytes).decode("utf-8-sig")
    if len(_RESOURCE_TEXTS) >= 64:  # a few boards and deck lists; bounded whatever a run names
        _RESOURCE_TEXTS.clear()
    _RESOURCE_TEXTS[(path, max_bytes)] = version, text
    return text


class GeneratorFailed(RuntimeError):
    """``Game.play`` could not finish a game: the statements it had written (record text, each accepted), the one
    the referee refused (None when it found none to write) and why. ``referee variant check`` turns it into a
    counterexample record."""

    def __init__(self, lines: list[str], refused: str | None, reason: Exception) -> None:
        super().__init__(f"the generator stopped after {len(lines)} statement(s): {reason}")
        self.lines, self.refused, self.reason = lines, refused, reason


StateT = TypeVar("StateT", bound="GameState")
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True)
class TagPart:
    """One name a tag of the game's own holds, and the registered names it may be: a form offers them (the live
    scorekeeper page). A tag naming one thing has one part (``Board``: the shipped boards); a tag listing several has
    a part per item (``Deck``: the Engineer, one Builder, one Specialist, one Mover)."""

    label: str
    values: tuple[str, ...]


class Game(ABC, Generic[StateT, OptionsT]):
    """A game of the referee: metadata as data, its rule options, its grammar and its state class.

    Generic in the game's state and options classes (``class SaintPetersburg(Game[SPState, SPOptions])``), so the
    hooks a game overrides are checked against its own types; the core holds games as ``GameType``."""

    id: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type]
    rulesets: ClassVar[dict[str, Any]]
    ruleset_aliases: ClassVar[dict[str, str]] = {}
    default_ruleset: ClassVar[str]
    # Tags of the game's own that set a rule option, e.g. {"Board": "board"}; the value is read as the option's
    # type (a tuple from a comma-separated list). Ruleset, then Variant, then these tags.
    tag_options: ClassVar[dict[str, str]] = {}
    # Words that open a statement of this game: a player so named is written in quotes when the referee writes it.
    reserved_words: ClassVar[frozenset[str]] = frozenset()
    # Modules loaded only when needed (z3 and Hypothesis are heavy): the game's z3 proofs (a ``proofs(game,
    # options, tags, out_dir)`` function, see ``referee.proofs``) and its property-suite adapter ("module:Class",
    # a ``referee.testkit.GameAdapter``).
    proofs_module: ClassVar[str | None] = None
    property_adapter: ClassVar[str | None] = None
    # The module whose ``snapshot(state) -> dict`` gives the report page a picture of a position as plain data
    # (``referee report``, docs/report.md); None: the page shows the state summary as text.
    picture_module: ClassVar[str | None] = None
    # The game's documentation page (rules as implemented, notation, options, codes), relative to the project.
    doc_page: ClassVar[str | None] = None
    _parser: ClassVar[LineParser | None] = None

    @classmethod
    def variants_dir(cls) -> Path | None:
        """The folder of the game's registered house-rule variants (``variants/`` beside its package)."""
        module = sys.modules.get(cls.__module__)
        file = getattr(module, "__file__", None)
        return Path(file).parent / "variants" if file else None

    @classmethod
    def tag_choices(cls) -> dict[str, tuple[TagPart, ...]]:
        """The registered names each of the game's own tags (``tag_options``) may take, for a form to offer; a tag
        not here is free text. Names only: a path is never offered (a live table reads registered names only)."""
        return {}

    @classmethod
    def check_options(cls, options: Any) -> str | None:
        """A problem of a whole set of options (values that do not fit together or name unknown cards), or None."""
        return None

    # House-rule card changes (a variant's ``[cards]`` table, docs/variants.md): the card attributes a variant may
    # change, each with what it means ({}: the game takes no card changes). The changes are kept in the game's rule
    # option ``cards`` as sorted (card, attribute, value) triples, so every rule, the generator and the proofs read
    # them from the options they are given.
    card_attributes: ClassVar[dict[str, str]] = {}

    @classmethod
    def card_names(cls, options: Any) -> dict[str, str]:
        """Lower-case name or alias -> canonical name of every card a ``[cards]`` table may change."""
        return {}

    @classmethod
    def stats(cls, statements: list[Any], state: StateT) -> dict[str, Counter[str]]:
        """What a finished game says about balance, as named counters (e.g. ``{"bought": Counter({"Market": 2})}``:
        how often each card was bought), counted from its statements or its final state (``referee stats``)."""
        return {}

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
    def new_state(cls, players: list[str], options: OptionsT, context: SetupContext | None = None) -> StateT:
        """The state before the first statement. ``context`` gives the record's tags and safe file access; raise
        ``context.error_at_tag(...)`` for a setup problem of a tag."""

    @classmethod
    @abstractmethod
    def play(cls, players: list[str], rng: random.Random, options: OptionsT, tags: dict[str, str]) -> str:
        """A complete random legal game as record text (tag section included)."""

    @classmethod
    def statement_text(cls, statement: Any) -> str:
        """One parsed statement as its canonical record line — what ``referee fmt`` writes and ``referee trace``
        shows: card names as printed, keywords in lower case, single spaces, optional parts in one order. Reading
        the line back must give the same statement (its columns aside); ``TypeError`` for a statement the game cannot
        write. The default writes the statements every game shares (``round N``, ``final:``, ``win:``); a game
        writes its own and hands these on."""
        return common_statement_text(statement, cls.reserved_words)


def rule_option(
    default: Any,
    doc: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    choices: tuple[Any, ...] | None = None,
    min_items: int = 0,
) -> Any:
    """A rule option: a dataclass field with its documentation (shown by ``referee options`` and the docs) and the
    values it takes. Whole numbers are at least 0 unless ``minimum`` says otherwise (a divisor says 1); a list's
    items are checked like the option itself."""
    metadata = {
        "doc": doc,
        "minimum": 0 if minimum is None and isinstance(default, int | tuple) else minimum,
        "maximum": maximum,
        "choices": choices,
        "min_items": min_items,
    }
    return dataclasses.field(default=default, metadata=metadata)


def _range_problem(value: int, meta: Mapping[str, Any]) -> str | None:
    low, high = meta.get("minimum"), meta.get("maximum")
    if low is not None and value < low:
        return f"is at least {low}, not {value}"
    if high is not None and value > high:
        return f"is at most {high}, not {value}"
    return None


def check_option(option: dataclasses.Field[Any], default: Any, value: Any) -> tuple[str | None, Any]:
    """(problem, value): whether ``value`` is a valid value of a rule option — its type (a bool is not a number), the
    type of each list item, its range or choices. The value comes back in the option's own type (a list as a tuple)."""
    meta = option.metadata
    kind = type(default)
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple):
            return f"takes a list, not {shown_value(value)}", value
        if len(value) < meta.get("min_items", 0):
            return f"takes at least {meta['min_items']} item(s)", value
        item_type = type(default[0]) if default else str
        for item in value:
            if type(item) is not item_type:
                items = _ITEM_WORDS.get(item_type, item_type.__name__)
                return f"takes a list of {items}, not an item {shown_value(item)}", value
            if isinstance(item, int) and (problem := _range_problem(item, meta)):
                return f"has an item that {problem}", value
        return None, tuple(value)
    if type(value) is not kind:
        return f"takes {_KIND_WORDS.get(kind, kind.__name__)}, not {shown_value(value)}", value
    choices = meta.get("choices")
    if choices is not None and value not in choices:
        return f"is one of {', '.join(map(shown_value, choices))}, not {shown_value(value)}", value
    if isinstance(value, int) and not isinstance(value, bool) and (problem := _range_problem(value, meta)):
        return problem, value
    return None, value


_KIND_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a text"}
_ITEM_WORDS = {bool: "true or false values", int: "whole numbers", float: "numbers", str: "texts"}


def option_docs(options_type: type) -> list[tuple[str, Any, str]]:
    """(name, default, doc) of every rule option of a game, for docs and ``referee options``."""
    rows = []
    for f in dataclasses.fields(options_type):
        default = f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
        rows.append((f.name, default, f.metadata.get("doc", "")))
    return rows


GameType = type[Game[Any, Any]]  # a game class, as the core holds it
