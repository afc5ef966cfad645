"""San Juan rules: role order, phases, payment, goods, trading tiles, councillor, prospector, the supply and card
conservation, hidden hands, the round start, the end, scoring and the statement order (rules reference
/work/shared/rules/san-juan.md). Building abilities are in test_san_juan_buildings.py, the corpus and the generator
in test_san_juan_corpus.py; both import the helpers below.

Two ways to set up a position:
- ``judge(body)``: a small record through ``check_text``; the offending line is marked ``#!``;
- ``fresh()`` / ``give`` / ``hold`` / ``run``: an ``SJState`` driven (or mutated) directly.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from referee.errors import RefereeError, Verdict
from referee.replay import GameReport, check_text
from referee.san_juan.cards import CARDS, TILES, TOTAL_CARDS
from referee.san_juan.notation import Actor, Discard, statement_text
from referee.san_juan.options import FIRST_EDITION, SJOptions
from referee.san_juan.parser import make_parser
from referee.san_juan.play import random_game
from referee.san_juan.state import CHOOSING, OVER, SJState

PARSER = make_parser()
NAMES = ("Anna", "Boris", "Clara", "Dmitri")
OPEN = {n: "governor: Anna\n" + "".join(f"hand {name}: ?, ?, ?, ?\n" for name in NAMES[:n]) for n in (2, 3, 4)}


# ------------------------------------------------------------------------------------------------ helpers
def judge(body: str, players: int = 2, tags: str = "") -> GameReport:
    text = f'[Game "San Juan"]\n[Players "{", ".join(NAMES[:players])}"]\n{tags}\n' + body
    (report,) = check_text(text)
    return report


def marked_line(body: str, players: int = 2, tags: str = "") -> int:
    head = 3 + tags.count("\n")
    return head + next(i for i, line in enumerate(body.splitlines(), 1) if "#!" in line)


def ok(body: str, players: int = 2) -> GameReport:
    report = judge(body, players)
    assert report.verdict in (Verdict.VALID, Verdict.UNFINISHED), report.error and (
        report.error.line,
        report.error.code,
        report.error.message,
    )
    return report


def rejects(body: str, code: str, players: int = 2, tags: str = "") -> RefereeError:
    report = judge(body, players, tags)
    assert report.error is not None, "expected an error"
    assert (report.error.code, report.error.line) == (code, marked_line(body, players, tags)), (
        report.error.code,
        report.error.line,
        report.error.message,
    )
    return report.error


def fresh(players: int = 2, options: SJOptions = FIRST_EDITION) -> SJState:
    """Setup done (Anna governor, four unknown cards each), round 1, no role chosen."""
    state = SJState(list(NAMES[:players]), options)
    run(state, OPEN[players])
    state.stage = CHOOSING
    return state


def run(state: SJState, body: str) -> None:
    for line in body.splitlines():
        if line.strip() and not line.strip().startswith("#"):
            state.apply(PARSER.parse(line))


def fails(state: SJState, line: str, code: str) -> RefereeError:
    """The statement is rejected with ``code`` and the state is left exactly as it was."""
    before = state.fingerprint()
    with pytest.raises(RefereeError) as caught:
        state.apply(PARSER.parse(line))
    assert caught.value.code == code, (caught.value.code, caught.value.message)
    assert state.fingerprint() == before
    return caught.value


def give(state: SJState, player: str, *buildings: str) -> None:
    """Put buildings into a city (taken from the supply), working from now on."""
    p = state.p[state.seats[player]]
    for name in buildings:
        p.city.append(name)
        p.owned[name] += 1
        state.located[name] += 1
        state.supply -= 1


def hold(state: SJState, player: str, *cards: str) -> None:
    """Put named cards into a hand (taken from the supply)."""
    p = state.p[state.seats[player]]
    for name in cards:
        p.hand_known[name] += 1
        state.located[name] += 1
        state.supply -= 1


def goods(state: SJState, player: str, **kinds: int) -> None:
    p = state.p[state.seats[player]]
    for good, k in kinds.items():
        p.goods[good] += k
        state.supply -= k


def hand(state: SJState, player: str) -> int:
    return state.p[state.seats[player]].hand_size


# ------------------------------------------------------------------------------------------------ notation
@pytest.mark.parametrize(
    "line",
    [
        "governor: Anna",
        "hand Anna: Smithy, Well, ?, Tower",
        "round 2",
        "tile: 1-1-2-2-3",
        "final: Anna 31, Boris 27",
        "Anna: builder",
        "Anna: build Smithy over Crane paying Well, ? goods Indigo Plant, Sugar Mill",
        "Anna: produce Indigo Plant, Sugar Mill",
        "Anna: sell indigo, coffee; draws Hero, Well, ?",
        "Anna: draws Archive, Hero, Well, Crane, Quarry; keeps Hero",
        "Anna: draws Tower (prospector)",
        "Anna: draws ? (poor house)",
        "Anna: gold mine Smithy, Well, Hero, Palace; keeps none",
        "Anna: tucks Statue",
        "Anna: discards Well, Smithy",
        "Anna: pass",
        '"Anna K.": councillor',
    ],
)
def test_lines_parse_and_write_back(line: str) -> None:
    assert statement_text(PARSER.parse(line)) == line


def test_keywords_are_case_insensitive_with_aliases() -> None:
    assert statement_text(PARSER.parse("Anna: BUILDS smithy PAYS well")) == "Anna: build Smithy paying Well"
    assert statement_text(PARSER.parse("Anna: Councilor")) == "Anna: councillor"
    assert statement_text(PARSER.parse("Anna: draw ?; keep none")) == "Anna: draws ?; keeps none"
    assert statement_text(PARSER.parse("Anna: build Goldmine")) == "Anna: build Gold Mine"
    # a keyword does not swallow a player's name
    assert statement_text(PARSER.parse("Builder: pass")) == "Builder: pass"


def test_every_part_carries_its_column() -> None:
    """Statements carry the column of each part (keyword, cards), whichever optional parts are written, and read
    piece by piece (the cached actor reading) the same as whole."""
    line = "Anna:  build Smithy over Crane paying Well, ? goods Sugar Mill"
    build = PARSER.parse(line).action
    assert (build.column, build.card.column, build.over_column, build.over.column) == (8, 14, 21, 26)
    assert (build.paying_column, [r.column for r in build.paying], build.goods_column) == (32, [39, 45], 47)
    assert build.goods[0].column == 53
    only_goods = PARSER.parse("Anna: build Smithy goods Sugar Mill").action
    assert (only_goods.over, only_goods.over_column, only_goods.paying_column, only_goods.goods_column) == (
        None,
        0,
        0,
        20,
    )
    assert PARSER.parse_whole(line) == PARSER.parse(line)
    sell = PARSER.parse("Anna: sell indigo, coffee; draws ?").action
    assert ([g.column for g in sell.goods], sell.draws_column, sell.draws[0].column) == ([12, 20], 28, 34)
    assert PARSER.parse("Anna: sell indigo").action.draws_column == 0
    council = PARSER.parse("Anna: draws ?, Well; keeps none").action
    assert (council.column, council.keeps, council.keeps_column) == (7, (), 22)
    owed = PARSER.parse("Anna: draws ? (poor   house)").action
    assert (owed.source, owed.source_column) == ("poor house", 16)
    mine = PARSER.parse("Anna: gold mine ?, ?, ?, ?; keeps ?").action
    assert (mine.column, mine.keeps_column, mine.keeps[0].column) == (7, 29, 35)
    tile = PARSER.parse("tile:  1-1-2-2-3")
    assert (tile.keyword_column, tile.column) == (1, 8)


def test_unknown_card_suggests_a_name() -> None:
    with pytest.raises(RefereeError) as caught:
        PARSER.parse("Anna: build Guildhal")
    assert caught.value.code == "unknown-card" and "Guild Hall" in caught.value.message


def test_card_data() -> None:
    assert TOTAL_CARDS == 110 and len(CARDS) == 29
    assert sum(c.copies for c in CARDS.values() if c.production) == 42
    assert (CARDS["Silver Smelter"].cost, CARDS["Hero"].vp, CARDS["Palace"].copies) == (5, 5, 2)


# ------------------------------------------------------------------------------------------------ setup
def test_setup_needs_governor_and_every_hand() -> None:
    rejects("governor: Anna\nhand Anna: ?, ?, ?, ?\nAnna: builder #!\n", "sj-setup-incomplete")
    rejects("hand Anna: ?, ?, ?, ?\nhand Boris: ?, ?, ?, ?\nAnna: builder #!\n", "sj-setup-incomplete")
    rejects("governor: Anna\nhand Anna: ?, ?, ?, ?, ? #!\n", "sj-hand-size")


def test_the_summary_says_setup_until_every_setup_line_is_written_then_who_chooses() -> None:
    state = SJState(["Anna", "Boris"], FIRST_EDITION)
    run(state, OPEN[2])  # governor and both hands: round 1 may still open with tucks and discards, then a role
    assert state.summary().splitlines()[0] == "round 1, governor Anna, roles chosen: -; Anna chooses a role"
    partial = SJState(["Anna", "Boris"], FIRST_EDITION)
    run(partial, "governor: Anna\nhand Anna: ?, ?, ?, ?\n")
    assert partial.summary().splitlines()[0] == "setup"


def test_a_repeated_setup_governor_line_is_a_checkpoint() -> None:
    """Spec section 3: a repeated setup line is a checkpoint naming the current governor (round 1 included)."""
    assert judge("governor: Anna\ngovernor: Anna\n" + OPEN[2][len("governor: Anna\n") :]).error is None
    assert judge(OPEN[2] + "governor: Anna\nround 1\ngovernor: Anna\nAnna: builder\n").error is None
    rejects(OPEN[2] + "governor: Boris #!\n", "sj-governor-mismatch")
    rejects("governor: Anna\ngovernor: Boris #!\n", "sj-governor-mismatch")


def test_every_player_starts_with_an_indigo_plant() -> None:
    state = fresh(3)
    assert all(p.city == ["Indigo Plant"] for p in state.p)
    assert state.supply == 110 - 3 - 12 and state.card_count() == 110


# ------------------------------------------------------------------------------------------------ roles
def test_two_players_choose_governor_other_governor_then_governor_passes_left() -> None:
    state = fresh(2)
    run(state, "Anna: prospector\nAnna: pass\n")
    fails(state, "Anna: builder", "sj-not-your-turn")
    run(state, "Boris: councillor\nBoris: draws ?, ?, ?, ?, ?; keeps ?\nAnna: draws ?, ?; keeps ?\n")
    fails(state, "Boris: builder", "sj-not-your-turn")
    run(state, "Anna: producer\nAnna: pass\nBoris: pass\n")
    assert (state.round, state.governor) == (2, 1)
    fails(state, "Anna: builder", "sj-not-your-turn")
    run(state, "round 2\ngovernor: Boris\nBoris: builder")


def test_three_and_four_players_choose_one_role_each_clockwise() -> None:
    state = fresh(3)
    run(state, "Anna: prospector\nAnna: pass\nBoris: trader\ntile: 1-1-1-2-2\nBoris: pass\nClara: pass\nAnna: pass\n")
    fails(state, "Anna: builder", "sj-not-your-turn")
    run(state, "Clara: producer\nClara: pass\nAnna: pass\nBoris: pass\n")
    assert (state.round, state.governor) == (2, 1)
    state = fresh(4)
    for chooser in NAMES:
        run(state, f"{chooser}: {['prospector', 'builder', 'producer', 'councillor'][NAMES.index(chooser)]}")
        order = NAMES[NAMES.index(chooser) :] + NAMES[: NAMES.index(chooser)]
        if chooser == "Anna":
            run(state, "Anna: pass")
        elif chooser == "Dmitri":
            run(
                state,
                "\n".join(
                    f"{name}: draws ?, ?; keeps ?" if name != "Dmitri" else f"{name}: draws ?, ?, ?, ?, ?; keeps ?"
                    for name in order
                ),
            )
        else:
            run(state, "\n".join(f"{name}: pass" for name in order))
    assert (state.round, state.governor) == (2, 1)


def test_a_role_once_per_round_and_the_phase_runs_in_action_order() -> None:
    state = fresh(2)
    run(state, "Anna: builder\n")
    fails(state, "Boris: pass", "sj-not-your-turn")
    run(state, "Anna: pass\n")
    fails(state, "Boris: producer", "sj-phase-not-over")
    run(state, "Boris: pass\n")
    fails(state, "Boris: builder", "sj-role-taken")
    fails(state, "Boris: produce Indigo Plant", "sj-role-expected")
    run(state, "Boris: producer\n")
    fails(state, "Boris: build Smithy", "sj-wrong-action")


def test_an_unknown_hand_offers_every_building_its_copies_allow_and_each_offered_build_is_accepted() -> None:
    """A hand the record never named (a scorekeeper's usual view) may hold any building with a copy to spare: the
    legal list (explain, the live table's completion) offers each build it can pay for, and only those."""
    state = fresh(2)
    give(state, "Boris", "Smithy", "Smithy", "Smithy")  # every Smithy is in Boris's city: none can be in a hand
    run(state, "Anna: builder")
    builds = [text for text in state.legal_statements() if text.startswith("Anna: build ")]
    assert "Anna: build Well paying ?" in builds and "Anna: build Coffee Roaster paying ?, ?, ?" in builds
    assert not any(text.startswith("Anna: build Smithy") for text in builds)  # no copy left
    built = {text.removeprefix("Anna: build ").split(" paying")[0] for text in builds}
    assert built == {name for name, card in CARDS.items() if card.cost - 1 <= 3} - {"Smithy"}  # 3 cards to pay with
    assert "Palace" not in built and len(built) == len(builds)
    for text in builds:
        copy.deepcopy(state).apply(PARSER.parse(text))  # accepted
    fails(state, "Anna: build Smithy", "sj-not-in-hand")


def test_a_round_checkpoint_in_the_middle_of_a_phase_names_the_missing_turn() -> None:
    state = fresh(2)
    run(state, "Anna: builder\nAnna: pass\n")
    error = fails(state, "round 2", "sj-misplaced-round")
    assert "the builder phase is not over: Boris's turn" in error.message


# ------------------------------------------------------------------------------------------------ builder
def test_builder_privilege_and_exact_payment() -> None:
    state = fresh(2)
    hold(state, "Anna", "Tower")
    hold(state, "Boris", "Tower")
    run(state, "Anna: builder")
    fails(state, "Anna: build Tower paying ?", "sj-payment")  # 3 - 1 = 2
    fails(state, "Anna: build Tower paying ?, ?, ?", "sj-payment")  # never more than the cost
    run(state, "Anna: build Tower paying ?, ?")
    fails(state, "Boris: build Tower paying ?, ?", "sj-payment")  # no privilege: 3
    run(state, "Boris: build Tower paying ?, ?, ?")
    assert hand(state, "Anna") == 2 and hand(state, "Boris") == 1
    assert state.discard_size == 5


def test_cost_never_below_zero() -> None:
    state = fresh(2)
    give(state, "Anna", "Smithy")
    hold(state, "Anna", "Indigo Plant")
    run(state, "Anna: builder")
    fails(state, "Anna: build Indigo Plant paying ?", "sj-payment")
    run(state, "Anna: build Indigo Plant")


def test_one_building_per_builder_phase() -> None:
    state = fresh(2)
    hold(state, "Anna", "Indigo Plant", "Indigo Plant")
    run(state, "Anna: builder\nAnna: build Indigo Plant\n")
    fails(state, "Anna: build Indigo Plant", "sj-one-building")


def test_violet_once_per_city_production_any_number() -> None:
    state = fresh(2)
    give(state, "Anna", "Well")
    hold(state, "Anna", "Well", "Indigo Plant")
    run(state, "Anna: builder")
    fails(state, "Anna: build Well paying ?", "sj-duplicate-violet")
    run(state, "Anna: build Indigo Plant")
    assert state.p[0].owned["Indigo Plant"] == 2


def test_build_from_the_unknown_part_of_a_hand() -> None:
    state = fresh(2)
    hold(state, "Boris", "Palace", "Palace")
    run(state, "Anna: builder")
    fails(state, "Anna: build Palace paying ?, ?, ?", "sj-not-in-hand")  # both Palaces are in Boris's hand
    run(state, "Anna: build Tower paying ?, ?")
    assert state.p[0].hand_unknown == 1 and state.located["Tower"] == 1


# ------------------------------------------------------------------------------------------------ producer
def test_producer_one_good_per_building_and_limits() -> None:
    state = fresh(2)
    give(state, "Anna", "Sugar Mill")
    give(state, "Boris", "Sugar Mill")
    run(state, "Anna: producer")
    fails(state, "Anna: produce Indigo Plant, Indigo Plant", "sj-no-empty-building")
    fails(state, "Anna: produce Well", "sj-not-production")
    run(state, "Anna: produce Indigo Plant, Sugar Mill")  # privilege: 2 goods
    fails(state, "Boris: produce Indigo Plant, Sugar Mill", "sj-produce-limit")
    run(state, "Boris: produce Sugar Mill")
    assert state.p[0].goods == Counter(indigo=1, sugar=1) and state.p[1].goods_total == 1
    assert state.card_count() == TOTAL_CARDS


# ------------------------------------------------------------------------------------------------ trader
def test_trader_needs_the_tile_and_draws_its_prices() -> None:
    state = fresh(2)
    goods(state, "Anna", indigo=1, silver=1)
    goods(state, "Boris", silver=1, indigo=1)
    run(state, "Anna: trader")
    fails(state, "Anna: sell silver; draws ?, ?, ?", "sj-tile-missing")
    fails(state, "tile: 1-1-1-1-1", "sj-bad-tile")
    run(state, "tile: 1-2-2-3-3")
    fails(state, "Anna: sell indigo, silver; draws ?, ?, ?", "sj-draw-count")  # 1 + 3
    error = fails(state, "Anna: sell coffee; draws ?, ?, ?", "sj-no-good")
    assert error.column == len("Anna: sell ") + 1  # at the good, not the space before it
    error = fails(state, "Anna:   sell  indigo, coffee; draws ?, ?, ?", "sj-no-good")
    assert error.column == len("Anna:   sell  indigo, ") + 1
    run(state, "Anna: sell indigo, silver; draws ?, ?, ?, ?")
    fails(state, "Boris: sell silver, indigo; draws ?, ?, ?, ?", "sj-sell-limit")
    run(state, "Boris: sell silver; draws ?, ?, ?")
    assert hand(state, "Anna") == 8 and state.p[1].goods == Counter(indigo=1)
    fails(state, "tile: 1-2-2-3-3", "sj-misplaced-tile")


def test_tiles_cycle_with_period_five() -> None:
    state = fresh(2)
    order = ["1-2-2-3-3", "1-1-1-2-2", "1-2-2-2-3", "1-1-2-2-3", "1-1-2-2-2"]
    state.roles_chosen = []
    for k, tile in enumerate(order + order[:2]):
        state.stage, state.role = "tile due", "trader"
        if k == 1:
            fails(state, f"tile: {order[0]}", "sj-tile-cycle")  # a repeat before all five were seen
        if k >= 5:
            fails(state, f"tile: {order[(k + 1) % 5]}", "sj-tile-cycle")  # the 6th must equal the 1st, ...
        run(state, f"tile: {tile}")
    assert set(state.tiles_seen) == set(TILES)


# ------------------------------------------------------------------------------------------------ councillor
def test_councillor_draws_and_keeps() -> None:
    state = fresh(2)
    run(state, "Anna: councillor")
    fails(state, "Anna: draws ?, ?, ?; keeps ?", "sj-draw-count")
    fails(state, "Anna: draws Hero, ?, ?, ?, ?; keeps ?, ?", "sj-keep-count")
    fails(state, "Anna: draws Hero, Well, Tower, Smithy, Statue; keeps Palace", "sj-keep-not-drawn")
    run(state, "Anna: draws Hero, Well, ?, ?, ?; keeps Hero")
    fails(state, "Boris: draws ?, ?, ?, ?, ?; keeps ?", "sj-draw-count")
    run(state, "Boris: draws ?, ?; keeps ?")
    assert hand(state, "Anna") == 5 and state.p[0].hand_known == Counter(Hero=1)
    assert state.discard_known == Counter(Well=1) and state.discard_size == 5


def test_councillor_chooser_may_decline_his_privilege() -> None:
    state = fresh(2)
    run(state, "Anna: councillor\nAnna: draws ?, ?; keeps ?\n")


# ------------------------------------------------------------------------------------------------ prospector
def test_prospector_only_the_chooser_draws_one() -> None:
    state = fresh(2)
    run(state, "Anna: prospector")
    fails(state, "Boris: draws ? (prospector)", "sj-not-owed")
    fails(state, "Anna: draws ?, ? (prospector)", "sj-draw-count")
    run(state, "Anna: draws ? (prospector)")
    assert hand(state, "Anna") == 5 and state.role is None


# ------------------------------------------------------------------------------------------------ supply
def test_supply_reshuffles_the_discard_pile_and_known_names_come_back() -> None:
    state = fresh(2)
    hold(state, "Anna", "Hero", "Hero")
    state.discard_known = Counter(Hero=1)
    state.located["Hero"] += 1
    state.supply, moved = 1, state.supply - 1
    state.discard_unknown = moved - 1  # keep 110 cards in play
    assert state.card_count() == TOTAL_CARDS
    run(state, "Anna: prospector")
    fails(state, "Anna: draws Hero (prospector)", "sj-card-exhausted")  # the third Hero is in the discard pile
    state.supply = 0
    state.discard_unknown += 1
    run(state, "Anna: draws Hero (prospector)")  # reshuffled first: now it can come up
    assert state.discard_size == 0 and state.located["Hero"] == 3 and state.card_count() == TOTAL_CARDS


def test_cards_kept_or_discarded_unseen_are_still_out_of_the_supply() -> None:
    # a councillor keeps '?' of three Heroes: one is in her hand, two in the discard pile — no fourth can be drawn
    state = fresh(2)
    run(state, "Anna: councillor\nAnna: draws Hero, Hero, Hero, Tower, Chapel; keeps ?")
    error = fails(state, "Boris: draws Hero, Crane; keeps Hero", "sj-card-exhausted")
    # two are certainly in the discard pile (only one card was kept), the third is in her hand or there
    assert "Anna's hand or the cards that left it unnamed 1, discard pile 2" in error.message
    run(state, "Boris: draws Tower, Crane; keeps Crane")  # one Tower out of its three copies: more remain
    # once the discard pile is reshuffled into the supply, the unseen ones may come up again
    state2 = fresh(2)
    run(state2, "Anna: councillor\nAnna: draws Hero, Hero, Hero, Tower, Chapel; keeps ?")
    state2.discard_unknown += state2.supply - 1  # all but one card of the supply parked in the discard pile
    state2.supply = 1
    run(state2, "Boris: draws ?, Hero; keeps Hero")  # the second card comes from the reshuffled pile


def test_known_cards_paid_as_question_marks_stay_out_of_the_supply() -> None:
    # Anna holds two Heroes (the third is in Boris's city) and pays an unnamed card: both are in her hand or the
    # discard pile, so no Hero is left in the supply
    state = fresh(2)
    hold(state, "Anna", "Hero", "Hero", "Well")
    give(state, "Boris", "Hero")
    run(state, "Anna: builder\nAnna: build Well paying ?\nBoris: pass\nBoris: councillor")
    fails(state, "Boris: draws Hero, Crane; keeps Crane", "sj-card-exhausted")
    run(state, "Boris: draws Tower, Crane; keeps Crane")


def test_discards_happen_before_draws_within_a_sale() -> None:
    state = fresh(2)
    goods(state, "Anna", silver=1)
    state.discard_unknown, state.supply = state.supply, 0
    run(state, "Anna: trader\ntile: 1-2-2-3-3\nAnna: sell silver; draws ?, ?, ?")
    assert state.card_count() == TOTAL_CARDS


def park(state: SJState, keep: int) -> None:
    """Leave only ``keep`` cards in the supply and none in the discard pile (the rest tucked out of play)."""
    state.p[1].tucked += state.supply - keep
    state.supply = keep


def test_a_draw_that_cannot_be_made_is_skipped() -> None:
    state = fresh(2)
    park(state, 1)
    run(state, "Anna: councillor")
    fails(state, "Anna: draws ?, ?; keeps ?", "sj-draw-count")
    run(state, "Anna: draws ?; keeps ?")
    assert state.available() == 0 and state.card_count() == TOTAL_CARDS
    strict = fresh(2, replace(FIRST_EDITION, empty_supply_skips_draw=False))
    goods(strict, "Anna", silver=1)
    park(strict, 0)
    run(strict, "Anna: trader\ntile: 1-2-2-3-3")
    fails(strict, "Anna: sell silver; draws ?", "sj-supply-empty")  # needs 3, only the sold good remains


def test_a_question_mark_leaving_a_fully_known_hand_forgets_it() -> None:
    state = fresh(2)
    p = state.p[0]
    p.hand_unknown, p.born = 0, Counter()
    state.supply += 4
    hold(state, "Anna", "Well", "Tower", "Hero", "Hero")
    run(state, "Anna: builder\nAnna: build Tower paying ?, ?")
    # two of Well, Hero, Hero were paid: at least one Hero, so a Hero is certainly in the discard pile; the card
    # kept is one of Well, Hero — no longer certain, but not anything either
    assert p.hand_known == Counter() and p.hand_unknown == 0
    assert p.hand_forgotten == 1 and p.pool is not None and p.pool.names() == {"Well", "Hero"}
    assert state.discard_known == Counter(Hero=1) and state.located == Counter(
        {"Indigo Plant": 2, "Tower": 1, "Hero": 1}
    )
    assert state._out_of_supply("Hero", False) == 2 and state._out_of_supply("Well", False) == 1
    assert state.card_count() == TOTAL_CARDS


# ------------------------------------------------------------------------------------------------ round start
def test_hand_limit_at_the_start_of_a_round() -> None:
    state = fresh(2)
    run(
        state,
        "Anna: councillor\nAnna: draws ?, ?, ?, ?, ?; keeps ?\nBoris: draws ?, ?; keeps ?\n"
        "Boris: prospector\nBoris: draws ? (prospector)\nAnna: producer\nAnna: pass\nBoris: pass\n",
    )
    hold(state, "Anna", "Well", "Hero", "Smithy")  # Anna 8, Boris 6
    fails(state, "Boris: builder", "sj-hand-limit")
    fails(state, "Boris: discards ?", "sj-hand-limit")  # Boris is not over the limit
    fails(state, "Anna: discards Well, Hero", "sj-hand-limit")  # exactly down to 7
    run(state, "Anna: discards Well\nBoris: builder")
    fails(state, "Anna: discards Hero", "sj-misplaced-discard")


def test_chapel_tucks_once_before_the_owners_discard_and_scores() -> None:
    state = fresh(2)
    give(state, "Anna", "Chapel")
    hold(state, "Anna", "Hero", "Well", "Smithy", "Tower")  # 8 cards
    state.supply -= 0
    run(state, "Anna: tucks Hero")
    fails(state, "Anna: tucks Well", "sj-tuck")
    fails(state, "Boris: tucks ?", "sj-tuck")
    run(state, "Anna: builder\nAnna: pass\nBoris: pass")
    fails(state, "Anna: tucks Well", "sj-tuck")  # only at the start of a round
    assert state.p[0].tucked == 1 and state.score(0)["chapel"] == 1
    state = fresh(2)
    give(state, "Anna", "Chapel")
    hold(state, "Anna", "Hero", "Well", "Smithy", "Tower")
    run(state, "Anna: discards Hero")
    fails(state, "Anna: tucks Well", "sj-tuck")  # tuck before his own discard


# ------------------------------------------------------------------------------------------------ the end
def eleven(state: SJState, player: str) -> None:
    give(
        state,
        player,
        "Indigo Plant",
        "Indigo Plant",
        "Sugar Mill",
        "Sugar Mill",
        "Tobacco Storage",
        "Coffee Roaster",
        "Silver Smelter",
        "Statue",
        "Hero",
        "Well",
    )


def test_the_game_ends_after_the_builder_phase_of_a_twelfth_building() -> None:
    state = fresh(2)
    eleven(state, "Boris")
    hold(state, "Boris", "Smithy")
    run(state, "Anna: builder\nAnna: pass\nBoris: build Smithy paying ?")
    assert state.stage == OVER
    report = state.outcome()
    assert report.scores["Boris"] == 1 + 1 + 1 + 1 + 1 + 2 + 2 + 3 + 3 + 5 + 1 + 1
    state = fresh(2)
    eleven(state, "Anna")
    hold(state, "Anna", "Smithy")
    run(state, "Anna: builder\nAnna: build Smithy")
    assert state.stage != OVER  # Boris still builds in this phase
    fails(state, "final: Anna 22", "final-misplaced")
    run(state, "Boris: pass")
    assert state.is_terminal()
    error = fails(state, "Boris: producer", "after-end")
    assert error.column == 8  # at the action, as before the after-end rule moved to GameState.apply
    assert fails(state, "round 9", "after-end").column == 1
    assert fails(state, "tile: 1-1-1-2-2", "after-end").column == 7
    fails(state, "governor: Zed", "unknown-player")  # a name that is no player reads malformed, after the end too
    fails(state, "Zed: pass", "unknown-player")
    fails(state, "final: Anna 23", "final-mismatch")
    run(state, "final: Anna 22, Boris 1")


def test_owed_draws_of_the_last_builder_phase_follow_the_end() -> None:
    state = fresh(2)
    eleven(state, "Boris")
    give(state, "Boris", "Carpenter")
    hold(state, "Boris", "Archive", "Smithy")
    run(state, "Anna: builder\nAnna: pass\nBoris: build Archive paying Smithy")
    assert state.is_terminal() and not state.settled() and state.owed == {"carpenter": 1}
    fails(state, "Anna: draws ? (carpenter)", "after-end")
    run(state, "Boris: draws ? (carpenter)")
    assert state.settled()
    fails(state, "Boris: draws ? (carpenter)", "after-end")


def test_a_whole_record_with_a_result_claim() -> None:
    body = OPEN[2].replace("hand Anna: ?, ?, ?, ?", "hand Anna: Smithy, ?, ?, ?") + "Anna: builder\n"
    report = judge(body)
    assert report.verdict is Verdict.UNFINISHED


# ------------------------------------------------------------------------------------------------ scoring
def test_end_bonuses_and_palace_last() -> None:
    state = fresh(2)
    give(state, "Anna", "Guild Hall", "City Hall", "Triumphal Arch", "Palace", "Statue", "Hero", "Sugar Mill")
    state.p[0].tucked = 3
    parts = state.score(0)
    assert parts["buildings"] == 1 + 3 + 5 + 1 and parts["chapel"] == 3
    assert parts["guild hall"] == 2 * 2 and parts["city hall"] == 6 and parts["triumphal arch"] == 6
    assert parts["palace"] == (10 + 3 + 4 + 6 + 6) // 4 and parts["total"] == 29 + 7
    state4 = fresh(2, replace(FIRST_EDITION, palace_vp=4))
    give(state4, "Anna", "Palace")
    assert state4.score(0)["total"] == 1 + 4 + (5 // 4)


def test_tie_break_on_hand_cards_and_goods_then_shared() -> None:
    state = fresh(2)
    state.stage = OVER
    goods(state, "Boris", indigo=1)
    outcome = state.outcome()
    assert outcome.winners == ["Boris"] and "hand cards + goods" in outcome.tiebreak
    state.p[1].goods = Counter()
    assert state.outcome().winners == ["Anna", "Boris"]


# ------------------------------------------------------------------------------------------------ statement order
def test_owed_draws_follow_at_once_or_are_declined() -> None:
    state = fresh(2)
    give(state, "Anna", "Carpenter")
    hold(state, "Anna", "Well")
    run(state, "Anna: builder\nAnna: build Well paying ?")
    assert state.owed == {"carpenter": 1}
    run(state, "Boris: pass")
    fails(state, "Anna: draws ? (carpenter)", "sj-not-owed")  # declined by the next statement
    mandatory = fresh(2, replace(FIRST_EDITION, effects_optional=False))
    give(mandatory, "Anna", "Carpenter")
    hold(mandatory, "Anna", "Well")
    run(mandatory, "Anna: builder\nAnna: build Well paying ?")
    fails(mandatory, "Boris: pass", "sj-owed-draw-missing")
    run(mandatory, "Anna: draws ? (carpenter)\nBoris: pass")


def test_with_effects_mandatory_the_legal_list_offers_only_the_owed_draw() -> None:
    """The next player's turn is refused while a mandatory draw is owed, so it is not offered either."""
    mandatory = fresh(2, replace(FIRST_EDITION, effects_optional=False))
    give(mandatory, "Anna", "Well", "Sugar Mill")
    run(mandatory, "Anna: producer\nAnna: produce Indigo Plant, Sugar Mill")
    assert mandatory.legal_statements() == ["Anna: draws ? (well)"]


def test_with_effects_mandatory_a_draw_nothing_is_left_for_is_skipped() -> None:
    """Supply and discard pile empty ([D11]): the Well's owed draw cannot be made, so the game goes on without it —
    it was a dead end (the draw refused for its count, every other statement for the draw missing)."""
    mandatory = fresh(2, replace(FIRST_EDITION, effects_optional=False))
    give(mandatory, "Anna", "Well", "Sugar Mill")
    mandatory.supply = 2  # the two goods take the last cards; the discard pile is empty
    run(mandatory, "Anna: producer\nAnna: produce Indigo Plant, Sugar Mill")
    assert mandatory.owed == {"well": 1} and mandatory.available() == 0
    assert mandatory.legal_statements() == ["Boris: pass"]
    run(mandatory, "Boris: pass")


def test_with_effects_mandatory_the_carpenter_draw_comes_before_the_poor_house_draw() -> None:
    """Both owed: writing the Poor House's draw first must not silently drop the Carpenter's (mandatory) draw."""
    mandatory = fresh(2, replace(FIRST_EDITION, effects_optional=False))
    give(mandatory, "Anna", "Carpenter", "Poor House")
    hold(mandatory, "Anna", "Hero")
    run(mandatory, "Anna: builder\nAnna: build Hero paying ?, ?, ?, ?")
    assert mandatory.owed == {"carpenter": 1, "poor house": 1}
    assert "Anna: draws ? (poor house)" not in mandatory.legal_statements()
    error = fails(mandatory, "Anna: draws ? (poor house)", "sj-owed-draw-missing")
    assert "carpenter draw first" in error.message and error.column == 16
    run(mandatory, "Anna: draws ? (carpenter)\nAnna: draws ? (poor house)\nBoris: pass")
    assert mandatory.p[0].hand_size == 2


def test_a_round_checkpoint_stands_before_the_rounds_tucks_and_discards() -> None:
    """Record format §3: 'round N' is at the start of that round, before its tucks, discards and first role."""
    state = fresh(2)
    give(state, "Anna", "Chapel")
    hold(state, "Anna", "Hero", "Well", "Smithy", "Tower", "Statue")  # 9 cards
    run(state, "round 1\nAnna: tucks Hero")
    assert "round 1" not in state.legal_statements()
    fails(state, "round 1", "sj-misplaced-round")
    run(state, "Anna: discards ?")
    fails(state, "round 1", "sj-misplaced-round")
    state = fresh(2)
    hold(state, "Anna", "Hero", "Well", "Smithy", "Tower")
    run(state, "Anna: discards ?")
    fails(state, "round 1", "sj-misplaced-round")
    run(state, "Anna: builder")


def test_right_after_setup_round_one_opens() -> None:
    """After the setup lines (the stage is still setup) the alternatives are round 1's: its checkpoint, its discards
    when a dealt hand is over the limit, the first role choice — and the generator writes those discards."""
    state = SJState(["Anna", "Boris"], FIRST_EDITION)
    run(state, OPEN[2])
    alternatives = state.legal_statements()
    assert "round 1" in alternatives and "Anna: builder" in alternatives
    big = replace(FIRST_EDITION, start_hand=9)
    state = SJState(["Anna", "Boris"], big)
    run(state, "governor: Anna\nhand Anna: ?, ?, ?, ?, ?, ?, ?, ?, ?\nhand Boris: ?, ?, ?, ?, ?, ?, ?, ?, ?")
    alternatives = state.legal_statements()
    assert alternatives == ["round 1", "Anna: discards ?, ?", "Boris: discards ?, ?"]
    run(state, "round 1\nAnna: discards ?, ?\nBoris: discards ?, ?\nAnna: builder")
    final, statements = random_game(["Anna", "Boris", "Clara"], Random(3), big)
    assert final.stage == OVER
    assert sum(isinstance(s, Actor) and isinstance(s.action, Discard) for s in statements[:8]) == 3


# Records under a house rule (a variant file beside the record): the branch's rule fixes judged end to end, each at
# its line and with its code.
def judge_under(tmp_path: Path, options: str, body: str) -> GameReport:
    (tmp_path / "house.toml").write_text(f'game = "san-juan"\n[options]\n{options}\n', encoding="utf-8")
    text = '[Game "San Juan"]\n[Players "Anna, Boris"]\n[Variant "house.toml"]\n\n' + body
    (report,) = check_text(text, base_dir=tmp_path)
    return report


def rejects_under(tmp_path: Path, options: str, body: str, code: str) -> RefereeError:
    report = judge_under(tmp_path, options, body)
    assert report.error is not None, "expected an error"
    assert (report.error.code, report.error.line) == (code, marked_line(body, tags="\n")), (
        report.error.code,
        report.error.line,
        report.error.message,
    )
    return report.error


CARPENTER_AND_POOR_HOUSE_OWED = """governor: Anna
hand Anna: Poor House, Carpenter, ?, ?
hand Boris: ?, ?, ?, ?
Anna: builder
Anna: build Poor House paying ?
Boris: pass
Boris: councillor
Boris: draws ?, ?, ?, ?, ?; keeps ?
Anna: draws ?, ?; keeps ?
Anna: prospector
Anna: draws ? (prospector)
Boris: builder
Boris: pass
Anna: build Carpenter paying ?, ?, ?
Anna: draws Smithy (poor house)
Anna: producer
Anna: produce Indigo Plant
Boris: pass
Boris: prospector
Boris: draws ? (prospector)
Anna: builder
Anna: build Smithy
"""


def test_record_with_effects_mandatory_a_poor_house_draw_before_the_carpenter_draw(tmp_path: Path) -> None:
    """Anna builds a violet building with a working Carpenter and Poor House and an empty hand: both draws are owed,
    the Carpenter's first; under mandatory effects the Poor House's written first is refused at its line."""
    mandatory = "effects_optional = false"
    body = CARPENTER_AND_POOR_HOUSE_OWED + "Anna: draws ? (poor house) #!\n"
    error = rejects_under(tmp_path, mandatory, body, "sj-owed-draw-missing")
    assert error.column == len("Anna: draws ? (") + 1 and "carpenter draw first" in error.message
    assert "Anna: draws ? (carpenter)" in error.alternatives
    assert "Anna: draws ? (poor house)" not in error.alternatives
    done = CARPENTER_AND_POOR_HOUSE_OWED + "Anna: draws ? (carpenter)\nAnna: draws ? (poor house)\nBoris: pass\n"
    assert judge_under(tmp_path, mandatory, done).verdict == Verdict.UNFINISHED
    # effects optional (the default): the Poor House's draw declines the Carpenter's
    assert judge_under(tmp_path, "", body.replace(" #!", "") + "Boris: pass\n").verdict == Verdict.UNFINISHED


@pytest.mark.parametrize(
    "body",
    [
        "Anna: discards ?\nround 1 #!\n",
        "Anna: discards ?\nBoris: discards ?\nround 1 #!\n",
        "round 1\nAnna: discards ?\nBoris: discards ?\nround 1 #!\n",
    ],
)
def test_record_round_checkpoint_after_the_rounds_discards_is_misplaced(tmp_path: Path, body: str) -> None:
    """Record format §3: 'round N' stands at the start of its round, before its tucks and discards (here round 1's
    hand-limit discards right after the setup, under a hand limit of 3)."""
    setup = "governor: Anna\nhand Anna: ?, ?, ?, ?\nhand Boris: ?, ?, ?, ?\n"
    error = rejects_under(tmp_path, "hand_limit = 3", setup + body, "sj-misplaced-round")
    assert error.column == 1 and "round 1" not in error.alternatives


def test_record_round_checkpoint_after_a_chapel_tuck_is_misplaced() -> None:
    body = (
        OPEN[2]
        + "Anna: builder\nAnna: build Chapel paying ?, ?\nBoris: pass\n"
        + "Boris: councillor\nBoris: draws ?, ?, ?, ?, ?; keeps ?\nAnna: draws ?, ?; keeps ?\n"
        + "Anna: prospector\nAnna: draws ? (prospector)\n"
    )
    assert ok(body + "round 2\nAnna: tucks ?\nBoris: builder\n").verdict == Verdict.UNFINISHED
    error = rejects(body + "Anna: tucks ?\nround 2 #!\n", "sj-misplaced-round")
    assert "before the round's Chapel tucks" in error.message and "round 2" not in error.alternatives


def test_record_round_one_opens_right_after_the_setup(tmp_path: Path) -> None:
    """Dealt hands over the limit: round 1's checkpoint and discards are what may follow the setup, and the first
    role choice waits for the discards (the alternatives say so)."""
    setup = "governor: Anna\nhand Anna: ?, ?, ?, ?\nhand Boris: ?, ?, ?, ?\n"
    error = rejects_under(tmp_path, "hand_limit = 3", setup + "Anna: builder #!\n", "sj-hand-limit")
    assert error.alternatives == ["round 1", "Anna: discards ?", "Boris: discards ?"]
    valid = setup + "round 1\nAnna: discards ?\nBoris: discards ?\nAnna: builder\n"
    assert judge_under(tmp_path, "hand_limit = 3", valid).verdict == Verdict.UNFINISHED


def test_illegal_errors_carry_state_and_alternatives() -> None:
    body = OPEN[2] + "Anna: builder\nBoris: pass #!\n"
    error = rejects(body, "sj-not-your-turn")
    assert "Anna to act" in error.state and "Anna: pass" in error.alternatives
    assert error.kind.summary


def test_a_rejected_statement_leaves_the_state_unchanged() -> None:
    state = fresh(2)
    give(state, "Anna", "Crane", "Black Market", "Library")
    goods(state, "Anna", indigo=1)
    hold(state, "Anna", "Hero")
    run(state, "Anna: builder")
    for line in (
        "Anna: build Hero over Well paying ?",
        "Anna: build Hero paying ?, ?, ? goods Indigo Plant, Sugar Mill",
        "Anna: build Hero over Crane paying ?",
        "Boris: pass",
        "Anna: draws ? (poor house)",
        "tile: 1-1-1-2-2",
    ):
        with pytest.raises(RefereeError):
            before = state.fingerprint()
            try:
                state.apply(PARSER.parse(line))
            finally:
                assert state.fingerprint() == before


def test_reductions_may_be_declined_under_the_option() -> None:
    state = fresh(2, replace(FIRST_EDITION, cost_reductions_mandatory=False))
    hold(state, "Anna", "Tower")
    run(state, "Anna: builder\nAnna: build Tower paying ?, ?, ?")
    state = fresh(2)
    hold(state, "Anna", "Tower")
    run(state, "Anna: builder")
    fails(state, "Anna: build Tower paying ?, ?, ?", "sj-payment")


# ------------------------------------------------------------------------------------------------ docs
def test_every_code_and_option_is_documented() -> None:
    from pathlib import Path

    from referee.game import option_docs
    from referee.san_juan.state import SJCode

    doc = (Path(__file__).parent.parent / "docs" / "san-juan.md").read_text(encoding="utf-8")
    assert [k.code for k in SJCode if f"`{k.code}`" not in doc] == []
    for name, default, text in option_docs(SJOptions):
        assert f"| `{name}` | `{default}` |" in doc and text
    assert all(k.code.startswith("sj-") for k in SJCode)


def test_a_named_keep_may_be_a_drawn_question_mark() -> None:
    state = fresh(2)
    run(state, "Anna: councillor\nAnna: draws ?, ?, ?, ?, ?; keeps Hero")
    assert state.p[0].hand_known["Hero"] == 1 and state.located["Hero"] == 1


def test_a_kept_question_mark_is_one_of_the_named_drawn_cards() -> None:
    state = fresh(2)
    run(state, "Anna: councillor\nAnna: draws Hero, Well, Tower, Smithy, Statue; keeps ?")
    p = state.p[0]
    assert p.hand_forgotten == 1 and p.pool is not None
    assert p.pool.names() == {"Hero", "Well", "Tower", "Smithy", "Statue"} and p.pool.away == 4
    assert state.card_count() == TOTAL_CARDS


def test_a_question_mark_payment_from_a_partly_known_hand_may_have_been_a_known_card() -> None:
    # The '?' paid could have been the Smithy, so the unknown card may be the Gold Mine built next round.
    text = """[Game "San Juan"]
[Players "Anna, Boris"]
governor: Anna
hand Anna: Smithy, Well, Sugar Mill, ?
hand Boris: ?, ?, ?, ?
Anna: builder
Anna: build Well paying ?
Boris: pass
Boris: prospector
Boris: pass
Anna: producer
Anna: pass
Boris: pass
round 2
Boris: prospector
Boris: pass
Anna: builder
Anna: build Gold Mine
"""
    (report,) = check_text(text)
    assert report.verdict.value == "unfinished", report.error


def test_a_question_mark_payment_from_a_known_hand_leaves_only_those_cards() -> None:
    # After paying two unknown cards from Smithy, Well, Sugar Mill the last card is one of them: no Gold Mine.
    text = """[Game "San Juan"]
[Players "Anna, Boris"]
governor: Anna
hand Anna: Smithy, Well, Sugar Mill, Tower
hand Boris: ?, ?, ?, ?
Anna: builder
Anna: build Tower paying ?, ?
Boris: pass
Boris: prospector
Boris: pass
Anna: producer
Anna: produce Indigo Plant
Boris: pass
round 2
Boris: producer
Boris: pass
Anna: pass
Anna: builder
Anna: build Gold Mine
"""
    (report,) = check_text(text)
    assert (report.verdict.value, report.error.code, report.error.line) == ("illegal", "sj-not-in-hand", 19)


def test_the_legal_list_offers_the_builds_a_crane_or_the_black_market_pays_for() -> None:
    """A building only the Crane (the covered building's cost off) or the Black Market (goods paying part of the cost)
    makes affordable is a legal build: the legal list offers it, each offer accepted; never over the Crane ([D4])."""
    state = fresh(2)
    give(state, "Anna", "Crane", "Black Market", "Sugar Mill")
    goods(state, "Anna", indigo=1, sugar=1)
    run(state, "Anna: builder")
    builds = [text for text in state.legal_statements() if text.startswith("Anna: build Palace")]
    assert builds == [  # 6 -1 privilege = 5 > 3 cards to pay with, without the Crane or the goods
        "Anna: build Palace paying ?, ?, ? goods Indigo Plant, Sugar Mill",
        "Anna: build Palace over Black Market paying ?, ?, ?",
        "Anna: build Palace over Black Market paying ? goods Indigo Plant, Sugar Mill",
        "Anna: build Palace over Indigo Plant paying ?, ? goods Indigo Plant, Sugar Mill",
        "Anna: build Palace over Sugar Mill paying ?, ?, ?",
        "Anna: build Palace over Sugar Mill paying ? goods Indigo Plant, Sugar Mill",
    ]
    offered = [text for text in state.legal_statements() if text.startswith("Anna: build ")]
    assert not any(" over Crane" in text for text in offered)
    for text in offered:
        copy.deepcopy(state).apply(PARSER.parse(text))  # accepted


def test_a_carpenter_or_poor_house_the_crane_covers_does_not_fire_for_the_building_over_it() -> None:
    """The covered building serves the payment only ([D10]); its after-build draw is not owed (docs: decisions)."""
    state = fresh(2)
    give(state, "Anna", "Crane", "Carpenter", "Poor House")
    hold(state, "Anna", "Library")
    state.p[0].hand_unknown, state.supply = 1, state.supply + 3  # a hand of the Library and one card
    run(state, "Anna: builder\nAnna: build Library over Carpenter paying ?")  # 5 - 3 - 1 = 1: no card left
    assert state.owed == {"poor house": 1}  # the Poor House still stands: 0 cards in hand
    other = fresh(2)
    give(other, "Anna", "Crane", "Carpenter", "Poor House")
    hold(other, "Anna", "Library")
    other.p[0].hand_unknown, other.supply = 2, other.supply + 2  # a hand of the Library and two cards
    run(other, "Anna: builder\nAnna: build Library over Poor House paying ?, ?")  # 5 - 2 - 1 = 2: no card left
    assert other.owed == {"carpenter": 1}


def test_a_kept_unknown_card_may_be_any_building_and_the_legal_list_offers_each() -> None:
    """A councillor who kept '?' among a named card and unknown ones holds '1 of [Hero, ?, ?, ?, ?]': the card may be
    any building, so the builds it allows are offered (only the Hero's were), each accepted."""
    state = SJState(["Anna", "Boris"], FIRST_EDITION)
    run(state, "governor: Anna\nhand Anna: Smithy, Well, Sugar Mill, Tower\nhand Boris: ?, ?, ?, ?")
    run(state, "Anna: councillor\nAnna: draws Hero, ?, ?, ?, ?; keeps ?\nBoris: draws ?, ?; keeps ?")
    run(state, "Boris: builder\nBoris: pass")
    builds = [text for text in state.legal_statements() if text.startswith("Anna: build ")]
    assert "Anna: build Statue paying ?, ?, ?" in builds  # the kept card as a Statue, paid with the named four
    assert "Anna: build Smithy paying ?" in builds  # a named card as before
    for text in builds:
        copy.deepcopy(state).apply(PARSER.parse(text))  # accepted
    run(state, "Anna: build Statue paying Smithy, Well, Sugar Mill")
