"""The hidden-card ledger: where San Juan's 110 cards are, as far as the record says.

A record names the cards it knows and writes ``?`` for the others. The ledger therefore tracks each hand as a
multiset of known names plus a count of unknown cards, the discard pile the same way, the supply as a count only,
and ``located``: how many copies of each name sit in a *known* place (cities, known hand cards, the known part of
the discard pile, tucked or covered cards). A name may be drawn, dealt or played out of the unknown part of a hand
only while ``located[name]`` is below its number of copies — no card is ever seen more often than it exists. Goods
are face-down cards of unknown identity. When the discard pile is shuffled into a new supply its known names become
unknown again. When a ``?`` leaves a hand whose cards are all known, the referee cannot tell which one went: the
hand's known cards are forgotten (become unknown), which loses knowledge but never accepts a wrong record.

Forgotten cards are still out of the supply: a councillor who draws three Heroes and keeps ``?`` holds one of them
and discarded the others unseen, so no fourth Hero can be drawn. ``unseen_out`` counts such copies (out of the
supply, in no known place) for the draw check, until a reshuffle returns the discard pile, and with it any of them,
to the supply. It is a lower bound: a card that comes back into a known place takes one off it.

Checks (``_check_draws``, ``_plan_removal``, ``_plan_keeps``) change nothing; the matching moves (``_draw_into_hand``,
``_remove``, ``_take_kept``) carry out what was checked, so a rejected statement leaves the ledger as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from referee.errors import IllegalStatement
from referee.record import NameRef
from referee.san_juan.base import PlayerState, SJBase
from referee.san_juan.codes import SJCode
from referee.san_juan.notation import UNKNOWN


@dataclass(slots=True)
class Removal:
    """Cards leaving a hand (checked, not yet applied): the named cards taken from its known part and from its pool,
    its forgotten and unknown counts after the named cards left, the named cards that left its uncertain part (now in a
    known place), and the ``?`` cards that left (then the known cards that remain become uncertain: any may have
    gone)."""

    from_known: dict[str, int]
    from_pool: dict[str, int]
    forgotten: int
    unknown: int
    relocated: dict[str, int]
    blanks: int


@dataclass(slots=True)
class KeepPlan:
    """Where drawn cards go when some are kept: known, some of a pool, or of unknown identity; the rest discarded."""

    known: dict[str, int]
    pool: dict[str, int]
    forgotten: int
    wild: int
    discard_known: dict[str, int]
    discard_unknown: int
    unseen: dict[str, int]  # named drawn cards whose place (hand or discard pile) the record leaves open


def _add(counter: Counter, name: str, k: int) -> None:
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


def _keep_positive(counter: Counter) -> None:
    """Drop every entry not above 0 (``Counter._keep_positive``, a private method of ``Counter``)."""
    dropped = [name for name, k in counter.items() if not k > 0]
    for name in dropped:
        counter.pop(name)


class Ledger(SJBase):
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
        """Validate that the named cards can come off the supply (reshuffling the discard pile when it runs out)."""
        supply, discard = self.supply, -1  # the discard pile's size, counted when the supply runs out
        reshuffled = False
        seen: dict[str, int] = {}
        cards, located, unseen = self.cards, self.located, self.unseen_out
        for ref in refs:
            if supply == 0:
                if discard < 0:
                    discard = self.discard_size + extra_discard
                supply, discard, reshuffled = discard, 0, True
            supply -= 1
            name = ref.name
            if name == UNKNOWN:
                continue
            count = seen[name] = seen.get(name, 0) + 1
            # ``_out_of_supply``; before any reshuffle without the Counters' missing-key calls
            base = self._out_of_supply(name, True) if reshuffled else located.get(name, 0) + unseen.get(name, 0)
            if base + count > cards[name].copies:
                raise self._exhausted(ref)

    def _out_of_supply(self, name: str, reshuffled: bool) -> int:
        """Copies of ``name`` that a draw cannot yield: those in known places and those out of sight, less the known
        discards (and any unseen ones) when the discard pile is shuffled into the supply during the draw."""
        if reshuffled:
            return self.located[name] - self.discard_known[name]
        return self.located[name] + self.unseen_out[name]

    def _exhausted(self, ref: NameRef) -> IllegalStatement:
        card = self.cards[ref.name]
        where = []
        for player in self.p:
            k = player.owned[card.name] + player.hand_known[card.name]
            if k:
                where.append(f"{player.name} {k}")
        for player in self.p:
            if player.tucked_known[card.name]:
                where.append(f"under {player.name}'s Chapel {player.tucked_known[card.name]}")
        if self.unseen_out[card.name]:
            where.append(f"drawn, then kept or discarded unseen {self.unseen_out[card.name]}")
        for label, counter in (
            ("discard pile", self.discard_known),
            ("covered", self.under_known),
            ("waiting discard", self.pending_known),
        ):
            if counter[card.name]:
                where.append(f"{label} {counter[card.name]}")
        return self.fail(
            SJCode.CARD_EXHAUSTED,
            f"all {card.copies} copies of {card.name} are already accounted for ({', '.join(where)})",
            ref.column,
        )

    def _reshuffle(self) -> None:
        """The discard pile becomes the new supply; its known names are unknown again."""
        for name, k in self.discard_known.items():
            self.located[name] -= k
        self.supply = self.discard_size
        self.discard_known = Counter()
        self.discard_unknown = 0
        self.unseen_out.clear()  # some of them may be back in the supply now

    def _draw(self, count: int) -> None:
        if self.supply >= count:  # no reshuffle on the way
            self.supply -= count
            return
        for _ in range(count):
            if self.supply == 0:
                self._reshuffle()
            self.supply -= 1

    def _draw_into_hand(self, seat: int, refs: tuple[NameRef, ...]) -> None:
        player = self.p[seat]
        known, located = player.hand_known, self.located
        for ref in refs:
            if self.supply == 0:
                self._reshuffle()
            self.supply -= 1
            name = ref.name
            if name == UNKNOWN:
                player.hand_unknown += 1
            else:  # ``+= 1`` on the Counters, without their missing-key calls
                known[name] = known.get(name, 0) + 1
                located[name] = located.get(name, 0) + 1

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

    # ------------------------------------------------------------------------------------- cards leaving a hand
    def _plan_removal(self, seat: int, refs: tuple[NameRef, ...], what: str) -> Removal:
        """Check that the cards can leave the player's hand and work out the hand that remains.

        A hand is known cards, ``forgotten`` cards that are some of ``pool`` and wholly unknown cards. A named card
        leaves the known part first, then the forgotten part, then the unknown part (within its copies). A ``?`` that
        leaves may have been any card, so the known cards join the pool: the hand that remains is then described by
        a superset of the true possibilities — the referee loses some certainty but never rejects a legal record.
        Nothing changes here: the plan holds what leaves, ``_remove`` carries it out.
        """
        player = self.p[seat]
        if len(refs) > player.hand_size:
            raise self.fail(
                SJCode.NOT_IN_HAND,
                f"{player.name} holds {player.hand_size} card(s); {what} needs {len(refs)}",
                refs[player.hand_size].column,
            )
        known, pool, located = player.hand_known, player.hand_pool, self.located
        from_known: dict[str, int] = {}
        from_pool: dict[str, int] = {}
        relocated: dict[str, int] = {}
        forgotten, unknown = player.hand_forgotten, player.hand_unknown
        blanks = 0
        for ref in refs:
            name = ref.name
            if name == UNKNOWN:
                blanks += 1
                continue
            taken = from_known.get(name, 0)
            if known.get(name, 0) > taken:  # from the known part
                from_known[name] = taken + 1
                continue
            if forgotten and pool.get(name, 0) > from_pool.get(name, 0):  # from the forgotten part
                forgotten -= 1
                if not unknown:  # with unknown cards left, the pool keeps it (a superset stays sound)
                    from_pool[name] = from_pool.get(name, 0) + 1
            elif unknown:  # from the unknown part
                unknown -= 1
            else:
                other = "other " if relocated.get(name) else ""
                raise self.fail(
                    SJCode.NOT_IN_HAND,
                    f"{player.name} holds no {other}{name} (hand: {player.hand_text()})",
                    ref.column,
                )
            moved = relocated[name] = relocated.get(name, 0) + 1
            if located[name] + moved > self.cards[name].copies:
                raise self.fail(
                    SJCode.NOT_IN_HAND,
                    f"{player.name} is not known to hold {name} and all "
                    f"{self.cards[name].copies} copies are accounted for elsewhere (hand: "
                    f"{player.hand_text()})",
                    ref.column,
                )
        return Removal(from_known, from_pool, forgotten, unknown, relocated, blanks)

    def _remove(self, seat: int, plan: Removal) -> None:
        player = self.p[seat]
        known, pool, located = player.hand_known, player.hand_pool, self.located
        for name, k in plan.from_known.items():  # _add(known, name, -k)
            value = known.get(name, 0) - k
            if value:
                known[name] = value
            else:
                known.pop(name, None)
        for name, k in plan.from_pool.items():
            _add(pool, name, -k)
        forgotten, unknown = plan.forgotten, plan.unknown
        if plan.blanks:
            # cards left unnamed: any card may have gone, so the known cards join the pool — the hand that remains is
            # described by a superset of the true possibilities
            for name, k in known.items():
                _add(located, name, -k)
                self.unseen_out[name] += k  # in the hand or wherever the '?' went: out of the supply either way
                pool[name] += k
                forgotten += k
            known.clear()
            for _ in range(plan.blanks):
                if forgotten:
                    forgotten -= 1
                else:
                    unknown -= 1
        for name, k in plan.relocated.items():
            _add(located, name, k)
            self._seen_again(name, k)
        if not forgotten and pool:
            pool.clear()
        player.hand_forgotten, player.hand_unknown = forgotten, unknown
        if forgotten or pool:  # else ``_settle_hand`` finds nothing to settle
            self._settle_hand(player)

    def _seen_again(self, name: str, k: int) -> None:
        """``k`` copies of ``name`` are in a known place again: any of them may have been counted unseen."""
        unseen = self.unseen_out.get(name, 0)
        if unseen:
            _add(self.unseen_out, name, -min(k, unseen))

    def _settle_hand(self, player: PlayerState) -> None:
        """When the forgotten cards are the whole pool, they are known again."""
        if player.hand_forgotten and sum(player.hand_pool.values()) == player.hand_forgotten:
            for name, k in player.hand_pool.items():
                player.hand_known[name] += k
                self.located[name] += k
                self._seen_again(name, k)
            player.hand_pool.clear()
            player.hand_forgotten = 0
        elif not player.hand_forgotten and player.hand_pool:
            player.hand_pool.clear()

    # ------------------------------------------------------------------------------------------ drawn and kept
    def _plan_keeps(self, draws: tuple[NameRef, ...], keeps: tuple[NameRef, ...]) -> KeepPlan:
        """Match the kept cards to the drawn ones (a named keep to a drawn name, else to a drawn ``?``; a kept ``?``
        to any drawn card) and work out what goes to the hand and what to the discard pile."""
        named: dict[str, int] = {}
        wild = 0
        for ref in draws:
            if ref.name == UNKNOWN:
                wild += 1
            else:
                named[ref.name] = named.get(ref.name, 0) + 1
        revealed: dict[str, int] = {}  # drawn '?'s the keeps name
        reshuffled = self.supply < len(draws)  # a '?' may have come from the discard pile shuffled in
        known: dict[str, int] = {}
        blanks = 0
        for ref in keeps:
            name = ref.name
            if name == UNKNOWN:
                blanks += 1
                continue
            if named.get(name, 0) > 0:
                named[name] -= 1
            elif wild > 0:
                wild -= 1
                revealed[name] = revealed.get(name, 0) + 1
                drawn = sum(1 for r in draws if r.name == name) + revealed[name]
                if self._out_of_supply(name, reshuffled) + drawn > self.cards[name].copies:
                    raise self._exhausted(ref)
            else:
                raise self.fail(SJCode.KEEP_NOT_DRAWN, f"{name} is not among the drawn cards", ref.column)
            known[name] = known.get(name, 0) + 1
        named = {name: k for name, k in named.items() if k > 0}
        left = sum(named.values()) + wild
        if blanks == 0:
            return KeepPlan(known, {}, 0, 0, named, wild, {})
        if blanks == left:  # every remaining drawn card is kept
            for name, k in named.items():
                known[name] = known.get(name, 0) + k
            return KeepPlan(known, {}, 0, wild, {}, 0, {})
        if wild == 0:  # the kept '?'s are some of the named drawn cards
            return KeepPlan(known, named, blanks, 0, {}, left - blanks, named)
        return KeepPlan(known, {}, 0, blanks, {}, left - blanks, named)

    def _take_kept(self, seat: int, count: int, plan: KeepPlan, pending: bool = False) -> None:
        """Carry out a ``_plan_keeps`` plan: ``count`` cards come off the supply, some to the hand, the rest to the
        discard pile (or the pile waiting for the phase end)."""
        player = self.p[seat]
        located = self.located
        self._draw(count)
        for name, k in plan.unseen.items():  # named when drawn, then kept as '?' or discarded unseen
            self.unseen_out[name] += k
        known = player.hand_known
        for name, k in plan.known.items():  # ``+= k`` on the Counters, without their missing-key calls
            known[name] = known.get(name, 0) + k
            located[name] = located.get(name, 0) + k
        for name, k in plan.pool.items():
            player.hand_pool[name] += k
        player.hand_forgotten += plan.forgotten
        player.hand_unknown += plan.wild
        if player.hand_forgotten or player.hand_pool:  # else ``_settle_hand`` finds nothing to settle
            self._settle_hand(player)
        known_pile = self.pending_known if pending else self.discard_known
        for name, k in plan.discard_known.items():
            located[name] = located.get(name, 0) + k
            known_pile[name] = known_pile.get(name, 0) + k
        if pending:
            self.pending_unknown += plan.discard_unknown
        else:
            self.discard_unknown += plan.discard_unknown
