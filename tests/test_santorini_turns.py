"""Santorini: New York: moving, building, winning and losing a worker (rules reference sections 3 and 4, rulings 2-4),
judged on drawn positions. The Night Guard with no opponent worker nearby plays a plain turn (move, then build)."""

from __future__ import annotations

from test_santorini_scenarios import accept, col, legal, reject, scenario

from referee.santorini_new_york.state import OVER

PLAIN = "Night Guard"
# Anna (A) on b2 (level 1) and e1; Boris (B) far away on a5 and e5. c3 is level 2, c1 level 3, d2 a rooftop.
BOARD = """
1B 0 0 0 0B
0  0 0 0 0
0  0 2 0 0
0 1A 0 3R 0
0  0 3 0 0A
"""


def test_a_plain_turn_moves_then_builds_next_to_the_new_space() -> None:
    state = accept(scenario(BOARD, PLAIN), "Anna: move b2-c3; build c4")
    b = state.board
    assert state.pos.workers.get(b.cell("c3")) == 0 and b.cell("b2") not in state.pos.workers
    assert state.pos.height[b.cell("c4")] == 1
    assert state.stage != OVER


def test_every_legal_turn_is_a_move_to_a_neighbour_then_a_build_next_to_it() -> None:
    state = scenario(BOARD, PLAIN)
    turns = legal(state)
    assert "Anna: move b2-c3; build b2" in turns  # the space just left may be built on
    assert not any("move b2-d2" in t or "move b2-c1" in t for t in turns)  # d2 rooftop; c1 two levels up
    for text in turns:
        move, build = text.split(": ")[1].split("; ")
        frm, to = move.removeprefix("move ").split("-")
        there = state.board.cell(to)
        assert state.geo.adjacent(state.board.cell(frm), there)
        assert state.geo.adjacent(there, state.board.cell(build.removeprefix("build ")))


def test_a_move_onto_a_worker_skyscraper_or_rooftop_is_occupied() -> None:
    line = "Anna: move b2-c2; build c1"
    state = scenario(BOARD.replace("0 1A 0 3R 0", "0 1A 0B 3R 0"), PLAIN)
    assert reject(state, line) == ("sny-occupied", col(line, "c2"))
    assert reject(scenario(BOARD.replace("0 1A 0 3R 0", "0 1A S 3R 0"), PLAIN), line)[0] == "sny-occupied"
    line = "Anna: move e1-d2; build e2"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-occupied", col(line, "d2"))


def test_a_move_climbs_at_most_one_level_and_goes_down_any_number() -> None:
    line = "Anna: move b2-c1; build b1"  # b2 is level 1, c1 level 3
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-too-high", col(line, "c1"))
    down = BOARD.replace("0 1A 0 3R 0", "0 3A 0 3R 0")
    accept(scenario(down, PLAIN), "Anna: move b2-a1; build a2")  # three levels down


def test_a_move_goes_to_a_neighbouring_space() -> None:
    line = "Anna: move b2-d4; build d5"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-not-adjacent", col(line, "d4"))


def test_a_player_moves_his_own_worker_from_a_space_with_a_worker() -> None:
    line = "Anna: move a5-a4; build a3"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-not-your-worker", col(line, "a5"))
    line = "Anna: move c4-c5; build c4"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-no-worker", col(line, "c4"))


def test_a_square_off_the_board_or_on_a_void_cell_is_no_space() -> None:
    line = "Anna: move b2-f2; build e2"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-no-such-space", col(line, "f2"))
    manhattan = """
    ## ## 0 0 ## ##
    ## 0 0 0 ## ##
    ## 0 0 0 0 ##
    0 0 0 0 0 ##
    ## 0 0 0 0 0
    ## 0 0 0 0 ##
    ## 0A 0 0 0 ##
    ## ## 0 0A 0 ##
    ## ## 0 0 ## ##
    """
    state = scenario(manhattan, PLAIN, board="manhattan")
    line = "Anna: move b3-a2; build b2"
    assert reject(state, line) == ("sny-no-such-space", col(line, "a2"))


def test_a_build_is_next_to_the_moved_worker_on_an_unoccupied_space() -> None:
    line = "Anna: move b2-b3; build d3"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-not-adjacent", col(line, "d3"))
    line = "Anna: move e1-e2; build d2"  # d2 holds a rooftop
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-occupied", col(line, "d2"))


def test_a_build_on_level_3_is_a_rooftop_and_claims_name_the_level() -> None:
    state = accept(scenario(BOARD, PLAIN), "Anna: move e1-d1; build c1=roof")
    assert state.board.cell("c1") in state.pos.roof
    accept(scenario(BOARD, PLAIN), "Anna: move e1-d1; build c2=1")
    line = "Anna: move e1-d1; build c1=3"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-build-claim", col(line, "3"))
    line = "Anna: move b2-c3; build c2=roof"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-build-claim", col(line, "roof"))


def test_a_turn_is_written_in_full_in_its_order() -> None:
    line = "Anna: move b2-c3"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-incomplete-turn", len(line) + 1)
    line = "Anna: move b2-c3  # forgot the build"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-incomplete-turn", len("Anna: move b2-c3") + 1)
    line = "Anna: build c2; move b2-c3"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-step-order", col(line, "build"))
    line = "Anna: move b2-c3; build c4; build c2"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-extra-step", col(line, "build", 2))
    line = "Anna: move b2-c3; build c4, c2"
    assert reject(scenario(BOARD, PLAIN), line) == ("sny-extra-step", col(line, "c2"))


def test_only_the_players_turn_in_card_order() -> None:
    state = scenario(BOARD, PLAIN)
    line = "Boris: move a5-a4; build a3"
    assert reject(state, line) == ("sny-not-your-turn", 1)


# ------------------------------------------------------------------------------------------------ winning
CLIMB = """
0 0 0 0 0B
0 0 0 0 0
0 0 3 3 0
0 2A 0 0 0
0B 0 0 0 0A
"""


def test_the_statue_holder_wins_moving_up_from_level_2_onto_level_3() -> None:
    state = accept(scenario(CLIMB, PLAIN, holder=0), "Anna: move b2-c3")
    assert state.stage == OVER and state.outcome().winners == ["Anna"]
    assert state.outcome().termination.code == "climb"
    accept(state, "win: Anna")
    assert reject(state, "win: Boris")[0] == "win-mismatch"


def test_a_win_ends_the_line_and_the_game() -> None:
    line = "Anna: move b2-c3; build c4"
    assert reject(scenario(CLIMB, PLAIN, holder=0), line) == ("sny-after-win", col(line, "build"))
    state = accept(scenario(CLIMB, PLAIN, holder=0), "Anna: move b2-c3")
    assert reject(state, "round 2")[0] == "after-end"
    assert reject(state, "final: Anna 1")[0] == "final-no-scores"


def test_only_the_statue_holder_wins_by_climbing() -> None:
    state = scenario(CLIMB, PLAIN, holder=1)
    assert reject(state, "Anna: move b2-c3") == ("sny-incomplete-turn", len("Anna: move b2-c3") + 1)
    state = accept(state, "Anna: move b2-c3; build c4")
    assert state.stage != OVER


def test_moving_from_one_level_3_building_to_another_does_not_win() -> None:
    state = scenario(CLIMB.replace("0 0 3 3 0", "0 0 3A 3 0").replace("0 2A 0 0 0", "0 2 0 0 0"), PLAIN, holder=0)
    assert reject(state, "Anna: move c3-d3")[0] == "sny-incomplete-turn"
    assert accept(state, "Anna: move c3-d3; build d4").stage != OVER


# ------------------------------------------------------------------------------------------------ worker loss
TRAPPED = """
0 0 0 0 0B
0 0 0 0 0
3R 3 3 0 0
3  0A 3 0 0
3  3 3R 0 0B
"""


def test_a_worker_is_lost_exactly_when_no_complete_turn_exists() -> None:
    one = TRAPPED.replace("0 0 0 0 0B", "0 0 0 0 0").replace("3R 3 3 0 0", "3R 3 3 0 0B")
    state = scenario(one, PLAIN, players=("Anna", "Boris"))
    assert legal(state) == {"Anna: loses b2"}
    line = "Anna: move b2-c1; build b1"
    assert reject(state, line) == ("sny-must-lose", col(line, "move"))
    accept(state, "Anna: loses b2")
    assert state.pos.workers_of(0) == []
    assert state.stage == OVER and state.outcome().winners == ["Boris"]  # the only player left with workers
    assert state.outcome().termination.code == "last-player"


def test_a_loss_when_a_turn_exists_is_illegal() -> None:
    state = scenario(BOARD, PLAIN)
    line = "Anna: loses b2"
    assert reject(state, line) == ("sny-loss-not-allowed", col(line, "loses"))


def test_the_lost_worker_is_one_of_the_players_own() -> None:
    state = scenario(TRAPPED.replace("0 0 0 0 0B", "0 0 0 0 0A"), PLAIN)
    state.pos = state.pos.without_worker(state.board.cell("e5"))  # Anna: only the trapped worker
    line = "Anna: loses e1"
    assert reject(state, line) == ("sny-not-your-worker", col(line, "e1"))
    line = "Anna: loses c4"
    assert reject(state, line) == ("sny-no-worker", col(line, "c4"))


def test_a_player_with_one_worker_left_plays_on() -> None:
    three = TRAPPED.replace("0 0 0 0 0B", "0 0 0 0 0A")
    state = scenario(three, PLAIN, players=("Anna", "Boris", "Clara"))
    assert legal(state) != {"Anna: loses b2"}  # the worker on e5 can move
    accept(state, "Anna: move e5-e4; build e5")
    assert state.pos.workers_of(0) == [state.board.cell("b2"), state.board.cell("e4")]
