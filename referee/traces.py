"""Golden playthroughs (as OpenSpiel keeps them): a canonical text trace of a record's replay, and its check.

``referee trace FILE`` writes, for every game of a record file, its setup and then after each statement: the record
line, the statement's canonical text (``Game.statement_text``), the phase or turn (the first line of
``GameState.summary``), the number of legal statements (``len(state.legal_statements())``) and the rest of the state
summary; then how the game ended. ``referee regress --traces DIR`` replays the records that have a stored trace and
shows, per game, the first statement whose trace differs — at its record line — or rewrites the traces
(``--update``) after a rules change made on purpose.

A trace names no path and no time: the same record under the same rules gives the same bytes anywhere, and a
record reformatted by ``referee fmt`` keeps its trace (statements are written canonically; line numbers stay).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from referee.cli_options import OutputFile, read_policy, reading_options
from referee.files import new_file, written_by_referee
from referee.game import GameState, GameType
from referee.record import GameRecord, excerpt, iter_games
from referee.replay import STDIN_NAME, GameReport, RecordSource, Referee, ReplayVisitor, find_records
from referee.resources import DEFAULT_MAX_BYTES, ReadRefused, read_limited

TRACE_MARK = "# referee trace 1"
HEADER = (
    f"{TRACE_MARK}: after each statement its line and canonical text, the phase or turn, the number of legal\n"
    "# statements and the state lines that changed ('| ')\n"
    "# written by 'referee trace', compared by 'referee regress --traces' (rewritten with --update)\n"
)
SUFFIX = ".trace"
STATE = "  | "  # a state line of a block
DETAIL = "  "  # the phase or turn and the legal count


class TraceVisitor(ReplayVisitor):
    """Writes the trace of the games it watches into ``lines`` (one game after the other)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._game: GameType | None = None
        self._started = False
        self._previous: list[str] | None = None  # the state lines after the last statement
        self.games = 0  # games ended

    def begin(self, record: GameRecord, game: GameType, state: GameState) -> None:
        self._game, self._started, self._previous = game, True, None
        self.lines.append(f"game {record.index} (line {record.first_line}): {game.title}; {', '.join(state.players)}")
        self.lines.append("setup")
        self._state(state)

    def before(self, number: int, text: str) -> bool:
        return True

    def statement(self, number: int, text: str, statement: Any, state: GameState) -> None:
        assert self._game is not None
        try:
            canonical = self._game.statement_text(statement)
        except (TypeError, NotImplementedError):  # a game without a writer for it: the line as written
            canonical = text.strip()
        self.lines.append(f"line {number}: {canonical}")
        self._state(state)

    def end(self, report: GameReport, state: GameState | None) -> None:
        if not self._started:
            self.lines.append(f"game {report.index} (line {report.line}): {report.game or '?'}; not set up")
        self.lines.append(f"end: {describe_end(report)}")
        self.games += 1
        self._game, self._started = None, False

    def _state(self, state: GameState) -> None:
        """The phase or turn, the legal count, and the state lines that changed since the last statement (all of
        them at setup, or when their number changed): compact, and a difference shows where it arises."""
        summary = [line.rstrip() for line in state.summary().splitlines()] or [""]
        self.lines.append(f"{DETAIL}{summary[0].strip()}")
        self.lines.append(f"{DETAIL}legal: {len(state.legal_statements())}")
        rest, previous = summary[1:], self._previous
        if previous is None or len(previous) != len(rest):
            changed = rest
        else:
            changed = [line for line, before in zip(rest, previous, strict=True) if line != before]
        self.lines.extend(f"{STATE}{line}".rstrip() for line in changed)
        self._previous = rest


def describe_end(report: GameReport) -> str:
    """How a game ended, in a trace: the verdict and, for a finished game, the winners, scores and termination;
    for a problem its code and line (never its message, whose wording may change without the rules changing)."""
    text = report.verdict.value
    error, outcome = report.error, report.outcome
    if error is not None:
        text += f" {error.code} at line {error.line}"
    elif outcome is not None:
        text += f"; won by {', '.join(outcome.winners)} ({outcome.termination.code})"
        if outcome.scores:
            text += "; " + ", ".join(f"{name} {vp}" for name, vp in outcome.scores.items())
        if outcome.tiebreak:
            text += f"; {outcome.tiebreak}"
    else:
        text += f" after {report.statements} statement(s)"
    return text


def trace_source(source: RecordSource, referee: Referee) -> str:
    """The trace of every game of one record file."""
    visitor = TraceVisitor()
    for judged, report in enumerate(referee.judge_source(source, visitor), 1):
        if visitor.games < judged:  # a file that could not be read: no replay, one malformed "game"
            visitor.end(report, None)
    return HEADER + "".join(f"{line}\n" for line in visitor.lines)


def trace_text(text: str, referee: Referee | None = None, base_dir: Path | None = None) -> str:
    """The trace of every game of a record text."""
    referee = referee or Referee()
    visitor = TraceVisitor()
    for record in iter_games(text):
        referee.judge(record, base_dir, visitor)
    return HEADER + "".join(f"{line}\n" for line in visitor.lines)


# ---------------------------------------------------------------------------------------------------------------
# Comparing traces


@dataclass(frozen=True)
class Block:
    """A part of a game's trace: its header (``setup``, ``line N: TEXT``, ``end: ...``) and the lines under it."""

    lines: tuple[str, ...]

    @property
    def head(self) -> str:
        return self.lines[0]

    def record_line(self) -> int | None:
        """The record line the block stands for: its statement's, the error's for an end (None: setup, a valid or
        unfinished end)."""
        found = re.match(r"line (\d+):", self.head) or re.search(r" at line (\d+)$", self.head)
        return int(found.group(1)) if found else None


def games_of(trace: str) -> list[list[Block]]:
    """A trace's games, each a list of blocks (the comment lines at the top are left out)."""
    games: list[list[Block]] = []
    current: list[str] = []
    for line in [*trace.splitlines(), "game"]:  # a last header closes the last block
        if line.startswith(" "):
            current.append(line)
            continue
        if line.startswith("#") and not games:
            continue
        if current and games:
            games[-1].append(Block(tuple(current)))
        if line.startswith("game"):
            games.append([])
        current = [line]
    return games[:-1]


@dataclass(frozen=True)
class TraceDifference:
    """Where a game's fresh trace first differs from the stored one: the record line and what changed."""

    index: int
    line: int
    summary: str
    diff: tuple[str, ...] = ()


def _first_line(blocks: list[Block]) -> int:
    found = re.search(r"\(line (\d+)\)", blocks[0].head) if blocks else None
    return int(found.group(1)) if found else 1


def compare_game(index: int, stored: list[Block], fresh: list[Block], name: str = "stored") -> TraceDifference | None:
    """The first block where a game's traces differ, located at its record line, or None when they are equal."""
    if stored == fresh:
        return None
    first = _first_line(fresh or stored)
    at = next((k for k, (old, new) in enumerate(zip(stored, fresh, strict=False)) if old != new), None)
    if at is None:  # one trace is a prefix of the other
        at = min(len(stored), len(fresh))
    old_block = stored[at] if at < len(stored) else None
    new_block = fresh[at] if at < len(fresh) else None
    block = new_block or old_block
    assert block is not None
    # the fresh block's line; a statement gone from the end of the record is placed at the line it stood on
    lines = (b.record_line() for b in (new_block, old_block) if b is not None)
    line = next((found for found in lines if found is not None), first)
    if old_block is None:
        what = f"the replay goes on: {excerpt(block.head, 80)}"
    elif new_block is None:
        what = f"the replay stops before {excerpt(old_block.head, 80)}"
    else:
        what = _changed(old_block, new_block)
    where = excerpt(block.head, 80)
    diff = tuple(
        difflib.unified_diff(
            list(old_block.lines if old_block else ()),
            list(new_block.lines if new_block else ()),
            f"{name} (game {index})",
            f"fresh (game {index})",
            lineterm="",
        )
    )
    return TraceDifference(index, line, f"trace differs at line {line} ({where}): {what}", diff)


def _changed(old: Block, new: Block) -> str:
    """The first lines that differ between two blocks, in a few words."""
    matcher = difflib.SequenceMatcher(a=old.lines, b=new.lines, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        was = " / ".join(line.strip(" |") for line in old.lines[a0:a1]) or "nothing"
        now = " / ".join(line.strip(" |") for line in new.lines[b0:b1]) or "nothing"
        return f"{excerpt(was, 160)} -> {excerpt(now, 160)}"
    return "the blocks differ"  # pragma: no cover - only reached for equal blocks


def compare(stored: str, fresh: str, name: str = "stored") -> list[TraceDifference]:
    """Every game whose traces differ (its first difference), by game index."""
    old, new = games_of(stored), games_of(fresh)
    found = []
    for index in range(1, max(len(old), len(new)) + 1):
        difference = compare_game(
            index, old[index - 1] if index <= len(old) else [], new[index - 1] if index <= len(new) else [], name
        )
        if difference is not None:
            found.append(difference)
    return found


# ---------------------------------------------------------------------------------------------------------------
# Stored traces


def trace_name(key: str) -> str:
    """The trace file of a record, by the record's path relative to the argument it was found under."""
    return (key[: -len(".rec")] if key.endswith(".rec") else key) + SUFFIX


def _same_file(a: str, b: str) -> bool:
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


@dataclass
class TraceStore:
    """The stored traces under a folder, found by record key (as baselines are: a key matches the stored trace whose
    path ends with it, so ``records/`` and ``records/san-juan/`` both find ``traces/san-juan/x.trace``)."""

    folder: Path
    referee: Referee
    update: bool = False
    compared: int = 0
    updated: list[Path] = field(default_factory=list)
    _index: dict[str, Path] = field(default_factory=dict)
    _file: str | None = None
    _differences: dict[int, TraceDifference] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for path in sorted(self.folder.rglob(f"*{SUFFIX}")):
            self._index[path.relative_to(self.folder).as_posix()] = path

    def find(self, key: str) -> Path | None:
        name = trace_name(key)
        found = self._index.get(name)
        if found is None:
            candidates = [path for stored, path in self._index.items() if _same_file(stored, name)]
            found = candidates[0] if len(candidates) == 1 else None
        return found

    def check(self, report: GameReport) -> TraceDifference | None:
        """The game's trace difference, if its record has a stored trace that differs from a fresh one. The first
        game of each file replays the whole file once more, in this process, to write its fresh trace."""
        if report.file != self._file:
            self._file = report.file
            self._differences = self._compare_file(report)
        return self._differences.get(report.index)

    def _compare_file(self, report: GameReport) -> dict[int, TraceDifference]:
        stored_path = self.find(report.key) if report.key and report.key != STDIN_NAME else None
        if stored_path is None:
            return {}
        self.compared += 1
        source = RecordSource(Path(report.file), report.file, report.key)
        fresh = trace_source(source, self.referee)
        try:
            stored = read_limited(stored_path, DEFAULT_MAX_BYTES).decode("utf-8")
        except (ReadRefused, UnicodeDecodeError) as exc:
            raise click.UsageError(f"{stored_path}: cannot read the stored trace ({exc})") from None
        if stored == fresh:
            return {}
        if self.update:
            write_trace(stored_path, fresh)
            self.updated.append(stored_path)
            return {}
        return {found.index: found for found in compare(stored, fresh, str(stored_path))}


is_trace = written_by_referee(TRACE_MARK, len(TRACE_MARK))  # a file ``referee trace`` wrote (safe to replace)


def write_trace(path: Path, text: str) -> None:
    """Write a trace atomically (``new_file``): a new file, or one referee wrote; never through a symbolic link."""
    if path.is_symlink() or (path.exists() and not is_trace(path)):
        raise click.UsageError(f"{path} exists and is not a referee trace; referee never overwrites another file")
    with new_file(path, is_trace) as out:
        out.write(text)


# ---------------------------------------------------------------------------------------------------------------
# The command


@click.command("trace")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "-o",
    "--output",
    type=OutputFile(stdout=True),
    default=None,
    help="Write the trace to this file (a new file, or a trace referee wrote) instead of standard output.",
)
@reading_options
def trace(file: str, output: Path | None, max_size: int, allow_dirs: tuple[Path, ...], allow_any_path: bool) -> None:
    """The golden trace of every game of FILE (or - for standard input): after each statement its line, canonical
    text, the phase or turn, the number of legal statements and the state; then how the game ended.

    Store it under a folder by the record's path (records/x/y.rec -> traces/x/y.trace) and check it with 'referee
    regress records/ --traces traces/'. Exit 0 (the trace is written whatever the verdict), 2 for usage errors.
    """
    referee = Referee(read_policy(max_size, allow_dirs, allow_any_path))
    (source,) = find_records([file])
    text = trace_source(source, referee)
    if output is None:
        click.echo(text, nl=False)
        return
    write_trace(output, text)
    click.echo(f"wrote the trace of {source.display} to {output}", err=True)


__all__ = [
    "TRACE_MARK",
    "TraceDifference",
    "TraceStore",
    "TraceVisitor",
    "compare",
    "describe_end",
    "games_of",
    "is_trace",
    "trace",
    "trace_name",
    "trace_source",
    "trace_text",
    "write_trace",
]
