"""Saint Petersburg statements: what a record line says, how the grammar's transformer builds it, and how an action
is written back as record text (the generator and the "legal alternatives" use the same writer). The line parser
that puts the grammar, this builder and the fast action reader together is ``saint_petersburg.parser``.

Every statement carries the column of each of its parts — a card or player as a ``NameRef``, a word or a number as
its value beside a ``*_column`` field — so the rules point at the part they refuse without counting characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from lark import Token

from referee.errors import RecordCode
from referee.record import NameRef, SyntaxExample, card_lookup, number, quote_player
from referee.saint_petersburg.cards import NAME_TABLE
from referee.statements import CommonStatements, FinalClaim, FinalEntry, RoundMark, WinClaim, final_text  # noqa: F401 - re-exported: a game's statements in one place

T = TypeVar("T")


# --- game statements ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Grant:
    player: NameRef
    phases: tuple[NameRef, ...]  # the phases whose tokens the player holds


@dataclass(frozen=True, slots=True)
class Tokens:
    grants: tuple[Grant, ...]
    column: int


@dataclass(frozen=True, slots=True)
class PhaseHeader:
    phase: str
    column: int


@dataclass(frozen=True, slots=True)
class Deal:
    cards: tuple[NameRef, ...]
    column: int


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    player: NameRef
    rubles: int
    vp: int
    rubles_column: int = 0  # the first ruble amount (0: none written)
    vp_column: int = 0  # the first VP amount (0: none written)


@dataclass(frozen=True, slots=True)
class ScoreClaim:
    entries: tuple[ScoreEntry, ...]
    column: int


# --- actions --------------------------------------------------------------------------------------------------
# ``column`` is the action word's; ``price`` is the ``for N`` claim (None when not written), the amount the rules,
# the generator and the proofs compare, with ``price_column`` where its number stands.
@dataclass(frozen=True, slots=True)
class Buy:
    card: NameRef
    row: str | None = None
    over: NameRef | None = None
    price: int | None = None
    price_column: int = 0
    column: int = 0
    row_column: int = 0


@dataclass(frozen=True, slots=True)
class Take:
    card: NameRef
    row: str | None = None
    column: int = 0
    row_column: int = 0


@dataclass(frozen=True, slots=True)
class Play:
    card: NameRef
    over: NameRef | None = None
    price: int | None = None
    price_column: int = 0
    column: int = 0


@dataclass(frozen=True, slots=True)
class Pass:
    column: int = 0


@dataclass(frozen=True, slots=True)
class Observe:
    deck: str
    card: NameRef
    choice: str  # buy | take | discard
    over: NameRef | None = None
    price: int | None = None
    price_column: int = 0
    column: int = 0
    deck_column: int = 0
    choice_column: int = 0


@dataclass(frozen=True, slots=True)
class Pub:
    count: int
    price: int | None = None
    price_column: int = 0
    column: int = 0
    count_column: int = 0


Action = Buy | Take | Play | Pass | Observe | Pub


@dataclass(frozen=True, slots=True)
class Actor:
    player: NameRef
    action: Action


Statement = Tokens | RoundMark | PhaseHeader | Deal | ScoreClaim | FinalClaim | WinClaim | Actor


# --- the parts of an action, as the grammar's sub-rules build them ------------------------------------------------
@dataclass(frozen=True, slots=True)
class Price:
    """``for N``: the claimed price and the column of its number."""

    amount: int
    column: int


@dataclass(frozen=True, slots=True)
class Row:
    """``upper`` or ``lower``: the display row a card is bought or taken from."""

    name: str
    column: int


@dataclass(frozen=True, slots=True)
class Over:
    """``over CARD``: the card an upgrade displaces."""

    card: NameRef


@dataclass(frozen=True, slots=True)
class Choice:
    """What an Observatory's drawn card becomes: ``buy [over CARD] [for N]``, ``take`` or ``discard``."""

    kind: str
    column: int
    over: NameRef | None = None
    price: Price | None = None


@dataclass(frozen=True, slots=True)
class Parts:
    """An action rule's children sorted by what they are: the grammar fixes their order, the builder reads them by
    type, so an optional part missing shifts nothing."""

    column: int  # the action word
    card: NameRef | None = None
    row: Row | None = None
    over: NameRef | None = None
    price: Price | None = None

    @classmethod
    def of(cls, children: Sequence[object]) -> Parts:
        word = children[0]
        assert isinstance(word, Token)
        over = _first(children, Over)
        return cls(
            _at(word),
            _first(children, NameRef),
            _first(children, Row),
            over.card if over else None,
            _first(children, Price),
        )

    @property
    def amount(self) -> int | None:
        return self.price.amount if self.price else None

    @property
    def price_column(self) -> int:
        return self.price.column if self.price else 0

    @property
    def row_name(self) -> str | None:
        return self.row.name if self.row else None

    @property
    def row_column(self) -> int:
        return self.row.column if self.row else 0


def _first(children: Sequence[object], kind: type[T]) -> T | None:
    """The first child of a kind (a rule holds at most one of each part)."""
    return next((child for child in children if isinstance(child, kind)), None)


def _at(token: Token) -> int:
    """A token's 1-based column (the lexer always sets it)."""
    return token.column or 0


def _phase(word: str) -> str:
    word = word.lower()
    return word[:-1] if word.endswith("s") else word


def _deck(word: str) -> str:
    return _phase(word) + "s"


class StatementBuilder(CommonStatements):
    """Builds statement objects while the LALR parser runs (no tree is kept)."""

    def card(self, children: list[Token]) -> NameRef:
        return card_lookup(children, NAME_TABLE)

    def cards(self, children: list[NameRef]) -> tuple[NameRef, ...]:
        return tuple(children)

    # parts
    def over(self, children: list) -> Over:
        return Over(children[1])

    def price(self, children: list[Token]) -> Price:
        return Price(number(children[1]), _at(children[1]))

    def row(self, children: list[Token]) -> Row:
        return Row(children[0].lower(), _at(children[0]))

    # game statements
    def tokens(self, children: list) -> Tokens:
        return Tokens(tuple(c for c in children if isinstance(c, Grant)), _at(children[0]))

    def grant(self, children: list) -> Grant:
        return Grant(children[0], tuple(NameRef(_phase(t), _at(t)) for t in children[1:]))

    def phase(self, children: list[Token]) -> PhaseHeader:
        return PhaseHeader(_phase(children[0]), _at(children[0]))

    def deal(self, children: list) -> Deal:
        cards = _first(children, tuple) or ()  # "deal: none" lists no cards
        return Deal(cards, _at(children[0]))

    def score(self, children: list) -> ScoreClaim:
        return ScoreClaim(tuple(c for c in children if isinstance(c, ScoreEntry)), _at(children[0]))

    def score_entry(self, children: list) -> ScoreEntry:
        rubles = vp = rubles_column = vp_column = 0
        for amount in children[1:]:
            text = str(amount).replace(" ", "").lower()
            if text.endswith("vp"):
                vp += number(text[:-2], _at(amount))
                vp_column = vp_column or _at(amount)
            else:
                rubles += number(text[:-1], _at(amount))
                rubles_column = rubles_column or _at(amount)
        return ScoreEntry(children[0], rubles, vp, rubles_column, vp_column)

    # actions
    def actor(self, children: list) -> Actor:
        return Actor(children[0], children[1])

    def buy(self, children: list) -> Buy:
        parts = Parts.of(children)
        assert parts.card is not None
        return Buy(
            parts.card,
            row=parts.row_name,
            over=parts.over,
            price=parts.amount,
            price_column=parts.price_column,
            column=parts.column,
            row_column=parts.row_column,
        )

    def take(self, children: list) -> Take:
        parts = Parts.of(children)
        assert parts.card is not None
        return Take(parts.card, row=parts.row_name, column=parts.column, row_column=parts.row_column)

    def play(self, children: list) -> Play:
        parts = Parts.of(children)
        assert parts.card is not None
        return Play(
            parts.card, over=parts.over, price=parts.amount, price_column=parts.price_column, column=parts.column
        )

    def pass_(self, children: list[Token]) -> Pass:
        return Pass(_at(children[0]))

    def observe(self, children: list) -> Observe:
        word, deck, card, choice = children
        return Observe(
            _deck(deck),
            card,
            choice.kind,
            over=choice.over,
            price=choice.price.amount if choice.price else None,
            price_column=choice.price.column if choice.price else 0,
            column=_at(word),
            deck_column=_at(deck),
            choice_column=choice.column,
        )

    def observed_buy(self, children: list) -> Choice:
        parts = Parts.of(children)
        return Choice("buy", parts.column, parts.over, parts.price)

    def observed_take(self, children: list[Token]) -> Choice:
        return Choice("take", _at(children[0]))

    def observed_discard(self, children: list[Token]) -> Choice:
        return Choice("discard", _at(children[0]))

    def pub_count(self, children: list[Token]) -> Token:
        """The VP count of a pub line, read before its price so that a number too large is reported at the first
        one in reading order; the token goes on to ``pub``."""
        number(children[0])
        return children[0]

    def pub(self, children: list) -> Pub:
        parts = Parts.of(children)
        count = children[1]
        return Pub(
            number(count),
            price=parts.amount,
            price_column=parts.price_column,
            column=parts.column,
            count_column=_at(count),
        )


# Lark calls the rule "pass" — a Python keyword — so route it by name.
setattr(StatementBuilder, "pass", StatementBuilder.pass_)

TERMINAL_WORDS = {
    "PLAYER_NAME": "a player name",
    "QUOTED": "a quoted player name",
    "WORD": "a card name",
    "INT": "a number",
    "SIGNED_INT": "a number",
    "AMOUNT": "an amount like +6R or +1VP",
    "COLON": "':'",
    "COMMA": "','",
    "TOKENS": "'tokens'",
    "ROUND": "'round'",
    "PHASE": "'phase'",
    "PHASE_NAME": "a phase or deck (worker, building, aristocrat, upgrade)",
    "DEAL": "'deal'",
    "NONE": "'none'",
    "SCORE": "'score'",
    "FINAL": "'final'",
    "BUY": "'buy'",
    "TAKE": "'take'",
    "PLAY": "'play'",
    "PASS": "'pass'",
    "OBSERVE": "'observe'",
    "DISCARD": "'discard'",
    "PUB": "'pub'",
    "OVER": "'over'",
    "FOR": "'for'",
    "UPPER": "'upper'",
    "LOWER": "'lower'",
}

SYNTAX_EXAMPLES = (
    SyntaxExample(
        RecordCode.MISSING_COLON,
        "a ':' is missing after the player name or statement keyword",
        ("Anna buy Market", "Anna pass", "deal Market", "tokens Anna worker", "score Anna +1R", "final Anna 3"),
    ),
    SyntaxExample(
        RecordCode.UNKNOWN_ACTION,
        "unknown action; a turn is buy, take, play, pass, observe or pub",
        ("Anna: purchase Market", "Anna: steal Market", "Anna: upgrade Market"),
    ),
    SyntaxExample(
        RecordCode.MISSING_NUMBER,
        "a number is missing",
        ("Anna: buy Market for", "Anna: pub", "round", "Anna: pub for 2", "final: Anna"),
    ),
)


# --- writing actions back as text -----------------------------------------------------------------------------
def action_text(action: Action) -> str:
    if isinstance(action, Buy):
        parts = ["buy"]
        if action.row:
            parts.append(action.row)
        parts.append(action.card.name)
        if action.over:
            parts += ["over", action.over.name]
        if action.price is not None:
            parts += ["for", str(action.price)]
        return " ".join(parts)
    if isinstance(action, Take):
        return " ".join(["take", *([action.row] if action.row else []), action.card.name])
    if isinstance(action, Play):
        text = f"play {action.card.name}"
        if action.over:
            text += f" over {action.over.name}"
        return text + (f" for {action.price}" if action.price is not None else "")
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Observe):
        text = f"observe {action.deck}: {action.card.name}, {action.choice}"
        if action.over:
            text += f" over {action.over.name}"
        return text + (f" for {action.price}" if action.price is not None else "")
    if isinstance(action, Pub):
        return f"pub {action.count}" + (f" for {action.price}" if action.price is not None else "")
    raise TypeError(action)


def actor_text(player: str, action: Action) -> str:
    return f"{quote_player(player)}: {action_text(action)}"


def statement_text(statement: Statement) -> str:
    """Write any statement back as one record line (the inverse of the parser, used by generator and tests)."""
    if isinstance(statement, Actor):
        return actor_text(statement.player.name, statement.action)
    if isinstance(statement, Tokens):
        return "tokens: " + ", ".join(
            f"{quote_player(g.player.name)} {' '.join(phase.name for phase in g.phases)}" for g in statement.grants
        )
    if isinstance(statement, RoundMark):
        return f"round {statement.number}"
    if isinstance(statement, PhaseHeader):
        return f"{statement.phase} phase"
    if isinstance(statement, Deal):
        return "deal: " + (", ".join(card.name for card in statement.cards) or "none")
    if isinstance(statement, ScoreClaim):
        return "score: " + ", ".join(
            f"{quote_player(e.player.name)} {e.rubles:+d}R" + (f" {e.vp:+d}VP" if e.vp else "")
            for e in statement.entries
        )
    if isinstance(statement, FinalClaim):
        return final_text(statement)
    raise TypeError(statement)
