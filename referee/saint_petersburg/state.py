"""Saint Petersburg: the state of a game and every rule that changes it.

``SPState.apply`` judges one record statement: it validates everything first and only then changes the state, so a
rejected statement leaves the state untouched. ``legal_actions`` lists what the player to act may do; the replay, the
generator and the property suites all go through these two methods, so each rule lives in exactly one place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from referee.errors import ErrorKind, Verdict
from referee.game import GameState, Outcome, Termination, rank_by_score
from referee.record import NameRef
from referee.saint_petersburg.cards import DECKS, FIRST_EDITION, PHASES, SECOND_EDITION, Card
from referee.saint_petersburg.notation import (
    Action,
    Actor,
    Buy,
    Deal,
    FinalClaim,
    Observe,
    Pass,
    PhaseHeader,
    Play,
    Pub,
    RoundMark,
    ScoreClaim,
    Take,
    Tokens,
    WinClaim,
    actor_text,
    quote_player,
)
from referee.saint_petersburg.options import SPOptions
from referee.turns import clockwise, left_of, next_seat

ILLEGAL, MALFORMED = Verdict.ILLEGAL, Verdict.MALFORMED


class SPCode(ErrorKind):
    """Saint Petersburg rule violations (stable codes, documented in docs/errors.md)."""

    TOKENS_REQUIRED = ("tokens-required", ILLEGAL, "The game must start with the 'tokens:' line.")
    BAD_TOKENS = (
        "bad-tokens",
        ILLEGAL,
        "Each start token goes to exactly one player, in the numbers the player count sets.",
    )
    MISPLACED_TOKENS = ("misplaced-tokens", ILLEGAL, "'tokens:' is set up once, before the first phase.")
    ROUND_MISMATCH = ("round-mismatch", ILLEGAL, "The 'round N' checkpoint names another round than the one starting.")
    MISPLACED_ROUND = ("misplaced-round", ILLEGAL, "'round N' stands only right before a round's worker phase header.")
    WRONG_PHASE = (
        "wrong-phase",
        ILLEGAL,
        "Phases run worker, building, aristocrat, upgrade; the header names another.",
    )
    PHASE_NOT_OVER = ("phase-not-over", ILLEGAL, "A phase ends only when all players have passed in a row.")
    HEADER_EXPECTED = ("phase-header-expected", ILLEGAL, "The phase is over: the next phase's header must come first.")
    DEAL_MISSING = ("deal-missing", ILLEGAL, "Cards are due: the 'deal:' line must follow the phase header.")
    MISPLACED_DEAL = ("misplaced-deal", ILLEGAL, "'deal:' stands only right after a phase header.")
    DEAL_COUNT = (
        "deal-count",
        ILLEGAL,
        "The deal draws exactly the cards due (up to 8 in the display; 2 per player in "
        "round 1's worker phase), or all that remain when the deck runs short.",
    )
    DEAL_WRONG_DECK = ("deal-wrong-deck", ILLEGAL, "A phase deals only from its own deck.")
    DEAL_EXHAUSTED = ("deal-exhausted", ILLEGAL, "The deck holds no more copies of that card.")
    NOT_YOUR_TURN = ("not-your-turn", ILLEGAL, "Players act in turn: the phase's token holder first, then clockwise.")
    NOT_IN_DISPLAY = ("not-in-display", ILLEGAL, "Only cards in the display (in the named row) can be bought or taken.")
    AMBIGUOUS_ROW = ("ambiguous-row", ILLEGAL, "The card lies in both rows: the row must be written.")
    NOT_IN_HAND = ("not-in-hand", ILLEGAL, "Only cards in the player's hand can be played.")
    CANNOT_AFFORD = ("cannot-afford", ILLEGAL, "A player may not spend more rubles than they have.")
    PRICE_MISMATCH = ("price-mismatch", ILLEGAL, "The claimed price differs from the price the rules give.")
    UPGRADE_NEEDS_TARGET = ("upgrade-needs-target", ILLEGAL, "An upgrade card is bought or played only over a card.")
    NOT_AN_UPGRADE = ("not-an-upgrade", ILLEGAL, "Only upgrade cards are placed over another card.")
    BAD_TARGET = (
        "bad-upgrade-target",
        ILLEGAL,
        "An upgrade displaces one card of its colour in the buyer's area: green "
        "needs the matching worker (or Czar & Carpenter), never an upgrade, never "
        "an Observatory turned this round.",
    )
    HAND_FULL = ("hand-full", ILLEGAL, "Hand limit: 3 cards, 4 with the Warehouse.")
    MUST_BUY = ("must-buy", ILLEGAL, "Round 1's worker phase (2nd edition): every turn buys a card from the display.")
    OBSERVATORY_UNAVAILABLE = (
        "observatory-unavailable",
        ILLEGAL,
        "An Observatory is used in the building phase, once per round, by its owner.",
    )
    OBSERVATORY_LAST_CARD = ("observatory-last-card", ILLEGAL, "The Observatory may not draw a deck's last card.")
    OBSERVED_CARD_UNAVAILABLE = (
        "observed-card-unavailable",
        ILLEGAL,
        "The observed card must be one the deck still holds.",
    )
    PUB_MISPLACED = ("pub-misplaced", ILLEGAL, "Pub VP are bought right after a building scoring.")
    PUB_NOT_OWNED = ("pub-not-owned", ILLEGAL, "Only a Pub owner buys VP with a Pub.")
    PUB_LIMIT = ("pub-limit", ILLEGAL, "A Pub buys at most 5 VP per building scoring.")
    PUB_TWICE = ("pub-twice", ILLEGAL, "A player uses their Pubs once per building scoring.")
    SCORE_MISMATCH = ("score-mismatch", ILLEGAL, "The claimed phase scoring differs from the computed one.")
    SCORE_MISPLACED = (
        "score-misplaced",
        ILLEGAL,
        "'score:' stands once, right after a scoring phase ends, before pubs.",
    )


class SPTermination(Termination):
    DECK_EXHAUSTED = ("deck-exhausted", "a deck ran out; the round was played out and final scoring decided")


# Stages of the statement flow.
SETUP, BETWEEN, DEALING, ACTING, OVER = "setup", "between phases", "dealing", "acting", "over"


@dataclass
class PlayerState:
    name: str
    rubles: int
    area: list[Card] = field(default_factory=list)
    owned: Counter = field(default_factory=Counter)
    hand: list[Card] = field(default_factory=list)
    vp: int = 0  # VP from phase scorings and pubs
    pub_vp: int = 0
    observatories_used: int = 0  # this round
    observatories_fresh: int = 0  # bought this building phase (for observatory_same_phase = false)

    def owns(self, name: str) -> bool:
        return self.owned.get(name, 0) > 0


@dataclass
class Scoring:
    rubles: int
    vp: int


class SPState(GameState):
    handlers: ClassVar[dict[type, str]] = {
        Actor: "_apply_actor",
        Deal: "_apply_deal",
        PhaseHeader: "_apply_header",
        RoundMark: "_apply_round",
        ScoreClaim: "_apply_score_claim",
        FinalClaim: "apply_final_claim",
        WinClaim: "apply_win_claim",
        Tokens: "_apply_tokens",
    }

    def __init__(self, players: list[str], options: SPOptions) -> None:
        self.players = list(players)
        self.options = options
        self.cards = FIRST_EDITION if options.edition == 1 else SECOND_EDITION
        self.seats = {name: seat for seat, name in enumerate(players)}
        self.p = [PlayerState(name, options.start_rubles) for name in players]
        self.bank: int | None = options.bank_rubles or None  # None: unlimited
        self.holder: dict[str, int] = {}
        self.decks: dict[str, Counter] = {deck: Counter() for deck in DECKS}
        for card in self.cards.values():
            self.decks[card.deck][card.name] = card.copies
        self.deck_size = {deck: sum(counter.values()) for deck, counter in self.decks.items()}
        self.upper: list[Card] = []
        self.lower: list[Card] = []
        self.discards: list[Card] = []
        self.round = 1
        self.phase_index = 0  # the current phase, or the next one while BETWEEN
        self.stage = SETUP
        self.to_act = 0
        self.passes = 0
        self.due = 0
        self.deal_allowed = False
        self.end_triggered = False
        self.display_touched = True  # did a card leave the display in the previous phase (option D2)
        self.last_scoring: list[Scoring] | None = None
        self.score_claim_open = False
        self.pub_open = False
        self.pubs_used: set[int] = set()
        self.final_claimed = False
        self.ruble_flow = [0] * len(players)  # income received (for conservation checks)
        self._outcome: Outcome | None = None

    # ------------------------------------------------------------------------------------------------ queries
    @property
    def phase(self) -> str:
        return PHASES[self.phase_index]

    def is_terminal(self) -> bool:
        return self.stage == OVER

    def hand_limit(self, seat: int) -> int:
        return self.options.warehouse_hand_limit if self.p[seat].owns("Warehouse") else self.options.hand_limit

    def buy_only(self) -> bool:
        """Round 1's worker phase in the 2nd edition: purchases only."""
        return self.options.first_worker_phase_buy_only and self.round == 1 and self.phase_index == 0

    def first_phase_ends_when_empty(self) -> bool:
        """Round 1's worker phase ends with an empty display when it is buy-only (or under option D7)."""
        if self.round != 1 or self.phase_index != 0:
            return False
        return self.options.first_worker_phase_buy_only or self.options.first_worker_phase_ends_when_empty

    def card_value(self, card: Card) -> int:
        return self.options.potemkin_value if card.name == "Potemkin Village" else card.cost

    def price(self, seat: int, card: Card, from_lower: bool, over: Card | None) -> int:
        """The one price formula: printed cost less every reduction, never below the minimum (1 ruble)."""
        player = self.p[seat]
        price = card.cost - player.owned.get(card.name, 0)
        if from_lower:
            price -= 1
        if card.colour == "blue" and player.owns("Carpenter Workshop"):
            price -= 1
        if card.colour == "red" and player.owns("Gold Smelter"):
            price -= 1
        if over is not None:
            price -= self.card_value(over)
        return max(price, self.options.min_price)

    def free_observatories(self, seat: int) -> int:
        player = self.p[seat]
        owned = player.owned.get("Observatory", 0)
        if not self.options.observatory_same_phase:
            owned -= player.observatories_fresh
        if self.options.observatory_each_once:
            return max(owned - player.observatories_used, 0)
        return 1 if owned > 0 and player.observatories_used == 0 else 0

    def targets(self, seat: int, upgrade: Card, turning: int = 0) -> list[Card]:
        """The distinct cards of a player's area an upgrade may displace (``turning``: Observatories being used
        by this very turn, which are turned and so cannot be displaced)."""
        player = self.p[seat]
        found: dict[str, Card] = {}
        for card in player.area:
            if self._target_problem(seat, upgrade, card, turning) is None:
                found.setdefault(card.name, card)
        return list(found.values())

    def _target_problem(self, seat: int, upgrade: Card, target: Card, turning: int = 0) -> str | None:
        player = self.p[seat]
        if not player.owns(target.name):
            return f"{player.name} has no {target.name} in their area"
        if target.upgrade:
            return "an upgrade never displaces another upgrade"
        if target.colour != upgrade.colour:
            return f"{upgrade.name} is a {upgrade.colour} upgrade and displaces only a {upgrade.colour} card"
        if upgrade.colour == "green" and target.symbol not in (upgrade.symbol, "any"):
            return (
                f"{upgrade.name} needs a worker with the {upgrade.symbol} symbol (or Czar & Carpenter); "
                f"{target.name} shows {target.symbol}"
            )
        if target.name == "Observatory" and player.owned["Observatory"] <= player.observatories_used + turning:
            return "an Observatory turned this round cannot be displaced"
        return None

    # ------------------------------------------------------------------------------------------------ apply
    def _apply_tokens(self, st: Tokens) -> None:
        if self.stage == OVER:
            raise self.after_end(st.column)
        if self.stage != SETUP:
            raise self.fail(
                SPCode.MISPLACED_TOKENS, "the start tokens are dealt once, before the first phase", st.column
            )
        holder: dict[str, int] = {}
        counts = Counter()
        for grant in st.grants:
            seat = self.seat_of(grant.player)
            for ref in grant.phases:
                phase, column = ref.name, ref.column
                if phase in holder:
                    raise self.fail(SPCode.BAD_TOKENS, f"the {phase} token is given twice", column)
                holder[phase] = seat
                counts[seat] += 1
        missing = [phase for phase in PHASES if phase not in holder]
        if missing:
            raise self.fail(SPCode.BAD_TOKENS, f"no player holds the {', '.join(missing)} token", st.column)
        n = len(self.players)
        wanted = {2: [2, 2], 3: [1, 1, 2], 4: [1, 1, 1, 1]}.get(n)
        if wanted is not None and sorted(counts[s] for s in range(n)) != wanted:
            spread = {2: "two tokens each", 3: "one token each and one player a second", 4: "one token each"}[n]
            raise self.fail(SPCode.BAD_TOKENS, f"with {n} players the tokens go {spread}", st.column)
        self.holder = holder
        self.stage = BETWEEN
        self.phase_index = 0

    def _apply_round(self, st: RoundMark) -> None:
        if self.stage == OVER:
            raise self.after_end(st.column)
        if not (self.stage in (SETUP, BETWEEN) and self.phase_index == 0):
            raise self.fail(
                SPCode.MISPLACED_ROUND, "'round N' stands only right before a round's worker phase", st.column
            )
        if st.number != self.round:
            self.claim_failed(
                SPCode.ROUND_MISMATCH, f"this is round {self.round}, not round {st.number}", st.number_column
            )

    def _apply_header(self, st: PhaseHeader) -> None:
        if self.stage == OVER:
            raise self.after_end(st.column)
        if self.stage == SETUP:
            raise self.fail(SPCode.TOKENS_REQUIRED, "the 'tokens:' line must come before the first phase", st.column)
        if self.stage == DEALING:
            raise self.fail(SPCode.DEAL_MISSING, f"{self.due} card(s) are due: write the 'deal:' line", st.column)
        if self.stage == ACTING:
            raise self.fail(
                SPCode.PHASE_NOT_OVER,
                f"the {self.phase} phase is not over: "
                f"{self.p[self.to_act].name} is to act ({self.passes} pass(es) in a row so far)",
                st.column,
            )
        if st.phase != self.phase:
            raise self.fail(
                SPCode.WRONG_PHASE, f"the {self.phase} phase comes next, not the {st.phase} phase", st.column
            )
        self._start_phase()

    def _start_phase(self) -> None:
        options = self.options
        deck = DECKS[self.phase_index]
        if self.round == 1 and self.phase_index == 0:
            due = options.first_deal_per_player * len(self.players)
        else:
            due = max(options.display_size - len(self.upper) - len(self.lower), 0)
            if options.refill_skip_when_untouched and not self.display_touched:
                due = 0
        self.due = min(due, self.deck_size[deck])
        self.display_touched = False
        self.score_claim_open = self.pub_open = False
        self.last_scoring = None
        self.passes = 0
        self.to_act = self.holder[self.phase]
        for player in self.p:
            player.observatories_fresh = 0
        self.stage = DEALING if self.due else ACTING
        self.deal_allowed = True

    def _apply_deal(self, st: Deal) -> None:
        if self.stage == OVER:
            raise self.after_end(st.column)
        if not (self.stage == DEALING or (self.stage == ACTING and self.deal_allowed)):
            raise self.fail(SPCode.MISPLACED_DEAL, "'deal:' stands only right after a phase header", st.column)
        deck = DECKS[self.phase_index]
        if len(st.cards) != self.due:
            left = self.deck_size[deck]
            why = f"{self.due} card(s) are due" + (f" ({left} left in the {deck} deck)" if left < 8 else "")
            column = (
                st.cards[min(self.due, len(st.cards) - 1)].column
                if st.cards and self.due < len(st.cards)
                else st.column
            )
            raise self.fail(SPCode.DEAL_COUNT, f"{why}, the deal draws {len(st.cards)}", column)
        taken = Counter()
        cards: list[Card] = []
        for ref in st.cards:
            card = self.cards[ref.name]
            if card.deck != deck:
                raise self.fail(
                    SPCode.DEAL_WRONG_DECK,
                    f"{card.name} belongs to the {card.deck} deck; the {self.phase} phase deals from the {deck} deck",
                    ref.column,
                )
            taken[card.name] += 1
            if taken[card.name] > self.decks[deck][card.name]:
                raise self.fail(
                    SPCode.DEAL_EXHAUSTED,
                    f"the {deck} deck holds no more {card.name} ({card.copies} in the game)",
                    ref.column,
                )
            cards.append(card)
        for card in cards:
            self.decks[deck][card.name] -= 1
        self.deck_size[deck] -= len(cards)
        self.upper.extend(cards)
        if cards and self.deck_size[deck] == 0:
            self.end_triggered = True
        self.stage = ACTING
        self.deal_allowed = False

    # ---------------------------------------------------------------------------------------------- actions
    def _apply_actor(self, st: Actor) -> None:
        seat = self.seat_of(st.player)
        action = st.action
        if isinstance(action, Pub):
            self._apply_pub(seat, action)
            return
        if self.stage != ACTING:
            if self.stage == OVER:
                raise self.after_end(action.column)
            if self.stage == SETUP:
                raise self.fail(SPCode.TOKENS_REQUIRED, "the 'tokens:' line must come first", st.player.column)
            if self.stage == DEALING:
                raise self.fail(
                    SPCode.DEAL_MISSING, f"{self.due} card(s) are due: the 'deal:' line comes first", st.player.column
                )
            raise self.fail(
                SPCode.HEADER_EXPECTED,
                f"the {PHASES[self.phase_index - 1] if self.phase_index else 'upgrade'} phase is over; "
                f"the {self.phase} phase header comes next",
                st.player.column,
            )
        if seat != self.to_act:
            raise self.fail(
                SPCode.NOT_YOUR_TURN,
                f"it is {self.p[self.to_act].name}'s turn, not {st.player.name}'s",
                st.player.column,
            )
        self.apply_action(seat, action)

    def apply_action(self, seat: int, action: Action) -> None:
        """Judge and carry out one turn of the player to act (the OpenSpiel ``apply_action``)."""
        if isinstance(action, Pass):
            self._check_pass(seat, action)
            self._end_turn(passed=True)
            return
        if self.buy_only() and not isinstance(action, Buy):
            raise self.fail(
                SPCode.MUST_BUY, "in round 1's worker phase every turn buys a card from the display", action.column
            )
        if isinstance(action, Buy):
            self._buy(seat, action)
        elif isinstance(action, Take):
            self._take(seat, action)
        elif isinstance(action, Play):
            self._play(seat, action)
        elif isinstance(action, Observe):
            self._observe(seat, action)
        else:
            raise TypeError(action)
        self._end_turn(passed=False)

    def _check_pass(self, seat: int, action: Pass) -> None:
        if self.buy_only():
            affordable = any(
                self.price(seat, card, row is self.lower, None) <= self.p[seat].rubles
                for row in (self.upper, self.lower)
                for card in row
            )
            if affordable or not self.options.first_phase_broke_pass:
                raise self.fail(
                    SPCode.MUST_BUY,
                    "in round 1's worker phase every turn buys a card from the "
                    "display; passing is allowed only to a player who can afford none",
                    action.column,
                )

    def _locate(self, card: Card, row: str | None, column: int, verb: str) -> list[Card]:
        in_upper, in_lower = card in self.upper, card in self.lower
        if row == "upper" or (row is None and in_upper and not in_lower):
            if not in_upper:
                raise self.fail(SPCode.NOT_IN_DISPLAY, f"there is no {card.name} in the upper row", column)
            return self.upper
        if row == "lower" or (row is None and in_lower and not in_upper):
            if not in_lower:
                raise self.fail(SPCode.NOT_IN_DISPLAY, f"there is no {card.name} in the lower row", column)
            return self.lower
        if in_upper and in_lower:
            raise self.fail(
                SPCode.AMBIGUOUS_ROW,
                f"{card.name} lies in both rows: write '{verb} upper {card.name}' or '{verb} lower {card.name}'",
                column,
            )
        raise self.fail(SPCode.NOT_IN_DISPLAY, f"there is no {card.name} in the display", column)

    def _resolve_target(
        self, seat: int, card: Card, over: NameRef | None, column: int, turning: int = 0
    ) -> Card | None:
        if not card.upgrade:
            if over is not None:
                raise self.fail(
                    SPCode.NOT_AN_UPGRADE, f"{card.name} is not an upgrade card and displaces nothing", over.column
                )
            return None
        if over is None:
            raise self.fail(
                SPCode.UPGRADE_NEEDS_TARGET,
                f"{card.name} is an upgrade: write 'over CARD' naming the {card.colour} card it displaces",
                column,
            )
        target = self.cards[over.name]
        problem = self._target_problem(seat, card, target, turning)
        if problem:
            raise self.fail(SPCode.BAD_TARGET, problem, over.column)
        return target

    def _pay(self, seat: int, card: Card, price: int, claimed: int | None, claim_column: int, column: int) -> None:
        """Check a price claim and the player's money (no change yet)."""
        if claimed is not None and claimed != price:
            self.claim_failed(
                SPCode.PRICE_MISMATCH,
                f"{card.name} costs {self.p[seat].name} {price} rubles here, not {claimed}",
                claim_column,
            )
        if price > self.p[seat].rubles:
            raise self.fail(
                SPCode.CANNOT_AFFORD,
                f"{card.name} costs {price} rubles; {self.p[seat].name} has {self.p[seat].rubles}",
                column,
            )

    def _place(self, seat: int, card: Card, target: Card | None, price: int) -> None:
        player = self.p[seat]
        player.rubles -= price
        if self.bank is not None:
            self.bank += price
        if target is not None:
            player.area.remove(target)
            player.owned[target.name] -= 1
            self.discards.append(target)
        player.area.append(card)
        player.owned[card.name] += 1
        if card.name == "Observatory":
            player.observatories_fresh += 1

    def _buy(self, seat: int, action: Buy) -> None:
        card = self.cards[action.card.name]
        row = self._locate(card, action.row, action.card.column, "buy")
        target = self._resolve_target(seat, card, action.over, action.card.column)
        price = self.price(seat, card, row is self.lower, target)
        self._pay(seat, card, price, action.price, action.price_column, action.card.column)
        row.remove(card)
        self.display_touched = True
        self._place(seat, card, target, price)

    def _take(self, seat: int, action: Take) -> None:
        card = self.cards[action.card.name]
        row = self._locate(card, action.row, action.card.column, "take")
        if len(self.p[seat].hand) >= self.hand_limit(seat):
            raise self.fail(
                SPCode.HAND_FULL,
                f"{self.p[seat].name} already holds {len(self.p[seat].hand)} "
                f"card(s), the limit is {self.hand_limit(seat)}",
                action.column,
            )
        row.remove(card)
        self.display_touched = True
        self.p[seat].hand.append(card)

    def _play(self, seat: int, action: Play) -> None:
        card = self.cards[action.card.name]
        if card not in self.p[seat].hand:
            raise self.fail(SPCode.NOT_IN_HAND, f"{self.p[seat].name} holds no {card.name}", action.card.column)
        target = self._resolve_target(seat, card, action.over, action.card.column)
        price = self.price(seat, card, False, target)
        self._pay(seat, card, price, action.price, action.price_column, action.card.column)
        self.p[seat].hand.remove(card)
        self._place(seat, card, target, price)

    def _observe(self, seat: int, action: Observe) -> None:
        if self.phase != "building":
            raise self.fail(
                SPCode.OBSERVATORY_UNAVAILABLE, "an Observatory is used only in the building phase", action.column
            )
        if self.free_observatories(seat) == 0:
            why = (
                "owns no Observatory"
                if not self.p[seat].owns("Observatory")
                else "has already used their Observatory this round"
                if self.p[seat].observatories_used
                else "cannot use an Observatory in the phase it was bought"
            )
            raise self.fail(SPCode.OBSERVATORY_UNAVAILABLE, f"{self.p[seat].name} {why}", action.column)
        deck = action.deck
        if self.deck_size[deck] < 2:
            raise self.fail(
                SPCode.OBSERVATORY_LAST_CARD,
                f"the {deck} deck holds {self.deck_size[deck]} card(s); "
                "the Observatory may not draw a deck's last card",
                action.column,
            )
        card = self.cards[action.card.name]
        if card.deck != deck or self.decks[deck][card.name] == 0:
            where = f"belongs to the {card.deck} deck" if card.deck != deck else "has no copy left in that deck"
            raise self.fail(SPCode.OBSERVED_CARD_UNAVAILABLE, f"{card.name} {where}", action.card.column)
        target = None
        price = 0
        if action.choice == "buy":
            target = self._resolve_target(seat, card, action.over, action.card.column, turning=1)
            price = self.price(seat, card, False, target)
            self._pay(seat, card, price, action.price, action.price_column, action.card.column)
        elif action.choice == "take" and len(self.p[seat].hand) >= self.hand_limit(seat):
            raise self.fail(
                SPCode.HAND_FULL,
                f"{self.p[seat].name}'s hand is full (limit {self.hand_limit(seat)}); discard or buy the observed card",
                action.column,
            )
        self.decks[deck][card.name] -= 1
        self.deck_size[deck] -= 1
        self.p[seat].observatories_used += 1
        if action.choice == "buy":
            self._place(seat, card, target, price)
        elif action.choice == "take":
            self.p[seat].hand.append(card)
        else:
            self.discards.append(card)

    def _end_turn(self, passed: bool) -> None:
        n = len(self.players)
        self.deal_allowed = False
        self.passes = self.passes + 1 if passed else 0
        self.to_act = next_seat(self.to_act, n)
        if self.passes >= n or (self.first_phase_ends_when_empty() and not self.upper and not self.lower):
            self._end_phase()

    # ------------------------------------------------------------------------------------------- scoring
    def _income(self, seat: int, rubles: int) -> int:
        if self.bank is not None:
            rubles = min(rubles, self.bank)
            self.bank -= rubles
        self.p[seat].rubles += rubles
        self.ruble_flow[seat] += rubles
        return rubles

    def phase_scoring(self, seat: int) -> Scoring:
        """Rubles and VP a player's cards give at the end of the current phase (before pubs)."""
        colour = ("green", "blue", "red")[self.phase_index]
        player = self.p[seat]
        rubles = vp = 0
        for card in player.area:
            if card.colour == colour:
                rubles += card.rubles
                vp += card.vp
        if colour == "blue":
            if player.owns("Mariinsky Theater"):
                reds = sum(
                    1
                    for c in player.area
                    if c.colour == "red" and (self.options.mariinsky_counts_red_upgrades or not c.upgrade)
                )
                if self.options.mariinsky_rubles:
                    rubles += reds
                else:
                    vp += reds
            vp -= self.cards["Observatory"].vp * min(player.observatories_used, player.owned.get("Observatory", 0))
        if colour == "red" and player.owns("Tax Man"):
            rubles += sum(1 for c in player.area if c.colour == "green")
        return Scoring(rubles, vp)

    def _end_phase(self) -> None:
        if self.phase_index < 3:
            n = len(self.players)
            order = clockwise(self.holder[self.phase], n)
            results: list[Scoring] = [Scoring(0, 0)] * n
            for seat in order:
                due = self.phase_scoring(seat)
                paid = self._income(seat, due.rubles)
                self.p[seat].vp += due.vp
                results[seat] = Scoring(paid, due.vp)
            self.last_scoring = results
            self.score_claim_open = True
            self.pub_open = self.phase_index == 1
            self.pubs_used = set()
            self.phase_index += 1
            self.stage = BETWEEN
            return
        # end of the upgrade phase: end of the round
        if self.end_triggered:
            self.stage = OVER
            self._outcome = self._final_scoring()
            return
        self.discards.extend(self.lower)
        self.lower = self.upper
        self.upper = []
        n = len(self.players)
        self.holder = {phase: left_of(seat, n) for phase, seat in self.holder.items()}
        for player in self.p:
            player.observatories_used = 0
        self.round += 1
        self.phase_index = 0
        self.stage = BETWEEN
        self.score_claim_open = self.pub_open = False

    def _apply_score_claim(self, st: ScoreClaim) -> None:
        seats = self.claimed_seats(entry.player for entry in st.entries)  # a malformed line, wherever it stands
        if self.stage == OVER:
            raise self.after_end(st.column)
        if not (self.stage == BETWEEN and self.score_claim_open):
            raise self.fail(
                SPCode.SCORE_MISPLACED,
                "'score:' stands once, right after a worker, building or aristocrat phase ends and before any pub line",
                st.column,
            )
        for seat, entry in zip(seats, st.entries, strict=True):
            real = self.last_scoring[seat]
            if (entry.rubles, entry.vp) != (real.rubles, real.vp):
                self.claim_failed(
                    SPCode.SCORE_MISMATCH,
                    f"{entry.player.name} scores +{real.rubles}R +{real.vp}VP, not +{entry.rubles}R +{entry.vp}VP",
                    entry.player.column,
                )
                break
        self.score_claim_open = False

    def pub_cap(self, seat: int) -> int:
        pubs = self.p[seat].owned.get("Pub", 0)
        if not pubs:
            return 0
        return self.options.pub_max_vp * (pubs if self.options.pub_cap_per_pub else 1)

    def _apply_pub(self, seat: int, action: Pub) -> None:
        if self.stage == OVER:
            raise self.after_end(action.column)
        if not (self.stage == BETWEEN and self.pub_open):
            raise self.fail(
                SPCode.PUB_MISPLACED,
                "Pub VP are bought right after a building scoring, before the next phase header",
                action.column,
            )
        player = self.p[seat]
        if action.count == 0 and action.price in (None, 0):
            return  # "pub 0" buys nothing and equals no line (spec section 2): any player may write it
        if not player.owns("Pub"):
            raise self.fail(SPCode.PUB_NOT_OWNED, f"{player.name} owns no Pub", action.column)
        if seat in self.pubs_used:
            raise self.fail(
                SPCode.PUB_TWICE, f"{player.name} has already used their Pubs after this scoring", action.column
            )
        cap = self.pub_cap(seat)
        if action.count > cap:
            raise self.fail(
                SPCode.PUB_LIMIT, f"{player.name}'s Pubs buy at most {cap} VP per building scoring", action.count_column
            )
        cost = action.count * self.options.pub_vp_price
        if action.price is not None and action.price != cost:
            self.claim_failed(
                SPCode.PRICE_MISMATCH, f"{action.count} VP cost {cost} rubles, not {action.price}", action.price_column
            )
        if cost > player.rubles:
            raise self.fail(
                SPCode.CANNOT_AFFORD,
                f"{action.count} VP cost {cost} rubles; {player.name} has {player.rubles}",
                action.count_column,
            )
        player.rubles -= cost
        if self.bank is not None:
            self.bank += cost
        player.vp += action.count
        player.pub_vp += action.count
        self.pubs_used.add(seat)
        self.score_claim_open = False

    def _final_scoring(self) -> Outcome:
        options = self.options
        scores: dict[str, int] = {}
        breakdown: dict[str, dict[str, int]] = {}
        tiebreak: dict[str, int] = {}
        for player in self.p:
            distinct = len({c.name for c in player.area if c.colour == "red"})
            variety = options.variety_table[min(distinct, len(options.variety_table) - 1)]
            conversion = player.rubles // options.rubles_per_vp
            leftover = player.rubles % options.rubles_per_vp
            penalty = options.hand_penalty * len(player.hand)
            total = player.vp + variety + conversion - penalty
            scores[player.name] = total
            breakdown[player.name] = {
                "phase scoring": player.vp - player.pub_vp,
                "pubs": player.pub_vp,
                "aristocrat variety": variety,
                "rubles": conversion,
                "hand penalty": -penalty,
                "total": total,
                "rubles left": leftover,
            }
            tiebreak[player.name] = leftover if options.tiebreak_leftover else player.rubles
        criterion = "rubles left after conversion" if options.tiebreak_leftover else "total rubles"
        return rank_by_score(scores, SPTermination.DECK_EXHAUSTED, [(criterion, tiebreak)], breakdown)

    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise RuntimeError("the game is not over")
        return self._outcome

    # ---------------------------------------------------------------------------------------- alternatives
    def _row_for(self, card: Card, row: list[Card]) -> str | None:
        other = self.lower if row is self.upper else self.upper
        if card in other:
            return "upper" if row is self.upper else "lower"
        return None

    def legal_actions(self, seat: int | None = None, observe_cards: bool = True) -> list[Action]:
        """Every turn the player to act may take now (Observatory draws listed per card still in the deck)."""
        if self.stage != ACTING:
            return []
        seat = self.to_act if seat is None else seat
        player = self.p[seat]
        actions: list[Action] = []

        def purchases(card: Card, row_name: str | None, from_lower: bool, make, turning: int = 0) -> None:
            if card.upgrade:
                for target in self.targets(seat, card, turning):
                    price = self.price(seat, card, from_lower, target)
                    if price <= player.rubles:
                        actions.append(make(card, row_name, NameRef(target.name, 0), price))
            else:
                price = self.price(seat, card, from_lower, None)
                if price <= player.rubles:
                    actions.append(make(card, row_name, None, price))

        room = len(player.hand) < self.hand_limit(seat)
        for row in (self.upper, self.lower):
            for card in dict.fromkeys(row):
                row_name = self._row_for(card, row)
                purchases(card, row_name, row is self.lower, lambda c, r, o, p: Buy(NameRef(c.name, 0), r, o, p))
                if room and not self.buy_only():
                    actions.append(Take(NameRef(card.name, 0), row_name))
        if self.buy_only():
            if not actions and self.options.first_phase_broke_pass:
                actions.append(Pass())
            return actions
        for card in dict.fromkeys(player.hand):
            purchases(card, None, False, lambda c, r, o, p: Play(NameRef(c.name, 0), o, p))
        if self.phase == "building" and self.free_observatories(seat) and observe_cards:
            for deck in DECKS:
                if self.deck_size[deck] < 2:
                    continue
                for name, copies in self.decks[deck].items():
                    if not copies:
                        continue
                    card = self.cards[name]
                    purchases(
                        card,
                        None,
                        False,
                        lambda c, r, o, p, d=deck: Observe(d, NameRef(c.name, 0), "buy", o, p),
                        turning=1,
                    )
                    if room:
                        actions.append(Observe(deck, NameRef(name, 0), "take"))
                    actions.append(Observe(deck, NameRef(name, 0), "discard"))
        actions.append(Pass())
        return actions

    def legal_statements(self) -> list[str]:
        if self.stage == SETUP:
            return ["tokens: PLAYER PHASE..., ..."]
        if self.stage == OVER:
            return ["final: PLAYER VP, ...", "win: PLAYER"]
        if self.stage == DEALING:
            return [f"deal: {self.due} card(s) from the {DECKS[self.phase_index]} deck"]
        if self.stage == BETWEEN:
            options = [f"{self.phase} phase"]
            if self.phase_index == 0:
                options.insert(0, f"round {self.round}")
            if self.score_claim_open:
                options.append("score: PLAYER +NR +NVP, ...")
            if self.pub_open:
                for seat, player in enumerate(self.p):
                    if player.owns("Pub") and seat not in self.pubs_used:
                        options.append(f"{quote_player(player.name)}: pub 0..{self.pub_cap(seat)}")
            return options
        actions = self.legal_actions(observe_cards=False)
        player = self.players[self.to_act]
        texts = [actor_text(player, action) for action in actions]
        if self.phase == "building" and self.free_observatories(self.to_act):
            texts.insert(-1, f"{quote_player(player)}: observe DECK: CARD, buy|take|discard")
        return texts

    def fingerprint(self) -> tuple:
        """Everything that defines the position, as a comparable value (a rejected statement must not change it)."""
        players = tuple(
            (
                p.rubles,
                tuple(c.name for c in p.area),
                tuple(c.name for c in p.hand),
                p.vp,
                p.pub_vp,
                p.observatories_used,
                p.observatories_fresh,
            )
            for p in self.p
        )
        decks = tuple(tuple(sorted((k, v) for k, v in counter.items() if v)) for counter in self.decks.values())
        return (
            players,
            decks,
            tuple(self.deck_size.values()),
            tuple(c.name for c in self.upper),
            tuple(c.name for c in self.lower),
            tuple(c.name for c in self.discards),
            self.round,
            self.phase_index,
            self.stage,
            self.to_act,
            self.passes,
            self.due,
            self.deal_allowed,
            self.end_triggered,
            self.score_claim_open,
            self.pub_open,
            tuple(sorted(self.pubs_used)),
            tuple(sorted(self.holder.items())),
            self.bank,
            self.final_claimed,
            self.display_touched,
        )

    # --------------------------------------------------------------------------------------------- summary
    def summary(self) -> str:
        def names(cards: list[Card]) -> str:
            return ", ".join(c.name for c in cards) or "-"

        where = {SETUP: "setup", OVER: "game over"}.get(self.stage, f"round {self.round}, {self.phase} phase")
        lines = [
            where
            + (
                f", {self.p[self.to_act].name} to act, {self.passes} pass(es) in a row"
                if self.stage == ACTING
                else f" ({self.stage})"
                if self.stage != OVER
                else ""
            )
        ]
        if self.stage != SETUP:
            lines.append(f"display upper: {names(self.upper)} | lower: {names(self.lower)}")
            lines.append(
                "decks: "
                + ", ".join(f"{d} {self.deck_size[d]}" for d in DECKS)
                + (" (end triggered)" if self.end_triggered else "")
            )
        for seat, player in enumerate(self.p):
            tokens = [phase for phase, holder in self.holder.items() if holder == seat]
            lines.append(
                f"{player.name}: {player.rubles} rubles, {player.vp} VP, tokens {'/'.join(tokens) or '-'}; "
                f"hand [{names(player.hand)}]; area [{names(player.area)}]"
            )
        return "\n".join(lines)
