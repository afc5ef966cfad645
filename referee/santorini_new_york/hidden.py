"""Where each card can be: hidden hands (``?``) without ever rejecting a legal record.

Every card is unique. A card the record has named is *known* to be in one place (a hand, this round's played cards,
the discard pile, out of the game). Every other card is *hidden*, and each place holds some hidden *slots*; a slot
has the set of cards it can hold (its candidates). The record is consistent while the hidden cards can be matched
one-to-one to the slots that can hold them (a bipartite matching): a card named in a deal or a play must be a
candidate of a slot where the statement takes it from, and the rest must still match.

- A card becomes known: it leaves every slot's candidates (it is now somewhere else).
- The discard pile is shuffled (before a refill): its known cards become hidden again and the pile becomes one group
  of slots whose candidates are those cards plus its old slots' candidates.
- A place's slots of different candidate sets are merged (the union) when a named card or a ``?`` leaves from them
  and the record cannot tell which one: the description only ever grows, so no legal record is rejected; an
  impossible one may in rare cases pass.

Every candidate is a hidden card: a card leaves every candidate set when it becomes known (``_forget``), and only
hidden cards (the deck, a shuffled pile) ever become candidates. ``feasible`` relies on it.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.record import made_once
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


_BITS: dict[int, tuple[tuple[object, ...], dict[Card, int]]] = {}  # id(cards) -> ((cards,), card -> its bit)


def _bits_of(cards: tuple[Card, ...]) -> dict[Card, int]:
    """Each card's bit, made once per deck (``deck_cards`` gives the games of one deck the same tuple)."""
    return made_once(_BITS, id(cards), (cards,), lambda: {card: 1 << index for index, card in enumerate(cards)})


class CardTracker:
    """The places of all cards (copy before a change that may fail: the state keeps the old one on an error).

    A set of candidates is kept as a bit mask over the deck (``bits``: card -> its bit): a card forgotten, a union,
    a size are one integer operation each, and every deal and play takes cards. ``slots`` shows them as sets of
    cards.

    ``common``: when every slot has the same candidates and the slots can be filled (the deck before the deal; most
    of a game), those candidates, and then the slots are kept as a count per place (``counts``); else None, and each
    place's slots are kept by their candidates (``masks``). A named card taken out of the common candidates leaves
    room for the others at once (one card and one slot fewer, all hidden cards still candidates): ``take`` changes
    one count and the mask, with no search for a group and no test of ``feasible``; a ``?`` dealt or a pile moved
    changes counts only."""

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        self.bits: dict[Card, int] = _bits_of(cards)  # never changed: shared by copies, and by games of one deck
        self.known: dict[Card, str] = {}
        self._masks: dict[tuple[str, int], int] = {}  # (place, candidates) -> slots, while ``common`` is None
        self.counts: dict[str, int] = {DECK: len(cards)} if cards else {}  # place -> slots, while ``common`` is set
        self.common: int | None = (1 << len(cards)) - 1 if cards else None

    def copy(self) -> CardTracker:
        other = CardTracker.__new__(CardTracker)
        other.cards, other.bits, other.known = self.cards, self.bits, dict(self.known)
        other._masks, other.counts, other.common = dict(self._masks), dict(self.counts), self.common
        return other

    @property
    def masks(self) -> dict[tuple[str, int], int]:
        """The hidden slots: (place, candidates as a mask) -> how many such slots the place has (a copy while the
        slots are kept as counts: read, not changed)."""
        common = self.common
        if common is None:
            return self._masks
        return {(place, common): n for place, n in self.counts.items()}

    def _explicit(self) -> None:
        """Keep the slots by their candidates (``masks``) from now on: a change may make them differ."""
        common = self.common
        if common is not None:
            self._masks = {(place, common): n for place, n in self.counts.items()}
            self.counts, self.common = {}, None

    def _settle(self, check: bool) -> None:
        """Back to a count per place when every slot has the same candidates (and, ``check``, they can be filled)."""
        found = {cand for _, cand in self._masks}
        if len(found) == 1 and (not check or self.feasible()):
            counts: dict[str, int] = {}
            for (place, _), n in self._masks.items():
                counts[place] = counts.get(place, 0) + n
            self._masks, self.counts, self.common = {}, counts, found.pop()

    @property
    def slots(self) -> dict[tuple[str, frozenset[Card]], int]:
        """The hidden slots: (place, the cards a slot can hold) -> how many such slots the place has."""
        out: dict[tuple[str, frozenset[Card]], int] = {}
        for (place, mask), n in self.masks.items():
            key = (place, frozenset(self.cards_of(mask)))
            out[key] = out.get(key, 0) + n
        return out

    @slots.setter
    def slots(self, slots: dict[tuple[str, frozenset[Card]], int]) -> None:
        self._masks, self.counts, self.common = {}, {}, None  # (whether they can be filled is not known yet)
        for (place, cand), n in slots.items():
            key = (place, self.mask_of(cand))
            self._masks[key] = self._masks.get(key, 0) + n

    def mask_of(self, cards: Iterable[Card]) -> int:
        bits = self.bits
        return sum(bits[card] for card in set(cards))

    def cards_of(self, mask: int) -> list[Card]:
        """The cards of a mask, in deck order."""
        return [card for card, bit in self.bits.items() if mask & bit]

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
        if self.common is not None:
            return self.counts.get(place, 0)
        return sum(n for (where, _), n in self._masks.items() if where == place)

    def count(self, place: str) -> int:
        return len(self.known_at(place)) + self.slots_at(place)

    def candidates_at(self, place: str) -> list[Card]:
        """Hidden cards some slot of ``place`` can hold."""
        found = 0
        for where, cand in self.masks:
            if where == place:
                found |= cand
        return sorted(self.cards_of(found), key=card_order)

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
        bit = self.bits.get(card, 0)
        common = self.common
        if common is not None:  # see ``common``
            counts = self.counts
            n = counts.get(place)
            if n is None or not common & bit:
                raise CardError("it cannot be there")
            if n == 1:
                del counts[place]
            else:
                counts[place] = n - 1
            known[card] = to
            self.common = common & ~bit if counts else None
            return
        groups = [key for key in self._masks if key[0] == place and key[1] & bit]
        if not groups:
            raise CardError("it cannot be there")
        group = groups[0] if len(groups) == 1 else self._merge(place, groups)  # the place's one group holding it
        known[card] = to
        # in one pass: a slot of the group goes, the card leaves every slot's candidates (it is known now), and the
        # slots are counted by candidates for ``_fillable``
        masks: dict[tuple[str, int], int] = {}
        capacity: dict[int, int] = {}
        total = 0
        keep = ~bit
        for key, n in self._masks.items():
            if key == group:
                n -= 1
                if not n:
                    continue
            cand = key[1] & keep
            moved = (key[0], cand)
            masks[moved] = masks.get(moved, 0) + n
            capacity[cand] = capacity.get(cand, 0) + n
            total += n
        self._masks = masks
        if not self._fillable(capacity, total):
            raise CardError("the other named cards leave no room for it there")
        if len(capacity) == 1:  # all slots alike again, and they can be filled: see ``common``
            self._settle(check=False)

    def take_unknown(self, place: str, to: str) -> None:
        """A card the record does not name (``?``) leaves ``place`` for ``to``: one of its slots moves."""
        if not self.slots_at(place):
            if not self.known_at(place):
                raise CardError("no card is left there")
            self.shuffle(place)  # a '?' taken from known cards: which one is not known any more
        if self.common is not None:  # the slot keeps the common candidates
            counts = self.counts
            n = counts[place]
            if n == 1:
                del counts[place]
            else:
                counts[place] = n - 1
            counts[to] = counts.get(to, 0) + 1
            return
        merged = self._merge(place, [key for key in self._masks if key[0] == place])  # the place's only group now
        self._drop_slot(merged)
        key = (to, merged[1])
        self._masks[key] = self._masks.get(key, 0) + 1

    def move_all(self, place: str, to: str) -> None:
        """Every card of a place goes to another (played cards to the discard pile, an eliminated hand)."""
        self.move_every((place,), to)

    def move_every(self, places: tuple[str, ...], to: str) -> None:
        """Every card of some places goes to another (``move_all`` of each, in one pass)."""
        known = self.known
        for card in [card for card, where in known.items() if where in places]:
            known[card] = to
        if self.common is not None:
            counts = self.counts
            for place in places:
                n = counts.pop(place, 0)
                if n:
                    counts[to] = counts.get(to, 0) + n
            return
        masks = self._masks
        for key in [key for key in masks if key[0] in places]:
            count = masks.pop(key)
            moved = (to, key[1])
            masks[moved] = masks.get(moved, 0) + count

    def move_known(self, cards: Iterable[Card], places: tuple[str, ...], to: str) -> None:
        """Those of some named cards known to be in one of ``places`` go to ``to``: ``move_every`` of the places when
        those cards are all they hold (a round's played cards, every one named, to the discard pile)."""
        known = self.known
        for card in cards:
            if known.get(card) in places:
                known[card] = to

    def shuffle(self, place: str) -> None:
        """The place's cards are shuffled face down: its known cards become hidden slots of the place."""
        self._explicit()  # the place's candidates grow
        masks, known, bits = self._masks, self.known, self.bits
        cards = [card for card, where in known.items() if where == place]
        groups = [key for key in masks if key[0] == place]
        total = len(cards) + sum(masks.pop(key) for key in groups)
        if total:
            cand = 0
            for card in cards:
                cand |= bits[card]
                del known[card]
            for key in groups:
                cand |= key[1]
            masks[(place, cand)] = total
        self._settle(check=True)  # one group again (no '?' slot elsewhere): see ``common``

    # ------------------------------------------------------------------------------------------------ helpers
    def _merge(self, place: str, groups: list[tuple[str, int]]) -> tuple[str, int]:
        """The place's groups of slots made one (the union of their candidates); its key."""
        if len(groups) < 2:
            return groups[0]
        total = 0
        cand = 0
        masks = self._masks
        for key in groups:
            total += masks.pop(key)
            cand |= key[1]
        key = (place, cand)
        masks[key] = masks.get(key, 0) + total
        return key

    def _drop_slot(self, key: tuple[str, int]) -> None:
        self._masks[key] -= 1
        if not self._masks[key]:
            del self._masks[key]

    def feasible(self) -> bool:
        """Can the hidden cards fill the slots one to one (each slot one of its candidates)? (``_fillable``)"""
        capacity: dict[int, int] = {}
        total = 0
        for (_, cand), n in self.masks.items():
            capacity[cand] = capacity.get(cand, 0) + n
            total += n
        return self._fillable(capacity, total)

    def _fillable(self, capacity: dict[int, int], total: int) -> bool:
        """``feasible`` for slots counted by candidates (``capacity``: candidates -> slots; ``total`` slots). Slots
        of equal candidates are one group of their total size; when all slots have the same candidates (the common
        case) it is enough that every hidden card is one of them; with a few groups, Hall's condition (``hall``);
        else a matching (``matching``)."""
        count = len(self.cards) - len(self.known)  # the hidden cards
        if count != total:
            return False
        if len(capacity) <= 1:  # one group of slots (or none): candidates are hidden cards, so all of them
            return not capacity or next(iter(capacity)).bit_count() == count
        if len(capacity) <= HALL_GROUPS:
            return hall(list(capacity.items()))
        return matching([self.bits[card] for card in self.hidden()], list(capacity.items()))


def matching(hidden: list[int], groups: list[tuple[int, int]]) -> bool:
    """Can every hidden card (its bit) be put in a slot of a group (candidates, size) it is a candidate of, within
    the groups' sizes (augmenting paths)?"""
    members: list[list[int]] = [[] for _ in groups]

    def place(card: int, seen: set[int]) -> bool:
        for index, (cand, size) in enumerate(groups):
            if not card & cand or index in seen:
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


HALL_GROUPS = 6  # up to this many groups of slots, ``feasible`` tests every set of groups (Hall's condition)


def hall(groups: list[tuple[int, int]]) -> bool:
    """Hall's condition: every set of groups (candidates, size) has at least as many candidates as slots. (With as
    many hidden cards as slots, all of them candidates, that is a one-to-one filling of the slots.)"""
    unions = [0]
    sizes = [0]
    for cand, size in groups:
        for index in range(len(unions)):  # the sets with this group: each earlier set plus it
            union = unions[index] | cand
            slots = sizes[index] + size
            if slots > union.bit_count():
                return False
            unions.append(union)
            sizes.append(slots)
    return True
