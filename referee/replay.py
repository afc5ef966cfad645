"""The one replay loop: judge every game of a record, statement by statement, in file order.

Every consumer drives the same loop — ``check``, ``score``, ``explain``, ``regress``, ``trace``, the report page,
``prove`` and the pytest plugin — through a ``ReplayVisitor`` (as python-chess's PGN reader feeds any visitor): the
loop parses, judges and reports; a visitor only watches (and may stop the replay early, as ``explain`` does).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

from referee.errors import (
    CATALOGUE,
    ErrorKind,
    RecordCode,
    RefereeError,
    Verdict,
    canonical_code,
    error_of,
    illegal,
    malformed,
)
from referee.game import GameState, GameType, Outcome, SetupContext, check_option
from referee.record import (
    BLANK_STATEMENT,
    BadLine,
    GameRecord,
    Tag,
    TwoReadings,
    duplicate_tag,
    excerpt,
    iter_games,
    read_lines,
    remember,
)
from referee.registry import GAMES, find_game
from referee.resources import DEFAULT_POLICY, ReadPolicy, ReadRefused, open_regular
from referee.variant import Variant, apply_variant, resolve_options


@dataclass(frozen=True)
class Expectation:
    """What a record says it should be judged as: ``[Expect "illegal sp-not-your-turn 14"]``."""

    verdict: Verdict
    code: str | None = None
    line: int | None = None

    @classmethod
    def parse(cls, text: str) -> Expectation:
        """Read an Expect tag; ``ValueError`` (with the reason) when it is not VERDICT [CODE] [LINE]."""
        words = text.split()
        if not words or len(words) > 3:
            raise ValueError('an Expect tag reads VERDICT [CODE] [LINE], e.g. "illegal sp-not-your-turn 14"')
        try:
            verdict = Verdict(words[0].lower())
        except ValueError:
            raise ValueError(f"{excerpt(words[0])} is no verdict ({', '.join(v.value for v in Verdict)})") from None
        code = line = None
        for word in words[1:]:
            if word.isdigit() and line is None:
                line = int(word)
            elif code is None and not word.isdigit():
                code = word
            else:
                raise ValueError(f"{excerpt(word)}: an Expect tag reads VERDICT [CODE] [LINE]")
        if code is not None:
            list[Any](GAMES.values())  # the games' codes register when they load
            if canonical_code(code) not in CATALOGUE:
                raise ValueError(f"{excerpt(code)} is no error code (see 'referee codes')")
        return cls(verdict, code, line)

    def __str__(self) -> str:
        return " ".join(str(x) for x in (self.verdict.value, self.code, self.line) if x is not None)


OUTCOME_FIELDS = ("winners", "termination", "scores", "tiebreak", "tiebreaks")  # ``Outcome.as_dict``'s keys


@dataclass
class GameReport:
    """How one game of a file was judged."""

    file: str
    index: int
    line: int
    game: str | None
    verdict: Verdict
    error: RefereeError | None = None
    outcome: Outcome | None = None
    players: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    ruleset: str = ""
    statements: int = 0
    expectation: Expectation | None = None
    expectation_problem: str | None = None  # an Expect tag that cannot be read
    key: str = ""  # the file's path relative to the argument it was found under (for baselines)
    claims_broken: list[RefereeError] = field(default_factory=list)  # when claims do not stop the replay

    @property
    def expectation_met(self) -> bool | None:
        """None when the record states no expectation; False for an Expect tag that cannot be read."""
        if self.expectation_problem is not None:
            return False
        exp = self.expectation
        if exp is None:
            return None
        if exp.verdict != self.verdict:
            return False
        if exp.code is not None and (self.error is None or self.error.code != canonical_code(exp.code)):
            return False
        return not (exp.line is not None and (self.error is None or self.error.line != exp.line))

    @property
    def ok(self) -> bool:
        """Good for the exit code: as expected when an expectation is stated, else valid or unfinished."""
        met = self.expectation_met
        if met is not None:
            return met
        return self.verdict in (Verdict.VALID, Verdict.UNFINISHED)

    def as_dict(self) -> dict[str, Any]:
        error = self.error
        outcome = self.outcome
        data: dict[str, Any] = {
            "file": self.file,
            "index": self.index,
            "game": self.game,
            "verdict": self.verdict.value,
            "line": error.line if error else None,
            "column": error.column if error else None,
            "code": error.code if error else None,
            "message": error.message if error else None,
            **(outcome.as_dict() if outcome else dict.fromkeys(OUTCOME_FIELDS)),
            "players": self.players,
            "ruleset": self.ruleset,
            "first_line": self.line,
            "statements": self.statements,
            "tags": self.tags,
        }
        if error is not None:
            data["rule"] = error.kind.summary
            data["state"] = error.state
            data["alternatives"] = error.alternatives
        if self.expectation is not None or self.expectation_problem is not None:
            data["expected"] = str(self.expectation) if self.expectation else None
            data["expectation_met"] = self.expectation_met
            if self.expectation_problem is not None:
                data["expectation_problem"] = self.expectation_problem
        if self.claims_broken:
            data["claims_broken"] = [
                {"line": e.line, "column": e.column, "code": e.code, "message": e.message} for e in self.claims_broken
            ]
        return data


class ReplayVisitor:
    """Watches one game being replayed (every hook is optional). ``before`` may stop the replay: return False and
    the game is reported as far as it went (``explain`` stops before the line it explains)."""

    def begin(self, record: GameRecord, game: GameType, state: GameState) -> None:
        """Setup is done: the state before the first statement."""

    def before(self, number: int, text: str) -> bool:
        """A body line is about to be read; False stops the replay here."""
        return True

    def statement(self, number: int, text: str, statement: Any, state: GameState) -> None:
        """A statement was judged legal and applied; ``state`` is the state after it."""

    def error(self, error: RefereeError, state: GameState | None) -> None:
        """The game's first problem (``state`` is the state before the offending statement, None in setup)."""

    def end(self, report: GameReport, state: GameState | None) -> None:
        """The game is judged."""


MAX_NAME = 64  # characters of a player name: names appear in every message about a player


def _tag_error(record: GameRecord, name: str, kind: ErrorKind, message: str) -> RefereeError:
    tag = record.tag_entry(name)
    error = error_of(kind, message, tag.column if tag else 1)
    return error.at(tag.line if tag else record.first_line)


def setup(
    record: GameRecord,
    base_dir: Path | None = None,
    house_rule: Variant | None = None,
    policy: ReadPolicy = DEFAULT_POLICY,
) -> tuple[GameType, GameState, str]:
    """Read the tag section: the game, the players, the rule options. Raises a located RefereeError: the first
    problem in reading order (record-format.md §1) — a tag line that cannot be read, or a tag given twice, never hides
    an earlier tag that the rules forbid or that names something unknown, nor does a Players tag a Ruleset above it."""
    envelope = record.envelope_error
    try:
        game = _game_of(record)
        players: list[str] = []
        problems: list[RefereeError] = []
        try:
            players = _players_of(record, game)
        except RefereeError as problem:
            problems.append(problem)
        try:
            options, label = _options_of(record, game, base_dir, house_rule, policy)
        except RefereeError as problem:
            problems.append(problem)
        if problems:
            raise _earliest(problems)
        context = SetupContext(record.tags, base_dir, policy, record.first_line)
        state = game.new_state(players, options, context)
    except RefereeError as problem:
        if envelope is None:
            raise
        if problem.kind is RecordCode.MISSING_TAG:  # the line that could not be read may be the missing tag
            raise envelope from None
        raise _earliest([envelope, problem]) from None
    if envelope is not None:
        raise envelope
    return game, state, label


def _earliest(problems: list[RefereeError]) -> RefereeError:
    """The problem that comes first in reading order (the first one listed among those on one spot)."""
    return min(problems, key=lambda problem: (problem.line, problem.column))


def _game_of(record: GameRecord) -> GameType:
    """The game the ``Game`` tag names (both required tags present)."""
    game_name, players_text = record.tag("Game"), record.tag("Players")
    missing = [name for name, value in (("Game", game_name), ("Players", players_text)) if value is None]
    if missing:
        raise malformed(
            RecordCode.MISSING_TAG,
            f"the required tag(s) {' and '.join(missing)} are missing "
            '(a game starts with [Game "..."] and [Players "..."])',
        ).at(record.first_line)
    game = find_game(game_name or "")
    if game is None:
        titles = ", ".join(g.title for g in GAMES.values())
        message = f"unknown game {excerpt(game_name or '')} (games: {titles})"
        raise _tag_error(record, "Game", RecordCode.UNKNOWN_GAME, message)
    return game


def _players_of(record: GameRecord, game: GameType) -> list[str]:
    """The players of the ``Players`` tag, each once, printable and short, as many as the game allows; and a
    ``Result`` tag that names only them, each once. (A pair of tags found good is kept: the games of a file repeat
    them.)"""
    result = record.tag_entry("Result")
    key = (game, record.tag("Players") or "", result.value if result is not None else None)
    known = _GOOD_PLAYERS.get(key)
    if known is not None:
        return list(known)
    players = _checked_players(record, game, result)
    remember(_GOOD_PLAYERS, key, tuple(players), 256)
    return players


_GOOD_PLAYERS: dict[tuple[GameType, str, str | None], tuple[str, ...]] = {}


def _checked_players(record: GameRecord, game: GameType, result: Tag | None) -> list[str]:
    players = [name.strip() for name in (record.tag("Players") or "").split(",")]
    odd = next((name for name in players if len(name) > MAX_NAME or not name.isprintable()), None)
    problem = None
    if odd is not None:
        problem = f"a player name has at most {MAX_NAME} printable characters, not {excerpt(odd)}"
    elif any(not name for name in players):
        problem = "the Players tag lists an empty name: every player once, comma-separated, in seat order"
    elif len(set(players)) != len(players):
        again = next(name for index, name in enumerate(players) if name in players[:index])
        problem = f"the Players tag lists {excerpt(again)} twice: every player once, comma-separated, in seat order"
    if problem is not None:  # names that cannot be read: nothing else is read against them
        raise _tag_error(record, "Players", RecordCode.BAD_PLAYERS, problem)
    unreadable = None if result is None else _result_names_problem(record, result, players)
    problems = [] if unreadable is None else [unreadable]
    if not game.min_players <= len(players) <= game.max_players:
        # names that read well, a count the rules forbid: illegal (record format §1); a Result tag above it that
        # cannot be read against those names comes first
        count = f"{game.title} is played by {game.min_players} to {game.max_players} players, not {len(players)}"
        problems.append(_tag_error(record, "Players", RecordCode.PLAYER_COUNT, count))
    if problems:
        raise _earliest(problems)
    return players


def _result_names_problem(record: GameRecord, result: Tag, players: list[str]) -> RefereeError | None:
    """What makes a Result tag unreadable against the players, if anything: a name that is no player's, or a player
    named twice (a claim names each player at most once, record-format.md §1, the Result tag too)."""
    claimed = _claimed_winners(result.value)
    unknown = [name for name in claimed if name not in players]
    if unknown:
        message = (
            f"the Result tag names {excerpt(unknown[0])}, who is not a player of this game "
            f"(Players: {', '.join(players)})"
        )
        return _tag_error(record, "Result", RecordCode.UNKNOWN_PLAYER, message)
    twice = next((name for index, name in enumerate(claimed) if name in claimed[:index]), None)
    if twice is not None:
        message = f"the Result tag names {excerpt(twice)} twice"
        return _tag_error(record, "Result", RecordCode.CLAIM_NAMES_TWICE, message)
    return None


def _options_of(
    record: GameRecord, game: GameType, base_dir: Path | None, house_rule: Variant | None, policy: ReadPolicy
) -> tuple[Any, str]:
    """The rule options: the ruleset, then the record's variant, then a house rule laid over it, then the game's
    own tags (a board, a deck); and a label naming them."""
    try:
        options, label = resolve_options(game, record.tag("Ruleset"), record.tag("Variant"), base_dir, policy)
        if house_rule is not None and find_game(house_rule.game) is game:
            options = apply_variant(game, options, house_rule, keep_ruleset=True)
            label += f" + {house_rule.name}"
    except RefereeError as error:
        tag = "Variant" if error.kind in (RecordCode.UNKNOWN_VARIANT, RecordCode.BAD_VARIANT) else "Ruleset"
        raise _tag_error(record, tag, error.kind, error.message) from None
    return _apply_tag_options(game, options, record), label


def _apply_tag_options(game: GameType, options: Any, record: GameRecord) -> Any:
    """The game's own tags that set a rule option (``Game.tag_options``), read as the option's type and checked like
    a variant's value (type, list items, range)."""
    written = tuple(
        (tag_name, tag.value) for tag_name in game.tag_options if (tag := record.tag_entry(tag_name)) is not None
    )
    if not written:
        return options
    key = (game, options, written)
    try:
        cached = _TAG_OPTIONS.get(key) if not record.repeated else None
    except TypeError:  # options that cannot be a key (an unhashable value): never kept
        cached = None
    if cached is not None:  # every game of an archive names the same board: read and checked once
        return cached
    changes: dict[str, Any] = {}
    fields = {f.name: f for f in dataclasses.fields(options)}
    for tag_name, option in game.tag_options.items():
        tag = record.tag_entry(tag_name)
        if tag is None:
            continue
        again = next((each for each in record.repeated if each.name.lower() == tag_name.lower()), None)
        if again is not None:
            raise duplicate_tag(again, tag)
        default = getattr(options, option)
        try:
            value = option_value(default, tag.value)
        except ValueError as exc:
            raise _tag_error(record, tag_name, RecordCode.BAD_TAG_VALUE, f"the {tag_name} tag: {exc}") from None
        problem, value = check_option(fields[option], default, value)
        if problem:
            raise _tag_error(record, tag_name, RecordCode.BAD_TAG_VALUE, f"the {tag_name} tag: {problem}")
        changes[option] = value
    result = dataclasses.replace(options, **changes) if changes else options
    with contextlib.suppress(TypeError):  # options that cannot be a key (an unhashable value): not kept
        remember(_TAG_OPTIONS, key, result, 256)
    return result


_TAG_OPTIONS: dict[tuple[Any, Any, tuple[tuple[str, str], ...]], Any] = {}


def option_value(default: Any, text: str) -> Any:
    """A rule option's value written as text (a tag, a command-line option): the option's own type."""
    if isinstance(default, bool):
        if text.strip().lower() in ("true", "yes", "1"):
            return True
        if text.strip().lower() in ("false", "no", "0"):
            return False
        raise ValueError(f"expected true or false, not {excerpt(text)}")
    if isinstance(default, int):
        try:
            return int(text.strip())
        except ValueError:
            raise ValueError(f"expected a whole number, not {excerpt(text)}") from None
    if isinstance(default, tuple):
        items = tuple(item.strip() for item in text.split(","))
        if any(not item for item in items):
            raise ValueError(f"expected a comma-separated list, not {excerpt(text)}")
        return items
    return text.strip()


class KeepState(ReplayVisitor):
    """Keeps the state a game ended in (reports do not, so that a bulk check runs in constant memory)."""

    state: GameState | None = None

    def end(self, report: GameReport, state: GameState | None) -> None:
        self.state = state


@dataclass(frozen=True)
class Referee:
    """How games are judged: what a record may read (``policy``), a house rule laid over every record, and whether
    a broken claim stops the replay (``check_claims``) or is noted while the game goes on — to see what a house rule
    does to games whose claims were written for the original rules."""

    policy: ReadPolicy = DEFAULT_POLICY
    house_rule: Variant | None = None
    check_claims: bool = True

    def judge(
        self, record: GameRecord, base_dir: Path | None = None, visitor: ReplayVisitor | None = None
    ) -> GameReport:
        """Replay one game against the rules and say what it is."""
        visitor = visitor or ReplayVisitor()
        report = GameReport(record.file, record.index, record.first_line, None, Verdict.VALID, tags=record.tag_values())
        expect = record.tag_entry("Expect")
        if expect is not None:
            try:
                report.expectation = Expectation.parse(expect.value)
            except ValueError as exc:
                report.expectation_problem = f"line {expect.line}: {exc}"
        state: GameState | None = None
        try:
            game, state, report.ruleset = setup(record, base_dir, self.house_rule, self.policy)
            state.check_claims = self.check_claims
            report.game, report.players = game.id, list(state.players)
            visitor.begin(record, game, state)
            self._replay(record, game, state, report, visitor)
        except RefereeError as error:
            # A report outlives the replay: it keeps the error, not the frames it passed through or the exception it
            # replaced (a 1,000-frame RecursionError of a hostile variant file), which would keep states alive and,
            # once tblib is installed (Dask does), be pickled with it and overflow the stack.
            error.__traceback__ = error.__context__ = error.__cause__ = None
            report.verdict, report.error = error.verdict, error
            if report.game is None:  # a problem in the tag section: the game is still named when the tag names one
                found = find_game(record.tag("Game") or "")
                report.game = found.id if found is not None else None
            if state is not None and not error.state:
                error.state = state.summary()
            visitor.error(error, state)
        else:
            report.verdict = Verdict.VALID if state.is_terminal() else Verdict.UNFINISHED
        if state is not None:
            report.claims_broken = list(state.claims_broken)
        visitor.end(report, state)
        return report

    def _replay(
        self, record: GameRecord, game: GameType, state: GameState, report: GameReport, visitor: ReplayVisitor
    ) -> None:
        # The hot loop of every check: the visitor's hooks are called only when it has them.
        replay = Replay(self, record, game, state, report)
        feed = replay.feed
        before = None if type(visitor).before is ReplayVisitor.before else visitor.before
        watch = None if type(visitor).statement is ReplayVisitor.statement else visitor.statement
        for number, text in record.body:
            if before is not None and not before(number, text if isinstance(text, str) else ""):
                return
            statement = feed(number, text)
            if watch is not None and statement is not None:
                watch(number, cast(str, text), statement, state)  # a statement was read: the line was text
        replay.finish()

    def judge_text(self, text: str, file: str = "<string>", base_dir: Path | None = None) -> list[GameReport]:
        return [self.judge(record, base_dir) for record in iter_games(text, file)]

    def judge_source(self, source: RecordSource, visitor: ReplayVisitor | None = None) -> Iterator[GameReport]:
        """Judge every game of one record file, one at a time; a file that cannot be read is one malformed 'game'."""
        if source.problem is not None:
            yield _unreadable(source, RecordCode.UNREADABLE, f"cannot read: {source.problem}")
            return
        try:
            lines = source.lines(self.policy)
        except ReadRefused as refused:
            yield _unreadable(source, RecordCode.UNREADABLE, f"cannot read the file: {refused.reason}")
            return
        found = False
        try:
            for record in iter_games(lines, source.display):
                found = True
                report = self.judge(record, source.record_dir, visitor)
                report.key = source.key
                yield report
        except ReadRefused as refused:  # the file changed or grew past the limit while it was read
            yield _unreadable(source, RecordCode.UNREADABLE, f"cannot read the rest of the file: {refused.reason}")
            return
        if not found:
            yield _unreadable(source, RecordCode.MISSING_TAG, "the file holds no game (no tag section)")


DEFAULT_REFEREE = Referee()


def judge(
    record: GameRecord,
    base_dir: Path | None = None,
    house_rule: Variant | None = None,
    policy: ReadPolicy = DEFAULT_POLICY,
    visitor: ReplayVisitor | None = None,
) -> GameReport:
    """Replay one game against the rules and say what it is (see ``Referee``)."""
    return Referee(policy, house_rule).judge(record, base_dir, visitor)


class Replay:
    """One game being judged line by line: what the replay loop knows between two lines. ``Referee.judge`` feeds it
    a record's body; the live ``Table`` feeds it one line at a time — the same steps, so both judge a line alike."""

    __slots__ = (
        "apply",
        "claims",
        "is_terminal",
        "parse",
        "parser",
        "record",
        "referee",
        "report",
        "result_checked",
        "state",
        "terminal",
    )

    def __init__(
        self, referee: Referee, record: GameRecord, game: GameType, state: GameState, report: GameReport
    ) -> None:
        self.referee, self.record, self.state, self.report = referee, record, state, report
        # the bound methods looked up once per game (this is the hot loop of every check)
        self.parser = game.parser()
        self.parse, self.apply, self.is_terminal = self.parser.parse, state.apply, state.is_terminal
        self.claims = state.claims_broken
        self.result_checked = False
        self.terminal = self.is_terminal()  # whether the game is over before the next line (only ``apply`` changes it)

    def feed(self, number: int, text: str | BadLine) -> Any:
        """Judge one body line (file line ``number``): the statement it applied, None for a blank or comment line;
        a ``RefereeError`` placed on its line when the line (or the Result tag, settled by it) is not legal."""
        if isinstance(text, BadLine):
            if not self.result_checked and self.terminal:
                self._check_result()
            raise malformed(text.kind, text.reason, text.column).at(number)
        # The Result tag (read first) is judged the moment the outcome is settled: in reading order it comes before
        # any problem of a later statement (a wrong claim, a stray line after the end).
        try:
            statement = self.parse(text)
        except RefereeError as error:
            if not self.result_checked and self.terminal:
                self._check_result()
            raise self._first_in_line(text, error).at(number) from None
        except Exception as exc:
            raise _internal(exc, number) from exc
        if statement is None or statement is BLANK_STATEMENT:
            return None
        state = self.state
        if statement.__class__ is TwoReadings:
            statement = self.parser.resolve(statement, state.seats)
        if self.terminal and not self.result_checked and state.settled_before(statement):
            self._check_result()
        claims = self.claims
        noted = len(claims)
        try:
            self.apply(statement)
        except RefereeError as error:
            raise error.at(number) from None
        except Exception as exc:
            raise _internal(exc, number) from exc
        if len(claims) > noted:
            for broken in claims[noted:]:
                broken.line = number
        self.report.statements += 1
        terminal = self.terminal = self.is_terminal()
        if terminal and not self.result_checked and state.settled():
            self._check_result()
        return statement

    def _first_in_line(self, text: str, error: RefereeError) -> RefereeError:
        """A line that cannot be read, judged in reading order: an unknown player written before the unreadable token
        (``Zed: buy Foo``) is the line's first problem; else the parser's error."""
        try:
            for name in self.parser.players_before(text, error.column):
                self.state.seat_of(name)
        except RefereeError as unknown:
            return unknown
        except Exception as exc:  # the error stands as read; a failure here is the referee's own
            return _internal(exc, 0)
        return error

    def finish(self) -> None:
        """The body has ended: the outcome of a game that is over, and its Result tag if not yet judged."""
        if self.terminal:
            self.report.outcome = self.state.outcome()
            if not self.result_checked:
                self._check_result()

    def _check_result(self) -> None:
        """The Result tag against the outcome, now settled."""
        self.result_checked = True
        tag = self.record.tag_entry("Result")
        if tag is None:
            return
        claimed = set(_claimed_winners(tag.value))
        winners = self.state.outcome().winners
        if not claimed or claimed == set(winners):
            return
        error = illegal(
            RecordCode.RESULT_MISMATCH,
            f"the Result tag names {', '.join(sorted(claimed))}; the game was won by {', '.join(winners)}",
            tag.column,
        ).at(tag.line)
        if self.referee.check_claims:
            raise error
        self.claims.append(error)


def _internal(exc: Exception, line: int) -> RefereeError:
    """A referee bug on one statement: reported for that game only, never a traceback that stops a bulk check."""
    return malformed(
        RecordCode.INTERNAL,
        f"the referee failed here ({type(exc).__name__}: {excerpt(str(exc), 200)}); the games after this one are "
        "still judged",
    ).at(line)


def _claimed_winners(value: str) -> list[str]:
    """The names a Result tag claims; ``*``, ``?`` or an empty value claim nothing."""
    if value.strip() in ("", "*", "?"):
        return []
    return [name.strip() for name in re.split(r"[,;]", value) if name.strip()]


def check_text(
    text: str,
    file: str = "<string>",
    base_dir: Path | None = None,
    house_rule: Variant | None = None,
    policy: ReadPolicy = DEFAULT_POLICY,
) -> list[GameReport]:
    """Judge every game of a record text (under an extra house rule, when given)."""
    return Referee(policy, house_rule).judge_text(text, file, base_dir)


def check_file(path: Path, house_rule: Variant | None = None, policy: ReadPolicy = DEFAULT_POLICY) -> list[GameReport]:
    """Judge every game of a record file; an unreadable file is one malformed 'game'."""
    return list(Referee(policy, house_rule).judge_source(RecordSource(path, str(path), path.name)))


def _unreadable(source: RecordSource, kind: RecordCode, message: str) -> GameReport:
    report = GameReport(source.display, 1, 1, None, Verdict.MALFORMED, malformed(kind, message).at(1))
    report.key = source.key
    return report


@dataclass(frozen=True)
class RecordSource:
    """A record file found from the user's arguments: where to read it, how to show it, and a key that does not
    depend on the working folder or the spelling of the argument (the path relative to the argument), for
    baselines. ``problem`` says why a file found while searching a folder cannot be read."""

    path: Path | None  # None: standard input
    display: str
    key: str
    problem: str | None = None

    @property
    def record_dir(self) -> Path | None:
        """The folder whose files the record may name (none for standard input)."""
        return self.path.parent if self.path is not None else None

    def lines(self, policy: ReadPolicy) -> Iterator[tuple[int, str | BadLine]]:
        """The file's numbered lines, read as they are judged (``ReadRefused`` when it cannot be read). The file is
        opened at once, so a refusal comes before any line."""
        stream = sys.stdin.buffer if self.path is None else open_regular(self.path, policy.max_bytes)
        return self._lines(stream, policy)

    def _lines(self, stream: BinaryIO, policy: ReadPolicy) -> Iterator[tuple[int, str | BadLine]]:
        try:
            yield from read_lines(stream, policy.max_bytes)
        except OSError as exc:
            raise ReadRefused(exc.strerror or str(exc)) from None
        finally:
            if self.path is not None:
                stream.close()


STDIN = "-"
STDIN_NAME = "<stdin>"  # the file name a record read from standard input is reported under


def find_records(arguments: Iterable[Path | str]) -> Iterator[RecordSource]:
    """The record files the arguments name: files as given (``-`` is standard input), folders searched recursively
    for ``*.rec`` in sorted order. Nothing is skipped silently: an unreadable folder, a broken link or a loop of
    links inside a searched folder is reported as a source that cannot be read."""
    for argument in arguments:
        if str(argument) == STDIN:
            yield RecordSource(None, STDIN_NAME, STDIN_NAME)
            continue
        path = Path(argument)
        if path.is_dir():
            yield from _search(path)
        else:
            yield RecordSource(path, str(path), path.name)


def _search(root: Path) -> Iterator[RecordSource]:
    """The record files under a folder, depth first in name order, walked without recursion (a folder thousands of
    levels deep is walked like any other) and in time linear in the number of entries: each folder is listed once
    and known by its device and inode, so a link back to a folder being searched is not followed again."""

    def source(path: str, problem: str | None = None) -> RecordSource:
        key = path[len(prefix) :] if path.startswith(prefix) else os.path.basename(path)
        return RecordSource(Path(path), path, key, problem)

    prefix = os.path.join(str(root), "")  # the root's path and a separator: what a key leaves out
    # Each level of the walk: the folder's (device, inode), and its entries still to visit, in reverse name order.
    stack: list[tuple[tuple[int, int], list[os.DirEntry[str]]]] = []
    folder: str | None = str(root)
    while True:
        if folder is not None:
            opened = _listed(folder, {identity for identity, _ in stack})
            if isinstance(opened, str):
                yield source(folder, opened)
            elif opened is not None:
                stack.append(opened)
            folder = None
        if not stack:
            return
        entries = stack[-1][1]
        if not entries:
            stack.pop()
            continue
        entry = entries.pop()
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            folder = entry.path
        elif entry.name.endswith(".rec"):
            if entry.is_symlink() and not os.path.exists(entry.path):
                yield source(entry.path, "a broken symbolic link (or a loop of links)")
            else:
                yield source(entry.path)


def _listed(
    folder: str, searching: set[tuple[int, int]]
) -> tuple[tuple[int, int], list[os.DirEntry[str]]] | str | None:
    """A folder's identity and its entries in reverse name order; why it cannot be searched; or None for a folder
    already being searched (reached again through a link: its records are judged there, once)."""
    try:
        status = os.stat(folder)
        identity = (status.st_dev, status.st_ino)
        if identity in searching:
            return None
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name, reverse=True)
    except OSError as exc:
        return f"the folder cannot be listed ({exc.strerror or exc})"
    return identity, entries


def record_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The readable record files of ``find_records`` (for tools that only want paths)."""
    for found in find_records(paths):
        if found.path is not None and found.problem is None:
            yield found.path
