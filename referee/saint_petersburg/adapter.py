"""Saint Petersburg under test: the playout policy, the legal/illegal move reports and the invariant checker."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any, ClassVar

from referee.record import NameRef
from referee.saint_petersburg import SaintPetersburg
from referee.saint_petersburg.cards import DECKS, PHASES, card_table
from referee.saint_petersburg.notation import (
    Actor,
    Buy,
    Deal,
    FinalClaim,
    FinalEntry,
    Observe,
    Pass,
    PhaseHeader,
    Play,
    Pub,
    RoundMark,
    ScoreClaim,
    ScoreEntry,
    Take,
    statement_text,
)
from referee.saint_petersburg.play import deal_tokens, final_claim, random_deal, score_claim
from referee.saint_petersburg.state import ACTING, BETWEEN, DEALING, OVER, SETUP, SPState
from referee.testkit import Checker, Config, GameAdapter

RULES_MIN_PAYMENT = 1  # the rules reference: "no card ever costs less than 1 ruble"
TOTAL_CARDS = 116  # the printed deck; a house rule's card changes may change it (total_cards)


def total_cards(options: Any) -> int:
    return sum(card.copies for card in card_table(options.edition, options.cards).values())


TOKEN_SPREAD = {2: [2, 2], 3: [1, 1, 2], 4: [1, 1, 1, 1]}


def _ref(name: str) -> NameRef:
    return NameRef(name, 0)


class SaintPetersburgAdapter(GameAdapter[SPState]):
    game = SaintPetersburg
    known_broken: ClassVar[dict[str, tuple[str, ...]]] = {"payment_at_least_one_ruble": ("sp-no-minimum",)}
    # invariants the referee is known to break today (reported, awaiting a rules decision): the test is xfail
    open_issues: ClassVar[dict[str, str]] = {}

    def text(self, statement: Any) -> str:
        return statement_text(statement)

    # ------------------------------------------------------------------------------------------- bound
    def statement_bound(self, players: int, options: Any) -> int | None:
        """Every non-pass turn moves a card deck->display->hand->area at most twice: <= 2*116 such turns. A phase
        ends after `players` passes in a row, so passes <= players*(non-pass turns + phases). The deals of two
        consecutive rounds fill at least one display (the lower row is discarded at each round end), so at most
        2*ceil(116/display)+3 rounds are played before a deck runs out and the end triggers."""
        if options.refill_skip_when_untouched or options.display_size < 1 or not options.discard_lower_row:
            return None  # untouched displays are never refilled, or the display never clears: no bound is claimed
        rounds = self.round_bound(options)
        actions = 2 * total_cards(options)
        phases = 4 * rounds
        turns = actions + players * (actions + phases)
        between = rounds * (1 + 4 + 4 + 3 + players)  # round mark, headers, deals, score claims, pubs
        return 1 + between + turns + 1

    @staticmethod
    def round_bound(options: Any) -> int:
        return 2 * math.ceil(total_cards(options) / options.display_size) + 3

    def policies(self) -> dict:
        """Random play, and players who pass whenever the rules allow (the end must come all the same)."""
        return {"random": self.step, "passive": self.passive_step}

    def passive_step(self, state: SPState, rng: random.Random, history: list) -> Any | None:
        if state.stage == ACTING and not state.buy_only():
            return Actor(_ref(state.players[state.to_act]), Pass())
        return self.step(state, rng, history)

    def has_legal_action(self, state: SPState) -> bool:
        if state.stage == ACTING:
            return bool(state.legal_actions(observe_cards=True))
        return super().has_legal_action(state)

    # -------------------------------------------------------------------------------------------- policy
    def step(self, state: SPState, rng: random.Random, history: list) -> Any | None:
        if state.stage == SETUP:
            return deal_tokens(state.players, rng)
        if state.stage == OVER:
            if state.final_claimed:
                return None
            return final_claim(state)
        if state.stage == DEALING:
            return random_deal(state, rng)
        if state.stage == BETWEEN:
            if state.score_claim_open and state.last_scoring is not None and rng.random() < 0.8:
                return score_claim(state)
            if state.pub_open:
                pubs = self.pub_moves(state)
                if pubs and rng.random() < 0.5:
                    return rng.choice(pubs)
            if state.phase_index == 0 and not (history and isinstance(history[-1], RoundMark)) and rng.random() < 0.7:
                return RoundMark(state.round, 0)
            return PhaseHeader(state.phase, 0)
        return Actor(_ref(state.players[state.to_act]), self.random_action(state, rng))

    @staticmethod
    def random_action(state: SPState, rng: random.Random):
        actions = state.legal_actions(observe_cards=True)
        if any(isinstance(a, Pass) for a in actions) and rng.random() < 0.3:
            return Pass()
        by_kind: dict[str, list] = {}
        for action in actions:
            kind = type(action).__name__ + (action.choice if isinstance(action, Observe) else "")
            by_kind.setdefault(kind, []).append(action)
        kind = rng.choice(sorted(by_kind))
        return rng.choice(by_kind[kind])

    @staticmethod
    def pub_moves(state: SPState) -> list:
        moves = []
        for seat, player in enumerate(state.p):
            if player.owns("Pub") and seat not in state.pubs_used:
                for count in range(state.pub_affordable(seat) + 1):
                    moves.append(Actor(_ref(player.name), Pub(count, count * state.options.pub_vp_price)))
        return moves

    # ------------------------------------------------------------------------------ legal / illegal reports
    def legal_moves(self, state: SPState, rng: random.Random, history: list) -> list:
        if state.stage == SETUP:
            return [deal_tokens(state.players, rng)]
        if state.stage == OVER:
            return [] if state.final_claimed else [final_claim(state)]
        if state.stage == DEALING:
            return [random_deal(state, rng)]
        if state.stage == BETWEEN:
            moves: list = [PhaseHeader(state.phase, 0)]
            if state.phase_index == 0:
                moves.append(RoundMark(state.round, 0))
            if state.score_claim_open and state.last_scoring is not None:
                moves.append(score_claim(state))
            return moves + (self.pub_moves(state) if state.pub_open else [])
        player = _ref(state.players[state.to_act])
        moves = [Actor(player, a) for a in state.legal_actions(observe_cards=True)]
        for actor in list(moves):  # the same turns written without the price claim
            action = actor.action
            if isinstance(action, (Buy, Play, Observe)) and action.price is not None:
                moves.append(Actor(player, _without_price(action)))
        return moves

    def illegal_moves(self, state: SPState, rng: random.Random, history: list) -> list:
        """Statements that break a rule by construction, for every stage."""
        if state.stage == SETUP:
            return [PhaseHeader("worker", 0), Actor(_ref(state.players[0]), Pass()), Deal((), 0)]
        if state.stage == OVER:
            return _illegal_after_end(state)
        moves: list = [
            FinalClaim(tuple(FinalEntry(_ref(p), 0, 0) for p in state.players), 0),
            deal_tokens(state.players, rng),
        ]
        if state.stage == DEALING:
            return moves + _illegal_while_dealing(state, rng)
        if state.stage == BETWEEN:
            return moves + _illegal_between_phases(state)
        return moves + _illegal_while_acting(state, rng)

    def checker(self, config: Config, players: list[str]) -> SPChecker:
        return SPChecker(config, players)


def _with_price(action, price: int):
    from dataclasses import replace

    return replace(action, price=price)


def _without_price(action):
    from dataclasses import replace

    return replace(action, price=None)


def _strip(action):
    """An action as the legal list writes it, the price claim left out."""
    return _without_price(action) if isinstance(action, (Buy, Play, Observe)) else action


# ------------------------------------------------------------------------------------------------ invariants
def rules_price(state: SPState, seat: int, card, from_lower: bool, over) -> int:
    """The price formula as the rules reference states it (an oracle written apart from ``SPState.price``)."""
    options = state.options
    player = state.p[seat]
    discount = player.owned.get(card.name, 0) + (1 if from_lower else 0)
    if card.colour == "blue" and player.owned.get("Carpenter Workshop", 0):
        discount += 1
    if card.colour == "red" and player.owned.get("Gold Smelter", 0):
        discount += 1
    if over is not None:
        discount += options.potemkin_value if over.name == "Potemkin Village" else state.cards[over.name].cost
    return max(card.cost - discount, options.min_price)


class SPChecker(Checker[SPState]):
    """Saint Petersburg invariants, checked around every statement of a game.

    Each check is a method so that a property can run one of them alone (``only``)."""

    CHECKS = (
        "display_refill",
        "payment_formula",
        "payment_at_least_one_ruble",
        "ruble_conservation",
        "card_conservation",
        "hand_limit",
        "no_card_enters_a_full_hand",
        "start_tokens",
        "end_trigger",
    )

    def __init__(self, config: Config, players: list[str], only: tuple[str, ...] | None = None) -> None:
        self.options = config.options
        self.only = set(only or self.CHECKS)
        self.paid = [0] * len(players)
        self.pending: tuple | None = None
        self.index = -1
        self.trigger_round: int | None = None
        self.bank_total: int | None = None
        self.hands = [(0, config.options.hand_limit)] * len(players)
        # [D2]: whether a card left the display (a buy or a take from it) in the phase under way, and the display
        # size a phase whose refill the option skips starts with (None: the phase refills)
        self.display_touched = True
        self.carried: int | None = None

    def on(self, name: str) -> bool:
        return name in self.only

    # --- before: work out what the statement will cost ---------------------------------------------------
    def before(self, state: SPState, statement: Any) -> None:
        self.index += 1
        self.pending = None
        if self.bank_total is None and state.bank is not None:
            self.bank_total = state.bank + sum(p.rubles for p in state.p)
        if isinstance(statement, PhaseHeader):
            skipped = self.options.refill_skip_when_untouched and not self.display_touched
            self.carried = len(state.upper) + len(state.lower) if skipped else None
            self.display_touched = False
        if not isinstance(statement, Actor):
            return
        seat = state.seats[statement.player.name]
        action = statement.action
        before = state.p[seat].rubles - state.ruble_flow[seat]  # a turn may end the phase: income comes in
        if isinstance(action, Pub):
            self.pending = (seat, before, action.count * state.options.pub_vp_price, "pub")
            return
        card = over = None
        from_lower = False
        if isinstance(action, Buy):
            card = state.cards[action.card.name]
            in_upper, in_lower = card in state.upper, card in state.lower
            from_lower = action.row == "lower" or (action.row is None and in_lower and not in_upper)
        elif isinstance(action, Play) or (isinstance(action, Observe) and action.choice == "buy"):
            card = state.cards[action.card.name]
        if card is None:
            self.pending = (seat, before, 0, "free")
            return
        upgrade_over = getattr(action, "over", None)
        if upgrade_over is not None:
            over = state.cards[upgrade_over.name]
        self.pending = (seat, before, rules_price(state, seat, card, from_lower, over), card.name)

    # --- after -------------------------------------------------------------------------------------------
    def after(self, state: SPState, statement: Any) -> None:
        if self.pending is not None:
            seat, before, expected, what = self.pending
            paid = before - (state.p[seat].rubles - state.ruble_flow[seat])
            if what not in ("pub", "free"):
                if self.on("payment_formula"):
                    self.fail(
                        paid == expected,
                        f"{state.players[seat]} paid {paid} for {what}; the rules' formula gives {expected}",
                    )
                if self.on("payment_at_least_one_ruble"):
                    self.fail(
                        paid >= RULES_MIN_PAYMENT,
                        f"{state.players[seat]} paid {paid} ruble(s) for {what}, "
                        f"less than the {RULES_MIN_PAYMENT}-ruble minimum",
                    )
            elif self.on("payment_formula"):
                self.fail(paid == expected, f"{state.players[seat]} paid {paid} for a {what} turn, not {expected}")
            self.paid[seat] += paid if not self.on("payment_formula") else expected
        if self.on("ruble_conservation"):
            self.check_rubles(state)
        if self.on("card_conservation"):
            self.check_cards(state)
        if self.on("hand_limit"):
            # The limit is checked when a card is taken (rules §5): a player whose Warehouse is displaced keeps the
            # 4th card, so a hand over the limit is legal only when it is no larger than before.
            for seat, player in enumerate(state.p):
                self.fail(
                    len(player.hand) <= state.hand_limit(seat) or len(player.hand) <= self.hands[seat][0],
                    f"{player.name} holds {len(player.hand)} cards, limit {state.hand_limit(seat)}",
                )
        if self.on("no_card_enters_a_full_hand"):
            for seat, player in enumerate(state.p):
                size, limit = self.hands[seat]
                self.fail(
                    len(player.hand) <= max(size, limit),
                    f"{player.name}'s hand grew to {len(player.hand)} cards past the limit {limit}",
                )
        self.hands = [(len(p.hand), state.hand_limit(seat)) for seat, p in enumerate(state.p)]
        if self.on("start_tokens") and state.stage != SETUP:
            self.check_tokens(state)
        if isinstance(statement, Actor) and isinstance(statement.action, (Buy, Take)):
            self.display_touched = True
        if self.on("display_refill") and state.stage == ACTING and isinstance(statement, (Deal, PhaseHeader)):
            self.check_display(state)
        if self.on("end_trigger"):
            self.check_end(state)

    def fail(self, ok: bool, message: str) -> None:
        if not ok:
            from referee.testkit import FailedAt

            raise FailedAt(self.index, message)

    def check_rubles(self, state: SPState) -> None:
        for seat, player in enumerate(state.p):
            expected = self.options.start_rubles + state.ruble_flow[seat] - self.paid[seat]
            self.fail(
                player.rubles == expected,
                f"{player.name} holds {player.rubles} rubles; start "
                f"{self.options.start_rubles} + income {state.ruble_flow[seat]} - payments {self.paid[seat]} "
                f"= {expected}",
            )
            self.fail(player.rubles >= 0, f"{player.name} holds {player.rubles} rubles")
        if self.bank_total is not None and state.bank is not None:
            total = state.bank + sum(p.rubles for p in state.p)
            self.fail(total == self.bank_total, f"bank + players hold {total} rubles, not {self.bank_total}")

    def check_cards(self, state: SPState) -> None:
        seen: Counter = Counter()
        for deck in DECKS:
            self.fail(sum(state.decks[deck].values()) == state.deck_size[deck], f"{deck} deck size is off")
            self.fail(all(v >= 0 for v in state.decks[deck].values()), f"negative copies in the {deck} deck")
            seen.update({name: c for name, c in state.decks[deck].items() if c})
        places = [state.upper, state.lower, state.discards]
        for player in state.p:
            places += [player.hand, player.area]
            self.fail(
                Counter(c.name for c in player.area) == +player.owned,
                f"{player.name}'s owned counter disagrees with their area",
            )
        for place in places:
            seen.update(c.name for c in place)
        total, printed = sum(seen.values()), total_cards(self.options)
        self.fail(total == printed, f"{total} cards in play, not {printed}")
        wrong = {name: (seen[name], card.copies) for name, card in state.cards.items() if seen[name] != card.copies}
        self.fail(not wrong, f"card copies off (seen, printed): {wrong}")

    def check_tokens(self, state: SPState) -> None:
        n = len(state.players)
        self.fail(sorted(state.holder) == sorted(PHASES), f"tokens held: {sorted(state.holder)}")
        self.fail(all(0 <= seat < n for seat in state.holder.values()), "a token is held by no player")
        spread = sorted(Counter(state.holder.values()).get(seat, 0) for seat in range(n))
        self.fail(spread == TOKEN_SPREAD[n], f"token spread {spread}, not {TOKEN_SPREAD[n]}")

    def check_display(self, state: SPState) -> None:
        deck = DECKS[state.phase_index]
        shown = len(state.upper) + len(state.lower)
        if state.round == 1 and state.phase_index == 0:
            wanted = self.options.first_deal_per_player * len(state.players)
        elif self.carried is not None:  # [D2]: no card left the display in the previous phase, none is dealt
            wanted = self.carried
        else:
            wanted = self.options.display_size
        self.fail(
            shown == wanted or (state.deck_size[deck] == 0 and shown < wanted),
            f"the {state.phase} phase of round {state.round} starts with {shown} cards on display, "
            f"not {wanted} ({state.deck_size[deck]} left in the {deck} deck)",
        )

    def check_end(self, state: SPState) -> None:
        emptied = any(state.deck_size[d] == 0 for d in DECKS)
        self.fail(state.end_triggered == emptied, f"end triggered: {state.end_triggered}; deck emptied: {emptied}")
        if state.end_triggered and self.trigger_round is None:
            self.trigger_round = state.round
        if state.stage == OVER:
            self.fail(
                state.round == self.trigger_round,
                f"the game ended in round {state.round}; a deck ran out in round {self.trigger_round}",
            )
            self.fail(state.phase_index == 3, "the game ended before the upgrade phase")


def _illegal_after_end(state: SPState) -> list:
    """After the end only final: claims may follow, and a wrong one is refused."""
    moves: list = [PhaseHeader("worker", 0), Actor(_ref(state.players[0]), Pass()), RoundMark(state.round + 1, 0)]
    claim = final_claim(state)
    first = claim.entries[0]
    moves.append(FinalClaim((FinalEntry(first.player, first.vp + 1, 0), *claim.entries[1:]), 0))
    return moves


def _illegal_while_dealing(state: SPState, rng: random.Random) -> list:
    """A deal one card short, a card from the wrong deck, an action or a header before the deal."""
    deal = random_deal(state, rng)
    wrong_deck = DECKS[(state.phase_index + 1) % 4]
    return [
        Deal(deal.cards[:-1], 0),
        Deal((*deal.cards[:-1], _ref(next(iter(state.decks[wrong_deck])))), 0),
        Actor(_ref(state.players[state.to_act]), Pass()),
        PhaseHeader(state.phase, 0),
    ]


def _illegal_between_phases(state: SPState) -> list:
    """Between phases: the wrong header, round or deal, a wrong score: claim, pubs beyond what is allowed."""
    moves: list = [
        PhaseHeader(PHASES[(state.phase_index + 1) % 4], 0),
        RoundMark(state.round + 1, 0),
        Actor(_ref(state.players[0]), Pass()),
        Deal((), 0),
    ]
    if state.score_claim_open and state.last_scoring is not None:
        scored = score_claim(state)
        top = scored.entries[0]
        moves.append(ScoreClaim((ScoreEntry(top.player, top.rubles + 1, top.vp), *scored.entries[1:]), 0))
    price = state.options.pub_vp_price
    for seat, player in enumerate(state.p):
        if state.pub_open and player.owns("Pub") and seat not in state.pubs_used:
            cap = state.pub_cap(seat)
            moves.append(Actor(_ref(player.name), Pub(cap + 1, (cap + 1) * price)))
            moves.append(Actor(_ref(player.name), Pub(0, 1)))
        else:  # out of place, no Pub, or a second pub line after this scoring: "pub 0" too
            moves.append(Actor(_ref(player.name), Pub(1, price)))
            moves.append(Actor(_ref(player.name), Pub(0, None)))
    return moves


def _illegal_while_acting(state: SPState, rng: random.Random) -> list:
    """On a player's turn: statements out of place, wrong prices, absent cards, bad upgrades and observations; only
    those the legal list does not hold in any spelling are kept."""
    seat = state.to_act
    me = _ref(state.p[seat].name)
    other = _ref(state.players[(seat + 1) % len(state.players)])
    moves: list = [
        PhaseHeader(state.phase, 0),
        PhaseHeader(PHASES[(state.phase_index + 1) % 4], 0),
        RoundMark(state.round, 0),
        ScoreClaim(tuple(ScoreEntry(_ref(p), 0, 0) for p in state.players), 0),
        Actor(other, Pass()),
        Actor(me, Pub(0, 0)),
    ]
    if not state.deal_allowed:
        moves.append(Deal((), 0))
    legal = state.legal_actions(observe_cards=True)
    legal_set = set(legal)
    for action in rng.sample(legal, min(len(legal), 6)):
        if isinstance(action, (Buy, Play, Observe)) and action.price is not None:
            for delta in (1, -1):
                if action.price + delta >= 0:
                    moves.append(Actor(me, _with_price(action, action.price + delta)))
        moves.append(Actor(other, action))
    moves += _illegal_cards(state, rng, me)
    if state.buy_only() and Pass() not in legal_set:
        moves.append(Actor(me, Pass()))
    moves += _illegal_observations(state, rng, me)
    stripped = {_strip(a) for a in legal_set}

    def listed(move: Any) -> bool:
        if not (isinstance(move, Actor) and move.player == me):
            return False
        action = move.action
        return action in legal_set or (getattr(action, "price", None) is None and _strip(action) in stripped)

    return [m for m in moves if not listed(m)]


def _illegal_cards(state: SPState, rng: random.Random, me: Any) -> list:
    """Cards not on display or not in hand, upgrades over the wrong card, a take over the hand limit, an ambiguous
    row."""
    seat = state.to_act
    player = state.p[seat]
    moves: list = []
    shown = {c.name for c in state.upper} | {c.name for c in state.lower}
    absent = [name for name in state.cards if name not in shown]
    for name in rng.sample(absent, min(3, len(absent))):
        moves += [Actor(me, Buy(_ref(name))), Actor(me, Take(_ref(name)))]
    held = {c.name for c in player.hand}
    for name in rng.sample([nm for nm in state.cards if nm not in held], 2):
        moves.append(Actor(me, Play(_ref(name))))
    area = {c.name for c in player.area}
    in_both_rows = {c.name for c in state.upper} & {c.name for c in state.lower}
    for card in [*state.upper, *state.lower]:
        row = state._row_for(card, state.upper if card in state.upper else state.lower)
        if card.upgrade:
            moves.append(Actor(me, Buy(_ref(card.name), row)))  # no target named
            targets = {t.name for t in state.targets(seat, card)}
            for name in area - targets:
                moves.append(Actor(me, Buy(_ref(card.name), row, _ref(name))))
        elif area:
            moves.append(Actor(me, Buy(_ref(card.name), row, _ref(next(iter(area))))))
        if state.buy_only() or len(player.hand) >= state.hand_limit(seat):
            moves.append(Actor(me, Take(_ref(card.name), row)))
        if card.name in in_both_rows:
            moves.append(Actor(me, Buy(_ref(card.name))))  # ambiguous row
    return moves


def _illegal_observations(state: SPState, rng: random.Random, me: Any) -> list:
    """An Observatory used without one, a card not in its deck, the last card of a deck."""
    moves: list = []
    if not (state.phase == "building" and state.free_observatories(state.to_act)):
        deck = rng.choice([d for d in DECKS if state.deck_size[d]] or list(DECKS))
        observed = next((nm for nm, c in state.decks[deck].items() if c), None)
        if observed:
            moves.append(Actor(me, Observe(deck, _ref(observed), "discard")))
        return moves
    for deck in DECKS:
        gone = [nm for nm, card in state.cards.items() if card.deck == deck and not state.decks[deck][nm]]
        if gone:
            moves.append(Actor(me, Observe(deck, _ref(gone[0]), "discard")))
        if state.deck_size[deck] == 1:
            last = next(nm for nm, c in state.decks[deck].items() if c)
            moves.append(Actor(me, Observe(deck, _ref(last), "discard")))
    return moves
