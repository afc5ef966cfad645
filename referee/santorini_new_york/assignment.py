"""Is there an assignment of real cards to a record's hidden hand cards (``?``) that keeps every card in one place at
a time and makes every deal and play legal (ruling 14)? ``solve`` decides it from the record's card history and
returns one such assignment, or None.

Time is counted in deals: refill ``k`` (0: the setup deal) deals its cards, then *epoch* ``k`` (the rounds until the
next refill) plays them. The history is:

- **slots** ``(seat, k)``: a ``?`` dealt to a seat at refill ``k``. Its card stays in the hand until the seat plays
  it (the played card is then named) or is eliminated (the card goes to the discard pile, or out of the game).
- **windows** (``Window``): a stretch of a card's life in which the record does not say where it is. It starts at the
  game's start, or at the refill after a play or an elimination that put the card, named, into the discard pile. It
  ends at the card's next mention: a named deal at refill ``k`` (``DEALT``: the card was in the pile then), a play by
  a seat from a ``?`` of his hand in epoch ``j`` (``PLAYED``: the card was in one of his slots), or not yet (``OPEN``).
  Between a named deal and its play the card is *known* in that hand: no window.
- **eliminations**: seat -> (epoch, whether the hand went to the discard pile).

A card is in a slot for an interval of refills: from its deal to its play or its seat's elimination, or to now. An
assignment is consistent when every slot has a card, no card is in two slots at once, every slot lies inside a window
of its card (so the card was in the pile at the slot's deal and nowhere known meanwhile), a ``PLAYED`` window ends in
a slot of its seat, a ``DEALT`` window's card is back in the pile by its deal, and an ``OPEN`` window's card is in at
most one slot it never leaves — because a slot is only left by a play (which names the card and ends its window) or
an elimination.

**Without cards coming back from an eliminated hand** every window holds at most one slot, and the question is a
bipartite matching of two kinds (``_plain``). A ``PLAYED`` window needs a slot of its seat dealt between the window's
start and the play: an interval over the seat's slots in deal order, matched earliest deadline first (``_edf``),
which also leaves the seat's *latest* slots unmatched (a greedy on a transversal matroid gives the componentwise
earliest basis). The slots left over are in hands now (or out of the game) and need ``OPEN`` windows started by
their deal: a slot dealt later accepts every window an earlier one does, so any choice in deal order works
(``_fill``), and the latest unmatched slots are the easiest to fill — the seats' matchings and the filling are
independent. Cost: sorting, O(n log n) in the slots and windows.

**A hidden card of a hand that goes to the discard pile at an elimination** comes back to the pile and may be dealt
again: its slot *borrows* a card from the pile for a while, and a card may take several such slots one after
another before its window ends. That is interval scheduling on machines with availability windows; ``_search`` tries
the eliminated seats' slots in deal order, each either one of the seat's played windows or a card whose window holds
it (cards with the same history tried once), bounded by ``_plain`` on what is still open and finished by it. Its
cost is exponential only in the number of those slots (at most the eliminated players' hands), polynomial in the
rest of the record.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from referee.santorini_new_york.cards import Card

DEALT, PLAYED, OPEN = 0, 1, 2  # how a window ends (``Window.kind``)
IN_HAND, BY_PLAY, BACK, GONE = 0, 1, 2, 3  # where a slot's card goes (``Placed.fate``)


class Window(NamedTuple):
    """A stretch of a card's life the record does not place: from refill ``start`` to a named deal at refill
    ``time`` (``DEALT``), a play from a ``?`` of ``seat`` in epoch ``time`` (``PLAYED``), or still open (``OPEN``)."""

    card: Card
    start: int
    kind: int
    time: int = 0
    seat: int = -1


class Placed(NamedTuple):
    """A slot's card in an assignment and how it left the slot: played (``BY_PLAY``) or to the discard pile at its
    seat's elimination (``BACK``) in epoch ``end``, out of the game then (``GONE``), or still in the hand
    (``IN_HAND``, ``end`` -1)."""

    card: Card
    fate: int
    end: int = -1


Slot = tuple[int, int]  # (seat, refill of its deal)
Eliminated = Mapping[int, tuple[int, bool]]  # seat -> (epoch, hand to the discard pile)


def solve(
    slots: Sequence[Slot], windows: Sequence[Window], eliminated: Eliminated, hint: Sequence[Card | None] = ()
) -> list[Placed] | None:
    """A consistent assignment (one ``Placed`` per slot), or None when there is none. ``hint``: a card per slot to
    prefer where the choice is free (the last assignment, so that few hidden cards change between statements)."""
    problem = _Problem(slots, windows, eliminated, hint)
    placed = problem.search() if problem.borrowing else problem.plain({}, {})
    return None if placed is None else [placed[index] for index in range(len(slots))]


class _Problem:
    """One question: the slots by seat, the played windows by seat, the open windows, the eliminated seats whose
    hidden cards went back to the discard pile."""

    def __init__(
        self, slots: Sequence[Slot], windows: Sequence[Window], eliminated: Eliminated, hint: Sequence[Card | None]
    ) -> None:
        self.slots, self.eliminated = slots, eliminated
        self.hint = list(hint) + [None] * (len(slots) - len(hint))
        self.by_seat: dict[int, list[int]] = {}
        for index, (seat, _) in enumerate(slots):
            self.by_seat.setdefault(seat, []).append(index)  # in deal order: slots are recorded as dealt
        self.plays: dict[int, list[Window]] = {}
        self.windows: dict[Card, list[Window]] = {}
        self.open: list[Window] = []
        for window in windows:
            self.windows.setdefault(window.card, []).append(window)
            if window.kind == PLAYED:
                self.plays.setdefault(window.seat, []).append(window)
            elif window.kind == OPEN:
                self.open.append(window)
        self.borrowing = frozenset(
            seat
            for seat, (_, back) in eliminated.items()
            if back and len(self.by_seat.get(seat, ())) > len(self.plays.get(seat, ()))
        )

    # ------------------------------------------------------------------------------------------ no borrowing
    def plain(self, decided: dict[int, Placed], free_from: dict[tuple[Card, int], int]) -> dict[int, Placed] | None:
        """The slots of every seat but the borrowing ones (``decided`` places theirs, when searching): played
        windows matched to their seat's slots, then open windows to the slots left. ``free_from``: (card, window
        start) -> the refill from which the card is in the pile again in that window after the ``decided`` slots."""
        placed = dict(decided)
        left: list[int] = []  # slots whose card is in a hand now or went out of the game: from open windows
        for seat, indices in self.by_seat.items():
            if seat in self.borrowing:
                continue
            matched = _edf(self.slots, indices, self.plays.get(seat, []), free_from)
            if matched is None:
                return None
            for index in indices:
                window = matched.get(index)
                if window is None:
                    left.append(index)
                else:
                    placed[index] = Placed(window.card, BY_PLAY, window.time)
        if any(seat not in self.by_seat for seat in self.plays):
            return None  # a play from a '?' by a seat never dealt one
        filled = self._fill(left, free_from)
        if filled is None:
            return None
        for index, card in filled.items():
            end = self.eliminated.get(self.slots[index][0])
            placed[index] = Placed(card, IN_HAND) if end is None else Placed(card, GONE, end[0])
        return placed

    def _fill(self, left: list[int], free_from: dict[tuple[Card, int], int]) -> dict[int, Card] | None:
        """Open windows to the slots left, in deal order: a slot accepts every window that started by its deal (and
        is free again by then), so a later slot accepts every window an earlier one does and any choice works."""
        starts = sorted(
            (free_from.get((w.card, w.start), w.start), w.card) for w in self.open
        )  # (cards of one deck compare by name and number: a fixed order)
        order = sorted(left, key=lambda index: self.slots[index][1])
        pool: list[Card] = []
        filled: dict[int, Card] = {}
        next_window = 0
        for index in order:
            deal = self.slots[index][1]
            while next_window < len(starts) and starts[next_window][0] <= deal:
                pool.append(starts[next_window][1])
                next_window += 1
            if not pool:
                return None
            hint = self.hint[index]
            if hint is not None and hint in pool:
                pool.remove(hint)
                filled[index] = hint
            else:
                filled[index] = pool.pop()
        return filled

    # ------------------------------------------------------------------------------------------ borrowing
    def search(self) -> dict[int, Placed] | None:
        """The borrowing seats' slots decided one by one in deal order, each a played window of its seat or a card
        that is in the pile from its deal to the elimination; ``plain`` bounds every step and finishes."""
        order = sorted(
            (index for seat in sorted(self.borrowing) for index in self.by_seat[seat]),
            key=lambda i: (self.slots[i][1], i),
        )
        used: set[Window] = set()
        busy: dict[Card, list[tuple[int, int]]] = {}  # card -> the intervals (refills) the decided slots hold it
        decided: dict[int, Placed] = {}
        left = {seat: len(self.by_seat[seat]) for seat in self.borrowing}

        def bound() -> dict[int, Placed] | None:
            for seat in self.borrowing:
                unused = sum(1 for w in self.plays.get(seat, ()) if w not in used)
                if unused > left[seat]:
                    return None
            return self.plain(decided, self._free_from(busy))

        def step(position: int) -> dict[int, Placed] | None:
            found = bound()
            if found is None or position == len(order):
                return found
            index = order[position]
            seat, deal = self.slots[index]
            elimination = self.eliminated[seat][0]
            left[seat] -= 1
            for choice in self._choices(index, seat, deal, elimination, used, busy):
                card, window, interval = choice
                busy.setdefault(card, []).append(interval)
                if window is not None:
                    used.add(window)
                    decided[index] = Placed(card, BY_PLAY, window.time)
                else:
                    decided[index] = Placed(card, BACK, elimination)
                result = step(position + 1)
                if result is not None:
                    return result
                busy[card].pop()
                if window is not None:
                    used.discard(window)
                del decided[index]
            left[seat] += 1
            return None

        return step(0)

    def _choices(
        self,
        index: int,
        seat: int,
        deal: int,
        elimination: int,
        used: set[Window],
        busy: dict[Card, list[tuple[int, int]]],
    ) -> list[tuple[Card, Window | None, tuple[int, int]]]:
        """What a borrowing seat's slot may hold: one of the seat's played windows that covers its deal (earliest
        play first), or a card free in the pile from its deal to the elimination (the hinted card first; cards with
        the same history once)."""
        out: list[tuple[Card, Window | None, tuple[int, int]]] = []
        plays = sorted(
            (w for w in self.plays.get(seat, ()) if w not in used and w.start <= deal <= w.time),
            key=lambda w: w.time,
        )
        for window in plays:
            if _fits(busy.get(window.card, ()), deal, window.time):
                out.append((window.card, window, (deal, window.time)))
        tried: set[tuple] = set()
        hint = self.hint[index]
        cards = sorted(self.windows, key=lambda card: card != hint)  # (stable: the hint first)
        for card in cards:
            holding = _window_at(self.windows[card], deal)
            if holding is None or not _returns(holding, elimination):
                continue
            held = busy.get(card, ())
            if not _fits(held, deal, elimination):
                continue
            signature = (tuple(w[1:] for w in self.windows[card]), tuple(sorted(held)))
            if signature in tried:
                continue
            tried.add(signature)
            out.append((card, None, (deal, elimination)))
        return out

    def _free_from(self, busy: dict[Card, list[tuple[int, int]]]) -> dict[tuple[Card, int], int]:
        """(card, window start) -> the refill after the last decided slot that holds the card in that window."""
        out: dict[tuple[Card, int], int] = {}
        for card, intervals in busy.items():
            for first, last in intervals:
                window = _window_at(self.windows[card], first)
                assert window is not None
                key = (card, window.start)
                out[key] = max(out.get(key, window.start), last + 1)
        return out


def _edf(
    slots: Sequence[Slot], indices: list[int], plays: list[Window], free_from: dict[tuple[Card, int], int]
) -> dict[int, Window] | None:
    """One seat's played windows matched to its slots (``indices``, in deal order), each to a slot dealt between
    the window's start (or the refill its card is free again) and the play: earliest deadline first. None when some
    window gets none."""
    if not plays:
        return {}
    ready = sorted(plays, key=lambda w: free_from.get((w.card, w.start), w.start))
    waiting: list[tuple[int, int, Window]] = []  # (play, order, window)
    matched: dict[int, Window] = {}
    next_play = 0
    for index in indices:
        deal = slots[index][1]
        while (
            next_play < len(ready)
            and free_from.get((ready[next_play].card, ready[next_play].start), ready[next_play].start) <= deal
        ):
            window = ready[next_play]
            heapq.heappush(waiting, (window.time, next_play, window))
            next_play += 1
        if waiting and waiting[0][0] < deal:
            return None  # played before any slot still free was dealt
        if waiting:
            matched[index] = heapq.heappop(waiting)[2]
    if waiting or next_play < len(ready):
        return None
    return matched


def _window_at(windows: list[Window], refill: int) -> Window | None:
    """The card's window in which it may be dealt at ``refill`` (in the pile then), if any."""
    for window in windows:
        if window.start <= refill and (
            window.kind == OPEN
            or (window.kind == DEALT and refill < window.time)
            or (window.kind == PLAYED and refill <= window.time)
        ):
            return window
    return None


def _returns(window: Window, elimination: int) -> bool:
    """Can a card of this window go into a slot that goes back to the pile at the end of epoch ``elimination`` and
    still meet the window's end: be in the pile at its named deal, or be dealt again before its play?"""
    if window.kind == OPEN:
        return True
    return elimination + 1 <= window.time


def _fits(held: Sequence[tuple[int, int]], first: int, last: int) -> bool:
    """Is the interval of refills [first, last] apart from every interval the card is already held?"""
    return all(end < first or last < start for start, end in held)
