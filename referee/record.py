"""The record envelope: files, games, tags, and the fast line parser every game uses.

A file holds one or more games, each a tag section followed by a body (like PGN). The body is parsed *line by line*
with the game's LALR grammar and an embedded transformer, so no parse tree is ever built, and every distinct line text
is parsed once: game logs repeat the same lines ("Anna: pass") thousands of times, and the cache turns those into a
dictionary look-up. Parsing lazily, line by line, is also what lets the replay loop report problems in file order.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, cast

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import TerminalDef

from referee.cachedir import grammar_cache
from referee.errors import MalformedStatement, RecordCode, RefereeError, malformed
from referee.resources import DEFAULT_POLICY, MAX_LINE_BYTES, ReadPolicy, ReadRefused, read_limited

GRAMMAR_DIRS = (Path(__file__).parent / "grammar", Path(__file__).parent.parent / "grammar")


def grammar_path(name: str) -> Path:
    """Locate a grammar file: inside the installed wheel, or in the source tree's ``grammar/``."""
    for folder in GRAMMAR_DIRS:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"grammar {name} not found in {', '.join(map(str, GRAMMAR_DIRS))}")


@dataclass
class Tag:
    name: str
    value: str
    line: int
    column: int


@dataclass
class GameRecord:
    """One game of a file: its tags and its body lines, untouched (parsing happens during replay)."""

    file: str
    index: int
    first_line: int
    tags: dict[str, Tag] = field(default_factory=dict)
    body: list[tuple[int, str | BadLine]] = field(default_factory=list)
    envelope_error: RefereeError | None = None
    repeated: list[Tag] = field(default_factory=list)  # later copies of a tag without meaning (the first one counts)

    def tag(self, name: str, default: str | None = None) -> str | None:
        found = self.tag_entry(name)
        return found.value if found is not None else default

    def tag_entry(self, name: str) -> Tag | None:
        """A tag by name, case-insensitive (tag names are compared without case)."""
        found = self.tags.get(name)
        if found is None and self.tags:
            found = self._by_lower().get(name.lower())
        return found

    def add_tag(self, tag: Tag) -> None:
        self.tags[tag.name] = tag
        self._by_lower()[tag.name.lower()] = tag

    def _by_lower(self) -> dict[str, Tag]:
        index: dict[str, Tag] | None = self.__dict__.get("_lower")
        if index is None:
            index = self.__dict__["_lower"] = {name.lower(): tag for name, tag in self.tags.items()}
        return index

    def tag_values(self) -> dict[str, str]:
        return {name: tag.value for name, tag in self.tags.items()}


_TAG_PARSER: Lark | None = None


def _tag_parser() -> Lark:
    global _TAG_PARSER
    if _TAG_PARSER is None:
        _TAG_PARSER = Lark.open(str(grammar_path("record.lark")), parser="lalr")
    return _TAG_PARSER


def _unescape(quoted: str) -> str:
    return re.sub(r"\\(.)", r"\1", quoted[1:-1])


CACHED_LINE = 256  # characters: longer lines (and tags) are parsed each time, never kept in a cache


def remember(cache: dict[Any, Any], key: Any, value: Any, limit: int) -> None:
    """Put ``key`` in a bounded cache: when it is full, the oldest quarter goes (a file's lines repeat near each
    other; clearing it all would throw away what the next game reads again)."""
    if len(cache) >= limit:
        for old in list(itertools.islice(cache, max(1, limit // 4))):
            del cache[old]
    cache[key] = value


Made = TypeVar("Made")


def made_once(
    cache: dict[Any, tuple[tuple[object, ...], Made]],
    key: Any,
    sources: tuple[object, ...],
    make: Callable[[], Made],
    limit: int = 64,
) -> Made:
    """What ``make`` makes from ``sources`` (objects never changed: a board, a deck list, options), made once while
    they are the same: ``key`` names them by ``id`` (and by any plain values it adds), and the entry keeps them, so
    an id is not reused while the entry is here. Per game, not per line: when full, the cache is emptied."""
    held = cache.get(key)
    if held is None or held[0] != sources:  # (the same objects compare equal at once, by identity)
        if len(cache) >= limit:
            cache.clear()
        held = cache[key] = (sources, make())
    return held[1]


def _read_tag(text: str) -> tuple[str, str, int] | int:
    """(name, value, value column) of a tag line, or the column where it stops being one."""
    return _read_short_tag(text) if len(text) <= CACHED_LINE else _parse_tag_line(text)


@functools.lru_cache(maxsize=4096)
def _read_short_tag(text: str) -> tuple[str, str, int] | int:
    return _parse_tag_line(text)


# A tag line in the usual form, ``[Name "value"]`` with one space: read as the grammar (record.lark) reads it, the same
# terminals (the value possessive, as there), without building or running the tag parser; any other form is left to
# the grammar (tests/test_parser_equivalence.py: every corpus and fuzzed tag line reads the same both ways).
_PLAIN_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_\-]*) ("(?:[^"\\]++|\\.)*+")\]')


def _parse_tag_line(text: str) -> tuple[str, str, int] | int:
    plain = _PLAIN_TAG.fullmatch(text)
    if plain is not None:
        name, quoted = plain.groups()
        return name, _unescape(quoted), len(name) + 3  # the value's column: after '[', the name and one space
    return _parse_tag_line_with_grammar(text)


def _parse_tag_line_with_grammar(text: str) -> tuple[str, str, int] | int:
    try:
        tree = _tag_parser().parse(text)
    except UnexpectedInput as exc:
        return getattr(exc, "column", 1) or 1
    name_tok, value_tok = tree.children
    assert isinstance(value_tok, Token)
    return str(name_tok), _unescape(str(value_tok)), value_tok.column or 1


def parse_tag(text: str, line: int) -> Tag:
    """Parse one ``[Name "value"]`` line, or raise a located ``bad-tag`` error."""
    read = _read_tag(text)
    if isinstance(read, int):
        raise malformed(RecordCode.BAD_TAG, 'a tag line must read [Name "value"] (value in double quotes)', read).at(
            line
        )
    name, value, column = read
    return Tag(name, value, line, column)


def content_end(text: str) -> int:
    """1-based column just after the last character of a line that is not white space or a comment."""
    quoted = False
    end = len(text)
    for position, char in enumerate(text):
        if char == '"' and (position == 0 or text[position - 1] != "\\"):
            quoted = not quoted
        elif char == "#" and not quoted:
            end = position
            break
    return len(text[:end].rstrip()) + 1


def tag_line(name: str, value: str) -> str:
    """``[Name "value"]`` with ``\\`` and ``"`` escaped: the inverse of ``parse_tag``."""
    return f'[{name} "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"]'


# The canonical tag order (what ``referee fmt`` and every record the referee writes use): the game and its players,
# where and when it was played, its rules — the game's own tags (``Game.tag_options``: Santorini's Board, DeckList,
# Deck) after Seed — then how it ended and what the record is for. Unknown tags follow, in the order written.
# The record's own tags with a meaning: given twice, a game is malformed (which one would count?). A game's own tags
# (``Game.tag_options``) are checked the same way when the game is known; any other tag may repeat.
JUDGED_TAGS = frozenset({"game", "players", "ruleset", "variant", "result", "expect"})


def duplicate_tag(tag: Tag, first: Tag) -> RefereeError:
    """A tag with a meaning given a second time: malformed at the repeat."""
    return malformed(RecordCode.DUPLICATE_TAG, f"the {tag.name} tag is given twice (first on line {first.line})", 2).at(
        tag.line
    )


TAG_ORDER = ("Game", "Players", "Event", "Site", "Date", "Round", "Table", "Ruleset", "Variant", "Seed")
TAG_ORDER_END = ("Result", "Description", "Expect")


def tag_order(game_tags: Iterable[str] = ()) -> list[str]:
    """The known tags in canonical order, a game's own tags (``game_tags``) included."""
    return [*TAG_ORDER, *game_tags, *TAG_ORDER_END]


def in_tag_order(names: Iterable[str], game_tags: Iterable[str] = ()) -> list[str]:
    """Tag names sorted into canonical order (case-insensitive); unknown names after the known ones, as given."""
    rank = {name.lower(): position for position, name in enumerate(tag_order(game_tags))}
    listed = list(names)
    return sorted(listed, key=lambda name: (rank.get(name.lower(), len(rank)), listed.index(name)))


def write_record(
    tags: dict[str, str], body: Iterable[str], comments: Iterable[str] = (), game_tags: Iterable[str] = ()
) -> str:
    """One game as record text: the tag section (in canonical order, the game's own tags ``game_tags`` — its
    ``Game.tag_options`` — after Seed), a blank line, ``# `` comment lines, then the body lines."""
    names = in_tag_order(tags, game_tags)
    out = [tag_line(name, tags[name]) for name in names]
    out.append("")
    out.extend(f"# {line}" for comment in comments for line in comment.splitlines())
    out.extend(body)
    return "\n".join(out) + "\n"


def _is_blank(text: str) -> bool:
    stripped = text.strip()
    return not stripped or stripped[0] == "#"


def iter_lines(text: str, chunk: int = 1 << 20) -> Iterator[tuple[int, str]]:
    """(number, text) of every line. Lines end at LF only (a CR before it is dropped): U+2028, form feeds or NEL
    inside a line do not start a new one, so line numbers are the ones editors and grep show; a BOM opening a line
    is ignored (files joined with ``cat``, each with its BOM). The text is split a
    chunk of about ``chunk`` characters at a time (``str.split`` is fast; a whole huge text split at once is not
    small)."""
    number, start, size = 1, 0, len(text)
    while start < size:
        end = text.rfind("\n", start, start + chunk) if start + chunk < size else size - 1
        if end < start:  # a line longer than the chunk
            end = text.find("\n", start + chunk)
            if end < 0:
                end = size - 1
        piece = text[start : end + 1]
        lines = piece.split("\n")
        if lines[-1] == "" or (lines[-1] == "\r" and end == size - 1):
            lines.pop()  # the chunk ended with its LF (or the text with a lone CR: no line)
        if "\r" in piece or "\ufeff" in piece:
            for line in lines:
                line = line[:-1] if line[-1:] == "\r" else line
                yield number, line[1:] if line[:1] == "\ufeff" else line  # a BOM opening a line is ignored
                number += 1
        else:  # (LF line ends only: numbered without a Python step per line)
            yield from zip(itertools.count(number), lines)
            number += len(lines)
        start = end + 1


@dataclass(frozen=True)
class BadLine:
    """A line that cannot be read as text (not UTF-8, or longer than a line may be): reported at its place, in file
    order, as the game that holds it reaches it."""

    reason: str
    column: int = 1
    too_long: bool = False

    @property
    def kind(self) -> RecordCode:
        return RecordCode.LINE_TOO_LONG if self.too_long else RecordCode.BAD_ENCODING


def read_lines(stream: BinaryIO, max_bytes: int, max_line: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str | BadLine]]:
    """(number, text) of every line of a binary stream, read as it goes: lines end at LF (a CR before it is dropped),
    a BOM opening a line is ignored, and a line that is not UTF-8 or longer than ``max_line`` bytes comes as a
    ``BadLine`` (the rest of an over-long line is skipped, never held). Stops with ``ReadRefused`` past ``max_bytes``
    bytes in all."""
    total = 0
    number = 0
    while True:
        raw = stream.readline(max_line + 1)
        if not raw:
            return
        number += 1
        total += len(raw)
        line: str | BadLine
        if len(raw) > max_line and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of the line in bounded pieces
                raw = stream.readline(max_line)
                total += len(raw)
                if total > max_bytes:
                    raise ReadRefused(f"larger than the limit of {max_bytes:,} bytes")
            line = BadLine(f"the line is longer than {max_line:,} bytes", too_long=True)
        else:
            if raw.startswith(b"\xef\xbb\xbf"):  # the file's, or a file's joined to it (``cat a.rec b.rec``)
                raw = raw[3:]
            raw = raw[:-1] if raw.endswith(b"\n") else raw
            raw = raw[:-1] if raw.endswith(b"\r") else raw
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                column = len(raw[: exc.start].decode("utf-8", errors="replace")) + 1
                line = BadLine(f"not UTF-8 text ({exc.reason} at byte {exc.start + 1} of the line)", column)
        if total > max_bytes:
            raise ReadRefused(f"larger than the limit of {max_bytes:,} bytes")
        yield number, line


def read_text(path: Path, policy: ReadPolicy = DEFAULT_POLICY) -> str:
    """Read a record file as UTF-8 (a BOM is ignored): a regular file of at most ``policy.max_bytes`` bytes, never
    a pipe or a device (``ReadRefused``); never writes to it."""
    return read_limited(path, policy.max_bytes).decode("utf-8-sig")


def iter_games(lines: str | Iterable[tuple[int, str | BadLine]], file: str = "<string>") -> Iterator[GameRecord]:
    """The games of a file (its text, or its numbered lines as ``read_lines`` gives them), one at a time: a tag section
    starts a game, its body runs to the next tag section. Only one game's lines are held at a time, so a huge file is
    read in constant memory per game."""
    if isinstance(lines, str):
        lines = iter_lines(lines[1:] if lines.startswith("\ufeff") else lines)
    current: GameRecord | None = None
    in_tags = False
    index = 0
    for item in lines:
        number, raw = item
        if raw.__class__ is not str:
            assert isinstance(raw, BadLine)
            if current is None:  # unreadable before any tag: taken as part of the first tag section
                index += 1
                current = GameRecord(file, index, number)
                in_tags = True
            if in_tags:
                if current.envelope_error is None:
                    current.envelope_error = malformed(raw.kind, raw.reason, raw.column).at(number)
            else:
                current.body.append((number, raw))
            continue
        if "\xa0" in raw:  # a no-break space (text pasted from a web page) is a space, column for column
            raw = raw.replace("\xa0", " ")
            item = (number, raw)
        stripped = raw.lstrip()
        if not stripped or stripped[0] == "#":  # a blank or comment line (``_is_blank``)
            continue
        if stripped[0] == "[":
            if current is None or not in_tags:
                if current is not None:
                    yield current
                index += 1
                current = GameRecord(file, index, number)
                in_tags = True
            try:
                tag = parse_tag(raw, number)
                first = current.tag_entry(tag.name)
                if first is None:
                    current.add_tag(tag)
                elif tag.name.lower() in JUDGED_TAGS:
                    raise duplicate_tag(tag, first)
                else:  # a tag the referee never judges (Event, Site, ...): kept, the first value reported
                    current.repeated.append(tag)
            except RefereeError as error:
                if current.envelope_error is None:
                    current.envelope_error = error
            continue
        in_tags = False
        if current is None:
            index += 1
            current = GameRecord(file, index, number)
            current.envelope_error = malformed(
                RecordCode.BODY_BEFORE_TAGS,
                "a statement appears before the first tag section; every game starts with "
                '[Game "..."] and [Players "..."]',
                len(raw) - len(raw.lstrip()) + 1,
            ).at(number)
        current.body.append(item)  # (number, raw) as it came
    if current is not None:
        yield current


def split_games(text: str, file: str = "<string>") -> list[GameRecord]:
    """Every game of a file's text (see ``iter_games``)."""
    return list(iter_games(text, file))


# ---------------------------------------------------------------------------------------------------------------
# The line parser


@dataclass(frozen=True)
class SyntaxExample:
    """Lines that show one kind of syntax error, for ``UnexpectedInput.match_examples``."""

    kind: RecordCode
    message: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Pieces:
    """How a game's list statements and actor lines can be read piece by piece, each piece with the grammar's own
    rule: ``lists`` maps a statement keyword to (item rule, combine(keyword column, items)); ``actor`` is
    (action rule, combine(player, action)). Pieces repeat far more than whole lines do ("Lumberjack",
    "Anna +6R"), so caching them keeps a first reading of a large file fast."""

    lists: dict[str, tuple[str, Callable[[int, list[Any]], object]]]
    actor: tuple[str, Callable[[NameRef, object], object]] | None = None
    keywords: frozenset[str] = frozenset()  # words that open a game statement ("governor", "deal", ...)
    keywords_first: bool = False  # a line opening with a keyword is that statement, never a player's line
    # A faster reading of common action texts: ``reader(parser)`` gives ``read(text, column)``, the action a stripped
    # action text reads as with its columns placed (``text[0]`` at ``column``), or None to leave the text to the
    # grammar's action rule (``NOT_AN_ACTION`` when that rule cannot even read its first token). It must agree with the
    # grammar on every text it reads (tests/test_parser_equivalence.py): it takes its tokens from the grammar's own
    # terminals (``LineParser.lexer_after``) and its items from the grammar's own rules (``LineParser.item``, the
    # rules listed in ``items``) — or, for a text exactly as the game writes it, splits it at its separators and looks
    # printed names up (San Juan's ``CanonicalActions``), every name checked against the grammar in every position.
    reader: Callable[[LineParser], Callable[[str, int], object | None]] | None = None
    items: frozenset[str] = frozenset()
    # Statements ``KEYWORD HEAD: ITEM, ITEM, ...`` (``hand Anna: A, ?, B``), by the terminal of their keyword: (head
    # rule, item rule, combine(keyword column, head, items)).
    headed: dict[str, tuple[str, str, Callable[[int, Any, list[Any]], object]]] = field(default_factory=dict)
    # Item rules that are a player and then one token or a run of them (``final_entry: player SIGNED_INT``,
    # ``score_entry: player AMOUNT*``), read without a parse by ``FlatItemReader``: rule -> (the terminal, a sample of
    # it, whether it repeats: zero or more, else exactly one). Claim entries differ in their numbers, so a cache of
    # them misses, and each new one would cost an LALR parse.
    flat_items: dict[str, tuple[str, str, bool]] = field(default_factory=dict)


PLAIN_PLAYER = re.compile(r"[\w.\-]+")  # as PLAYER_NAME in grammar/referee.lark


def excerpt(text: str, limit: int = 40) -> str:
    """User text as a message quotes it: in quotes, invisible characters as escapes, at most ``limit`` characters
    (a 5 MB token is never repeated in a message)."""
    shown = text[:limit]
    out = []
    for char in shown:
        if char == "'" or char == "\\":
            out.append("\\" + char)
        elif char.isprintable():
            out.append(char)
        elif ord(char) < 0x100:
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char, f"\\x{ord(char):02x}"))
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    more = f"… ({len(text):,} characters)" if len(text) > limit else ""
    return "'" + "".join(out) + "'" + more


def shown_value(value: Any) -> str:
    """A value as a message quotes it, in the words of a variant file (TOML): ``true``, ``3``, ``'forty'``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return excerpt(value)
    text = "[" + ", ".join(map(shown_value, value)) + "]" if isinstance(value, list | tuple) else str(value)
    return text if len(text) <= 60 else text[:60] + "…"


def quote_player(name: str, reserved: frozenset[str] = frozenset()) -> str:
    """A player name as the body writes it: bare when the grammar allows, else in double quotes (also when it is one
    of the game's ``reserved`` words, which a game that reads keyword lines first needs)."""
    if PLAIN_PLAYER.fullmatch(name) and name.lower() not in reserved:
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def shift_columns(obj: object, offset: int) -> object:
    """A copy of a statement piece with its 1-based columns moved right by ``offset``."""
    if offset == 0:
        return obj
    if isinstance(obj, tuple):
        return tuple([shift_columns(item, offset) for item in obj])
    if type(obj) is NameRef:
        return NameRef(obj.name, obj.column + offset if obj.column > 0 else obj.column)
    plan = _SHIFT_PLANS.get(type(obj))
    if plan is None:
        if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
            return obj
        plan = _SHIFT_PLANS[type(obj)] = _shift_plan(type(obj))
    kinds, positional = plan
    values = []
    for name, kind in kinds:
        value = getattr(obj, name)
        if kind == _COLUMN:
            if isinstance(value, int) and value > 0:
                value += offset
        elif kind == _NESTED and (isinstance(value, tuple) or _is_instance_of_dataclass(value)):
            value = shift_columns(value, offset)
        values.append(value)
    if positional:
        return type(obj)(*values)
    return dataclasses.replace(cast(Any, obj), **dict(zip([name for name, _ in kinds], values, strict=True)))


def _is_instance_of_dataclass(value: object) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


_COLUMN, _NESTED = 1, 2
_SHIFT_PLANS: dict[type, tuple[list[tuple[str, int]], bool]] = {}


def _shift_plan(cls: type) -> tuple[list[tuple[str, int]], bool]:
    """How ``shift_columns`` copies a dataclass: each field a column, a possible nest of columns, or neither; built
    positionally when every field is an ``__init__`` argument in order (no ``InitVar``, no ``init=False``)."""
    fields = dataclasses.fields(cls)
    kinds = [(f.name, _COLUMN if f.name == "column" or f.name.endswith("_column") else _NESTED) for f in fields]
    every = getattr(cls, "__dataclass_fields__", {})
    positional = all(f.init and not f.kw_only for f in fields) and len(fields) == len(every)
    return kinds, positional


END = "$END"  # the end of the line, as the LALR tables name it


class NotSure(Exception):
    """A ``Pieces.reader`` leaves the text to the grammar (which then gives the reading, or the error)."""


class StateLexer:
    """A lexer for one LALR state (``LineParser.lexer_after``): ``lexer(text, pos)`` skips white space (the grammar's
    WS) and gives (terminal, start, end) of the token there, or None where none of the state's terminals matches.
    ``ends``: the state accepts the end of the line."""

    def __init__(self, accepted: frozenset[str], terminals: list[TerminalDef], space: TerminalDef) -> None:
        self.accepted = accepted
        self.ends = "$END" in accepted
        ordered = sorted(
            terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name)
        )  # the order of Lark's lexer: the first alternative that matches wins
        alternatives = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in ordered) or "(?!)"
        self._space = space.pattern.to_regexp()
        self._ordered = ordered
        self._alternatives = alternatives
        self._match = re.compile(f"(?:{self._space})?(?:{alternatives})").match
        self._runs: dict[str, Callable[[str, int], re.Match[str] | None]] = {}

    def __call__(self, text: str, pos: int) -> tuple[str, int, int] | None:
        found = self._match(text, pos)
        if found is None:
            return None
        name = found.lastgroup
        assert name is not None
        return name, found.start(name), found.end()

    def token(self, text: str, pos: int) -> tuple[str, int, int]:
        """The token at ``pos`` (``END`` at the end of the line, where this state accepts it); ``NotSure`` where
        none of the state's terminals matches."""
        found = self(text, pos)
        if found is not None:
            return found
        if self.ends and not text[pos:].strip(_WS):
            return END, len(text), len(text)
        raise NotSure

    def run_then_token(self, text: str, pos: int, terminal: str) -> tuple[int, str, int, int]:
        """``after_run`` with the end of the line as a token (``END``) where this state accepts it; ``NotSure`` where
        no token of the state follows the run."""
        last, after, start, end = self.after_run(text, pos, terminal)
        if after is None:
            if not self.ends or text[last:].strip(_WS):
                raise NotSure
            return last, END, len(text), len(text)
        return last, after, start, end

    def after_run(self, text: str, pos: int, terminal: str) -> tuple[int, str | None, int, int]:
        """Past the run of ``terminal`` tokens this state lexes from ``pos`` (for a state the parser stays in after
        each of them, such as a card's words): the run's end, then the token after it as ``__call__`` gives it
        (None: no token of the state there). One regular expression: a token is ``terminal`` where none of the
        terminals Lark tries before it matches and it does."""
        match = self._runs.get(terminal)
        if match is None:
            names = [t.name for t in self._ordered]
            earlier = "|".join(f"(?:{t.pattern.to_regexp()})" for t in self._ordered[: names.index(terminal)])
            guard = f"(?!{earlier})" if earlier else ""
            token = self._ordered[names.index(terminal)].pattern.to_regexp()
            run = f"(?:(?:{self._space})?{guard}(?:{token}))*"
            match = self._runs[terminal] = re.compile(f"({run})(?:{self._space})?(?:{self._alternatives})?").match
        found = match(text, pos)
        assert found is not None  # every part is optional
        name = found.lastgroup
        if name is None:
            return found.end(1), None, 0, 0
        return found.end(1), name, found.start(name), found.end()


class LineParser:
    """Parse single body lines of one game with its LALR grammar and an embedded transformer, with a cache.

    ``grammar_file`` is the game's own grammar (it lives in the game's package); it imports the shared terminals
    with ``%import referee (...)`` from the core's ``grammar/referee.lark``.

    ``terminal_words`` turns Lark terminal names into words a player understands for "expected ..." messages.
    """

    CACHE_LIMIT = 16_384  # entries of each cache: a few MB, so memory stays near that of a small file

    def __init__(
        self,
        grammar_file: Path,
        transformer_factory: Callable[[], Transformer[Token, Any]],
        terminal_words: dict[str, str],
        examples: Iterable[SyntaxExample] = (),
        pieces: Pieces | None = None,
    ) -> None:
        starts = ["start"]
        if pieces is not None:
            starts += sorted(
                {rule for rule, _ in pieces.lists.values()}
                | ({pieces.actor[0]} if pieces.actor else set())
                | set(pieces.items)
                | {rule for head_rule, item_rule, _ in pieces.headed.values() for rule in (head_rule, item_rule)}
            )
        self._grammar_file = grammar_file
        self._tree_lark: Lark | None = None  # the grammar without the transformer (``players_before``), made when asked
        self._transformer = transformer_factory()
        self._lark = Lark.open(
            str(grammar_file),
            import_paths=[str(grammar_path("referee.lark").parent)],
            parser="lalr",
            transformer=self._transformer,
            maybe_placeholders=False,
            propagate_positions=False,
            start=starts,
            cache=grammar_cache(grammar_file, starts),  # the analysed tables, kept in the user's cache folder
        )
        self._terminal_words = terminal_words
        self._examples = list(examples)
        self._pieces = pieces
        self._cache: dict[str, object] = {}
        self._piece_cache: dict[tuple[str, str, int], object] = {}
        self._lexers: dict[frozenset[str], StateLexer] = {}
        self._placed: dict[tuple[str, str, int], object] = {}
        self._players: dict[str, NameRef] = {}  # the head of an actor line ("Anna", " Anna ") -> its player
        self._line_start: StateLexer | None = None
        self._reader = pieces.reader(self) if pieces is not None and pieces.reader is not None else None
        self._flat_items: dict[str, FlatItemReader] = {}  # made when first asked (``_flat_item``)

    def parse(self, text: str) -> object:
        """Return the statement object for a line (``None`` for a blank or comment line) or raise MalformedStatement.

        The error's column is within the line; the caller places it on its line number.
        """
        cached = self._cache.get(text)
        if cached is not None:
            if isinstance(cached, RefereeError):
                raise MalformedStatement(cached.kind, cached.message, cached.column)
            return cached
        result = self._read(text)
        if len(text) <= CACHED_LINE:  # the cache holds at most CACHE_LIMIT short lines: bounded memory
            remember(self._cache, text, result if result is not None else BLANK_STATEMENT, self.CACHE_LIMIT)
        if isinstance(result, RefereeError):
            raise MalformedStatement(result.kind, result.message, result.column)
        return result

    def parse_whole(self, text: str) -> object:
        """Parse a line in one go with the full grammar; a syntax problem comes back as an error object."""
        try:
            return self._lark.parse(text, start="start")
        except RefereeError as error:  # raised by the transformer (unknown card, ...)
            return error
        except VisitError as error:
            if isinstance(error.orig_exc, RefereeError):
                return error.orig_exc
            raise
        except UnexpectedInput as error:
            return self._describe(text, error)

    def players_before(self, text: str, column: int) -> list[NameRef]:
        """The players a line names before ``column``, where it cannot be read (an unknown card, a number too large):
        the line read with the grammar alone, so the replay can judge those names first — the first problem in reading
        order (an unknown player before an unknown card is the one reported). None for a line off the grammar."""
        if self._tree_lark is None:
            self._tree_lark = Lark.open(
                str(self._grammar_file),
                import_paths=[str(grammar_path("referee.lark").parent)],
                parser="lalr",
                maybe_placeholders=False,
                start="start",
                cache=grammar_cache(self._grammar_file, ["start"]),
            )
        try:
            tree = self._tree_lark.parse(text, start="start")
        except Exception:  # a syntax error: what a name is in a line off the grammar is a guess, so none is judged
            return []
        names = [
            player_token(node.children[0])
            for node in tree.iter_subtrees_topdown()  # type: ignore[no-untyped-call]
            if node.data == "player" and node.children and isinstance(node.children[0], Token)
        ]
        return sorted((name for name in names if name.column < column), key=lambda name: name.column)

    def lexer_after(self, rule: str, prefix: str) -> StateLexer:
        """The lexer of the LALR state the parser is in after reading ``prefix`` with the rule ``rule`` (a start
        rule): the grammar's own terminals that state accepts, tried in the order Lark's contextual lexer tries them.
        ``prefix`` is a sample that leads to the state ("build Smithy": after a card's word)."""
        interactive = self._lark.parse_interactive(prefix, start=rule)
        interactive.exhaust_lexer()
        names = {t.name for t in self._lark.terminals}
        choices: dict[str, object] = interactive.choices()  # type: ignore[no-untyped-call]
        accepted = frozenset(name for name in choices if name in names or name == "$END")
        lexer = self._lexers.get(accepted)
        if lexer is None:
            terminals = [self._lark.get_terminal(name) for name in accepted if name != "$END"]
            lexer = self._lexers[accepted] = StateLexer(accepted, terminals, self._lark.get_terminal("WS"))
        return lexer

    def item(self, rule: str, text: str, column: int) -> object:
        """``text`` read with the grammar rule ``rule`` (one of ``Pieces.items``; cached by text), its columns placed
        at ``column``; ValueError when the rule does not read it."""
        key = (rule, text, column)
        placed = self._placed.get(key)
        if placed is None:
            found = self._unplaced_piece(rule, text)
            if type(found) is NameRef:
                placed = NameRef(found.name, found.column + column - 1)
            else:
                placed = shift_columns(found, column - 1)
            if len(text) <= CACHED_LINE:  # at most CACHE_LIMIT short items: bounded memory
                remember(self._placed, key, placed, self.CACHE_LIMIT)
        return placed

    def _piece(self, rule: str, text: str, offset: int) -> object:
        """One piece parsed with the grammar rule ``rule``, its columns moved to where it stands in the line."""
        placed = self._piece_cache.get((rule, text, offset))
        if placed is None:
            placed = shift_columns(self._unplaced_piece(rule, text), offset)
            self._remember((rule, text, offset), placed)
        return placed

    def _remember(self, key: tuple[str, str, int], piece: object) -> None:
        if len(key[1]) <= CACHED_LINE:  # at most CACHE_LIMIT short pieces: bounded memory
            remember(self._piece_cache, key, piece, self.CACHE_LIMIT)

    def _unplaced_piece(self, rule: str, text: str) -> object:
        key = (rule, text, 0)
        found = self._piece_cache.get(key)
        if found is None:
            found = self._flat_item(rule, text)
            if found is None:
                try:
                    found = self._lark.parse(text, start=rule)
                except Exception:
                    found = _FAILED
            self._remember(key, found)
        if found is _FAILED:
            raise ValueError(text)
        return found

    def _flat_item(self, rule: str, text: str) -> object | None:
        """An item of one of the game's ``Pieces.flat_items`` rules read by ``FlatItemReader``; None when the rule is
        none of them or the reader is not sure (then Lark reads it)."""
        reader = self._flat_items.get(rule)
        if reader is None:
            shape = self._pieces.flat_items.get(rule) if self._pieces is not None else None
            if shape is None:
                return None
            reader = self._flat_items[rule] = FlatItemReader(self, rule, *shape)
        try:
            return reader(text)
        except (NotSure, RefereeError):  # (a number too large: the grammar's transformer raises it again)
            return None

    def _read(self, text: str) -> object:
        """The statement a line reads as (an error object when it reads as none; None for a blank line).

        A line whose first word is a statement keyword and also a plain player name (``Score: pass``, ``Deal: take
        Pub``) may read two ways: unless the game reads such lines as statements only (``Pieces.keywords_first``),
        both readings come back as ``TwoReadings`` and the replay picks one with the game's players.
        """
        pieces = self._pieces
        head, colon, rest = (text[: text.index("#")] if "#" in text else text).partition(":")
        key = head.strip(_WS)
        keyword = bool(colon) and pieces is not None and key.lower() in pieces.keywords
        result = None
        if pieces is not None and colon and '"' not in text:
            result = self._list_reading(head, rest) if keyword else self._actor_reading(head, rest)
            if result is None and not keyword and pieces.headed:
                result = self._headed_reading(head, rest)
        if result is None:
            result = self.parse_whole(text)
            if isinstance(result, Tree) and not result.children:  # a blank or comment-only line
                return None
        if not keyword or pieces is None or pieces.keywords_first or '"' in text:
            return result
        actor = self._actor_reading(head, rest)
        if actor is None or actor == result:
            return result
        return actor if isinstance(result, RefereeError) else TwoReadings(key, result, actor)

    def _headed_reading(self, head: str, rest: str) -> object | None:
        """A headed list (``hand Anna: A, ?, B``: ``Pieces.headed``) read piece by piece: the keyword lexed as the
        grammar lexes a line's first token, the rest of the head and each item with the grammar's own rules; None
        when the line is not of that simple form."""
        assert self._pieces is not None
        if self._line_start is None:
            self._line_start = self.lexer_after("start", "")
        token = self._line_start(head, 0)
        if token is None or token[0] not in self._pieces.headed:
            return None
        kind, start, end = token
        head_rule, item_rule, combine = self._pieces.headed[kind]
        named = head[end:]
        stripped = named.strip(_WS)
        if not stripped:
            return None
        items = []
        try:
            placed = self.item(head_rule, stripped, end + len(named) - len(named.lstrip(_WS)) + 1)
            offset = len(head) + 1
            for piece in rest.split(","):
                stripped = piece.strip(_WS)
                if not stripped:
                    return None
                items.append(self.item(item_rule, stripped, offset + len(piece) - len(piece.lstrip(_WS)) + 1))
                offset += len(piece) + 1
        except ValueError:
            return None
        return combine(start + 1, placed, items)

    def _list_reading(self, head: str, rest: str) -> object | None:
        """A list statement (``deal: A, B``) read piece by piece, each piece with the grammar's own item rule; None
        when the line is not of that simple form (the whole line is parsed then)."""
        assert self._pieces is not None
        listed = self._pieces.lists.get(head.strip(_WS).lower())
        if listed is None:
            return None
        rule, combine = listed
        items = []
        offset = len(head) + 1
        for piece in rest.split(","):
            stripped = piece.strip(_WS)
            if not stripped:
                return None
            try:
                items.append(self._piece(rule, stripped, offset + len(piece) - len(piece.lstrip(_WS))))
            except ValueError:
                return None
            offset += len(piece) + 1
        return combine(len(head) - len(head.lstrip(_WS)) + 1, items)

    def _actor_reading(self, head: str, rest: str) -> object | None:
        """``PLAYER: ACTION`` with a plain player name, the action read with the grammar's action rule; or None."""
        pieces = self._pieces
        assert pieces is not None
        player = self._players.get(head)
        if player is None:
            key = head.strip(_WS)
            if not PLAIN_PLAYER.fullmatch(key):
                return None
            player = NameRef(key, len(head) - len(head.lstrip(_WS)) + 1)
            if len(head) <= CACHED_LINE and len(self._players) < self.CACHE_LIMIT:
                self._players[head] = player
        action_text = rest.strip(_WS)
        if pieces.actor is None or not action_text or '"' in rest:
            return None
        rule, combine = pieces.actor
        offset = len(head) + 1 + len(rest) - len(rest.lstrip(_WS))
        cached = (rule, action_text, offset)
        action = self._piece_cache.get(cached)
        if action is None and self._reader is not None:
            action = self._reader(action_text, offset + 1)
            if action is NOT_AN_ACTION:  # the grammar's action rule cannot read its first token
                return None
            if action is not None:
                self._remember(cached, action)
        if action is None:
            try:
                action = self._piece(rule, action_text, offset)
            except ValueError:
                return None
        return combine(player, action)

    def _describe(self, text: str, error: UnexpectedInput) -> MalformedStatement:
        """Classify a syntax error by example and say what was expected in plain words."""
        kind, lead = RecordCode.SYNTAX, "cannot read this line"
        for example in self._examples:
            try:
                matched = error.match_examples(
                    lambda line: self._lark.parse(line, start="start"),
                    {example.kind: list(example.lines)},
                    use_accepts=True,
                )
            except Exception:
                matched = None
            if matched is not None:
                kind, lead = example.kind, example.message
                break
        column = getattr(error, "column", None)
        if (
            isinstance(error, UnexpectedEOF)
            or column in (None, -1)
            or (isinstance(error, UnexpectedToken) and error.token.type == "$END")
        ):
            column = content_end(text)
            found = "the end of the line"
        elif isinstance(error, UnexpectedToken):
            found = excerpt(str(error.token))
        else:
            at = error.pos_in_stream if isinstance(error, UnexpectedCharacters) else None
            found = excerpt(text[at]) if at is not None else "this"
        expected = self._expected_words(error)
        message = f"{lead}: found {found}"
        if expected:
            message += f", expected {expected}"
        return MalformedStatement(kind, message, column)

    def _expected_words(self, error: UnexpectedInput) -> str:
        names: set[str] = set()
        if isinstance(error, UnexpectedToken):
            names = set(error.accepts or error.expected)
        elif isinstance(error, UnexpectedCharacters):
            names = set(error.allowed or ())
        elif isinstance(error, UnexpectedEOF):
            names = set(error.expected)
        ends = {"$END", "<END-OF-FILE>"}  # the parser's and the contextual lexer's names for the end of the text
        words = sorted(
            {
                self._terminal_words.get(name, name.lower().strip("_"))
                for name in names
                if name not in (*ends, "WS", "COMMENT") and not name.startswith("__ANON")
            }
        )
        if names & ends:
            words.append("the end of the line")
        if not words:
            return ""
        if len(words) == 1:
            return words[0]
        return ", ".join(words[:-1]) + " or " + words[-1]

    def resolve(self, statement: object, seats: dict[str, int]) -> object:
        """The reading of a line that reads two ways — a statement keyword that is also a player's name (``Score:
        pass``) — chosen with the game's players: a player of that exact name acts; otherwise it is the statement."""
        if isinstance(statement, TwoReadings):
            return statement.actor if statement.player in seats else statement.keyword
        return statement

    def clear(self) -> None:
        self._cache.clear()


class FlatItemReader:
    """An item rule that is a player and then one ``terminal`` or a run of them (``repeats``), read with the grammar's
    own lexer states (``lexer_after``, probed with ``sample`` tokens) and built by the grammar's own transformer
    callbacks (``player``, then the rule's), as the LALR parse builds it; ``NotSure`` for any other token sequence
    (then the grammar reads the text, errors and all)."""

    def __init__(self, parser: LineParser, rule: str, terminal: str, sample: str, repeats: bool) -> None:
        self.build = getattr(parser._transformer, rule)
        self.player = parser._transformer.player  # type: ignore[attr-defined]
        self.terminal, self.repeats = terminal, repeats
        self.start = parser.lexer_after(rule, "")
        self.after_player = parser.lexer_after(rule, "Anna")
        self.after_token = parser.lexer_after(rule, f"Anna {sample}")

    def __call__(self, text: str) -> object:
        name, start, end = self.start.token(text, 0)
        if name != "PLAYER_NAME" and name != "QUOTED":
            raise NotSure
        children: list[Any] = [self.player([Token(name, text[start:end], start, 1, start + 1, 1, end + 1, end)])]
        lexer = self.after_player
        while True:
            name, start, end = lexer.token(text, end)
            if name == END:
                break
            if name != self.terminal or (len(children) > 1 and not self.repeats):
                raise NotSure
            children.append(Token(name, text[start:end], start, 1, start + 1, 1, end + 1, end))
            lexer = self.after_token
        if len(children) == 1 and not self.repeats:
            raise NotSure
        return self.build(children)


_FAILED = object()
NOT_AN_ACTION = object()  # a ``Pieces.reader``'s answer for a text whose first token no action can start with
_WS = " \t\f\r\n"  # white space as the grammar's WS terminal has it (str.strip would take any Unicode space)


@dataclass(frozen=True)
class TwoReadings:
    """A line that reads as a statement (``score: pass`` is a claim about a player 'pass'? no: ``Score: Anna +1R``)
    and as an actor line of a player named like the keyword; ``LineParser.resolve`` picks one per game."""

    player: str
    keyword: object
    actor: object


class _Blank:
    def __bool__(self) -> bool:
        return False


BLANK_STATEMENT = _Blank()


def is_blank_statement(statement: object) -> bool:
    return statement is None or statement is BLANK_STATEMENT


# ---------------------------------------------------------------------------------------------------------------
# Name resolution shared by the games


def normalise_name(words: Iterable[str]) -> str:
    """Canonical key of a name: lower case, single spaces, straight apostrophes."""
    return " ".join(w.lower().replace("’", "'") for w in words)


@dataclass(frozen=True)
class NameRef:
    """A name as written in the record (a card or a player) and its 1-based column in the line."""

    name: str
    column: int


def card_lookup(words: list[Token], table: dict[str, str], thing: str = "card") -> NameRef:
    """Resolve card-name words to the canonical name, or raise ``unknown-card`` with a did-you-mean."""
    key = normalise_name(words)
    column = (words[0].column or 1) if words else 1
    canonical = table.get(key)
    if canonical is None:
        canonical = table.get(key.replace(".", ""))
    if canonical is None:
        written = " ".join(str(w) for w in words)
        # a suggestion only for a name of plausible length: matching costs time and memory with the name's length
        close = difflib.get_close_matches(key, list(table), n=1, cutoff=0.6) if len(key) <= 80 else []
        hint = f"; did you mean '{table[close[0]]}'?" if close else ""
        raise malformed(RecordCode.UNKNOWN_CARD, f"no {thing} called {excerpt(written)} in this game{hint}", column)
    return NameRef(canonical, column)


MAX_DIGITS = 9  # a number in a record (a price, a count, a round, VP) has at most this many digits


def number(token: Token | str, column: int | None = None) -> int:
    """A whole number written in a record (an optional sign, then digits), or ``number-too-large`` (malformed) at
    its column: no rule needs more than nine digits, and a 10,000-digit "price" must not cost a conversion."""
    text = str(token).strip()
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        where = column if column is not None else getattr(token, "column", 1)
        raise malformed(
            RecordCode.NUMBER_TOO_LARGE, f"the number {excerpt(text)} has more than {MAX_DIGITS} digits", where
        )
    sign = -1 if text.startswith("-") else 1
    return sign * int(digits or "0")


def player_token(token: Token) -> NameRef:
    text = str(token)
    if text.startswith('"'):
        text = _unescape(text)
    return NameRef(text, token.column or 1)
