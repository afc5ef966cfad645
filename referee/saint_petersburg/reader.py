"""A fast reading of Saint Petersburg's action texts, for ``LineParser`` (``Pieces.reader``).

Prices and card names vary (``buy Tax Man for 5``, ``buy upper Firehouse over Market for 7``), so a cache of whole
action texts misses often and each new text would cost an LALR parse; and every ``deal:``, ``score:`` or ``tokens:``
line is also tried as a player's line (a player may be called "Deal"), which Lark answers with an exception. This
reader follows the grammar's ``action`` rule by hand, with the grammar's own lexers: each step lexes with the terminals
the LALR parser accepts in the state it has reached, tried in the order Lark's contextual lexer tries them
(``LineParser.lexer_after``, probed with a sample prefix that reaches the state), and reads every card with the
grammar's own ``card`` rule (``LineParser.item``, cached by text: "Tax Man" is looked up once). Whatever it is not sure
of — an unknown card, a number too large, a syntax error, a form it does not know — gives None, and the text goes to
Lark as before: errors always come from the grammar. ``tests/test_parser_equivalence.py`` checks that both readings
agree on every corpus line and on a fuzzed corpus.
"""

from __future__ import annotations

from referee.errors import RefereeError
from referee.record import END, NOT_AN_ACTION, LineParser, NameRef, NotSure, StateLexer, number
from referee.saint_petersburg.notation import Buy, Observe, Pass, Play, Pub, Take, _deck


class CardStates:
    """The lexers of one card's states: before its first word and after a word (``runs``: the state after a second
    word is the one after the first, so a card's words are lexed as one run). A plain class: the reader is built
    inside the timed check, and a dataclass costs a millisecond to create."""

    __slots__ = ("first", "in_card", "runs")

    def __init__(self, first: StateLexer, in_card: StateLexer, runs: bool) -> None:
        self.first = first
        self.in_card = in_card
        self.runs = runs

    @classmethod
    def probe(cls, parser: LineParser, prefix: str) -> CardStates:
        """The states of the card that starts after ``prefix`` (an action text that reaches it)."""
        in_card = parser.lexer_after("action", prefix + " Market")
        runs = parser.lexer_after("action", prefix + " Tax Man") is in_card
        return cls(parser.lexer_after("action", prefix), in_card, runs)


class Tail:
    """``[over CARD] [for N]`` after a card that may be an upgrade: the lexers of its states."""

    __slots__ = ("end", "over", "price")

    def __init__(self, over: CardStates, price: StateLexer, end: StateLexer) -> None:
        self.over = over  # the displaced card
        self.price = price  # the number after ``for``
        self.end = end  # after the number

    @classmethod
    def probe(cls, parser: LineParser, prefix: str) -> Tail:
        """The states of the tail that follows ``prefix`` (a text that ends with the card it follows)."""
        return cls(
            CardStates.probe(parser, prefix + " over"),
            parser.lexer_after("action", prefix + " for"),
            parser.lexer_after("action", prefix + " for 3"),
        )


class ActionReader:
    """The action rule of ``saint_petersburg.lark`` as a hand-written reader over the grammar's own lexer states."""

    def __init__(self, parser: LineParser) -> None:
        self.parser = parser
        after = parser.lexer_after
        self.verb = after("action", "")
        self.pass_end = after("action", "pass")
        # buy [upper|lower] CARD [over CARD] [for N]; take [upper|lower] CARD
        self.buy_start = after("action", "buy")
        self.buy_card = CardStates.probe(parser, "buy")
        self.buy_row_card = CardStates.probe(parser, "buy upper")
        self.buy_tail = Tail.probe(parser, "buy Market")
        self.take_start = after("action", "take")
        self.take_card = CardStates.probe(parser, "take")
        self.take_row_card = CardStates.probe(parser, "take upper")
        # play CARD [over CARD] [for N]
        self.play_card = CardStates.probe(parser, "play")
        self.play_tail = Tail.probe(parser, "play Market")
        # pub K [for N]
        self.pub_count = after("action", "pub")
        self.pub_after = after("action", "pub 1")
        self.pub_price = after("action", "pub 1 for")
        self.pub_end = after("action", "pub 1 for 2")
        # observe DECK: CARD, buy [over CARD] [for N] | take | discard
        self.observe_deck = after("action", "observe")
        self.observe_colon = after("action", "observe worker")
        self.observe_card = CardStates.probe(parser, "observe worker:")
        self.observe_choice = after("action", "observe worker: Market,")
        self.observe_buy = after("action", "observe worker: Market, buy")
        self.observe_tail = Tail.probe(parser, "observe worker: Market, buy")
        self.observe_take_end = after("action", "observe worker: Market, take")
        self.observe_discard_end = after("action", "observe worker: Market, discard")

    def __call__(self, text: str, column: int) -> object | None:
        """The action ``text`` (stripped) reads as, its columns placed with ``text[0]`` at ``column``; or None (or
        ``NOT_AN_ACTION``: its first token starts no action)."""
        try:
            return self._action(text, column - 1)
        except NotSure:
            return None

    # ------------------------------------------------------------------------------------------- tokens
    def _end(self, lexer: StateLexer, text: str, pos: int) -> None:
        """The text ends at ``pos`` (white space aside)."""
        if lexer.token(text, pos)[0] != END:
            raise NotSure

    @staticmethod
    def _number(text: str, start: int, end: int) -> int:
        """An INT token's value (a number too large is the grammar's error to report)."""
        try:
            return number(text[start:end])
        except RefereeError:
            raise NotSure from None

    def _card(self, text: str, pos: int, shift: int, states: CardStates) -> tuple[NameRef, str, int, int]:
        """A card (``WORD+``) from ``pos``, and the token after it."""
        kind, start, end = states.first.token(text, pos)
        if kind != "WORD":
            raise NotSure
        last = end
        if states.runs:  # the card's further words and the token after them, in one match
            last, kind, after_start, after_end = states.in_card.run_then_token(text, end, "WORD")
        else:
            while True:
                kind, after_start, after_end = states.in_card.token(text, last)
                if kind != "WORD":
                    break
                last = after_end
        try:
            card = self.parser.item("card", text[start:last], start + 1 + shift)
        except ValueError:  # an unknown card: the grammar's error, with its suggestion
            raise NotSure from None
        assert isinstance(card, NameRef)
        return card, kind, after_start, after_end

    def _tail(
        self, text: str, kind: str, start: int, end: int, shift: int, tail: Tail
    ) -> tuple[NameRef | None, int | None, int]:
        """``[over CARD] [for N]`` from the token (``kind`` at ``start``..``end``) after a card, to the end of the
        text: the displaced card, the price and its column (0: none written)."""
        over: NameRef | None = None
        if kind == "OVER":
            over, kind, start, end = self._card(text, end, shift, tail.over)
        if kind == END:
            return over, None, 0
        if kind != "FOR":
            raise NotSure
        kind, start, end = tail.price.token(text, end)
        if kind != "INT":
            raise NotSure
        self._end(tail.end, text, end)
        return over, self._number(text, start, end), start + 1 + shift

    # ------------------------------------------------------------------------------------------- the rule
    def _action(self, text: str, shift: int) -> object:
        first = self.verb(text, 0)
        if first is None:
            return NOT_AN_ACTION  # Lark's lexer stops at the first token too
        verb, start, end = first
        column = start + 1 + shift
        if verb == "BUY":
            return self._buy(text, end, shift, column)
        if verb == "TAKE":
            return self._take(text, end, shift, column)
        if verb == "PLAY":
            card, kind, start, end = self._card(text, end, shift, self.play_card)
            over, price, price_column = self._tail(text, kind, start, end, shift, self.play_tail)
            return Play(card, over=over, price=price, price_column=price_column, column=column)
        if verb == "PASS":
            self._end(self.pass_end, text, end)
            return Pass(column)
        if verb == "PUB":
            return self._pub(text, end, shift, column)
        if verb == "OBSERVE":
            return self._observe(text, end, shift, column)
        raise NotSure

    def _row(self, text: str, pos: int, lexer: StateLexer) -> tuple[str | None, int, int]:
        """An optional ``upper``/``lower`` from ``pos``: the row (lower case, None: none written), its start and where
        the card starts."""
        kind, start, end = lexer.token(text, pos)
        if kind in ("UPPER", "LOWER"):
            return text[start:end].lower(), start, end
        return None, 0, pos

    def _buy(self, text: str, pos: int, shift: int, column: int) -> Buy:
        row, row_start, pos = self._row(text, pos, self.buy_start)
        card, kind, start, end = self._card(text, pos, shift, self.buy_row_card if row else self.buy_card)
        over, price, price_column = self._tail(text, kind, start, end, shift, self.buy_tail)
        return Buy(
            card,
            row=row,
            over=over,
            price=price,
            price_column=price_column,
            column=column,
            row_column=row_start + 1 + shift if row else 0,
        )

    def _take(self, text: str, pos: int, shift: int, column: int) -> Take:
        row, row_start, pos = self._row(text, pos, self.take_start)
        card, kind, _, _ = self._card(text, pos, shift, self.take_row_card if row else self.take_card)
        if kind != END:
            raise NotSure
        return Take(card, row=row, column=column, row_column=row_start + 1 + shift if row else 0)

    def _pub(self, text: str, pos: int, shift: int, column: int) -> Pub:
        kind, count_start, count_end = self.pub_count.token(text, pos)
        if kind != "INT":
            raise NotSure
        count = self._number(text, count_start, count_end)
        kind, _, end = self.pub_after.token(text, count_end)
        price: int | None = None
        price_column = 0
        if kind == "FOR":
            kind, start, end = self.pub_price.token(text, end)
            if kind != "INT":
                raise NotSure
            self._end(self.pub_end, text, end)
            price, price_column = self._number(text, start, end), start + 1 + shift
        elif kind != END:
            raise NotSure
        return Pub(count, price=price, price_column=price_column, column=column, count_column=count_start + 1 + shift)

    def _observe(self, text: str, pos: int, shift: int, column: int) -> Observe:
        kind, deck_start, deck_end = self.observe_deck.token(text, pos)
        if kind != "PHASE_NAME":
            raise NotSure
        kind, _, end = self.observe_colon.token(text, deck_end)
        if kind != "COLON":
            raise NotSure
        card, kind, _, end = self._card(text, end, shift, self.observe_card)
        if kind != "COMMA":
            raise NotSure
        kind, start, end = self.observe_choice.token(text, end)
        over: NameRef | None = None
        price: int | None = None
        price_column = 0
        if kind == "BUY":
            choice = "buy"
            after, after_start, after_end = self.observe_buy.token(text, end)
            over, price, price_column = self._tail(text, after, after_start, after_end, shift, self.observe_tail)
        elif kind == "TAKE":
            choice = "take"
            self._end(self.observe_take_end, text, end)
        elif kind == "DISCARD":
            choice = "discard"
            self._end(self.observe_discard_end, text, end)
        else:
            raise NotSure
        return Observe(
            _deck(text[deck_start:deck_end]),
            card,
            choice,
            over=over,
            price=price,
            price_column=price_column,
            column=column,
            deck_column=deck_start + 1 + shift,
            choice_column=start + 1 + shift,
        )
