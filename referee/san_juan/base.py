"""The data of a San Juan position and the two questions every role asks of it.

``SJBase`` holds what the rules modules share: the players (``PlayerState``), the card places the hidden-card
ledger keeps (``ledger.py``), the round and phase the turn flow moves on (``flow.py``). The rules live in small
mixins built on it; ``state.SJState`` puts them together. The two questions asked everywhere live here: does a
building work for its owner (``works``), and may the chooser's privilege be doubled by his Library (``library``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from referee.game import GameState
from referee.san_juan.cards import BUILDING_OF_GOOD, Card, card_table, tile_table
from referee.san_juan.codes import SJCode
from referee.san_juan.options import SJOptions

# Stages of the statement flow.
SETUP, CHOOSING, TILE, ACTING, OVER = "setup", "choosing a role", "tile due", "acting", "over"
# Kinds of turn within a phase.
ACT, PROSPECT, MINE = "act", "prospector", "gold mine"


class Turn(NamedTuple):
    """One turn of a phase: whose, and what kind (``ACT``; the prospector phase's ``PROSPECT`` and ``MINE``)."""

    seat: int
    kind: str


class ArchiveDue(NamedTuple):
    """An Archive councillor who kept every drawn card owes this discard on the next line."""

    seat: int
    excess: int  # the cards to discard


class LibraryUse(NamedTuple):
    """The chooser's Library: may it double his privilege now, and has he used it already this round (2 players:
    the governor uses it once per round)."""

    may: bool
    used: bool


# The three answers of ``SJBase.library`` (made once: a NamedTuple costs a Python call to make).
NO_LIBRARY, LIBRARY_USED, LIBRARY_MAY = LibraryUse(False, False), LibraryUse(False, True), LibraryUse(True, False)


@dataclass
class PlayerState:
    name: str
    city: list[str] = field(default_factory=list)
    owned: Counter = field(default_factory=Counter)
    hand_known: Counter = field(default_factory=Counter)  # cards certainly in hand
    hand_unknown: int = 0  # cards never named: any card with a copy to spare
    hand_pool: Counter = field(default_factory=Counter)  # candidates for the forgotten cards
    hand_forgotten: int = 0  # cards that are some of hand_pool (a '?' left the hand)
    goods: Counter = field(default_factory=Counter)  # good -> filled production buildings of that kind
    tucked: int = 0
    tucked_known: Counter = field(default_factory=Counter)  # the tucked cards the record named
    fresh: str | None = None  # the building built in the current builder phase (does not work yet)
    tucked_this_round: bool = False
    discarded_this_round: bool = False
    dealt: bool = False

    @property
    def hand_size(self) -> int:
        return self.hand_unknown + self.hand_forgotten + sum(self.hand_known.values())

    @property
    def goods_total(self) -> int:
        return sum(self.goods.values())

    def production(self, good: str) -> int:
        return self.owned.get(BUILDING_OF_GOOD[good], 0)

    def hand_text(self) -> str:
        known = ", ".join(name for name, k in sorted(self.hand_known.items()) for _ in range(k))
        if self.hand_forgotten:
            pool = ", ".join(name for name, k in sorted(self.hand_pool.items()) for _ in range(k))
            known = (known + ", " if known else "") + f"{self.hand_forgotten} of [{pool}]"
        if self.hand_unknown:
            known = (known + ", " if known else "") + f"{self.hand_unknown} unknown"
        return known or "-"


class SJBase(GameState):
    """The position: every field a rule reads or changes (a rejected statement leaves all of them unchanged)."""

    def __init__(self, players: list[str], options: SJOptions) -> None:
        self.players = list(players)
        self.options = options
        self.n = len(players)
        self.seats = {name: seat for seat, name in enumerate(players)}
        self.p = [PlayerState(name) for name in players]
        self.cards = card_table(options.cards)  # the card table, with a house rule's card changes
        self.tiles = tile_table(options.trading_tiles)
        # the ledger: cards in known places, the supply (a count), the discard pile
        self.located: Counter = Counter()
        for player in self.p:
            player.city.append(options.start_building)
            player.owned[options.start_building] += 1
            self.located[options.start_building] += 1
        self.supply = sum(card.copies for card in self.cards.values()) - self.n
        self.discard_known: Counter = Counter()
        self.discard_unknown = 0
        self.pending_known: Counter = Counter()  # councillor discards waiting for the phase end (option D6)
        self.pending_unknown = 0
        self.under_known: Counter = Counter()  # covered buildings kept out of play (option D3 = false)
        # copies out of the supply though in no known place: cards that left it named and then went out of sight
        # (some of a hand's forgotten cards, the rest discarded unseen) — until the discard pile is reshuffled
        self.unseen_out: Counter = Counter()
        # the turn flow: round, role, phase turns
        self.governor: int | None = None
        self.round = 1
        self.stage = SETUP
        self.roles_chosen: list[str] = []
        self.role: str | None = None
        self.chooser = 0
        self.turns: list[Turn] = []
        self.turn_index = 0
        self.tiles_seen: list[str] = []
        self.tile: str | None = None
        self.library_used: set[int] = set()
        # what the last action left owing: draws (Carpenter, Poor House, Well, Market Stand, Market Hall), a discard
        self.owed_seat: int | None = None
        self.owed: dict[str, int] = {}
        self.archive_due: ArchiveDue | None = None
        self.final_claimed = False

    def works(self, seat: int, name: str, covered: Card | None = None) -> bool:
        """A violet building works for its owner once the builder phase in which it was built is over."""
        player = self.p[seat]
        if not player.owned.get(name) or player.fresh == name:
            return False
        return not (covered is not None and covered.name == name and not self.options.crane_pays_with_covered)

    def library(self, seat: int) -> LibraryUse:
        """May the Library double this player's privilege now; has he already used it this round when restricted.

        Only the chooser of the current role has a privilege to double."""
        if self.role is None or seat != self.chooser or not self.works(seat, "Library"):
            return NO_LIBRARY
        if self.library_optional(seat) and seat in self.library_used:
            return LIBRARY_USED
        return LIBRARY_MAY

    def library_optional(self, seat: int) -> bool:
        """The 2-player governor uses the Library once per round ([two_player_library_once]) and chooses in which of
        his phases; the counts show it."""
        return self.options.two_player_library_once and self.n == 2 and seat == self.governor

    def _check_privilege_count(
        self,
        seat: int,
        items: tuple[Any, ...],
        limit_of: Callable[[int, bool], int],
        code: SJCode,
        verb: str,
        column: int,
    ) -> bool:
        """A count the privilege limits (goods produced, goods sold): within the plain limit, or within the Library's
        doubled one where it may be used. True when only the Library allows it (the caller records the use)."""
        count, plain = len(items), limit_of(seat, False)
        if count <= plain:
            return False
        library = self.library(seat)
        limit = limit_of(seat, True) if (library.may or library.used) else plain
        if count > limit:
            message = f"{self.p[seat].name} may {verb} {limit} good(s) here, not {count}"
            raise self.fail(code, message, items[limit].column)
        self._library_needed(seat, column, f"without it {plain} good(s)")
        return True

    def _library_needed(self, seat: int, column: int, what: str) -> None:
        """A count only the Library allows: refuse it when the 2-player governor has used his Library this round.

        Validation only; the caller records the use (``library_used``) when it commits."""
        if self.library(seat).used:
            raise self.fail(
                SJCode.LIBRARY_USED,
                f"{self.p[seat].name} has already used the Library this round "
                f"(2 players: the governor uses it once per round); {what}",
                column,
            )
