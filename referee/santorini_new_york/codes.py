"""Santorini: New York error codes and terminations: stable names the reports, the docs and the records' Expect tags
use (docs/santorini-new-york.md lists each with the rule in words)."""

from __future__ import annotations

from referee.errors import ErrorKind, Verdict
from referee.game import Termination

ILLEGAL, MALFORMED = Verdict.ILLEGAL, Verdict.MALFORMED


class SNYCode(ErrorKind):
    """Santorini: New York rule violations and setup-data problems (stable codes)."""

    # --- the data a record's tags name (malformed: the game cannot be set up)
    BAD_BOARD = ("sny-bad-board", MALFORMED, "The Board tag names no readable, valid board file.")
    BAD_DECK_LIST = ("sny-bad-deck-list", MALFORMED, "The DeckList tag names no readable, valid deck-list file.")
    BAD_DECK = (
        "sny-bad-deck",
        MALFORMED,
        "The Deck tag names known professions, each printed in the deck list, with enough cards and unique numbers.",
    )
    DECK_MIX = (  # known professions, a deck the rules do not allow (rules 1.3): illegal at the tag
        "sny-deck-mix",
        ILLEGAL,
        "The Deck is the Engineer plus exactly one Builder, one Specialist and one Mover.",
    )
    BAD_OPTIONS = (
        "sny-bad-options",
        MALFORMED,
        "A rule option of the ruleset or variant has a value the game cannot use.",
    )
    # --- setup
    SETUP_INCOMPLETE = (
        "sny-setup-incomplete",
        ILLEGAL,
        "At the first 'play:' every player is placed and dealt (and the Tour Bus Driver's skyscraper is placed).",
    )
    MISPLACED_SETUP = (
        "sny-misplaced-setup",
        ILLEGAL,
        "'place:' and 'skyscraper:' are setup lines, before the first 'play:'.",
    )
    PLACED_TWICE = ("sny-placed-twice", ILLEGAL, "Each player places his two workers once.")
    NOT_A_START_PAIR = (
        "sny-not-a-start-pair",
        ILLEGAL,
        "A player's two workers go on the two starting spaces marked with the same number.",
    )
    PAIR_TAKEN = (
        "sny-pair-taken",
        ILLEGAL,
        "A starting pair is taken by one player only, and its spaces must be free.",
    )
    SKYSCRAPER_SETUP = (
        "sny-skyscraper-setup",
        ILLEGAL,
        "'skyscraper:' stands once at setup exactly when the Tour Bus Driver is in the deck.",
    )
    SKYSCRAPER_SPACE = (
        "sny-skyscraper-space",
        ILLEGAL,
        "A skyscraper goes on an unoccupied ground-level space.",
    )
    SKYSCRAPER_BLOCKS_START = (
        "sny-skyscraper-blocks-start",
        ILLEGAL,
        "The setup skyscraper may not take a starting space a player still needs (fewer free pairs than players).",
    )
    # --- cards
    HAND_SIZE = (
        "sny-hand-size",
        ILLEGAL,
        "Setup deals 5 cards to each player; a refill deals 4 to each player still in.",
    )
    MISPLACED_HAND = (
        "sny-misplaced-hand",
        ILLEGAL,
        "'hand' lines are the setup deal (once per player) and the refills after every 4th round (once per player in).",
    )
    NOT_IN_DECK = ("sny-not-in-deck", ILLEGAL, "Only cards of the four professions in the Deck are in play.")
    CARD_UNAVAILABLE = (
        "sny-card-unavailable",
        ILLEGAL,
        "Every card is unique: a card dealt must be where the deal takes it from (the deck, or the discard pile).",
    )
    NOT_IN_HAND = ("sny-not-in-hand", ILLEGAL, "A player plays a card from his own hand.")
    REVEAL_PLAYERS = (
        "sny-reveal-players",
        ILLEGAL,
        "The 'play:' reveal names every player still in the game exactly once, each with one card.",
    )
    ELIMINATED = (
        "sny-eliminated",
        ILLEGAL,
        "A player without workers is out: he plays no cards, takes no turns, gets no refills.",
    )
    REFILL_MISSING = (
        "sny-refill-missing",
        ILLEGAL,
        "After every 4th round each player still in is dealt 4 cards before the next 'play:'.",
    )
    # --- round flow
    PLAY_EXPECTED = ("sny-play-expected", ILLEGAL, "A round starts with the 'play:' reveal; turns follow it.")
    ROUND_NOT_OVER = (
        "sny-round-not-over",
        ILLEGAL,
        "Every player who played a card takes his turn (or loses a worker) before the next reveal, deal or round.",
    )
    NOT_YOUR_TURN = ("sny-not-your-turn", ILLEGAL, "Turns go from the lowest card number played to the highest.")
    ROUND_MISMATCH = ("sny-round-mismatch", ILLEGAL, "The 'round N' checkpoint names the round about to be played.")
    MISPLACED_ROUND = (
        "sny-misplaced-round",
        ILLEGAL,
        "'round N' stands before a round's 'play:', not among its turns.",
    )
    # --- turns
    NO_SUCH_SPACE = (
        "sny-no-such-space",
        ILLEGAL,
        "The square is not a space of the board (outside the grid or a void cell).",
    )
    NO_WORKER = ("sny-no-worker", ILLEGAL, "A move or forced move starts from a space with a worker on it.")
    NOT_YOUR_WORKER = ("sny-not-your-worker", ILLEGAL, "A player moves (and loses) only his own workers.")
    OCCUPIED = (
        "sny-occupied",
        ILLEGAL,
        "No worker moves or is forced onto, nor is anything built on, an occupied space (worker, skyscraper, rooftop).",
    )
    NOT_ADJACENT = (
        "sny-not-adjacent",
        ILLEGAL,
        "A move goes to a neighbouring space; a build next to the worker's new space; a skyscraper next to the worker.",
    )
    TOO_HIGH = ("sny-too-high", ILLEGAL, "A worker's own move climbs at most one level (down any number).")
    NO_PIECES = ("sny-no-pieces", ILLEGAL, "With a finite piece supply, a piece can be built only while one is left.")
    BUILD_CLAIM = ("sny-build-claim", ILLEGAL, "A build claim 'SQ=N' / 'SQ=roof' names the level the build reaches.")
    STEP_ORDER = (
        "sny-step-order",
        ILLEGAL,
        "The steps of a turn come in the order of the played card (e.g. the Engineer's skyscraper before the move).",
    )
    CARD_RULE = (
        "sny-card-rule",
        ILLEGAL,
        "The turn meets the played card's requirements (its 'must' and 'if possible').",
    )
    INCOMPLETE_TURN = (
        "sny-incomplete-turn",
        ILLEGAL,
        "A turn is written in full: a required step is missing at the end.",
    )
    EXTRA_STEP = ("sny-extra-step", ILLEGAL, "The turn is complete; the played card allows no further step.")
    AFTER_WIN = (
        "sny-after-win",
        ILLEGAL,
        "A win ends the game at the step that makes it: nothing may follow on the line.",
    )
    LOSS_NOT_ALLOWED = (
        "sny-loss-not-allowed",
        ILLEGAL,
        "A worker is lost only when the played card allows no complete turn with either worker.",
    )
    MUST_LOSE = (
        "sny-must-lose",
        ILLEGAL,
        "When the played card allows no complete turn with either worker, the line is 'PLAYER: loses SQ'.",
    )
    LOSS_WORKER = (
        "sny-loss-worker",
        ILLEGAL,
        "With loss_player_chooses off, a worker that cannot move at all is the one lost (when there is one).",
    )


SNYCode.register()


class SNYTermination(Termination):
    """How a game of Santorini: New York ends (rules reference section 4)."""

    CLIMB = ("climb", "the Statue holder moved a worker up from level 2 onto level 3")
    ENGINEER_ROOFTOP = ("engineer-rooftop", "the Statue holder played an Engineer and built a rooftop")
    LAST_PLAYER = ("last-player", "the only player left with workers on the board")
