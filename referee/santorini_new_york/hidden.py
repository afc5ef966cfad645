"""Where each card is, with hand cards a record writes ``?`` judged exactly (ruling 14).

Every card is unique and in one place at a time: the deck (at setup), a hand, this round's played cards, the discard
pile, or out of the game. A card the record names is *known* in its place until the record moves it (a play, an
elimination, the end of the round); the discard pile's known cards become unknown when it is shuffled for a refill.
A ``?`` deal makes a *slot*: a hand card whose identity the record does not give.

A record is consistent while some assignment of real cards to its slots keeps every card in one place at a time and
makes every deal and play legal. The tracker keeps one such assignment, the *witness* (``card``: the card of each
slot), besides the history that decides the question (the slots, each card's ``Window`` s, the eliminations:
``assignment``). A statement the witness already allows costs a lookup; one it does not is first met by a local
change of the witness (a card swapped out of a slot for one that was in the pile all that time, ``_vacate``), and
only then decided from the whole history (``assignment.solve``), which gives a new witness or proves that none
exists. Records without ``?`` never get past the lookup.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.record import made_once
from referee.santorini_new_york.assignment import BACK, BY_PLAY, DEALT, GONE, IN_HAND, OPEN, PLAYED, Window, solve
from referee.santorini_new_york.cards import Card, card_order

DECK, DISCARD, OUT = "deck", "discard", "out"


_HANDS = tuple(f"hand {seat}" for seat in range(8))  # the places' names, made once (every deal and play asks)
_PLAYED = tuple(f"played {seat}" for seat in range(8))


def hand(seat: int) -> str:
    return _HANDS[seat] if 0 <= seat < 8 else f"hand {seat}"


def played(seat: int) -> str:
    return _PLAYED[seat] if 0 <= seat < 8 else f"played {seat}"


class CardError(Exception):
    """A card that cannot be taken from where a statement takes it; ``reason`` says why, for people, and ``where``
    is the place it is known to be in, if any (the state names it in words)."""

    def __init__(self, reason: str, where: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where


_INDEX: dict[int, tuple[tuple[object, ...], dict[Card, int]]] = {}  # id(cards) -> ((cards,), card -> its position)


def _index_of(cards: tuple[Card, ...]) -> dict[Card, int]:
    """Each card's position in the deck, made once per deck (``deck_cards`` gives the games of one deck the same
    tuple): the game's cards, looked up by every named card."""
    return made_once(_INDEX, id(cards), (cards,), lambda: {card: index for index, card in enumerate(cards)})


class Slot(NamedTuple):
    """A ``?`` dealt to ``seat`` at refill ``dealt``, and in the witness: its ``card``, how the card left it
    (``fate``, ``end``: ``assignment.Placed``) and the refill from which that card had been in the pile before
    (``prev``)."""

    seat: int
    dealt: int
    card: Card
    fate: int
    end: int
    prev: int


class CardTracker:
    """The places of all cards (copy before a change that may fail: the state keeps the old one on an error).

    Time: ``refill`` counts the refills so far (0: the setup deal); the plays and eliminations after refill ``k``
    are in *epoch* ``k``. From the first ``?`` on (before it no slot exists, and a card's past cannot matter) the
    tracker keeps the history — the ``slots``, each card's closed ``windows`` and the start of its current one
    (``alpha``), the ``eliminated`` seats — and the witness: each slot's card (``Slot``), ``at`` (a card -> the
    slot it is in now: in a hand, or out of the game) and ``free`` (every card in the pile -> the refill from which
    it has been there)."""

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        self.index = _index_of(cards)  # never changed: shared by copies, and by games of one deck
        self.known: dict[Card, str] = {}
        self.refill = 0
        self.started = False  # the first reveal is made: the cards not dealt are the discard pile
        self.eliminated: dict[int, tuple[int, bool]] = {}  # seat -> (epoch, his hand went to the discard pile)
        self.slots: list[Slot] = []
        self.windows: tuple[Window, ...] = ()  # (a tuple: copies share it)
        self.alpha: dict[Card, int] = {}
        self.at: dict[Card, int] = {}
        self.free: dict[Card, int] = {}

    def copy(self) -> CardTracker:
        other = CardTracker.__new__(CardTracker)
        other.cards, other.index, other.known = self.cards, self.index, self.known.copy()
        other.refill, other.started, other.eliminated = self.refill, self.started, self.eliminated.copy()
        other.slots, other.windows, other.alpha = self.slots.copy(), self.windows, self.alpha.copy()
        other.at, other.free = self.at.copy(), self.free.copy()
        return other

    def key(self) -> tuple:
        """The whole bookkeeping, comparable (a rejected statement must leave it as it was)."""

        def ordered(table: dict[Card, Any]) -> tuple:
            return tuple(sorted(table.items(), key=lambda item: card_order(item[0])))

        history = (self.windows, tuple(sorted(self.eliminated.items())), ordered(self.alpha))
        return (self.refill, self.started, ordered(self.known), tuple(self.slots), ordered(self.free), history)

    # ------------------------------------------------------------------------------------------------ queries
    def pool(self) -> str:
        """The place of the cards no one holds: the deck until the first reveal, then the discard pile."""
        return DISCARD if self.started else DECK

    def known_at(self, place: str) -> list[Card]:
        return sorted((card for card, where in self.known.items() if where == place), key=card_order)

    def hidden_in(self, seat: int) -> int:
        """The cards of a seat's hand the record has not named (its ``?`` still in the hand)."""
        return sum(1 for slot in self.slots if slot.seat == seat and slot.fate == IN_HAND)

    def count(self, place: str) -> int:
        known = sum(1 for where in self.known.values() if where == place)
        if place == self.pool():
            return known + len(self.cards) - len(self.known) - len(self.at)
        kind, _, seat = place.partition(" ")
        if kind == "hand":
            return known + self.hidden_in(int(seat))
        if place == OUT:
            return known + sum(1 for slot in self.slots if slot.fate == GONE)
        return known

    def possible_in(self, card: Card, seat: int) -> bool:
        """Could the seat hold the card now (known there, or one of his ``?`` in some consistent reading)?"""
        where = self.known.get(card)
        if where is not None:
            return where == hand(seat)
        try:
            self.copy().play(seat, card)
        except CardError:
            return False
        return True

    # ------------------------------------------------------------------------------------------------ changes
    def deal(self, seat: int, card: Card | None) -> None:
        """A card dealt to a seat from the pile: named, or ``?`` (None). Refused, it changes nothing."""
        if card is None:
            self._deal_unknown(seat)
            return
        known = self.known
        where = known.get(card)
        if where is not None:
            raise CardError("it is known to be elsewhere", where)
        if self.slots:
            window = Window(card, self.alpha.get(card, 0), DEALT, self.refill)
            holder = self.at.get(card)
            if holder is None:
                del self.free[card]
            else:
                plan = self._replacement(holder, card, {}, None)
                if plan is None:
                    if not self._resolve(window, card, hand(seat)):
                        raise CardError("in every reading of the cards written '?' so far it is in a hand")
                    return
                del self.at[card]
                self._carry_out(plan)
            self.windows += (window,)
            self.alpha.pop(card, None)
        known[card] = hand(seat)

    def _deal_unknown(self, seat: int) -> None:
        """A ``?`` dealt: a new slot, holding (in the witness) the pile card that came there last."""
        if not self.slots:  # the first '?': from now on the pile's cards are kept with the refill they came
            self.free = {card: 0 for card in self.cards if card not in self.known}
        spare = self._spare(self.refill, None)
        if spare is None:
            raise CardError("no card is left there")
        self.at[spare] = len(self.slots)
        self.slots.append(Slot(seat, self.refill, spare, IN_HAND, -1, self.free.pop(spare)))

    def play(self, seat: int, card: Card) -> None:
        """A seat plays a named card from his hand: known there, or one of his ``?``. Refused, it changes
        nothing."""
        known = self.known
        where = known.get(card)
        if where == hand(seat):
            known[card] = played(seat)
            if self.slots:
                self.alpha[card] = self.refill + 1
            return
        if where is not None:
            raise CardError("it is known to be elsewhere", where)
        if not self.slots:
            raise CardError("it is in the pile", self.pool())
        if not self.hidden_in(seat):
            raise CardError("every card of that hand is named, and this is not one of them")
        start = self.alpha.get(card, 0)
        window = Window(card, start, PLAYED, self.refill, seat)
        holder = self.at.get(card)
        if holder is not None and self.slots[holder].seat == seat and self.slots[holder].fate == IN_HAND:
            self._close(holder)
        elif not self._play_from(seat, card):
            if not self._resolve(window, card, played(seat)):
                raise CardError(self._why_not(seat, start))
            return  # (the new witness and the card's place are recorded)
        self.windows += (window,)
        known[card] = played(seat)
        self.alpha[card] = self.refill + 1

    def begin(self) -> None:
        """The first reveal: the cards not dealt start the discard pile."""
        self.started = True

    def end_round(self, cards: list[Card]) -> None:
        """The round's played cards (all named) go to the discard pile."""
        known = self.known
        for card in cards:
            known[card] = DISCARD

    def shuffle(self) -> None:
        """The discard pile is shuffled for a refill: its known cards become unknown; the next refill begins."""
        known, hidden = self.known, bool(self.slots)
        for card in [card for card, where in known.items() if where == DISCARD]:
            del known[card]
            if hidden:
                self.free[card] = self.alpha.get(card, 0)
        self.refill += 1

    def eliminate(self, seat: int, to_discard: bool) -> None:
        """A player out of the game: his hand goes to the discard pile (or out of the game) at once."""
        epoch = self.refill
        self.eliminated[seat] = (epoch, to_discard)
        place, to = hand(seat), DISCARD if to_discard else OUT
        known, hidden = self.known, bool(self.slots)
        for card in [card for card, where in known.items() if where == place]:
            known[card] = to
            if hidden and to_discard:
                self.alpha[card] = epoch + 1
        for index, slot in enumerate(self.slots):
            if slot.seat == seat and slot.fate == IN_HAND:
                if to_discard:
                    self.slots[index] = slot._replace(fate=BACK, end=epoch)
                    del self.at[slot.card]
                    self.free[slot.card] = epoch + 1
                else:
                    self.slots[index] = slot._replace(fate=GONE, end=epoch)

    # ------------------------------------------------------------------------------------------------ the witness
    def _spare(self, deal: int, not_card: Card | None) -> Card | None:
        """A card in the pile since refill ``deal`` or before, the one that came there last (the longest-idle
        cards are kept for later swaps), or None."""
        free = self.free
        for card in reversed(free):
            if free[card] <= deal and card != not_card:
                return card
        return None

    def _close(self, index: int) -> None:
        """The slot's card is played now."""
        slot = self.slots[index]
        del self.at[slot.card]
        self.slots[index] = slot._replace(fate=BY_PLAY, end=self.refill)

    def _replacement(
        self, index: int, card: Card, also: dict[Card, int], keep: int | None
    ) -> list[tuple[int, Card, int]] | None:
        """How the slot ``index`` (a card in a hand, or out of the game) gets another card than ``card``: a card in
        the pile since its deal, or the card of another such slot that was in the pile by then, which in turn gets
        another (an augmenting path, shortest first). The moves (slot, its new card, that card's ``prev``), or
        None. ``also``: cards about to be in the pile (-> since when); ``keep``: a slot to leave as it is."""
        slots, free = self.slots, self.free
        came: dict[int, tuple[int, Card, int]] = {}  # a slot given a card -> (the slot that asked, card, prev)
        queue, seen = [index], {index, keep}
        for asking in queue:
            deal = slots[asking].dealt
            for pile in (also, free):
                for spare, since in pile.items():
                    if since <= deal and spare != card:
                        moves = [(asking, spare, since)]
                        while moves[-1][0] != index:
                            moves.append(came[moves[-1][0]])
                        return moves
            for other in self.at.values():
                held = slots[other]
                if other not in seen and held.prev <= deal and held.card != card:
                    seen.add(other)
                    came[other] = (asking, held.card, held.prev)
                    queue.append(other)
        return None

    def _carry_out(self, moves: list[tuple[int, Card, int]]) -> None:
        """The moves of ``_replacement``, the card from the pile first."""
        slots, at, free = self.slots, self.at, self.free
        for index, card, prev in moves:
            free.pop(card, None)
            at[card] = index
            slots[index] = slots[index]._replace(card=card, prev=prev)

    def _play_from(self, seat: int, card: Card) -> bool:
        """A hidden play the witness does not allow, met locally: the card into one of the seat's ``?`` dealt after
        it was last in the pile (the earliest such), that slot's card back to the pile, and the slot the card leaves
        (if any) given another (``_replacement``). False (nothing changed) when that is not enough."""
        slots = self.slots
        holder = self.at.get(card)
        since = slots[holder].prev if holder is not None else self.free[card]
        target = self._open_slot(seat, since)
        if target is None and holder is None:  # it may come back earlier: out of its latest stay in a hand
            latest = self._latest_stay(card)
            if latest is not None and self._open_slot(seat, slots[latest].prev) is not None:
                back = slots[latest]
                spare = self._spare(back.dealt, card)
                if spare is not None:
                    slots[latest] = back._replace(card=spare, prev=self.free.pop(spare))
                    self.free[spare] = back.end + 1
                    self.free[card] = since = back.prev
                    target = self._open_slot(seat, since)
        if target is None:
            return False
        old = slots[target]
        if holder is not None:
            plan = self._replacement(holder, card, {old.card: old.prev}, target)
            if plan is None:
                return False
            del self.at[old.card], self.at[card]
            self.free[old.card] = old.prev
            self._carry_out(plan)
        else:
            del self.at[old.card], self.free[card]
            self.free[old.card] = old.prev
        slots[target] = Slot(seat, old.dealt, card, BY_PLAY, self.refill, since)
        return True

    def _open_slot(self, seat: int, since: int) -> int | None:
        """The seat's earliest ``?`` still in his hand dealt at refill ``since`` or later."""
        for index, slot in enumerate(self.slots):
            if slot.seat == seat and slot.fate == IN_HAND and slot.dealt >= since:
                return index
        return None

    def _latest_stay(self, card: Card) -> int | None:
        """The slot a card in the pile came back from last, if it came back from a slot."""
        since = self.free[card]
        for index in range(len(self.slots) - 1, -1, -1):
            slot = self.slots[index]
            if slot.card == card and slot.fate == BACK and slot.end + 1 == since:
                return index
        return None

    def _resolve(self, window: Window, card: Card, place: str) -> bool:
        """A statement the witness cannot meet locally, decided from the whole history (``assignment.solve``) with
        its window (``card`` now known in ``place``): the new witness, and True; or False, nothing changed."""
        windows = (*self.windows, window)
        known = {**self.known, card: place}
        alpha = dict(self.alpha)
        if window.kind == PLAYED:
            alpha[card] = self.refill + 1
        else:
            alpha.pop(card, None)
        current = [
            Window(c, alpha.get(c, 0), OPEN)
            for c in self.cards
            if (where := known.get(c)) is None or not where.startswith(("hand", OUT))  # not in a known place for good
        ]
        slots = self.slots
        placed = solve(
            [(slot.seat, slot.dealt) for slot in slots],
            (*windows, *current),
            self.eliminated,
            [slot.card for slot in slots],
        )
        if placed is None:
            return False
        starts: dict[Card, list[int]] = {}
        for each in (*windows, *current):
            starts.setdefault(each.card, []).append(each.start)
        at: dict[Card, int] = {}
        last: dict[Card, int] = {}
        for index, (held, fate, end) in enumerate(placed):  # a card's slots in deal order
            dealt = slots[index].dealt
            begun = max(start for start in starts[held] if start <= dealt)  # the window holding it
            slots[index] = Slot(slots[index].seat, dealt, held, fate, end, max(begun, last.get(held, -1) + 1))
            if fate in (IN_HAND, GONE):
                at[held] = index
            last[held] = end
        self.free = {c: max(alpha.get(c, 0), last.get(c, -1) + 1) for c in self.cards if c not in known and c not in at}
        self.at, self.windows, self.known, self.alpha = at, windows, known, alpha
        return True

    def _why_not(self, seat: int, start: int) -> str:
        """Why no reading puts a card (in the pile from refill ``start``) in a seat's hand, as far as a simple
        reason shows it."""
        if all(slot.dealt < start for slot in self.slots if slot.seat == seat):
            return "it was in the discard pile, named, after every card of that hand written '?' was dealt"
        return "no reading of the cards written '?' so far puts it in that hand and every card in one place"
