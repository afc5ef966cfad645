"""Saint Petersburg rules: prices, upgrades, turn order, phases, refills, hands, the Observatory, the game end and the
rule options (rules reference /work/shared/rules/saint-petersburg.md, cited as §N)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sp_helpers import (
    BUILDING_DEAL,
    ROUND1_WORKERS,
    acting,
    final_state,
    first,
    fresh,
    give,
    illegal,
    judge,
    marked_line,
    new_state,
    options,
    parse,
    record,
    rejects,
    run,
    set_deck,
    unfinished,
)

from referee.errors import CATALOGUE, RefereeError, Verdict, canonical_code
from referee.replay import check_file
from referee.saint_petersburg.codes import FORMER_CODES, SPCode
from referee.saint_petersburg.options import FIRST_EDITION, SECOND_EDITION

# A whole 2-player round 1 (2nd edition). Anna: 20 rubles, Shepherd, Lumberjack, Author, Pub in hand.
# Boris: 22 rubles, Gold Miner, Lumberjack, Warehouse. Display after the upgrade deal (all upper):
# Market, Customs House, Observatory, Market, Firehouse, Hospital, Administrator, Bank.
ROUND1 = (
    ROUND1_WORKERS
    + """\
building phase
deal: Market, Warehouse, Pub, Customs House, Observatory, Market, Firehouse, Hospital
Boris: buy Warehouse for 2
Anna: take Pub
Boris: pass
Anna: pass
score: Anna +0R, Boris +0R
aristocrat phase
deal: Author, Administrator
Anna: buy Author for 4
Boris: pass
Anna: pass
score: Anna +1R, Boris +0R
upgrade phase
deal: Bank
Boris: pass
Anna: pass
"""
)


def card_names(cards):
    return [c.name for c in cards]


# ------------------------------------------------------------------------------------------------ §4 prices
class TestPrice:
    def test_printed_cost(self):
        s = new_state()
        assert s.price(0, s.cards["Customs House"], False, None) == 8
        assert s.price(0, s.cards["Czarina"], False, s.cards["Author"]) == 24 - 4

    def test_minus_one_per_identical_card_owned(self):
        s = new_state()
        give(s, 0, "Market", "Market")
        assert s.price(0, s.cards["Market"], False, None) == 3
        assert s.price(1, s.cards["Market"], False, None) == 5  # only the buyer's own cards count
        assert s.price(0, s.cards["Customs House"], False, None) == 8  # only the same name counts

    def test_minus_one_from_the_lower_row(self):
        s = new_state()
        assert s.price(0, s.cards["Customs House"], True, None) == 7

    def test_carpenter_workshop_blue_cards_and_blue_upgrades(self):
        s = new_state()
        give(s, 0, "Carpenter Workshop", "Market", "Author")
        assert s.price(0, s.cards["Customs House"], False, None) == 7
        assert s.price(0, s.cards["Bank"], False, s.cards["Market"]) == 13 - 5 - 1
        assert s.price(0, s.cards["Administrator"], False, None) == 7  # red: no discount
        assert s.price(0, s.cards["Shepherd"], False, None) == 5  # green: no discount
        assert s.price(0, s.cards["Senator"], False, s.cards["Author"]) == 12 - 4
        assert s.price(1, s.cards["Customs House"], False, None) == 8  # only its owner

    def test_gold_smelter_red_cards_and_red_upgrades(self):
        s = new_state()
        give(s, 0, "Gold Smelter", "Author", "Market")
        assert s.price(0, s.cards["Administrator"], False, None) == 6
        assert s.price(0, s.cards["Senator"], False, s.cards["Author"]) == 12 - 4 - 1
        assert s.price(0, s.cards["Customs House"], False, None) == 8  # blue: no discount
        assert s.price(0, s.cards["Bank"], False, s.cards["Market"]) == 13 - 5
        assert s.price(1, s.cards["Administrator"], False, None) == 7

    def test_upgrade_minus_displaced_value(self):
        s = new_state()
        give(s, 0, "Customs House", "Ship Builder")
        assert s.price(0, s.cards["Hermitage"], False, s.cards["Customs House"]) == 18 - 8
        assert s.price(0, s.cards["Wharf"], True, s.cards["Ship Builder"]) == 12 - 7 - 1

    def test_potemkin_village_counts_six(self):
        s = new_state()
        give(s, 0, "Potemkin Village")
        assert s.price(0, s.cards["Bank"], False, s.cards["Potemkin Village"]) == 13 - 6

    def test_never_below_one_ruble(self):
        s = new_state()
        give(s, 0, "Market", "Market", "Market", "Market", "Carpenter Workshop", "Academy")
        assert s.price(0, s.cards["Market"], True, None) == 1  # 5 - 4 - 1 - 1 = -1
        assert s.price(0, s.cards["Bank"], False, s.cards["Academy"]) == 1  # 13 - 23
        acting(s, "building", lower=("Market",))
        run(s, "Anna: buy Market for 1")
        assert s.p[0].rubles == 24

    def test_worked_example_st_isaacs_over_market(self):
        # §4: St Isaac's (15) over a Market (5) from the lower row with a Carpenter Workshop: 15 - 5 - 1 - 1 = 8.
        s = new_state()
        give(s, 0, "Market", "Carpenter Workshop")
        acting(s, "upgrade", upper=("Bank",), lower=("St Isaac's Cathedral",))
        rejects(s, "Anna: buy St Isaac's Cathedral over Market for 9", "sp-price-mismatch")
        run(s, "Anna: buy St Isaac's Cathedral over Market for 8")
        assert s.p[0].rubles == 17 and s.lower == [] and card_names(s.upper) == ["Bank"]
        assert card_names(s.p[0].area) == ["Carpenter Workshop", "St Isaac's Cathedral"]

    def test_price_charged_without_a_claim(self):
        s = new_state()
        give(s, 0, "Customs House")
        acting(s, "building", lower=("Customs House",))
        run(s, "Anna: buy Customs House")
        assert s.p[0].rubles == 25 - (8 - 1 - 1)

    def test_hand_play_gets_no_row_discount(self):
        s = new_state()
        give(s, 0, "Customs House", hand=True)
        acting(s, "building", lower=("Market",))
        rejects(s, "Anna: play Customs House for 7", "sp-price-mismatch")
        run(s, "Anna: play Customs House for 8")
        assert s.p[0].rubles == 17 and s.p[0].hand == []

    def test_hand_play_gets_the_other_reductions(self):
        s = new_state()
        give(s, 0, "Customs House", "Carpenter Workshop")
        give(s, 0, "Customs House", hand=True)
        acting(s, "building", upper=("Market",))
        run(s, "Anna: play Customs House for 6")

    def test_observatory_buy_gets_no_row_discount(self):
        s = new_state()
        give(s, 0, "Observatory", "Customs House")
        acting(s, "building", upper=("Market",))
        rejects(s, "Anna: observe buildings: Customs House, buy for 6", "sp-price-mismatch")
        run(s, "Anna: observe buildings: Customs House, buy for 7")
        assert s.p[0].rubles == 18

    def test_cannot_spend_more_than_owned(self):
        s = new_state()
        s.p[0].rubles = 4
        acting(s, "building", upper=("Market",))
        rejects(s, "Anna: buy Market", "sp-cannot-afford")
        s.p[0].rubles = 5
        run(s, "Anna: buy Market")
        assert s.p[0].rubles == 0

    def test_price_claim_in_a_record(self):
        illegal(
            ROUND1_WORKERS.replace("Boris: buy Gold Miner for 4", "Boris: buy Gold Miner for 3 #!"), "sp-price-mismatch"
        )

    def test_first_edition_prices(self):
        s = new_state(opts=FIRST_EDITION)
        give(s, 0, "Observatory")
        assert s.price(0, s.cards["Bank"], False, s.cards["Observatory"]) == 13 - 6
        acting(s, "aristocrat", upper=("Judge",))
        rejects(s, "Anna: buy Judge for 17", "sp-price-mismatch")
        run(s, "Anna: buy Judge for 16")

    def test_first_edition_costs(self):
        s = new_state(opts=FIRST_EDITION)
        assert [s.cards[n].cost for n in ("Observatory", "Judge", "Mistress of Ceremonies", "Mariinsky Theater")] == [
            6,
            16,
            18,
            10,
        ]
        s2 = new_state()
        assert [s2.cards[n].cost for n in ("Observatory", "Judge", "Mistress of Ceremonies", "Mariinsky Theater")] == [
            7,
            17,
            20,
            15,
        ]


# ---------------------------------------------------------------------------------------------- §4 upgrades
class TestUpgrades:
    def test_colour_must_match(self):
        s = new_state()
        give(s, 0, "Author", "Market")
        acting(s, "upgrade", upper=("Bank", "Senator"))
        rejects(s, "Anna: buy Bank over Author", "sp-bad-upgrade-target")
        rejects(s, "Anna: buy Senator over Market", "sp-bad-upgrade-target")
        run(s, "Anna: buy Bank over Market for 8")

    def test_blue_and_red_displace_any_building_or_aristocrat(self):
        s = new_state()
        give(s, 0, "Potemkin Village", "Mistress of Ceremonies")
        acting(s, "upgrade", upper=("Bank", "Senator"))
        run(s, "Anna: buy Senator over Mistress of Ceremonies for 1")
        run(s, "Boris: pass")
        run(s, "Anna: buy Bank over Potemkin Village for 7")

    def test_green_needs_the_matching_symbol(self):
        s = new_state()
        give(s, 0, "Lumberjack", "Ship Builder")
        acting(s, "upgrade", upper=("Wharf", "Carpenter Workshop"))
        rejects(s, "Anna: buy Wharf over Lumberjack", "sp-bad-upgrade-target")
        run(s, "Anna: buy Wharf over Ship Builder for 5")
        run(s, "Boris: pass")
        run(s, "Anna: buy Carpenter Workshop over Lumberjack for 1")

    def test_czar_and_carpenter_is_a_wildcard(self):
        s = new_state()
        give(s, 0, "Czar & Carpenter")
        acting(s, "upgrade", upper=("Fur Shop",))
        assert card_names(s.targets(0, s.cards["Weaving Mill"])) == ["Czar & Carpenter"]
        run(s, "Anna: buy Fur Shop over Czar & Carpenter for 2")
        assert s.discards[-1].name == "Czar & Carpenter"

    def test_never_over_an_upgrade(self):
        s = new_state()
        give(s, 0, "Weaving Mill", "Bank", "Senator")
        acting(s, "upgrade", upper=("Weaving Mill", "Hermitage", "Czarina"))
        rejects(s, "Anna: buy Weaving Mill over Weaving Mill", "sp-bad-upgrade-target")  # even with the wool symbol
        rejects(s, "Anna: buy Hermitage over Bank", "sp-bad-upgrade-target")
        rejects(s, "Anna: buy Czarina over Senator", "sp-bad-upgrade-target")

    def test_needs_a_target(self):
        s = new_state()
        give(s, 0, "Market")
        acting(s, "upgrade", upper=("Bank",))
        rejects(s, "Anna: buy Bank", "sp-upgrade-needs-target")
        rejects(s, "Anna: buy Bank over Customs House", "sp-bad-upgrade-target")  # not in her area

    def test_only_upgrades_displace(self):
        s = new_state()
        give(s, 0, "Market")
        acting(s, "building", upper=("Customs House",))
        rejects(s, "Anna: buy Customs House over Market", "sp-not-an-upgrade")

    def test_turned_observatory_cannot_be_displaced(self):
        s = new_state()
        give(s, 0, "Observatory")
        acting(s, "building", upper=("Bank",))
        assert card_names(s.targets(0, s.cards["Bank"])) == ["Observatory"]
        run(s, "Anna: observe workers: Lumberjack, discard")
        run(s, "Boris: pass")
        rejects(s, "Anna: buy Bank over Observatory", "sp-bad-upgrade-target")

    def test_observed_upgrade_cannot_displace_the_observatory_just_used(self):
        s = new_state()
        give(s, 0, "Observatory")
        acting(s, "building", upper=("Market",))
        rejects(s, "Anna: observe upgrades: Bank, buy over Observatory for 6", "sp-bad-upgrade-target")

    def test_second_observatory_still_displaceable(self):
        s = new_state()
        give(s, 0, "Observatory", "Observatory")
        acting(s, "building", upper=("Bank",))
        run(s, "Anna: observe workers: Lumberjack, discard")
        run(s, "Boris: pass")
        run(s, "Anna: buy Bank over Observatory for 6")
        assert s.p[0].owned["Observatory"] == 1

    def test_displaced_card_goes_to_the_discards(self):
        s = new_state()
        give(s, 0, "Market", "Customs House")
        acting(s, "upgrade", upper=("Bank",))
        run(s, "Anna: buy Bank over Customs House for 5")
        assert card_names(s.p[0].area) == ["Market", "Bank"]
        assert s.p[0].owned["Customs House"] == 0
        assert card_names(s.discards) == ["Customs House"]

    def test_upgrade_taken_without_target_then_played_over_one(self):
        s = new_state()
        acting(s, "upgrade", lower=("Bank",))
        run(s, "Anna: take Bank")
        run(s, "Boris: pass")
        rejects(s, "Anna: play Bank", "sp-upgrade-needs-target")
        give(s, 0, "Market")
        rejects(s, "Anna: play Bank over Market for 7", "sp-price-mismatch")  # no row discount from the hand
        run(s, "Anna: play Bank over Market for 8")
        assert card_names(s.p[0].area) == ["Bank"]


# ------------------------------------------------------------------------------------------------ §3 turns
class TestTurnOrder:
    def test_token_holder_acts_first(self):
        illegal(
            """\
            tokens: Anna worker aristocrat, Boris building upgrade
            worker phase
            deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
            Boris: buy Shepherd #!
            """,
            "sp-not-your-turn",
        )

    def test_then_clockwise(self):
        s = new_state(3)
        run(s, "worker phase\ndeal: Lumberjack, Lumberjack, Lumberjack, Shepherd, Shepherd, Shepherd")
        run(s, "Anna: buy Lumberjack")
        rejects(s, "Clara: buy Lumberjack", "sp-not-your-turn")
        run(s, "Boris: buy Lumberjack\nClara: buy Lumberjack\nAnna: buy Shepherd")

    def test_each_phase_starts_with_its_token_holder(self):
        s = new_state(3)
        run(s, ROUND1_3P_WORKERS)
        run(s, "building phase\ndeal: Market, Market, Market, Market, Market, Pub, Pub, Warehouse")
        assert s.to_act == 1
        rejects(s, "Anna: pass", "sp-not-your-turn")
        run(s, "Boris: pass\nClara: pass\nAnna: pass\naristocrat phase\ndeal: none")
        assert s.to_act == 2

    def test_tokens_rotate_left_each_round(self):
        s = run(fresh(), ROUND1 + "round 2\nworker phase")
        assert s.holder == {"worker": 1, "aristocrat": 1, "building": 0, "upgrade": 0}
        assert s.to_act == 1
        s3 = new_state(3)
        acting(s3, "upgrade", round_=1)
        run(s3, "Anna: pass\nBoris: pass\nClara: pass")
        assert s3.holder == {"worker": 1, "upgrade": 1, "building": 2, "aristocrat": 0}
        illegal(ROUND1 + "round 2\nworker phase\nAnna: pass #!\n", "sp-not-your-turn")

    @pytest.mark.parametrize(
        "n,line",
        [
            (2, "tokens: Anna worker aristocrat, Boris building upgrade"),
            (2, "tokens: Anna worker building, Boris aristocrat upgrade"),
            (3, "tokens: Anna worker, Boris building, Clara aristocrat upgrade"),
            (3, "tokens: Anna worker upgrade, Boris building, Clara aristocrat"),
            (4, "tokens: Anna upgrade, Boris worker, Clara building, Dmitri aristocrat"),
        ],
    )
    def test_token_distributions_accepted(self, n, line):
        new_state(n, tokens=line)

    @pytest.mark.parametrize(
        "n,line",
        [
            (2, "tokens: Anna worker building aristocrat, Boris upgrade"),
            (2, "tokens: Anna worker building aristocrat upgrade"),
            (3, "tokens: Anna worker building, Boris aristocrat upgrade"),
            (3, "tokens: Anna worker, Boris building, Clara aristocrat"),  # upgrade token missing
            (4, "tokens: Anna worker building, Boris aristocrat, Clara upgrade"),
            (4, "tokens: Anna worker, Boris worker, Clara aristocrat, Dmitri upgrade"),  # given twice
        ],
    )
    def test_token_distributions_refused(self, n, line):
        s = SPStateFor(n)
        rejects(s, line, "sp-bad-tokens")

    def test_tokens_required_and_once(self):
        illegal("worker phase #!\n", "sp-tokens-required")
        illegal("round 1\nAnna: pass #!\n", "sp-tokens-required")
        illegal(
            """\
            tokens: Anna worker aristocrat, Boris building upgrade
            tokens: Anna worker aristocrat, Boris building upgrade #!
            """,
            "sp-misplaced-tokens",
        )


def SPStateFor(n):
    from referee.saint_petersburg.state import SPState

    return SPState(["Anna", "Boris", "Clara", "Dmitri"][:n], SECOND_EDITION)


ROUND1_3P_WORKERS = """\
worker phase
deal: Lumberjack, Lumberjack, Lumberjack, Shepherd, Shepherd, Shepherd
Anna: buy Lumberjack
Boris: buy Lumberjack
Clara: buy Lumberjack
Anna: buy Shepherd
Boris: buy Shepherd
Clara: buy Shepherd
"""


# ------------------------------------------------------------------------------------------------ §3 phases
class TestPhases:
    def test_phase_ends_after_all_pass_in_a_row(self):
        illegal(
            ROUND1_WORKERS
            + f"""\
            building phase
            {BUILDING_DEAL}
            Boris: pass
            Anna: buy Market
            Boris: pass
            aristocrat phase #!
            """,
            "sp-phase-not-over",
        )

    def test_a_non_pass_resets_the_count(self):
        s = run(
            new_state(3),
            ROUND1_3P_WORKERS + "building phase\ndeal: Market, Market, Pub, Pub, Warehouse, Academy, Library, Library",
        )
        run(s, "Boris: pass\nClara: pass\nAnna: buy Pub\nBoris: pass\nClara: pass")
        assert s.stage == "acting" and s.passes == 2
        run(s, "Anna: pass")  # she passed before too: passing is not final, only N in a row end the phase
        assert s.stage == "between phases" and s.phase == "aristocrat"

    def test_passing_is_not_final(self):
        s = run(
            new_state(3),
            ROUND1_3P_WORKERS + "building phase\ndeal: Market, Market, Pub, Pub, Warehouse, Academy, Library, Library",
        )
        run(s, "Boris: pass\nClara: buy Pub\nAnna: pass\nBoris: buy Market")
        assert s.p[1].owned["Market"] == 1

    def test_actions_after_the_phase_ended_need_the_header(self):
        illegal(ROUND1_WORKERS + "Anna: pass #!\n", "sp-phase-header-expected")

    def test_phases_in_fixed_order(self):
        illegal(ROUND1_WORKERS + "aristocrat phase #!\n", "sp-wrong-phase")
        illegal(ROUND1 + "building phase #!\n", "sp-wrong-phase")
        illegal(ROUND1_WORKERS + "worker phase #!\n", "sp-wrong-phase")

    def test_any_card_may_be_bought_in_any_phase(self):
        s = run(fresh(), ROUND1)
        run(s, "round 2\nworker phase\ndeal: none")
        run(s, "Boris: buy Bank over Warehouse for 10")  # an upgrade, in the worker phase, from the lower row
        run(s, "Anna: buy Administrator for 6")  # an aristocrat, from the lower row
        assert s.p[1].rubles == 22 - 10 and s.p[0].rubles == 20 - 6

    def test_round_checkpoint(self):
        unfinished(ROUND1 + "round 2\nworker phase\n")
        illegal(ROUND1 + "round 3 #!\n", "sp-round-mismatch")
        illegal(ROUND1_WORKERS + "round 1 #!\n", "sp-misplaced-round")


class TestFirstWorkerPhase:
    def test_second_edition_only_buys(self):
        body = (
            "tokens: Anna worker aristocrat, Boris building upgrade\nworker phase\n"
            "deal: Lumberjack, Gold Miner, Shepherd, Lumberjack\n"
        )
        illegal(body + "Anna: take Shepherd #!\n", "sp-must-buy")
        illegal(body + "Anna: pass #!\n", "sp-must-buy")
        s = run(fresh(), body)
        give(s, 0, "Market", hand=True)
        rejects(s, "Anna: play Market", "sp-must-buy")

    def test_second_edition_ends_when_the_display_is_empty(self):
        s = run(fresh(), ROUND1_WORKERS)
        assert s.stage == "between phases" and s.phase == "building"
        assert [card_names(p.area) for p in s.p] == [["Shepherd", "Lumberjack"], ["Gold Miner", "Lumberjack"]]

    def test_first_edition_is_an_ordinary_phase(self):
        body = """\
            tokens: Anna worker aristocrat, Boris building upgrade
            worker phase
            deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
            Anna: take Shepherd
            Boris: pass
            Anna: buy Lumberjack
            Boris: buy Gold Miner
            Anna: buy Lumberjack
            Boris: pass
            """
        unfinished(body, Ruleset="1st edition")
        # the display is empty, but the phase ends only after all pass in a row (D7): hand cards can still be played
        illegal(body + "building phase #!\n", "sp-phase-not-over", Ruleset="1st edition")
        unfinished(
            body + "Anna: play Shepherd for 5\nBoris: pass\nAnna: pass\nscore: Anna +9R, Boris +3R\nbuilding phase\n",
            Ruleset="1st edition",
        )

    def test_d7_option_first_edition_ends_when_empty(self):
        body = (
            "worker phase\ndeal: Lumberjack, Gold Miner, Shepherd, Lumberjack\nAnna: buy Shepherd\n"
            "Boris: buy Gold Miner\nAnna: buy Lumberjack\nBoris: buy Lumberjack"
        )
        s = run(new_state(opts=first(first_worker_phase_ends_when_empty=True)), body)
        assert s.stage == "between phases" and s.phase == "building"
        s = run(new_state(opts=FIRST_EDITION), body)
        assert s.stage == "acting" and s.passes == 0

    def test_d6_a_broke_player_passes(self):
        opts = options(start_rubles=3)
        s = run(new_state(opts=opts), "worker phase\ndeal: Lumberjack, Shepherd, Shepherd, Fur Trapper")
        run(s, "Anna: buy Lumberjack")
        run(s, "Boris: pass")  # 3 rubles, the cheapest card costs 5
        run(s, "Anna: pass")  # 0 rubles
        assert s.stage == "between phases" and s.phase == "building"
        assert card_names(s.upper) == ["Shepherd", "Shepherd", "Fur Trapper"]

    def test_d6_a_player_who_can_buy_may_not_pass(self):
        s = run(
            new_state(opts=options(start_rubles=5)), "worker phase\ndeal: Lumberjack, Shepherd, Shepherd, Fur Trapper"
        )
        rejects(s, "Anna: pass", "sp-must-buy")

    def test_d6_option_off(self):
        s = run(
            new_state(opts=options(start_rubles=3, first_phase_broke_pass=False)),
            "worker phase\ndeal: Lumberjack, Shepherd, Shepherd, Fur Trapper",
        )
        run(s, "Anna: buy Lumberjack")
        rejects(s, "Boris: pass", "sp-must-buy")

    def test_buy_only_option_off_in_second_edition(self):
        s = run(
            new_state(opts=options(first_worker_phase_buy_only=False)),
            "worker phase\ndeal: Lumberjack, Shepherd, Shepherd, Fur Trapper",
        )
        run(s, "Anna: take Lumberjack\nBoris: pass")
        assert s.p[0].hand[0].name == "Lumberjack"

    def test_round_two_worker_phase_is_ordinary(self):
        unfinished(ROUND1 + "round 2\nworker phase\nBoris: pass\nAnna: take Bank\n")


# ------------------------------------------------------------------------------------------------ §3 refill
class TestRefill:
    @pytest.mark.parametrize(
        "n,cards",
        [
            (2, "Lumberjack, Lumberjack, Lumberjack, Lumberjack"),
            (3, "Lumberjack, Lumberjack, Lumberjack, Lumberjack, Shepherd, Shepherd"),
            (4, "Lumberjack, Lumberjack, Lumberjack, Lumberjack, Shepherd, Shepherd, Shepherd, Shepherd"),
        ],
    )
    def test_round_one_deals_two_per_player(self, n, cards):
        s = run(new_state(n), "worker phase")
        assert s.due == 2 * n
        rejects(s, "deal: " + cards + ", Gold Miner", "sp-deal-count")
        rejects(s, "deal: " + cards.rsplit(",", 1)[0], "sp-deal-count")
        run(s, "deal: " + cards)
        assert len(s.upper) == 2 * n

    def test_first_edition_round_one_also_deals_two_per_player(self):
        s = run(new_state(opts=FIRST_EDITION), "worker phase")
        assert s.due == 4

    def test_later_phases_fill_up_to_eight(self):
        body = ROUND1_WORKERS + "building phase\n"
        illegal(
            body + "deal: Market, Pub, Customs House, Observatory, Market, Firehouse, Hospital #!\n", "sp-deal-count"
        )
        illegal(body + "Boris: pass #!\n", "sp-deal-missing")
        s = run(
            fresh(),
            ROUND1_WORKERS + "building phase\n" + BUILDING_DEAL + "\nBoris: buy Warehouse\n"
            "Anna: take Pub\nBoris: pass\nAnna: pass\naristocrat phase",
        )
        assert s.due == 2

    def test_nothing_due_allows_deal_none_or_no_deal(self):
        s = run(fresh(), ROUND1 + "round 2\nworker phase")
        assert s.due == 0 and s.stage == "acting"
        rejects(s, "deal: Lumberjack", "sp-deal-count")
        run(s, "deal: none")
        unfinished(ROUND1 + "round 2\nworker phase\nBoris: pass\n")

    def test_deal_none_is_listed_where_it_is_legal(self):
        """The alternatives ``explain`` and an error list hold 'deal: none' right after a header that deals nothing
        (it was accepted, never offered: audit legal6); not after the first turn, nor where cards are due."""
        s = run(fresh(), ROUND1 + "round 2\nworker phase")
        assert s.legal_statements()[0] == "deal: none"
        run(s, "Boris: pass")
        assert "deal: none" not in s.legal_statements()
        rejects(s, "deal: none", "sp-misplaced-deal")
        s = run(fresh(), ROUND1_WORKERS + "building phase")
        assert s.due and "deal: none" not in s.legal_statements()
        rejects(s, "deal: none", "sp-deal-count")

    def test_round_checkpoint_before_the_tokens_is_listed(self):
        """'round 1' may open the record, before the 'tokens:' line: it is offered there (audit legal6)."""
        s = fresh()
        assert s.legal_statements() == ["round 1", "tokens: PLAYER PHASE..., ..."]
        run(s, "round 1")

    def test_header_while_cards_are_due(self):
        illegal(ROUND1_WORKERS + "building phase\naristocrat phase #!\n", "sp-deal-missing")

    def test_dealt_cards_leave_the_deck(self):
        s = run(new_state(), "worker phase\ndeal: Lumberjack, Lumberjack, Lumberjack, Lumberjack")
        assert s.decks["workers"]["Lumberjack"] == 2 and s.deck_size["workers"] == 27
        acting(s, "upgrade", to_act=1)
        run(s, "Boris: pass\nAnna: pass\nworker phase")
        rejects(
            s,
            "deal: Lumberjack, Lumberjack, Lumberjack, Shepherd, Shepherd, Shepherd, Shepherd, Gold Miner",
            "sp-deal-exhausted",
        )

    def test_deal_only_right_after_the_header(self):
        illegal(
            ROUND1_WORKERS + f"building phase\n{BUILDING_DEAL}\nBoris: pass\ndeal: Market #!\n", "sp-misplaced-deal"
        )

    def test_round_end_discards_lower_row_and_moves_upper_down(self):
        s = run(fresh(), ROUND1)  # the upper row at the end of round 1 is now the lower row
        upper = card_names(s.lower)
        assert upper == [
            "Market",
            "Customs House",
            "Observatory",
            "Market",
            "Firehouse",
            "Hospital",
            "Administrator",
            "Bank",
        ]
        assert s.upper == [] and s.discards == []
        run(s, "round 2\nworker phase")
        assert s.due == 0
        run(
            s,
            "Boris: pass\nAnna: pass\nbuilding phase\nAnna: pass\nBoris: pass\naristocrat phase\n"
            "Boris: pass\nAnna: pass\nupgrade phase\nAnna: pass\nBoris: pass",
        )
        assert s.round == 3
        assert card_names(s.discards) == upper and s.lower == [] and s.upper == []
        run(s, "worker phase")
        assert s.due == 8

    def test_deck_running_short_deals_all_remaining(self):
        s = new_state()
        acting(s, "worker", round_=2)
        set_deck(s, "buildings", {"Market": 2, "Pub": 1})
        run(s, "Anna: pass\nBoris: pass\nbuilding phase")
        assert s.due == 3
        rejects(s, "deal: Market, Market", "sp-deal-count")
        run(s, "deal: Market, Pub, Market")
        assert s.end_triggered

    def test_deal_from_the_phase_deck(self):
        illegal(
            ROUND1_WORKERS + "building phase\ndeal: Market, Warehouse, Author, Pub, Customs House, "
            "Observatory, Market, Firehouse #!\n",
            "sp-deal-wrong-deck",
        )
        illegal(
            "tokens: Anna worker aristocrat, Boris building upgrade\nworker phase\n"
            "deal: Lumberjack, Carpenter Workshop, Lumberjack, Lumberjack #!\n",
            "sp-deal-wrong-deck",
        )

    def test_copies_limit(self):
        illegal(
            "tokens: Anna worker aristocrat, Boris building upgrade\nworker phase\n"
            "deal: Czar & Carpenter, Lumberjack, Czar and Carpenter, Lumberjack #!\n",
            "sp-deal-exhausted",
        )
        s = new_state()
        acting(s, "worker", round_=2)
        give(s, 0, *["Market"] * 5)
        run(s, "Anna: pass\nBoris: pass\nbuilding phase")
        rejects(s, "deal: Market, Pub, Pub, Academy, Library, Library, Library, Theater", "sp-deal-exhausted")


# ------------------------------------------------------------------------------------------------ §5 hand
class TestHand:
    def test_take_is_free_and_fills_the_hand(self):
        s = new_state()
        acting(s, "building", upper=("Academy",), lower=("Market",))
        run(s, "Anna: take Academy\nBoris: take lower Market")
        assert (s.p[0].rubles, card_names(s.p[0].hand)) == (25, ["Academy"])
        assert s.upper == [] and s.lower == [] and s.p[1].area == []

    def test_hand_limit_three(self):
        s = new_state()
        give(s, 0, "Market", "Pub", "Pub", hand=True)
        acting(s, "building", upper=("Academy",))
        rejects(s, "Anna: take Academy", "sp-hand-full")
        s.p[0].hand.pop()
        run(s, "Anna: take Academy")

    def test_hand_limit_four_with_warehouse(self):
        s = new_state()
        give(s, 0, "Warehouse")
        give(s, 0, "Market", "Pub", "Pub", hand=True)
        acting(s, "building", upper=("Academy", "Theater"))
        run(s, "Anna: take Academy\nBoris: pass")
        rejects(s, "Anna: take Theater", "sp-hand-full")

    def test_play_from_hand(self):
        s = new_state()
        give(s, 0, "Academy", hand=True)
        acting(s, "worker", upper=("Lumberjack",))
        rejects(s, "Anna: play Theater", "sp-not-in-hand")
        run(s, "Anna: play Academy for 23")
        assert s.p[0].hand == [] and card_names(s.p[0].area) == ["Academy"] and s.p[0].rubles == 2

    def test_take_and_buy_need_the_card_in_the_named_row(self):
        s = new_state()
        acting(s, "building", upper=("Market", "Pub"), lower=("Market", "Academy"))
        rejects(s, "Anna: take Theater", "sp-not-in-display")
        rejects(s, "Anna: buy upper Academy", "sp-not-in-display")
        rejects(s, "Anna: buy lower Pub", "sp-not-in-display")
        rejects(s, "Anna: buy Market", "sp-ambiguous-row")
        run(s, "Anna: buy lower Market for 4")


# ----------------------------------------------------------------------------------------- §5 Observatory
class TestObservatory:
    def setup_state(self, opts=SECOND_EDITION, observatories=1):
        s = new_state(opts=opts)
        give(s, 0, *["Observatory"] * observatories)
        acting(s, "building", upper=("Market",))
        return s

    def test_building_phase_only(self):
        s = new_state()
        give(s, 0, "Observatory")
        for phase in ("worker", "aristocrat", "upgrade"):
            acting(s, phase)
            rejects(s, "Anna: observe workers: Lumberjack, discard", "sp-observatory-unavailable")
        acting(s, "building")
        run(s, "Anna: observe workers: Lumberjack, discard")

    def test_only_an_owner(self):
        s = self.setup_state()
        run(s, "Anna: pass")
        rejects(s, "Boris: observe workers: Lumberjack, discard", "sp-observatory-unavailable")

    def test_once_per_round(self):
        s = self.setup_state()
        run(s, "Anna: observe workers: Lumberjack, discard\nBoris: pass")
        rejects(s, "Anna: observe workers: Lumberjack, discard", "sp-observatory-unavailable")

    def test_face_up_again_next_round(self):
        s = self.setup_state()
        run(s, "Anna: observe workers: Lumberjack, discard\nBoris: pass\nAnna: pass")
        acting(
            s, "upgrade", upper=("Market", "Market", "Market", "Pub", "Pub", "Academy", "Library", "Library"), to_act=1
        )
        run(s, "Boris: pass\nAnna: pass\nworker phase\nBoris: pass\nAnna: pass\nbuilding phase")
        assert s.to_act == 0
        run(s, "Anna: observe workers: Lumberjack, discard")

    def test_two_observatories_two_uses(self):
        s = self.setup_state(observatories=2)
        run(
            s,
            "Anna: observe workers: Lumberjack, discard\nBoris: pass\nAnna: observe workers: Lumberjack, discard"
            "\nBoris: pass",
        )
        rejects(s, "Anna: observe workers: Lumberjack, discard", "sp-observatory-unavailable")

    def test_option_one_use_per_player(self):
        s = self.setup_state(options(observatory_each_once=False), observatories=2)
        run(s, "Anna: observe workers: Lumberjack, discard\nBoris: pass")
        rejects(s, "Anna: observe workers: Lumberjack, discard", "sp-observatory-unavailable")

    def test_not_a_decks_last_card(self):
        s = self.setup_state()
        set_deck(s, "aristocrats", {"Author": 1})
        error = rejects(s, "Anna: observe aristocrats: Author, discard", "sp-observatory-last-card")
        assert error.message.startswith("the aristocrats deck holds its last card;"), error.message
        set_deck(s, "aristocrats", {})
        error = rejects(s, "Anna: observe aristocrats: Author, discard", "sp-observatory-last-card")
        assert error.message.startswith("the aristocrats deck is empty;"), error.message
        set_deck(s, "aristocrats", {"Author": 1, "Judge": 1})
        run(s, "Anna: observe aristocrats: Author, discard")
        assert s.deck_size["aristocrats"] == 1 and not s.end_triggered

    def test_no_observe_hint_when_every_deck_is_down_to_its_last_card(self):
        """Rules 5: an Observatory never draws a deck's last card, so with every deck at one card the alternatives an
        error or ``referee explain`` lists offer no 'observe' line (audit sp3); one deck of two brings it back."""
        s = self.setup_state()
        for deck in ("workers", "buildings", "aristocrats", "upgrades"):
            name = next(name for name, copies in s.decks[deck].items() if copies)
            set_deck(s, deck, {name: 1})
        assert not any("observe" in text for text in s.legal_statements())
        set_deck(s, "aristocrats", {"Author": 1, "Judge": 1})
        assert "Anna: observe DECK: CARD, buy|take|discard" in s.legal_statements()

    def test_observed_card_must_be_in_that_deck(self):
        s = self.setup_state()
        rejects(s, "Anna: observe workers: Market, discard", "sp-observed-card-unavailable")
        set_deck(s, "buildings", {"Market": 3})
        rejects(s, "Anna: observe buildings: Pub, discard", "sp-observed-card-unavailable")

    def test_buy(self):
        s = self.setup_state()
        run(s, "Anna: observe aristocrats: Judge, buy for 17")
        assert card_names(s.p[0].area) == ["Observatory", "Judge"] and s.p[0].rubles == 8
        assert s.decks["aristocrats"]["Judge"] == 1 and s.deck_size["aristocrats"] == 26

    def test_buy_upgrade_needs_a_target(self):
        s = self.setup_state()
        give(s, 0, "Market")
        rejects(s, "Anna: observe upgrades: Bank, buy", "sp-upgrade-needs-target")
        rejects(s, "Anna: observe upgrades: Bank, buy over Market for 7", "sp-price-mismatch")
        run(s, "Anna: observe upgrades: Bank, buy over Market for 8")
        assert card_names(s.discards) == ["Market"]

    def test_take(self):
        s = self.setup_state()
        run(s, "Anna: observe upgrades: Czarina, take")
        assert card_names(s.p[0].hand) == ["Czarina"] and s.p[0].rubles == 25

    def test_take_needs_room(self):
        s = self.setup_state()
        give(s, 0, "Pub", "Pub", "Market", hand=True)
        rejects(s, "Anna: observe upgrades: Czarina, take", "sp-hand-full")
        run(s, "Anna: observe upgrades: Czarina, discard")
        assert card_names(s.discards) == ["Czarina"] and s.decks["upgrades"]["Czarina"] == 0

    def test_no_vp_in_the_round_used(self):
        s = self.setup_state(observatories=2)
        give(s, 0, "Market")
        run(s, "Anna: observe workers: Lumberjack, discard\nBoris: pass\nAnna: pass")
        assert (s.last_scoring[0].rubles, s.last_scoring[0].vp) == (0, 2)  # Market 1 + unused Observatory 1
        t = self.setup_state()
        run(t, "Anna: pass\nBoris: pass")
        assert t.last_scoring[0].vp == 1

    def test_d8_same_phase(self):
        s = new_state()
        acting(s, "building", upper=("Observatory",))
        run(s, "Anna: buy Observatory for 7\nBoris: pass")
        run(s, "Anna: observe workers: Lumberjack, discard")
        t = new_state(opts=options(observatory_same_phase=False))
        acting(t, "building", upper=("Observatory",))
        run(t, "Anna: buy Observatory for 7\nBoris: pass")
        rejects(t, "Anna: observe workers: Lumberjack, discard", "sp-observatory-unavailable")

    def test_d8_same_phase_off_allows_next_round(self):
        t = new_state(opts=options(observatory_same_phase=False))
        acting(
            t,
            "worker",
            upper=(
                "Observatory",
                "Lumberjack",
                "Lumberjack",
                "Lumberjack",
                "Shepherd",
                "Shepherd",
                "Shepherd",
                "Fur Trapper",
            ),
        )
        run(t, "Anna: buy Observatory for 7\nBoris: pass\nAnna: pass\nbuilding phase\ndeal: Market")
        run(t, "Boris: pass\nAnna: observe workers: Lumberjack, discard")


# --------------------------------------------------------------------------------------------- §5 game end
class TestGameEnd:
    def ending_state(self):
        """Round 2 worker phase over; the building deck holds exactly the 8 cards the next deal needs."""
        s = new_state()
        acting(s, "worker")
        set_deck(s, "buildings", {"Market": 4, "Pub": 2, "Warehouse": 1, "Academy": 1})
        run(s, "Anna: pass\nBoris: pass\nbuilding phase")
        return s

    def test_triggered_when_a_deal_empties_a_deck(self):
        s = self.ending_state()
        run(s, "deal: Market, Market, Market, Market, Pub, Pub, Warehouse, Academy")
        assert s.end_triggered and not s.is_terminal()

    def test_not_triggered_while_cards_remain(self):
        s = new_state()
        acting(s, "worker")
        set_deck(s, "buildings", {"Market": 5, "Pub": 2, "Warehouse": 1, "Academy": 1})
        run(
            s,
            "Anna: pass\nBoris: pass\nbuilding phase\ndeal: Market, Market, Market, Market, Pub, Pub, "
            "Warehouse, Academy",
        )
        assert not s.end_triggered

    def test_round_is_played_to_the_end_of_its_upgrade_phase(self):
        s = self.ending_state()
        run(s, "deal: Market, Market, Market, Market, Pub, Pub, Warehouse, Academy\nBoris: pass\nAnna: pass")
        run(s, "aristocrat phase\ndeal: none\nAnna: pass\nBoris: pass")
        assert not s.is_terminal()
        run(s, "upgrade phase\nBoris: pass")
        assert not s.is_terminal()
        run(s, "Anna: pass")
        assert s.is_terminal()
        for line in ("round 3", "worker phase", "Anna: pass", "Anna: pub 0", "score: Anna +0R", "deal: none"):
            rejects(s, line, "after-end")
        with pytest.raises(RefereeError) as caught:
            s.apply(parse("tokens: Anna worker aristocrat, Boris building upgrade"))
        assert caught.value.verdict == Verdict.ILLEGAL
        run(s, "final: Anna 2, Boris 2")
        run(s, "final: Anna 2")  # final: may be repeated after the end, each one checked
        rejects(s, "final: Anna 3", "final-mismatch")

    def test_final_only_after_the_end(self):
        illegal(ROUND1_WORKERS + "final: Anna 0, Boris 0 #!\n", "final-misplaced")


# --------------------------------------------------------------------------------------------- rule options
class TestOptions:
    def test_start_rubles(self):
        assert [p.rubles for p in new_state(opts=options(start_rubles=40)).p] == [40, 40]
        assert [p.rubles for p in new_state().p] == [25, 25]

    def test_display_size(self):
        s = run(fresh(opts=options(display_size=6)), ROUND1_WORKERS + "building phase")
        assert s.due == 6

    def test_first_deal_per_player(self):
        s = run(new_state(opts=options(first_deal_per_player=3)), "worker phase")
        assert s.due == 6

    def test_min_price(self):
        s = new_state(opts=options(min_price=0))
        give(s, 0, "Academy")
        assert s.price(0, s.cards["Bank"], False, s.cards["Academy"]) == 0
        s2 = new_state(opts=options(min_price=3))
        assert s2.price(0, s2.cards["Pub"], False, None) == 3

    def test_hand_limits(self):
        s = new_state(opts=options(hand_limit=1, warehouse_hand_limit=2))
        acting(s, "building", upper=("Market", "Pub", "Academy"))
        run(s, "Anna: take Market\nBoris: pass")
        rejects(s, "Anna: take Pub", "sp-hand-full")
        give(s, 0, "Warehouse")
        run(s, "Anna: take Pub\nBoris: pass")
        rejects(s, "Anna: take Academy", "sp-hand-full")

    def test_potemkin_value(self):
        s = new_state(opts=options(potemkin_value=2))
        give(s, 0, "Potemkin Village")
        assert s.price(0, s.cards["Bank"], False, s.cards["Potemkin Village"]) == 11

    def test_d2_refill_skip_when_untouched(self):
        s = new_state(opts=first(refill_skip_when_untouched=True))
        acting(s, "worker", upper=("Lumberjack",))
        run(s, "Anna: pass\nBoris: pass\nbuilding phase")
        assert s.due == 0 and s.stage == "acting"
        s = new_state(opts=first(refill_skip_when_untouched=True))
        acting(s, "worker", upper=("Lumberjack", "Lumberjack"))
        run(s, "Anna: take Lumberjack\nBoris: pass\nAnna: pass\nbuilding phase")
        assert s.due == 7
        s = new_state(opts=first(refill_skip_when_untouched=True))
        acting(s, "worker", upper=("Lumberjack", "Lumberjack"))
        run(s, "Anna: buy Lumberjack\nBoris: pass\nAnna: pass\nbuilding phase")
        assert s.due == 7
        s = new_state(opts=FIRST_EDITION)  # default: always refill
        acting(s, "worker", upper=("Lumberjack",))
        run(s, "Anna: pass\nBoris: pass\nbuilding phase")
        assert s.due == 7

    def test_bank_rubles_limited_bank(self):
        s = new_state(opts=options(bank_rubles=4))
        give(s, 0, "Lumberjack", "Lumberjack")  # 6 rubles due
        acting(s, "worker")
        run(s, "Anna: pass\nBoris: pass")
        assert s.p[0].rubles == 29 and s.last_scoring[0].rubles == 4 and s.bank == 0
        s = new_state()
        give(s, 0, "Lumberjack", "Lumberjack")
        acting(s, "worker")
        run(s, "Anna: pass\nBoris: pass")
        assert s.p[0].rubles == 31 and s.bank is None

    def test_bank_collects_payments(self):
        s = new_state(opts=options(bank_rubles=4))
        give(s, 0, "Pub")
        acting(s, "building", upper=("Market",))
        run(s, "Anna: buy Market for 5")
        assert s.bank == 9
        run(s, "Boris: pass\nAnna: pass\nAnna: pub 2 for 4")
        assert s.bank == 13 and s.p[0].rubles == 16

    def test_variant_file_in_a_record(self, tmp_path: Path):
        (tmp_path / "cheap.toml").write_text(
            'name = "cheap"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 4\n', encoding="utf-8"
        )
        text = (
            '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n[Variant "cheap.toml"]\n\n'
            "tokens: Anna worker aristocrat, Boris building upgrade\nworker phase\n"
            "deal: Lumberjack, Gold Miner, Shepherd, Lumberjack\nAnna: buy Shepherd\n"
        )
        (tmp_path / "game.rec").write_text(text, encoding="utf-8")
        [report] = check_file(tmp_path / "game.rec")
        assert (report.verdict, report.error.code, report.error.line) == (Verdict.ILLEGAL, "sp-cannot-afford", 8)

    def test_registered_variant(self):
        report = judge(
            "tokens: Anna worker aristocrat, Boris building upgrade\nworker phase\n"
            "deal: Lumberjack, Gold Miner, Shepherd, Lumberjack\n",
            Variant="sp-rich-start",
        )
        assert report.verdict == Verdict.UNFINISHED
        state = final_state(
            "tokens: Anna worker aristocrat, Boris building upgrade\nworker phase\n"
            "deal: Lumberjack, Gold Miner, Shepherd, Lumberjack\n",
            Variant="sp-rich-start",
        )
        assert [p.rubles for p in state.p] == [40, 40]
        assert state.hand_limit(0) == 4

    def test_every_option_is_covered(self):
        import dataclasses

        covered = {
            "edition",
            "start_rubles",
            "display_size",
            "first_deal_per_player",
            "min_price",
            "hand_limit",
            "warehouse_hand_limit",
            "potemkin_value",
            "first_worker_phase_buy_only",
            "first_phase_broke_pass",
            "first_worker_phase_ends_when_empty",
            "pub_vp_price",
            "pub_max_vp",
            "pub_cap_per_pub",
            "refill_skip_when_untouched",
            "tiebreak_leftover",
            "bank_rubles",
            "mariinsky_rubles",
            "mariinsky_counts_red_upgrades",
            "observatory_same_phase",
            "observatory_each_once",
            "rubles_per_vp",
            "hand_penalty",
            "variety_table",
            "discard_lower_row",  # tests/test_variants.py
            "cards",  # tests/test_variants.py
        }
        assert {f.name for f in dataclasses.fields(SECOND_EDITION)} == covered


# ------------------------------------------------------------------------------------------------ §2 cards
# The table of the rules reference §2, copied verbatim: deck,name,copies,cost,rubles,vp,symbol
CARD_TABLE = """\
worker,Lumberjack,6,3,3,0,wood
worker,Gold Miner,6,4,3,0,gold
worker,Shepherd,6,5,3,0,wool
worker,Fur Trapper,6,6,3,0,fur
worker,Ship Builder,6,7,3,0,ship
worker,Czar & Carpenter,1,8,3,0,any
building,Market,5,5,0,1,
building,Customs House,5,8,0,2,
building,Firehouse,3,11,0,3,
building,Hospital,3,14,0,4,
building,Library,3,17,0,5,
building,Theater,2,20,0,6,
building,Academy,1,23,0,7,
building,Potemkin Village,1,2,0,0,
building,Pub,2,1,0,0,
building,Warehouse,1,2,0,0,
building,Observatory,2,7,0,1,
aristocrat,Author,6,4,1,0,
aristocrat,Administrator,5,7,2,0,
aristocrat,Warehouse Manager,5,10,3,0,
aristocrat,Secretary,4,12,4,0,
aristocrat,Controller,3,14,4,1,
aristocrat,Judge,2,17,5,2,
aristocrat,Mistress of Ceremonies,2,20,6,3,
upgrade-green,Carpenter Workshop,1,4,3,0,wood
upgrade-green,Gold Smelter,1,6,3,0,gold
upgrade-green,Weaving Mill,2,8,6,0,wool
upgrade-green,Fur Shop,3,10,3,2,fur
upgrade-green,Wharf,3,12,6,1,ship
upgrade-blue,Mariinsky Theater,1,15,0,0,
upgrade-blue,Bank,1,13,5,1,
upgrade-blue,Peterhof,1,14,4,2,
upgrade-blue,St Isaac's Cathedral,1,15,3,3,
upgrade-blue,Church of the Resurrection of Jesus Christ,1,16,2,4,
upgrade-blue,Harbor,1,16,5,2,
upgrade-blue,Catherine the Great Palace,1,17,1,5,
upgrade-blue,Smolny Cathedral,1,17,4,3,
upgrade-blue,Hermitage,1,18,3,4,
upgrade-blue,Winter Palace,1,19,2,5,
upgrade-red,Abbot,1,6,1,1,
upgrade-red,Chamber Maid,1,8,0,2,
upgrade-red,Weapon Master,1,8,4,0,
upgrade-red,Builder,1,10,5,0,
upgrade-red,Senator,1,12,2,2,
upgrade-red,Patriarch,1,16,0,4,
upgrade-red,Tax Man,1,17,0,0,
upgrade-red,Admiral,1,18,3,3,
upgrade-red,Minister of Foreign Affairs,1,20,2,4,
upgrade-red,Czarina,1,24,0,6,
"""


class TestCards:
    def test_card_data_matches_the_rules_reference(self):
        from referee.saint_petersburg.cards import SECOND_EDITION as CARDS

        rows = [line.split(",") for line in CARD_TABLE.splitlines()]
        assert len(rows) == len(CARDS) == 49
        for kind, name, copies, cost, rubles, vp, symbol in rows:
            card = CARDS[name]
            upgrade = kind.startswith("upgrade-")
            colour = (
                kind.split("-")[1] if upgrade else {"worker": "green", "building": "blue", "aristocrat": "red"}[kind]
            )
            assert (
                card.deck,
                card.colour,
                card.upgrade,
                card.copies,
                card.cost,
                card.rubles,
                card.vp,
                card.symbol,
            ) == (
                "upgrades" if upgrade else kind + "s",
                colour,
                upgrade,
                int(copies),
                int(cost),
                int(rubles),
                int(vp),
                symbol,
            ), name

    def test_deck_sizes(self):
        s = new_state()
        assert s.deck_size == {"workers": 31, "buildings": 28, "aristocrats": 27, "upgrades": 30}
        assert sum(c.copies for c in s.cards.values() if c.deck == "upgrades" and c.colour == "green") == 10
        assert sum(c.copies for c in s.cards.values() if c.deck == "upgrades" and c.colour == "blue") == 10
        assert sum(c.copies for c in s.cards.values() if c.deck == "upgrades" and c.colour == "red") == 10


class TestCodes:
    def test_every_code_has_the_game_prefix_and_its_former_name_stays_accepted(self):
        assert all(kind.code.startswith("sp-") for kind in SPCode)
        assert sorted(FORMER_CODES.values()) == sorted(kind.code for kind in SPCode)
        for former, current in FORMER_CODES.items():
            assert former not in CATALOGUE and canonical_code(former) == current

    @pytest.mark.parametrize("code", ["sp-not-your-turn", "not-your-turn"])
    def test_an_expect_tag_is_met_with_the_current_or_the_former_code(self, code):
        body = ROUND1_WORKERS.replace("Boris: buy Gold Miner for 4", "Anna: buy Gold Miner for 4 #!")
        line = marked_line(record(body, Expect="illegal"))
        report = judge(body, Expect=f"illegal {code} {line}")
        assert report.error.code == "sp-not-your-turn" and report.expectation_met and report.ok
