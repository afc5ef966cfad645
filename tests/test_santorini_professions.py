"""Santorini: New York: every profession, clause by clause (rules reference section 5, rulings 1 and 5-12), legal
and illegal, on drawn positions (rows north first; A = Anna, B = Boris; the 5 x 5 board, a1 south-west)."""

from __future__ import annotations

from test_santorini_scenarios import accept, col, legal, reject, scenario

from referee.santorini_new_york.state import OVER


def cell(state, square: str) -> int:
    return state.board.cell(square)


def owner(state, square: str) -> int | None:
    return state.pos.workers.get(cell(state, square))


# ---------------------------------------------------------------------------------------------- Engineer
ENGINEER = """
0A 0 0 0 0B
0  0 0 0 0B
0  0 0 0 0
0 0A 0 0 0
0  0 0 0 0
"""


def test_engineer_builds_a_skyscraper_next_to_the_worker_before_it_moves() -> None:
    state = accept(scenario(ENGINEER, "Engineer"), "Anna: skyscraper a1; move b2-c2; build c1")
    assert cell(state, "a1") in state.pos.sky and owner(state, "c2") == 0


def test_engineer_skyscraper_is_required_when_possible() -> None:
    line = "Anna: move b2-c2; build c1"
    assert reject(scenario(ENGINEER, "Engineer"), line) == ("sny-step-order", col(line, "move"))


def test_engineer_skyscraper_goes_next_to_the_moving_worker_on_ground_level() -> None:
    line = "Anna: skyscraper d4; move b2-c2; build c1"
    assert reject(scenario(ENGINEER, "Engineer"), line) == ("sny-not-adjacent", col(line, "d4"))
    line = "Anna: skyscraper a4; move b2-c2; build c1"  # next to the worker on a5, which does not move
    assert reject(scenario(ENGINEER, "Engineer"), line) == ("sny-card-rule", col(line, "b2"))
    raised = ENGINEER.replace("0 0A 0 0 0", "1 0A 0 0 0")
    line = "Anna: skyscraper a2; move b2-c2; build c1"
    assert reject(scenario(raised, "Engineer"), line) == ("sny-skyscraper-space", col(line, "a2"))
    accept(
        scenario(ENGINEER, "Engineer", engineer_skyscraper_by_mover=False), "Anna: skyscraper a4; move b2-c2; build c1"
    )


def test_engineer_skyscraper_is_required_only_of_a_worker_that_can_place_one() -> None:
    boxed = ENGINEER.replace("0A 0 0 0 0B", "0A 1 0 0 0B").replace("0  0 0 0 0B", "1  1 0 0 0B")
    state = scenario(boxed, "Engineer")  # nothing at ground level next to a5; b2 has plenty
    accept(state, "Anna: move a5-b5; build a5")
    line = "Anna: move a5-b5; build a5"
    assert reject(scenario(boxed, "Engineer", if_possible_scope="turn"), line) == ("sny-step-order", col(line, "move"))


def test_engineer_skyscraper_blocks_no_space_it_is_occupied() -> None:
    state = accept(scenario(ENGINEER, "Engineer"), "Anna: skyscraper c2; move b2-b3; build b2")
    line = "Anna: skyscraper a4; move b3-c2; build c1"
    state.played, state.order, state.turn, state.stage = {0: ("Engineer", 1)}, [0], 0, "turns"
    assert reject(state, line) == ("sny-occupied", col(line, "c2"))


ROOFTOP = """
0A 0 0 0 0B
0  0 0 0 0B
0  3 0 0 0
0 0A 0 0 0
0  0 0 0 0
"""


def test_engineer_wins_by_building_a_rooftop_while_holding_the_statue() -> None:
    state = accept(scenario(ROOFTOP, "Engineer", holder=0), "Anna: skyscraper a1; move b2-a2; build b3=roof")
    assert state.stage == OVER and state.outcome().termination.code == "engineer-rooftop"


def test_engineer_rooftop_without_the_statue_does_not_win() -> None:
    state = accept(scenario(ROOFTOP, "Engineer", holder=1), "Anna: skyscraper a1; move b2-a2; build b3=roof")
    assert state.stage != OVER


def test_engineer_skyscraper_still_comes_before_a_winning_move() -> None:
    climb = ENGINEER.replace("0  0 0 0 0\n0 0A", "0  3 0 0 0\n0 2A")
    line = "Anna: move b2-b3"
    assert reject(scenario(climb, "Engineer", holder=0), line) == ("sny-step-order", col(line, "move"))
    state = accept(scenario(climb, "Engineer", holder=0), "Anna: skyscraper a1; move b2-b3")
    assert state.stage == OVER and state.outcome().termination.code == "climb"


# ---------------------------------------------------------------------------------------------- Iron Worker
OPEN = """
0 0 0 0 0B
0 0 0 0 0B
0 0 0A 0 0
0 0 0 0 0
0A 0 0 0 0
"""


def test_iron_worker_builds_on_two_different_spaces() -> None:
    state = accept(scenario(OPEN, "Iron Worker"), "Anna: move c3-c4; build c5, d5")
    assert state.pos.height[cell(state, "c5")] == 1 and state.pos.height[cell(state, "d5")] == 1
    accept(scenario(OPEN, "Iron Worker"), "Anna: move c3-c4; build c5; build d5")
    line = "Anna: move c3-c4; build c5"
    assert reject(scenario(OPEN, "Iron Worker"), line) == ("sny-incomplete-turn", len(line) + 1)
    line = "Anna: move c3-c4; build c5, c5"
    assert reject(scenario(OPEN, "Iron Worker"), line) == ("sny-card-rule", col(line, "c5", 2))


CORNER = """
0 0 0 0 0B
0 0 0 0 0B
0 0 0 0 0
3R 3R 3R 0 0
0A 0 3R 0 0
"""


def test_iron_worker_that_cannot_build_twice_loses_a_worker() -> None:
    state = scenario(CORNER, "Iron Worker")  # a1 -> b1 only; from b1 only a1 can be built on
    assert legal(state) == {"Anna: loses a1"}
    line = "Anna: move a1-b1; build a1"
    assert reject(state, line) == ("sny-must-lose", col(line, "move"))
    accept(scenario(CORNER, "Night Guard"), line)  # a plain card can make that turn


# ---------------------------------------------------------------------------------------------- Crane Operator
CRANE = """
0 0 0 0 0B
0 0 0 0 0B
0 0 0A 0 0
0 0 0 0 0
2 0 0 3 0
"""


def test_crane_operator_builds_twice_on_the_same_space() -> None:
    state = accept(scenario(CRANE, "Crane Operator"), "Anna: move c3-c2; build c1, c1")
    assert state.pos.height[cell(state, "c1")] == 2
    state = accept(scenario(CRANE, "Crane Operator"), "Anna: move c3-b2; build a1=3, a1=roof")
    assert cell(state, "a1") in state.pos.roof
    accept(scenario(CRANE, "Crane Operator"), "Anna: move c3-c2; build c1; build c1")


def test_crane_operator_single_build_only_for_a_rooftop() -> None:
    accept(scenario(CRANE, "Crane Operator"), "Anna: move c3-c2; build d1=roof")
    line = "Anna: move c3-c2; build c1"
    assert reject(scenario(CRANE, "Crane Operator"), line) == ("sny-incomplete-turn", len(line) + 1)
    line = "Anna: move c3-c2; build c1, b1"
    assert reject(scenario(CRANE, "Crane Operator"), line) == ("sny-card-rule", col(line, "b1"))
    line = "Anna: move c3-c2; build d1, d1"
    assert reject(scenario(CRANE, "Crane Operator"), line) == ("sny-extra-step", col(line, "d1", 2))


# ---------------------------------------------------------------------------------------------- Broadway Actor
BROADWAY = """
0 0 0 0 0A
0 0 0A 3R 3R
0 0 0 0 0
0 0 0 0 0
0B 0 0 0 0B
"""


def test_broadway_actor_moves_and_builds_with_both_workers() -> None:
    state = accept(scenario(BROADWAY, "Broadway Actor"), "Anna: move c4-c3; build c2; move e5-d5; build e5")
    assert owner(state, "c3") == 0 and owner(state, "d5") == 0
    line = "Anna: move c4-c3; build c2"
    assert reject(scenario(BROADWAY, "Broadway Actor"), line) == ("sny-incomplete-turn", len(line) + 1)


def test_broadway_actor_first_worker_must_leave_the_second_able_to_move_and_build() -> None:
    line = "Anna: move c4-d5; build c5; move e5-e4; build e5"
    assert reject(scenario(BROADWAY, "Broadway Actor"), line) == ("sny-card-rule", col(line, "d5"))
    line = "Anna: move c4-d5; build c5"  # a one-worker turn while a two-worker turn exists
    assert reject(scenario(BROADWAY, "Broadway Actor"), line)[0] == "sny-card-rule"


def test_broadway_actor_plays_one_worker_when_both_cannot() -> None:
    stuck = BROADWAY.replace("0 0 0 0 0A", "0 0 0 3R 0A")
    state = scenario(stuck, "Broadway Actor")
    assert all(text.count("move") == 1 for text in legal(state))
    accept(state, "Anna: move c4-c3; build c2")


def test_broadway_actor_moves_first_then_builds_under_the_option() -> None:
    line = "Anna: move c4-c3; move e5-d5; build c2; build e5"
    accept(scenario(BROADWAY, "Broadway Actor", broadway_one_then_other=False), line)
    assert reject(scenario(BROADWAY, "Broadway Actor"), line)[0] == "sny-step-order"
    line = "Anna: move c4-c3; build c2; move e5-d5; build e5"
    assert reject(scenario(BROADWAY, "Broadway Actor", broadway_one_then_other=False), line)[0] == "sny-step-order"


# ---------------------------------------------------------------------------------------------- Firefighter
FIRE = """
0 0 0 0 0B
0 0 0 0 0B
0 0 0A 3 0
0 0 0 0 0
0 0 0 0 3A
"""


def test_firefighter_builds_under_the_worker_first() -> None:
    state = accept(scenario(FIRE, "Firefighter"), "Anna: build c3; move c3-c4; build c5")
    assert state.pos.height[cell(state, "c3")] == 1 and owner(state, "c4") == 0
    line = "Anna: move c3-c4; build c5"
    assert reject(scenario(FIRE, "Firefighter"), line) == ("sny-step-order", col(line, "move"))
    line = "Anna: build c2; move c3-c4; build c5"
    assert reject(scenario(FIRE, "Firefighter"), line) == ("sny-card-rule", col(line, "c2"))


def test_firefighter_raised_worker_climbs_from_its_new_height() -> None:
    raised = FIRE.replace("0 0 0A 3 0", "0 0 1A 3 0")
    state = accept(scenario(raised, "Firefighter", holder=0), "Anna: build c3=2; move c3-d3")
    assert state.stage == OVER and state.outcome().winners == ["Anna"]


def test_firefighter_rooftop_under_the_worker_removes_it_and_ends_the_turn() -> None:
    state = accept(scenario(FIRE, "Firefighter"), "Anna: build e1=roof")
    assert cell(state, "e1") in state.pos.roof and state.pos.workers_of(0) == [cell(state, "c3")]
    line = "Anna: build e1; move e1-d1; build d2"
    assert reject(scenario(FIRE, "Firefighter"), line) == ("sny-extra-step", col(line, "move"))
    alone = FIRE.replace("0 0 0A 3 0", "0 0 0 3 0")
    state = accept(scenario(alone, "Firefighter"), "Anna: build e1")
    assert state.stage == OVER and state.outcome().winners == ["Boris"]  # Anna's last worker left the game


# ---------------------------------------------------------------------------------------------- Foreman
FOREMAN = """
0 0 0 0 0
0 0 0 0 0B
0 0 0A 0 0
0 0 0 0 0
0A 0 0 0 0B
"""


def test_foreman_builds_twice_next_to_a_worker_next_to_the_moved_worker() -> None:
    state = accept(scenario(FOREMAN, "Foreman"), "Anna: move c3-d3; build d5, e5")  # both next to Boris on e4
    assert state.pos.height[cell(state, "d5")] == 1 and state.pos.height[cell(state, "e5")] == 1
    line = "Anna: move c3-d3; build c2, c4"
    assert reject(scenario(FOREMAN, "Foreman"), line) == ("sny-card-rule", col(line, "c2"))
    line = "Anna: move c3-d3; build d5, d5"
    assert reject(scenario(FOREMAN, "Foreman"), line) == ("sny-card-rule", col(line, "d5", 2))


def test_foreman_may_choose_his_own_other_worker() -> None:
    accept(scenario(FOREMAN, "Foreman"), "Anna: move c3-b2; build a2, b1")  # next to Anna on a1


def test_foreman_without_a_worker_to_choose_loses_a_worker() -> None:
    lonely = """
0 0 0 0 0B
0 0 0 0 0B
0 0 0 0 0
3R 3R 0 0 0
0A 0 0 0 0
"""
    state = scenario(lonely, "Foreman")
    assert legal(state) == {"Anna: loses a1"}
    accept(scenario(lonely, "Foreman", foreman_if_possible=True), "Anna: move a1-b1; build c1")


# ---------------------------------------------------------------------------------------------- NYPD Officer
NYPD = """
0 0 0 0 0
0 0 0 0 0
0 0 1B 0 0
0 0A 0 0 0
0 0 0 0 0A
"""


def test_nypd_officer_pushes_an_opponent_one_step_back_and_takes_his_space() -> None:
    state = accept(scenario(NYPD, "NYPD Officer"), "Anna: force c3-d4; move b2-c3; build c2")
    assert owner(state, "d4") == 1 and owner(state, "c3") == 0


def test_nypd_officer_push_is_optional_and_written_first() -> None:
    accept(scenario(NYPD, "NYPD Officer"), "Anna: move b2-b3; build b4")
    line = "Anna: move b2-c3; build c2"
    assert reject(scenario(NYPD, "NYPD Officer"), line) == ("sny-occupied", col(line, "c3"))
    line = "Anna: move b2-b3; build b4"
    assert reject(scenario(NYPD, "NYPD Officer", nypd_push_optional=False), line) == ("sny-card-rule", col(line, "b2"))


def test_nypd_officer_pushes_only_onto_a_free_space_straight_back() -> None:
    blocked = NYPD.replace("0 0 0 0 0\n0 0 1B", "0 0 0 3R 0\n0 0 1B")
    line = "Anna: force c3-d4; move b2-c3; build c2"
    assert reject(scenario(blocked, "NYPD Officer"), line) == ("sny-step-order", col(line, "force"))
    line = "Anna: force c3-c4; move b2-c3; build c2"  # not straight back
    assert reject(scenario(NYPD, "NYPD Officer"), line) == ("sny-card-rule", col(line, "c4"))
    high = NYPD.replace("0 0 0 0 0\n0 0 1B", "0 0 0 3 0\n0 0 1B")
    accept(scenario(high, "NYPD Officer"), "Anna: force c3-d4; move b2-c3; build c2")  # any height


def test_nypd_officer_pushes_only_opponents_and_climbs_at_most_one() -> None:
    own = NYPD.replace("1B", "1A").replace("0 0 0 0 0A", "0 0 0 0 0B")
    assert reject(scenario(own, "NYPD Officer"), "Anna: force c3-d4; move b2-c3; build c2")[0] == "sny-step-order"
    high = NYPD.replace("1B", "2B")
    assert reject(scenario(high, "NYPD Officer"), "Anna: force c3-d4; move b2-c3; build c2")[0] == "sny-step-order"


def test_nypd_officer_pushes_diagonally_unless_the_option_says_not() -> None:
    line = "Anna: force c3-d4; move b2-c3; build c2"
    assert reject(scenario(NYPD, "NYPD Officer", nypd_diagonal_push=False), line)[0] == "sny-step-order"
    straight = NYPD.replace("0 0 1B 0 0\n0 0A 0 0 0", "0 1B 0 0 0\n0 0A 0 0 0")
    accept(scenario(straight, "NYPD Officer", nypd_diagonal_push=False), "Anna: force b3-b4; move b2-b3; build b2")


def test_nypd_officer_own_climb_wins_the_push_never_does() -> None:
    climb = NYPD.replace("1B", "3B").replace("0 0A 0 0 0", "0 2A 0 0 0")
    state = accept(scenario(climb, "NYPD Officer", holder=0), "Anna: force c3-d4; move b2-c3")
    assert state.outcome().winners == ["Anna"]
    pushed = NYPD.replace("0 0 0 0 0\n0 0 1B", "0 0 0 3 0\n0 0 2B").replace("0 0A 0 0 0", "0 1A 0 0 0")
    state = accept(scenario(pushed, "NYPD Officer", holder=1), "Anna: force c3-d4; move b2-c3; build c2")
    assert owner(state, "d4") == 1
    assert state.stage != OVER  # Boris was forced from 2 onto 3: no win


# ---------------------------------------------------------------------------------------------- Night Guard
GUARD = """
0 0 0 0 0
0 0 0 0 2
0 0 0 0B 0
0 0A 0 0 0
0 0 0 0 0A
"""


def test_night_guard_compels_an_adjacent_opponent_to_move() -> None:
    state = accept(scenario(GUARD, "Night Guard"), "Anna: move b2-c2; build b1; force d3-d2")
    assert owner(state, "d2") == 1
    accept(scenario(GUARD, "Night Guard"), "Anna: move b2-c2; build b1; move d3-d2")
    line = "Anna: move b2-c2; build b1"
    assert reject(scenario(GUARD, "Night Guard"), line) == ("sny-incomplete-turn", len(line) + 1)
    accept(scenario(GUARD, "Night Guard"), "Anna: move b2-a2; build a1")  # no opponent next to a2


def test_night_guard_compelled_move_is_a_normal_move() -> None:
    line = "Anna: move b2-c2; build b1; move d3-e4"  # e4 is two levels up
    assert reject(scenario(GUARD, "Night Guard"), line) == ("sny-too-high", col(line, "e4"))
    accept(scenario(GUARD, "Night Guard", night_guard_normal_move=False), line)  # [D6] off: a forced move


def test_night_guard_may_choose_an_adjacent_worker_that_cannot_move() -> None:
    boxed = """
0 0 0 0 0
3R 3R 3R 0 0
3R 0B 3R 0 0
3R 0 0B 0 0
0 0A 0 0 0A
"""
    state = scenario(boxed, "Night Guard")  # Anna to b1? c1? the worker on b3 can only go to b2 ...
    accept(state, "Anna: move b1-b2; build a1")  # next to b3 (boxed in) and c2 (free): may end here


def test_night_guard_compelled_move_can_win_for_the_statue_holder() -> None:
    climb = GUARD.replace("0 0 0 0B 0", "0 0 0 2B 0").replace("0 0 0 0 2", "0 0 0 0 3")
    state = accept(scenario(climb, "Night Guard", holder=1), "Anna: move b2-c2; build b1; move d3-e4")
    assert state.stage == OVER and state.outcome().winners == ["Boris"]
    state = accept(
        scenario(climb, "Night Guard", holder=1, night_guard_normal_move=False),
        "Anna: move b2-c2; build b1; force d3-e4",
    )
    assert state.stage != OVER


# ---------------------------------------------------------------------------------------------- Street Vendor
VENDOR = """
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0A
0 0A 0 0B 0
0 0 3 0 0
"""


def test_street_vendor_forces_an_adjacent_opponent_onto_the_block_built() -> None:
    state = accept(scenario(VENDOR, "Street Vendor"), "Anna: move b2-b3; build c2; force d2-c2")
    assert owner(state, "c2") == 1 and state.pos.height[cell(state, "c2")] == 1
    line = "Anna: move b2-b3; build c2"
    assert reject(scenario(VENDOR, "Street Vendor"), line) == ("sny-incomplete-turn", len(line) + 1)
    accept(scenario(VENDOR, "Street Vendor"), "Anna: move b2-b3; build a3")  # a3 is not next to Boris


def test_street_vendor_option_next_to_the_vendor_too() -> None:
    """Ruling 1 against ruling 8: with ``street_vendor_next_to_vendor`` Boris at d2, next to the block at c2 but not
    to the vendor at b3, is not forced (the force is an extra step); next to a vendor at c3 too, he must be."""
    option = {"street_vendor_next_to_vendor": True}
    accept(scenario(VENDOR, "Street Vendor", **option), "Anna: move b2-b3; build c2")
    line = "Anna: move b2-b3; build c2; force d2-c2"
    assert reject(scenario(VENDOR, "Street Vendor", **option), line) == ("sny-extra-step", col(line, "force"))
    line = "Anna: move b2-c3; build c2"
    assert reject(scenario(VENDOR, "Street Vendor", **option), line) == ("sny-incomplete-turn", len(line) + 1)
    accept(scenario(VENDOR, "Street Vendor", **option), "Anna: move b2-c3; build c2; force d2-c2")


def test_street_vendor_a_rooftop_is_not_a_block() -> None:
    accept(scenario(VENDOR, "Street Vendor"), "Anna: move b2-b1; build c1=roof")
    line = "Anna: move b2-b1; build c1; force d2-c1"
    assert reject(scenario(VENDOR, "Street Vendor"), line) == ("sny-extra-step", col(line, "force"))


def test_street_vendor_forces_only_opponents() -> None:
    own = VENDOR.replace("0 0 0 0 0A", "0 0 0 0 0B").replace("0A 0 0B 0", "0A 0 0A 0")
    accept(scenario(own, "Street Vendor"), "Anna: move b2-b3; build c2")


# ---------------------------------------------------------------------------------------------- Fashion Designer
FASHION = """
0 0 0 0 0
0 0A 0 0 0
0 0 0A 0 0
0 0 0B 0 0
0 0 0 0 0B
"""


def test_fashion_designer_forces_the_chosen_worker_into_the_space_left() -> None:
    state = accept(scenario(FASHION, "Fashion Designer"), "Anna: move c3-d4; force c2-c3; build e5")
    assert owner(state, "c3") == 1 and owner(state, "d4") == 0
    line = "Anna: move c3-d4; build e5"
    assert reject(scenario(FASHION, "Fashion Designer"), line) == ("sny-step-order", col(line, "build"))
    line = "Anna: move c3-d4; force c2-c3; build c3"
    assert reject(scenario(FASHION, "Fashion Designer"), line) == ("sny-occupied", col(line, "c3", 3))


def test_fashion_designer_may_choose_her_own_worker_unless_the_option_says_not() -> None:
    line = "Anna: move c3-d4; force b4-c3; build e5"
    accept(scenario(FASHION, "Fashion Designer"), line)
    assert reject(scenario(FASHION, "Fashion Designer", fashion_designer_own_workers=False), line) == (
        "sny-card-rule",
        col(line, "b4"),
    )


def test_fashion_designer_plain_turn_when_no_worker_is_adjacent() -> None:
    line = "Anna: move b4-a5; build a4"  # next to b4 stands only Anna's own worker on c3
    assert reject(scenario(FASHION, "Fashion Designer"), line) == ("sny-step-order", col(line, "build"))
    accept(scenario(FASHION, "Fashion Designer", fashion_designer_own_workers=False), line)


# ---------------------------------------------------------------------------------------------- Reporter
REPORTER = """
0 0 3R 0 0
0 0 S 0 0
0 0 0B 0 0
0 0A 0 0 0
0 0 0 0 0A
"""


def test_reporter_forces_north_or_south_to_the_first_unoccupied_space() -> None:
    state = accept(scenario(REPORTER, "Reporter"), "Anna: move b2-b3; build a3; force c3-c2")
    assert owner(state, "c2") == 1
    line = "Anna: move b2-b3; build a3"
    assert reject(scenario(REPORTER, "Reporter"), line) == ("sny-incomplete-turn", len(line) + 1)
    line = "Anna: move b2-b3; build a3; force c3-c5"  # north: c4 skyscraper, c5 rooftop, then the edge
    assert reject(scenario(REPORTER, "Reporter"), line) == ("sny-occupied", col(line, "c5"))
    line = "Anna: move b2-b3; build a3; force c3-d3"
    assert reject(scenario(REPORTER, "Reporter"), line) == ("sny-card-rule", col(line, "d3"))


def test_reporter_passes_over_anything_to_the_first_unoccupied_space() -> None:
    state = accept(scenario(REPORTER, "Reporter"), "Anna: move b2-c2; build b1; force c3-c1")
    assert owner(state, "c1") == 1
    line = "Anna: move b2-c2; build b1; force c3-c5"
    assert reject(scenario(REPORTER, "Reporter"), line)[0] == "sny-occupied"


def test_reporter_pushes_away_under_the_option() -> None:
    north = REPORTER.replace("0 0 3R 0 0\n0 0 S 0 0", "0 0 0 0 0\n0 0 0 0 0")
    accept(scenario(north, "Reporter"), "Anna: move b2-b3; build a3; force c3-c2")
    line = "Anna: move b2-b3; build a3; force c3-c2"  # Anna ends in row 3 too: either way
    accept(scenario(north, "Reporter", reporter_chooses_direction=False), line)
    line = "Anna: move b2-a2; build a1"  # not next to Boris
    accept(scenario(north, "Reporter", reporter_chooses_direction=False), line)
    south = "Anna: move b2-c2; build b1; force c3-c1"  # Anna in row 2, Boris in row 3: only north (blocked)
    accept(scenario(REPORTER, "Reporter"), south)
    assert reject(scenario(REPORTER, "Reporter", reporter_chooses_direction=False), south) == (
        "sny-extra-step",
        col(south, "force"),
    )


# ---------------------------------------------------------------------------------------------- Movers
SUBWAY = """
0 0 0 0 0B
0 0 0 0 0B
0A 0B S 0 0
0 0 0 0 0
0 0 0 0 0A
"""


def test_subway_operator_moves_straight_to_the_first_unoccupied_space() -> None:
    state = accept(scenario(SUBWAY, "Subway Operator"), "Anna: move a3-d3; build d4")
    assert owner(state, "d3") == 0
    accept(scenario(SUBWAY, "Subway Operator"), "Anna: move a3-a4; build a5")
    line = "Anna: move a3-e3; build e4"
    assert reject(scenario(SUBWAY, "Subway Operator"), line) == ("sny-card-rule", col(line, "e3"))
    line = "Anna: move a3-b4; build b5"
    assert reject(scenario(SUBWAY, "Subway Operator"), line) == ("sny-card-rule", col(line, "b4"))


def test_subway_operator_too_high_first_space_closes_the_direction() -> None:
    high = SUBWAY.replace("0A 0B S 0 0", "0A 0B S 2 0")
    line = "Anna: move a3-d3; build d4"
    assert reject(scenario(high, "Subway Operator"), line) == ("sny-too-high", col(line, "d3"))
    line = "Anna: move a3-e3; build e2"
    assert reject(scenario(high, "Subway Operator"), line) == ("sny-card-rule", col(line, "e3"))
    accept(scenario(high, "Subway Operator", subway_too_high_closes=False), line)


def test_subway_operator_that_cannot_move_loses_a_worker() -> None:
    stuck = """
3R 0 0 0 0B
3R 0 0 0 0B
S  0 0 0 0
S  0 0 0 0
0A S S 3R 3R
"""
    state = scenario(stuck, "Subway Operator")  # north and east: nothing unoccupied before the edge
    assert legal(state) == {"Anna: loses a1"}
    accept(scenario(stuck, "Subway Operator", must_card_fallback=True), "Anna: move a1-b2; build a1")


TAXI = """
0 0 0 0 0B
0 0 0 0 0B
0 0 0 0 0
0 0 0 0 0
0A 0 2 0 0
"""


def test_taxi_driver_moves_exactly_two_or_three_spaces_in_a_line() -> None:
    accept(scenario(TAXI, "Taxi Driver"), "Anna: move a1-d1; build e1")
    accept(scenario(TAXI, "Taxi Driver"), "Anna: move a1-c3; build c4")
    accept(scenario(TAXI, "Taxi Driver"), "Anna: move a1-a4; build a5")
    line = "Anna: move a1-b1; build b2"
    assert reject(scenario(TAXI, "Taxi Driver"), line) == ("sny-card-rule", col(line, "b1"))
    line = "Anna: move a1-e1; build e2"
    assert reject(scenario(TAXI, "Taxi Driver"), line) == ("sny-card-rule", col(line, "e1"))
    line = "Anna: move a1-c1; build c2"
    assert reject(scenario(TAXI, "Taxi Driver"), line) == ("sny-too-high", col(line, "c1"))
    line = "Anna: move a1-b3; build b4"
    assert reject(scenario(TAXI, "Taxi Driver"), line) == ("sny-card-rule", col(line, "b3"))


BUS = """
0 0 S 0 0B
0 0 0 0 0B
0 0 0 0 0
0 0 S 0 0
0 0 0A 0 0
"""


def test_tour_bus_driver_moves_straight_to_a_space_next_to_a_skyscraper() -> None:
    moves = {text.split(";")[0] for text in legal(scenario(BUS, "Tour Bus Driver"))}
    assert moves == {"Anna: move c1-b1", "Anna: move c1-d1", "Anna: move c1-c3", "Anna: move c1-c4"}
    line = "Anna: move c1-a1; build a2"
    assert reject(scenario(BUS, "Tour Bus Driver"), line) == ("sny-card-rule", col(line, "a1"))
    first_only = {text.split(";")[0] for text in legal(scenario(BUS, "Tour Bus Driver", tour_bus_any_space=False))}
    assert first_only == {"Anna: move c1-b1", "Anna: move c1-d1", "Anna: move c1-c3"}
