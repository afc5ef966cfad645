"""Santorini: New York rule options: each [D] decision and number is an option whose effect a test can see (the
profession options are tested with their profession), the option list is documented, and bad values are refused."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from test_santorini_scenarios import accept, legal, reject, scenario

from referee.game import option_docs
from referee.replay import KeepState, RecordSource, Referee, check_file
from referee.santorini_new_york import SantoriniNewYork
from referee.santorini_new_york.cards import load_deck_list
from referee.santorini_new_york.options import SNYOptions
from referee.santorini_new_york.state import SNYState

PLAIN = "Night Guard"


def test_d1_adjacency_is_the_eight_neighbours_or_the_four() -> None:
    board = "0 0 0 0 0B\n0 0 0 0 0B\n0 0 0 0 0\n0 0A 0 0 0\n0 0 0 0 0"
    accept(scenario(board, PLAIN), "Anna: move b2-c3; build d4")
    code, _ = reject(scenario(board, PLAIN, diagonal_adjacency=False), "Anna: move b2-c3; build c4")
    assert code == "sny-not-adjacent"
    moves = {t.split(";")[0] for t in legal(scenario(board, PLAIN, diagonal_adjacency=False))}
    assert moves == {"Anna: move b2-a2", "Anna: move b2-b1", "Anna: move b2-b3", "Anna: move b2-c2"}


def test_d2_if_possible_scope_moment_or_turn() -> None:
    # Street Vendor: a build next to Boris would force him; a build away from him is legal only in 'moment' scope
    board = "0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0A\n0 0A 0 0B 0\n0 0 0 0 0B"
    accept(scenario(board, "Street Vendor"), "Anna: move b2-b3; build a3")
    code, _ = reject(scenario(board, "Street Vendor", if_possible_scope="turn"), "Anna: move b2-b3; build a3")
    assert code == "sny-card-rule"


LOSS = """
0 0 0 0 0B
0 0 0 0 0B
3R 3 3 3R 3R
3 0A 3 3R 0
3 3 3R 3R 0A
"""


def test_d3_the_player_chooses_the_lost_worker_or_a_trapped_one_goes() -> None:
    # Iron Worker: e1 can move (to e2) but build only once there; b2 cannot move at all
    state = scenario(LOSS, "Iron Worker")
    assert legal(state) == {"Anna: loses b2", "Anna: loses e1"}
    accept(scenario(LOSS, "Iron Worker"), "Anna: loses e1")
    trapped_only = scenario(LOSS, "Iron Worker", loss_player_chooses=False)
    assert legal(trapped_only) == {"Anna: loses b2"}
    code, _ = reject(trapped_only, "Anna: loses e1")
    assert code == "sny-loss-worker"
    accept(scenario(LOSS, "Iron Worker", loss_player_chooses=False), "Anna: loses b2")


def test_numbers_tie_break_by_seat_when_the_option_allows_equal_numbers(tmp_path: Path) -> None:
    clash = (
        "name = 'clash'\n[cards]\nEngineer = [1, 2, 3, 4, 5, 6]\n'Iron Worker' = [1, 2]\n'NYPD Officer' = [7]\n"
        "'Subway Operator' = [8]\n"
    )
    (tmp_path / "clash.toml").write_text(clash, encoding="utf-8")
    variant = tmp_path / "ties.toml"
    variant.write_text('name = "ties"\ngame = "santorini-new-york"\n[options]\nunique_numbers = false\n')
    head = '[Game "Santorini: New York"]\n[Players "Anna, Boris"]\n[Board "square-5x5"]\n[DeckList "clash.toml"]\n'
    body = (
        "place: Anna b2 d4, Boris d2 b4\n"
        "hand Anna: Engineer 1, Engineer 3, Engineer 5, Iron Worker 2, Subway Operator 8\n"
        "hand Boris: Iron Worker 1, Engineer 2, Engineer 4, Engineer 6, NYPD Officer 7\n"
        "play: Anna Engineer 1, Boris Iron Worker 1\n"
    )
    path = tmp_path / "tie.rec"
    path.write_text(head + body, encoding="utf-8")
    (refused,) = check_file(path)
    assert (refused.error.code, refused.error.line) == ("sny-bad-deck", 1)  # no Deck tag: the first line
    path.write_text(head + '[Variant "ties.toml"]\n' + body, encoding="utf-8")
    keep = KeepState()
    (report,) = Referee().judge_source(RecordSource(path, str(path), path.name), keep)
    assert report.error is None, report.error
    assert keep.state.order == [0, 1] and keep.state.holder == 1  # equal 1s: Anna first, Boris the Statue


def test_a_finite_supply_limits_what_can_be_built() -> None:
    board = "0 0 0 0 0B\n0 0 0 0 0B\n0 0 0 0 0\n1 0A 0 0 0\n0 0 0 0 0"
    state = scenario(board, PLAIN, supply_blocks_1=1)  # the one level-1 block stands on a2
    assert all("build" not in t or t.endswith("build a2") for t in legal(state))
    line = "Anna: move b2-b3; build b4"
    assert reject(state, line) == ("sny-no-pieces", line.index("b4") + 1)
    engineer = scenario(board, "Engineer", supply_skyscrapers=1)
    engineer.pos = engineer.pos.with_skyscraper(engineer.board.cell("e1"))
    assert not any("skyscraper" in t for t in legal(engineer))


def test_hand_refill_numbers_are_options() -> None:
    options = dataclasses.replace(SNYOptions(), board="square-5x5", hand_size=4, refill_size=3, refill_period=3)
    state = SantoriniNewYork.new_state(["Anna", "Boris"], options)
    accept(state, "place: Anna b2 d4, Boris d2 b4")
    code, _ = reject(state, "hand Anna: ?, ?, ?, ?, ?")
    assert code == "sny-hand-size"
    accept(state, "hand Anna: ?, ?, ?, ?")


@pytest.mark.parametrize(
    "changes",
    [{"if_possible_scope": "sometimes"}, {"refill_period": 6}, {"hand_size": 0}],
)
def test_option_values_the_game_cannot_use_are_refused(changes: dict) -> None:
    options = dataclasses.replace(SNYOptions(), **changes)
    with pytest.raises(ValueError):
        SantoriniNewYork.new_state(["Anna", "Boris"], options)


def test_a_bad_option_in_a_variant_is_malformed_at_the_variant_tag(tmp_path: Path) -> None:
    (tmp_path / "odd.toml").write_text('name = "odd"\ngame = "santorini-new-york"\n[options]\nrefill_period = 9\n')
    path = tmp_path / "g.rec"
    path.write_text('[Game "Santorini: New York"]\n[Players "Anna, Boris"]\n[Variant "odd.toml"]\n')
    (report,) = check_file(path)
    assert (report.error.code, report.error.line) == ("sny-bad-options", 3)


def test_every_option_is_documented() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "santorini-new-york.md").read_text(encoding="utf-8")
    missing = [name for name, _, text in option_docs(SNYOptions) if f"`{name}`" not in doc or not text]
    assert not missing


def test_every_decision_of_the_rules_reference_is_an_option() -> None:
    docs = " ".join(text for _, _, text in option_docs(SNYOptions))
    for number in range(1, 14):
        assert f"[D{number}]" in docs or f"[D{number}," in docs, number


def test_deck_list_numbers_may_repeat_across_professions_of_one_kind() -> None:
    listed = load_deck_list("name = 'x'\n[cards]\n'Iron Worker' = [2]\n'Foreman' = [2]\n")
    assert listed.numbers == {"Iron Worker": (2,), "Foreman": (2,)}
    assert isinstance(SantoriniNewYork.new_state(["A", "B"], SNYOptions()), SNYState)


def test_every_profession_clause_and_error_code_is_in_the_docs() -> None:
    from referee.santorini_new_york.codes import SNYCode
    from referee.santorini_new_york.professions import PROFESSIONS

    doc = (Path(__file__).parent.parent / "docs" / "santorini-new-york.md").read_text(encoding="utf-8")
    assert [c for p in PROFESSIONS.values() for c in p.clauses if c not in doc] == []
    assert [k.code for k in SNYCode if f"`{k.code}`" not in doc] == []
