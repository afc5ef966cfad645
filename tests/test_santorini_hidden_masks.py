"""Santorini: New York hidden hands: the card tracker (``hidden.CardTracker``, candidate sets as bit masks) against
the tracker as it was written first, with frozensets of cards (``SetTracker`` below, kept here as the reference): on
random sequences of deals, plays, moves and shuffles — named cards from anywhere, ``?`` cards, with and without room
for them — both accept and refuse the same steps and describe the same places (``key``, counts, candidates, what
``possible_at`` allows). ``SNY_TRACKER_RUNS=N`` sets the number of sequences.
"""

from __future__ import annotations

import os
import random

from referee.santorini_new_york.cards import Card, card_order
from referee.santorini_new_york.hidden import DECK, DISCARD, OUT, CardError, CardTracker, hand, played

RUNS = int(os.environ.get("SNY_TRACKER_RUNS", "300"))


# ------------------------------------------------------------------------------------------------ the reference
class SetTracker:
    """The places of all cards (copy before a change that may fail: the state keeps the old one on an error)."""

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        self.known: dict[Card, str] = {}
        self.slots: dict[tuple[str, frozenset[Card]], int] = {(DECK, frozenset(cards)): len(cards)} if cards else {}

    def copy(self) -> SetTracker:
        other = SetTracker.__new__(SetTracker)
        other.cards, other.known, other.slots = self.cards, dict(self.known), dict(self.slots)
        return other

    def key(self) -> tuple:
        known = tuple(sorted(self.known.items(), key=lambda item: card_order(item[0])))
        slots = tuple(
            sorted((place, tuple(sorted(cand, key=card_order)), n) for (place, cand), n in self.slots.items())
        )
        return (known, slots)

    # ------------------------------------------------------------------------------------------------ queries
    def hidden(self) -> list[Card]:
        return [card for card in self.cards if card not in self.known]

    def known_at(self, place: str) -> list[Card]:
        return sorted((card for card, where in self.known.items() if where == place), key=card_order)

    def slots_at(self, place: str) -> int:
        return sum(n for (where, _), n in self.slots.items() if where == place)

    def count(self, place: str) -> int:
        return len(self.known_at(place)) + self.slots_at(place)

    def candidates_at(self, place: str) -> list[Card]:
        """Hidden cards some slot of ``place`` can hold."""
        found = set().union(*(cand for (where, cand) in self.slots if where == place))
        return sorted(found, key=card_order)

    def possible_at(self, card: Card, place: str) -> bool:
        """Could the card be at the place (known there, or a candidate of one of its slots, consistently)?"""
        if self.known.get(card) == place:
            return True
        try:
            self.copy().take(card, place, "probe")
        except CardError:
            return False
        return True

    # ------------------------------------------------------------------------------------------------ changes
    def take(self, card: Card, place: str, to: str) -> None:
        """A named card leaves ``place`` for ``to``: known there, or out of one of its slots."""
        known = self.known
        where = known.get(card)
        if where == place:
            known[card] = to
            return
        if where is not None:
            raise CardError("it is known to be elsewhere", where)
        groups = [key for key in self.slots if key[0] == place and card in key[1]]
        if not groups:
            raise CardError("it cannot be there")
        self._drop_slot(self._merge(place, groups))  # the place's one group of slots that can hold the card now
        known[card] = to
        self._forget(card)
        if not self.feasible():
            raise CardError("the other named cards leave no room for it there")

    def take_unknown(self, place: str, to: str) -> None:
        """A card the record does not name (``?``) leaves ``place`` for ``to``: one of its slots moves."""
        groups = [key for key in self.slots if key[0] == place]
        if not groups:
            known = self.known_at(place)
            if not known:
                raise CardError("no card is left there")
            self.shuffle(place)  # a '?' taken from known cards: which one is not known any more
            groups = [key for key in self.slots if key[0] == place]
        merged = self._merge(place, groups)  # the place's only group now
        self._drop_slot(merged)
        key = (to, merged[1])
        self.slots[key] = self.slots.get(key, 0) + 1

    def move_all(self, place: str, to: str) -> None:
        """Every card of a place goes to another (played cards to the discard pile, an eliminated hand)."""
        known, slots = self.known, self.slots
        for card in [card for card, where in known.items() if where == place]:
            known[card] = to
        for key in [key for key in slots if key[0] == place]:
            count = slots.pop(key)
            moved = (to, key[1])
            slots[moved] = slots.get(moved, 0) + count

    def shuffle(self, place: str) -> None:
        """The place's cards are shuffled face down: its known cards become hidden slots of the place."""
        cards = self.known_at(place)
        groups = [key for key in self.slots if key[0] == place]
        total = len(cards) + sum(self.slots.pop(key) for key in groups)
        if total:
            cand = frozenset(cards).union(*(key[1] for key in groups))
            self.slots[(place, cand)] = total
        for card in cards:
            del self.known[card]

    # ------------------------------------------------------------------------------------------------ helpers
    def _merge(self, place: str, groups: list[tuple[str, frozenset[Card]]]) -> tuple[str, frozenset[Card]]:
        """The place's groups of slots made one (the union of their candidates); its key."""
        if len(groups) < 2:
            return groups[0]
        total = sum(self.slots.pop(key) for key in groups)
        key = (place, frozenset().union(*(key[1] for key in groups)))
        self.slots[key] = self.slots.get(key, 0) + total
        return key

    def _drop_slot(self, key: tuple[str, frozenset[Card]]) -> None:
        self.slots[key] -= 1
        if not self.slots[key]:
            del self.slots[key]

    def _forget(self, card: Card) -> None:
        """A card now known somewhere leaves every slot's candidates. Equal candidate sets stay one object (slots
        of many places often share them), so later comparisons of them are identity checks."""
        slots = self.slots
        smaller: dict[frozenset[Card], frozenset[Card]] = {}
        for key in [key for key in slots if card in key[1]]:
            cand = key[1]
            less = smaller.get(cand)
            if less is None:
                less = smaller[cand] = cand - {card}
            count = slots.pop(key)
            moved = (key[0], less)
            slots[moved] = slots.get(moved, 0) + count

    def feasible(self) -> bool:
        """Can the hidden cards fill the slots one to one (each slot one of its candidates)? Slots of equal
        candidates are one group of their total size; when all slots have the same candidates (the common case) it
        is enough that every hidden card is one of them; with a few groups, Hall's condition (``hall``); else a
        matching (``matching``)."""
        capacity: dict[frozenset[Card], int] = {}
        for (_, cand), n in self.slots.items():
            capacity[cand] = capacity.get(cand, 0) + n
        count = len(self.cards) - len(self.known)  # the hidden cards
        if count != sum(capacity.values()):
            return False
        if len(capacity) == 1:
            (cand,) = capacity
            return len(cand) == count  # candidates are hidden cards: all of them, then
        if len(capacity) <= SET_HALL_GROUPS:
            return set_hall(list(capacity.items()))
        return set_matching(self.hidden(), list(capacity.items()))


def set_matching(hidden: list[Card], groups: list[tuple[frozenset[Card], int]]) -> bool:
    """Can every hidden card be put in a slot of a group it is a candidate of, within the groups' sizes (augmenting
    paths)?"""
    members: list[list[Card]] = [[] for _ in groups]

    def place(card: Card, seen: set[int]) -> bool:
        for index, (cand, size) in enumerate(groups):
            if card not in cand or index in seen:
                continue
            seen.add(index)
            if len(members[index]) < size:
                members[index].append(card)
                return True
            for other in list(members[index]):
                if place(other, seen):
                    members[index].remove(other)
                    members[index].append(card)
                    return True
        return False

    return all(place(card, set()) for card in hidden)


SET_HALL_GROUPS = 6  # up to this many groups of slots, ``feasible`` tests every set of groups (Hall's condition)


def set_hall(groups: list[tuple[frozenset[Card], int]]) -> bool:
    """Hall's condition: every set of groups has at least as many candidates as slots. (With as many hidden cards
    as slots, all of them candidates, that is a one-to-one filling of the slots.)"""
    unions: list[frozenset[Card]] = [frozenset()]
    sizes = [0]
    for cand, size in groups:
        for index in range(len(unions)):  # the sets with this group: each earlier set plus it
            union = unions[index] | cand
            slots = sizes[index] + size
            if slots > len(union):
                return False
            unions.append(union)
            sizes.append(slots)
    return True


# ------------------------------------------------------------------------------------------------ the test
def test_the_mask_tracker_is_the_set_tracker() -> None:
    rng = random.Random(41)
    refused = steps = 0
    for _ in range(RUNS):
        cards = tuple(("Engineer", n) for n in range(1, rng.randint(3, 26)))
        masks, sets = CardTracker(cards), SetTracker(cards)
        places = [DECK, DISCARD, OUT, *(hand(s) for s in range(3)), *(played(s) for s in range(3))]
        for _ in range(rng.randint(5, 80)):
            before = (masks.copy(), sets.copy())  # the state keeps its tracker from before a refused statement
            place, to = rng.choice(places), rng.choice(places)
            kind = rng.choices(("take", "take_unknown", "move_all", "shuffle"), (45, 30, 15, 10))[0]
            card = rng.choice(cards)
            outcome = [change(tracker, kind, card, place, to) for tracker in (masks, sets)]
            assert outcome[0] == outcome[1], (outcome, place, to)
            steps += 1
            refused += outcome[0] is not None
            if outcome[0] is not None:
                masks, sets = before
            assert masks.key() == sets.key()
            assert masks.feasible() == sets.feasible()
            assert dict(masks.slots) == sets.slots
            for where in places:
                assert masks.count(where) == sets.count(where)
                assert masks.candidates_at(where) == sets.candidates_at(where)
                card = rng.choice(cards)
                assert masks.possible_at(card, where) == sets.possible_at(card, where)
    assert 0.05 * steps < refused < 0.8 * steps, (refused, steps)


def change(tracker: CardTracker | SetTracker, kind: str, card: Card, place: str, to: str) -> tuple | None:
    """One change made to a tracker: None, or the reason and place of its refusal."""
    try:
        if kind == "take":
            tracker.take(card, place, to)
        elif kind == "take_unknown":
            tracker.take_unknown(place, to)
        elif kind == "move_all":
            tracker.move_all(place, to)
        else:
            tracker.shuffle(place)
    except CardError as error:
        return (error.reason, error.where)
    return None


def test_slots_set_by_hand_are_checked_before_a_card_is_taken() -> None:
    """Slots set directly may not be fillable: the quick way of ``take`` (all slots alike and fillable) is not
    taken, and the card is refused as the set tracker refuses it."""
    cards = tuple(("Engineer", n) for n in (1, 5, 9))
    masks, sets = CardTracker(cards), SetTracker(cards)
    for tracker in (masks, sets):
        tracker.slots = {(DECK, frozenset(cards)): 4}  # four slots for three hidden cards
    assert change(masks, "take", cards[0], DECK, hand(0)) == change(sets, "take", cards[0], DECK, hand(0)) is not None
