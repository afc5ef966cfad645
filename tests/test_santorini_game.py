"""Santorini: New York as whole records: setup (ruling 13), cards and hidden hands (ruling 14), the reveal and the
Statue, turn order, refills, elimination (ruling 15), claims and the Result tag (ruling 16), with the line and column
of every error."""

from __future__ import annotations

import dataclasses

import pytest
from test_santorini_scenarios import FIRST_DEAL, Script, accept, col, reject, scenario, two_player_opening

from referee.errors import Verdict
from referee.replay import check_text
from referee.santorini_new_york.hidden import DISCARD, hand
from referee.santorini_new_york.state import OVER, REVEAL, TURNS

ROUNDS = [
    ("Engineer 1", "Iron Worker 6"),
    ("Iron Worker 2", "NYPD Officer 7"),
    ("NYPD Officer 3", "Subway Operator 8"),
    ("Subway Operator 4", "Engineer 9"),
]


def four_rounds() -> Script:
    script = two_player_opening()
    for anna, boris in ROUNDS:
        script.add(f"play: Anna {anna}, Boris {boris}").turns()
    return script


def verdict(script: Script, *extra: str) -> tuple[str, str | None, int | None, int | None]:
    report = script.judged(*extra)
    error = report.error
    return (
        report.verdict.value,
        error.code if error else None,
        error.line if error else None,
        error.column if error else None,
    )


# ------------------------------------------------------------------------------------------------ setup
def test_setup_lines_come_in_any_order_and_either_space_first() -> None:
    script = Script().add(
        f"hand Boris: {FIRST_DEAL['Boris']}",
        "place: Boris b4 d2",
        "round 1",
        f"hand Anna: {FIRST_DEAL['Anna']}",
        "place: Anna d4 b2",
    )
    assert script.state.pairs == {1: 2, 0: 1}
    script.add("play: Anna Engineer 1, Boris Iron Worker 6")
    assert script.state.stage == TURNS


def test_a_player_takes_one_free_pair_of_starting_spaces() -> None:
    script = Script()
    line = "place: Anna b2 d2"
    assert reject(script.state, line) == ("sny-not-a-start-pair", col(line, "d2"))
    line = "place: Anna c3 d4"
    assert reject(script.state, line) == ("sny-not-a-start-pair", col(line, "c3"))
    script.add("place: Anna b2 d4")
    line = "place: Boris d4 b2"
    assert reject(script.state, line) == ("sny-pair-taken", col(line, "d4"))
    line = "place: Anna d2 b4"
    assert reject(script.state, line) == ("sny-placed-twice", col(line, "Anna"))
    line = "place: Boris b2 b2"
    assert reject(script.state, line)[0] == "sny-not-a-start-pair"
    line = "place: Boris f2 b4"
    assert reject(script.state, line) == ("sny-no-such-space", col(line, "f2"))


def test_setup_is_complete_at_the_first_reveal_and_closed_after_it() -> None:
    script = Script().add("place: Anna b2 d4, Boris d2 b4", f"hand Anna: {FIRST_DEAL['Anna']}")
    line = "play: Anna Engineer 1, Boris Iron Worker 6"
    assert reject(script.state, line) == ("sny-setup-incomplete", 1)
    script = two_player_opening().add("play: Anna Engineer 1, Boris Iron Worker 6")
    assert reject(script.state, "place: Anna a3 e3")[0] == "sny-misplaced-setup"


def test_round_checkpoints_name_the_coming_round() -> None:
    script = two_player_opening()
    assert reject(script.state, "round 2") == ("sny-round-mismatch", 7)  # at the number
    script.add("round 1", "play: Anna Engineer 1, Boris Iron Worker 6")
    assert reject(script.state, "round 2") == ("sny-misplaced-round", 1)
    script.turns().add("round 2")


TOUR_BUS = {"Deck": "Engineer, Iron Worker, NYPD Officer, Tour Bus Driver"}


def test_the_tour_bus_driver_setup_skyscraper() -> None:
    script = Script(tags=TOUR_BUS)
    script.add("skyscraper: c3")
    assert reject(script.state, "skyscraper: c4")[0] == "sny-skyscraper-setup"
    script = Script()
    assert reject(script.state, "skyscraper: c3")[0] == "sny-skyscraper-setup"
    script = Script(tags=TOUR_BUS).add("place: Anna b2 d4")
    line = "skyscraper: b2"
    assert reject(script.state, line) == ("sny-skyscraper-space", col(line, "b2"))
    deal = {"Anna": "Engineer 1, Iron Worker 2, NYPD Officer 3, Tour Bus Driver 4, Engineer 5"}
    script = Script(tags=TOUR_BUS).add("place: Anna b2 d4, Boris d2 b4", f"hand Anna: {deal['Anna']}")
    script.add("hand Boris: ?, ?, ?, ?, ?")
    assert reject(script.state, "play: Anna Engineer 1, Boris Engineer 9")[0] == "sny-setup-incomplete"
    script.add("skyscraper: c3", "play: Anna Engineer 1, Boris Engineer 9")


def test_the_setup_skyscraper_is_judged_where_it_stands() -> None:
    """Ruling 13: a skyscraper on a starting space is legal where it stands; the later place: on it is not."""
    five = ("Anna", "Boris", "Clara", "Dmitri", "Elena")
    script = Script(five, TOUR_BUS)
    script.add("skyscraper: a3")  # pair 3 of five, with five players still to place
    line = "place: Clara a3 e3"
    assert reject(script.state, line)[1] == col(line, "a3")
    strict = Script(five, TOUR_BUS)
    strict.state.options = dataclasses.replace(strict.state.options, setup_skyscraper_keeps_pairs=True)
    line = "skyscraper: a3"
    assert reject(strict.state, line) == ("sny-skyscraper-blocks-start", col(line, "a3"))
    strict.add("skyscraper: c3")
    two = Script(tags=TOUR_BUS).add("skyscraper: a3")  # two players: pairs enough
    assert two.state.setup_skyscraper == two.state.board.cell("a3")


# ------------------------------------------------------------------------------------------------ cards
def test_a_setup_deal_is_five_distinct_cards_of_the_deck() -> None:
    script = Script().add("place: Anna b2 d4, Boris d2 b4")
    line = "hand Anna: Engineer 1, Iron Worker 2, NYPD Officer 3, Subway Operator 4"
    assert reject(script.state, line) == ("sny-hand-size", len(line) + 1)  # a card is missing at the end
    line = "hand Anna: Engineer 1, Iron Worker 2, NYPD Officer 3, Subway Operator 4, Engineer 5, Engineer 9"
    assert reject(script.state, line) == ("sny-hand-size", col(line, "Engineer 9"))
    line = "hand Anna: Engineer 1, Engineer 1, NYPD Officer 3, Subway Operator 4, Engineer 5"
    assert reject(script.state, line) == ("sny-card-unavailable", col(line, "Engineer 1", 2))
    line = "hand Anna: Engineer 1, Taxi Driver 4, NYPD Officer 3, Subway Operator 8, Engineer 5"
    assert reject(script.state, line) == ("sny-not-in-deck", col(line, "Taxi"))
    script.add(f"hand Anna: {FIRST_DEAL['Anna']}")
    line = "hand Boris: Engineer 1, ?, ?, ?, ?"
    assert reject(script.state, line) == ("sny-card-unavailable", col(line, "Engineer"))
    assert reject(script.state, f"hand Anna: {FIRST_DEAL['Boris']}")[0] == "sny-misplaced-hand"


def test_a_number_the_deck_list_does_not_print_is_an_unknown_card() -> None:
    script = Script().add("place: Anna b2 d4, Boris d2 b4")
    text = script.text([*script.lines, "hand Anna: Engineer 1, Iron Worker 3, NYPD Officer 3, ?, ?"])
    (report,) = check_text(text)
    assert report.verdict is Verdict.MALFORMED and report.error.code == "unknown-card"
    line = text.splitlines()[-1]
    assert report.error.column == col(line, "3")


@pytest.mark.parametrize(
    ("line", "code", "at"),
    [
        ("hand Anna: Iron Worker 3", "unknown-card", ("3", 1)),  # a second setup hand: misplaced too
        ("play: Anna Engineer 2, Boris Engineer 25", "unknown-card", ("2", 1)),  # the round's turns are not over too
        ("play: Anna Engineer 5, Clara Engineer 9", "unknown-player", ("Clara", 1)),
        ("place: Clara a3 e3", "unknown-player", ("Clara", 1)),  # after the first reveal too
    ],
)
def test_an_unknown_name_makes_a_misplaced_statement_malformed(line: str, code: str, at: tuple[str, int]) -> None:
    """Record format section 1, ruling 14: an unknown player or a number the deck list does not print makes its
    statement malformed wherever it stands — as an unknown profession does — not illegal for standing in the wrong
    place (audit sny5)."""
    script = two_player_opening().add("play: Anna Engineer 1, Boris Iron Worker 6")
    assert verdict(script, line) == ("malformed", code, script.last_line() + 1, col(line, *at))


def test_the_reveal_names_every_player_in_once_with_a_card_of_his_hand() -> None:
    script = two_player_opening()
    line = "play: Anna Engineer 1"
    assert reject(script.state, line) == ("sny-reveal-players", len(line) + 1)
    line = "play: Anna Engineer 1, Anna Engineer 5"
    assert reject(script.state, line) == ("sny-reveal-players", col(line, "Anna", 2))
    line = "play: Anna Engineer 9, Boris Iron Worker 6"
    assert reject(script.state, line) == ("sny-not-in-hand", col(line, "Engineer"))
    line = "play: Anna Engineer 1, Boris Taxi Driver 4"
    assert reject(script.state, line) == ("sny-not-in-deck", col(line, "Taxi"))
    line = "Anna: move b2-c3; build c4"
    assert reject(script.state, line) == ("sny-play-expected", 1)


def test_the_statue_goes_to_the_highest_card_and_turns_go_lowest_first() -> None:
    script = two_player_opening().add("play: Boris Iron Worker 6, Anna Engineer 1")
    assert script.state.holder == 1 and script.state.order == [0, 1]
    assert reject(script.state, "Boris: move d2-d3; build d2, e2") == ("sny-not-your-turn", 1)
    line = "play: Anna Engineer 5, Boris Iron Worker 10"
    assert reject(script.state, line)[0] == "sny-round-not-over"
    script.turns().add("play: Anna Engineer 5, Boris Engineer 9")
    assert script.state.holder == 1 and script.state.order == [0, 1]
    script.turns().add("play: Anna Subway Operator 4, Boris Iron Worker 10")
    assert script.state.holder == 1


def test_hidden_hands_accept_any_card_that_can_be_there() -> None:
    script = Script().add(
        "place: Anna b2 d4, Boris d2 b4", f"hand Anna: {FIRST_DEAL['Anna']}", "hand Boris: ?, ?, ?, ?, ?"
    )
    line = "play: Anna Engineer 1, Boris Engineer 5"  # Engineer 5 is known to be in Anna's hand
    assert reject(script.state, line) == ("sny-not-in-hand", col(line, "Engineer", 2))
    script.add("play: Anna Engineer 1, Boris Taxi Driver 4".replace("Taxi Driver 4", "Iron Worker 22")).turns()
    line = "play: Anna Engineer 5, Boris Iron Worker 22"  # Boris played it already
    assert reject(script.state, line) == ("sny-not-in-hand", col(line, "Iron Worker"))
    script.add("play: Anna Engineer 5, Boris Iron Worker 18")
    assert script.state.tracker.hidden_in(1) == 3


def test_cards_not_dealt_start_the_discard_pile() -> None:
    script = two_player_opening().add("play: Anna Engineer 1, Boris Iron Worker 6")
    assert script.state.tracker.count(DISCARD) == 15
    script.turns()
    assert script.state.tracker.count(DISCARD) == 17


# ------------------------------------------------------------------------------------------------ refills
def test_after_round_4_each_player_still_in_is_dealt_4_cards_from_the_discard_pile() -> None:
    script = four_rounds()
    assert script.state.stage == REVEAL and script.state.refill_due == {0, 1}
    line = "play: Anna Engineer 5, Boris Iron Worker 10"
    assert reject(script.state, line) == ("sny-refill-missing", 1)
    line = "hand Anna: Engineer 13, ?, ?, ?, ?"
    assert reject(script.state, line) == ("sny-hand-size", col(line, "?", 4))
    line = "hand Anna: Iron Worker 10, ?, ?, ?"  # in Boris's hand, not in the discard pile
    assert reject(script.state, line) == ("sny-card-unavailable", col(line, "Iron Worker"))
    script.add("hand Anna: Engineer 1, Iron Worker 6, ?, ?", "round 5", "hand Boris: ?, ?, ?, ?")
    assert reject(script.state, "hand Boris: ?, ?, ?, ?")[0] == "sny-misplaced-hand"
    script.add("play: Anna Iron Worker 6, Boris Engineer 13")
    assert script.state.tracker.count(hand(0)) == 4 and script.state.tracker.count(hand(1)) == 4


def test_a_deal_outside_setup_and_refills_is_misplaced() -> None:
    script = two_player_opening().add("play: Anna Engineer 1, Boris Iron Worker 6").turns()
    assert reject(script.state, "hand Anna: ?, ?, ?, ?")[0] == "sny-misplaced-hand"


# ------------------------------------------------------------------------------------------------ claims
def test_win_claims_and_the_result_tag_are_checked() -> None:
    state = scenario("0 0 0 0 0B\n0 0 0 0 0B\n0 0 3 0 0\n0 2A 0 0 0\n0 0 0 0 0A", "Night Guard", holder=0)
    accept(state, "Anna: move b2-c3")
    accept(state, "win: Anna")
    accept(state, "win: Anna")  # may be repeated
    assert reject(state, "win: Boris")[0] == "win-mismatch"
    assert reject(state, "win: Anna, Anna")[0] == "claim-names-player-twice"
    assert reject(state, "final: Anna 0")[0] == "final-no-scores"
    assert reject(state, "Boris: move e5-e4; build e5")[0] == "after-end"
    line = "play: Anna Engineer 1, Zed Engineer 5"  # an unknown name is malformed after the end too (audit sny5)
    assert reject(state, line) == ("unknown-player", col(line, "Zed"))
    line = "play: Anna Engineer 3, Boris Engineer 5"
    assert reject(state, line) == ("unknown-card", col(line, "3"))


def test_a_win_claim_before_the_end_is_misplaced() -> None:
    script = two_player_opening()
    assert reject(script.state, "win: Anna")[0] == "win-misplaced"


def test_a_generated_game_with_a_wrong_result_tag_is_illegal_at_the_tag() -> None:
    import random

    from referee.santorini_new_york import SantoriniNewYork

    text = SantoriniNewYork.play(["Anna", "Boris"], random.Random(3), SantoriniNewYork.ruleset(None), {})
    (good,) = check_text(text)
    assert good.verdict is Verdict.VALID
    loser = next(p for p in ("Anna", "Boris") if p not in good.outcome.winners)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines, 1) if line.startswith("[Result"))
    lines[at - 1] = f'[Result "{loser}"]'
    (bad,) = check_text("\n".join(lines))
    assert (bad.verdict, bad.error.code, bad.error.line) == (Verdict.ILLEGAL, "result-mismatch", at)
    truncated = "\n".join(lines[: len(lines) - 3])  # an unfinished record: Result is not judged
    (live,) = check_text(truncated)
    assert live.verdict is Verdict.UNFINISHED


# ------------------------------------------------------------------------------------------------ elimination
OUT = """
0 0 0 0 0C
0 0 0 0 0C
3R 3 3 0 0
3 0A 3 0 0B
3 3 3R 0 0B
"""


def eliminated(**changes: object):
    """Clara and Boris still in; Anna (Statue holder, one boxed-in worker) loses her last worker."""
    state = scenario(OUT, "Night Guard", players=("Anna", "Boris", "Clara"), holder=0, **changes)
    state.played = {0: ("Night Guard", 23), 1: ("Iron Worker", 6), 2: ("Engineer", 9)}
    state.order = [0, 1, 2]
    state.holder = 0
    for _ in range(3):
        state.tracker.deal(0, None)
    state.tracker.begin()
    return accept(state, "Anna: loses b2")


def test_an_eliminated_players_hand_goes_to_the_discard_pile_and_he_plays_no_more() -> None:
    state = eliminated()
    assert state.out == [0] and state.stage == TURNS
    assert state.tracker.count(DISCARD) == 25 and state.tracker.count(hand(0)) == 0
    assert reject(state, "Anna: move e5-e4; build e5")[0] == "sny-eliminated"
    assert state.holder == 0  # [D12] the Statue stays with its holder until the next reveal


def test_the_eliminated_hand_leaves_the_game_under_the_option() -> None:
    state = eliminated(eliminated_hand_to_discard=False)
    assert state.tracker.count(DISCARD) == 22 and state.tracker.count("out") == 3


def test_the_statue_passes_on_under_the_option() -> None:
    state = eliminated(statue_stays_with_eliminated=False)
    assert state.holder == 2  # Clara's Engineer 9 is the highest card of a player still in


def test_the_last_player_with_workers_wins_at_once() -> None:
    two = OUT.replace("0C", "0")
    state = scenario(two, "Night Guard", holder=0)
    accept(state, "Anna: loses b2")
    assert state.stage == OVER and state.outcome().winners == ["Boris"]


def test_the_last_player_needs_the_statue_under_the_option() -> None:
    two = OUT.replace("0C", "0")
    state = scenario(two, "Night Guard", holder=0, last_player_needs_statue=True)
    accept(state, "Anna: loses b2")
    assert state.stage == REVEAL and state.out == [0]
    state.tracker.deal(1, ("Iron Worker", 6))
    accept(state, "play: Boris Iron Worker 6")
    assert state.stage == OVER and state.outcome().winners == ["Boris"]
    assert state.outcome().termination.code == "last-player"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_player_count_sets_up(players: int) -> None:
    names = ("Anna", "Boris", "Clara", "Dmitri", "Elena")[:players]
    script = Script(names)
    pairs = ["b2 d4", "d2 b4", "a3 e3", "c1 c5", "a1 e5"]
    script.add("place: " + ", ".join(f"{n} {p}" for n, p in zip(names, pairs, strict=False)))
    for name in names:
        script.add(f"hand {name}: ?, ?, ?, ?, ?")
    assert script.state.tracker.count("deck") == 25 - 5 * players


def test_the_refill_period_and_size_are_options() -> None:
    script = two_player_opening()
    script.state.options = dataclasses.replace(script.state.options, refill_period=2, refill_size=3)
    for anna, boris in ROUNDS[:2]:
        script.add(f"play: Anna {anna}, Boris {boris}").turns()
    assert script.state.refill_due == {0, 1} and script.state.refill_count() == 3
    assert reject(script.state, "hand Anna: ?, ?, ?, ?")[0] == "sny-hand-size"
    script.add("hand Anna: ?, ?, ?", "hand Boris: ?, ?, ?")
    assert script.state.tracker.count(hand(0)) == 6


@pytest.mark.parametrize("seed", range(8))
def test_five_players_on_the_5x5_board_with_the_tour_bus_driver_generate_valid_games(seed: int) -> None:
    """Five players need every starting pair of square-5x5: the generator's setup skyscraper leaves them free, in
    whatever order it writes the setup lines."""
    import random

    from referee.santorini_new_york import SantoriniNewYork
    from referee.santorini_new_york.options import SNYOptions

    deck = ("Engineer", "Broadway Actor", "Reporter", "Tour Bus Driver")
    options = dataclasses.replace(SNYOptions(), board="square-5x5", deck=deck)
    names = ["Anna", "Boris", "Clara", "Dmitri", "Elena"]
    text = SantoriniNewYork.play(names, random.Random(seed), options, {})
    assert '[Board "square-5x5"]' in text and "Tour Bus Driver" in text
    (report,) = check_text(text)
    assert report.verdict is Verdict.VALID, report.error and (report.error.line, report.error.message)
