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


def tally(counts: dict | None = None) -> Counter:
    """A Counter with ``counts``, made without ``Counter.__init__`` (a Python-level call): the hidden-card code copies
    a hand's counts for every statement with a ``?``."""
    made: Counter = Counter.__new__(Counter)
    if counts:
        dict.update(made, counts)
    return made


@dataclass(slots=True)
class Pool:
    """Cards of one hand the record left open: ``held`` of the candidates are in the hand, ``away`` in the discard
    pile (back in the supply at the next reshuffle), ``waiting`` among the councillors' discards, ``fixed`` under a
    Chapel, and ``gone`` are out of the picture: shuffled back into the supply, or named from the hand when the
    referee could not tell which candidate it was.

    Candidates: ``named`` ones by (name, epoch they joined) and ``wild`` ones (any card) by the epoch they left the
    supply. ``history``: at every reshuffle since the pool formed, (epoch, ``gone`` then, named candidates by name
    then) — what ``lower`` counted at that moment, so a candidate named later adds only the copies not counted."""

    owner: int
    named: Counter = field(default_factory=Counter)
    wild: Counter = field(default_factory=Counter)
    held: int = 0
    away: int = 0
    waiting: int = 0
    fixed: int = 0
    gone: int = 0
    history: list[tuple[int, int, Counter]] = field(default_factory=list)
    by_name: Counter = field(default_factory=Counter)  # ``named`` by name alone (every check asks it)

    def copy(self) -> Pool:
        return Pool(
            self.owner,
            tally(self.named),
            tally(self.wild),
            self.held,
            self.away,
            self.waiting,
            self.fixed,
            self.gone,
            list(self.history),  # its counts are copied when changed (``HandDraft._drop_named``)
            tally(self.by_name),
        )

    def add_named(self, name: str, joined: int, k: int = 1) -> None:
        self.named[name, joined] += k
        self.by_name[name] += k

    def drop_named(self, name: str, joined: int) -> None:
        for counter, key in ((self.named, (name, joined)), (self.by_name, name)):
            if counter[key] > 1:
                counter[key] -= 1
            else:
                del counter[key]

    def total(self) -> int:
        return sum(self.by_name.values()) + sum(self.wild.values())

    def count(self, name: str) -> int:
        """Named candidates of ``name``."""
        return self.by_name.get(name, 0)

    def names(self) -> set[str]:
        return set(self.by_name)

    def lower(self, name: str) -> int:
        """Copies of ``name`` certainly out of the supply: every named candidate, less those that may be gone."""
        return max(self.count(name) - self.gone, 0)

    def out(self) -> int:
        """Candidates out of the supply and not in a known place (in the hand, the piles, under a Chapel)."""
        return self.held + self.away + self.waiting + self.fixed

    def key(self) -> tuple:
        """The pool as a comparable value (the state's fingerprint)."""
        return (
            self.owner,
            tuple(sorted((k, v) for k, v in self.named.items() if v)),  # (``by_name`` follows from it)
            tuple(sorted((k, v) for k, v in self.wild.items() if v)),
            self.held,
            self.away,
            self.waiting,
            self.fixed,
            self.gone,
            tuple((e, g, tuple(sorted((k, v) for k, v in n.items() if v))) for e, g, n in self.history),
        )

    def reshuffled(self, epoch: int) -> None:
        """The discard pile is shuffled into the supply at the end of ``epoch``: what the lower bound counted just
        then is kept (``history``), and the candidates in the pile are gone."""
        self.history.append((epoch, self.gone, Counter(self.by_name)))
        self.gone += self.away
        self.away = 0

    def text(self) -> str:
        """``2 of [Smithy, Well, ?]``: the hand's part of the pool, for messages and the summary."""
        names = [name for (name, _), k in sorted(self.named.items()) for _ in range(k)]
        names += ["?"] * sum(self.wild.values())
        return f"{self.held} of [{', '.join(names)}]"


@dataclass
class PlayerState:
    name: str
    city: list[str] = field(default_factory=list)
    owned: Counter = field(default_factory=Counter)
    hand_known: Counter = field(default_factory=Counter)  # cards certainly in hand
    hand_unknown: int = 0  # cards never named: any card with a copy to spare
    born: Counter = field(default_factory=Counter)  # the unknown cards by the epoch they left the supply in
    pool: Pool | None = None  # candidates for the forgotten cards (hidden.py)
    hand_forgotten: int = 0  # cards that are some of the pool's candidates (a '?' left the hand): ``pool.held``
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
        if self.hand_forgotten and self.pool is not None:
            known = (known + ", " if known else "") + self.pool.text()
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
        self.total_copies = sum(card.copies for card in self.cards.values())
        self.tiles = tile_table(options.trading_tiles)
        # the ledger: cards in known places, the supply (a count), the discard pile
        self.located: Counter = Counter()
        for player in self.p:
            player.city.append(options.start_building)
            player.owned[options.start_building] += 1
            self.located[options.start_building] += 1
        self.supply = self.total_copies - self.n
        self.discard_known: Counter = Counter()
        self.discard_unknown = 0
        self.pending_known: Counter = Counter()  # councillor discards waiting for the phase end (option D6)
        self.pending_unknown = 0
        self.under_known: Counter = Counter()  # covered buildings kept out of play (option D3 = false)
        # hidden cards (hidden.py): the hands' pools of candidates (and pools whose candidates left the hand but are
        # still out of the supply), the reshuffles so far (``epoch``), at each the copies of every name out of the
        # supply (``peaks``; None while no hidden card could be named later) and its round; ``inexact``: None while no
        # judgement rested on a description wider than the record allows, else why (docs/san-juan.md, "Hidden cards")
        self.pools: list[Pool] = []
        self.pooled: Counter = Counter()  # the pools' candidates certainly out of the supply, by name (``Pool.lower``)
        self.epoch = 0
        self.peaks: list[Counter | None] = []
        self.reshuffle_rounds: list[int] = []
        self.inexact: str | None = None
        # face-down cards (goods, unknown cards) out of the supply at the last reshuffle and still out: when the supply
        # ran out every card was out of it, so they were exactly the copies the record does not place. ``down_peak``:
        # that reshuffle's peak (None without such cards); ``down_room``: the copies not placed then, less the
        # face-down cards still out; ``down_short``: the copies out now beyond that peak, which may not exceed the room
        # (``Ledger._down_fits``)
        self.down_peak: Counter | None = None
        self.down_count = 0
        self.down_room = 0
        self.down_short = 0
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

    def widen(self, reason: str) -> None:
        """A judgement from now on rests on a description wider than the record allows (the first reason is kept)."""
        if self.inexact is None:
            self.inexact = reason

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
