"""A fast reading of San Juan's action texts, for ``LineParser`` (``Pieces.reader``).

Card lists rarely repeat whole (``draws A, B, C, D, E; keeps C``), so a cache of whole action texts misses and each
new text would cost an LALR parse. This reader follows the grammar's ``action`` rule by hand, with the grammar's own
lexers: each step lexes with the terminals the LALR parser accepts in the state it has reached, tried in the order
Lark's contextual lexer tries them (``LineParser.lexer_after``, probed with a sample prefix that reaches the state), and
reads every card, ``?`` and good with the grammar's own item rules (``LineParser.item``, cached by text: "Indigo Plant"
is parsed once). Whatever it is not sure of — an unknown card, a syntax error, a form it does not know — gives None,
and the line goes to Lark as before: errors always come from the grammar. ``tests/test_parser_equivalence.py`` checks
that both readings agree on every corpus line and on a fuzzed corpus.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.record import END, NOT_AN_ACTION, LineParser, NameRef, NotSure, StateLexer
from referee.san_juan.cards import CARDS, GOODS
from referee.san_juan.notation import (
    SOURCES,
    UNKNOWN,
    Build,
    Council,
    Discard,
    GoldMineTurn,
    OwedDraw,
    Pass,
    Produce,
    RoleChoice,
    Sell,
    Tuck,
    _role,
    _source,
)


@dataclass(frozen=True)
class Cards:
    """The lexers of a card list's states: before its first card, after a comma (None: one card only), after a card's
    word, after a ``?`` (None where no ``?`` may stand)."""

    first: StateLexer
    after_comma: StateLexer | None  # None: a single card
    in_card: StateLexer
    after_unknown: StateLexer | None
    runs: bool  # the state after a card's second word is the one after its first: a card's words lexed as one run

    @classmethod
    def probe(cls, parser: LineParser, prefix: str, unknown: bool, many: bool = True) -> Cards:
        """The states of the list (or single card) that starts after ``prefix`` (an action text that reaches it)."""
        in_card = parser.lexer_after("action", prefix + " Well")
        return cls(
            parser.lexer_after("action", prefix),
            parser.lexer_after("action", prefix + " Well,") if many else None,
            in_card,
            parser.lexer_after("action", prefix + " ?") if unknown else None,
            parser.lexer_after("action", prefix + " Indigo Plant") is in_card,
        )


class ActionReader:
    """The action rule of ``san_juan.lark`` as a hand-written reader over the grammar's own lexer states."""

    def __init__(self, parser: LineParser) -> None:
        self.parser = parser
        after = parser.lexer_after
        self.verb = after("action", "")
        self.build = Cards.probe(parser, "build", unknown=False, many=False)
        self.over = Cards.probe(parser, "build Smithy over", unknown=False, many=False)
        self.paying = Cards.probe(parser, "build Smithy paying", unknown=True)
        self.goods = Cards.probe(parser, "build Smithy goods", unknown=False)
        self.produce = Cards.probe(parser, "produce", unknown=False)
        self.drawn = Cards.probe(parser, "draws", unknown=True)
        self.keeps = Cards.probe(parser, "draws ?; keeps", unknown=True)
        self.mined = Cards.probe(parser, "gold mine", unknown=True)
        self.mine_keeps = Cards.probe(parser, "gold mine ?; keeps", unknown=True)
        self.tucked = Cards.probe(parser, "tucks", unknown=True)
        self.discarded = Cards.probe(parser, "discards", unknown=True)
        self.sell_draws = Cards.probe(parser, "sell indigo; draws", unknown=True)
        self.good = after("action", "sell")
        self.good_next = after("action", "sell indigo,")
        self.after_good = after("action", "sell indigo")
        self.sell_draws_word = after("action", "sell indigo;")
        self.council_keeps_word = after("action", "draws ?;")
        self.mine_keeps_word = after("action", "gold mine ?;")
        self.source = after("action", "draws ? (")
        self.rpar = after("action", "draws ? (well")
        self.owed_end = after("action", "draws ? (well)")
        self.role_end = after("action", "builder")
        self.pass_end = after("action", "pass")
        self.council_none_end = after("action", "draws ?; keeps none")
        self.mine_none_end = after("action", "gold mine ?; keeps none")

        self.canonical = CanonicalActions()

    def __call__(self, text: str, column: int) -> object | None:
        """The action ``text`` (stripped) reads as, its columns placed with ``text[0]`` at ``column``; or None (or
        ``NOT_AN_ACTION``: its first token starts no action)."""
        action = self.canonical(text, column - 1)
        if action is not None:
            return action
        try:
            return self._action(text, column - 1)
        except NotSure:
            return None

    # ------------------------------------------------------------------------------------------- tokens
    def _item(self, rule: str, text: str, start: int, end: int, shift: int) -> NameRef:
        try:
            found = self.parser.item(rule, text[start:end], start + 1 + shift)
        except ValueError:
            raise NotSure from None
        assert isinstance(found, NameRef)
        return found

    def _card(self, text: str, pos: int, shift: int, first: StateLexer, states: Cards) -> tuple[NameRef, str, int, int]:
        """A card (``WORD+``, or ``?`` where the state allows) from ``pos``, and the token after it."""
        kind, start, end = first.token(text, pos)
        if kind == "UNKNOWN" and states.after_unknown is not None:
            card = self._item("unknown", text, start, end, shift)
            return (card, *states.after_unknown.token(text, end))
        if kind != "WORD":
            raise NotSure
        if states.runs:  # the card's further words and the token after them, in one match
            last, after, after_start, after_end = states.in_card.run_then_token(text, end, "WORD")
            return self._item("card", text, start, last, shift), after, after_start, after_end
        last = end
        while True:
            kind, after_start, after_end = states.in_card.token(text, last)
            if kind != "WORD":
                return self._item("card", text, start, last, shift), kind, after_start, after_end
            last = after_end

    def _cards(
        self, text: str, pos: int, shift: int, states: Cards, token: tuple[str, int, int] | None = None
    ) -> tuple[tuple[NameRef, ...], str, int, int]:
        """A comma-separated list of cards from ``pos`` (one card where ``states`` has no comma), and the token after
        it.

        ``_card`` in a loop, written out: cards are most of what the reader reads (``draws A, B, C, D, E``).
        ``token``: the list's first token, already lexed at ``pos`` by ``states.first``."""
        if not states.runs:  # a grammar whose card words are not one run: card by card
            return self._cards_one_by_one(text, pos, shift, states)
        item, in_card, after_unknown = self.parser.item, states.in_card, states.after_unknown
        lexer = states.first
        cards: list[NameRef] = []
        while True:
            if token is None:
                token = lexer(text, pos)
            if token is None:  # no token of the state, or the end where a card is due: Lark's error
                raise NotSure
            kind, start, end = token
            if kind == "WORD":  # the card's further words and the token after them, in one match
                last, after, after_start, after_end = in_card.run_then_token(text, end, "WORD")
                try:
                    found = item("card", text[start:last], start + 1 + shift)
                except ValueError:
                    raise NotSure from None
            elif kind == "UNKNOWN" and after_unknown is not None:
                try:
                    found = item("unknown", text[start:end], start + 1 + shift)
                except ValueError:
                    raise NotSure from None
                after, after_start, after_end = after_unknown.token(text, end)
            else:
                raise NotSure
            assert isinstance(found, NameRef)
            cards.append(found)
            if after != "COMMA":
                return tuple(cards), after, after_start, after_end
            if states.after_comma is None:
                raise NotSure
            lexer, pos, token = states.after_comma, after_end, None

    def _cards_one_by_one(
        self, text: str, pos: int, shift: int, states: Cards
    ) -> tuple[tuple[NameRef, ...], str, int, int]:
        """``_cards`` with ``_card`` for each card (each word of a card lexed on its own)."""
        card, kind, start, end = self._card(text, pos, shift, states.first, states)
        cards = [card]
        while kind == "COMMA":
            if states.after_comma is None:
                raise NotSure
            card, kind, start, end = self._card(text, end, shift, states.after_comma, states)
            cards.append(card)
        return tuple(cards), kind, start, end

    def _to_end(self, text: str, pos: int, shift: int, states: Cards) -> tuple[NameRef, ...]:
        """A card list that ends the text."""
        cards, kind, _, _ = self._cards(text, pos, shift, states)
        if kind != END:
            raise NotSure
        return cards

    def _keeps(
        self, text: str, pos: int, shift: int, word: StateLexer, states: Cards, none: StateLexer
    ) -> tuple[tuple[NameRef, ...], int]:
        """``keeps CARDS`` or ``keeps none`` to the end (after the ';'): the kept cards and the column of ``keeps``."""
        kind, start, end = word.token(text, pos)
        if kind != "KEEPS":
            raise NotSure
        token = states.first(text, end)
        if token is None:  # no token of the state (``StateLexer.token`` would say the same): Lark's error
            raise NotSure
        if token[0] == "NONE":
            if none.token(text, token[2])[0] != END:
                raise NotSure
            return (), start + 1 + shift
        cards, kind, _, _ = self._cards(text, end, shift, states, token)  # the first card's token lexed once
        if kind != END:
            raise NotSure
        return cards, start + 1 + shift

    # ------------------------------------------------------------------------------------------- the rule
    def _action(self, text: str, shift: int) -> object:
        first = self.verb(text, 0)
        if first is None:
            return NOT_AN_ACTION  # Lark's lexer stops at the first token too
        verb, start, end = first
        column = start + 1 + shift
        if verb == "ROLE":
            if self.role_end.token(text, end)[0] != END:
                raise NotSure
            return RoleChoice(_role(text[start:end]), column)
        if verb == "PASS":
            if self.pass_end.token(text, end)[0] != END:
                raise NotSure
            return Pass(column)
        if verb == "BUILD":
            return self._build(text, end, shift, column)
        if verb == "PRODUCE":
            return Produce(self._to_end(text, end, shift, self.produce), column)
        if verb == "SELL":
            return self._sell(text, end, shift, column)
        if verb == "DRAWS":
            drawn, kind, _, after = self._cards(text, end, shift, self.drawn)
            if kind == "SEMICOLON":
                keeps, keeps_column = self._keeps(
                    text, after, shift, self.council_keeps_word, self.keeps, self.council_none_end
                )
                return Council(drawn, keeps, column, keeps_column)
            if kind != "LPAR":
                raise NotSure
            kind, source_start, source_end = self.source.token(text, after)
            if kind != "SOURCE":
                raise NotSure
            kind, _, rpar_end = self.rpar.token(text, source_end)
            if kind != "RPAR" or self.owed_end.token(text, rpar_end)[0] != END:
                raise NotSure
            return OwedDraw(_source(text[source_start:source_end]), drawn, column, source_start + 1 + shift)
        if verb == "GOLD_MINE":
            cards, kind, _, after = self._cards(text, end, shift, self.mined)
            if kind != "SEMICOLON":
                raise NotSure
            keeps, keeps_column = self._keeps(
                text, after, shift, self.mine_keeps_word, self.mine_keeps, self.mine_none_end
            )
            return GoldMineTurn(cards, keeps, column, keeps_column)
        if verb == "TUCKS":
            tucked = self._to_end(text, end, shift, self.tucked)
            return Tuck(tucked[0], column, tucked[1:])
        if verb == "DISCARDS":
            return Discard(self._to_end(text, end, shift, self.discarded), column)
        raise NotSure

    def _build(self, text: str, pos: int, shift: int, column: int) -> Build:
        (card,), kind, start, end = self._cards(text, pos, shift, self.build)
        over: NameRef | None = None
        over_column = paying_column = goods_column = 0
        paying: tuple[NameRef, ...] = ()
        goods: tuple[NameRef, ...] = ()
        if kind == "OVER":
            over_column = start + 1 + shift
            (over,), kind, start, end = self._cards(text, end, shift, self.over)
        if kind == "PAYING":
            paying_column = start + 1 + shift
            paying, kind, start, end = self._cards(text, end, shift, self.paying)
        if kind == "GOODS":
            goods_column = start + 1 + shift
            goods, kind, start, end = self._cards(text, end, shift, self.goods)
        if kind != END:
            raise NotSure
        return Build(card, over, paying, goods, column, over_column, paying_column, goods_column)

    def _sell(self, text: str, pos: int, shift: int, column: int) -> Sell:
        lexer = self.good
        goods = []
        while True:
            kind, start, end = lexer.token(text, pos)
            if kind != "GOOD":
                raise NotSure
            goods.append(self._item("good_kind", text, start, end, shift))
            kind, _, pos = self.after_good.token(text, end)
            if kind == END:
                return Sell(tuple(goods), (), column, 0)
            if kind == "SEMICOLON":
                break
            if kind != "COMMA":
                raise NotSure
            lexer = self.good_next
        kind, start, end = self.sell_draws_word.token(text, pos)
        if kind != "DRAWS":
            raise NotSure
        return Sell(tuple(goods), self._to_end(text, end, shift, self.sell_draws), column, start + 1 + shift)


class CanonicalActions:
    """Action texts exactly as the referee writes them (``notation.action_text``: printed card names, one blank
    after each separator and between words), read by splitting at the separators and looking each card up among
    the printed names, with no lexer at all; None for any other text (``ActionReader`` then reads it with the
    grammar's lexers). Card lists rarely repeat, so most action lines of a record are read once, and a canonical
    line costs a fraction of a lexed one. A printed name is read as the grammar reads it in every list position
    (``tests/test_parser_equivalence.py`` checks every name in every position, and every corpus line)."""

    def __init__(self) -> None:
        self.cards = {card.name: card.name for card in CARDS.values()}
        self.cards_or_unknown = {**self.cards, UNKNOWN: UNKNOWN}
        self.goods = {good: good for good in GOODS}
        self.sources = {f"({source})": source for source in SOURCES}
        self._refs: dict[tuple[str, int], NameRef] = {}  # (name, column) -> the one NameRef for both

    def __call__(self, text: str, shift: int) -> object | None:
        verb, blank, rest = text.partition(" ")
        if not blank:
            return None  # a role or pass: short lines, which repeat (the line cache has them)
        at = len(verb) + 1  # the index of ``rest`` in ``text``
        if verb == "draws":
            drawn_text, semicolon, keeps_text = rest.partition("; ")
            if semicolon:
                drawn = self._list(drawn_text, at, shift, self.cards_or_unknown)
                keeps = self._keeps(keeps_text, at + len(drawn_text) + 2, shift)
                if drawn is None or keeps is None:
                    return None
                return Council(drawn, keeps, 1 + shift, at + len(drawn_text) + 3 + shift)
            drawn_text, paren, source = rest.rpartition(" (")
            source_name = self.sources.get(paren and "(" + source)
            if source_name is None:
                return None
            drawn = self._list(drawn_text, at, shift, self.cards_or_unknown)
            if drawn is None:
                return None
            return OwedDraw(source_name, drawn, 1 + shift, at + len(drawn_text) + 3 + shift)
        if verb == "build":
            return self._build(rest, at, shift)
        if verb == "sell":
            goods_text, semicolon, draws_text = rest.partition("; ")
            goods = self._list(goods_text, at, shift, self.goods)
            if goods is None:
                return None
            if not semicolon:
                return Sell(goods, (), 1 + shift, 0)
            if not draws_text.startswith("draws "):
                return None
            draws_at = at + len(goods_text) + 2
            draws = self._list(draws_text[6:], draws_at + 6, shift, self.cards_or_unknown)
            return None if draws is None else Sell(goods, draws, 1 + shift, draws_at + 1 + shift)
        if verb == "produce":
            buildings = self._list(rest, at, shift, self.cards)
            return None if buildings is None else Produce(buildings, 1 + shift)
        if verb == "discards":
            cards = self._list(rest, at, shift, self.cards_or_unknown)
            return None if cards is None else Discard(cards, 1 + shift)
        if verb == "tucks":
            cards = self._list(rest, at, shift, self.cards_or_unknown)
            return None if cards is None else Tuck(cards[0], 1 + shift, cards[1:])
        if verb == "gold" and rest.startswith("mine "):
            mined_text, semicolon, keeps_text = rest[5:].partition("; ")
            if not semicolon:
                return None
            mined = self._list(mined_text, at + 5, shift, self.cards_or_unknown)
            keeps = self._keeps(keeps_text, at + 5 + len(mined_text) + 2, shift)
            if mined is None or keeps is None:
                return None
            return GoldMineTurn(mined, keeps, 1 + shift, at + 5 + len(mined_text) + 3 + shift)
        return None

    def _build(self, rest: str, at: int, shift: int) -> Build | None:
        """``CARD[ over CARD][ paying CARDS][ goods CARDS]``: each part found by its keyword, from the last."""
        goods: tuple[NameRef, ...] | None = ()
        paying: tuple[NameRef, ...] | None = ()
        over: NameRef | None = None
        over_column = paying_column = goods_column = 0
        found = rest.find(" goods ")
        if found >= 0:
            goods_column = at + found + 2 + shift
            goods = self._list(rest[found + 7 :], at + found + 7, shift, self.cards)
            rest = rest[:found]
        found = rest.find(" paying ")
        if found >= 0:
            paying_column = at + found + 2 + shift
            paying = self._list(rest[found + 8 :], at + found + 8, shift, self.cards_or_unknown)
            rest = rest[:found]
        found = rest.find(" over ")
        if found >= 0:
            over_column = at + found + 2 + shift
            over = self._card(rest[found + 6 :], at + found + 6, shift, self.cards)
            if over is None:
                return None
            rest = rest[:found]
        card = self._card(rest, at, shift, self.cards)
        if card is None or goods is None or paying is None:
            return None
        return Build(card, over, paying, goods, 1 + shift, over_column, paying_column, goods_column)

    def _keeps(self, text: str, at: int, shift: int) -> tuple[NameRef, ...] | None:
        """``keeps CARDS`` or ``keeps none`` (``text`` at index ``at`` of the action)."""
        if text == "keeps none":
            return ()
        if not text.startswith("keeps "):
            return None
        return self._list(text[6:], at + 6, shift, self.cards_or_unknown)

    def _card(self, text: str, at: int, shift: int, names: dict[str, str]) -> NameRef | None:
        name = names.get(text)
        return None if name is None else self._ref(name, at + 1 + shift)

    def _list(self, text: str, at: int, shift: int, names: dict[str, str]) -> tuple[NameRef, ...] | None:
        """``A, B, C`` (each a key of ``names``) at index ``at`` of the action: its references, or None."""
        refs = []
        column = at + 1 + shift
        for piece in text.split(", "):
            name = names.get(piece)
            if name is None:
                return None
            refs.append(self._ref(name, column))
            column += len(piece) + 2
        return tuple(refs)

    def _ref(self, name: str, column: int) -> NameRef:
        key = (name, column)
        ref = self._refs.get(key)
        if ref is None:
            if len(self._refs) >= 16_384:  # bounded: names times columns of short lines
                self._refs.clear()
            ref = self._refs[key] = NameRef(name, column)
        return ref
