"""Santorini: New York statements: what a record line says (every part with its column), how the grammar's
transformer builds it, and how statements are written back as record text (the generator and the legal
alternatives use the same writer).

Squares stay text here (``b2``): which cell a square names depends on the board of the game, which the state knows.
A hand card the log does not show is written ``?`` and read as a ``CardRef`` without a profession.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lark import Token

from referee.errors import RecordCode
from referee.record import LineParser, NameRef, SyntaxExample, card_lookup, number, player_token, shift_columns
from referee.record import quote_player as quote_name
from referee.santorini_new_york.cards import NAME_TABLE
from referee.statements import CommonStatements, FinalClaim, FinalEntry, RoundMark, WinClaim, final_text  # noqa: F401 - re-exported: a game's statements in one place

ROOF_CLAIM = 4  # a claim '=roof' (engine.ROOF)

# Statement keywords (ruling 17): a line opening with one is that statement, so a player so named is quoted. `final`
# is none: ``final: Anna 3`` (the common claim) and ``Final: move d8-c8`` (a turn) differ after the colon.
RESERVED_WORDS = frozenset({"place", "skyscraper", "hand", "round", "play", "win"})


def quote_player(name: str) -> str:
    """A player name as Santorini records write it (quoted when it is a statement keyword)."""
    return quote_name(name, RESERVED_WORDS)


@dataclass(frozen=True, slots=True)
class Square:
    name: str  # lower case, e.g. "b2"
    column: int

    @property
    def end_column(self) -> int:
        return self.column + len(self.name)


@dataclass(frozen=True, slots=True)
class CardRef:
    """``Iron Worker 6`` (``profession`` canonical) or ``?`` (``profession`` None)."""

    profession: str | None
    number: int
    column: int
    number_column: int = 0

    @property
    def unknown(self) -> bool:
        return self.profession is None

    @property
    def end_column(self) -> int:
        return self.column + 1 if self.profession is None else self.number_column + len(str(self.number))


# --- game statements ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlaceEntry:
    player: NameRef
    squares: tuple[Square, Square]


@dataclass(frozen=True, slots=True)
class Place:
    entries: tuple[PlaceEntry, ...]
    column: int


@dataclass(frozen=True, slots=True)
class SetupSkyscraper:
    square: Square
    column: int


@dataclass(frozen=True, slots=True)
class HandDeal:
    player: NameRef
    cards: tuple[CardRef, ...]
    column: int
    end_column: int = 0


@dataclass(frozen=True, slots=True)
class PlayEntry:
    player: NameRef
    card: CardRef


@dataclass(frozen=True, slots=True)
class Reveal:
    entries: tuple[PlayEntry, ...]
    column: int
    end_column: int = 0


# --- turns ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MoveStep:
    frm: Square
    to: Square
    column: int


@dataclass(frozen=True, slots=True)
class ForceStep:
    frm: Square
    to: Square
    column: int


@dataclass(frozen=True, slots=True)
class BuildTarget:
    square: Square
    claim: int | None = None  # 1-3, or ROOF_CLAIM for '=roof'
    claim_column: int = 0
    claim_end_column: int = 0

    @property
    def end_column(self) -> int:
        return self.claim_end_column if self.claim is not None else self.square.end_column


@dataclass(frozen=True, slots=True)
class BuildStep:
    targets: tuple[BuildTarget, ...]
    column: int


@dataclass(frozen=True, slots=True)
class SkyscraperStep:
    square: Square
    column: int


Step = MoveStep | ForceStep | BuildStep | SkyscraperStep


def step_end(step: Step) -> int:
    if isinstance(step, (MoveStep, ForceStep)):
        return step.to.end_column
    if isinstance(step, BuildStep):
        return step.targets[-1].end_column
    return step.square.end_column


@dataclass(frozen=True, slots=True)
class TurnLine:
    """``Anna: move b2-c2; build c1``: the steps in the order they happen."""

    player: NameRef
    steps: tuple[Step, ...]
    end_column: int = 0


@dataclass(frozen=True, slots=True)
class LossLine:
    """``Anna: loses c2``: a worker lost, the turn forfeited."""

    player: NameRef
    square: Square
    column: int


Statement = Place | SetupSkyscraper | HandDeal | RoundMark | Reveal | FinalClaim | WinClaim | TurnLine | LossLine


class StatementBuilder(CommonStatements):
    """Builds statement objects while the LALR parser runs (no tree is kept). Lark types a token's position as
    optional (a token made by hand has none); the lexer always sets it, so ``or 1`` (as in ``referee.record``) only
    satisfies the type."""

    def square(self, children: list[Token]) -> Square:
        return Square(str(children[0]).lower(), children[0].column or 1)

    def card(self, children: list[Token]) -> CardRef:
        profession = card_lookup(children[:-1], NAME_TABLE, "profession")
        written = children[-1]
        return CardRef(profession.name, number(written), profession.column, written.column or 1)

    def unknown(self, children: list[Token]) -> CardRef:
        return CardRef(None, 0, children[0].column or 1)

    # game statements
    def place_entry(self, children: list) -> PlaceEntry:
        return PlaceEntry(children[0], (children[1], children[2]))

    def place(self, children: list) -> Place:
        return Place(tuple(children[1:]), children[0].column)

    def sky_setup(self, children: list) -> SetupSkyscraper:
        return SetupSkyscraper(children[1], children[0].column)

    def hand(self, children: list) -> HandDeal:
        cards = tuple(children[2:])
        return HandDeal(children[1], cards, children[0].column, cards[-1].end_column)

    def play_entry(self, children: list) -> PlayEntry:
        return PlayEntry(children[0], children[1])

    def play(self, children: list) -> Reveal:
        entries = tuple(children[1:])
        return Reveal(entries, children[0].column, entries[-1].card.end_column)

    # turns
    def actor(self, children: list) -> TurnLine | LossLine:
        player, action = children
        if isinstance(player, Token):  # FINAL: a player named Final, no statement keyword of the game
            player = player_token(player)
        if isinstance(action, LossLine):
            return LossLine(player, action.square, action.column)
        return TurnLine(player, action, step_end(action[-1]))

    def steps(self, children: list) -> tuple[Step, ...]:
        return tuple(children)

    def move(self, children: list) -> MoveStep:
        return MoveStep(children[1], children[2], children[0].column)

    def force(self, children: list) -> ForceStep:
        return ForceStep(children[1], children[2], children[0].column)

    def build(self, children: list) -> BuildStep:
        return BuildStep(tuple(children[1:]), children[0].column)

    def build_target(self, children: list) -> BuildTarget:
        if len(children) == 1:
            return BuildTarget(children[0])
        level, column, end = children[1]
        return BuildTarget(children[0], level, column, end)

    def claim(self, children: list[Token]) -> tuple[int, int, int]:
        token = children[0]
        level = ROOF_CLAIM if token.type == "ROOF" else number(token)
        column = token.column or 1
        return (level, column, token.end_column or column + len(token))

    def sky_step(self, children: list) -> SkyscraperStep:
        return SkyscraperStep(children[1], children[0].column)

    def loses(self, children: list) -> LossLine:
        return LossLine(NameRef("", 0), children[1], children[0].column)


TERMINAL_WORDS = {
    "PLAYER_NAME": "a player name",
    "QUOTED": "a quoted player name",
    "WORD": "a profession name",
    "INT": "a number",
    "SIGNED_INT": "a number",
    "SQUARE": "a square like b2",
    "COLON": "':'",
    "COMMA": "','",
    "SEMICOLON": "';'",
    "MINUS": "'-'",
    "EQUAL": "'='",
    "PLACE": "'place'",
    "SKYSCRAPER": "'skyscraper'",
    "HAND": "'hand'",
    "ROUND": "'round'",
    "PLAY": "'play'",
    "FINAL": "'final'",
    "WIN": "'win'",
    "MOVE": "'move'",
    "FORCE": "'force'",
    "BUILD": "'build'",
    "LOSES": "'loses'",
    "ROOF": "'roof'",
    "UNKNOWN": "'?'",
}

SYNTAX_EXAMPLES = (
    SyntaxExample(
        RecordCode.MISSING_COLON,
        "a ':' is missing after the player name or statement keyword",
        ("Anna move b2-c2", "place Anna b2 d4", "hand Anna Engineer 1", "play Anna Engineer 1", "win Anna"),
    ),
    SyntaxExample(
        RecordCode.UNKNOWN_ACTION,
        "unknown step; a turn is written with move, build, force, skyscraper (or the whole line 'loses SQ')",
        ("Anna: jump b2-c2", "Anna: push b2-c2", "Anna: climb b2", "Anna: pass"),
    ),
    SyntaxExample(
        RecordCode.MISSING_NUMBER,
        "a number is missing",
        ("round", "hand Anna: Engineer", "play: Anna Engineer", "final: Anna"),
    ),
)


# --- reading lines piece by piece -----------------------------------------------------------------------------
PLAIN_LINE = re.compile(r"[\t\x20\x21\x24-\x7e]*")  # printable ASCII and tabs, but no '"' (a quoted name), no '#'
BLANKS = " \t"  # the grammar's whitespace within a line (WS)
WORD_NAME = re.compile(r"\w+")  # a player name no keyword or other terminal can start (ASCII)


# Lines as the referee writes them (``statement_text``), read by ``SNYLineParser.read_canonical``: a turn, a list
# statement, a deal. A piece is printable ASCII without '"' or '#' (as PLAIN_LINE), no blank at either end, no
# separator of its line.
_TURN_PIECE = r"[!$-:<-~](?:[\t !$-:<-~]*[!$-:<-~])?"  # no ';'
_LIST_PIECE = r"[!$-+\--~](?:[\t !$-+\--~]*[!$-+\--~])?"  # no ','
_KEYWORD = "|".join(sorted(RESERVED_WORDS))
CANONICAL_TURN = re.compile(rf"(?!(?i:{_KEYWORD}):)(\w+): ({_TURN_PIECE}(?:; {_TURN_PIECE})*)", re.ASCII)
CANONICAL_LOSS = re.compile(r"loses ([a-z][0-9]+)", re.ASCII)  # the whole action of a turn line
CANONICAL_LIST = re.compile(rf"(place|play|win|final): ({_LIST_PIECE}(?:, {_LIST_PIECE})*)", re.ASCII)
CANONICAL_HAND = re.compile(rf"hand (\w+): ({_LIST_PIECE}(?:, {_LIST_PIECE})*)", re.ASCII)
# What ``read_canonical`` checks of a line instead of matching the whole line with the patterns above: the head (a
# keyword, ``hand NAME`` or ``NAME``: ``ASCII_WORD``, no keyword) and each piece, by its separator, when first read.
ASCII_WORD = re.compile(r"\w+", re.ASCII)
CANONICAL_PIECE = {"; ": re.compile(_TURN_PIECE, re.ASCII), ", ": re.compile(_LIST_PIECE, re.ASCII)}


# keyword -> how its entries make the statement (keyword column, entries), as the transformer makes it
LISTS: dict[str, Callable[[int, tuple[Any, ...]], object]] = {
    "place": lambda column, entries: Place(entries, column),
    "play": lambda column, entries: Reveal(entries, column, entries[-1].card.end_column),
    "win": lambda column, entries: WinClaim(entries, column),
    "final": lambda column, entries: FinalClaim(entries, column),
}


# A step as the grammar reads it, for the plain forms (anything else is read by the grammar itself): the keywords
# and squares are its terminals (MOVE, FORCE, BUILD, SKYSCRAPER, SQUARE, INT, ROOF), blanks its WS.
SQ = r"([a-z][0-9]+)"
MOVE_STEP = re.compile(rf"(moves?|forces?)[ \t]+{SQ}[ \t]*-[ \t]*{SQ}", re.IGNORECASE)
SKY_STEP = re.compile(rf"skyscraper[ \t]+{SQ}", re.IGNORECASE)
BUILD_WORD = re.compile(r"builds?[ \t]+", re.IGNORECASE)
BUILD_TARGET = re.compile(rf"[ \t]*{SQ}(?:[ \t]*=[ \t]*([0-9]+|roof(?:top)?))?[ \t]*", re.IGNORECASE)


def read_step(piece: str, column: int) -> Step | None:
    """A step in one of its plain forms (``move b2-c2``, ``force d4-e5``, ``build c1, b1=2``, ``skyscraper c3``)
    at ``column`` of its line, as the grammar's transformer makes it; None for any other text."""
    found = MOVE_STEP.fullmatch(piece)
    if found is not None:
        frm = Square(found.group(2).lower(), column + found.start(2))
        to = Square(found.group(3).lower(), column + found.start(3))
        return (MoveStep if found.group(1)[0] in "mM" else ForceStep)(frm, to, column)
    found = SKY_STEP.fullmatch(piece)
    if found is not None:
        return SkyscraperStep(Square(found.group(1).lower(), column + found.start(1)), column)
    found = BUILD_WORD.match(piece)
    if found is None:
        return None
    targets = []
    start = found.end()
    for part in piece[start:].split(","):
        target = BUILD_TARGET.fullmatch(part)
        if target is None:
            return None
        square = Square(target.group(1).lower(), column + start + target.start(1))
        claim = target.group(2)
        if claim is None:
            targets.append(BuildTarget(square))
        else:
            at = column + start + target.start(2)
            level = number(claim, at) if claim[0].isdigit() else ROOF_CLAIM
            targets.append(BuildTarget(square, level, at, at + len(claim)))
        start += len(part) + 1
    return BuildStep(tuple(targets), column)


def moved(entry: Any, offset: int) -> Any:
    """A list entry read at one place of a line, at another (``record.shift_columns`` for the common entries)."""
    if isinstance(entry, NameRef):
        return NameRef(entry.name, entry.column + offset)
    if isinstance(entry, CardRef):
        number = entry.number_column + offset if entry.number_column > 0 else 0
        return CardRef(entry.profession, entry.number, entry.column + offset, number)
    if isinstance(entry, PlayEntry):
        return PlayEntry(moved(entry.player, offset), moved(entry.card, offset))
    if isinstance(entry, PlaceEntry):
        first, second = entry.squares
        squares = (Square(first.name, first.column + offset), Square(second.name, second.column + offset))
        return PlaceEntry(moved(entry.player, offset), squares)
    return shift_columns(entry, offset)


def _entries(statement: object) -> tuple[Any, ...] | None:
    """The entries (steps, cards, ...) of a statement read from a one-entry template line."""
    if isinstance(statement, TurnLine):
        return statement.steps
    if isinstance(statement, (Place, Reveal)):
        return statement.entries
    if isinstance(statement, WinClaim):
        return statement.players
    if isinstance(statement, FinalClaim):
        return statement.entries
    if isinstance(statement, HandDeal):
        return statement.cards
    return None


class SNYLineParser(LineParser):
    """The game's line parser, reading the common lines piece by piece: a turn step by step (``Anna: move b2-c2;
    build c1``), a list statement entry by entry (``play:``, ``place:``, ``win:``, ``final:``, ``hand NAME:``). A
    piece is read once with the whole grammar, as the only entry of a template line (``x: move b2-c2``), and kept
    with its columns; pieces repeat far more than lines do. Only plain lines are read so — printable ASCII, no
    comment, no quoted name, a player name of word characters that is no statement keyword, every piece one the
    grammar reads — and the statement is the one the whole line parses to; any other line (and any line a piece of
    which does not read) is parsed whole, errors and all (``LineParser.parse``)."""

    PIECE_LIMIT = 100_000

    def __init__(self) -> None:
        super().__init__(
            Path(__file__).with_name("santorini_new_york.lark"), StatementBuilder, TERMINAL_WORDS, SYNTAX_EXAMPLES
        )
        self._sny_templates: dict[tuple[str, str], tuple[Any, int] | None] = {}  # (template head, piece) -> entry, size
        self._sny_placed: dict[tuple[str, str, int], Any] = {}  # (template head, piece, its start) -> entry
        self._sny_lines: dict[str, object] = {}  # plain lines read
        self._sny_rests: dict[tuple[str, str, int], tuple[Any, ...]] = {}  # (template head, rest, start) -> entries
        self._sny_canonical: dict[str, dict[int, dict[str, Any]]] = {}  # template head -> column -> piece -> entry
        self._sny_kept = 0  # pieces in _sny_canonical
        self._sny_names: dict[tuple[str, int], NameRef] = {}  # (player, column) -> the name there
        self._sny_word_names: dict[str, bool] = {}  # name -> ``_word_name``
        self._sny_actors: dict[str, NameRef] = {}  # a turn line's head -> its player (a name at column 1)

    def parse(self, text: str) -> object:
        statement = self.read_canonical(text)  # not kept: reading it again is cheap, and a kept line is garbage
        if statement is not None:  # the collector must visit again and again
            return statement
        statement = self._sny_lines.get(text)
        if statement is None:
            statement = self.read_plain(text)
            if statement is None:
                return super().parse(text)
            if len(self._sny_lines) >= self.PIECE_LIMIT:
                self._sny_lines.clear()
            self._sny_lines[text] = statement
        return statement

    def read_canonical(self, text: str) -> object | None:
        """``read_plain`` for a line written the way the referee writes lines (``statement_text``: one blank after
        the colon and after each separator, none before): the same pieces read by the same ``_piece``, without
        searching for the blanks (and a worker loss, ``Anna: loses c2``, which ``read_plain`` leaves to the grammar);
        None for any other line, or one a piece of which does not read (then ``read_plain`` decides). The line is
        the ``CANONICAL_*`` pattern of its kind: its head is checked here, its pieces when first read (a piece
        kept is one that matched ``TURN_PIECE`` or ``LIST_PIECE``), so a line of known pieces is never scanned."""
        if len(text) > 256:
            return None
        head, colon, rest = text.partition(": ")
        if not colon:
            return None
        actor = self._sny_actors.get(head)  # a player's turn line (most lines) first: no statement keyword is a name
        if actor is None:
            make = LISTS.get(head)
            if make is not None:  # no player may be called so (ruling 17): no turn line
                entries = self._canonical_entries(head + ":", rest, ", ", len(head) + 3)
                return None if entries is None else make(1, entries)
            if head.startswith("hand "):  # nor a turn line: a name has no blank
                player = head[5:]
                if not self._word_name(player):
                    return None
                cards = self._canonical_entries("hand x:", rest, ", ", len(player) + 8)
                if cards is None:
                    return None
                return HandDeal(self._name_at(player, 6), cards, 1, cards[-1].end_column)
            if not self._word_name(head):  # a name that is no statement keyword (ruling 17)
                return None
            if len(self._sny_actors) >= self.PIECE_LIMIT:
                self._sny_actors.clear()
            actor = self._sny_actors[head] = self._name_at(head, 1)
        if rest.startswith("loses "):
            loss = CANONICAL_LOSS.fullmatch(rest)
            if loss is not None:  # (as a piece 'loses SQ' reads as no step: read_plain leaves the line to the grammar)
                return LossLine(actor, Square(loss.group(1), len(head) + 9), len(head) + 3)
        steps = self._canonical_entries("x:", rest, "; ", len(head) + 3)
        if steps is None:
            return None
        # the line ends with the last step's last token (no blank follows it): its end is the line's
        return TurnLine(actor, steps, len(text) + 1)

    def _word_name(self, name: str) -> bool:
        """Is ``name`` a player name of ASCII word characters that is no statement keyword (kept per name)?"""
        known = self._sny_word_names.get(name)
        if known is None:
            if len(self._sny_word_names) >= self.PIECE_LIMIT:
                self._sny_word_names.clear()
            known = self._sny_word_names[name] = (
                ASCII_WORD.fullmatch(name) is not None and name.lower() not in RESERVED_WORDS
            )
        return known

    def _name_at(self, name: str, column: int) -> NameRef:
        """A player's name at a column, one object for all the lines that have it there."""
        key = (name, column)
        found = self._sny_names.get(key)
        if found is None:
            if len(self._sny_names) >= self.PIECE_LIMIT:
                self._sny_names.clear()
            found = self._sny_names[key] = NameRef(name, column)
        return found

    def _canonical_entries(self, template: str, rest: str, separator: str, column: int) -> tuple[Any, ...] | None:
        """The entries of ``rest`` (pieces without blanks around them, between ``separator``s), the first at
        ``column`` of its line, each read by ``_piece`` once per piece and column (kept by template and column, then
        by piece: no key to build)."""
        columns = self._sny_canonical.get(template)
        if columns is None:
            columns = self._sny_canonical[template] = {}
        out = []
        gap = len(separator)
        for piece in rest.split(separator):
            placed = columns.get(column)
            if placed is None:
                placed = columns[column] = {}
            entry = placed.get(piece)
            if entry is None:
                if not CANONICAL_PIECE[separator].fullmatch(piece):
                    return None
                entry = self._piece(template, piece, column)
                if entry is None:
                    return None
                self._sny_kept += 1
                if self._sny_kept > self.PIECE_LIMIT:  # at most PIECE_LIMIT pieces kept in all
                    self._sny_canonical.clear()
                    self._sny_kept = 1
                    columns = self._sny_canonical[template] = {}
                    placed = columns[column] = {}
                placed[piece] = entry
            out.append(entry)
            column += len(piece) + gap
        return tuple(out)

    def read_plain(self, text: str) -> object | None:
        """The statement of a plain line read piece by piece, or None (then it is parsed whole)."""
        if len(text) > 256 or not PLAIN_LINE.fullmatch(text):
            return None
        head, colon, rest = text.partition(":")
        if not colon:
            return None
        name = head.strip(BLANKS)
        column = len(head) - len(head.lstrip(BLANKS)) + 1
        key = name.lower()
        if key in LISTS:
            entries = self._entries_of(key + ":", rest, ",", len(head) + 1)
            return None if entries is None else LISTS[key](column, entries)
        if key.startswith("hand") and key[4:5] in BLANKS and key[4:5]:
            player = name[4:].lstrip(BLANKS)
            if not WORD_NAME.fullmatch(player) or player.lower() in RESERVED_WORDS:
                return None
            cards = self._entries_of("hand x:", rest, ",", len(head) + 1)
            if cards is None:
                return None
            player_column = column + len(name) - len(player)
            return HandDeal(NameRef(player, player_column), cards, column, cards[-1].end_column)
        if not WORD_NAME.fullmatch(name) or key in RESERVED_WORDS:
            return None
        steps = self._entries_of("x:", rest, ";", len(head) + 1)
        if steps is None:
            return None
        return TurnLine(NameRef(name, column), steps, step_end(steps[-1]))

    def _entries_of(self, template: str, rest: str, separator: str, start: int) -> tuple[Any, ...] | None:
        """Each piece of ``rest`` (which begins after ``start`` characters of the line) read as the one entry of a
        template line, with its columns in the line."""
        whole = (template, rest, start)
        entries = self._sny_rests.get(whole)
        if entries is not None:
            return entries
        out = []
        offset = start
        for piece in rest.split(separator):
            key = (template, piece, offset)
            entry = self._sny_placed.get(key)
            if entry is None:
                stripped = piece.strip(BLANKS)
                if not stripped:
                    return None
                entry = self._piece(template, stripped, offset + len(piece) - len(piece.lstrip(BLANKS)) + 1)
                if entry is None:
                    return None
                if len(self._sny_placed) >= self.PIECE_LIMIT:
                    self._sny_placed.clear()
                self._sny_placed[key] = entry
            out.append(entry)
            offset += len(piece) + 1
        entries = tuple(out)
        if len(self._sny_rests) >= self.PIECE_LIMIT:
            self._sny_rests.clear()
        self._sny_rests[whole] = entries
        return entries

    def _piece(self, template: str, piece: str, column: int) -> Any | None:
        """A piece (no blanks around it) at ``column`` of its line read as the one entry of a template line: a step
        in its plain form by ``read_step``, anything else by the whole grammar (``_entry_of``); None when it does
        not read so."""
        entry = read_step(piece, column) if template == "x:" else None
        if entry is None:
            found = self._entry_of(template, piece)
            if found is None:
                return None
            unplaced, size = found
            entry = moved(unplaced, column - size - 2)
        return entry

    def _entry_of(self, template: str, piece: str) -> tuple[Any, int] | None:
        """A piece read as the only entry of ``TEMPLATE PIECE`` (the whole grammar), and the template's length; None
        when it does not read so."""
        key = (template, piece)
        if key in self._sny_templates:
            return self._sny_templates[key]
        statement = self.parse_whole(f"{template} {piece}")
        entries = _entries(statement)
        found = None
        if entries is not None and len(entries) == 1 and (template == "x:") == isinstance(statement, TurnLine):
            found = (entries[0], len(template))
        if len(self._sny_templates) >= self.PIECE_LIMIT:
            self._sny_templates.clear()
        self._sny_templates[key] = found
        return found


def make_parser() -> LineParser:
    return SNYLineParser()


# --- writing statements back as text --------------------------------------------------------------------------
def card_ref_text(card: CardRef) -> str:
    return "?" if card.profession is None else f"{card.profession} {card.number}"


def claim_text(level: int) -> str:
    return "roof" if level == ROOF_CLAIM else str(level)


def step_text(step: Step) -> str:
    if isinstance(step, MoveStep):
        return f"move {step.frm.name}-{step.to.name}"
    if isinstance(step, ForceStep):
        return f"force {step.frm.name}-{step.to.name}"
    if isinstance(step, BuildStep):
        targets = (t.square.name + (f"={claim_text(t.claim)}" if t.claim is not None else "") for t in step.targets)
        return "build " + ", ".join(targets)
    return f"skyscraper {step.square.name}"


def statement_text(statement: Statement) -> str:
    """Any statement as one record line (the inverse of the parser)."""
    if isinstance(statement, TurnLine):
        return f"{quote_player(statement.player.name)}: " + "; ".join(step_text(s) for s in statement.steps)
    if isinstance(statement, LossLine):
        return f"{quote_player(statement.player.name)}: loses {statement.square.name}"
    if isinstance(statement, Place):
        entries = (f"{quote_player(e.player.name)} {e.squares[0].name} {e.squares[1].name}" for e in statement.entries)
        return "place: " + ", ".join(entries)
    if isinstance(statement, SetupSkyscraper):
        return f"skyscraper: {statement.square.name}"
    if isinstance(statement, HandDeal):
        return f"hand {quote_player(statement.player.name)}: " + ", ".join(map(card_ref_text, statement.cards))
    if isinstance(statement, Reveal):
        entries = (f"{quote_player(e.player.name)} {card_ref_text(e.card)}" for e in statement.entries)
        return "play: " + ", ".join(entries)
    if isinstance(statement, RoundMark):
        return f"round {statement.number}"
    if isinstance(statement, WinClaim):
        return "win: " + ", ".join(quote_player(ref.name) for ref in statement.players)
    if isinstance(statement, FinalClaim):
        return final_text(statement)
    raise TypeError(statement)
