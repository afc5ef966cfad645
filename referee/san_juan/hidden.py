"""Hidden cards: what a hand may hold when the record writes ``?``, and each kind's copies over time.

A card out of the supply is either in a known place (the ledger's ``located``: cities, named hand cards, named
discards, tucked and covered cards) or hidden. A hidden card in a hand is *free* (drawn as ``?``: any card with a copy
to spare; ``PlayerState.born`` keeps when it left the supply) or a *candidate* of the hand's ``Pool``: after a ``?``
left a hand, or was kept of several drawn cards, the hand holds ``held`` of the pool's candidates (named cards, and
free cards as ``wild`` ones) and the others went to the discard pile, the councillors' waiting pile or under a Chapel.

Each kind's copies are counted over time. Between two reshuffles cards only leave the supply, so a kind's copies out
of the supply are highest just before the discard pile is shuffled back: the ledger keeps, at every reshuffle, a lower
bound of each kind's copies out of the supply (``peaks``). A hidden card named later was out of the supply since it
left it, as that kind: naming it adds one copy at every reshuffle since (``retro``), and no kind may ever exceed its
copies. A pool's named candidates count as out of the supply while they are (``Pool.lower``).

The draft (``HandDraft``) is a working copy of one hand's hidden part: a statement's cards are taken from it and
added to it one by one, each checked; the ledger commits it when the whole statement is legal.

Where the record leaves a choice the referee cannot make without a search — which of several candidates a named card
was, when they differ in kind and in when they left the supply — it takes a description that covers every choice
(never rejecting a legal record) and notes why its judgement is no longer exact (``inexact``); docs/san-juan.md lists
these cases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from referee.errors import IllegalStatement
from referee.san_juan.base import Pool, SJBase, tally
from referee.san_juan.codes import SJCode

# Why a judgement stopped being exact (``SJBase.inexact``; docs/san-juan.md, "Hidden cards: the limits").
MERGED = "a hand's candidates were merged into one pool"
AGES = "unknown cards of one hand that left the supply at different times were named"
GONE = "a card was named from candidates that differ in kind and in when they left the supply"
THROUGH = "candidates of several kinds stayed in a hand through a reshuffle"
TWICE = "face-down cards were out of the supply at two reshuffles"
UNCOUNTED = "face-down cards were out of the supply at a reshuffle while a hand held candidates"
GOLD_MINE = "a Gold Mine kept a card while unnamed cards were turned up"
READINGS = "a keep named a '?' drawn before or after a reshuffle in the same draw"

# Where a card that left a hand as '?' went: the discard pile, the councillors' waiting pile, under a Chapel.
DISCARD, WAITING, TUCKED = "discard", "waiting", "tucked"


def out_of_supply(state: SJBase, name: str) -> int:
    """Copies of ``name`` certainly out of the supply: in known places, and the pools' candidates certainly out."""
    return state.located.get(name, 0) + state.pooled.get(name, 0)


def pooled_counts(pools: list[Pool]) -> Counter:
    """The pools' candidates certainly out of the supply, by name (``SJBase.pooled``: kept whenever a pool changes)."""
    counts: Counter = Counter()
    for pool in pools:
        for name in pool.by_name:
            lower = pool.lower(name)
            if lower:
                counts[name] += lower
    return counts


def when(state: SJBase, epoch: int) -> str:
    """`` in round N``: when the reshuffle that ended ``epoch`` happened."""
    return f" in round {state.reshuffle_rounds[epoch]}" if epoch < len(state.reshuffle_rounds) else ""


def whereabouts(state: SJBase, name: str) -> str:
    """Where the copies of ``name`` out of the supply are, as far as the record says."""
    where = []
    for player in state.p:
        k = player.owned[name] + player.hand_known[name]
        if k:
            where.append(f"{player.name} {k}")
    for player in state.p:
        if player.tucked_known[name]:
            where.append(f"under {player.name}'s Chapel {player.tucked_known[name]}")
    for pool in state.pools:
        if pool.lower(name):
            where.append(f"{state.p[pool.owner].name}'s hand or the cards that left it unnamed {pool.lower(name)}")
    for label, counter in (
        ("discard pile", state.discard_known),
        ("covered", state.under_known),
        ("waiting discard", state.pending_known),
    ):
        if counter[name]:
            where.append(f"{label} {counter[name]}")
    return ", ".join(where) or "none"


def _add_all(counter: Counter, added: dict) -> None:
    """``counter.update(added)`` without ``Counter.update``'s Python-level call."""
    for key, k in added.items():
        counter[key] = counter.get(key, 0) + k


def _drop(counter: Counter, key: object, k: int = 1) -> None:
    """``counter[key] -= k``, no entry left at zero."""
    value = counter[key] - k
    if value > 0:
        counter[key] = value
    else:
        del counter[key]


class HandDraft:
    """One hand's hidden part while a statement is checked: every change here, none in the state until the ledger
    commits it (``Ledger._commit``).

    ``located``, ``peaks`` and ``places`` collect what the statement changes elsewhere: copies newly in a known place,
    copies added at past reshuffles (``(epoch, name)``), and candidates found to be in a pile or under a Chapel."""

    def __init__(self, ledger: SJBase, seat: int, reshuffled: bool = False) -> None:
        """``reshuffled``: the statement's draw shuffles the discard pile into the supply before the cards reach the
        hand (a councillor's or a Gold Mine's keep)."""
        self.ledger = ledger
        self.seat = seat
        player = ledger.p[seat]
        self.name = player.name
        self.known = tally(player.hand_known)
        self.born = tally(player.born)
        self.pool = player.pool.copy() if player.pool is not None else None
        self.detached: list[Pool] = []  # pools of this hand that hold none of its cards but still count copies
        self.reshuffled = reshuffled
        self.revealed_down = 0  # face-down cards out since the last reshuffle named now (no longer face down)
        self.down = (0, 0)  # what the draft changes in the ledger's room for them (``Ledger._check_draft``)
        self.epoch = ledger.epoch + reshuffled  # the epoch the statement's cards reach the hand in
        if reshuffled and self.pool is not None:
            self.pool.reshuffled(ledger.epoch)
        self.located: Counter = tally()
        self.peaks: Counter = tally()
        self.places: dict[str, Counter] = {}  # place -> named candidates found there
        self.inexact: str | None = None  # why this draft's description is wider than the record allows

    # ------------------------------------------------------------------------------------------ counting
    def out_now(self, name: str) -> int:
        """Copies of ``name`` certainly out of the supply, with this draft's changes (after the statement's
        reshuffle, if it has one)."""
        ledger = self.ledger
        own = ledger.p[self.seat].pool
        count = ledger.located[name] + self.located[name]
        if self.reshuffled:
            count -= ledger.discard_known[name]
            for pool in ledger.pools:
                if pool is not own:
                    count += max(pool.count(name) - pool.gone - pool.away, 0)
        else:  # the ledger's pools as it counts them, this hand's own as the draft has it
            count += ledger.pooled.get(name, 0) - (own.lower(name) if own is not None else 0)
        if self.pool is not None:
            count += self.pool.lower(name)
        for pool in self.detached:
            count += pool.lower(name)
        return count

    def peak(self, epoch: int, name: str) -> int:
        peaks = self.ledger.peaks[epoch]
        return (peaks[name] if peaks is not None else 0) + self.peaks[epoch, name]

    def _charge(self, name: str, retro: Iterable[int], column: int, why: Callable[[], str]) -> None:
        """``name`` was out of the supply at the reshuffles ``retro`` as well: one more copy at each, and now."""
        ledger = self.ledger
        copies = ledger.cards[name].copies
        for epoch in retro:
            if epoch >= len(ledger.peaks):  # the statement's own reshuffle, still to come: counted when it comes
                continue
            if self.peak(epoch, name) + 1 > copies:
                raise self._cannot_be(name, epoch, column, why())
            self.peaks[epoch, name] += 1
        if self.out_now(name) > copies:
            raise self._cannot_be(name, None, column, why())

    def _widen(self, reason: str) -> None:
        """The description now covers more than the record allows (the first reason is kept)."""
        if self.inexact is None:
            self.inexact = reason

    def _revealed(self, birth: int) -> None:
        """A free card that left the supply in epoch ``birth`` is named: if it was out at the last reshuffle, it is no
        longer one of the face-down cards kept through it."""
        if birth < self.ledger.epoch and self.ledger.down_peak is not None:
            self.revealed_down += 1

    def ends_down(self) -> bool:
        """The ledger stops counting the face-down cards' room with this draft: it leaves a pool of candidates, or
        it covered a choice it could not make."""
        return self.inexact is not None or self.pool is not None or bool(self.detached)

    def down_change(self) -> tuple[int, int]:
        """What this draft changes in the room left for the face-down cards kept through the last reshuffle
        and the copies out of the supply beyond that reshuffle's peak (``Ledger._down_fits``): copies named at that
        reshuffle take room, face-down cards named give it back."""
        ledger = self.ledger
        peak = ledger.down_peak
        if peak is None or self.reshuffled:
            return 0, 0
        last = ledger.epoch - 1
        names = set(self.located) | {name for epoch, name in self.peaks if epoch == last}
        for pool in (self.pool, ledger.p[self.seat].pool, *self.detached):
            if pool is not None:
                names |= pool.names()
        short = 0
        for name in names:
            before = out_of_supply(ledger, name) - peak[name]
            after = self.out_now(name) - peak[name] - self.peaks[last, name]
            short += max(after, 0) - max(before, 0)
        retro = sum(k for (epoch, _), k in self.peaks.items() if epoch == last)
        return self.revealed_down - retro, short

    def _cannot_be(self, name: str, epoch: int | None, column: int, why: str) -> IllegalStatement:
        """A hidden card of this hand cannot be ``name``: too many copies out of the supply now, or at the reshuffle
        that ended ``epoch``."""
        ledger = self.ledger
        copies = ledger.cards[name].copies
        if epoch is None:
            where = whereabouts(ledger, name)
            named_here = self.located[name] - 1  # this statement's own earlier names of it (the last is this one)
            if named_here > 0:
                where = ("" if where == "none" else f"{where}, ") + f"named before on this line {named_here}"
            return ledger.fail(
                SJCode.NOT_IN_HAND,
                f"{self.name} is not known to hold {name} and all {copies} copies are accounted for elsewhere "
                f"({where})",
                column,
            )
        return ledger.fail(
            SJCode.NOT_IN_HAND,
            f"{why} when the discard pile was shuffled into the supply{when(ledger, epoch)}, and all {copies} copies "
            f"of {name} were out of the supply then: none of them is a {name}",
            column,
        )

    def _since(self, birth: int) -> range:
        """The reshuffles a card that left the supply in epoch ``birth`` has been out of it at."""
        return range(birth, self.epoch)

    def _named_retro(self, pool: Pool, name: str, joined: int) -> list[int]:
        """The reshuffles at which a named candidate (joined in epoch ``joined``), if it is the one in the hand, was
        not counted by the pool's lower bound (every candidate of its name may have been among the gone ones)."""
        return [epoch for epoch, gone, named in pool.history if epoch >= joined and named[name] <= gone]

    # ------------------------------------------------------------------------------------------ taking cards out
    def take(self, name: str, column: int, what: str) -> None:
        """A named card leaves the hand (built, paid, tucked or discarded by name)."""
        known = self.known
        if known[name]:
            _drop(known, name)
            return
        pool = self.pool
        in_pool = pool is not None and pool.held > 0 and (bool(pool.wild) or pool.count(name) > 0)
        free = bool(self.born)
        if not in_pool and not free:
            raise self.ledger.fail(SJCode.NOT_IN_HAND, f"{self.name} holds no {name} (hand: {self.text()})", column)
        if in_pool and free and not self._free_may_be(name):
            free = False  # every copy is elsewhere: it is the pool's candidate, exactly
        if in_pool and free:
            self._merge_free()  # which of them it was stays open
        self.located[name] += 1  # in a known place from now on (counted before it is charged)
        if in_pool:
            self._name_candidate(name, column)
        else:
            self._name_free(name, column)
        self.normalize(column)

    def _free_may_be(self, name: str) -> bool:
        """Whether one of the hand's free cards may be a ``name``: a copy was left in the supply when the youngest
        left it, and at every reshuffle since (the test ``_charge`` makes when a free card is named)."""
        copies = self.ledger.cards[name].copies
        if self.out_now(name) + 1 > copies:
            return False
        last = len(self.ledger.peaks)
        return all(self.peak(epoch, name) + 1 <= copies for epoch in self._since(max(self.born)) if epoch < last)

    def _merge_free(self) -> None:
        """The hand's free cards become wild candidates of its pool (a description covering both: not exact)."""
        assert self.pool is not None
        _add_all(self.pool.wild, self.born)
        self.pool.held += sum(self.born.values())
        self.born.clear()
        self._widen(MERGED)

    def _name_free(self, name: str, column: int) -> None:
        """A free card is named: it was that card since it left the supply. With free cards of several ages the one
        that left last is charged (the least) and the oldest leaves (the most constrained): covers every choice."""
        born = self.born
        latest, oldest = max(born), min(born)
        if latest != oldest:
            self._widen(AGES)
        self._charge(
            name,
            self._since(latest),
            column,
            lambda: f"{self.name}'s unknown cards were all in the hand already",
        )
        _drop(born, oldest)
        self._revealed(oldest)

    def _name_candidate(self, name: str, column: int) -> None:
        """A candidate of the pool is named: a named candidate when that covers every choice, else a wild one of one
        age; otherwise the referee keeps every candidate and counts one as gone (not exact)."""
        pool = self.pool
        assert pool is not None
        joined = max((j for (n, j), k in pool.named.items() if n == name and k), default=None)
        births = sorted(b for b, k in pool.wild.items() if k)

        def why() -> str:
            return f"{self.name}'s cards that could be a {name} ({pool.text()}) were all out of the supply already"

        if joined is None:  # wild candidates only
            if births[0] != births[-1]:
                self._widen(AGES)  # of several ages: the oldest leaves, the youngest is charged
            _drop(pool.wild, births[0])
            pool.held -= 1
            self._revealed(births[0])
            self._charge(name, self._since(births[-1]), column, why)
            return
        named_retro = self._named_retro(pool, name, joined)
        if not births or not named_retro or min(named_retro) >= births[-1]:
            self._drop_named(pool, name, joined)
            pool.held -= 1
            self._charge(name, named_retro, column, why)
            return
        self._widen(GONE)
        # a named candidate or a younger wild one: keep all, count one as gone, charge what both would
        pool.held -= 1
        pool.gone += 1
        self._charge(name, [e for e in named_retro if e >= births[-1]], column, why)

    def take_unknown(self, column: int, place: str = DISCARD) -> None:
        """A ``?`` leaves the hand (paid, tucked or discarded unnamed) to ``place``: it may have been any card."""
        known, born = self.known, self.born
        pool = self.pool
        if pool is None or pool.held == 0:
            if not known:  # only free cards: the oldest goes (a younger one can do all it could)
                _drop(born, min(born))
                return
            pool = self.pool = Pool(self.seat, tally(), tally(), by_name=tally())
        elif sum(known.values()) + sum(born.values()) >= 2 or (known and pool.gone):
            self._widen(MERGED)  # the union of both descriptions covers more than the hand may hold
        for name, k in known.items():
            pool.add_named(name, self.epoch, k)
            self.located[name] -= k
        _add_all(pool.wild, born)
        pool.held += sum(known.values()) + sum(born.values())
        known.clear()
        born.clear()
        pool.held -= 1
        if place == DISCARD:
            pool.away += 1
        elif place == WAITING:
            pool.waiting += 1
        else:
            pool.fixed += 1
        self.normalize(column)

    # ------------------------------------------------------------------------------------------ adding cards
    def add_known(self, names: dict[str, int]) -> None:
        for name, k in names.items():
            self.known[name] += k
            self.located[name] += k

    def add_pool(self, named: dict[str, int], wild: Counter, held: int, place: str, column: int) -> None:
        """``held`` of the cards ``named`` and ``wild`` (drawn now; by the epoch they left the supply) are kept; the
        others went to ``place``."""
        away = sum(named.values()) + sum(wild.values()) - held
        pool = self.pool
        if pool is None or pool.held == 0:
            pool = self.pool = Pool(self.seat, tally(), tally(), by_name=tally())
        else:
            self._widen(MERGED)  # two open descriptions of one hand become one
        for name, k in named.items():
            pool.add_named(name, self.epoch, k)
        _add_all(pool.wild, wild)
        pool.held += held
        if place == DISCARD:
            pool.away += away
        elif place == WAITING:
            pool.waiting += away
        else:
            pool.fixed += away
        self.normalize(column)

    # ------------------------------------------------------------------------------------------ what is certain
    def normalize(self, column: int) -> None:
        """Take out of the pool what is certain: candidates the hand must hold (``held`` so large that every choice
        includes them) and those a pile must hold; a pool of one kind of candidate, or of none in the hand, ends."""
        pool = self.pool
        if pool is None:
            return
        by_name = pool.by_name
        while by_name:
            total = pool.total()
            top = max(by_name.values())
            if top + pool.held > total:  # every choice of the held cards includes these: named from the pool
                name, k = next((name, k) for name, k in by_name.items() if k + pool.held > total)
                for _ in range(k + pool.held - total):
                    self._name_candidate_forced(name, column)
                continue
            if pool.gone:
                break
            busy = [(place, count) for place, count in ((DISCARD, pool.away), (WAITING, pool.waiting)) if count]
            if pool.fixed:
                busy.append((TUCKED, pool.fixed))
            if len(busy) != 1 or top + busy[0][1] <= total:
                break
            place, count = busy[0]  # every candidate not held is in that one place: these are there
            name, k = next((name, k) for name, k in by_name.items() if k + count > total)
            self._place_candidates(name, k + count - total, place)
        if not pool.named:  # only wild candidates: the hand holds that many free cards
            births = sorted(b for b, k in pool.wild.items() for _ in range(k))
            if pool.held:
                if births[0] != births[-1]:
                    self._widen(AGES)  # the youngest are kept: they can do all the older ones could
                for birth in births[len(births) - pool.held :]:
                    self.born[birth] += 1
            self.pool = None
            return
        if pool.held == 0:
            self.pool = None
            if pool.out():  # candidates still out of the supply somewhere: the pool still counts them
                self.detached.append(pool)

    @staticmethod
    def _drop_named(pool: Pool, name: str, joined: int) -> None:
        """A named candidate leaves the pool (named, or found in a pile): it leaves the counts kept at the reshuffles
        since it joined too (new counts: a pool's copy shares them with the pool it was copied from)."""
        pool.drop_named(name, joined)
        history = pool.history
        for index, (epoch, gone, named) in enumerate(history):
            if epoch >= joined:
                named = Counter(named)
                _drop(named, name)
                history[index] = (epoch, gone, named)

    def _name_candidate_forced(self, name: str, column: int) -> None:
        """A candidate every choice keeps in the hand: it is a known hand card from now on."""
        pool = self.pool
        assert pool is not None
        joined = max(j for (n, j), k in pool.named.items() if n == name and k)
        retro = self._named_retro(pool, name, joined)
        self._drop_named(pool, name, joined)
        pool.held -= 1
        self.known[name] += 1
        self.located[name] += 1
        self._charge(
            name,
            retro,
            column,
            lambda: f"{self.name}'s hand must still hold a {name}, which was out of the supply already",
        )

    def _place_candidates(self, name: str, count: int, place: str) -> None:
        """Candidates every choice puts in ``place``: known cards there (they were counted already)."""
        pool = self.pool
        assert pool is not None
        for _ in range(count):
            joined = min(j for (n, j), k in pool.named.items() if n == name and k)
            self._drop_named(pool, name, joined)
        if place == DISCARD:
            pool.away -= count
        elif place == WAITING:
            pool.waiting -= count
        else:
            pool.fixed -= count
        self.places.setdefault(place, Counter())[name] += count
        self.located[name] += count

    # ------------------------------------------------------------------------------------------ text
    def text(self) -> str:
        parts = [name for name, k in sorted(self.known.items()) for _ in range(k)]
        if self.pool is not None and self.pool.held:
            parts.append(self.pool.text())
        free = sum(self.born.values())
        if free:
            parts.append(f"{free} unknown")
        return ", ".join(parts) or "-"
