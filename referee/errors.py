"""Verdicts, the error catalogue and the few exception types the referee raises.

Every problem the referee can report has a stable code (an ``ErrorKind`` member). Codes are grouped in one enum per
concern — the record envelope here, each game's rules in its own package — and every enum registers itself in
``CATALOGUE`` so that the CLI, the docs test and the jsonl output see them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any


class Verdict(StrEnum):
    """The four outcomes of judging one game record (the spec's section 5)."""

    VALID = "valid"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    UNFINISHED = "unfinished"


CATALOGUE: dict[str, ErrorKind] = {}
# Former codes that were renamed, still accepted where a user writes a code (the Expect tag): old -> current.
ALIASES: dict[str, str] = {}


def canonical_code(code: str) -> str:
    """The current code for a code as a user wrote it (a documented former name is accepted)."""
    return ALIASES.get(code, code)


def former_codes(renamed: dict[str, str]) -> None:
    """Keep accepting codes that were renamed (old -> current), e.g. in Expect tags of stored records."""
    for old, new in renamed.items():
        if old in CATALOGUE:
            raise RuntimeError(f"former code {old!r} is a current code")
        ALIASES[old] = new


class ErrorKind(Enum):
    """Base of every error-code enum: value is ``(code, verdict, summary)``; ``code`` never changes once shipped.

    Members register themselves in ``CATALOGUE`` as the enum is created (no call needed). Codes follow one
    convention: kebab-case; the record envelope's and the shared claims' codes plain (``syntax``, ``after-end``),
    a game's own codes with its prefix (``sp-``, ``sj-``, ``sny-``).
    """

    def __init__(self, code: str, verdict: Verdict, summary: str) -> None:
        self.code = code
        self.verdict = verdict
        self.summary = summary
        if code in CATALOGUE:
            raise RuntimeError(f"error code {code!r} defined twice")
        CATALOGUE[code] = self

    @classmethod
    def register(cls) -> None:
        """Kept for games written before members registered themselves: nothing to do."""


class RecordCode(ErrorKind):
    """Problems of the record envelope and the text itself (game-agnostic)."""

    SYNTAX = ("syntax", Verdict.MALFORMED, "The line does not follow the record grammar.")
    UNKNOWN_ACTION = ("unknown-action", Verdict.MALFORMED, "The word after 'PLAYER:' is not an action of this game.")
    MISSING_COLON = ("missing-colon", Verdict.MALFORMED, "A statement keyword or player name must be followed by ':'.")
    LINE_TOO_LONG = ("line-too-long", Verdict.MALFORMED, "A line of a record has at most 16 MiB.")
    NUMBER_TOO_LARGE = ("number-too-large", Verdict.MALFORMED, "A number in a record has at most 9 digits.")
    MISSING_NUMBER = ("missing-number", Verdict.MALFORMED, "A number was expected (a price, a count, a round).")
    BAD_TAG_VALUE = (
        "bad-tag-value",
        Verdict.MALFORMED,
        "A tag the game reads (a board, a deck) has a value of the wrong form.",
    )
    DUPLICATE_TAG = ("duplicate-tag", Verdict.MALFORMED, "A tag with a meaning is given at most once per game.")
    BAD_TAG = ("bad-tag", Verdict.MALFORMED, 'A tag line must read [Name "value"].')
    MISSING_TAG = ("missing-tag", Verdict.MALFORMED, "The required tags Game and Players are missing.")
    UNKNOWN_GAME = ("unknown-game", Verdict.MALFORMED, "The Game tag names no supported game.")
    BAD_PLAYERS = (
        "bad-players",
        Verdict.MALFORMED,
        "The Players tag lists every player once, comma-separated, by a name of at most 64 printable characters.",
    )
    PLAYER_COUNT = ("player-count", Verdict.ILLEGAL, "The Players tag lists a player count the game does not allow.")
    UNKNOWN_RULESET = ("unknown-ruleset", Verdict.MALFORMED, "The Ruleset tag names no ruleset of this game.")
    UNKNOWN_VARIANT = (
        "unknown-variant",
        Verdict.MALFORMED,
        "The Variant tag names no registered variant and no readable variant file.",
    )
    BAD_VARIANT = (
        "bad-variant",
        Verdict.MALFORMED,
        "The variant file is not valid (unknown option, wrong type, wrong game).",
    )
    UNKNOWN_CARD = ("unknown-card", Verdict.MALFORMED, "No card of this game has that name.")
    UNKNOWN_PLAYER = ("unknown-player", Verdict.MALFORMED, "The name is not in the Players tag.")
    BODY_BEFORE_TAGS = ("body-before-tags", Verdict.MALFORMED, "Statements appear before the first tag section.")
    UNREADABLE = (
        "unreadable-file",
        Verdict.MALFORMED,
        "The file cannot be read (permissions, a folder, a broken link).",
    )
    BAD_ENCODING = ("bad-encoding", Verdict.MALFORMED, "The file is not UTF-8 text.")
    INTERNAL = (
        "internal-error",
        Verdict.MALFORMED,
        "The referee itself failed on this statement (a bug in the "
        "referee, not in the record): please report it with the record.",
    )
    RESULT_MISMATCH = ("result-mismatch", Verdict.ILLEGAL, "The Result tag names other winners than the game produced.")
    AFTER_END = ("after-end", Verdict.ILLEGAL, "Only 'final:' and 'win:' claims may follow the end of the game.")
    FINAL_MISMATCH = ("final-mismatch", Verdict.ILLEGAL, "The claimed final VP differ from the computed ones.")
    FINAL_MISPLACED = (
        "final-misplaced",
        Verdict.ILLEGAL,
        "'final:' stands after the game has ended (it may be repeated).",
    )
    FINAL_NO_SCORES = (
        "final-no-scores",
        Verdict.ILLEGAL,
        "The game has winners but no scores: 'final:' claims nothing.",
    )
    WIN_MISPLACED = ("win-misplaced", Verdict.ILLEGAL, "'win:' stands after the game has ended (it may be repeated).")
    WIN_MISMATCH = ("win-mismatch", Verdict.ILLEGAL, "The 'win:' claim names other winners than the game produced.")
    CLAIM_NAMES_TWICE = ("claim-names-player-twice", Verdict.MALFORMED, "A claim line names each player at most once.")


@dataclass
class RefereeError(Exception):
    """A problem found in a record: where it is, its code, the rule in words, the state and the alternatives."""

    kind: ErrorKind
    message: str
    column: int = 1
    line: int = 0
    alternatives: list[str] = field(default_factory=list)
    state: str = ""
    alternatives_left: int = 0  # legal statements the (capped) list of alternatives leaves out

    def __post_init__(self) -> None:
        Exception.__init__(self, self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with every field (reports travel between processes: ``--jobs``, Dask)."""
        fields = (self.kind, self.message, self.column, self.line, self.alternatives, self.state)
        return (type(self), (*fields, self.alternatives_left))

    @property
    def verdict(self) -> Verdict:
        return self.kind.verdict

    @property
    def code(self) -> str:
        return self.kind.code

    def at(self, line: int, column_offset: int = 0) -> RefereeError:
        """Place the error on a file line (columns are 1-based within the line)."""
        self.line = line
        self.column += column_offset
        return self


JOB_FAILED = 3  # the exit status of a job that could not be done (docs/cli.md), beside 0 (good) and 1 (a problem)


class JobFailed(Exception):
    """The job could not be done, for a reason that is not a record's: a file could not be written, worker processes
    were lost, a cluster could not be reached. The command line reports it in one line, with an exit status of its
    own (3), never as a judged problem (1)."""


class IllegalStatement(RefereeError):
    """A well-formed statement the rules do not allow here."""


class MalformedStatement(RefereeError):
    """A statement that cannot be read: syntax, unknown names, broken tags."""


def illegal(kind: ErrorKind, message: str, column: int = 1, alternatives: list[str] | None = None) -> IllegalStatement:
    return IllegalStatement(kind, message, column, alternatives=list(alternatives or []))


def malformed(kind: ErrorKind, message: str, column: int = 1) -> MalformedStatement:
    return MalformedStatement(kind, message, column)


def error_of(kind: ErrorKind, message: str, column: int = 1) -> RefereeError:
    """The error of a kind that may be either (a tag's problem): illegal or malformed as its code's verdict says."""
    return illegal(kind, message, column) if kind.verdict is Verdict.ILLEGAL else malformed(kind, message, column)
