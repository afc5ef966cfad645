"""San Juan rule options: every number and every [D] decision of the rules reference, by name.

A ruleset is a preset of options; a house-rule variant overrides some of them (see ``referee.variant``).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.game import rule_option as opt
from referee.san_juan.cards import TILES


@dataclass(frozen=True)
class SJOptions:
    start_hand: int = opt(
        4,
        "Cards dealt to each player at setup (the 'hand PLAYER:' lines; at least 1: a deal names its cards).",
        minimum=1,
    )
    start_building: str = opt("Indigo Plant", "The building every player starts with, taken out of the 110 cards.")
    hand_limit: int = opt(7, "Hand limit checked at the start of each round.")
    tower_hand_limit: int = opt(12, "Hand limit of a Tower owner.")
    end_buildings: int = opt(
        12, "The game ends after the builder phase in which a city reaches this many buildings.", minimum=1
    )
    trading_tiles: tuple[str, ...] = opt(
        tuple(TILES),
        "The trading-house tiles, each the cards drawn per good sold (indigo-sugar-tobacco-coffee-silver); the trader "
        "phases reveal each once, then the cycle repeats.",
        min_items=1,
    )
    two_player_roles: int = opt(3, "Roles per round with 2 players (governor, other, governor).", minimum=1, maximum=5)
    two_player_library_once: bool = opt(True, "2 players: the governor uses the Library only once per round.")
    council_draw: int = opt(2, "Cards a councillor draws without the privilege.")
    council_privilege_draw: int = opt(
        5, "Cards the councillor's chooser draws (the Library doubles the extra cards: 2 + 2x3 = 8)."
    )
    council_keep: int = opt(1, "Cards a councillor keeps (the Prefecture adds 1).")
    gold_mine_cards: int = opt(4, "Cards a Gold Mine turns up.")
    market_hall_per_good: bool = opt(
        False,
        "[D1] Market Hall: +1 card per good sold; false: +1 card once per trader "
        "phase when its owner sells at least one good.",
    )
    well_needs_different_kinds: bool = opt(
        False, "[D2] Well: the 2 goods must be of different kinds; false: any 2 goods."
    )
    crane_covered_to_discard: bool = opt(
        True,
        "[D3] Crane: the covered building (and its good) goes to the discard "
        "pile; false: the building stays under, out of play (its good is "
        "still discarded).",
    )
    crane_over_crane: bool = opt(False, "[D4] The Crane may build over the Crane itself.")
    black_market_only_needed: bool = opt(
        True,
        "[D5] Black Market goods may only pay what the cost still requires; "
        "false: goods may be spent beyond it (then no cards are paid).",
    )
    council_discards_at_phase_end: bool = opt(
        False,
        "[D6] Councillor discards wait until the end of the phase "
        "(simultaneous draws); false: draws and discards happen in "
        "action order, chooser first. Producer draws (Well) are always "
        "in action order: nothing is discarded in a producer phase, so "
        "there is no end-of-phase alternative to flip.",
    )
    palace_vp: int = opt(0, "[D7] Printed VP of the Palace (the card prints '?'; the seed's reading gives it 4).")
    hand_limit_player_chooses: bool = opt(
        True,
        "[D8] Hand-limit discards are the player's choice. The record names "
        "the discarded cards either way, so judging does not change; kept "
        "so the decision is visible.",
    )
    cost_reductions_mandatory: bool = opt(
        True,
        "[D9] Cost reductions always apply (a builder pays exactly the "
        "reduced cost); false: any reduction may be declined (pays between "
        "the reduced and the unreduced cost).",
    )
    effects_optional: bool = opt(
        True,
        "[D9] Owed draws (Carpenter, Poor House, Well, Market Stand, Market Hall) may "
        "be declined; false: each owed draw must be written.",
    )
    crane_pays_with_covered: bool = opt(
        True,
        "[D10] The covered building still works for the payment (its Smithy/Quarry/Black Market ability and its good).",
    )
    chapel_cards_stay: bool = opt(
        True, "[D10] Cards tucked under a covered Chapel stay and score; false: they go to the discard pile."
    )
    empty_supply_skips_draw: bool = opt(
        True,
        "[D11] Supply and discard pile both empty: a draw that cannot be made "
        "is skipped; false: an action that needs more cards than remain is "
        "illegal.",
    )
    gold_mine_after_prospector: bool = opt(
        True, "[D12] Gold Mine owners act after the prospector's privilege; false: before it."
    )
    gold_mine_keep_optional: bool = opt(
        True,
        "[D12] Keeping a Gold Mine card is optional; false: an owner whose 4 cards all differ in cost must keep one.",
    )
    cards: tuple[tuple[str, str, int], ...] = opt(
        (),
        "Card changes of a house rule, set by a variant's [cards] table (docs/variants.md): copies, cost or VP of a "
        "building.",
    )
    poor_house_after_carpenter: bool = opt(
        False,
        "Poor House and Carpenter both fire: the Poor House looks at the "
        "hand after the Carpenter's draw; false: right after the building "
        "is placed.",
    )


FIRST_EDITION = SJOptions()
RULESETS = {"1st edition": FIRST_EDITION}
RULESET_ALIASES = {
    "1st": "1st edition",
    "first edition": "1st edition",
    "2004": "1st edition",
    "1": "1st edition",
    "base": "1st edition",
    "base game": "1st edition",
}
