"""The one replay loop: judge every game of a record, statement by statement, in file order."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import RecordCode, RefereeError, Verdict, illegal, malformed
from referee.game import Game, GameState, Outcome, SetupContext
from referee.record import GameRecord, excerpt, is_blank_statement, read_text, split_games
from referee.registry import GAMES, find_game
from referee.resources import DEFAULT_POLICY, ReadPolicy
from referee.variant import Variant, apply_variant, resolve_options


@dataclass(frozen=True)
class Expectation:
    """What a record says it should be judged as: ``[Expect "illegal not-your-turn 14"]``."""

    verdict: Verdict
    code: str | None = None
    line: int | None = None

    @classmethod
    def parse(cls, text: str) -> Expectation | None:
        words = text.split()
        if not words:
            return None
        try:
            verdict = Verdict(words[0].lower())
        except ValueError:
            return None
        code = next((w for w in words[1:] if not w.isdigit()), None)
        line = next((int(w) for w in words[1:] if w.isdigit()), None)
        return cls(verdict, code, line)

    def __str__(self) -> str:
        return " ".join(str(x) for x in (self.verdict.value, self.code, self.line) if x is not None)


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
    state: GameState | None = None

    @property
    def expectation_met(self) -> bool | None:
        """None when the record states no expectation."""
        exp = self.expectation
        if exp is None:
            return None
        if exp.verdict != self.verdict:
            return False
        if exp.code is not None and (self.error is None or self.error.code != exp.code):
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
            "scores": outcome.scores if outcome else None,
            "winners": outcome.winners if outcome else None,
            "tiebreak": outcome.tiebreak if outcome else None,
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
        if self.expectation is not None:
            data["expected"] = str(self.expectation)
            data["expectation_met"] = self.expectation_met
        return data


def _tag_error(record: GameRecord, name: str, kind: RecordCode, message: str) -> RefereeError:
    tag = record.tag_entry(name)
    error = malformed(kind, message, tag.column if tag else 1)
    return error.at(tag.line if tag else record.first_line)


def setup(
    record: GameRecord,
    base_dir: Path | None = None,
    house_rule: Variant | None = None,
    policy: ReadPolicy = DEFAULT_POLICY,
) -> tuple[type[Game], GameState, str]:
    """Read the tag section: the game, the players, the rule options. Raises a located RefereeError."""
    if record.envelope_error is not None:
        raise record.envelope_error
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
        raise _tag_error(
            record,
            "Game",
            RecordCode.UNKNOWN_GAME,
            f"unknown game '{game_name}' (games: " + ", ".join(g.title for g in GAMES.values()) + ")",
        )
    players = [name.strip() for name in (players_text or "").split(",")]
    if any(not name for name in players) or len(set(players)) != len(players):
        raise _tag_error(
            record,
            "Players",
            RecordCode.BAD_PLAYERS,
            "the Players tag lists every player once, comma-separated, in seat order",
        )
    if not game.min_players <= len(players) <= game.max_players:
        raise _tag_error(
            record,
            "Players",
            RecordCode.BAD_PLAYERS,
            f"{game.title} is played by {game.min_players} to {game.max_players} players, not {len(players)}",
        )
    result = record.tag_entry("Result")
    if result is not None:
        unknown = [name for name in _claimed_winners(result.value) if name not in players]
        if unknown:
            raise _tag_error(
                record,
                "Result",
                RecordCode.UNKNOWN_PLAYER,
                f"the Result tag names '{unknown[0]}', who "
                f"is not a player of this game (Players: {', '.join(players)})",
            )
    try:
        options, label = resolve_options(game, record.tag("Ruleset"), record.tag("Variant"), base_dir)
        if house_rule is not None and find_game(house_rule.game) is game:
            options = apply_variant(game, options, house_rule, keep_ruleset=True)
            label += f" + {house_rule.name}"
    except RefereeError as error:
        tag = "Variant" if error.kind in (RecordCode.UNKNOWN_VARIANT, RecordCode.BAD_VARIANT) else "Ruleset"
        raise _tag_error(record, tag, error.kind, error.message) from None
    options = _apply_tag_options(game, options, record)
    context = SetupContext(record.tags, base_dir, policy, record.first_line)
    return game, game.new_state(players, options, context), label


def _apply_tag_options(game: type[Game], options: Any, record: GameRecord) -> Any:
    """The game's own tags that set a rule option (``Game.tag_options``), read as the option's type."""
    changes: dict[str, Any] = {}
    for tag_name, option in game.tag_options.items():
        tag = record.tag_entry(tag_name)
        if tag is None:
            continue
        default = getattr(options, option)
        try:
            changes[option] = option_value(default, tag.value)
        except ValueError as exc:
            raise _tag_error(record, tag_name, RecordCode.BAD_TAG_VALUE, f"the {tag_name} tag: {exc}") from None
    return dataclasses.replace(options, **changes) if changes else options


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


def judge(
    record: GameRecord,
    base_dir: Path | None = None,
    house_rule: Variant | None = None,
    policy: ReadPolicy = DEFAULT_POLICY,
) -> GameReport:
    """Replay one game against the rules and say what it is."""
    tags = {name: tag.value for name, tag in record.tags.items()}
    expectation = Expectation.parse(record.tag("Expect") or "")
    report = GameReport(
        record.file, record.index, record.first_line, None, Verdict.VALID, tags=tags, expectation=expectation
    )
    try:
        game, state, report.ruleset = setup(record, base_dir, house_rule, policy)
    except RefereeError as error:
        report.verdict, report.error = error.verdict, error
        return report
    report.game, report.players, report.state = game.id, state.players, state
    parser = game.parser()
    count = 0
    result_checked = False
    try:
        for number, text in record.body:
            # The Result tag (read first) is judged the moment the outcome is settled: in reading order it comes
            # before any problem of a later statement (a wrong claim, a stray line after the end).
            try:
                statement = parser.parse(text)
            except RefereeError as error:
                if not result_checked and state.is_terminal():
                    _check_result_tag(record, state.outcome())
                error.line = number
                raise
            except Exception as exc:
                raise _internal(exc, number) from exc
            if is_blank_statement(statement):
                continue
            if not result_checked and state.settled_before(statement):
                result_checked = True
                _check_result_tag(record, state.outcome())
            try:
                state.apply(statement)
                count += 1
            except RefereeError as error:
                error.line = number
                raise
            except Exception as exc:
                raise _internal(exc, number) from exc
            if not result_checked and state.settled():
                result_checked = True
                _check_result_tag(record, state.outcome())
        if state.is_terminal():
            report.outcome = state.outcome()
            if not result_checked:
                _check_result_tag(record, report.outcome)
    except RefereeError as error:
        report.verdict, report.error, report.statements = error.verdict, error, count
        if not error.state:
            error.state = state.summary()
        return report
    report.statements = count
    report.verdict = Verdict.VALID if state.is_terminal() else Verdict.UNFINISHED
    return report


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


def _check_result_tag(record: GameRecord, outcome: Outcome) -> None:
    tag = record.tag_entry("Result")
    claimed = set(_claimed_winners(tag.value)) if tag is not None else set()
    if tag is not None and claimed and claimed != set(outcome.winners):
        raise illegal(
            RecordCode.RESULT_MISMATCH,
            f"the Result tag names {', '.join(sorted(claimed))}; the game was won by {', '.join(outcome.winners)}",
            tag.column,
        ).at(tag.line)


def check_text(
    text: str,
    file: str = "<string>",
    base_dir: Path | None = None,
    house_rule: Variant | None = None,
    policy: ReadPolicy = DEFAULT_POLICY,
) -> list[GameReport]:
    """Judge every game of a record text (under an extra house rule, when given)."""
    return [judge(record, base_dir, house_rule, policy) for record in split_games(text, file)]


def check_file(path: Path, house_rule: Variant | None = None) -> list[GameReport]:
    """Judge every game of a record file; an unreadable file is one malformed 'game'."""
    try:
        text = read_text(path)
    except UnicodeDecodeError as exc:
        error = malformed(RecordCode.BAD_ENCODING, f"not UTF-8 text ({exc.reason} at byte {exc.start})").at(1)
        return [GameReport(str(path), 1, 1, None, Verdict.MALFORMED, error)]
    except OSError as exc:
        error = malformed(RecordCode.UNREADABLE, f"cannot read the file: {exc.strerror or exc}").at(1)
        return [GameReport(str(path), 1, 1, None, Verdict.MALFORMED, error)]
    reports = check_text(text, str(path), path.parent, house_rule)
    if not reports:
        error = malformed(RecordCode.MISSING_TAG, "the file holds no game (no tag section)").at(1)
        reports = [GameReport(str(path), 1, 1, None, Verdict.MALFORMED, error)]
    return reports


def record_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Files as given, and folders searched (recursively, sorted) for ``*.rec``."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.rec") if p.is_file())
        else:
            yield path
