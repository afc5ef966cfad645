"""San Juan statements: what a record line says, how the grammar's transformer builds it, and how a statement is
written back as record text (the generator and the "legal alternatives" use the same writer).

A card whose identity the record does not know is written ``?`` and read as ``NameRef("?", column)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lark import Token

from referee.errors import RecordCode
from referee.record import LineParser, NameRef, Pieces, SyntaxExample, card_lookup, quote_player
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
    column: int


# --- actions --------------------------------------------------------------------------------------------------
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


@dataclass(frozen=True, slots=True)
class Produce:
    buildings: tuple[NameRef, ...]
    column: int = 0


@dataclass(frozen=True, slots=True)
class Sell:
    goods: tuple[NameRef, ...]  # the kinds of good sold (indigo, ...), each with its column
    draws: tuple[NameRef, ...] = ()
    column: int = 0


@dataclass(frozen=True, slots=True)
class Council:
    draws: tuple[NameRef, ...]
    keeps: tuple[NameRef, ...]
    column: int = 0


@dataclass(frozen=True, slots=True)
class OwedDraw:
    source: str  # one of SOURCES
    draws: tuple[NameRef, ...]
    column: int = 0


@dataclass(frozen=True, slots=True)
class GoldMineTurn:
    cards: tuple[NameRef, ...]
    keeps: tuple[NameRef, ...]
    column: int = 0


@dataclass(frozen=True, slots=True)
class Tuck:
    card: NameRef
    column: int = 0


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
    player: NameRef
    action: Action


Statement = GovernorMark | HandDeal | RoundMark | TileMark | FinalClaim | WinClaim | Actor


def _role(word: str) -> str:
    word = word.lower()
    return "councillor" if word == "councilor" else word


class StatementBuilder(CommonStatements):
    """Builds statement objects while the LALR parser runs (no tree is kept)."""

    def card(self, children: list[Token]) -> NameRef:
        return card_lookup(children, NAME_TABLE)

    def unknown(self, children: list[Token]) -> NameRef:
        return NameRef(UNKNOWN, children[0].column)

    def cards(self, children: list[NameRef]) -> tuple[NameRef, ...]:
        return tuple(children)

    some_cards = cards

    def keep_list(self, children: list) -> tuple[NameRef, ...]:
        return children[0] if isinstance(children[0], tuple) else ()

    def over(self, children: list) -> tuple:
        return ("over", children[1])

    def paying(self, children: list) -> tuple:
        return ("paying", children[1])

    def goods(self, children: list) -> tuple:
        return ("goods", children[1])

    def good_kind(self, children: list[Token]) -> NameRef:
        return NameRef(children[0].lower(), children[0].column)

    # game statements
    def governor(self, children: list) -> GovernorMark:
        return GovernorMark(children[1], children[0].column)

    def hand(self, children: list) -> HandDeal:
        return HandDeal(children[1], children[2], children[0].column)

    def tile(self, children: list[Token]) -> TileMark:
        return TileMark(str(children[1]), children[1].column)

    # actions
    def actor(self, children: list) -> Actor:
        return Actor(children[0], children[1])

    def role(self, children: list[Token]) -> RoleChoice:
        return RoleChoice(_role(children[0]), children[0].column)

    def build(self, children: list) -> Build:
        found = {c[0]: c[1] for c in children[2:] if isinstance(c, tuple)}
        return Build(
            children[1], found.get("over"), found.get("paying", ()), found.get("goods", ()), children[0].column
        )

    def produce(self, children: list) -> Produce:
        return Produce(children[1], children[0].column)

    def sell(self, children: list) -> Sell:
        goods = tuple(c for c in children if isinstance(c, NameRef))
        draws = next((c for c in children if isinstance(c, tuple)), ())
        return Sell(goods, draws, children[0].column)

    def council(self, children: list) -> Council:
        return Council(children[1], children[3], children[0].column)

    def owed(self, children: list) -> OwedDraw:
        return OwedDraw(" ".join(str(children[2]).lower().split()), children[1], children[0].column)

    def gold_mine(self, children: list) -> GoldMineTurn:
        return GoldMineTurn(children[1], children[3], children[0].column)

    def tucks(self, children: list) -> Tuck:
        return Tuck(children[1], children[0].column)

    def discards(self, children: list) -> Discard:
        return Discard(children[1], children[0].column)

    def pass_(self, children: list[Token]) -> Pass:
        return Pass(children[0].column)


# Lark calls the rule "pass" — a Python keyword — so route it by name.
setattr(StatementBuilder, "pass", StatementBuilder.pass_)

TERMINAL_WORDS = {
    "PLAYER_NAME": "a player name",
    "QUOTED": "a quoted player name",
    "WORD": "a card name",
    "INT": "a number",
    "SIGNED_INT": "a number",
    "COLON": "':'",
    "COMMA": "','",
    "SEMICOLON": "';'",
    "LPAR": "'('",
    "RPAR": "')'",
    "GOVERNOR": "'governor'",
    "HAND": "'hand'",
    "ROUND": "'round'",
    "TILE": "'tile'",
    "FINAL": "'final'",
    "ROLE": "a role (builder, producer, trader, councillor, prospector)",
    "BUILD": "'build'",
    "OVER": "'over'",
    "PAYING": "'paying'",
    "GOODS": "'goods'",
    "PRODUCE": "'produce'",
    "SELL": "'sell'",
    "GOOD": "a good (indigo, sugar, tobacco, coffee, silver)",
    "DRAWS": "'draws'",
    "KEEPS": "'keeps'",
    "NONE": "'none'",
    "GOLD_MINE": "'gold mine'",
    "TUCKS": "'tucks'",
    "DISCARDS": "'discards'",
    "PASS": "'pass'",
    "SOURCE": "a draw source (prospector, carpenter, poor house, well, market stand, market hall)",
    "TILE_VALUE": "a tile like 1-1-2-2-3",
    "UNKNOWN": "'?'",
}

SYNTAX_EXAMPLES = (
    SyntaxExample(
        RecordCode.MISSING_COLON,
        "a ':' is missing after the player name or statement keyword",
        ("Anna builder", "Anna pass", "governor Anna", "hand Anna Smithy", "tile 1-1-2-2-3", "final Anna 3"),
    ),
    SyntaxExample(
        RecordCode.UNKNOWN_ACTION,
        "unknown action; a turn is a role, build, produce, sell, draws, gold mine, tucks, discards or pass",
        ("Anna: purchase Smithy", "Anna: steal Smithy", "Anna: mayor", "Anna: captain"),
    ),
    SyntaxExample(RecordCode.MISSING_NUMBER, "a number is missing", ("round", "final: Anna")),
)


PIECES = Pieces(
    lists={
        "final": ("final_entry", lambda column, items: FinalClaim(tuple(items), column)),
        "win": ("player", lambda column, items: WinClaim(tuple(items), column)),
    },
    actor=("action", lambda player, action: Actor(player, action)),
    keywords=frozenset({"governor", "tile", "final", "win"}),
)


def make_parser() -> LineParser:
    return LineParser(
        Path(__file__).with_name("san_juan.lark"), StatementBuilder, TERMINAL_WORDS, SYNTAX_EXAMPLES, PIECES
    )


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
        return f"tucks {action.card.name}"
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
