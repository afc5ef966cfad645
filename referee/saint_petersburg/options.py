"""Saint Petersburg rule options: every number and every [D] decision of the rules reference, by name.

A ruleset is a preset of options; a house-rule variant overrides some of them (see ``referee.variant``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.game import rule_option as opt


@dataclass(frozen=True)
class SPOptions:
    edition: int = opt(
        2,
        "Card data: 2 = 2nd edition costs, 1 = 1st edition (Observatory 6, Judge 16, "
        "Mistress of Ceremonies 18, Mariinsky Theater 10).",
        choices=(1, 2),
    )
    start_rubles: int = opt(25, "Rubles each player starts with.")
    display_size: int = opt(8, "Cards in the display (both rows) after every refill but round 1's worker phase.")
    first_deal_per_player: int = opt(2, "Cards per player dealt in the round-1 worker phase.")
    min_price: int = opt(1, "No purchase costs less than this many rubles (the 1-ruble minimum).")
    hand_limit: int = opt(3, "Cards a player may hold in hand.")
    warehouse_hand_limit: int = opt(4, "Hand limit of a Warehouse owner.")
    potemkin_value: int = opt(6, "Value of a displaced Potemkin Village.")
    first_worker_phase_buy_only: bool = opt(
        True,
        "Round 1 worker phase: every turn is a purchase, no passes are "
        "written and the phase ends when the display is empty "
        "(2nd edition; false in the 1st edition, [D7]).",
    )
    first_worker_phase_ends_when_empty: bool = opt(
        False,
        "[D7] When round 1's worker phase is an ordinary phase "
        "(1st edition), it also ends as soon as the display is "
        "empty; default: only after all players pass in a row.",
    )
    first_phase_broke_pass: bool = opt(
        True,
        "[D6] In a buy-only first worker phase, a player who cannot afford any "
        "displayed card passes; the phase also ends after all pass in a row.",
    )
    pub_vp_price: int = opt(2, "Rubles per VP bought with a Pub.")
    pub_max_vp: int = opt(5, "VP a Pub owner may buy after one building scoring.")
    pub_cap_per_pub: bool = opt(True, "[D1] The Pub cap is per Pub card (two Pubs: up to 10 VP); false: per player.")
    refill_skip_when_untouched: bool = opt(
        False,
        "[D2] 1st-edition special case: skip a phase's refill when no card "
        "left the display during the previous phase (default: always refill).",
    )
    tiebreak_leftover: bool = opt(
        True, "[D3] Tie-break on the rubles left after the 10:1 conversion; false: on total rubles."
    )
    bank_rubles: int = opt(
        0,
        "[D4] Rubles in the bank; 0 = unlimited (the 2nd-edition banknotes are unknown). A "
        "limited bank pays what it holds.",
    )
    mariinsky_rubles: bool = opt(
        False, "Mariinsky Theater pays +1 ruble per red card (1st edition) instead of +1 VP (2nd edition)."
    )
    mariinsky_counts_red_upgrades: bool = opt(
        True, "[D5] The Mariinsky counts red upgrades as red cards; false: plain aristocrats only."
    )
    observatory_same_phase: bool = opt(
        True, "[D8] An Observatory may be used in the building phase in which it entered play."
    )
    observatory_each_once: bool = opt(
        True,
        "[D8] Each Observatory may be used once per round (two Observatories: "
        "two uses); false: one use per player per round.",
    )
    rubles_per_vp: int = opt(10, "Rubles per VP at the final conversion.", minimum=1)
    hand_penalty: int = opt(5, "VP lost per card left in hand at the end.")
    variety_table: tuple[int, ...] = opt(
        (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55),
        "VP for 0, 1, 2, ... distinct aristocrats; the last entry caps the scale.",
        min_items=1,
    )
    discard_lower_row: bool = opt(
        True,
        "At the end of a round the lower row is discarded and the upper row moves down; false (a house rule): the "
        "lower row stays and the upper row joins it.",
    )
    cards: tuple[tuple[str, str, int], ...] = opt(
        (),
        "Card changes of a house rule, set by a variant's [cards] table (docs/variants.md): copies, cost, rubles "
        "(income) or VP of a card.",
    )


SECOND_EDITION = SPOptions()
FIRST_EDITION = replace(SECOND_EDITION, edition=1, first_worker_phase_buy_only=False, mariinsky_rubles=True)

RULESETS = {"2nd edition": SECOND_EDITION, "1st edition": FIRST_EDITION}
RULESET_ALIASES = {
    "2nd": "2nd edition",
    "second edition": "2nd edition",
    "2014": "2nd edition",
    "2": "2nd edition",
    "1st": "1st edition",
    "first edition": "1st edition",
    "2004": "1st edition",
    "1": "1st edition",
}
