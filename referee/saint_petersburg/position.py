"""The data of a Saint Petersburg game in progress and the few queries every rule module reads.

``Position`` holds the state and nothing that changes it but the money primitives; the rule modules (``flow``,
``actions``, ``scoring``, ``view``) are mixins over it, composed into ``SPState``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee.game import GameState, Outcome
from referee.saint_petersburg.cards import DECKS, PHASES, Card, card_table
from referee.saint_petersburg.options import SPOptions

# Stages of the statement flow.
SETUP, BETWEEN, DEALING, ACTING, OVER = "setup", "between phases", "dealing", "acting", "over"


@dataclass
class PlayerState:
    name: str
    rubles: int
    area: list[Card] = field(default_factory=list)
    owned: Counter[str] = field(default_factory=Counter)
    hand: list[Card] = field(default_factory=list)
    vp: int = 0  # VP from phase scorings and pubs
    pub_vp: int = 0
    observatories_used: int = 0  # this round
    observatories_fresh: int = 0  # bought this building phase (for observatory_same_phase = false)

    def owns(self, name: str) -> bool:
        return self.owned.get(name, 0) > 0


@dataclass
class Scoring:
    """What one player received at a phase scoring (the rubles actually paid, the VP)."""

    rubles: int
    vp: int


class Position(GameState):
    """Everything that defines a position; the rules live in the mixins."""

    def __init__(self, players: list[str], options: SPOptions) -> None:
        self.players = list(players)
        self.options = options
        self.cards = card_table(options.edition, options.cards)
        self.seats = {name: seat for seat, name in enumerate(players)}
        self.p = [PlayerState(name, options.start_rubles) for name in players]
        self.bank: int | None = options.bank_rubles or None  # None: unlimited
        self.holder: dict[str, int] = {}
        self.decks: dict[str, Counter[str]] = {deck: Counter() for deck in DECKS}
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

    def first_worker_phase(self) -> bool:
        """Round 1's worker phase, which the editions treat apart."""
        return self.round == 1 and self.phase_index == 0

    def buy_only(self) -> bool:
        """Round 1's worker phase in the 2nd edition: purchases only."""
        return self.options.first_worker_phase_buy_only and self.first_worker_phase()

    def first_phase_ends_when_empty(self) -> bool:
        """Round 1's worker phase ends with an empty display when it is buy-only (or under option D7)."""
        if not self.first_worker_phase():
            return False
        return self.options.first_worker_phase_buy_only or self.options.first_worker_phase_ends_when_empty

    def hand_limit(self, seat: int) -> int:
        return self.options.warehouse_hand_limit if self.p[seat].owns("Warehouse") else self.options.hand_limit

    def has_room(self, seat: int) -> bool:
        """Whether a card may enter the player's hand (the limit is checked when a card is taken)."""
        return len(self.p[seat].hand) < self.hand_limit(seat)

    def card_value(self, card: Card) -> int:
        """What a displaced card takes off an upgrade's price."""
        return self.options.potemkin_value if card.name == "Potemkin Village" else card.cost

    # -------------------------------------------------------------------------------------------------- money
    def _spend(self, seat: int, rubles: int) -> None:
        """A payment: the rubles go back to a limited bank."""
        self.p[seat].rubles -= rubles
        if self.bank is not None:
            self.bank += rubles

    def _income(self, seat: int, rubles: int) -> int:
        """Scoring income, as far as a limited bank holds money; returns what was paid."""
        if self.bank is not None:
            rubles = min(rubles, self.bank)
            self.bank -= rubles
        self.p[seat].rubles += rubles
        self.ruble_flow[seat] += rubles
        return rubles


def rubles(amount: int) -> str:
    """An amount of money as a message says it: ``1 ruble``, ``3 rubles``."""
    return f"{amount} ruble" if amount == 1 else f"{amount} rubles"
