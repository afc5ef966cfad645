"""Santorini: New York rule options: the data the record's tags name, the numbers a house rule may change, and every
[D] decision of the rules reference (section 7) as a named option.

A ruleset is a preset of options; a house-rule variant overrides some of them (see ``referee.variant``); the Board,
DeckList and Deck tags set the first three (``SantoriniNewYork.tag_options``).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.game import rule_option as opt
from referee.santorini_new_york.cards import FIRST_GAME_DECK

# The record's own tags that set an option (``SantoriniNewYork.tag_options``; written after Seed in every record).
TAG_OPTIONS = {"Board": "board", "DeckList": "deck_list", "Deck": "deck"}
SCOPES = ("moment", "turn")


@dataclass(frozen=True)
class SNYOptions:
    board: str = opt("manhattan", "Board tag: a shipped board (manhattan, square-5x5) or a board file by path.")
    deck_list: str = opt("provisional", "DeckList tag: the printed card numbers, a shipped list or a file by path.")
    deck: tuple[str, ...] = opt(
        FIRST_GAME_DECK, "Deck tag: the Engineer plus one Builder, one Specialist and one Mover (first-game deck)."
    )
    hand_size: int = opt(5, "Cards dealt to each player at setup (at least 1: a deal names its cards).", minimum=1)
    refill_size: int = opt(
        4, "Cards dealt to each player still in at a refill (at least 1: a deal names its cards).", minimum=1
    )
    refill_period: int = opt(4, "A refill follows every this many rounds (when the game goes on).", minimum=1)
    supply_blocks_1: int = opt(0, "Level-1 blocks in the supply; 0 = unlimited.")
    supply_blocks_2: int = opt(0, "Level-2 blocks in the supply; 0 = unlimited.")
    supply_blocks_3: int = opt(0, "Level-3 blocks in the supply; 0 = unlimited.")
    supply_rooftops: int = opt(0, "Rooftops in the supply; 0 = unlimited.")
    supply_skyscrapers: int = opt(
        0, "Skyscrapers in the supply (the Tour Bus Driver's setup one included); 0 = unlimited."
    )
    diagonal_adjacency: bool = opt(True, "[D1] Adjacent = the 8 neighbours; false: only north, south, east and west.")
    if_possible_scope: str = opt(
        "moment",
        "[D2] When an 'if possible' effect is required: 'moment' = when some complete turn includes it given the "
        "choices already made (the worker, the move, the build); 'turn' = when any complete turn of the whole turn "
        "includes it (it then constrains the earlier choices too). The Broadway Actor is always 'turn' (ruling 9).",
    )
    loss_player_chooses: bool = opt(
        True,
        "[D3] A player who loses a worker chooses which; false: a worker that cannot move at all is the one lost "
        "when there is one.",
    )
    must_card_fallback: bool = opt(
        False,
        "[D3, ruling 11] A 'must' card (Iron Worker, Crane Operator, Foreman, the Movers) that cannot be met with "
        "either worker costs a worker; true: the player takes a normal move-and-build turn instead, and loses a "
        "worker only if none exists.",
    )
    engineer_skyscraper_by_mover: bool = opt(
        True, "[D4] The Engineer's skyscraper goes next to the worker that then moves; false: next to either worker."
    )
    nypd_push_optional: bool = opt(
        True, "[D5] The NYPD Officer's push is optional; false: required whenever a turn with a push exists."
    )
    nypd_diagonal_push: bool = opt(
        True, "[D5] The NYPD Officer pushes in all 8 directions ('straight back' diagonally too); false: only N/S/E/W."
    )
    night_guard_normal_move: bool = opt(
        True,
        "[D6] The Night Guard's compelled move is a normal move by the worker's owner (climbs at most 1, may win for a "
        "Statue holder); false: a forced move (any height up, never wins).",
    )
    fashion_designer_own_workers: bool = opt(
        True, "[D7] The Fashion Designer may choose any adjacent worker, her own included; false: opponents' only."
    )
    foreman_if_possible: bool = opt(
        False,
        "[D8] The Foreman has no 'if possible': without a legal choice the player loses a worker; true: he then "
        "builds once like a normal turn.",
    )
    broadway_one_then_other: bool = opt(
        True,
        "[D9] Broadway Actor: move and build with one worker, then with the other; false: both move, then both build "
        "(the first build next to the first worker).",
    )
    street_vendor_next_to_vendor: bool = opt(
        False,
        "[ruling 8 against ruling 1] The Street Vendor forces an opponent worker next to the block built (section 5, "
        "ruling 8); true: only one that is next to the vendor's worker too (ruling 1 lists the Street Vendor among "
        "the end-of-turn effects whose 'adjacent' means next to the worker's final space).",
    )
    reporter_chooses_direction: bool = opt(
        True,
        "[D10] The Reporter chooses north or south; false: the worker is pushed away from the reporter (north when "
        "it stands in a row north of the reporter's, south when south; either way when in the same row).",
    )
    subway_too_high_closes: bool = opt(
        True,
        "[D11] Subway Operator: if the first unoccupied space is too high, that direction is closed; false: the move "
        "goes on to the first unoccupied space it can climb to.",
    )
    tour_bus_any_space: bool = opt(
        True,
        "[D11] Tour Bus Driver: any qualifying space along the line; false: only the first unoccupied space next "
        "to a skyscraper along the line (closed if it is too high).",
    )
    eliminated_hand_to_discard: bool = opt(
        True, "[D12] An eliminated player's hand goes to the discard pile; false: it leaves the game."
    )
    statue_stays_with_eliminated: bool = opt(
        True,
        "[D12] The Statue stays with its holder until the next reveal, even if he is eliminated; false: it passes to "
        "the highest card of this round's reveal whose player is still in.",
    )
    last_player_needs_statue: bool = opt(
        False,
        "[D13] The last player with workers wins at once; true: he needs the Statue too (so he wins at the next "
        "reveal if he does not hold it).",
    )
    unique_numbers: bool = opt(
        True,
        "[§2 D] Card numbers are unique within the deck in play (a deck list giving two of its cards one number is "
        "refused at the tag); false: allowed, and among equal numbers the earlier seat plays first and the later seat "
        "takes the Statue.",
    )
    setup_skyscraper_keeps_pairs: bool = opt(
        False,
        "[decision] false (ruling 13: each setup line is judged where it stands): the setup skyscraper may go on any "
        "unoccupied ground-level space, and a later 'place:' on that pair is illegal; true: it may not take a "
        "starting space while that would leave fewer free starting pairs than players still to place.",
    )


STANDARD = SNYOptions()
RULESETS = {"standard": STANDARD}
RULESET_ALIASES = {"2020": "standard", "base": "standard", "base game": "standard", "roxley": "standard"}
