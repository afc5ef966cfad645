"""San Juan statements: what a record line says, how the grammar's transformer builds it, and how a statement is
written back as record text (the generator and the "legal alternatives" use the same writer).

A card whose identity the record does not know is written ``?`` and read as ``NameRef("?", column)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token, v_args

from referee.record import NameRef, card_lookup, quote_player
from referee.san_juan.cards import NAME_TABLE
from referee.statements import CommonStatements, FinalClaim, FinalEntry, RoundMark, WinClaim, final_text  # noqa: F401 - re-exported: a game's statements in one place

UNKNOWN = "?"
ROLES = ("builder", "producer", "trader", "councillor", "prospector")
SOURCES = ("prospector", "carpenter", "poor house", "well", "market stand", "market hall")


def is_unknown(ref: NameRef) -> bool:
    return ref.name == UNKNOWN


# --- game statements ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GovernorMark:
    player: NameRef
    column: int


@dataclass(frozen=True, slots=True)
class HandDeal:
    player: NameRef
    cards: tuple[NameRef, ...]
    column: int


@dataclass(frozen=True, slots=True)
class TileMark:
    tile: str
    column: int  # the tile's own column (where a wrong tile is reported)
    keyword_column: int = 0


# --- actions --------------------------------------------------------------------------------------------------
# Every action carries its verb's ``column``; a part opened by its own keyword (``over``, ``paying``, ``; draws`` ...)
# carries that keyword's column as ``<part>_column`` (0 when the part is left out), and every card its own.
@dataclass(frozen=True, slots=True)
class RoleChoice:
    role: str
    column: int = 0


@dataclass(frozen=True, slots=True)
class Build:
    card: NameRef
    over: NameRef | None = None
    paying: tuple[NameRef, ...] = ()
    goods: tuple[NameRef, ...] = ()  # production buildings whose goods the Black Market spends
    column: int = 0
    over_column: int = 0
    paying_column: int = 0
    goods_column: int = 0


@dataclass(frozen=True, slots=True)
class Produce:
    buildings: tuple[NameRef, ...]
    column: int = 0


@dataclass(frozen=True, slots=True)
class Sell:
    goods: tuple[NameRef, ...]  # the kinds of good sold (indigo, ...), each with its column
    draws: tuple[NameRef, ...] = ()
    column: int = 0
    draws_column: int = 0


@dataclass(frozen=True, slots=True)
class Council:
    draws: tuple[NameRef, ...]
    keeps: tuple[NameRef, ...]
    column: int = 0
    keeps_column: int = 0


@dataclass(frozen=True, slots=True)
class OwedDraw:
    source: str  # one of SOURCES
    draws: tuple[NameRef, ...]
    column: int = 0
    source_column: int = 0


@dataclass(frozen=True, slots=True)
class GoldMineTurn:
    cards: tuple[NameRef, ...]
    keeps: tuple[NameRef, ...]
    column: int = 0
    keeps_column: int = 0


@dataclass(frozen=True, slots=True)
class Tuck:
    card: NameRef
    column: int = 0
    more: tuple[NameRef, ...] = ()  # further cards written on the line: the Chapel takes one, so they are illegal


@dataclass(frozen=True, slots=True)
class Discard:
    cards: tuple[NameRef, ...]
    column: int = 0


@dataclass(frozen=True, slots=True)
class Pass:
    column: int = 0


Action = RoleChoice | Build | Produce | Sell | Council | OwedDraw | GoldMineTurn | Tuck | Discard | Pass


@dataclass(frozen=True, slots=True)
class Actor:
    """``PLAYER: ACTION``. It has no column of its own (the core's convention for an actor line: the benchmark counts
    actions by it); the rules point at its action where none of its parts is at fault (a line after the end)."""

    player: NameRef
    action: Action


Statement = GovernorMark | HandDeal | RoundMark | TileMark | FinalClaim | WinClaim | Actor


@dataclass(frozen=True, slots=True)
class Part:
    """An optional part of an action while it is read (``over Crane``, ``paying Well, ?``, ``; keeps none``): the
    cards it names and the column of its keyword; ``NO_PART`` when the record leaves it out."""

    cards: tuple[NameRef, ...] = ()
    column: int = 0

    @property
    def card(self) -> NameRef | None:
        """The card of a one-card part (``over Crane``)."""
        return self.cards[0] if self.cards else None


NO_PART = Part()


def _at(token: Token) -> int:
    """A token's 1-based column (typed optional by Lark; the lexer always sets it)."""
    return token.column if token.column is not None else 1


def _role(word: str) -> str:
    word = word.lower()
    return "councillor" if word == "councilor" else word


def _source(word: str) -> str:
    """``poor  house`` -> ``poor house``: one of SOURCES."""
    return " ".join(word.lower().split())


class StatementBuilder(CommonStatements):
    """Builds statement objects while the LALR parser runs (no tree is kept). Every rule has a fixed shape (optional
    parts are rules that may be empty), so each method takes the rule's parts as named arguments."""

    def card(self, words: list[Token]) -> NameRef:
        return card_lookup(words, NAME_TABLE)

    @v_args(inline=True)
    def unknown(self, mark: Token) -> NameRef:
        return NameRef(UNKNOWN, _at(mark))

    def cards(self, refs: list[NameRef]) -> tuple[NameRef, ...]:
        return tuple(refs)

    some_cards = goods_sold = cards

    @v_args(inline=True)
    def good_kind(self, good: Token) -> NameRef:
        return NameRef(good.lower(), _at(good))

    # optional parts
    @v_args(inline=True)
    def cover(self, keyword: Token | None = None, card: NameRef | None = None) -> Part:
        return Part((card,), _at(keyword)) if keyword is not None and card is not None else NO_PART

    @v_args(inline=True)
    def payment(self, keyword: Token | None = None, cards: tuple[NameRef, ...] = ()) -> Part:
        return Part(cards, _at(keyword)) if keyword is not None else NO_PART

    goods_spent = sell_draws = keeps = payment

    @v_args(inline=True)
    def keeps_none(self, keyword: Token, none: Token) -> Part:
        return Part((), _at(keyword))

    # game statements
    @v_args(inline=True)
    def governor(self, keyword: Token, player: NameRef) -> GovernorMark:
        return GovernorMark(player, _at(keyword))

    @v_args(inline=True)
    def hand(self, keyword: Token, player: NameRef, cards: tuple[NameRef, ...]) -> HandDeal:
        return HandDeal(player, cards, _at(keyword))

    @v_args(inline=True)
    def tile(self, keyword: Token, value: Token) -> TileMark:
        return TileMark(str(value), _at(value), _at(keyword))

    # actions
    @v_args(inline=True)
    def actor(self, player: NameRef, action: Action) -> Actor:
        return Actor(player, action)

    @v_args(inline=True)
    def role(self, word: Token) -> RoleChoice:
        return RoleChoice(_role(word), _at(word))

    @v_args(inline=True)
    def build(self, verb: Token, card: NameRef, over: Part, paying: Part, goods: Part) -> Build:
        return Build(card, over.card, paying.cards, goods.cards, _at(verb), over.column, paying.column, goods.column)

    @v_args(inline=True)
    def produce(self, verb: Token, buildings: tuple[NameRef, ...]) -> Produce:
        return Produce(buildings, _at(verb))

    @v_args(inline=True)
    def sell(self, verb: Token, goods: tuple[NameRef, ...], draws: Part) -> Sell:
        return Sell(goods, draws.cards, _at(verb), draws.column)

    @v_args(inline=True)
    def council(self, verb: Token, draws: tuple[NameRef, ...], keeps: Part) -> Council:
        return Council(draws, keeps.cards, _at(verb), keeps.column)

    @v_args(inline=True)
    def owed(self, verb: Token, draws: tuple[NameRef, ...], source: Token) -> OwedDraw:
        return OwedDraw(_source(source), draws, _at(verb), _at(source))

    @v_args(inline=True)
    def gold_mine(self, verb: Token, cards: tuple[NameRef, ...], keeps: Part) -> GoldMineTurn:
        return GoldMineTurn(cards, keeps.cards, _at(verb), keeps.column)

    @v_args(inline=True)
    def tucks(self, verb: Token, cards: tuple[NameRef, ...]) -> Tuck:
        return Tuck(cards[0], _at(verb), cards[1:])

    @v_args(inline=True)
    def discards(self, verb: Token, cards: tuple[NameRef, ...]) -> Discard:
        return Discard(cards, _at(verb))

    @v_args(inline=True)
    def pass_turn(self, word: Token) -> Pass:
        return Pass(_at(word))


# --- writing statements back as text --------------------------------------------------------------------------
def names(refs: tuple[NameRef, ...]) -> str:
    return ", ".join(ref.name for ref in refs)


def action_text(action: Action) -> str:
    if isinstance(action, RoleChoice):
        return action.role
    if isinstance(action, Build):
        text = f"build {action.card.name}"
        if action.over:
            text += f" over {action.over.name}"
        if action.paying:
            text += f" paying {names(action.paying)}"
        if action.goods:
            text += f" goods {names(action.goods)}"
        return text
    if isinstance(action, Produce):
        return f"produce {names(action.buildings)}"
    if isinstance(action, Sell):
        text = "sell " + ", ".join(good.name for good in action.goods)
        return text + (f"; draws {names(action.draws)}" if action.draws else "")
    if isinstance(action, Council):
        return f"draws {names(action.draws)}; keeps {names(action.keeps) or 'none'}"
    if isinstance(action, OwedDraw):
        return f"draws {names(action.draws)} ({action.source})"
    if isinstance(action, GoldMineTurn):
        return f"gold mine {names(action.cards)}; keeps {names(action.keeps) or 'none'}"
    if isinstance(action, Tuck):
        return f"tucks {names((action.card, *action.more))}"
    if isinstance(action, Discard):
        return f"discards {names(action.cards)}"
    if isinstance(action, Pass):
        return "pass"
    raise TypeError(action)


def actor_text(player: str, action: Action) -> str:
    return f"{quote_player(player)}: {action_text(action)}"


def statement_text(statement: Statement) -> str:
    """Write any statement back as one record line (the inverse of the parser, used by generator and tests)."""
    if isinstance(statement, Actor):
        return actor_text(statement.player.name, statement.action)
    if isinstance(statement, GovernorMark):
        return f"governor: {quote_player(statement.player.name)}"
    if isinstance(statement, HandDeal):
        return f"hand {quote_player(statement.player.name)}: {names(statement.cards)}"
    if isinstance(statement, RoundMark):
        return f"round {statement.number}"
    if isinstance(statement, TileMark):
        return f"tile: {statement.tile}"
    if isinstance(statement, FinalClaim):
        return final_text(statement)
    raise TypeError(statement)
