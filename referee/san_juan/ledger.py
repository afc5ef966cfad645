"""The hidden-card ledger: where San Juan's 110 cards are, as far as the record says.

A record names the cards it knows and writes ``?`` for the others. The ledger therefore tracks each hand as a
multiset of known names plus a count of unknown cards, the discard pile the same way, the supply as a count only,
and ``located``: how many copies of each name sit in a *known* place (cities, known hand cards, the known part of
the discard pile, tucked or covered cards). A name may be drawn, dealt or played out of the unknown part of a hand
only while ``located[name]`` is below its number of copies — no card is ever seen more often than it exists. Goods
are face-down cards of unknown identity. When the discard pile is shuffled into a new supply its known names become
unknown again. When a ``?`` leaves a hand whose cards are all known, the referee cannot tell which one went: the
hand's known cards are forgotten (become unknown), which loses knowledge but never accepts a wrong record.

Checks (``_check_draws``, ``_plan_removal``, ``_plan_keeps``) change nothing; the matching moves (``_draw_into_hand``,
``_remove``, ``_take_kept``) carry out what was checked, so a rejected statement leaves the ledger as it was.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from referee.errors import IllegalStatement
from referee.record import NameRef
from referee.san_juan.base import PlayerState, SJBase
from referee.san_juan.codes import SJCode
from referee.san_juan.notation import UNKNOWN, is_unknown


@dataclass
class Removal:
    """A hand after some cards left it (checked, not yet applied): its new parts, the named cards that left its
    uncertain part (now in a known place) and the known cards that became uncertain because a ``?`` left."""

    known: Counter
    pool: Counter
    forgotten: int
    unknown: int
    relocated: Counter
    dissolved: Counter

    def forget_known(self, blanks: int) -> None:
        """``blanks`` cards left unnamed: any card may have gone, so the known cards join the pool — the hand that
        remains is described by a superset of the true possibilities."""
        self.dissolved = +self.known
        self.pool += self.dissolved
        self.forgotten += sum(self.dissolved.values())
        self.known = Counter()
        for _ in range(blanks):
            if self.forgotten:
                self.forgotten -= 1
            else:
                self.unknown -= 1


@dataclass
class KeepPlan:
    """Where drawn cards go when some are kept: known, some of a pool, or of unknown identity; the rest discarded."""

    known: Counter
    pool: Counter
    forgotten: int
    wild: int
    discard_known: Counter
    discard_unknown: int


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
        return min(wanted, self.available() + extra)

    def _check_count(self, due: int, wanted: int, written: int, column: int, why: str) -> None:
        if due < wanted and not self.options.empty_supply_skips_draw:
            raise self.fail(SJCode.SUPPLY_EMPTY, f"{why}, but only {due} remain in supply and discard pile", column)
        if written != due:
            short = f" (only {due} remain in supply and discard pile)" if due < wanted else ""
            raise self.fail(SJCode.DRAW_COUNT, f"{why}{short}; the record draws {written}", column)

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
        supply, discard = self.supply, self.discard_size + extra_discard
        reshuffled = False
        seen: Counter = Counter()
        for ref in refs:
            if supply == 0:
                supply, discard, reshuffled = discard, 0, True
            supply -= 1
            if is_unknown(ref):
                continue
            seen[ref.name] += 1
            base = self.located[ref.name] - (self.discard_known[ref.name] if reshuffled else 0)
            if base + seen[ref.name] > self.cards[ref.name].copies:
                raise self._exhausted(ref)

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

    def _draw(self, count: int) -> None:
        for _ in range(count):
            if self.supply == 0:
                self._reshuffle()
            self.supply -= 1

    def _draw_into_hand(self, seat: int, refs: tuple[NameRef, ...]) -> None:
        player = self.p[seat]
        for ref in refs:
            self._draw(1)
            if is_unknown(ref):
                player.hand_unknown += 1
            else:
                player.hand_known[ref.name] += 1
                self.located[ref.name] += 1

    # -------------------------------------------------------------------------------------------- discarding
    def _to_discard(self, ref: NameRef, pending: bool = False) -> None:
        """A known-place card (still counted in ``located``) or a ``?`` goes to the discard pile."""
        if pending:
            if is_unknown(ref):
                self.pending_unknown += 1
            else:
                self.pending_known[ref.name] += 1
        elif is_unknown(ref):
            self.discard_unknown += 1
        else:
            self.discard_known[ref.name] += 1

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
        """
        player = self.p[seat]
        if len(refs) > player.hand_size:
            raise self.fail(
                SJCode.NOT_IN_HAND,
                f"{player.name} holds {player.hand_size} card(s); {what} needs {len(refs)}",
                refs[player.hand_size].column,
            )
        plan = Removal(
            Counter(player.hand_known),
            Counter(player.hand_pool),
            player.hand_forgotten,
            player.hand_unknown,
            Counter(),
            Counter(),
        )
        for ref in refs:
            if not is_unknown(ref):
                self._take_named(player, plan, ref)
        blanks = sum(1 for ref in refs if is_unknown(ref))
        if blanks:
            plan.forget_known(blanks)
        plan.known = +plan.known
        plan.pool = +plan.pool if plan.forgotten else Counter()
        return plan

    def _take_named(self, player: PlayerState, plan: Removal, ref: NameRef) -> None:
        """A named card leaves the hand ``plan`` describes: from its known part, else its forgotten part, else its
        unknown part — then it is in a known place, within its copies."""
        name = ref.name
        if plan.known[name] > 0:
            plan.known[name] -= 1
            return
        if plan.forgotten and plan.pool[name] > 0:
            plan.forgotten -= 1
            if not plan.unknown:  # with unknown cards left, the pool keeps it (a superset stays sound)
                plan.pool[name] -= 1
        elif plan.unknown:
            plan.unknown -= 1
        else:
            raise self.fail(
                SJCode.NOT_IN_HAND,
                f"{player.name} holds no {'other ' if plan.relocated[name] else ''}{name} (hand: {player.hand_text()})",
                ref.column,
            )
        plan.relocated[name] += 1
        if self.located[name] + plan.relocated[name] > self.cards[name].copies:
            raise self.fail(
                SJCode.NOT_IN_HAND,
                f"{player.name} is not known to hold {name} and all "
                f"{self.cards[name].copies} copies are accounted for elsewhere (hand: "
                f"{player.hand_text()})",
                ref.column,
            )

    def _remove(self, seat: int, plan: Removal) -> None:
        player = self.p[seat]
        self.located -= plan.dissolved
        self.located += plan.relocated
        player.hand_known, player.hand_pool = plan.known, plan.pool
        player.hand_forgotten, player.hand_unknown = plan.forgotten, plan.unknown
        self._settle_hand(player)

    def _settle_hand(self, player: PlayerState) -> None:
        """When the forgotten cards are the whole pool, they are known again."""
        if player.hand_forgotten and sum(player.hand_pool.values()) == player.hand_forgotten:
            player.hand_known += player.hand_pool
            self.located += player.hand_pool
            player.hand_pool, player.hand_forgotten = Counter(), 0
        elif not player.hand_forgotten:
            player.hand_pool = Counter()

    # ------------------------------------------------------------------------------------------ drawn and kept
    def _plan_keeps(self, draws: tuple[NameRef, ...], keeps: tuple[NameRef, ...]) -> KeepPlan:
        """Match the kept cards to the drawn ones (a named keep to a drawn name, else to a drawn ``?``; a kept ``?``
        to any drawn card) and work out what goes to the hand and what to the discard pile."""
        named = Counter(r.name for r in draws if not is_unknown(r))
        drawn_names = Counter(named)
        wild = sum(1 for r in draws if is_unknown(r))
        known: Counter = Counter()
        for ref in keeps:
            if is_unknown(ref):
                continue
            if named[ref.name] > 0:
                named[ref.name] -= 1
            elif wild > 0:
                wild -= 1
                drawn_names[ref.name] += 1
                if self.located[ref.name] + drawn_names[ref.name] > self.cards[ref.name].copies:
                    raise self._exhausted(ref)
            else:
                raise self.fail(SJCode.KEEP_NOT_DRAWN, f"{ref.name} is not among the drawn cards", ref.column)
            known[ref.name] += 1
        named = +named
        blanks = sum(1 for r in keeps if is_unknown(r))
        left = sum(named.values()) + wild
        if blanks == 0:
            return KeepPlan(known, Counter(), 0, 0, named, wild)
        if blanks == left:  # every remaining drawn card is kept
            return KeepPlan(known + named, Counter(), 0, wild, Counter(), 0)
        if wild == 0:  # the kept '?'s are some of the named drawn cards
            return KeepPlan(known, named, blanks, 0, Counter(), left - blanks)
        return KeepPlan(known, Counter(), 0, blanks, Counter(), left - blanks)

    def _take_kept(self, seat: int, count: int, plan: KeepPlan, pending: bool = False) -> None:
        """Carry out a ``_plan_keeps`` plan: ``count`` cards come off the supply, some to the hand, the rest to the
        discard pile (or the pile waiting for the phase end)."""
        player = self.p[seat]
        self._draw(count)
        player.hand_known += plan.known
        self.located += plan.known
        player.hand_pool += plan.pool
        player.hand_forgotten += plan.forgotten
        player.hand_unknown += plan.wild
        self._settle_hand(player)
        for name, k in plan.discard_known.items():
            self.located[name] += k
            for _ in range(k):
                self._to_discard(NameRef(name, 0), pending)
        for _ in range(plan.discard_unknown):
            self._to_discard(NameRef(UNKNOWN, 0), pending)
