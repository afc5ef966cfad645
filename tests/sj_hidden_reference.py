"""San Juan hidden cards, decided by brute force: the reference the referee's hidden-card ledger is tested against.

The record format (§3) states the standard: a record is consistent while some assignment of real cards to all its
``?`` (and to the face-down goods) respects every card's copies and makes every statement legal; the first line
after which none exists is illegal. This module decides it the slow, obvious way, for small decks and short records:

- every rule that does not depend on which card a hidden card is (turn order, roles, costs as counts, draw counts,
  hand limits, …) is judged by the referee itself, with a ledger that counts cards and knows no names
  (``CountingState``);
- the cards are followed as *worlds*: every place (supply, discard pile, waiting pile, each hand, each player's goods
  of each kind) as a count per card name. Each statement moves cards; a named card must be where it is taken from,
  a ``?`` may be any card there — one world for each choice. Identical worlds are kept once. When no world is left,
  the record became inconsistent at that statement.

The cards' identities are followed here alone: ``CountingState`` replaces every ledger method that looks at a name
(the draws' and removals' checks, the keeps, the Gold Mine's costs) with counting, and the worlds share no code with
``hidden.py``, ``copies.py`` or the ledger's pools and peaks — only the statements' meaning: which cards a statement
moves, and in which order (discards before draws within one action, a councillor's unkept cards after his draw).
Default rule options only where they change where cards go (councillor discards not waiting, covered buildings to the
discard pile, Chapel cards staying).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from referee.errors import RefereeError
from referee.record import NameRef
from referee.san_juan.cards import GOODS
from referee.san_juan.ledger import KeepPlan, Removal
from referee.san_juan.notation import (
    UNKNOWN,
    Actor,
    Build,
    Council,
    Discard,
    GoldMineTurn,
    HandDeal,
    OwedDraw,
    Produce,
    Sell,
    Tuck,
)
from referee.san_juan.options import SJOptions
from referee.san_juan.state import SJCode, SJState


class CountingState(SJState):
    """The referee with a ledger that counts cards and knows no names: every hand card is unknown, every draw may be
    any card. It judges every rule but the cards' identities (a kept card must still be among the drawn ones, a
    Gold Mine's named costs must still differ)."""

    def _check_draws(self, refs: tuple[NameRef, ...], extra_discard: int = 0) -> None:
        return None

    def _check_distinct_costs(self, cards: tuple[NameRef, ...], column: int) -> None:
        return None

    def _draw_into_hand(self, seat: int, refs: tuple[NameRef, ...]) -> None:
        self._draw(len(refs))
        self.p[seat].hand_unknown += len(refs)

    def _reshuffle(self, drawn: Counter | None = None, hidden: bool = False) -> None:
        self.supply = self.discard_size
        self.discard_known = Counter()
        self.discard_unknown = 0

    def _plan_removal(self, seat: int, refs: tuple[NameRef, ...], what: str, place: str = "") -> Removal:
        player = self.p[seat]
        if len(refs) > player.hand_size:
            raise self.fail(SJCode.NOT_IN_HAND, f"{player.name} holds {player.hand_size} card(s)", refs[-1].column)
        return Removal({UNKNOWN: len(refs)})

    def _remove(self, seat: int, plan: Removal) -> None:
        self.p[seat].hand_unknown -= plan.from_known[UNKNOWN]

    def _plan_keeps(
        self, seat: int, draws: tuple[NameRef, ...], keeps: tuple[NameRef, ...], place: str = ""
    ) -> KeepPlan:
        if _match_keeps([ref.name for ref in draws], [ref.name for ref in keeps]) is None:
            raise self.fail(SJCode.KEEP_NOT_DRAWN, "a kept card is not among the drawn cards", keeps[0].column)
        return KeepPlan({}, Counter({0: len(keeps)}), {}, len(draws) - len(keeps))

    def _take_kept(self, seat: int, draws: tuple[NameRef, ...], plan: KeepPlan, pending: bool = False) -> None:
        self._draw(len(draws))
        self.p[seat].hand_unknown += sum(plan.free.values())
        if pending:
            self.pending_unknown += plan.discard_unknown
        else:
            self.discard_unknown += plan.discard_unknown


def _match_keeps(drawn: list[str], kept: list[str]) -> list[str] | None:
    """The drawn names left after the named keeps take a drawn card of their name, else a drawn ``?``; None when a
    named keep finds neither."""
    left = list(drawn)
    for name in kept:
        if name == UNKNOWN:
            continue
        if name in left:
            left.remove(name)
        elif UNKNOWN in left:
            left.remove(UNKNOWN)
        else:
            return None
    return left


# --------------------------------------------------------------------------------------------------- worlds
Counts = tuple[int, ...]


@dataclass(frozen=True)
class World:
    """Where every card out of a known place is: per place, a count per card name (``names`` order)."""

    supply: Counts
    discard: Counts
    hands: tuple[Counts, ...]
    goods: tuple[tuple[Counts, ...], ...]  # player -> good kind -> counts


def _plus(counts: Counts, index: int, k: int = 1) -> Counts:
    return (*counts[:index], counts[index] + k, *counts[index + 1 :])


def _sum(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@dataclass
class Reference:
    """The worlds a record allows so far, statement by statement (``step``)."""

    names: list[str]
    players: int
    options: SJOptions
    worlds: set[World] = field(default_factory=set)
    cost: dict[str, int] = field(default_factory=dict)
    limit: int = 20_000  # more worlds than this: OverflowError (the caller skips the record)

    @classmethod
    def start(cls, state: SJState) -> Reference:
        names = sorted(name for name, card in state.cards.items() if card.copies)
        zero = (0,) * len(names)
        supply = tuple(state.cards[name].copies for name in names)
        start = names.index(state.options.start_building)
        supply = _plus(supply, start, -len(state.p))
        goods = tuple(tuple(zero for _ in GOODS) for _ in state.p)
        world = World(supply, zero, tuple(zero for _ in state.p), goods)
        reference = cls(names, len(state.p), state.options, {world})
        reference.cost = {name: state.cards[name].cost for name in names}
        return reference

    def index(self, name: str) -> int | None:
        return self.names.index(name) if name in self.names else None

    def _wanted(self, name: str) -> int | None:
        """A kept card's index: None for ``?`` (any drawn card); a name without copies in the deck matches no drawn
        card (-1), not any."""
        if name == UNKNOWN:
            return None
        index = self.index(name)
        return -1 if index is None else index

    # ------------------------------------------------------------------------------------------ moves
    def _draw(self, world: World, name: str) -> Iterator[tuple[World, int]]:
        """One card off the supply (the discard pile shuffled in when it is empty): each world and the card drawn."""
        if not any(world.supply):
            world = World(world.discard, (0,) * len(self.names), world.hands, world.goods)
        for index in self._choices(world.supply, name):
            yield World(_plus(world.supply, index, -1), world.discard, world.hands, world.goods), index

    def _choices(self, counts: Counts, name: str) -> Iterable[int]:
        if name == UNKNOWN:
            return [index for index, k in enumerate(counts) if k]
        index = self.index(name)
        return [index] if index is not None and counts[index] else []

    def _take(self, world: World, seat: int, name: str) -> Iterator[tuple[World, int]]:
        hand = world.hands[seat]
        for index in self._choices(hand, name):
            hands = (*world.hands[:seat], _plus(hand, index, -1), *world.hands[seat + 1 :])
            yield World(world.supply, world.discard, hands, world.goods), index

    def _give(self, world: World, seat: int, index: int) -> World:
        hands = (*world.hands[:seat], _plus(world.hands[seat], index), *world.hands[seat + 1 :])
        return World(world.supply, world.discard, hands, world.goods)

    def _discard(self, world: World, index: int) -> World:
        return World(world.supply, _plus(world.discard, index), world.hands, world.goods)

    def _goods(self, world: World, seat: int, good: int, index: int, k: int) -> World:
        kinds = world.goods[seat]
        kinds = (*kinds[:good], _plus(kinds[good], index, k), *kinds[good + 1 :])
        return World(world.supply, world.discard, world.hands, (*world.goods[:seat], kinds, *world.goods[seat + 1 :]))

    def _each(self, worlds: Iterable[World], move) -> set[World]:
        out: set[World] = set()
        for world in worlds:
            out.update(move(world))
            if len(out) > self.limit:
                raise OverflowError(len(out))
        return out

    def draw_to_hand(self, worlds: set[World], seat: int, refs: tuple[NameRef, ...]) -> set[World]:
        for ref in refs:
            worlds = self._each(
                worlds, lambda w, name=ref.name: (self._give(v, seat, i) for v, i in self._draw(w, name))
            )
        return worlds

    def take_to_discard(self, worlds: set[World], seat: int, refs: Iterable[NameRef], discard: bool) -> set[World]:
        for ref in refs:
            worlds = self._each(
                worlds,
                lambda w, name=ref.name: (self._discard(v, i) if discard else v for v, i in self._take(w, seat, name)),
            )
        return worlds

    def goods_to_discard(self, worlds: set[World], seat: int, good: int, count: int) -> set[World]:
        for _ in range(count):
            worlds = self._each(
                worlds,
                lambda w: (
                    self._discard(self._goods(w, seat, good, i, -1), i) for i, k in enumerate(w.goods[seat][good]) if k
                ),
            )
        return worlds

    def produce(self, worlds: set[World], seat: int, good: int, count: int) -> set[World]:
        for _ in range(count):
            worlds = self._each(worlds, lambda w: (self._goods(v, seat, good, i, 1) for v, i in self._draw(w, UNKNOWN)))
        return worlds

    def keep(
        self, worlds: set[World], seat: int, draws: tuple[NameRef, ...], keeps: tuple[NameRef, ...], mine: bool
    ) -> set[World]:
        """Draw the cards one by one (a world per choice of each ``?``), then every way the kept ones can be among
        them; the rest go to the discard pile. A Gold Mine keeps only when the four costs differ."""
        drawn_worlds: set[tuple[World, tuple[int, ...]]] = {(world, ()) for world in worlds}
        for ref in draws:
            nxt: set[tuple[World, tuple[int, ...]]] = set()
            for world, cards in drawn_worlds:
                for v, i in self._draw(world, ref.name):
                    nxt.add((v, (*cards, i)))
            drawn_worlds = nxt
            if len(drawn_worlds) > self.limit:
                raise OverflowError(len(drawn_worlds))
        out: set[World] = set()
        for world, cards in drawn_worlds:
            if mine and keeps and len({self.cost[self.names[i]] for i in cards}) < len(cards):
                continue
            for kept in _keep_choices(cards, [self._wanted(r.name) for r in keeps]):
                w = world
                rest = list(cards)
                for i in kept:
                    rest.remove(i)
                    w = self._give(w, seat, i)
                for i in rest:
                    w = self._discard(w, i)
                out.add(w)
            if len(out) > self.limit:
                raise OverflowError(len(out))
        return out

    # ------------------------------------------------------------------------------------------ statements
    def step(self, before: SJState, after: SJState, statement: object) -> None:
        """The worlds after a statement the counting referee accepted (``before``/``after``: its state around it)."""
        worlds = self.worlds
        if isinstance(statement, HandDeal):
            seat = before.seats[statement.player.name]
            self.worlds = self.draw_to_hand(worlds, seat, statement.cards)
            return
        if not isinstance(statement, Actor):
            return
        seat = before.seats[statement.player.name]
        action = statement.action
        if isinstance(action, Build):
            worlds = self.take_to_discard(worlds, seat, (action.card,), discard=False)
            worlds = self.take_to_discard(worlds, seat, action.paying, discard=True)
            worlds = self._goods_lost(worlds, before, after, seat)
            if action.over is not None and before.options.crane_covered_to_discard:
                index = self.index(action.over.name)
                assert index is not None
                worlds = {self._discard(w, index) for w in worlds}
        elif isinstance(action, Produce):
            for good_index, good in enumerate(GOODS):
                made = after.p[seat].goods[good] - before.p[seat].goods[good]
                worlds = self.produce(worlds, seat, good_index, made)
        elif isinstance(action, Sell):
            worlds = self._goods_lost(worlds, before, after, seat)
            worlds = self.draw_to_hand(worlds, seat, action.draws)
        elif isinstance(action, Council | GoldMineTurn):
            draws = action.draws if isinstance(action, Council) else action.cards
            worlds = self.keep(worlds, seat, draws, action.keeps, isinstance(action, GoldMineTurn))
        elif isinstance(action, OwedDraw):
            worlds = self.draw_to_hand(worlds, seat, action.draws)
        elif isinstance(action, Tuck):
            worlds = self.take_to_discard(worlds, seat, (action.card,), discard=False)
        elif isinstance(action, Discard):
            worlds = self.take_to_discard(worlds, seat, action.cards, discard=True)
        self.worlds = worlds

    def _goods_lost(self, worlds: set[World], before: SJState, after: SJState, seat: int) -> set[World]:
        """Goods spent, sold or lost under a Crane: face-down cards to the discard pile."""
        for good_index, good in enumerate(GOODS):
            lost = before.p[seat].goods[good] - after.p[seat].goods[good]
            if lost > 0:
                worlds = self.goods_to_discard(worlds, seat, good_index, lost)
        return worlds


def _keep_choices(cards: tuple[int, ...], kept: list[int | None]) -> set[tuple[int, ...]]:
    """Every way to pick the kept cards among the drawn ones (a named keep a card of its name, ``?`` any)."""
    choices: set[tuple[int, ...]] = {()}
    for want in kept:
        nxt: set[tuple[int, ...]] = set()
        for chosen in choices:
            left = list(cards)
            for i in chosen:
                left.remove(i)
            for i in set(left):
                if want is None or i == want:
                    nxt.add(tuple(sorted((*chosen, i))))
        choices = nxt
    return choices


# --------------------------------------------------------------------------------------------------- verdicts
@dataclass(frozen=True)
class Verdict:
    """The first statement (index in the body, from 0) that is illegal — for the cards' identities (``cards``) or
    for another rule — or None when every statement is legal."""

    index: int | None
    cards: bool


def reference_verdict(players: list[str], options: SJOptions, statements: list[object], limit: int = 20_000) -> Verdict:
    """Judge the statements: the first one after which no world is left, or that the counting referee rejects.
    Raises OverflowError when the worlds grow beyond ``limit`` (the caller skips such a record)."""
    state = CountingState(players, options)
    reference = Reference.start(state)
    reference.limit = limit
    for index, statement in enumerate(statements):
        before = _snapshot(state)
        try:
            state.apply(statement)
        except RefereeError:
            return Verdict(index, False)
        reference.step(before, state, statement)
        if not reference.worlds:
            return Verdict(index, True)
    return Verdict(None, False)


def _snapshot(state: SJState) -> SJState:
    """What a statement's moves are read against: the goods and seats before it."""
    copy = SJState.__new__(type(state))
    copy.__dict__.update(state.__dict__)
    copy.p = [type(player)(**{**player.__dict__, "goods": Counter(player.goods)}) for player in state.p]
    return copy
