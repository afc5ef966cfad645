"""San Juan's error codes and how its games end: data only, so every rules module can name them (``state.py``
re-exports both)."""

from __future__ import annotations

from referee.errors import ErrorKind, Verdict
from referee.game import Termination

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
        "'round N' stands only at the start of a round, before its Chapel tucks, hand-limit discards and first role "
        "choice.",
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
        "With effects mandatory, an owed draw must be written before the next statement (the Carpenter's before the "
        "Poor House's).",
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
