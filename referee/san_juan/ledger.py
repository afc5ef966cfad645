"""The hidden-card ledger: where San Juan's 110 cards are, as far as the record says.

A record names the cards it knows and writes ``?`` for the others. The ledger tracks each hand as named cards, free
unknown cards (by the epoch they left the supply) and a pool of candidates (``hidden.py``), the discard pile as named
cards plus unknown ones, the supply as a count, goods as face-down cards of unknown identity, and ``located``: how many
copies of each name sit in a *known* place (cities, named hand cards, the named part of the discard pile, tucked,
covered and waiting cards). With the pools' candidates (``Pool.lower``) that is a lower bound of each name's copies
out of the supply; no name may ever be drawn, dealt or played beyond its copies — now, and at every reshuffle a hidden
card named later was out of the supply at (``peaks``, ``hidden.py``).

When the discard pile is shuffled into a new supply (``_reshuffle``) its named cards become unknown again; the copies
out of the supply just then are kept (``peaks``) while hidden cards stay out through it, and the face-down cards that
do are held to them (``copies.py``).

Checks (``_check_draws``, ``_plan_removal``, ``_plan_keeps``) change nothing; the matching moves (``_draw_into_hand``,
``_remove``, ``_take_kept``) carry out what was checked, so a rejected statement leaves the ledger as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from referee.errors import IllegalStatement
from referee.record import NameRef
from referee.san_juan.codes import SJCode
from referee.san_juan.copies import Copies
from referee.san_juan.hidden import (
    DISCARD,
    READINGS,
    THROUGH,
    TWICE,
    WAITING,
    HandDraft,
    pooled_counts,
    whereabouts,
)
from referee.san_juan.notation import UNKNOWN


@dataclass(slots=True)
class Removal:
    """Cards leaving a hand (checked, not yet applied): the named cards taken from its known part; named and ``?``
    cards taken from its unknown part when that is all the hand hides and all left the supply in one epoch (``free``,
    ``blanks``, ``birth``: ``Ledger._plan_unknown_removal``); or else the hand's whole hidden part worked out card by
    card (``draft``)."""

    from_known: dict[str, int]
    draft: HandDraft | None = None
    free: dict[str, int] | None = None  # named cards from the unknown part, all of one epoch (``birth``)
    blanks: int = 0  # '?' cards from the unknown part
    birth: int = 0


@dataclass(slots=True)
class KeepPlan:
    """Where drawn cards go when some are kept (checked, not yet applied): named cards and unknown ones (by the epoch
    they left the supply) to the hand, the rest to the discard pile; or a ``draft`` of the hand when the kept cards are
    some of several (a pool)."""

    known: dict[str, int]
    free: dict[int, int]  # unknown cards kept, by the epoch they left the supply
    discard_known: dict[str, int]
    discard_unknown: int
    draft: HandDraft | None = None
    open_reading: bool = False  # the record left open which drawn '?' cards the named keeps were (``_keep_draws``)


def _add(counter: Counter, name: object, k: int) -> None:
    """``counter[name] += k`` with no entry left at zero (``+counter`` without the copy)."""
    value = counter.get(name, 0) + k
    if value:
        counter[name] = value
    else:
        counter.pop(name, None)  # ``del counter[name]`` without Counter's Python-level __delitem__


def add_counts(counter: Counter, added: dict[str, int]) -> None:
    """``counter += Counter(added)`` without making a Counter: add, then drop every entry not above 0 (as
    ``Counter.__iadd__`` does, so the keys stay in the same order)."""
    for name, k in added.items():
        counter[name] = counter.get(name, 0) + k
    _keep_positive(counter)


def subtract_counts(counter: Counter, taken: dict[str, int]) -> None:
    """``counter -= Counter(taken)`` without making a Counter (as ``Counter.__isub__`` does)."""
    for name, k in taken.items():
        counter[name] = counter.get(name, 0) - k
    _keep_positive(counter)


def _tally(items: list[int]) -> dict[int, int]:
    """``Counter(items)`` as a plain dict (a Counter costs a Python-level ``__init__``)."""
    tally: dict[int, int] = {}
    for item in items:
        tally[item] = tally.get(item, 0) + 1
    return tally


def _keep_positive(counter: Counter) -> None:
    """Drop every entry not above 0 (``Counter._keep_positive``, a private method of ``Counter``)."""
    dropped = [name for name, k in counter.items() if not k > 0]
    for name in dropped:
        counter.pop(name)


class Ledger(Copies):
    """Supply, discard pile, hands and the known places of every card: draws, discards and their checks."""

    @property
    def discard_size(self) -> int:
        return self.discard_unknown + sum(self.discard_known.values())

    def available(self) -> int:
        """Cards that can still be drawn: the supply, then the discard pile shuffled into a new supply."""
        return self.supply + self.discard_size

    def capped(self, wanted: int, extra: int = 0) -> int:
        """Cards a draw of ``wanted`` really yields: fewer when supply and discard pile run out ([D11])."""
        if self.supply + extra >= wanted:  # the supply alone yields it: no need to count the discard pile
            return wanted
        return min(wanted, self.available() + extra)

    def _check_count(self, due: int, wanted: int, written: int, column: int, why: str | Callable[[], str]) -> None:
        """The number of cards a draw takes: ``due`` (``wanted`` capped by what remains), written ``written``; ``why``
        says what earns the draw (built only for the message)."""
        if due < wanted and not self.options.empty_supply_skips_draw:
            reason = why if isinstance(why, str) else why()
            raise self.fail(SJCode.SUPPLY_EMPTY, f"{reason}, but only {due} remain in supply and discard pile", column)
        if written != due:
            reason = why if isinstance(why, str) else why()
            short = f" (only {due} remain in supply and discard pile)" if due < wanted else ""
            raise self.fail(SJCode.DRAW_COUNT, f"{reason}{short}; the record draws {written}", column)

    def card_count(self) -> int:
        """Every card somewhere: the conservation invariant says this is always 110."""
        return (
            self.supply
            + self.discard_size
            + self.pending_unknown
            + sum(self.pending_known.values())
            + sum(p.hand_size + len(p.city) + p.goods_total + p.tucked for p in self.p)
            + sum(self.under_known.values())
        )

    # --------------------------------------------------------------------------------------------- drawing
    def _check_draws(self, refs: tuple[NameRef, ...], extra_discard: int = 0) -> None:
        """Validate that the named cards can come off the supply (reshuffling the discard pile when it runs out):
        within their copies, and leaving room for the face-down cards kept through the last reshuffle."""
        supply, discard = self.supply, -1  # the discard pile's size, counted when the supply runs out
        reshuffled = False
        seen: dict[str, int] = {}
        cards, located, pooled = self.cards, self.located, self.pooled
        before: dict[str, int] = {}  # named cards drawn before the supply runs out
        for ref in refs:
            if supply == 0:
                if discard < 0:
                    discard = self.discard_size + extra_discard
                supply, discard, reshuffled = discard, 0, True
                before = dict(seen)
                self._check_down_reshuffle(refs, self.supply, before, extra_discard)  # at the card self.supply
            supply -= 1
            name = ref.name
            if name == UNKNOWN:
                continue
            count = seen[name] = seen.get(name, 0) + 1
            # ``_out_of_supply``; with no pool and no reshuffle without the Counters' missing-key calls
            base = self._out_of_supply(name, True) if reshuffled else located.get(name, 0) + pooled.get(name, 0)
            if base + count > cards[name].copies:
                raise self._exhausted(ref)
        if self.down_peak is not None and self.down_room - self.down_short < len(refs):  # else room enough
            drawn = before if reshuffled else seen
            if drawn and not self._down_fits(drawn):
                raise self._down_failed(refs[0].column, SJCode.CARD_EXHAUSTED)

    def _exhausted(self, ref: NameRef) -> IllegalStatement:
        card = self.cards[ref.name]
        return self.fail(
            SJCode.CARD_EXHAUSTED,
            f"all {card.copies} copies of {card.name} are already accounted for ({whereabouts(self, card.name)})",
            ref.column,
        )

    def _reshuffle(self, drawn: Counter | None = None, hidden: int = 0) -> None:
        """The discard pile becomes the new supply; its named cards are unknown again. While hidden cards stay out of
        the supply through it, each name's copies out of the supply just now are kept (``peaks``; ``drawn``: named
        cards this statement drew before the supply ran out, not yet in a known place; ``hidden``: cards it drew
        unnamed before)."""
        down = self._down_cards(hidden)
        if self.down_peak is not None and self.down_count > 0:
            self.widen(TWICE)  # their kinds are not followed from one reshuffle to the next
        if down or any(player.hand_forgotten for player in self.p):
            peak = Counter(self.located)
            if drawn:
                peak.update(drawn)
            for pool in self.pools:
                for name in pool.names():
                    peak[name] += pool.lower(name)
            self.peaks.append(peak)
        else:  # no hidden card can be named later as one out of the supply now
            peak = None
            self.peaks.append(None)
        if peak is not None and down and not self.pools:
            self.down_peak, self.down_count, self.down_short = peak, down, 0
            self.down_room = self.total_copies - sum(peak.values()) - down
        else:  # with pools, the copies out are known only as lower bounds: the room is not counted
            self.down_peak, self.down_count, self.down_room, self.down_short = None, down, 0, 0
            self._end_down()
        self.reshuffle_rounds.append(self.round)
        if self.pools:
            for pool in self.pools:
                if pool.away and len(pool.names()) + bool(pool.wild) > 1:
                    self.widen(THROUGH)  # the candidates that stay: some of several kinds, each kind counted alone
                pool.reshuffled(self.epoch)
            self.pools = [pool for pool in self.pools if pool.held or pool.waiting or pool.fixed]
            self.pooled = pooled_counts(self.pools)
        for name, k in self.discard_known.items():
            self.located[name] -= k
        self.supply = self.discard_size
        self.discard_known = Counter()
        self.discard_unknown = 0
        self.epoch += 1

    def _draw(self, count: int, refs: tuple[NameRef, ...] = ()) -> None:
        """``count`` cards off the supply (``refs``: what the record calls them, when they go through a keep)."""
        if self.supply >= count:  # no reshuffle on the way
            self.supply -= count
            return
        for index in range(count):
            if self.supply == 0:
                drawn = Counter(ref.name for ref in refs[:index] if ref.name != UNKNOWN)
                self._reshuffle(drawn, index - sum(drawn.values()))  # unnamed: '?' cards, goods
            self.supply -= 1

    def _draw_into_hand(self, seat: int, refs: tuple[NameRef, ...]) -> None:
        player = self.p[seat]
        known, located = player.hand_known, self.located
        peak = self.down_peak
        for ref in refs:
            if self.supply == 0:
                self._reshuffle()
                peak = self.down_peak
            self.supply -= 1
            name = ref.name
            if name == UNKNOWN:
                player.hand_unknown += 1
                player.born[self.epoch] += 1
            else:  # ``+= 1`` on the Counters, without their missing-key calls
                known[name] = known.get(name, 0) + 1
                out = located[name] = located.get(name, 0) + 1
                if peak is not None:  # ``_note_out``, without the call when no pool counts copies too
                    if self.pools:
                        self._note_out(name)
                    elif out > peak.get(name, 0):
                        self.down_short += 1

    # -------------------------------------------------------------------------------------------- discarding
    def _to_discard(self, ref: NameRef, pending: bool = False) -> None:
        """A known-place card (still counted in ``located``) or a ``?`` goes to the discard pile."""
        name = ref.name
        if pending:
            if name == UNKNOWN:
                self.pending_unknown += 1
            else:
                self.pending_known[name] += 1
        elif name == UNKNOWN:
            self.discard_unknown += 1
        else:
            known = self.discard_known
            known[name] = known.get(name, 0) + 1

    def _to_discard_all(self, refs: tuple[NameRef, ...], pending: bool = False) -> None:
        """``_to_discard`` for each card of a payment or a discard, in one call."""
        if pending:
            for ref in refs:
                self._to_discard(ref, True)
            return
        known = self.discard_known
        for ref in refs:
            name = ref.name
            if name == UNKNOWN:
                self.discard_unknown += 1
            else:
                known[name] = known.get(name, 0) + 1

    def _discard_goods(self, count: int) -> None:
        """Goods are face-down cards: they go to the discard pile unknown."""
        self.discard_unknown += count

    def _flush_pending(self) -> None:
        """At the phase end the councillors' waiting discards join the discard pile ([D6])."""
        if self.pending_known or self.pending_unknown:
            self.discard_known += self.pending_known
            self.discard_unknown += self.pending_unknown
            self.pending_known, self.pending_unknown = Counter(), 0
            for pool in self.pools:
                pool.away += pool.waiting
                pool.waiting = 0

    # ------------------------------------------------------------------------------------- cards leaving a hand
    def _plan_removal(self, seat: int, refs: tuple[NameRef, ...], what: str, place: str = DISCARD) -> Removal:
        """Check that the cards can leave the player's hand (for ``place``, where its ``?`` cards go) and work out the
        hand that remains. Named cards of its known part leave at once; any other card goes through a draft of the
        hand's hidden part (``hidden.HandDraft``). Nothing changes here: ``_remove`` carries the plan out."""
        player = self.p[seat]
        if len(refs) > player.hand_size:
            raise self.fail(
                SJCode.NOT_IN_HAND,
                f"{player.name} holds {player.hand_size} card(s); {what} needs {len(refs)}",
                refs[player.hand_size].column,
            )
        known = player.hand_known
        from_known: dict[str, int] = {}
        for ref in refs:
            name = ref.name
            taken = from_known.get(name, 0)
            if name == UNKNOWN or known.get(name, 0) <= taken:
                break
            from_known[name] = taken + 1
        else:  # every card is a named card of the known part (the common case)
            return Removal(from_known)
        plan = self._plan_unknown_removal(seat, refs)
        if plan is not None:
            return plan
        draft = HandDraft(self, seat)
        for ref in refs:
            if ref.name != UNKNOWN:
                draft.take(ref.name, ref.column, what)
        for ref in refs:
            if ref.name == UNKNOWN:
                draft.take_unknown(ref.column, place)
        self._check_draft(draft, refs[0].column)
        return Removal({}, draft)

    def _plan_unknown_removal(self, seat: int, refs: tuple[NameRef, ...]) -> Removal | None:
        """``HandDraft``'s result, worked out directly in the common case of a hand with no pool whose unknown cards
        all left the supply in one epoch: named cards from the known part, then from the unknown part (charged since
        that epoch), ``?`` cards from the unknown part once no known card is left. None when the case is another or a
        check fails (the draft then says why)."""
        player = self.p[seat]
        born = player.born
        if player.pool is not None or len(born) > 1:
            return None
        known = player.hand_known
        from_known: dict[str, int] = {}
        free: dict[str, int] = {}
        blanks = 0
        for ref in refs:
            name = ref.name
            if name == UNKNOWN:
                blanks += 1
                continue
            taken = from_known.get(name, 0)
            if known.get(name, 0) > taken:
                from_known[name] = taken + 1
            else:
                free[name] = free.get(name, 0) + 1
        if blanks and sum(known.values()) > sum(from_known.values()):
            return None  # a '?' that may be a known card: a pool
        if sum(free.values()) + blanks > player.hand_unknown:
            return None
        birth = next(iter(born), self.epoch)
        cards, peaks = self.cards, self.peaks
        for name, k in free.items():
            copies = cards[name].copies
            if self._out_of_supply(name, False) + k > copies:
                return None
            for epoch in range(birth, self.epoch):
                peak = peaks[epoch]
                if peak is None or peak[name] + k > copies:
                    return None
        down = free and self.down_peak is not None and birth == self.epoch  # not kept through the last reshuffle
        if down and not self._down_fits(free):
            return None
        return Removal(from_known, free=free, blanks=blanks, birth=birth)

    def _check_draft(self, draft: HandDraft, column: int) -> None:
        """A draft leaves room for the face-down cards kept through the last reshuffle; the change is kept for
        ``_commit``. A draft with a pool of candidates, or one that covered a choice it could not make, ends that
        count (its lower bounds are not what the room was counted from): no check, and the judgement is no longer
        exact."""
        if self.down_peak is None or draft.ends_down():
            return
        draft.down = draft.down_change()
        room, short = draft.down
        if (room or short) and not self._down_fits({}, room, short):
            raise self._down_failed(column, SJCode.NOT_IN_HAND)

    def _remove(self, seat: int, plan: Removal) -> None:
        if plan.draft is not None:
            self._commit(plan.draft)
            return
        player = self.p[seat]
        known = player.hand_known
        for name, k in plan.from_known.items():  # _add(known, name, -k)
            value = known.get(name, 0) - k
            if value:
                known[name] = value
            else:
                known.pop(name, None)
        if plan.free is None:
            return
        # ``_plan_unknown_removal``'s cards from the unknown part (``HandDraft.take`` / ``take_unknown`` in short)
        gone = sum(plan.free.values()) + plan.blanks
        _add(player.born, plan.birth, -gone)
        player.hand_unknown -= gone
        for name, k in plan.free.items():
            for epoch in range(plan.birth, self.epoch):
                peaks = self.peaks[epoch]
                assert peaks is not None  # the hand held these cards then
                peaks[name] += k
            _add(self.located, name, k)
        if self.down_peak is not None and plan.free:
            if plan.birth < self.epoch:  # out at the last reshuffle: named, no longer face down, counted there too
                self.down_count -= sum(plan.free.values())
            else:
                for name, k in plan.free.items():
                    self._note_out(name, k)

    def _commit(self, draft: HandDraft) -> None:
        """Put a checked draft of a hand in place: the hand, its pool, the copies counted now and at past
        reshuffles, the candidates found in a pile or under a Chapel."""
        player = self.p[draft.seat]
        player.hand_known = draft.known
        player.born = draft.born
        player.hand_unknown = sum(draft.born.values())
        old = player.pool
        pools = [pool for pool in self.pools if pool is not old]
        pool = draft.pool if draft.pool is not None and draft.pool.held else None
        if pool is not None:
            pools.append(pool)
        pools.extend(draft.detached)
        self.pools = pools
        self.pooled = pooled_counts(pools)
        player.pool = pool
        player.hand_forgotten = pool.held if pool is not None else 0
        located = self.located
        for name, k in draft.located.items():
            if k:
                _add(located, name, k)
        for (epoch, name), k in draft.peaks.items():
            peaks = self.peaks[epoch]
            assert peaks is not None  # a hand held hidden cards then
            peaks[name] += k
        for place, names in draft.places.items():
            for name, k in names.items():
                if place == DISCARD:
                    self.discard_known[name] += k
                    self.discard_unknown -= k
                elif place == WAITING:
                    self.pending_known[name] += k
                    self.pending_unknown -= k
                else:  # tucked: the tucked count holds them already
                    player.tucked_known[name] += k
        if draft.inexact is not None:
            self.widen(draft.inexact)
        if self.down_peak is not None:
            if draft.ends_down():
                self._end_down()
            else:
                room, short = draft.down
                self.down_room += room
                self.down_short += short
                self.down_count -= draft.revealed_down

    # ------------------------------------------------------------------------------------------ drawn and kept
    def _keep_draws(self, draws: tuple[NameRef, ...], keeps: tuple[NameRef, ...]) -> tuple[tuple[NameRef, ...], bool]:
        """The drawn cards with the ``?`` cards a named keep names written by that name (at the keep's column),
        checked (``_check_draws``); and whether the record left open which ``?`` cards they were.

        A named keep is a drawn card of its name, else a drawn ``?`` — the last ones drawn, the least they can have
        been out of the supply. When the supply runs out during the draw, a keep may be a card drawn before the
        reshuffle or after it: each reading is tried (the first that is legal is taken). A keep matching no drawn
        card is left for ``_plan_keeps`` to refuse."""
        for ref in draws:
            if ref.name == UNKNOWN:
                break
        else:  # every drawn card named: nothing to read
            self._check_draws(draws)
            return draws, False
        readings = self._keep_readings(draws, keeps)
        if readings is None:  # too many readings to try: the keeps' cards are not checked (not exact)
            self._check_draws(draws)
            return draws, True
        error: IllegalStatement | None = None
        for reading in readings:
            try:
                self._check_draws(reading)
            except IllegalStatement as problem:
                error = error or problem
                continue
            return reading, len(readings) > 1
        assert error is not None
        raise error

    def _keep_readings(
        self, draws: tuple[NameRef, ...], keeps: tuple[NameRef, ...]
    ) -> list[tuple[NameRef, ...]] | None:
        """Every way the named keeps that match no drawn name can be drawn ``?`` cards, as far as it matters: the
        last ``?`` cards drawn before a reshuffle during the draw, or after it (None: more than 16 ways)."""
        named: dict[str, int] = {}
        for ref in draws:
            if ref.name != UNKNOWN:
                named[ref.name] = named.get(ref.name, 0) + 1
        unmatched: list[NameRef] = []
        for ref in keeps:
            if ref.name == UNKNOWN:
                continue
            if named.get(ref.name, 0) > 0:
                named[ref.name] -= 1
            else:
                unmatched.append(ref)
        blanks = [index for index, ref in enumerate(draws) if ref.name == UNKNOWN]
        unmatched = unmatched[: len(blanks)]
        if not unmatched:
            return [draws]
        point = self.supply if self.supply < len(draws) else len(draws)  # the first card after a reshuffle
        before = [index for index in blanks if index < point]
        after = [index for index in blanks if index >= point]
        splits: list[tuple[tuple[NameRef, ...], tuple[NameRef, ...]]]
        if not before or not after:  # the '?' cards all on one side of a reshuffle, or none: the last ones
            splits = [(tuple(unmatched), ())]
            after = blanks
        else:
            splits = []
            for mask in range(1 << len(unmatched)):
                late = tuple(ref for bit, ref in enumerate(unmatched) if mask >> bit & 1)
                early = tuple(ref for bit, ref in enumerate(unmatched) if not mask >> bit & 1)
                if len(late) <= len(after) and len(early) <= len(before):
                    splits.append((late, early))
            if len(splits) > 16:
                return None
        readings: list[tuple[NameRef, ...]] = []
        for late, early in splits:
            reading = list(draws)
            for ref, index in zip(late, reversed(after), strict=False):
                reading[index] = ref
            for ref, index in zip(early, reversed(before), strict=False):
                reading[index] = ref
            if tuple(reading) not in readings:
                readings.append(tuple(reading))
        return readings

    def _plan_keeps(
        self, seat: int, draws: tuple[NameRef, ...], keeps: tuple[NameRef, ...], place: str = DISCARD
    ) -> KeepPlan:
        """Work out what goes to the hand and what to the discard pile (``place``) when ``keeps`` are kept of
        ``draws`` (resolved: ``_resolve_keeps``): a named keep is a drawn card of its name, a kept ``?`` any drawn
        card."""
        named: dict[str, int] = {}
        wild = 0
        for ref in draws:
            if ref.name == UNKNOWN:
                wild += 1
            else:
                named[ref.name] = named.get(ref.name, 0) + 1
        births: list[int] = []  # the epoch each drawn '?' left the supply in (the cards after a reshuffle: the next)
        if wild:
            at, epoch = self.supply, self.epoch
            births = [epoch + (index >= at) for index, ref in enumerate(draws) if ref.name == UNKNOWN]
        known: dict[str, int] = {}
        blanks = 0
        for ref in keeps:
            name = ref.name
            if name == UNKNOWN:
                blanks += 1
                continue
            if named.get(name, 0) <= 0:
                raise self.fail(SJCode.KEEP_NOT_DRAWN, f"{name} is not among the drawn cards", ref.column)
            named[name] -= 1
            known[name] = known.get(name, 0) + 1
        named = {name: k for name, k in named.items() if k > 0}
        left = sum(named.values()) + wild
        if blanks == 0:
            return KeepPlan(known, {}, named, wild)
        if blanks == left:  # every remaining drawn card is kept
            for name, k in named.items():
                known[name] = known.get(name, 0) + k
            return KeepPlan(known, _tally(births), {}, 0)
        if not named:  # the kept '?'s are unknown drawn cards: the latest kept (they can do all the older could)
            return KeepPlan(known, _tally(births[wild - blanks :]), {}, wild - blanks)
        if wild == 0 and len(named) == 1:  # one name left: the kept '?'s are that card
            (name,) = named
            known[name] = known.get(name, 0) + blanks
            return KeepPlan(known, {}, {name: left - blanks}, 0)
        # the kept '?'s are some of several drawn cards: the hand gets a pool of them
        draft = HandDraft(self, seat, self.supply < len(draws))
        draft.add_known(known)
        draft.add_pool(named, Counter(births), blanks, place, keeps[0].column)
        self._check_draft(draft, keeps[0].column)
        return KeepPlan({}, {}, {}, left - blanks, draft)  # the rest go to the pile unnamed: the pool knows

    def _take_kept(self, seat: int, draws: tuple[NameRef, ...], plan: KeepPlan, pending: bool = False) -> None:
        """Carry out a ``_plan_keeps`` plan: the drawn cards come off the supply, some to the hand, the rest to the
        discard pile (or the pile waiting for the phase end)."""
        player = self.p[seat]
        located = self.located
        self._draw(len(draws), draws)
        known_pile = self.pending_known if pending else self.discard_known
        if plan.open_reading:  # one reading was taken for the checks: not exact, and the room is not counted
            self.widen(READINGS)
            self._end_down()
        if plan.draft is not None:
            self._commit(plan.draft)
        known = player.hand_known
        peak = self.down_peak if not self.pools else None  # with pools: ``_note_out`` after the moves
        for name, k in plan.known.items():  # ``+= k`` on the Counters, without their missing-key calls
            known[name] = known.get(name, 0) + k
            out = located.get(name, 0)
            located[name] = out + k
            if peak is not None:  # ``_note_out`` before the count changes: past the last reshuffle's peak?
                over = out - peak.get(name, 0)
                if over + k > 0:
                    self.down_short += k if over >= 0 else over + k
        if plan.free:
            player.born.update(plan.free)
            player.hand_unknown += sum(plan.free.values())
        for name, k in plan.discard_known.items():
            out = located.get(name, 0)
            located[name] = out + k
            known_pile[name] = known_pile.get(name, 0) + k
            if peak is not None:
                over = out - peak.get(name, 0)
                if over + k > 0:
                    self.down_short += k if over >= 0 else over + k
        if self.down_peak is not None and self.pools:  # every copy of a name at once (it reads the count after)
            noted = dict(plan.known)
            for name, k in plan.discard_known.items():
                noted[name] = noted.get(name, 0) + k
            for name, k in noted.items():
                self._note_out(name, k)
        if pending:
            self.pending_unknown += plan.discard_unknown
        else:
            self.discard_unknown += plan.discard_unknown
