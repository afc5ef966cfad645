"""``referee fmt``: rewrite records in one canonical form, never changing how a game is judged.

The canonical form (docs/records.md, "Canonical form"):

- tags in one order (``record.TAG_ORDER``, the game's own tags after ``Seed``), known tag names spelled as documented,
  unknown tags kept after the known ones in their order; ``[Name "value"]`` with one space; the ``Game`` value is
  the game's title, ``Players`` is ``A, B, C``, a ``Ruleset`` alias is the ruleset's name;
- each statement as the game writes it (``Game.statement_text``): canonical card names, lower-case keywords,
  single spaces, no indentation;
- comments kept: a trailing comment stays at its column when the statement leaves room (two spaces at least), else
  it follows two spaces after the statement; comment lines keep their text, unindented; blank lines stay;
- LF line ends, no BOM, no trailing white space, one newline at the end of the file.

Body lines keep their numbers: only tag lines move (inside their tag section), and an ``Expect`` tag's line number
follows the line it names. As a safety net the original and the formatted text are both judged, and a file whose
verdicts, codes, lines (moved as the tags moved), scores or winners would differ is refused, never written.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import os
import re
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from referee.errors import JOB_FAILED, RefereeError, Verdict
from referee.files import CannotWrite, replace_file
from referee.game import GameType
from referee.record import (
    BadLine,
    GameRecord,
    TwoReadings,
    is_blank_statement,
    iter_games,
    read_lines,
    tag_line,
    tag_order,
)
from referee.registry import find_game
from referee.replay import Expectation, GameReport, Referee, find_records
from referee.resources import DEFAULT_MAX_BYTES, ReadPolicy, ReadRefused, read_limited

OFF = re.compile(r"#\s*referee\s+fmt:\s*off\b", re.IGNORECASE)  # a file fmt leaves as written (spelling tests)
COMMENT_GAP = 2  # spaces at least between a statement and its trailing comment


class FormatRefused(Exception):
    """A record ``fmt`` will not rewrite, and where: ``line`` and ``column`` in the original file (0: the file)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column

    def where(self, file: str) -> str:
        return f"{file}:{self.line}:{self.column}" if self.line else file


@dataclass(frozen=True)
class Formatted:
    """A record text in canonical form and how its lines moved (old line -> new line; tag lines only)."""

    text: str
    original: str
    moved: dict[int, int] = field(default_factory=dict)
    off: bool = False  # the file asks to be left as written (a ``# referee fmt: off`` comment)

    @property
    def changed(self) -> bool:
        return self.text != self.original


# ---------------------------------------------------------------------------------------------------------------
# Lines


def split_comment(text: str) -> tuple[str, str | None, int]:
    """(code, comment, column of the ``#``) of a line: the comment starts at the first ``#`` outside double quotes
    (inside them a backslash escapes the next character, as the grammars read quoted names and tag values); ``None``
    and 0 when there is none. The code keeps its own spacing; the comment loses its trailing white space."""
    quoted = escaped = False
    for position, char in enumerate(text):
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return text[:position], text[position:].rstrip(), position + 1
    return text, None, 0


def with_comment(code: str, comment: str | None, column: int) -> str:
    """A line of code and its trailing comment, the comment at ``column`` when the code leaves room for it."""
    if comment is None:
        return code
    if not code:
        return comment
    return code + " " * max(COMMENT_GAP, column - 1 - len(code)) + comment


def _lines(data: bytes) -> list[str]:
    """The lines of a file, or ``FormatRefused`` at the first one that is not text (not UTF-8, too long)."""
    out: list[str] = []
    try:
        for number, line in read_lines(io.BytesIO(data), len(data) + 1):
            if isinstance(line, BadLine):
                raise FormatRefused(f"cannot rewrite a line that is not text: {line.reason}", number, line.column)
            out.append(line)
    except ReadRefused as refused:  # pragma: no cover - the limit is the data's own size
        raise FormatRefused(refused.reason) from None
    return out


# ---------------------------------------------------------------------------------------------------------------
# Statements


def shape(obj: object) -> object:
    """A statement without its columns: what the rules read of it (two spellings of one statement have one shape)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (
            type(obj).__name__,
            tuple(
                (f.name, shape(getattr(obj, f.name)))
                for f in dataclasses.fields(obj)
                if f.name != "column" and not f.name.endswith("_column")
            ),
        )
    if isinstance(obj, tuple | list):
        return tuple(shape(item) for item in obj)
    return obj


def canonical_statement(game: GameType, code: str, seats: dict[str, int]) -> str | None:
    """The canonical text of a statement line (without comment), or None when it reads as no statement.

    ``RefereeError`` when it cannot be read. When the game's writer gives a line that does not read back as the same
    statement (or cannot write it), the line is kept as written — stripped — which reads the same by definition."""
    parser = game.parser()
    statement = parser.parse(code)
    if is_blank_statement(statement):
        return None
    resolved = parser.resolve(statement, seats)
    try:
        text = game.statement_text(resolved)
        again = parser.parse(text)
    except (TypeError, NotImplementedError, RefereeError):
        return code.strip()
    if isinstance(again, TwoReadings) or not isinstance(statement, TwoReadings):
        again = parser.resolve(again, seats)
    if "\n" in text or shape(again) != shape(resolved):
        return code.strip()
    return text


# ---------------------------------------------------------------------------------------------------------------
# A file


def _broken_fixture(record: GameRecord) -> bool:
    """A game whose ``Expect`` tag states ``illegal`` or ``malformed``: a test fixture, whose lines that cannot be
    read (by design, or after the offending line, where nothing is judged) are kept exactly as written — as is the
    whole game when its tag section cannot be read."""
    tag = record.tag_entry("Expect")
    if tag is None:
        return False
    try:
        return Expectation.parse(tag.value).verdict in (Verdict.ILLEGAL, Verdict.MALFORMED)
    except ValueError:
        return False


def _is_tag_line(text: str) -> bool:
    return text.lstrip().startswith("[")


def _is_blank(text: str) -> bool:
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


@dataclass
class _Game:
    record: GameRecord
    game: GameType | None
    texts: dict[int, str]  # body line -> its canonical text (lines left out are kept as written)
    verbatim: bool  # a deliberately malformed game whose tags cannot be read: its lines stay exactly as written
    section: list[int]  # the lines of its tag section, first to last tag line (comment and blank lines between)
    last: int  # its last line (the line before the next game's tag section, or the file's last line)


def format_text(
    text: str | bytes, file: str = "<string>", *, game_lines: bool = False, keep_tag_order: bool = False
) -> Formatted:
    """The canonical form of a record file's text (see the module's documentation), or ``FormatRefused``.

    An ``Expect`` tag naming a game's first line is ambiguous when the tag there moves: the error may be that tag's
    (a bad ``Players`` tag) or the game's own (a missing tag, reported at its first line). By default the number
    follows the tag; ``game_lines`` keeps it (``format_file`` tries both and keeps the one judged as the original).
    ``keep_tag_order`` leaves the tags in the order written: tags are judged in file order, so where several are wrong
    the canonical order could change which is reported."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    original = text if isinstance(text, str) else data.decode("utf-8", errors="replace")
    lines = _lines(data)
    if any(OFF.search(comment) for line in lines if (comment := split_comment(line)[1]) is not None):
        return Formatted(original, original, off=True)
    out = list(lines)
    done: set[int] = set()  # lines already in their final form
    moved: dict[int, int] = {}
    for each in _games(lines, file):
        if each.verbatim:
            done.update(range(each.section[0], each.last + 1))
            continue
        moved.update(_format_tags(each, lines, out, game_lines, keep_tag_order))
        _format_body(each, out)
        done.update(each.section)
        done.update(number for number, _ in each.record.body)  # an unreadable line of a fixture stays as written
    for number, line in enumerate(lines, 1):  # comment and blank lines
        if number not in done:
            out[number - 1] = line.strip() if _is_blank(line) else line.rstrip()
    while out and not out[-1].strip():
        out.pop()
    formatted = "\n".join(out) + "\n" if out else ""
    return Formatted(formatted, original, {old: new for old, new in moved.items() if old != new})


def _games(lines: list[str], file: str) -> Iterator[_Game]:
    """The games of a file with their game class, or ``FormatRefused`` at the first line that cannot be read."""
    records = list(iter_games(list(enumerate(lines, 1)), file))
    for position, record in enumerate(records):
        first = record.first_line
        last_tag = number = first
        while number <= len(lines) and (_is_tag_line(lines[number - 1]) or _is_blank(lines[number - 1])):
            if _is_tag_line(lines[number - 1]):
                last_tag = number
            number += 1
        end = records[position + 1].first_line - 1 if position + 1 < len(records) else len(lines)
        fixture = _broken_fixture(record)
        game = None
        texts: dict[int, str] = {}
        if record.envelope_error is not None:
            error = record.envelope_error
            if not fixture:
                raise FormatRefused(error.message, error.line or first, error.column or 1)
        else:
            game = find_game(record.tag("Game") or "")
            tag = record.tag_entry("Game")
            if game is None and not fixture:
                where = (tag.line, tag.column) if tag is not None else (first, 1)
                raise FormatRefused("the Game tag names no game this referee knows", *where)
            if game is not None:
                _read_body(record, game, texts, fixture)
        yield _Game(record, game, texts, game is None, list(range(first, last_tag + 1)), end)


def _seats(record: GameRecord) -> dict[str, int]:
    names = [name.strip() for name in (record.tag("Players") or "").split(",")]
    return {name: seat for seat, name in enumerate(names)}


def _read_body(record: GameRecord, game: GameType, texts: dict[int, str], fixture: bool) -> None:
    """The canonical text of every body line into ``texts``; ``FormatRefused`` at the first line that cannot be
    read — unless the game is a broken fixture, whose unreadable lines are left out (kept as written)."""
    seats = _seats(record)
    known: dict[str, str | None] = {}  # game logs repeat their lines: each distinct one is written once
    for number, text in record.body:
        if isinstance(text, BadLine):  # pragma: no cover - refused when the lines are read
            raise FormatRefused(text.reason, number, text.column)
        code, comment, column = split_comment(text)
        if code not in known:
            try:
                known[code] = canonical_statement(game, code, seats)
            except RefereeError as error:
                if not fixture:
                    raise FormatRefused(f"cannot read this line: {error.message}", number, error.column or 1) from None
                continue
        texts[number] = with_comment(known[code] or "", comment, column)


def _format_tags(each: _Game, lines: list[str], out: list[str], game_lines: bool, keep_order: bool) -> dict[int, int]:
    """Rewrite one tag section in canonical order (or, ``keep_order``, in its own); the old -> new line of every line
    of the section."""
    record, game = each.record, each.game
    # Each tag takes the comment lines right above it; blank lines inside the section gather at its end.
    units: list[tuple[int, list[int]]] = []  # (tag line, [comment lines..., tag line])
    pending: list[int] = []
    blanks: list[int] = []
    for number in each.section:
        text = lines[number - 1]
        if _is_tag_line(text):
            units.append((number, [*pending, number]))
            pending = []
        elif text.strip():
            pending.append(number)
        else:
            blanks += [*pending, number]
            pending = []
    by_line = {tag.line: tag for tag in [*record.tags.values(), *record.repeated]}
    known = tag_order(game.tag_options if game is not None else ())
    order = {name.lower(): position for position, name in enumerate(known)}
    spelled = {name.lower(): name for name in known}

    def rank(unit: tuple[int, list[int]]) -> tuple[int, int]:
        return (order.get(by_line[unit[0]].name.lower(), len(order)), unit[0])

    ordered = units if keep_order else sorted(units, key=rank)
    placed = [number for unit in ordered for number in unit[1]] + blanks + pending
    moved = {old: new for new, old in zip(each.section, placed, strict=True)}
    for old, new in moved.items():
        text = lines[old - 1]
        tag = by_line.get(old)
        if tag is None:
            out[new - 1] = text.strip()
            continue
        name = spelled.get(tag.name.lower(), tag.name)
        expect_moves = {k: v for k, v in moved.items() if not (game_lines and k == each.section[0])}
        value = _tag_value(name, tag.value, game, expect_moves)
        _, comment, column = split_comment(text)
        out[new - 1] = with_comment(tag_line(name, value), comment, column)
    return moved


def _tag_value(name: str, value: str, game: GameType | None, moved: dict[int, int]) -> str:
    """A tag's value in canonical spelling (only where the referee reads both the same way); an ``Expect`` tag's
    line number follows the tag line it names."""
    if game is None:
        return value
    if name == "Game":
        return game.title
    if name == "Players":
        names = [part.strip() for part in value.split(",")]
        return ", ".join(names) if all(names) else value
    if name == "Ruleset":
        options = game.ruleset(value)
        found = next((key for key, each in game.rulesets.items() if each is options), None)
        return found if options is not None and found is not None else value
    if name == "Expect":
        try:
            line = Expectation.parse(value).line
        except ValueError:
            return value
        if line is not None and moved.get(line, line) != line:  # (a tag line, a whole number: no other word)
            return " ".join(str(moved[line]) if word.isdigit() else word for word in value.split())
    return value


def _format_body(each: _Game, out: list[str]) -> None:
    for number, text in each.texts.items():
        out[number - 1] = text


# ---------------------------------------------------------------------------------------------------------------
# The safety net


def verdicts(text: str, file: str, base_dir: Path | None, policy: ReadPolicy) -> list[GameReport]:
    return [Referee(policy).judge(record, base_dir) for record in iter_games(text, file)]


def _judged(report: GameReport, moved: dict[int, int] | None = None) -> tuple[Any, ...]:
    error, outcome = report.error, report.outcome
    line = error.line if error is not None else None
    if moved is not None and line is not None:
        line = moved.get(line, line)
    return (
        report.verdict.value,
        error.code if error is not None else None,
        line,
        outcome.scores if outcome is not None else None,
        sorted(outcome.winners) if outcome is not None else None,
        report.expectation_met,
    )


def verify(formatted: Formatted, file: str, base_dir: Path | None, policy: ReadPolicy) -> None:
    """Judge the original and the formatted text: ``FormatRefused`` when any game would be judged otherwise."""
    before = verdicts(formatted.original, file, base_dir, policy)
    after = verdicts(formatted.text, file, base_dir, policy)
    if len(before) != len(after):
        raise FormatRefused(f"formatting would turn {len(before)} game(s) into {len(after)}; the file is left as it is")
    for old, new in zip(before, after, strict=True):
        was, now = _judged(old, formatted.moved), _judged(new)
        at_first_line = old.error is not None and new.error is not None and old.error.line == old.line
        if at_first_line and now[2] == new.line:  # the game's own line (a missing tag), which no tag takes along
            was = (*was[:2], now[2], *was[3:])
        if was != now:
            names = ("verdict", "code", "line", "scores", "winners", "as expected")
            changes = "; ".join(f"{n} {a!r} -> {b!r}" for n, a, b in zip(names, was, now, strict=True) if a != b)
            raise FormatRefused(
                f"formatting would change how game {old.index} is judged ({changes}); the file is left as it is "
                "(please report this)",
                old.line,
                1,
            )


def format_verified(data: str | bytes, file: str, base_dir: Path | None, policy: ReadPolicy) -> Formatted:
    """``format_text``, checked by ``verify`` (``FormatRefused`` when a game would be judged otherwise)."""
    formatted = format_text(data, file)
    if not formatted.changed:
        return formatted
    try:
        verify(formatted, file, base_dir, policy)
    except FormatRefused:
        if not formatted.moved:
            raise
        try:
            formatted = format_text(data, file, game_lines=True)  # an Expect tag naming a game's first line
            verify(formatted, file, base_dir, policy)
        except FormatRefused:  # several wrong tags, judged in the order written: keep that order
            formatted = format_text(data, file, keep_tag_order=True)
            if formatted.changed:
                verify(formatted, file, base_dir, policy)
    return formatted


# ---------------------------------------------------------------------------------------------------------------
# Writing


def write_in_place(path: Path, text: str, read: os.stat_result) -> None:
    """Replace a file's content atomically and durably (``files.replace_file``: the file's permissions and owner
    kept), never through a symbolic link (renaming over the link would replace the link, writing through it would
    change a file elsewhere), and never when the file changed since it was read (``read``: its status then)."""
    now = os.lstat(path)
    if stat.S_ISLNK(now.st_mode):
        raise FormatRefused(f"a symbolic link: format its target ({os.path.realpath(path)}) instead")
    if not stat.S_ISREG(now.st_mode):
        raise FormatRefused("not a regular file")
    if _identity(now) != _identity(read):
        raise FormatRefused("the file changed while it was being formatted; run fmt again")
    replace_file(path, text, now)


def _identity(status: os.stat_result) -> tuple[int, ...]:
    """What changes when a file is written: a same-size edit in place with its modification time put back (``touch
    -r``, sync tools) still changes the status change time."""
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


@dataclass
class Result:
    """What ``fmt`` made of one file: its canonical form, or why it was refused; the diff when asked for."""

    file: str
    formatted: Formatted | None = None
    refused: FormatRefused | None = None
    failed: CannotWrite | None = None  # the canonical form could not be written (a full disk, a read-only folder)
    diff: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.formatted is not None and self.formatted.changed


def format_file(path: Path | None, display: str, *, write: bool, diff: bool, policy: ReadPolicy) -> Result:
    """Format one record file (``path`` None: standard input, never written) and, when ``write``, rewrite it."""
    result = Result(display)
    try:
        read = None
        if path is None:
            data = sys.stdin.buffer.read(policy.max_bytes + 1)
            if len(data) > policy.max_bytes:
                raise ReadRefused(f"larger than the limit of {policy.max_bytes:,} bytes")
        else:
            read = os.lstat(path)
            data = read_limited(path, policy.max_bytes)
        formatted = format_verified(data, display, path.parent if path is not None else None, policy)
        if diff and formatted.changed:
            result.diff = list(
                difflib.unified_diff(
                    formatted.original.splitlines(keepends=True),
                    formatted.text.splitlines(keepends=True),
                    f"a/{display}",
                    f"b/{display}",
                )
            )
        if write and formatted.changed and path is not None and read is not None:
            write_in_place(path, formatted.text, read)
        result.formatted = formatted
    except ReadRefused as refused:
        result.refused = FormatRefused(f"cannot read the file: {refused.reason}")
    except FormatRefused as refused:
        result.refused = refused
    except CannotWrite as failed:
        result.failed = failed
    except OSError as exc:  # the file vanished or cannot be read any more between the reading and the writing
        result.refused = FormatRefused(f"cannot read the file: {exc.strerror or exc}")
    return result


# ---------------------------------------------------------------------------------------------------------------
# The command


@click.command("fmt")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True))
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 when a file would change (for CI).")
@click.option("--diff", "show_diff", is_flag=True, help="Write nothing; print what would change as a unified diff.")
def fmt(paths: tuple[str, ...], check_only: bool, show_diff: bool) -> None:
    """Rewrite records (files, folders searched for *.rec, or - for standard input) in canonical form.

    Tag order, spacing, card names and one statement per line; comments, blank lines and every body line's number
    are kept, and a file is rewritten only when each game is still judged exactly as before. Exit status: 0 when
    every file is (now) canonical, 1 when --check finds a file that would change or a file is refused (a line that
    cannot be read, a symbolic link, a change in judgement), 2 for usage errors, 3 when a file could not be written
    (a full disk, a read-only folder: the file is left as it was).
    """
    write = not (check_only or show_diff)
    changed = refused = failed = total = 0
    policy = ReadPolicy(max_bytes=DEFAULT_MAX_BYTES)
    for source in find_records(paths):
        total += 1
        if source.problem is not None:
            refused += 1
            click.echo(f"{source.display}: cannot format: {source.problem}", err=True)
            continue
        result = format_file(source.path, source.display, write=write, diff=show_diff, policy=policy)
        if result.refused is not None:
            refused += 1
            click.echo(f"{result.refused.where(source.display)}: cannot format: {result.refused.message}", err=True)
            continue
        if result.failed is not None:
            failed += 1
            click.echo(f"referee: {result.failed}", err=True)
            continue
        if result.diff:
            click.echo("".join(result.diff), nl=False)
        if source.path is None and write and result.formatted is not None:  # standard input: to standard output
            click.echo(result.formatted.text, nl=False)
        if result.changed:
            changed += 1
            if source.path is not None:
                click.echo(f"{'reformatted' if write else 'would reformat'} {source.display}", err=True)
    if total == 0:
        click.echo(f"no record files (*.rec) found in {', '.join(paths)}", err=True)
        sys.exit(1)
    summary = f"{total} file(s): {changed} {'reformatted' if write else 'would be reformatted'}"
    summary += f", {total - changed - refused - failed} already canonical"
    if refused:
        summary += f", {refused} refused"
    if failed:
        summary += f", {failed} could not be written"
    click.echo(summary, err=True)
    sys.exit(JOB_FAILED if failed else 1 if refused or (check_only and changed) else 0)
