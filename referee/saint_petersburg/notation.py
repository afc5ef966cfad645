"""Saint Petersburg statements: what a record line says, how the grammar's transformer builds it, and how an action
is written back as record text (the generator and the "legal alternatives" use the same writer)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lark import Token

from referee.errors import RecordCode
from referee.record import LineParser, NameRef, Pieces, SyntaxExample, card_lookup, quote_player
from referee.saint_petersburg.cards import NAME_TABLE
from referee.statements import CommonStatements, FinalClaim, FinalEntry, RoundMark, WinClaim, final_text  # noqa: F401 - re-exported: a game's statements in one place


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


@dataclass(frozen=True, slots=True)
class ScoreClaim:
    entries: tuple[ScoreEntry, ...]
    column: int


# --- actions --------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Buy:
    card: NameRef
    row: str | None = None
    over: NameRef | None = None
    price: int | None = None
    price_column: int = 0
    column: int = 0


@dataclass(frozen=True, slots=True)
class Take:
    card: NameRef
    row: str | None = None
    column: int = 0


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

    def over(self, children: list) -> tuple:
        return ("over", children[1])

    def price(self, children: list[Token]) -> tuple:
        return ("price", int(children[1]), children[1].column)

    def row(self, children: list[Token]) -> tuple:
        return ("row", children[0].lower(), children[0].column)

    @staticmethod
    def _options(children: list) -> dict:
        found: dict = {}
        for child in children:
            if isinstance(child, tuple) and child and child[0] in ("over", "price", "row"):
                found[child[0]] = child
        return found

    # game statements
    def tokens(self, children: list) -> Tokens:
        return Tokens(tuple(c for c in children if isinstance(c, Grant)), children[0].column)

    def grant(self, children: list) -> Grant:
        return Grant(children[0], tuple(NameRef(_phase(t), t.column) for t in children[1:]))

    def phase(self, children: list[Token]) -> PhaseHeader:
        return PhaseHeader(_phase(children[0]), children[0].column)

    def deal(self, children: list) -> Deal:
        cards = children[1] if isinstance(children[1], tuple) else ()
        return Deal(cards, children[0].column)

    def score(self, children: list) -> ScoreClaim:
        return ScoreClaim(tuple(c for c in children if isinstance(c, ScoreEntry)), children[0].column)

    def score_entry(self, children: list) -> ScoreEntry:
        rubles = vp = 0
        for amount in children[1:]:
            text = str(amount).replace(" ", "").lower()
            if text.endswith("vp"):
                vp += int(text[:-2])
            else:
                rubles += int(text[:-1])
        return ScoreEntry(children[0], rubles, vp)

    # actions
    def actor(self, children: list) -> Actor:
        return Actor(children[0], children[1])

    def buy(self, children: list) -> Buy:
        card = next(c for c in children if isinstance(c, NameRef))
        o = self._options(children)
        return Buy(
            card,
            o["row"][1] if "row" in o else None,
            o["over"][1] if "over" in o else None,
            o["price"][1] if "price" in o else None,
            o["price"][2] if "price" in o else 0,
            children[0].column,
        )

    def take(self, children: list) -> Take:
        card = next(c for c in children if isinstance(c, NameRef))
        o = self._options(children)
        return Take(card, o["row"][1] if "row" in o else None, children[0].column)

    def play(self, children: list) -> Play:
        o = self._options(children)
        return Play(
            children[1],
            o["over"][1] if "over" in o else None,
            o["price"][1] if "price" in o else None,
            o["price"][2] if "price" in o else 0,
            children[0].column,
        )

    def pass_(self, children: list[Token]) -> Pass:
        return Pass(children[0].column)

    def observe(self, children: list) -> Observe:
        deck_token, card, choice = children[1], children[2], children[3]
        kind, o = choice
        return Observe(
            _deck(deck_token),
            card,
            kind,
            o["over"][1] if "over" in o else None,
            o["price"][1] if "price" in o else None,
            o["price"][2] if "price" in o else 0,
            children[0].column,
        )

    def observe_buy(self, children: list) -> tuple:
        return ("buy", self._options(children))

    def observe_take(self, children: list) -> tuple:
        return ("take", {})

    def observe_discard(self, children: list) -> tuple:
        return ("discard", {})

    def pub(self, children: list) -> Pub:
        o = self._options(children)
        return Pub(
            int(children[1]),
            o["price"][1] if "price" in o else None,
            o["price"][2] if "price" in o else 0,
            children[0].column,
            children[1].column,
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


PIECES = Pieces(
    lists={
        "deal": ("card", lambda column, items: Deal(tuple(items), column)),
        "score": ("score_entry", lambda column, items: ScoreClaim(tuple(items), column)),
        "final": ("final_entry", lambda column, items: FinalClaim(tuple(items), column)),
        "win": ("player", lambda column, items: WinClaim(tuple(items), column)),
        "tokens": ("grant", lambda column, items: Tokens(tuple(items), column)),
    },
    actor=("action", lambda player, action: Actor(player, action)),
    keywords=frozenset({"tokens", "deal", "score", "final", "win"}),
)


def make_parser() -> LineParser:
    return LineParser(
        Path(__file__).with_name("saint_petersburg.lark"), StatementBuilder, TERMINAL_WORDS, SYNTAX_EXAMPLES, PIECES
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
