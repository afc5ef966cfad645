"""Random legal play: a complete San Juan game written as a record, claims filled in.

The generator knows every card (it shuffles a real deck); the record it writes names what a table log would know and,
now and then, writes ``?`` for a drawn card, so replays exercise the referee's hidden-information bookkeeping. Every
statement is judged by ``SJState.apply`` as it is written: the generator asks the state for costs and limits (one
rule, one place) and only decides. Randomness comes from the ``random.Random`` passed in: same seed, same record.
"""

from __future__ import annotations

import random

from referee.errors import RefereeError
from referee.game import GeneratorFailed
from referee.record import NameRef, write_record
from referee.san_juan.cards import BUILDING_OF_GOOD, GOODS, card_table
from referee.san_juan.notation import (
    Action,
    Actor,
    Build,
    Council,
    Discard,
    FinalClaim,
    FinalEntry,
    GoldMineTurn,
    GovernorMark,
    HandDeal,
    OwedDraw,
    Pass,
    Produce,
    RoleChoice,
    RoundMark,
    Sell,
    Statement,
    TileMark,
    Tuck,
    statement_text,
)
from referee.san_juan.options import SJOptions
from referee.san_juan.state import ACTING, CHOOSING, MINE, OVER, PROSPECT, SETUP, TILE, SJState

HIDE = 0.08  # chance that a drawn card is written '?'
MAX_STATEMENTS = 20_000


class Table:
    """The true cards: supply order, discard pile, hands, goods and tucked cards (what the record may not say)."""

    def __init__(self, players: list[str], rng: random.Random, options: SJOptions) -> None:
        self.rng = rng
        deck = [name for name, card in card_table(options.cards).items() for _ in range(card.copies)]
        for _ in players:
            deck.remove(options.start_building)
        rng.shuffle(deck)
        self.supply = deck
        self.discard: list[str] = []
        self.pending: list[str] = []
        self.hands: list[list[str]] = [[] for _ in players]
        self.goods: list[list[str]] = [[] for _ in players]
        self.tucked: list[list[str]] = [[] for _ in players]

    def draw(self) -> str:
        if not self.supply:
            self.supply, self.discard = self.discard, []
            self.rng.shuffle(self.supply)
        return self.supply.pop()


class Generator:
    def __init__(self, players: list[str], rng: random.Random, options: SJOptions) -> None:
        self.players = players
        self.rng = rng
        self.options = options
        self.state = SJState(players, options)
        self.table = Table(players, rng, options)
        tiles = list(self.state.tiles)
        rng.shuffle(tiles)
        self.tiles = tiles
        self.trader_phases = 0
        self.written: list[Statement] = []

    # ------------------------------------------------------------------------------------------- helpers
    def emit(self, statement: Statement) -> None:
        try:
            self.state.apply(statement)
        except RefereeError as error:  # a house rule the generator cannot play: say how far it got
            lines = [statement_text(s) for s in self.written]
            raise GeneratorFailed(lines, statement_text(statement), error) from error
        self.written.append(statement)
        self._sync()

    def act(self, seat: int, action: Action) -> None:
        self.emit(Actor(NameRef(self.players[seat], 0), action))

    def _sync(self) -> None:
        """Mirror the state's own moves: goods and Chapel cards lost under a Crane, phase-end discards."""
        state, table = self.state, self.table
        for seat, player in enumerate(state.p):
            have = sum(player.goods.values())
            while len(table.goods[seat]) > have:
                table.discard.append(table.goods[seat].pop())
            while len(table.tucked[seat]) > player.tucked:
                table.discard.append(table.tucked[seat].pop())
        if table.pending and not (state.pending_known or state.pending_unknown):
            table.discard.extend(table.pending)
            table.pending = []

    def draw_refs(self, seat: int | None, count: int, hide: bool = True) -> tuple[list[str], tuple[NameRef, ...]]:
        """Draw ``count`` true cards; the refs write some of them as '?'."""
        cards = [self.table.draw() for _ in range(count)]
        refs = tuple(NameRef("?" if hide and self.rng.random() < HIDE else card, 0) for card in cards)
        if seat is not None:
            self.table.hands[seat].extend(cards)
        return cards, refs

    def take_from_hand(self, seat: int, cards: list[str]) -> tuple[NameRef, ...]:
        hand = self.table.hands[seat]
        for card in cards:
            hand.remove(card)
        return tuple(NameRef(card, 0) for card in cards)

    def pick(self, seat: int, count: int, exclude: str | None = None) -> list[str]:
        """Random cards of a hand (one copy of ``exclude`` is kept back)."""
        pool = list(self.table.hands[seat])
        if exclude is not None:
            pool.remove(exclude)
        return self.rng.sample(pool, count)

    def use_library(self, seat: int) -> bool:
        if not self.state.library(seat).may:
            return False
        return self.rng.random() < 0.6 if self.state.library_optional(seat) else True

    # ------------------------------------------------------------------------------------------- the game
    def run(self) -> None:
        state, rng = self.state, self.rng
        n = len(self.players)
        governor = rng.randrange(n)
        self.emit(RoundMark(1, 0))
        self.emit(GovernorMark(NameRef(self.players[governor], 0), 0))
        for seat in range(n):
            _, refs = self.draw_refs(seat, self.options.start_hand)
            self.emit(HandDeal(NameRef(self.players[seat], 0), refs, 0))
        while state.stage != OVER:
            if len(self.written) > MAX_STATEMENTS:
                raise RuntimeError("the random game does not end:\n" + state.summary())
            if state.stage in (SETUP, CHOOSING):
                if state.opening():  # round 1 opens right after the setup, while the stage is still SETUP
                    if state.round > 1:
                        self.emit(RoundMark(state.round, 0))
                    self.round_start()
                self.choose_role()
            elif state.stage == TILE:
                tile = self.tiles[self.trader_phases % len(self.tiles)]
                self.trader_phases += 1
                self.emit(TileMark(tile, 0))
            elif state.stage == ACTING:
                turn = state.turns[state.turn_index]
                self.turn(turn.seat, turn.kind)
        scores = state.outcome().scores
        assert scores is not None  # San Juan is won on points
        self.emit(FinalClaim(tuple(FinalEntry(NameRef(name, 0), scores[name], 0) for name in self.players), 0))

    def round_start(self) -> None:
        state, rng = self.state, self.rng
        for seat in range(len(self.players)):
            hand = self.table.hands[seat]
            if state.works(seat, "Chapel") and hand and rng.random() < 0.7:
                card = rng.choice(hand)
                self.table.tucked[seat].append(card)
                self.act(seat, Tuck(self.take_from_hand(seat, [card])[0]))
            excess = len(hand) - state.hand_limit(seat)
            if excess > 0:
                cards = self.pick(seat, excess)
                refs = self.take_from_hand(seat, cards)
                self.table.discard.extend(cards)
                self.act(seat, Discard(refs))

    def choose_role(self) -> None:
        state, rng = self.state, self.rng
        seat = state.chooser_due()
        player = state.p[seat]
        hand = self.table.hands[seat]
        empty = sum(player.production(g) - player.goods[g] for g in GOODS)
        weights = {
            "builder": 4.0 if len(hand) >= 2 else 1.0,
            "producer": 2.5 if empty else 0.3,
            "trader": 3.0 if player.goods_total else 0.3,
            "councillor": 1.2,
            "prospector": 1.0,
        }
        roles = [role for role in weights if role not in state.roles_chosen]
        role = rng.choices(roles, [weights[r] for r in roles])[0]
        self.act(seat, RoleChoice(role))

    def turn(self, seat: int, kind: str) -> None:
        role = self.state.role
        if kind == PROSPECT:
            self.prospect(seat)
        elif kind == MINE:
            self.gold_mine(seat)
        elif role == "builder":
            self.build(seat)
        elif role == "producer":
            self.produce(seat)
        elif role == "trader":
            self.sell(seat)
        else:
            self.council(seat)

    def owed_draws(self, seat: int) -> None:
        state = self.state
        if state.stage == OVER and self.options.effects_optional:
            return  # optional draws after the end are left out (the game is settled at once); mandatory ones follow
        while state.owed_seat == seat and state.owed:
            source, count = next(iter(state.owed.items()))
            if source == "carpenter" or self.rng.random() < 0.9 or not self.options.effects_optional:
                due = state.capped(count)
                if due and (due == count or self.options.empty_supply_skips_draw):
                    _, refs = self.draw_refs(seat, due)
                    self.act(seat, OwedDraw(source, refs))
                    continue
            # decline: the next statement clears it; skip the rest of this player's owed draws
            return

    # ------------------------------------------------------------------------------------------- builder
    def build(self, seat: int) -> None:
        state, rng = self.state, self.rng
        player = state.p[seat]
        hand = self.table.hands[seat]
        library = self.use_library(seat)
        covered = None
        if state.works(seat, "Crane") and rng.random() < 0.3:
            targets = [name for name in player.city if name != "Crane" or self.options.crane_over_crane]
            if targets:
                covered = self.state.cards[rng.choice(targets)]
        options = []
        for name in dict.fromkeys(hand):  # in hand order: a set would follow the hash seed
            card = self.state.cards[name]
            if card.violet and player.owned[name]:
                continue
            if covered is not None and covered.name == name:
                continue
            cost = state.build_cost(seat, card, covered, library)
            goods = 0
            if cost and state.works(seat, "Black Market", covered) and player.goods_total and rng.random() < 0.5:
                goods = min(cost, 2, player.goods_total)
            if cost - goods <= len(hand) - 1:
                options.append((card, cost, goods))
        if not options or rng.random() < 0.06:
            self.act(seat, Pass())
            return
        card, cost, goods = rng.choices(options, [1 + c.cost for c, _, _ in options])[0]
        paying = self.pick(seat, cost - goods, exclude=card.name)
        spent: list[NameRef] = []
        for good in GOODS:
            while (
                len(spent) < goods
                and player.goods[good] - sum(1 for r in spent if r.name == BUILDING_OF_GOOD[good]) > 0
            ):
                spent.append(NameRef(BUILDING_OF_GOOD[good], 0))
        self.take_from_hand(seat, [card.name])
        pay_refs = self.take_from_hand(seat, paying)
        self.table.discard.extend(paying)
        if covered is not None and self.options.crane_covered_to_discard:
            self.table.discard.append(covered.name)
        self.act(
            seat, Build(NameRef(card.name, 0), NameRef(covered.name, 0) if covered else None, pay_refs, tuple(spent))
        )
        self.owed_draws(seat)

    # ------------------------------------------------------------------------------------------- producer
    def produce(self, seat: int) -> None:
        state = self.state
        player = state.p[seat]
        empty = [BUILDING_OF_GOOD[g] for g in GOODS for _ in range(player.production(g) - player.goods[g])]
        self.rng.shuffle(empty)
        limit = min(state.produce_limit(seat, self.use_library(seat)), len(empty), state.available())
        if limit == 0:
            self.act(seat, Pass())
            return
        chosen = empty[:limit]
        self.table.goods[seat].extend(self.table.draw() for _ in chosen)
        self.act(seat, Produce(tuple(NameRef(name, 0) for name in chosen)))
        self.owed_draws(seat)

    # --------------------------------------------------------------------------------------------- trader
    def sell(self, seat: int) -> None:
        state = self.state
        player = state.p[seat]
        goods = [g for g in GOODS for _ in range(player.goods[g])]
        limit = min(state.sell_limit(seat, self.use_library(seat)), len(goods))
        if limit == 0:
            self.act(seat, Pass())
            return
        sold = goods[-limit:]  # the most valuable goods
        for _ in sold:
            self.table.discard.append(self.table.goods[seat].pop())
        assert state.tile is not None  # the trader phase opened with its tile
        prices = state.tiles[state.tile]
        wanted = sum(prices[GOODS.index(g)] for g in sold)
        if state.capped(wanted, len(sold)) < wanted and not self.options.empty_supply_skips_draw:
            self.table.goods[seat].extend(self.table.discard[-len(sold) :])
            del self.table.discard[-len(sold) :]
            self.act(seat, Pass())
            return
        _, refs = self.draw_refs(seat, state.capped(wanted, len(sold)))
        self.act(seat, Sell(tuple(NameRef(g, 0) for g in sold), refs))
        self.owed_draws(seat)

    # ----------------------------------------------------------------------------------------- councillor
    def council(self, seat: int) -> None:
        state, rng = self.state, self.rng
        counts = state.council_counts(seat)
        if len(counts) == 3 and not self.use_library(seat):
            counts = counts[:2]
        drawn = state.capped(max(counts))
        if drawn == 0 or (drawn < max(counts) and not self.options.empty_supply_skips_draw):
            self.act(seat, Pass())
            return
        cards, refs = self.draw_refs(seat, drawn)
        keep = min(state.keep_limit(seat), drawn)
        archive = state.works(seat, "Archive") and drawn > keep and rng.random() < 0.6
        order = list(range(drawn))
        rng.shuffle(order)
        kept_idx = sorted(order if archive else order[:keep])
        keeps = tuple(refs[i] for i in kept_idx)
        rest = [cards[i] for i in range(drawn) if i not in kept_idx]
        for card in rest:
            self.table.hands[seat].remove(card)
        target = self.table.pending if self.options.council_discards_at_phase_end else self.table.discard
        target.extend(rest)
        self.act(seat, Council(refs, keeps))
        if archive:
            cards = self.pick(seat, drawn - keep)
            discard_refs = self.take_from_hand(seat, cards)
            target.extend(cards)
            self.act(seat, Discard(discard_refs))

    # ----------------------------------------------------------------------------------------- prospector
    def prospect(self, seat: int) -> None:
        state = self.state
        wanted = 2 if self.use_library(seat) else 1
        count = state.capped(wanted)
        if count < wanted and not self.options.empty_supply_skips_draw:
            count = 0
        if count == 0:
            self.act(seat, Pass())
            return
        _, refs = self.draw_refs(seat, count)
        self.act(seat, OwedDraw("prospector", refs))

    def gold_mine(self, seat: int) -> None:
        state, rng = self.state, self.rng
        count = state.capped(self.options.gold_mine_cards)
        short = count < self.options.gold_mine_cards and not self.options.empty_supply_skips_draw
        if count == 0 or short or rng.random() < 0.05:
            self.act(seat, Pass())
            return
        cards, refs = self.draw_refs(None, count)
        distinct = count == self.options.gold_mine_cards and len({self.state.cards[c].cost for c in cards}) == count
        keeps: tuple[NameRef, ...] = ()
        if distinct and (rng.random() < 0.9 or not self.options.gold_mine_keep_optional):
            i = max(range(count), key=lambda k: self.state.cards[cards[k]].cost)
            keeps = (refs[i],)
            self.table.hands[seat].append(cards[i])
            cards = cards[:i] + cards[i + 1 :]
        self.table.discard.extend(cards)
        self.act(seat, GoldMineTurn(refs, keeps))


def random_game(players: list[str], rng: random.Random, options: SJOptions) -> tuple[SJState, list[Statement]]:
    """Play a random legal game; return the final state and the statements in record order."""
    generator = Generator(players, rng, options)
    try:
        generator.run()
    except GeneratorFailed:
        raise
    except RuntimeError as error:  # no statement to write: say how far the game got (referee variant check)
        raise GeneratorFailed([statement_text(s) for s in generator.written], None, error) from error
    return generator.state, generator.written


def play_record(players: list[str], rng: random.Random, options: SJOptions, tags: dict[str, str]) -> str:
    state, statements = random_game(players, rng, options)
    tags = {"Game": "San Juan", **tags, "Players": ", ".join(players), "Result": ", ".join(state.outcome().winners)}
    return write_record(tags, (statement_text(statement) for statement in statements))


__all__ = ["play_record", "random_game"]
