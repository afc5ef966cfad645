"""Saint Petersburg's error codes: every rule the game enforces has a stable ``sp-`` code (docs/errors.md).

The codes had no prefix before every game's codes took one; the former codes stay accepted where a user writes a code
(the ``Expect`` tag of stored records), so ``FORMER_CODES`` maps each one to its current name.
"""

from __future__ import annotations

from referee.errors import ErrorKind, Verdict, former_codes

ILLEGAL, MALFORMED = Verdict.ILLEGAL, Verdict.MALFORMED


class SPCode(ErrorKind):
    """Saint Petersburg rule violations (stable codes, documented in docs/errors.md)."""

    TOKENS_REQUIRED = ("sp-tokens-required", ILLEGAL, "The game must start with the 'tokens:' line.")
    BAD_TOKENS = (
        "sp-bad-tokens",
        ILLEGAL,
        "Each start token goes to exactly one player, in the numbers the player count sets.",
    )
    MISPLACED_TOKENS = ("sp-misplaced-tokens", ILLEGAL, "'tokens:' is set up once, before the first phase.")
    ROUND_MISMATCH = (
        "sp-round-mismatch",
        ILLEGAL,
        "The 'round N' checkpoint names another round than the one starting.",
    )
    MISPLACED_ROUND = (
        "sp-misplaced-round",
        ILLEGAL,
        "'round N' stands only right before a round's worker phase header.",
    )
    WRONG_PHASE = (
        "sp-wrong-phase",
        ILLEGAL,
        "Phases run worker, building, aristocrat, upgrade; the header names another.",
    )
    PHASE_NOT_OVER = ("sp-phase-not-over", ILLEGAL, "A phase ends only when all players have passed in a row.")
    HEADER_EXPECTED = (
        "sp-phase-header-expected",
        ILLEGAL,
        "The phase is over: the next phase's header must come first.",
    )
    DEAL_MISSING = ("sp-deal-missing", ILLEGAL, "Cards are due: the 'deal:' line must follow the phase header.")
    MISPLACED_DEAL = ("sp-misplaced-deal", ILLEGAL, "'deal:' stands only right after a phase header.")
    DEAL_COUNT = (
        "sp-deal-count",
        ILLEGAL,
        "The deal draws exactly the cards due (up to 8 in the display; 2 per player in "
        "round 1's worker phase), or all that remain when the deck runs short.",
    )
    DEAL_WRONG_DECK = ("sp-deal-wrong-deck", ILLEGAL, "A phase deals only from its own deck.")
    DEAL_EXHAUSTED = ("sp-deal-exhausted", ILLEGAL, "The deck holds no more copies of that card.")
    NOT_YOUR_TURN = (
        "sp-not-your-turn",
        ILLEGAL,
        "Players act in turn: the phase's token holder first, then clockwise.",
    )
    NOT_IN_DISPLAY = (
        "sp-not-in-display",
        ILLEGAL,
        "Only cards in the display (in the named row) can be bought or taken.",
    )
    AMBIGUOUS_ROW = ("sp-ambiguous-row", ILLEGAL, "The card lies in both rows: the row must be written.")
    NOT_IN_HAND = ("sp-not-in-hand", ILLEGAL, "Only cards in the player's hand can be played.")
    CANNOT_AFFORD = ("sp-cannot-afford", ILLEGAL, "A player may not spend more rubles than they have.")
    PRICE_MISMATCH = ("sp-price-mismatch", ILLEGAL, "The claimed price differs from the price the rules give.")
    UPGRADE_NEEDS_TARGET = (
        "sp-upgrade-needs-target",
        ILLEGAL,
        "An upgrade card is bought or played only over a card.",
    )
    NOT_AN_UPGRADE = ("sp-not-an-upgrade", ILLEGAL, "Only upgrade cards are placed over another card.")
    BAD_TARGET = (
        "sp-bad-upgrade-target",
        ILLEGAL,
        "An upgrade displaces one card of its colour in the buyer's area: green "
        "needs the matching worker (or Czar & Carpenter), never an upgrade, never "
        "an Observatory turned this round.",
    )
    HAND_FULL = ("sp-hand-full", ILLEGAL, "Hand limit: 3 cards, 4 with the Warehouse.")
    MUST_BUY = (
        "sp-must-buy",
        ILLEGAL,
        "Round 1's worker phase (2nd edition): every turn buys a card from the display.",
    )
    OBSERVATORY_UNAVAILABLE = (
        "sp-observatory-unavailable",
        ILLEGAL,
        "An Observatory is used in the building phase, once per round, by its owner.",
    )
    OBSERVATORY_LAST_CARD = ("sp-observatory-last-card", ILLEGAL, "The Observatory may not draw a deck's last card.")
    OBSERVED_CARD_UNAVAILABLE = (
        "sp-observed-card-unavailable",
        ILLEGAL,
        "The observed card must be one the deck still holds.",
    )
    PUB_MISPLACED = ("sp-pub-misplaced", ILLEGAL, "Pub VP are bought right after a building scoring.")
    PUB_NOT_OWNED = ("sp-pub-not-owned", ILLEGAL, "Only a Pub owner writes a pub line ('pub 0' included).")
    PUB_LIMIT = ("sp-pub-limit", ILLEGAL, "A Pub buys at most 5 VP per building scoring.")
    PUB_TWICE = (
        "sp-pub-twice",
        ILLEGAL,
        "A player writes at most one pub line per building scoring ('pub 0' included).",
    )
    SCORE_MISMATCH = ("sp-score-mismatch", ILLEGAL, "The claimed phase scoring differs from the computed one.")
    SCORE_MISPLACED = (
        "sp-score-misplaced",
        ILLEGAL,
        "'score:' stands once, right after a scoring phase ends, before pubs.",
    )


# The codes as they were before the prefix (former -> current), still accepted in Expect tags.
FORMER_CODES: dict[str, str] = {kind.code.removeprefix("sp-"): kind.code for kind in SPCode}
former_codes(FORMER_CODES)
