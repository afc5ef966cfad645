"""Santorini: New York hidden hands: where each card can be. A card named in a deal or a play must be able to be
where it is taken from, and the other hidden cards must still fill the hidden slots (a matching)."""

from __future__ import annotations

import pytest

from referee.santorini_new_york.hidden import DECK, DISCARD, CardError, CardTracker, hand, played

A, B, C, D, E, F = (("Engineer", n) for n in (1, 5, 9, 13, 17, 21))
CARDS = (A, B, C, D, E, F)


def test_a_named_card_comes_from_a_slot_that_can_hold_it() -> None:
    tracker = CardTracker(CARDS)
    tracker.take(A, DECK, hand(0))
    tracker.take_unknown(DECK, hand(0))
    assert tracker.count(hand(0)) == 2 and tracker.known_at(hand(0)) == [A]
    with pytest.raises(CardError, match="elsewhere"):
        tracker.copy().take(A, DECK, hand(1))
    tracker.take(B, hand(0), played(0))  # the '?' may have been B
    with pytest.raises(CardError):
        tracker.copy().take(C, hand(0), played(0))  # her only other card is known: A
    assert tracker.possible_at(A, hand(0)) and not tracker.possible_at(C, hand(0))


def test_the_other_hidden_cards_must_still_fill_the_slots() -> None:
    tracker = CardTracker(CARDS)
    tracker.known = {D: DISCARD, E: DISCARD, F: DISCARD}
    tracker.slots = {
        (hand(0), frozenset({A, B})): 1,
        (hand(1), frozenset({A, B})): 1,
        (DISCARD, frozenset({A, B, C})): 1,
    }
    assert tracker.feasible()
    tracker.take(A, hand(0), played(0))
    with pytest.raises(CardError, match="no room"):
        tracker.copy().take(B, DISCARD, hand(2))  # then Boris's card could be nothing
    tracker.take(C, DISCARD, hand(2))
    assert tracker.hidden() == [B] and tracker.feasible()


def test_a_shuffle_makes_the_piles_known_cards_hidden_again() -> None:
    tracker = CardTracker(CARDS)
    for _ in range(3):
        tracker.take_unknown(DECK, hand(0))
    tracker.move_all(DECK, DISCARD)
    tracker.take(A, hand(0), played(0))
    tracker.move_all(played(0), DISCARD)
    assert tracker.known_at(DISCARD) == [A]
    tracker.shuffle(DISCARD)
    assert tracker.known_at(DISCARD) == [] and tracker.slots_at(DISCARD) == 4
    tracker.take(A, DISCARD, hand(1))  # dealt again after the shuffle
    assert not tracker.possible_at(A, hand(0))


def test_a_card_played_from_a_hand_leaves_every_other_slot() -> None:
    tracker = CardTracker(CARDS)
    for seat in (0, 1):
        for _ in range(3):
            tracker.take_unknown(DECK, hand(seat))
    tracker.take(C, hand(1), played(1))
    assert C not in tracker.candidates_at(hand(0))
    assert tracker.count(hand(1)) == 2 and tracker.feasible()


def test_a_tracker_copy_is_independent_and_keys_compare_positions() -> None:
    tracker = CardTracker(CARDS)
    copy = tracker.copy()
    copy.take(A, DECK, hand(0))
    assert tracker.key() != copy.key() and tracker.count(DECK) == 6
    again = CardTracker(CARDS)
    assert again.key() == tracker.key()


def test_an_unknown_card_from_a_place_with_only_known_cards() -> None:
    tracker = CardTracker((A, B))
    tracker.take(A, DECK, DISCARD)
    tracker.take(B, DECK, DISCARD)
    tracker.take_unknown(DISCARD, hand(0))  # one of A, B; which is not known any more
    assert tracker.count(hand(0)) == 1 and tracker.count(DISCARD) == 1
    assert tracker.possible_at(A, hand(0)) and tracker.possible_at(B, hand(0))
    with pytest.raises(CardError):
        CardTracker(()).take_unknown(DECK, hand(0))


def test_halls_condition_and_the_matching_agree_on_the_hidden_cards() -> None:
    """``feasible``'s two tests of the same question: every set of groups has room (``hall``), a filling exists
    (``matching``) — on random groups of candidates (every hidden card a candidate of some group or not)."""
    import random

    from referee.santorini_new_york.hidden import hall, matching

    rng = random.Random(3)
    both = [0, 0]
    for _ in range(4000):
        cards = [("Engineer", n) for n in range(rng.randint(1, 12))]
        groups: dict[frozenset, int] = {}
        for _ in range(rng.randint(1, 5)):
            cand = frozenset(card for card in cards if rng.random() < rng.choice((0.2, 0.5, 0.9)))
            groups[cand] = groups.get(cand, 0) + rng.randint(1, 3)
        total = sum(groups.values())
        hidden = rng.sample(cards, min(total, len(cards)))
        if len(hidden) != total or not set().union(*groups) <= set(hidden):
            continue  # what feasible checks first, and the tracker's rule: candidates are hidden cards
        bits = {card: 1 << index for index, card in enumerate(cards)}  # the tracker's sets are bit masks
        masks = [(sum(bits[card] for card in cand), size) for cand, size in groups.items()]
        expected = matching([bits[card] for card in hidden], masks)
        assert hall(masks) == expected, (hidden, groups)
        both[expected] += 1
    assert min(both) > 100, both
