"""San Juan: the state of a game and every rule that changes it.

``SJState.apply`` judges one record statement: it validates everything first and only then changes the state, so a
rejected statement leaves the state untouched (the few bookkeeping fields touched before validation ends — the owed
draws, the setup stage — are restored on failure). The replay, the generator and the tests all go through ``apply``
and the query methods below, so each rule lives in exactly one place.

Hidden information. A record names the cards it knows and writes ``?`` for the others. The state therefore tracks
each hand as a multiset of known names plus a count of unknown cards, the discard pile the same way, the supply as a
count only, and ``located``: how many copies of each name sit in a *known* place (cities, known hand cards, the known
part of the discard pile, tucked or covered cards). A name may be drawn, dealt or played out of the unknown part of a
hand only while ``located[name]`` is below its number of copies — no card is ever seen more often than it exists.
Goods are face-down cards of unknown identity. When the discard pile is shuffled into a new supply its known names
become unknown again. When a ``?`` leaves a hand whose cards are all known, the referee cannot tell which one went:
the hand's known cards are forgotten (become unknown), which loses knowledge but never accepts a wrong record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from referee.errors import ErrorKind, IllegalStatement, RefereeError, Verdict
from referee.game import GameState, Outcome, Termination, rank_by_score
from referee.record import NameRef
from referee.san_juan.cards import BUILDING_OF_GOOD, CARDS, GOODS, MONUMENTS, TILES, TOTAL_CARDS, Card
from referee.san_juan.notation import (
    ROLES,
    UNKNOWN,
    Action,
    Actor,
    Build,
    Council,
    Discard,
    FinalClaim,
    GoldMineTurn,
    GovernorMark,
    HandDeal,
    OwedDraw,
    Pass,
    Produce,
    RoleChoice,
    RoundMark,
    Sell,
    TileMark,
    Tuck,
    WinClaim,
    actor_text,
    is_unknown,
    quote_player,
)
from referee.san_juan.options import SJOptions
from referee.turns import clockwise, left_of

ILLEGAL = Verdict.ILLEGAL


class SJCode(ErrorKind):
    """San Juan rule violations (stable codes, documented in docs/san-juan.md)."""

    SETUP_INCOMPLETE = (
        "sj-setup-incomplete",
        ILLEGAL,
        "Setup names the first governor and deals every player's hand before the first role is chosen.",
    )
    MISPLACED_SETUP = (
        "sj-misplaced-setup",
        ILLEGAL,
        "'governor:' (first) and 'hand PLAYER:' are setup lines, once each, before the first role choice.",
    )
    HAND_SIZE = ("sj-hand-size", ILLEGAL, "Each player is dealt exactly 4 cards at setup.")
    CARD_EXHAUSTED = (
        "sj-card-exhausted",
        ILLEGAL,
        "No card may be seen more often than its copies: every copy of that name is already in a known place.",
    )
    ROUND_MISMATCH = (
        "sj-round-mismatch",
        ILLEGAL,
        "The 'round N' checkpoint names another round than the one starting.",
    )
    MISPLACED_ROUND = (
        "sj-misplaced-round",
        ILLEGAL,
        "'round N' stands only at the start of a round, before its first role choice.",
    )
    GOVERNOR_MISMATCH = (
        "sj-governor-mismatch",
        ILLEGAL,
        "The governor checkpoint names another player than the governor (it passes left every round).",
    )
    MISPLACED_GOVERNOR = (
        "sj-misplaced-governor",
        ILLEGAL,
        "A 'governor:' checkpoint stands only at the start of a round.",
    )
    NOT_YOUR_TURN = (
        "sj-not-your-turn",
        ILLEGAL,
        "Roles are chosen from the governor clockwise (2 players: governor, "
        "other, governor); a phase's turns go from the chooser clockwise.",
    )
    ROLE_EXPECTED = (
        "sj-role-expected",
        ILLEGAL,
        "The phase is over (or the round is starting): the next role choice comes first.",
    )
    PHASE_NOT_OVER = (
        "sj-phase-not-over",
        ILLEGAL,
        "A new role is chosen only after every player's turn in the current phase is written.",
    )
    ROLE_TAKEN = ("sj-role-taken", ILLEGAL, "A role is chosen at most once per round.")
    WRONG_ACTION = (
        "sj-wrong-action",
        ILLEGAL,
        "Each phase has its own action: build, produce, sell, draws/keeps, or the "
        "prospector's draw and the Gold Mine lines.",
    )
    ONE_BUILDING = ("sj-one-building", ILLEGAL, "Each player builds at most one building per builder phase.")
    TILE_MISSING = (
        "sj-tile-missing",
        ILLEGAL,
        "The trader phase starts with the 'tile:' line of the trading-house tile turned up.",
    )
    MISPLACED_TILE = ("sj-misplaced-tile", ILLEGAL, "'tile:' stands only right after the trader role is chosen.")
    BAD_TILE = ("sj-bad-tile", ILLEGAL, "The tile is one of the five trading-house tiles.")
    TILE_CYCLE = (
        "sj-tile-cycle",
        ILLEGAL,
        "The five tiles turn up each once, then repeat in the same order (period 5).",
    )
    NOT_IN_HAND = (
        "sj-not-in-hand",
        ILLEGAL,
        "Only cards in the player's hand can be built, paid, tucked or discarded.",
    )
    DUPLICATE_VIOLET = ("sj-duplicate-violet", ILLEGAL, "A violet building may be built only once per city.")
    PAYMENT = (
        "sj-payment",
        ILLEGAL,
        "A builder discards exactly the reduced cost (never below 0) in other hand cards.",
    )
    LIBRARY_USED = ("sj-library-used", ILLEGAL, "In a 2-player game the governor uses the Library only once per round.")
    NO_CRANE = ("sj-no-crane", ILLEGAL, "Building over another building needs a working Crane.")
    CRANE_TARGET = (
        "sj-crane-target",
        ILLEGAL,
        "The Crane builds over one of the owner's own buildings (not the Crane).",
    )
    NO_BLACK_MARKET = ("sj-no-black-market", ILLEGAL, "Spending goods on a building needs a working Black Market.")
    BLACK_MARKET_GOODS = (
        "sj-black-market-goods",
        ILLEGAL,
        "The Black Market spends 1 or 2 of the owner's goods, each paying 1 card of what the cost still requires.",
    )
    NOT_PRODUCTION = (
        "sj-not-production",
        ILLEGAL,
        "Goods are produced on, sold from and spent from production buildings.",
    )
    NO_EMPTY_BUILDING = (
        "sj-no-empty-building",
        ILLEGAL,
        "A good goes on an empty production building of the player's own; each holds at most one.",
    )
    PRODUCE_LIMIT = (
        "sj-produce-limit",
        ILLEGAL,
        "A producer makes 1 good (+1 privilege, +1 more with a Library, +1 Aqueduct).",
    )
    NO_GOOD = ("sj-no-good", ILLEGAL, "Only goods the player has can be sold.")
    SELL_LIMIT = (
        "sj-sell-limit",
        ILLEGAL,
        "A trader sells 1 good (+1 privilege, +1 more with a Library, +1 Trading Post).",
    )
    DRAW_COUNT = (
        "sj-draw-count",
        ILLEGAL,
        "The number of cards drawn is set by the rules (tile prices, councillor 2/5/8, "
        "Gold Mine 4, owed draws), fewer only when supply and discard pile run out.",
    )
    KEEP_COUNT = (
        "sj-keep-count",
        ILLEGAL,
        "A councillor keeps 1 of the drawn cards (2 with a Prefecture; all of them "
        "with an Archive, then discards the excess).",
    )
    KEEP_NOT_DRAWN = ("sj-keep-not-drawn", ILLEGAL, "Only drawn cards can be kept.")
    ARCHIVE_DISCARD = (
        "sj-archive-discard",
        ILLEGAL,
        "An Archive owner who keeps all drawn cards discards exactly the excess from his whole hand, on the next line.",
    )
    NOT_OWED = (
        "sj-not-owed",
        ILLEGAL,
        "An owed draw follows right after the action that earned it, for an effect the "
        "player has (prospector, carpenter, poor house, well, market stand, market hall).",
    )
    OWED_DRAW_MISSING = (
        "sj-owed-draw-missing",
        ILLEGAL,
        "With effects mandatory, an owed draw must be written before the next statement.",
    )
    GOLD_MINE = (
        "sj-gold-mine",
        ILLEGAL,
        "A Gold Mine owner turns up 4 cards and keeps one only if all 4 costs differ.",
    )
    TUCK = (
        "sj-tuck",
        ILLEGAL,
        "A Chapel owner tucks at most 1 hand card at the start of a round, before his own hand-limit discards.",
    )
    MISPLACED_DISCARD = (
        "sj-misplaced-discard",
        ILLEGAL,
        "'discards' stands at the start of a round (hand limit) or right after an Archive councillor turn.",
    )
    HAND_LIMIT = (
        "sj-hand-limit",
        ILLEGAL,
        "At the start of a round a player over the hand limit (7, Tower 12) discards "
        "exactly down to it; no one else discards.",
    )
    SUPPLY_EMPTY = (
        "sj-supply-empty",
        ILLEGAL,
        "A good needs a card from the supply (reshuffled from the discard pile); with both empty it cannot be made.",
    )


class SJTermination(Termination):
    TWELVE_BUILDINGS = ("city-complete", "a city reached the buildings that end the game; final scoring decided")


# Stages of the statement flow.
SETUP, CHOOSING, TILE, ACTING, OVER = "setup", "choosing a role", "tile due", "acting", "over"
# Kinds of turn within a phase.
ACT, PROSPECT, MINE = "act", "prospector", "gold mine"

ACTION_OF_ROLE = {"builder": Build, "producer": Produce, "trader": Sell, "councillor": Council}
VERB_OF_ROLE = {"builder": "build", "producer": "produce", "trader": "sell", "councillor": "draws ...; keeps ..."}


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


@dataclass
class KeepPlan:
    """Where drawn cards go when some are kept: known, some of a pool, or of unknown identity; the rest discarded."""

    known: Counter
    pool: Counter
    forgotten: int
    wild: int
    discard_known: Counter
    discard_unknown: int


class SJState(GameState):
    handlers: ClassVar[dict[type, str]] = {
        Actor: "_apply_actor",
        TileMark: "_apply_tile",
        HandDeal: "_apply_hand",
        GovernorMark: "_apply_governor",
        RoundMark: "_apply_round",
        FinalClaim: "apply_final_claim",
        WinClaim: "apply_win_claim",
    }

    def __init__(self, players: list[str], options: SJOptions) -> None:
        self.players = list(players)
        self.options = options
        self.n = len(players)
        self.seats = {name: seat for seat, name in enumerate(players)}
        self.p = [PlayerState(name) for name in players]
        self.located: Counter = Counter()
        for player in self.p:
            player.city.append(options.start_building)
            player.owned[options.start_building] += 1
            self.located[options.start_building] += 1
        self.supply = TOTAL_CARDS - self.n
        self.discard_known: Counter = Counter()
        self.discard_unknown = 0
        self.pending_known: Counter = Counter()  # councillor discards waiting for the phase end (option D6)
        self.pending_unknown = 0
        self.under_known: Counter = Counter()  # covered buildings kept out of play (option D3 = false)
        self.governor: int | None = None
        self.round = 1
        self.stage = SETUP
        self.roles_chosen: list[str] = []
        self.role: str | None = None
        self.chooser = 0
        self.turns: list[tuple[int, str]] = []
        self.turn_index = 0
        self.tiles_seen: list[str] = []
        self.tile: str | None = None
        self.library_used: set[int] = set()
        self.owed_seat: int | None = None
        self.owed: dict[str, int] = {}
        self.archive_due: tuple[int, int] | None = None  # (seat, cards to discard)
        self.final_claimed = False

    # ------------------------------------------------------------------------------------------------ queries
    @property
    def discard_size(self) -> int:
        return self.discard_unknown + sum(self.discard_known.values())

    def available(self) -> int:
        """Cards that can still be drawn: the supply, then the discard pile shuffled into a new supply."""
        return self.supply + self.discard_size

    def is_terminal(self) -> bool:
        return self.stage == OVER

    def settled(self) -> bool:
        """Over, with no optional owed draw (Carpenter, Poor House) of the last builder phase still to come."""
        return self.is_terminal() and not self.owed

    def open_after_end(self, statement: object) -> bool:
        """The owed draws of the last builder phase may still follow the end (they can change the tie-break)."""
        return self._is_owed_draw(statement)

    def roles_per_round(self) -> int:
        return self.options.two_player_roles if self.n == 2 else self.n

    def chooser_due(self) -> int:
        """Who chooses the next role: the governor, then clockwise (2 players: governor, other, governor)."""
        k = len(self.roles_chosen)
        gov = self.governor or 0
        return clockwise(gov, self.n)[k % self.n]

    def round_start(self) -> bool:
        return self.stage == CHOOSING and not self.roles_chosen

    def current_turn(self) -> tuple[int, str] | None:
        if self.stage != ACTING or self.turn_index >= len(self.turns):
            return None
        return self.turns[self.turn_index]

    def works(self, seat: int, name: str, covered: Card | None = None) -> bool:
        """A violet building works for its owner once the builder phase in which it was built is over."""
        player = self.p[seat]
        if not player.owned.get(name) or player.fresh == name:
            return False
        return not (covered is not None and covered.name == name and not self.options.crane_pays_with_covered)

    def hand_limit(self, seat: int) -> int:
        return self.options.tower_hand_limit if self.works(seat, "Tower") else self.options.hand_limit

    def library(self, seat: int) -> tuple[bool, bool]:
        """(may the Library double this player's privilege now, has he already used it this round when restricted).

        Only the chooser of the current role has a privilege to double."""
        if self.role is None or seat != self.chooser or not self.works(seat, "Library"):
            return False, False
        if self.options.two_player_library_once and self.n == 2 and seat == self.governor and seat in self.library_used:
            return False, True
        return True, False

    def library_optional(self, seat: int) -> bool:
        """The 2-player governor chooses in which of his phases he uses the Library; the counts show it."""
        return self.options.two_player_library_once and self.n == 2 and seat == self.governor

    def build_cost(
        self, seat: int, card: Card, covered: Card | None = None, library: bool = False, reductions: bool = True
    ) -> int:
        """Cards to discard for a building before Black Market goods: cost less every reduction, never below 0."""
        cost = card.cost - (covered.cost if covered is not None else 0)
        if reductions:
            if seat == self.chooser and self.role == "builder":
                cost -= 2 if library else 1
            if card.production and self.works(seat, "Smithy", covered):
                cost -= 1
            if card.violet and self.works(seat, "Quarry", covered):
                cost -= 1
        return max(cost, 0)

    def produce_limit(self, seat: int, library: bool) -> int:
        limit = 1 + (1 if self.works(seat, "Aqueduct") else 0)
        if seat == self.chooser:
            limit += 2 if library else 1
        return limit

    def sell_limit(self, seat: int, library: bool) -> int:
        limit = 1 + (1 if self.works(seat, "Trading Post") else 0)
        if seat == self.chooser:
            limit += 2 if library else 1
        return limit

    def council_counts(self, seat: int) -> list[int]:
        """The numbers of cards a councillor may draw (the chooser may decline his privilege)."""
        o = self.options
        counts = [o.council_draw]
        if seat == self.chooser:
            counts.append(o.council_privilege_draw)
            if self.library(seat)[0]:
                counts.append(o.council_draw + 2 * (o.council_privilege_draw - o.council_draw))
        return counts

    def keep_limit(self, seat: int) -> int:
        return self.options.council_keep + (1 if self.works(seat, "Prefecture") else 0)

    def capped(self, wanted: int, extra: int = 0) -> int:
        """Cards a draw of ``wanted`` really yields: fewer when supply and discard pile run out ([D11])."""
        return min(wanted, self.available() + extra)

    def gold_mine_owners(self, chooser: int) -> list[int]:
        return [seat for seat in clockwise(chooser, self.n) if self.works(seat, "Gold Mine")]

    # ------------------------------------------------------------------------------------------------ apply
    def apply(self, statement: object) -> None:
        saved = (self.owed_seat, self.owed, self.stage)
        try:
            if not self._is_owed_draw(statement):
                if self.owed and not self.options.effects_optional:
                    source = next(iter(self.owed))
                    raise self.fail(
                        SJCode.OWED_DRAW_MISSING,
                        f"{self.p[self.owed_seat].name} owes the {source} "
                        "draw first (effects are mandatory in this ruleset)",
                        1,
                    )
                self.owed_seat, self.owed = None, {}
            self.dispatch(statement)
        except RefereeError:
            self.owed_seat, self.owed, self.stage = saved
            raise

    def _is_owed_draw(self, statement: object) -> bool:
        return (
            isinstance(statement, Actor)
            and isinstance(statement.action, OwedDraw)
            and self.owed_seat is not None
            and self.seats.get(statement.player.name) == self.owed_seat
            and statement.action.source in self.owed
        )

    # ------------------------------------------------------------------------------------------- setup lines
    def _apply_governor(self, st: GovernorMark) -> None:
        seat = self.seat_of(st.player)
        if self.stage == OVER:
            raise self.after_end(st.column)
        if self.stage == SETUP and self.governor is None:
            self.governor = seat
            self.chooser = seat
            return
        # later (a repeated setup line included): a checkpoint naming the current governor at the start of a round
        if self.stage != SETUP and not self.round_start():
            raise self.fail(
                SJCode.MISPLACED_GOVERNOR,
                "a 'governor:' checkpoint stands only at the start of a round, before its first role choice",
                st.column,
            )
        if seat != self.governor:
            self.claim_failed(
                SJCode.GOVERNOR_MISMATCH,
                f"the governor of round {self.round} is {self.p[self.governor].name}, not {st.player.name}",
                st.player.column,
            )

    def _apply_hand(self, st: HandDeal) -> None:
        seat = self.seat_of(st.player)
        if self.stage == OVER:
            raise self.after_end(st.column)
        if self.stage != SETUP:
            raise self.fail(
                SJCode.MISPLACED_SETUP, "hands are dealt once, at setup, before the first role choice", st.column
            )
        if self.p[seat].dealt:
            raise self.fail(SJCode.MISPLACED_SETUP, f"{st.player.name}'s hand is already dealt", st.column)
        if len(st.cards) != self.options.start_hand:
            raise self.fail(
                SJCode.HAND_SIZE,
                f"each player is dealt {self.options.start_hand} cards, not {len(st.cards)}",
                st.column,
            )
        self._check_draws(st.cards)
        self._draw_into_hand(seat, st.cards)
        self.p[seat].dealt = True

    def _check_setup_done(self, column: int) -> None:
        missing = []
        if self.governor is None:
            missing.append("'governor: PLAYER'")
        missing += [f"'hand {quote_player(p.name)}: ...'" for p in self.p if not p.dealt]
        if missing:
            raise self.fail(
                SJCode.SETUP_INCOMPLETE, "setup is incomplete: " + ", ".join(missing) + " must come before play", column
            )
        self.stage = CHOOSING

    def _apply_round(self, st: RoundMark) -> None:
        if self.stage == OVER:
            raise self.after_end(st.column)
        if not (self.stage == SETUP or self.round_start()):
            raise self.fail(
                SJCode.MISPLACED_ROUND,
                "'round N' stands only at the start of a round, before its first role choice",
                st.column,
            )
        if st.number != self.round:
            self.claim_failed(
                SJCode.ROUND_MISMATCH, f"this is round {self.round}, not round {st.number}", st.number_column
            )

    # ------------------------------------------------------------------------------------------- card flow
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
            if base + seen[ref.name] > CARDS[ref.name].copies:
                raise self._exhausted(ref)

    def _exhausted(self, ref: NameRef) -> IllegalStatement:
        card = CARDS[ref.name]
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
        known, pool = Counter(player.hand_known), Counter(player.hand_pool)
        forgotten, unknown = player.hand_forgotten, player.hand_unknown
        relocated: Counter = Counter()
        blanks = 0
        for ref in refs:
            if is_unknown(ref):
                blanks += 1
                continue
            name = ref.name
            if known[name] > 0:
                known[name] -= 1
                continue
            if forgotten and pool[name] > 0:
                forgotten -= 1
                if not unknown:  # with unknown cards left, the pool keeps it (a superset stays sound)
                    pool[name] -= 1
            elif unknown:
                unknown -= 1
            else:
                raise self.fail(
                    SJCode.NOT_IN_HAND,
                    f"{player.name} holds no {'other ' if relocated[name] else ''}{name} (hand: {player.hand_text()})",
                    ref.column,
                )
            relocated[name] += 1
            if self.located[name] + relocated[name] > CARDS[name].copies:
                raise self.fail(
                    SJCode.NOT_IN_HAND,
                    f"{player.name} is not known to hold {name} and all "
                    f"{CARDS[name].copies} copies are accounted for elsewhere (hand: "
                    f"{player.hand_text()})",
                    ref.column,
                )
        dissolved: Counter = Counter()
        if blanks:
            dissolved = +known
            pool += dissolved
            forgotten += sum(dissolved.values())
            known = Counter()
            for _ in range(blanks):
                if forgotten:
                    forgotten -= 1
                else:
                    unknown -= 1
        return Removal(+known, +pool if forgotten else Counter(), forgotten, unknown, relocated, dissolved)

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
                if self.located[ref.name] + drawn_names[ref.name] > CARDS[ref.name].copies:
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

    # --------------------------------------------------------------------------------------------- actors
    def _apply_actor(self, st: Actor) -> None:
        seat = self.seat_of(st.player)
        action = st.action
        column = st.player.column
        if self.stage == OVER:
            if self.owed_seat == seat and isinstance(action, OwedDraw) and action.source in self.owed:
                self._owed_draw(seat, action)
                return
            raise self.after_end(action.column)
        if self.archive_due is not None:
            due_seat, count = self.archive_due
            if seat == due_seat and isinstance(action, Discard):
                self._archive_discard(seat, action, count)
                return
            raise self.fail(
                SJCode.ARCHIVE_DISCARD,
                f"{self.p[due_seat].name} kept every drawn card with the "
                f"Archive and must first discard {count} card(s): '{quote_player(self.p[due_seat].name)}"
                ": discards ...'",
                column,
            )
        if isinstance(action, OwedDraw) and self.owed_seat == seat and action.source in self.owed:
            self._owed_draw(seat, action)
            return
        if self.stage == SETUP:
            self._check_setup_done(column)
        if isinstance(action, Tuck):
            self._tuck(seat, action)
            return
        if isinstance(action, Discard):
            self._hand_limit_discard(seat, action)
            return
        if isinstance(action, RoleChoice):
            self._choose(seat, action, column)
            return
        if self.stage == CHOOSING:
            if isinstance(action, OwedDraw):
                raise self._not_owed(seat, action)
            raise self.fail(
                SJCode.ROLE_EXPECTED, f"{self.p[self.chooser_due()].name} chooses the next role first", column
            )
        if self.stage == TILE:
            raise self.fail(SJCode.TILE_MISSING, "the trader phase starts with the 'tile:' line", column)
        turn_seat, kind = self.turns[self.turn_index]
        if seat != turn_seat:
            if isinstance(action, OwedDraw):
                raise self._not_owed(seat, action)
            done = [s for s, _ in self.turns[: self.turn_index]]
            if self.role == "builder" and isinstance(action, Build) and seat in done:
                raise self.fail(
                    SJCode.ONE_BUILDING,
                    f"{st.player.name} has had a turn in this builder phase; one building per player per builder phase",
                    action.column,
                )
            raise self.fail(
                SJCode.NOT_YOUR_TURN,
                f"it is {self.p[turn_seat].name}'s turn in the {self.role} phase, not {st.player.name}'s",
                column,
            )
        if isinstance(action, Pass):
            self._end_turn()
            return
        if kind == PROSPECT:
            if not isinstance(action, OwedDraw) or action.source != "prospector":
                raise self._wrong_action(action, "the prospector draws 'draws CARD (prospector)' or passes")
            self._prospect(seat, action)
        elif kind == MINE:
            if not isinstance(action, GoldMineTurn):
                raise self._wrong_action(
                    action, "a Gold Mine owner writes 'gold mine C1, C2, C3, C4; keeps ...' or passes"
                )
            self._gold_mine(seat, action)
        else:
            expected = ACTION_OF_ROLE[self.role]
            if not isinstance(action, expected):
                if isinstance(action, OwedDraw):
                    raise self._not_owed(seat, action)
                raise self._wrong_action(
                    action, f"in the {self.role} phase a turn is '{VERB_OF_ROLE[self.role]}' or 'pass'"
                )
            {Build: self._build, Produce: self._produce, Sell: self._sell, Council: self._council}[expected](
                seat, action
            )

    def _wrong_action(self, action: Action, why: str) -> IllegalStatement:
        return self.fail(SJCode.WRONG_ACTION, why, action.column)

    def _not_owed(self, seat: int, action: OwedDraw) -> IllegalStatement:
        owed = ", ".join(self.owed) if self.owed_seat == seat and self.owed else "nothing"
        return self.fail(
            SJCode.NOT_OWED,
            f"no {action.source} draw is owed to {self.p[seat].name} here (owed: {owed})",
            action.column,
        )

    # ---------------------------------------------------------------------------------------- round start
    def _tuck(self, seat: int, action: Tuck) -> None:
        player = self.p[seat]
        if not self.round_start():
            raise self.fail(
                SJCode.TUCK,
                "Chapel cards are tucked only at the start of a round, before the first role choice",
                action.column,
            )
        if not self.works(seat, "Chapel"):
            raise self.fail(SJCode.TUCK, f"{player.name} has no working Chapel", action.column)
        if player.tucked_this_round:
            raise self.fail(SJCode.TUCK, f"{player.name} has already tucked a card this round", action.column)
        if player.discarded_this_round:
            raise self.fail(
                SJCode.TUCK, f"{player.name} tucks before their own hand-limit discards, not after", action.column
            )
        plan = self._plan_removal(seat, (action.card,), "the tuck")
        self._remove(seat, plan)
        player.tucked += 1
        player.tucked_this_round = True
        if not is_unknown(action.card):
            player.tucked_known[action.card.name] += 1

    def _hand_limit_discard(self, seat: int, action: Discard) -> None:
        player = self.p[seat]
        if not self.round_start():
            raise self.fail(
                SJCode.MISPLACED_DISCARD,
                "'discards' stands at the start of a round (hand limit) or right after an Archive councillor turn",
                action.column,
            )
        limit = self.hand_limit(seat)
        if player.discarded_this_round or player.hand_size <= limit:
            raise self.fail(
                SJCode.HAND_LIMIT,
                f"{player.name} holds {player.hand_size} card(s), limit {limit}: no discard is due",
                action.column,
            )
        excess = player.hand_size - limit
        if len(action.cards) != excess:
            raise self.fail(
                SJCode.HAND_LIMIT,
                f"{player.name} holds {player.hand_size} card(s), limit {limit}: "
                f"discard exactly {excess}, not {len(action.cards)}",
                action.column,
            )
        plan = self._plan_removal(seat, action.cards, "the discard")
        self._remove(seat, plan)
        for ref in action.cards:
            self._to_discard(ref)
        player.discarded_this_round = True

    # ------------------------------------------------------------------------------------------ role choice
    def _choose(self, seat: int, action: RoleChoice, column: int) -> None:
        if self.stage == TILE:
            raise self.fail(SJCode.TILE_MISSING, "the trader phase starts with the 'tile:' line", action.column)
        if self.stage == ACTING:
            turn_seat, _ = self.turns[self.turn_index]
            raise self.fail(
                SJCode.PHASE_NOT_OVER,
                f"the {self.role} phase is not over: {self.p[turn_seat].name}'s "
                "turn (action or pass) is not written yet",
                action.column,
            )
        due = self.chooser_due()
        if seat != due:
            raise self.fail(
                SJCode.NOT_YOUR_TURN, f"{self.p[due].name} chooses the next role, not {self.p[seat].name}", column
            )
        if action.role in self.roles_chosen:
            raise self.fail(
                SJCode.ROLE_TAKEN,
                f"the {action.role} has already been chosen this round ({', '.join(self.roles_chosen)})",
                action.column,
            )
        if not self.roles_chosen:
            for player in self.p:
                limit = self.hand_limit(self.seats[player.name])
                if player.hand_size > limit:
                    raise self.fail(
                        SJCode.HAND_LIMIT,
                        f"{player.name} holds {player.hand_size} cards, over the "
                        f"limit of {limit}: the 'discards' line comes before the first role choice",
                        column,
                    )
        self.roles_chosen.append(action.role)
        self.role = action.role
        self.chooser = seat
        order = clockwise(seat, self.n)
        if action.role == "prospector":
            mines = [(s, MINE) for s in self.gold_mine_owners(seat)]
            own = [(seat, PROSPECT)]
            self.turns = own + mines if self.options.gold_mine_after_prospector else mines + own
        else:
            self.turns = [(s, ACT) for s in order]
        self.turn_index = 0
        if action.role == "trader":
            self.stage = TILE
        else:
            self.stage = ACTING
            self._skip_empty_phase()

    def _skip_empty_phase(self) -> None:
        if not self.turns:
            self._end_phase()

    def _apply_tile(self, st: TileMark) -> None:
        if self.stage == OVER:
            raise self.after_end(st.column)
        if self.stage != TILE:
            raise self.fail(
                SJCode.MISPLACED_TILE, "'tile:' stands only right after the trader role is chosen", st.column
            )
        if st.tile not in TILES:
            raise self.fail(
                SJCode.BAD_TILE, f"'{st.tile}' is not a trading-house tile (tiles: {', '.join(TILES)})", st.column
            )
        k = len(self.tiles_seen)
        if k < len(TILES) and st.tile in self.tiles_seen:
            raise self.fail(
                SJCode.TILE_CYCLE,
                f"tile {st.tile} has already turned up; the five tiles each turn up "
                f"once before the cycle repeats (seen: {', '.join(self.tiles_seen)})",
                st.column,
            )
        if k >= len(TILES) and st.tile != self.tiles_seen[k - len(TILES)]:
            raise self.fail(
                SJCode.TILE_CYCLE,
                f"the tiles repeat in order: trader phase {k + 1} turns up "
                f"{self.tiles_seen[k - len(TILES)]}, not {st.tile}",
                st.column,
            )
        self.tiles_seen.append(st.tile)
        self.tile = st.tile
        self.stage = ACTING

    # ------------------------------------------------------------------------------------------ turn flow
    def _end_turn(self) -> None:
        self.turn_index += 1
        if self.turn_index >= len(self.turns):
            self._end_phase()

    def _end_phase(self) -> None:
        if self.pending_known or self.pending_unknown:
            self.discard_known += self.pending_known
            self.discard_unknown += self.pending_unknown
            self.pending_known, self.pending_unknown = Counter(), 0
        if self.role == "builder":
            for player in self.p:
                player.fresh = None
            if any(len(player.city) >= self.options.end_buildings for player in self.p):
                self.stage = OVER
                self.role = None
                return
        self.role = None
        self.turns = []
        self.turn_index = 0
        self.stage = CHOOSING
        if len(self.roles_chosen) >= self.roles_per_round():
            self.roles_chosen = []
            self.governor = left_of(self.governor or 0, self.n)
            self.round += 1
            self.library_used = set()
            for player in self.p:
                player.tucked_this_round = player.discarded_this_round = False

    def _set_owed(self, seat: int, owed: dict[str, int]) -> None:
        owed = {source: count for source, count in owed.items() if count > 0}
        self.owed_seat, self.owed = (seat, owed) if owed else (None, {})

    def _library_needed(self, seat: int, column: int, what: str) -> None:
        """A count only the Library allows: refuse it when the 2-player governor has used his Library this round.

        Validation only; the caller records the use (``library_used``) when it commits."""
        if self.library(seat)[1]:
            raise self.fail(
                SJCode.LIBRARY_USED,
                f"{self.p[seat].name} has already used the Library this round "
                f"(2 players: the governor uses it once per round); {what}",
                column,
            )

    # --------------------------------------------------------------------------------------------- builder
    def _build(self, seat: int, action: Build) -> None:
        o = self.options
        player = self.p[seat]
        card = CARDS[action.card.name]
        covered: Card | None = None
        if action.over is not None:
            if not self.works(seat, "Crane"):
                raise self.fail(
                    SJCode.NO_CRANE, f"{player.name} has no working Crane to build over a building", action.over.column
                )
            if not player.owned[action.over.name]:
                raise self.fail(
                    SJCode.CRANE_TARGET, f"{player.name}'s city has no {action.over.name}", action.over.column
                )
            if action.over.name == "Crane" and not o.crane_over_crane:
                raise self.fail(
                    SJCode.CRANE_TARGET, "the Crane may not build over the Crane itself", action.over.column
                )
            covered = CARDS[action.over.name]
        if card.violet and player.owned[card.name]:
            raise self.fail(
                SJCode.DUPLICATE_VIOLET,
                f"{player.name} already has a {card.name}; a violet building is built only once per city",
                action.card.column,
            )
        plan = self._plan_removal(seat, (action.card, *action.paying), "the building and its payment")
        goods: Counter = Counter()
        if action.goods:
            if not self.works(seat, "Black Market", covered):
                raise self.fail(
                    SJCode.NO_BLACK_MARKET,
                    f"{player.name} has no working Black Market to pay with goods",
                    action.goods[0].column,
                )
            if len(action.goods) > 2:
                raise self.fail(
                    SJCode.BLACK_MARKET_GOODS, "the Black Market spends at most 2 goods", action.goods[2].column
                )
            for ref in action.goods:
                building = CARDS[ref.name]
                if not building.production:
                    raise self.fail(
                        SJCode.NOT_PRODUCTION, f"{ref.name} is not a production building and holds no good", ref.column
                    )
                goods[building.good] += 1
                if goods[building.good] > player.goods[building.good]:
                    raise self.fail(
                        SJCode.BLACK_MARKET_GOODS,
                        f"{player.name} has {player.goods[building.good]} {building.good} good(s) to spend",
                        ref.column,
                    )
        spent = len(action.goods)
        paid = len(action.paying)
        may_library, spent_library = self.library(seat)
        plain = self.build_cost(seat, card, covered, False)
        doubled = self.build_cost(seat, card, covered, True) if (may_library or spent_library) else plain
        if o.cost_reductions_mandatory:
            if may_library and not self.library_optional(seat):
                allowed = {doubled}
            elif may_library:
                allowed = {plain, doubled}
            else:
                allowed = {plain}
        else:
            low = doubled if may_library else plain
            allowed = set(range(low, self.build_cost(seat, card, covered, reductions=False) + 1))
        total = paid + spent
        if not o.black_market_only_needed and spent and not paid and spent >= min(allowed):
            total = min(allowed)
        if total not in allowed:
            if spent_library and total == doubled:
                raise self.fail(
                    SJCode.LIBRARY_USED,
                    f"{player.name} has already used the Library this round; "
                    f"{card.name} costs {plain} card(s) without it",
                    action.column,
                )
            due = (
                " or ".join(str(a) for a in sorted(allowed))
                if len(allowed) <= 3
                else f"{min(allowed)} to {max(allowed)}"
            )
            extra = f" + {spent} good(s)" if spent else ""
            why = "goods may pay only what the cost still requires; " if spent > max(allowed) else ""
            raise self.fail(
                SJCode.PAYMENT if not spent or spent <= max(allowed) else SJCode.BLACK_MARKET_GOODS,
                f"{why}{card.name} costs {player.name} {due} card(s) here ({self._cost_story(seat, card, covered)}); "
                f"the record pays {paid} card(s){extra}",
                action.column,
            )
        if may_library and total == doubled and doubled != plain:
            self.library_used.add(seat)
        # --- commit
        self._remove(seat, plan)
        for ref in action.paying:
            self._to_discard(ref)
        for good, k in goods.items():
            player.goods[good] -= k
            self.discard_unknown += k
        if covered is not None:
            self._cover(seat, covered)
        player.city.append(card.name)
        player.owned[card.name] += 1
        player.fresh = card.name
        owed = {
            "carpenter": 1 if card.violet and self.works(seat, "Carpenter") else 0,
            "poor house": 1 if self.works(seat, "Poor House") and player.hand_size <= 1 else 0,
        }
        self._set_owed(seat, owed)
        self._end_turn()

    def _cost_story(self, seat: int, card: Card, covered: Card | None) -> str:
        parts = [f"cost {card.cost}"]
        if covered is not None:
            parts.append(f"-{covered.cost} {covered.name} covered")
        if seat == self.chooser:
            parts.append("-1 privilege" + (" (-2 with the Library)" if self.library(seat)[0] else ""))
        if card.production and self.works(seat, "Smithy", covered):
            parts.append("-1 Smithy")
        if card.violet and self.works(seat, "Quarry", covered):
            parts.append("-1 Quarry")
        return " ".join(parts)

    def _cover(self, seat: int, covered: Card) -> None:
        """The Crane's covered building leaves the city: to the discard pile ([D3]) with its good."""
        player = self.p[seat]
        player.city.remove(covered.name)
        player.owned[covered.name] -= 1
        if self.options.crane_covered_to_discard:
            self.discard_known[covered.name] += 1
        else:
            self.under_known[covered.name] += 1
        if covered.production and player.goods[covered.good] > player.production(covered.good):
            # a building of that kind was empty if any was: the good is lost only when all were full
            player.goods[covered.good] -= 1
            self.discard_unknown += 1
        if covered.name == "Chapel" and not self.options.chapel_cards_stay and player.tucked:
            # the tucked cards go to the discard pile: the named ones stay known there
            self.discard_known += player.tucked_known
            self.discard_unknown += player.tucked - sum(player.tucked_known.values())
            player.tucked, player.tucked_known = 0, Counter()

    # -------------------------------------------------------------------------------------------- producer
    def _produce(self, seat: int, action: Produce) -> None:
        player = self.p[seat]
        count = len(action.buildings)
        plain = self.produce_limit(seat, False)
        may, spent = self.library(seat)
        if count > plain:
            limit = self.produce_limit(seat, True) if (may or spent) else plain
            if count > limit:
                raise self.fail(
                    SJCode.PRODUCE_LIMIT,
                    f"{player.name} may produce {limit} good(s) here, not {count}",
                    action.buildings[limit].column,
                )
            self._library_needed(seat, action.column, f"without it {plain} good(s)")
        wanted: Counter = Counter()
        for ref in action.buildings:
            building = CARDS[ref.name]
            if not building.production:
                raise self.fail(SJCode.NOT_PRODUCTION, f"{ref.name} is not a production building", ref.column)
            wanted[building.good] += 1
            empty = player.production(building.good) - player.goods[building.good]
            if wanted[building.good] > empty:
                have = player.production(building.good)
                raise self.fail(
                    SJCode.NO_EMPTY_BUILDING,
                    f"{player.name} has {have} {ref.name}(s), {max(empty, 0)} of them empty",
                    ref.column,
                )
        if count > self.available():
            raise self.fail(
                SJCode.SUPPLY_EMPTY,
                f"only {self.available()} card(s) remain in supply and discard pile; {count} good(s) cannot be made",
                action.buildings[self.available()].column,
            )
        # --- commit
        if count > plain:
            self.library_used.add(seat)
        self._draw(count)
        player.goods += wanted
        well = count >= 2 and (not self.options.well_needs_different_kinds or len(wanted) >= 2)
        self._set_owed(seat, {"well": 1 if well and self.works(seat, "Well") else 0})
        self._end_turn()

    # ---------------------------------------------------------------------------------------------- trader
    def _sell(self, seat: int, action: Sell) -> None:
        player = self.p[seat]
        count = len(action.goods)
        plain = self.sell_limit(seat, False)
        may, spent = self.library(seat)
        if count > plain:
            limit = self.sell_limit(seat, True) if (may or spent) else plain
            if count > limit:
                raise self.fail(
                    SJCode.SELL_LIMIT,
                    f"{player.name} may sell {limit} good(s) here, not {count}",
                    action.goods[limit].column,
                )
            self._library_needed(seat, action.column, f"without it {plain} good(s)")
        sold: Counter = Counter()
        for good in action.goods:
            sold[good.name] += 1
            if sold[good.name] > player.goods[good.name]:
                message = f"{player.name} has {player.goods[good.name]} {good.name} good(s)"
                raise self.fail(SJCode.NO_GOOD, message, good.column)
        prices = TILES[self.tile or next(iter(TILES))]
        wanted = sum(prices[GOODS.index(good.name)] for good in action.goods)
        due = self.capped(wanted, count)
        self._check_count(
            due,
            wanted,
            len(action.draws),
            action.column,
            f"selling {', '.join(sold.elements())} at tile {self.tile} draws {wanted} card(s)",
        )
        self._check_draws(action.draws, count)
        # --- commit: the goods are discarded before the draws
        if count > plain:
            self.library_used.add(seat)
        player.goods -= sold
        self.discard_unknown += count
        self._draw_into_hand(seat, action.draws)
        hall = count if self.options.market_hall_per_good else 1
        self._set_owed(
            seat,
            {
                "market stand": 1 if count >= 2 and self.works(seat, "Market Stand") else 0,
                "market hall": hall if self.works(seat, "Market Hall") else 0,
            },
        )
        self._end_turn()

    def _check_count(self, due: int, wanted: int, written: int, column: int, why: str) -> None:
        if due < wanted and not self.options.empty_supply_skips_draw:
            raise self.fail(SJCode.SUPPLY_EMPTY, f"{why}, but only {due} remain in supply and discard pile", column)
        if written != due:
            short = f" (only {due} remain in supply and discard pile)" if due < wanted else ""
            raise self.fail(SJCode.DRAW_COUNT, f"{why}{short}; the record draws {written}", column)

    # ------------------------------------------------------------------------------------------ councillor
    def _council(self, seat: int, action: Council) -> None:
        player = self.p[seat]
        counts = self.council_counts(seat)
        drawn = len(action.draws)
        allowed = sorted({self.capped(c) for c in counts})
        if drawn not in allowed:
            _may, spent = self.library(seat)
            if spent and drawn == self.capped(
                self.options.council_draw + 2 * (self.options.council_privilege_draw - self.options.council_draw)
            ):
                raise self.fail(
                    SJCode.LIBRARY_USED,
                    f"{player.name} has already used the Library this round; "
                    f"the draw is {' or '.join(map(str, allowed))} card(s)",
                    action.column,
                )
            if min(counts) > self.available() and not self.options.empty_supply_skips_draw:
                raise self.fail(SJCode.SUPPLY_EMPTY, "not enough cards remain to draw", action.column)
            raise self.fail(
                SJCode.DRAW_COUNT,
                f"{player.name} draws {' or '.join(map(str, allowed))} card(s) as councillor here, not {drawn}",
                action.column,
            )
        uses_library = drawn > self.capped(counts[1] if len(counts) > 1 else counts[0])
        self._check_draws(action.draws)
        keep = self.keep_limit(seat)
        kept = len(action.keeps)
        archive = self.works(seat, "Archive") and kept == drawn and drawn > keep
        if not archive and not (min(1, drawn) <= kept <= min(keep, drawn)):
            may_keep = f"{min(keep, drawn)}" if keep == 1 or drawn <= 1 else f"1 to {min(keep, drawn)}"
            if self.works(seat, "Archive"):
                may_keep += f" — or, with the Archive, all {drawn} (then discards the excess) —"
            raise self.fail(
                SJCode.KEEP_COUNT,
                f"{player.name} keeps {may_keep} of the {drawn} drawn card(s), not {kept}",
                action.column,
            )
        plan = self._plan_keeps(action.draws, action.keeps)
        # --- commit: draw all, keep some, discard the rest
        if uses_library:
            self.library_used.add(seat)
        self._take_kept(seat, drawn, plan, self.options.council_discards_at_phase_end)
        if archive:
            self.archive_due = (seat, drawn - keep)
            return
        self._end_turn()

    def _archive_discard(self, seat: int, action: Discard, count: int) -> None:
        if len(action.cards) != count:
            raise self.fail(
                SJCode.ARCHIVE_DISCARD,
                f"{self.p[seat].name} discards exactly {count} card(s) after "
                f"keeping all drawn cards with the Archive, not {len(action.cards)}",
                action.column,
            )
        plan = self._plan_removal(seat, action.cards, "the Archive discard")
        self._remove(seat, plan)
        for ref in action.cards:
            self._to_discard(ref, self.options.council_discards_at_phase_end)
        self.archive_due = None
        self._end_turn()

    # ------------------------------------------------------------------------------------------ prospector
    def _prospect(self, seat: int, action: OwedDraw) -> None:
        may, _spent = self.library(seat)
        drawn = len(action.draws)
        uses_library = drawn > self.capped(1)
        if uses_library:
            self._library_needed(seat, action.column, "the prospector draws 1 card")
            if not may or drawn > self.capped(2):
                raise self.fail(
                    SJCode.DRAW_COUNT,
                    f"the prospector draws {self.capped(1)} card(s) "
                    + ("(2 with the Library) " if may else "")
                    + f"here, not {drawn}",
                    action.column,
                )
        self._check_draws(action.draws)
        if uses_library:
            self.library_used.add(seat)
        self._draw_into_hand(seat, action.draws)
        self._end_turn()

    def _gold_mine(self, seat: int, action: GoldMineTurn) -> None:
        o = self.options
        due = self.capped(o.gold_mine_cards)
        self._check_count(
            due, o.gold_mine_cards, len(action.cards), action.column, f"a Gold Mine turns up {o.gold_mine_cards} cards"
        )
        self._check_draws(action.cards)
        named = [CARDS[ref.name].cost for ref in action.cards if not is_unknown(ref)]
        distinct = len(action.cards) == o.gold_mine_cards and len(set(named)) == len(named)
        if len(action.keeps) > 1:
            raise self.fail(SJCode.GOLD_MINE, "a Gold Mine keeps at most 1 card", action.keeps[1].column)
        if action.keeps:
            ref = action.keeps[0]
            if not distinct:
                raise self.fail(
                    SJCode.GOLD_MINE,
                    "the turned-up cards do not all differ in cost "
                    f"({', '.join(f'{r.name} {CARDS[r.name].cost}' for r in action.cards if not is_unknown(r))}"
                    "): all are discarded",
                    ref.column,
                )
        elif distinct and not o.gold_mine_keep_optional and all(not is_unknown(r) for r in action.cards):
            raise self.fail(SJCode.GOLD_MINE, "the four costs differ: the owner keeps one of the cards", action.column)
        plan = self._plan_keeps(action.cards, action.keeps)
        # --- commit: turn up, keep one, discard the rest
        self._take_kept(seat, len(action.cards), plan)
        self._end_turn()

    # ------------------------------------------------------------------------------------------ owed draws
    def _owed_draw(self, seat: int, action: OwedDraw) -> None:
        wanted = self.owed[action.source]
        due = self.capped(wanted)
        if not 1 <= len(action.draws) <= due:
            raise self.fail(
                SJCode.DRAW_COUNT,
                f"the {action.source} draw is {due} card(s) here, not {len(action.draws)}",
                action.column,
            )
        self._check_draws(action.draws)
        self._draw_into_hand(seat, action.draws)
        owed = dict(self.owed)
        owed.pop(action.source)
        if action.source == "poor house":
            owed.pop("carpenter", None)  # the Carpenter's draw comes before the Poor House's
        if (
            action.source == "carpenter"
            and "poor house" in owed
            and self.p[seat].hand_size > 1
            and self.options.poor_house_after_carpenter
        ):
            owed.pop("poor house")  # only with poor_house_after_carpenter: the hand is no longer small
        self._set_owed(seat, owed)

    # --------------------------------------------------------------------------------------------- scoring
    def score(self, seat: int) -> dict[str, int]:
        player = self.p[seat]
        printed = sum(self.options.palace_vp if name == "Palace" else CARDS[name].vp for name in player.city)
        parts = {"buildings": printed, "chapel": player.tucked}
        if player.owned["Guild Hall"]:
            parts["guild hall"] = 2 * sum(1 for name in player.city if CARDS[name].production)
        if player.owned["City Hall"]:
            parts["city hall"] = sum(1 for name in player.city if CARDS[name].violet)
        if player.owned["Triumphal Arch"]:
            kinds = sum(1 for name in MONUMENTS if player.owned[name])
            parts["triumphal arch"] = (0, 4, 6, 8)[kinds]
        if player.owned["Palace"]:
            parts["palace"] = sum(parts.values()) // 4
        parts["total"] = sum(parts.values())
        return parts

    def outcome(self) -> Outcome:
        if self.stage != OVER:
            raise RuntimeError("the game is not over")
        breakdown = {p.name: self.score(seat) for seat, p in enumerate(self.p)}
        scores = {name: parts["total"] for name, parts in breakdown.items()}
        for player in self.p:  # the tie-break data, shown after the total
            breakdown[player.name].update({"hand cards": player.hand_size, "goods": player.goods_total})
        tiebreak = {p.name: p.hand_size + p.goods_total for p in self.p}
        return rank_by_score(scores, SJTermination.TWELVE_BUILDINGS, [("most hand cards + goods", tiebreak)], breakdown)

    # ------------------------------------------------------------------------------------------ accounting
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

    # ---------------------------------------------------------------------------------------- alternatives
    def legal_statements(self) -> list[str]:
        """Statements (record text, ``?`` for cards) that could legally come next."""
        texts: list[str] = []
        if self.owed_seat is not None:
            name = self.players[self.owed_seat]
            for source, count in self.owed.items():
                if self.capped(count):
                    texts.append(actor_text(name, OwedDraw(source, self._blanks(self.capped(count)))))
        if self.stage == SETUP:
            if self.governor is None:
                texts.append("governor: PLAYER")
            texts += [f"hand {quote_player(p.name)}: {self.options.start_hand} cards" for p in self.p if not p.dealt]
            if texts:
                return texts
            # setup is complete: the first role choice is due (the stage moves on when it is made)
        if self.stage == OVER:
            return [*texts, "final: PLAYER VP, ...", "win: PLAYER"]
        if self.archive_due is not None:
            seat, count = self.archive_due
            return [actor_text(self.players[seat], Discard(self._blanks(count)))]
        if self.stage == TILE:
            k = len(self.tiles_seen)
            if k >= len(TILES):
                return [f"tile: {self.tiles_seen[k - len(TILES)]}"]
            return [f"tile: {tile}" for tile in TILES if tile not in self.tiles_seen]
        if self.stage in (CHOOSING, SETUP):
            discards_due = False
            if self.round_start():
                texts.append(f"round {self.round}")
                for seat, player in enumerate(self.p):
                    if (
                        self.works(seat, "Chapel")
                        and not player.tucked_this_round
                        and not player.discarded_this_round
                        and player.hand_size
                    ):
                        texts.append(actor_text(player.name, Tuck(NameRef("?", 0))))
                    excess = player.hand_size - self.hand_limit(seat)
                    if excess > 0 and not player.discarded_this_round:
                        texts.append(actor_text(player.name, Discard(self._blanks(excess))))
                        discards_due = True
            if discards_due:  # the hand-limit discards come before the first role choice
                return texts
            chooser = self.players[self.chooser_due()]
            texts += [actor_text(chooser, RoleChoice(role)) for role in ROLES if role not in self.roles_chosen]
            return texts
        seat, kind = self.turns[self.turn_index]
        return texts + [actor_text(self.players[seat], action) for action in self.legal_actions(seat, kind)]

    @staticmethod
    def _blanks(count: int) -> tuple[NameRef, ...]:
        return tuple(NameRef("?", 0) for _ in range(count))

    def legal_actions(self, seat: int, kind: str) -> list[Action]:
        """Representative legal turns for the player to act (cards the record does not know are written ``?``)."""
        player = self.p[seat]
        actions: list[Action] = []
        avail = self.available()
        if kind == PROSPECT:
            if self.capped(1):
                actions.append(OwedDraw("prospector", self._blanks(self.capped(1))))
        elif kind == MINE:
            actions.append(GoldMineTurn(self._blanks(self.capped(self.options.gold_mine_cards)), ()))
        elif self.role == "builder":
            may, _ = self.library(seat)
            for name in sorted(set(player.hand_known) | (set(player.hand_pool) if player.hand_forgotten else set())):
                card = CARDS[name]
                if card.violet and player.owned[name]:
                    continue
                cost = self.build_cost(seat, card, None, may and not self.library_optional(seat))
                if cost <= player.hand_size - 1:
                    actions.append(Build(NameRef(name, 0), paying=self._blanks(cost)))
        elif self.role == "producer":
            empty = [BUILDING_OF_GOOD[g] for g in GOODS for _ in range(player.production(g) - player.goods[g])]
            limit = min(self.produce_limit(seat, self.library(seat)[0]), len(empty), avail)
            if limit:
                actions.append(Produce(tuple(NameRef(n, 0) for n in empty[:limit])))
        elif self.role == "trader":
            goods = [g for g in GOODS for _ in range(player.goods[g])]
            limit = min(self.sell_limit(seat, self.library(seat)[0]), len(goods))
            if limit and self.tile:
                sold = goods[-limit:]
                wanted = sum(TILES[self.tile][GOODS.index(g)] for g in sold)
                actions.append(Sell(tuple(NameRef(g, 0) for g in sold), self._blanks(self.capped(wanted, limit))))
        elif self.role == "councillor":
            drawn = self.capped(max(self.council_counts(seat)))
            if drawn:
                actions.append(Council(self._blanks(drawn), self._blanks(min(self.keep_limit(seat), drawn))))
        actions.append(Pass())
        return actions

    def fingerprint(self) -> tuple:
        """Everything that defines the position, as a comparable value (a rejected statement must not change it)."""

        def counter(c: Counter) -> tuple:
            return tuple(sorted((k, v) for k, v in c.items() if v))

        players = tuple(
            (
                tuple(p.city),
                counter(p.hand_known),
                p.hand_unknown,
                counter(p.hand_pool),
                p.hand_forgotten,
                counter(p.goods),
                p.tucked,
                counter(p.tucked_known),
                p.fresh,
                p.tucked_this_round,
                p.discarded_this_round,
                p.dealt,
            )
            for p in self.p
        )
        return (
            players,
            counter(self.located),
            self.supply,
            counter(self.discard_known),
            self.discard_unknown,
            counter(self.pending_known),
            self.pending_unknown,
            counter(self.under_known),
            self.governor,
            self.round,
            self.stage,
            tuple(self.roles_chosen),
            self.role,
            self.chooser,
            tuple(self.turns),
            self.turn_index,
            tuple(self.tiles_seen),
            self.tile,
            tuple(sorted(self.library_used)),
            self.owed_seat,
            tuple(sorted(self.owed.items())),
            self.archive_due,
            self.final_claimed,
        )

    # --------------------------------------------------------------------------------------------- summary
    def summary(self) -> str:
        if self.stage == SETUP:
            head = "setup"
        elif self.stage == OVER:
            head = "game over"
        else:
            gov = self.players[self.governor or 0]
            head = f"round {self.round}, governor {gov}, roles chosen: {', '.join(self.roles_chosen) or '-'}"
            turn = self.current_turn()
            if self.role:
                head += f"; {self.role} phase (chosen by {self.players[self.chooser]})"
                if self.stage == TILE:
                    head += ", tile due"
                elif turn:
                    head += f", {self.players[turn[0]]} to act" + (f" ({turn[1]})" if turn[1] != ACT else "")
            else:
                head += f"; {self.players[self.chooser_due()]} chooses a role"
        lines = [head]
        if self.owed:
            lines.append(
                f"owed draws of {self.players[self.owed_seat]}: "
                + ", ".join(f"{source} {count}" for source, count in self.owed.items())
            )
        known = ", ".join(f"{name} x{k}" if k > 1 else name for name, k in sorted(self.discard_known.items()) if k)
        lines.append(
            f"supply {self.supply}, discard pile {self.discard_size}"
            + (f" (known: {known})" if known else "")
            + (f", tiles seen: {' '.join(self.tiles_seen)}" if self.tiles_seen else "")
        )
        for player in self.p:
            goods = ", ".join(f"{g} {k}" for g, k in player.goods.items() if k) or "none"
            lines.append(
                f"{player.name}: city ({len(player.city)}) [{', '.join(player.city)}]; goods {goods}; "
                f"hand {player.hand_size} [{player.hand_text()}]"
                + (f"; chapel {player.tucked}" if player.tucked else "")
            )
        return "\n".join(lines)
