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
bipartite matching of two kinds (``plain``). A ``PLAYED`` window needs a slot of its seat dealt between the window's
start and the play: an interval over the seat's slots in deal order, matched earliest deadline first (``_edf``),
which also leaves the seat's *latest* slots unmatched (a greedy on a transversal matroid gives the componentwise
earliest basis). The slots left over are in hands now (or out of the game) and need ``OPEN`` windows started by
their deal: a slot dealt later accepts every window an earlier one does, so any choice in deal order works
(``_fill``), and the latest unmatched slots are the easiest to fill — the seats' matchings and the filling are
independent. Cost: sorting, O(n log n) in the slots and windows.

**A hidden card of a hand that goes to the discard pile at an elimination** comes back to the pile and may be dealt
again: its slot *borrows* a card for a while, and a card may take several slots one after another before its window
ends — interval scheduling on machines with availability windows, for which no polynomial method is known in
general. ``search`` decides it by branch and bound over a matching (``_Pieces``): each window is cut into *pieces*
at the epochs in which such hands went back to the pile; a slot takes one piece of one window (a play's slot the
window's last piece, any other the piece of its deal); a matching of every slot that takes every played window's last
piece is a relaxation, exact unless two slots of one window overlap in time. Open windows differ only in when their
card came to the pile, so the slots the matching gives them are placed again in deal order by a sweep, which is exact
(``_Pieces.pool``). What the matching and the sweep leave — too many open cards needed at one deal, or two slots of
one named card's window that overlap — is branched on: one of the slots goes elsewhere in any assignment. Before
all that, ``plain`` with those hands' leftover slots dropped (a relaxation) settles most impossible statements at
once. Each step is a matching, O(slots x windows); the branching is bounded by the hands that went back to the pile
and in practice rarely needed.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Mapping, Sequence, Set
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
    if not problem.borrowing:
        placed = problem.plain()
    else:
        placed = None if problem.plain(drop_back=True) is None else problem.search()
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
    def plain(self, drop_back: bool = False) -> dict[int, Placed] | None:
        """Played windows matched to their seat's slots (``_edf``), then open windows to the slots left
        (``_fill``): the question when no card comes back from an eliminated hand. ``drop_back``: the slots left
        to the seats whose hidden cards went back to the pile are dropped — a relaxation of the question with
        them (their cards are then simply in the pile), which settles most impossible statements at once."""
        placed: dict[int, Placed] = {}
        left: list[int] = []  # slots whose card is in a hand now or went out of the game: from open windows
        for seat, indices in self.by_seat.items():
            matched = _edf(self.slots, indices, self.plays.get(seat, []))
            if matched is None:
                return None
            for index in indices:
                window = matched.get(index)
                if window is None:
                    if not (drop_back and seat in self.borrowing):
                        left.append(index)
                else:
                    placed[index] = Placed(window.card, BY_PLAY, window.time)
        if any(seat not in self.by_seat for seat in self.plays):
            return None  # a play from a '?' by a seat never dealt one
        filled = self._fill(left)
        if filled is None:
            return None
        for index, card in filled.items():
            end = self.eliminated.get(self.slots[index][0])
            placed[index] = Placed(card, IN_HAND) if end is None else Placed(card, GONE, end[0])
        return placed

    def _fill(self, left: list[int]) -> dict[int, Card] | None:
        """Open windows to the slots left, in deal order: a slot accepts every window that started by its deal, so
        a later slot accepts every window an earlier one does and any choice works."""
        starts = sorted((w.start, w.card) for w in self.open)  # (cards compare by name and number: a fixed order)
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
        """The question with cards coming back from eliminated hands (``_Pieces``): a matching; the cards of open
        windows placed again in time order (``_Pieces.pool``); then, while a conflict is left, a branch on the
        slots that cause it."""
        pieces = _Pieces(self)
        stack: list[tuple[frozenset[tuple[int, int]], list[int] | None]] = [(frozenset(), None)]
        seen: set[frozenset[tuple[int, int]]] = set()
        while stack:
            ruled_out, warm = stack.pop()
            if ruled_out in seen:
                continue
            seen.add(ruled_out)
            matched = pieces.match(ruled_out, warm)
            if matched is None:
                continue
            crowded = pieces.pool(matched)
            if crowded:  # more open-window cards needed at a deal than there are: one of them is elsewhere
                stack += [(ruled_out | pieces.not_open(s), matched) for s in reversed(crowded)]
                continue
            clash = pieces.clash(matched)
            if clash is None:
                return pieces.placed(matched)
            window, first, second = clash  # in any assignment one of them is on another window
            stack.append((ruled_out | {(second, window)}, matched))
            stack.append((ruled_out | {(first, window)}, matched))
        return None


class _Pieces:
    """Slots matched to *pieces* of windows: each window is cut at the epochs in which a seat went out with hidden
    cards (the *anchors* it spans). A play's slot holds its window's last piece, which no other slot reaches (a
    borrowing ends at an anchor; an open window has no play); any other slot — a card that comes back to the pile (a
    *borrowing*) or stays in a hand for good — holds the piece of its deal. Two slots that share a piece overlap in
    time, so every assignment is a matching of every slot to a piece that takes every played window's last piece.
    The matching is a relaxation: it leaves out that a card kept holds every piece from its deal on, and a borrowing
    dealt before an earlier anchor every piece to its own. Where no two slots of a window overlap in time
    (``clash``, after ``pool``) it is an assignment: each slot's card is in the pile at its deal and in no other slot
    meanwhile, plays and their windows correspond one to one, and borrowings come back before the window's next named
    place."""

    def __init__(self, problem: _Problem) -> None:
        self.problem = problem
        eliminated = problem.eliminated
        self.back = {seat: end for seat, (end, to_pile) in eliminated.items() if to_pile}
        anchors = sorted(set(self.back.values()))
        self.windows = [window for windows in problem.windows.values() for window in windows]
        self.first: list[int] = []  # window -> its first piece's number (pieces are numbered across windows)
        self.cuts: list[list[int]] = []  # window -> the anchors it spans
        count = 0
        for window in self.windows:
            cuts = [a for a in anchors if window.start <= a and _returns(window, a)]
            self.first.append(count)
            self.cuts.append(cuts)
            count += len(cuts) + 1
        self.owner = [w for w, cuts in enumerate(self.cuts) for _ in range(len(cuts) + 1)]  # piece -> window
        self.must = {
            self.first[w] + len(self.cuts[w]) for w, window in enumerate(self.windows) if window.kind == PLAYED
        }
        self.edges: list[list[tuple[int, int]]] = []  # slot -> (piece, window) it may take
        for seat, deal in problem.slots:
            edges: list[tuple[int, int]] = []
            end = self.back.get(seat)
            for w, window in enumerate(self.windows):
                if window.start > deal:
                    continue
                if window.kind == PLAYED and window.seat == seat and deal <= window.time:
                    edges.append((self.first[w] + len(self.cuts[w]), w))  # the play's slot: the last piece
                elif (window.kind == OPEN and end is None) or (end is not None and end in self.cuts[w]):
                    edges.append((self._piece(w, deal), w))  # a card in a hand for good, or a borrowing
            self.edges.append(edges)
        self.pieces = count

    def match(self, forbidden: Set[tuple[int, int]], warm: list[int] | None) -> list[int] | None:
        """Every slot's piece (slot -> piece), with every played window's last piece taken; None if there is no
        such matching. ``warm``: a matching to start from (the hint's cards first without one)."""
        slots = range(len(self.edges))
        adjacent = [[piece for piece, w in self.edges[s] if (s, w) not in forbidden] for s in slots]
        holder = [-1] * self.pieces  # piece -> slot
        piece_of = [-1] * len(adjacent)
        if warm is None:
            hint = self.problem.hint
            for s in slots:
                for piece in adjacent[s]:
                    if holder[piece] < 0 and self.windows[self.owner[piece]].card == hint[s]:
                        holder[piece], piece_of[s] = s, piece
                        break
        else:
            for s, piece in enumerate(warm):
                if piece in adjacent[s]:
                    holder[piece], piece_of[s] = s, piece
        takers: list[list[int]] = [[] for _ in range(self.pieces)]
        for s in slots:
            for piece in adjacent[s]:
                takers[piece].append(s)

        def claim(piece: int, seen: set[int]) -> bool:  # a free or expendable slot for a piece that must be taken
            for s in takers[piece]:
                if s in seen:
                    continue
                seen.add(s)
                held = piece_of[s]
                if held >= 0 and held not in self.must:
                    holder[held] = -1  # a piece no one needs taken: given up
                elif held >= 0 and not claim(held, seen):  # (claimed: another slot holds it now)
                    continue
                holder[piece], piece_of[s] = s, piece
                return True
            return False

        def place(s: int, seen: set[int]) -> bool:  # Kuhn: a piece for a slot, taken pieces stay taken
            for piece in adjacent[s]:
                if piece in seen:
                    continue
                seen.add(piece)
                if holder[piece] < 0 or place(holder[piece], seen):
                    holder[piece], piece_of[s] = s, piece
                    return True
            return False

        for piece in sorted(self.must):
            if holder[piece] < 0 and not claim(piece, set()):
                return None
        for s in slots:
            if piece_of[s] < 0 and not place(s, set()):
                return None
        return piece_of

    def pool(self, matched: list[int]) -> list[int]:
        """The slots the matching gave to open windows placed again, in deal order, each on any open window whose
        card is in the pile then: open windows differ only in when their card came to the pile, so at a deal every
        idle one is as good as another and the sweep is exact. ``matched`` is changed to the sweep's windows; the
        slots that overlap a deal no open card is left for (empty: none)."""
        windows = self.windows
        jobs = sorted(
            (self.problem.slots[s][1], s) for s, piece in enumerate(matched) if windows[self.owner[piece]].kind == OPEN
        )
        if not jobs:
            return []
        opened = sorted((windows[w].start, w) for w in range(len(windows)) if windows[w].kind == OPEN)
        busy: dict[int, int] = {}  # window -> the last epoch its card is in a slot
        active: list[tuple[int, int]] = []  # (until, slot) of the placed jobs
        released = 0
        for deal, s in jobs:
            while released < len(opened) and opened[released][0] <= deal:
                busy.setdefault(opened[released][1], -1)
                released += 1
            free = [w for w, until in busy.items() if until < deal and self._fits(s, w, deal)]
            if not free:
                return [s] + [other for until, other in active if until >= deal]
            w = max(free, key=lambda w: (busy[w], w))  # (the card back last: any would do)
            matched[s] = self._piece(w, deal)
            busy[w] = self._until(s, w)
            active.append((busy[w], s))
        return []

    def not_open(self, s: int) -> set[tuple[int, int]]:
        """The slot on no open window."""
        return {(s, w) for w, window in enumerate(self.windows) if window.kind == OPEN}

    def _fits(self, s: int, w: int, deal: int) -> bool:
        """May the slot's card come from this open window (a borrowing only while the window spans its anchor)?"""
        end = self.back.get(self.problem.slots[s][0])
        return end is None or end in self.cuts[w]

    def _piece(self, w: int, deal: int) -> int:
        """The piece of a window in which a slot dealt at ``deal`` starts."""
        return self.first[w] + sum(1 for a in self.cuts[w] if a < deal)

    def _final(self, s: int, w: int) -> bool:
        """Does the slot's card stay in the hand until played (or for good), rather than come back to the pile?"""
        seat = self.problem.slots[s][0]
        window = self.windows[w]
        return seat not in self.back or (window.kind == PLAYED and window.seat == seat)

    def clash(self, matched: list[int]) -> tuple[int, int, int] | None:
        """Two slots whose cards would overlap in one window: (window, slot, slot), or None."""
        jobs: dict[int, list[tuple[int, int, int]]] = {}
        for s, piece in enumerate(matched):
            w = self.owner[piece]
            deal = self.problem.slots[s][1]
            jobs.setdefault(w, []).append((deal, self._until(s, w), s))
        for w, held in jobs.items():
            held.sort()
            for (_, until, first), (deal, _, second) in itertools.pairwise(held):
                if deal <= until:
                    return w, first, second
        return None

    def _until(self, s: int, w: int) -> int:
        """The last epoch the slot's card is in it: the play, the elimination, or for good."""
        window, seat = self.windows[w], self.problem.slots[s][0]
        if not self._final(s, w):
            return self.back[seat]
        return window.time if window.kind == PLAYED else 1 << 30

    def placed(self, matched: list[int]) -> dict[int, Placed]:
        out: dict[int, Placed] = {}
        for s, piece in enumerate(matched):
            w = self.owner[piece]
            window, seat = self.windows[w], self.problem.slots[s][0]
            if not self._final(s, w):
                out[s] = Placed(window.card, BACK, self.back[seat])
            elif window.kind == PLAYED:
                out[s] = Placed(window.card, BY_PLAY, window.time)
            else:
                end = self.problem.eliminated.get(seat)
                out[s] = Placed(window.card, IN_HAND) if end is None else Placed(window.card, GONE, end[0])
        return out


def _edf(slots: Sequence[Slot], indices: list[int], plays: list[Window]) -> dict[int, Window] | None:
    """One seat's played windows matched to its slots (``indices``, in deal order), each to a slot dealt between
    the window's start and the play: earliest deadline first. None when some window gets none."""
    if not plays:
        return {}
    ready = sorted(plays, key=lambda w: w.start)
    waiting: list[tuple[int, int, Window]] = []  # (play, order, window)
    matched: dict[int, Window] = {}
    next_play = 0
    for index in indices:
        deal = slots[index][1]
        while next_play < len(ready) and ready[next_play].start <= deal:
            heapq.heappush(waiting, (ready[next_play].time, next_play, ready[next_play]))
            next_play += 1
        if waiting and waiting[0][0] < deal:
            return None  # played before any slot still free was dealt
        if waiting:
            matched[index] = heapq.heappop(waiting)[2]
    if waiting or next_play < len(ready):
        return None
    return matched


def _returns(window: Window, elimination: int) -> bool:
    """Can a card of this window go into a slot that goes back to the pile at the end of epoch ``elimination`` and
    still meet the window's end: be in the pile at its named deal, or be dealt again before its play?"""
    if window.kind == OPEN:
        return True
    return elimination + 1 <= window.time
