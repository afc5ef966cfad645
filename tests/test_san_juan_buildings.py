"""San Juan building abilities: each test shows the ability at work and what happens without it, so removing the
ability from the rules makes a test fail. Timing: a violet building works only after the builder phase in which it
was built (rules reference §3)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from test_san_juan import fails, fresh, give, goods, hand, hold, run

from referee.san_juan.options import FIRST_EDITION


# ------------------------------------------------------------------------------------------------ builder
def test_smithy_reduces_production_buildings_only() -> None:
    state = fresh(2)
    give(state, "Boris", "Smithy")
    hold(state, "Boris", "Coffee Roaster", "Coffee Roaster")
    run(state, "Anna: builder\nAnna: pass")
    fails(state, "Boris: build Coffee Roaster paying ?, ?, ?, ?", "sj-payment")
    run(state, "Boris: build Coffee Roaster paying ?, ?, ?")
    state = fresh(2)
    give(state, "Boris", "Smithy")
    hold(state, "Boris", "Tower")
    run(state, "Anna: builder\nAnna: pass")
    fails(state, "Boris: build Tower paying ?, ?", "sj-payment")


def test_quarry_reduces_violet_buildings_only() -> None:
    state = fresh(2)
    give(state, "Boris", "Quarry")
    hold(state, "Boris", "Tower", "Tobacco Storage")
    run(state, "Anna: builder\nAnna: pass")
    fails(state, "Boris: build Tower paying ?, ?, ?", "sj-payment")
    fails(state, "Boris: build Tobacco Storage paying ?, ?", "sj-payment")
    run(state, "Boris: build Tower paying ?, ?")


def test_reductions_add_up() -> None:
    state = fresh(3)
    give(state, "Anna", "Quarry", "Library")
    hold(state, "Anna", "Hero")
    run(state, "Anna: builder")
    fails(state, "Anna: build Hero paying ?, ?, ?", "sj-payment")  # 5 - 2 Library privilege - 1 Quarry = 2
    run(state, "Anna: build Hero paying ?, ?")


def test_poor_house_draws_after_building_with_at_most_one_card() -> None:
    state = fresh(2)
    give(state, "Anna", "Poor House")
    hold(state, "Anna", "Tower")
    run(state, "Anna: builder\nAnna: build Tower paying ?, ?")  # 2 cards left: no draw
    fails(state, "Anna: draws ? (poor house)", "sj-not-owed")
    state = fresh(2)
    give(state, "Anna", "Poor House")
    hold(state, "Anna", "Hero")
    run(state, "Anna: builder\nAnna: build Hero paying ?, ?, ?, ?")  # 0 cards left
    run(state, "Anna: draws ? (poor house)")
    assert hand(state, "Anna") == 1


def test_poor_house_does_not_fire_in_the_phase_it_is_built() -> None:
    state = fresh(2)
    hold(state, "Anna", "Poor House")
    run(state, "Anna: builder\nAnna: build Poor House paying ?")  # 3 cards left anyway; now with 0:
    state = fresh(2)
    state.p[0].hand_unknown, state.p[0].born = 1, Counter({0: 1})
    state.supply += 3
    hold(state, "Anna", "Poor House")
    run(state, "Anna: builder\nAnna: build Poor House paying ?")
    assert hand(state, "Anna") == 0
    fails(state, "Anna: draws ? (poor house)", "sj-not-owed")


def test_carpenter_draws_after_a_violet_building_not_production_not_itself() -> None:
    state = fresh(2)
    give(state, "Anna", "Carpenter")
    hold(state, "Anna", "Well")
    run(state, "Anna: builder\nAnna: build Well paying ?\nAnna: draws ? (carpenter)")
    state = fresh(2)
    give(state, "Anna", "Carpenter")
    hold(state, "Anna", "Sugar Mill")
    run(state, "Anna: builder\nAnna: build Sugar Mill paying ?")
    fails(state, "Anna: draws ? (carpenter)", "sj-not-owed")
    state = fresh(2)
    hold(state, "Anna", "Carpenter")
    run(state, "Anna: builder\nAnna: build Carpenter paying ?, ?")
    fails(state, "Anna: draws ? (carpenter)", "sj-not-owed")


def test_carpenter_comes_before_poor_house() -> None:
    state = fresh(2)
    give(state, "Anna", "Carpenter", "Poor House")
    hold(state, "Anna", "Hero")
    run(state, "Anna: builder\nAnna: build Hero paying ?, ?, ?, ?")
    assert state.owed == {"carpenter": 1, "poor house": 1}
    run(state, "Anna: draws ? (carpenter)\nAnna: draws ? (poor house)")
    state = fresh(2)
    give(state, "Anna", "Carpenter", "Poor House")
    hold(state, "Anna", "Hero")
    run(state, "Anna: builder\nAnna: build Hero paying ?, ?, ?, ?\nAnna: draws ? (poor house)")
    fails(state, "Anna: draws ? (carpenter)", "sj-not-owed")
    late = fresh(2, replace(FIRST_EDITION, poor_house_after_carpenter=True))
    give(late, "Anna", "Carpenter", "Poor House")
    hold(late, "Anna", "Hero", "Well")
    run(late, "Anna: builder\nAnna: build Hero paying ?, ?, ?, ?\nAnna: draws ? (carpenter)")
    fails(late, "Anna: draws ? (poor house)", "sj-not-owed")  # 2 cards after the Carpenter's draw


def test_black_market_pays_with_goods() -> None:
    state = fresh(2)
    give(state, "Anna", "Black Market", "Sugar Mill")
    goods(state, "Anna", indigo=1, sugar=1)
    hold(state, "Anna", "Tower", "Indigo Plant")
    run(state, "Anna: builder")
    fails(state, "Anna: build Tower goods Indigo Plant, Indigo Plant", "sj-black-market-goods")
    fails(state, "Anna: build Indigo Plant goods Indigo Plant", "sj-black-market-goods")  # [D5] cost is 0 already
    run(state, "Anna: build Tower goods Indigo Plant, Sugar Mill")
    assert state.p[0].goods_total == 0 and hand(state, "Anna") == 5
    state = fresh(2)
    give(state, "Boris", "Sugar Mill")
    goods(state, "Anna", indigo=1)
    hold(state, "Anna", "Tower")
    run(state, "Anna: builder")
    fails(state, "Anna: build Tower paying ? goods Indigo Plant", "sj-no-black-market")


def test_crane_builds_over_paying_the_difference() -> None:
    state = fresh(2)
    give(state, "Anna", "Crane", "Statue")
    hold(state, "Anna", "Hero")
    run(state, "Anna: builder")
    fails(state, "Anna: build Hero over Well paying ?", "sj-crane-target")
    fails(state, "Anna: build Hero over Crane paying ?", "sj-crane-target")  # [D4]
    fails(state, "Anna: build Hero over Statue paying ?, ?", "sj-payment")  # 5 - 3 - 1 = 1
    run(state, "Anna: build Hero over Statue paying ?")
    assert state.p[0].city == ["Indigo Plant", "Crane", "Hero"] and state.discard_known["Statue"] == 1
    state = fresh(2)
    give(state, "Anna", "Statue")
    hold(state, "Anna", "Hero")
    run(state, "Anna: builder")
    fails(state, "Anna: build Hero over Statue paying ?", "sj-no-crane")


def test_crane_covered_good_is_lost_only_when_every_building_of_its_kind_is_full() -> None:
    state = fresh(2)
    give(state, "Anna", "Crane")
    goods(state, "Anna", indigo=1)
    hold(state, "Anna", "Sugar Mill")
    run(state, "Anna: builder\nAnna: build Sugar Mill over Indigo Plant")
    assert state.p[0].goods_total == 0 and state.discard_size == 2


def test_crane_covered_building_still_pays() -> None:
    state = fresh(2)
    give(state, "Anna", "Crane", "Smithy")
    hold(state, "Anna", "Silver Smelter")
    run(state, "Anna: builder\nAnna: build Silver Smelter over Smithy paying ?, ?")  # 5 - 1 - 1 - 1 Smithy
    strict = fresh(2, replace(FIRST_EDITION, crane_pays_with_covered=False))
    give(strict, "Anna", "Crane", "Smithy")
    hold(strict, "Anna", "Silver Smelter")
    run(strict, "Anna: builder")
    fails(strict, "Anna: build Silver Smelter over Smithy paying ?, ?", "sj-payment")


# ------------------------------------------------------------------------------------------------ producer
def test_aqueduct_produces_one_more() -> None:
    state = fresh(2)
    give(state, "Boris", "Aqueduct", "Sugar Mill")
    give(state, "Anna", "Sugar Mill")
    run(state, "Anna: producer")
    run(state, "Anna: produce Indigo Plant, Sugar Mill")
    run(state, "Boris: produce Indigo Plant, Sugar Mill")
    state = fresh(2)
    give(state, "Boris", "Sugar Mill")
    run(state, "Anna: producer\nAnna: produce Indigo Plant")
    fails(state, "Boris: produce Indigo Plant, Sugar Mill", "sj-produce-limit")


def test_well_draws_after_two_goods() -> None:
    state = fresh(2)
    give(state, "Anna", "Well", "Sugar Mill")
    run(state, "Anna: producer\nAnna: produce Indigo Plant, Sugar Mill\nAnna: draws ? (well)")
    state = fresh(2)
    give(state, "Anna", "Well", "Sugar Mill")
    run(state, "Anna: producer\nAnna: produce Indigo Plant")
    fails(state, "Anna: draws ? (well)", "sj-not-owed")
    kinds = fresh(2, replace(FIRST_EDITION, well_needs_different_kinds=True))
    give(kinds, "Anna", "Well", "Indigo Plant")
    run(kinds, "Anna: producer\nAnna: produce Indigo Plant, Indigo Plant")
    fails(kinds, "Anna: draws ? (well)", "sj-not-owed")


# ------------------------------------------------------------------------------------------------ trader
def test_trading_post_sells_one_more() -> None:
    state = fresh(2)
    give(state, "Boris", "Trading Post")
    goods(state, "Boris", indigo=1, sugar=1)
    run(state, "Anna: trader\ntile: 1-1-1-2-2\nAnna: pass\nBoris: sell indigo, sugar; draws ?, ?")
    state = fresh(2)
    goods(state, "Boris", indigo=1, sugar=1)
    run(state, "Anna: trader\ntile: 1-1-1-2-2\nAnna: pass")
    fails(state, "Boris: sell indigo, sugar; draws ?, ?", "sj-sell-limit")


def test_market_stand_draws_after_two_goods_sold() -> None:
    state = fresh(2)
    give(state, "Anna", "Market Stand")
    goods(state, "Anna", indigo=1, sugar=1)
    run(state, "Anna: trader\ntile: 1-1-1-2-2\nAnna: sell indigo, sugar; draws ?, ?\nAnna: draws ? (market stand)")
    state = fresh(2)
    give(state, "Anna", "Market Stand")
    goods(state, "Anna", indigo=1)
    run(state, "Anna: trader\ntile: 1-1-1-2-2\nAnna: sell indigo; draws ?")
    fails(state, "Anna: draws ? (market stand)", "sj-not-owed")


def test_market_hall_draws_one_more_once_per_phase() -> None:
    state = fresh(2)
    give(state, "Anna", "Market Hall")
    goods(state, "Anna", indigo=1, sugar=1)
    run(state, "Anna: trader\ntile: 1-1-1-2-2\nAnna: sell indigo, sugar; draws ?, ?")
    fails(state, "Anna: draws ?, ? (market hall)", "sj-draw-count")
    run(state, "Anna: draws ? (market hall)")
    fails(state, "Anna: draws ? (market hall)", "sj-not-owed")
    state = fresh(2)
    goods(state, "Anna", indigo=1)
    run(state, "Anna: trader\ntile: 1-1-1-2-2\nAnna: sell indigo; draws ?")
    fails(state, "Anna: draws ? (market hall)", "sj-not-owed")
    per_good = fresh(2, replace(FIRST_EDITION, market_hall_per_good=True))
    give(per_good, "Anna", "Market Hall")
    goods(per_good, "Anna", indigo=1, sugar=1)
    run(per_good, "Anna: trader\ntile: 1-1-1-2-2\nAnna: sell indigo, sugar; draws ?, ?\nAnna: draws ?, ? (market hall)")


# ------------------------------------------------------------------------------------------------ councillor
def test_prefecture_keeps_one_more() -> None:
    state = fresh(2)
    give(state, "Boris", "Prefecture")
    run(state, "Anna: councillor\nAnna: draws ?, ?, ?, ?, ?; keeps ?\nBoris: draws ?, ?; keeps ?, ?")
    state = fresh(2)
    run(state, "Anna: councillor\nAnna: draws ?, ?, ?, ?, ?; keeps ?")
    fails(state, "Boris: draws ?, ?; keeps ?, ?", "sj-keep-count")


def test_archive_keeps_everything_then_discards_from_the_whole_hand() -> None:
    state = fresh(2)
    give(state, "Anna", "Archive")
    hold(state, "Anna", "Hero")
    run(state, "Anna: councillor\nAnna: draws Well, ?, ?, ?, ?; keeps Well, ?, ?, ?, ?")
    fails(state, "Boris: draws ?, ?; keeps ?", "sj-archive-discard")
    fails(state, "Anna: discards Hero, ?, ?, ?, ?", "sj-archive-discard")  # exactly 5 - 1 = 4
    run(state, "Anna: discards Hero, ?, ?, ?")
    assert hand(state, "Anna") == 4 + 1 + 1 and state.discard_known == Counter(Hero=1)
    state = fresh(2)
    run(state, "Anna: councillor")
    fails(state, "Anna: draws ?, ?, ?, ?, ?; keeps ?, ?, ?, ?, ?", "sj-keep-count")
    give(state, "Anna", "Archive")
    error = fails(state, "Anna: draws ?, ?, ?, ?, ?; keeps ?, ?, ?", "sj-keep-count")
    assert (
        error.message == "Anna keeps 1 — or, with the Archive, all 5 (then discards the excess) — of the 5 drawn "
        "card(s), not 3"
    )


# ------------------------------------------------------------------------------------------------ prospector
def test_gold_mine_turns_up_four_whoever_chose_the_prospector() -> None:
    state = fresh(2)
    give(state, "Boris", "Gold Mine")
    run(state, "Anna: prospector\nAnna: draws ? (prospector)")
    fails(state, "Anna: builder", "sj-phase-not-over")
    fails(state, "Boris: gold mine Smithy, Well, Hero; keeps Hero", "sj-draw-count")
    fails(state, "Boris: gold mine Smithy, Well, Hero, Indigo Plant; keeps Hero", "sj-gold-mine")  # 1, 2, 5, 1
    fails(state, "Boris: gold mine Smithy, Well, Hero, Tower; keeps Palace", "sj-keep-not-drawn")
    run(state, "Boris: gold mine Smithy, Well, Hero, Tower; keeps Hero")
    assert state.p[1].hand_known == Counter(Hero=1) and state.discard_known["Tower"] == 1
    state = fresh(2)
    run(state, "Anna: prospector\nAnna: draws ? (prospector)")
    fails(state, "Boris: gold mine Smithy, Well, Hero, Tower; keeps Hero", "sj-role-expected")


def test_gold_mine_keep_may_be_mandatory() -> None:
    state = fresh(2, replace(FIRST_EDITION, gold_mine_keep_optional=False))
    give(state, "Anna", "Gold Mine")
    run(state, "Anna: prospector\nAnna: pass")
    fails(state, "Anna: gold mine Smithy, Well, Hero, Tower; keeps none", "sj-gold-mine")


# ------------------------------------------------------------------------------------------------ round start
def test_tower_raises_the_hand_limit_to_twelve() -> None:
    state = fresh(2)
    give(state, "Anna", "Tower")
    hold(state, "Anna", *["Well"] * 3, *["Smithy"] * 3, "Hero")  # 11 cards
    run(state, "Anna: builder")
    state = fresh(2)
    hold(state, "Anna", *["Well"] * 3, *["Smithy"] * 3, "Hero")
    fails(state, "Anna: builder", "sj-hand-limit")


def test_chapel_is_needed_to_tuck() -> None:
    state = fresh(2)
    fails(state, "Anna: tucks ?", "sj-tuck")
    give(state, "Anna", "Chapel")
    run(state, "Anna: tucks ?")
    assert state.p[0].tucked == 1


# ------------------------------------------------------------------------------------------------ Library
def test_library_doubles_every_privilege() -> None:
    def with_library():
        state = fresh(2)
        give(state, "Anna", "Library", "Sugar Mill", "Coffee Roaster")
        return state

    state = with_library()
    run(state, "Anna: producer\nAnna: produce Indigo Plant, Sugar Mill, Coffee Roaster")
    state = with_library()
    goods(state, "Anna", indigo=1, sugar=1, coffee=1)
    run(state, "Anna: trader\ntile: 1-1-1-2-2\nAnna: sell indigo, sugar, coffee; draws ?, ?, ?, ?")
    state = with_library()
    run(state, "Anna: councillor\nAnna: draws ?, ?, ?, ?, ?, ?, ?, ?; keeps ?")
    state = with_library()
    run(state, "Anna: prospector\nAnna: draws ?, ? (prospector)")
    state = with_library()
    hold(state, "Anna", "Hero")
    run(state, "Anna: builder\nAnna: build Hero paying ?, ?, ?")
    state = fresh(2)
    give(state, "Anna", "Sugar Mill", "Coffee Roaster")
    run(state, "Anna: producer")
    fails(state, "Anna: produce Indigo Plant, Sugar Mill, Coffee Roaster", "sj-produce-limit")


def test_library_doubles_only_its_owners_own_privilege() -> None:
    state = fresh(2)
    give(state, "Boris", "Library", "Sugar Mill")
    run(state, "Anna: producer\nAnna: produce Indigo Plant")
    fails(state, "Boris: produce Indigo Plant, Sugar Mill", "sj-produce-limit")


def test_two_player_governor_uses_the_library_once_per_round() -> None:
    state = fresh(2)
    give(state, "Anna", "Library")
    run(state, "Anna: prospector\nAnna: draws ?, ? (prospector)\nBoris: builder\nBoris: pass\nAnna: pass")
    run(state, "Anna: councillor")
    fails(state, "Anna: draws ?, ?, ?, ?, ?, ?, ?, ?; keeps ?", "sj-library-used")
    run(state, "Anna: draws ?, ?, ?, ?, ?; keeps ?\nBoris: draws ?, ?; keeps ?")
    # a new round resets it; Boris (now governor) has none, Anna is not the governor: unrestricted
    run(
        state,
        "Boris: prospector\nBoris: pass\nAnna: councillor\nAnna: draws ?, ?, ?, ?, ?, ?, ?, ?; keeps ?\n"
        "Boris: draws ?, ?; keeps ?",
    )


def test_two_player_governor_may_save_the_library_for_a_later_phase() -> None:
    state = fresh(2)
    give(state, "Anna", "Library")
    hold(state, "Anna", "Tower")
    run(state, "Anna: builder\nAnna: build Tower paying ?, ?\nBoris: pass")  # -1 only: saved
    run(state, "Boris: trader\ntile: 1-1-1-2-2\nBoris: pass\nAnna: pass")
    run(state, "Anna: prospector\nAnna: draws ?, ? (prospector)")
    three = fresh(3)
    give(three, "Anna", "Library")
    hold(three, "Anna", "Tower")
    run(three, "Anna: builder")
    fails(three, "Anna: build Tower paying ?, ?", "sj-payment")  # 3+ players: always doubled


def test_legal_alternatives_offer_what_the_library_allows() -> None:
    """The 2-player governor may build at the Library's cost or save it: both are listed, and a building only the
    Library makes affordable is not left out; a Library owner's prospector draw of 2 is listed with the draw of 1."""
    state = fresh(2)
    give(state, "Anna", "Library")
    hold(state, "Anna", "Hero", "Statue", "Tower")  # 4 unknown + 3: Hero costs 4 (3 with the Library)
    run(state, "Anna: builder")
    alternatives = state.legal_statements()
    assert "Anna: build Hero paying ?, ?, ?, ?" in alternatives  # Library saved
    assert "Anna: build Hero paying ?, ?, ?" in alternatives  # Library used
    state = fresh(2)
    give(state, "Anna", "Library")
    hold(state, "Anna", "Hero")
    state.p[0].hand_unknown -= 1  # Hero and 3 cards: only the Library's cost (3) can be paid
    state.supply += 1
    run(state, "Anna: builder")
    assert "Anna: build Hero paying ?, ?, ?" in state.legal_statements()
    run(state, "Anna: build Hero paying ?, ?, ?")
    for players in (2, 3):
        state = fresh(players)
        give(state, "Anna", "Library")
        run(state, "Anna: prospector")
        assert {"Anna: draws ? (prospector)", "Anna: draws ?, ? (prospector)"} <= set(state.legal_statements())
    state = fresh(2)
    give(state, "Anna", "Library")
    run(state, "Anna: councillor\nAnna: draws ?, ?, ?, ?, ?, ?, ?, ?; keeps ?\nBoris: draws ?, ?; keeps ?")
    run(state, "Boris: builder\nBoris: pass\nAnna: pass\nAnna: prospector")  # the Library is used up
    assert "Anna: draws ?, ? (prospector)" not in state.legal_statements()


# ------------------------------------------------------------------------------------------------ end scoring
def test_monuments_and_end_buildings_score() -> None:
    state = fresh(2)
    give(state, "Anna", "Statue", "Victory Column", "Hero")
    assert state.score(0)["buildings"] == 1 + 3 + 4 + 5
    give(state, "Anna", "Triumphal Arch")
    assert state.score(0)["triumphal arch"] == 8
    give(state, "Boris", "Guild Hall", "Sugar Mill", "City Hall")
    parts = state.score(1)
    assert parts["guild hall"] == 4 and parts["city hall"] == 2
    give(state, "Boris", "Palace")
    assert state.score(1)["palace"] == (1 + 1 + 4 + 3) // 4


def test_a_gold_mine_owner_may_decline_with_pass() -> None:
    """Documented in docs/san-juan.md: the owner's line is 'pass' when he declines the Gold Mine."""
    state = fresh(2)
    give(state, "Boris", "Gold Mine")
    run(state, "Anna: prospector\nAnna: draws ? (prospector)")
    before = hand(state, "Boris")
    run(state, "Boris: pass")
    assert hand(state, "Boris") == before and state.role is None
    fails(state, "Boris: gold mine Smithy, Well, Hero, Tower; keeps Hero", "sj-role-expected")
