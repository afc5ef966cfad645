"""Claims and checkpoints as the record format's section 1 states them, in every game: repeated ``final:`` and
``win:`` after the end (each checked), a claim line naming a player twice (malformed, whatever the values), and
the ``Result`` tag judged at its own line once the outcome is settled."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import Verdict
from referee.replay import GameReport, check_text

RECORDS = Path(__file__).parent.parent / "records"
SP_GAME = RECORDS / "saint-petersburg" / "generated" / "sp-1e-2p-seed01.rec"  # final: Anna 131, Boris 83
SJ_GAME = RECORDS / "san-juan" / "generated" / "sj-2p-seed01.rec"  # final: Anna 16, Boris 26
FINISHED = {SP_GAME: ("Anna", "Anna 131, Boris 83"), SJ_GAME: ("Boris", "Anna 16, Boris 26")}


def without_claims(path: Path) -> list[str]:
    """A complete generated game with its final claim taken off."""
    return [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("final:")]


def judge(lines: list[str]) -> GameReport:
    (report,) = check_text("\n".join(lines) + "\n")
    return report


@pytest.fixture(params=[SP_GAME, SJ_GAME], ids=["saint-petersburg", "san-juan"])
def game(request: pytest.FixtureRequest) -> Path:
    return request.param


def test_final_may_be_repeated_after_the_end_and_each_is_checked(game: Path) -> None:
    winner, scores = FINISHED[game]
    lines = [*without_claims(game), f"final: {scores}", f"final: {scores}", f"win: {winner}", f"final: {scores}"]
    assert judge(lines).verdict is Verdict.VALID
    _first, second = scores.split(", ")
    name, vp = second.split()
    wrong = [*without_claims(game), f"final: {scores}", f"final: {name} {int(vp) + 1}"]
    report = judge(wrong)
    assert (report.error.code, report.error.line) == ("final-mismatch", len(wrong))
    assert report.error.column == len("final: ") + len(name) + 2


def test_win_claims_name_exactly_the_winners(game: Path) -> None:
    winner, _scores = FINISHED[game]
    loser = next(name for name in ("Anna", "Boris") if name != winner)
    lines = [*without_claims(game), f"win: {loser}"]
    report = judge(lines)
    assert (report.error.code, report.error.line, report.error.column) == ("win-mismatch", len(lines), 6)
    assert judge([*without_claims(game), f"win: {winner}", f"win: {winner}"]).verdict is Verdict.VALID


def test_a_claim_before_the_end_is_misplaced(game: Path) -> None:
    lines = without_claims(game)
    cut = lines[: len(lines) // 2]
    win, final = judge([*cut, "win: Anna"]).error, judge([*cut, "final: Anna 1"]).error
    assert (win.code, final.code) == ("win-misplaced", "final-misplaced")
    assert win.message.startswith("the game has not ended yet") and final.message.startswith("the game has not ended")


@pytest.mark.parametrize("claim", ["final: {a} {x}, {a} {x}", "final: {a} {x}, {b} 0, {a} 999", "win: {a}, {a}"])
def test_a_claim_line_naming_a_player_twice_is_malformed_whatever_the_values(game: Path, claim: str) -> None:
    winner, scores = FINISHED[game]
    vp = dict(part.split() for part in scores.split(", "))
    text = claim.format(a=winner, b=next(n for n in vp if n != winner), x=vp[winner])
    lines = [*without_claims(game), text]
    report = judge(lines)
    assert report.verdict is Verdict.MALFORMED
    assert (report.error.code, report.error.line) == ("claim-names-player-twice", len(lines))
    assert report.error.column == text.rindex(winner) + 1  # the second mention


def test_a_score_line_naming_a_player_twice_is_malformed_even_when_values_agree() -> None:
    lines = without_claims(SP_GAME)
    at = next(i for i, line in enumerate(lines) if line.startswith("score: ") and line.count(",") == 1)
    first = lines[at][len("score: ") :].split(", ")[0]
    duplicated = [*lines[:at], f"score: {first}, {first}"]
    report = judge(duplicated)
    assert (report.verdict, report.error.code, report.error.line) == (
        Verdict.MALFORMED,
        "claim-names-player-twice",
        at + 1,
    )
    assert judge([*lines[:at], f"score: {first}"]).error is None  # a player left out is simply not claimed


def test_a_wrong_result_tag_is_reported_at_its_line_before_a_later_problem(game: Path) -> None:
    winner, _scores = FINISHED[game]
    loser = next(name for name in ("Anna", "Boris") if name != winner)
    lines = [f'[Result "{loser}"]' if line.startswith("[Result") else line for line in without_claims(game)]
    tag_line = next(i for i, line in enumerate(lines, 1) if line.startswith("[Result"))
    report = judge([*lines, "final: Anna 0"])  # a wrong final claim after the end comes later in reading order
    assert (report.error.code, report.error.line) == ("result-mismatch", tag_line)


def test_an_illegal_statement_before_the_end_wins_over_a_wrong_result_tag(game: Path) -> None:
    winner, _ = FINISHED[game]
    loser = next(name for name in ("Anna", "Boris") if name != winner)
    lines = [f'[Result "{loser}"]' if line.startswith("[Result") else line for line in without_claims(game)]
    body_start = lines.index("") + 1
    broken = [*lines[: body_start + 3], "round 99", *lines[body_start + 3 :]]
    report = judge(broken)
    assert report.error.code != "result-mismatch" and report.error.line == body_start + 4


def test_a_result_tag_naming_a_player_twice_is_malformed_at_the_tag(game: Path) -> None:
    """The Result tag is a claim (record-format.md section 1): naming a player twice is malformed, even when the
    name is the winner's."""
    winner, _scores = FINISHED[game]
    lines = [f'[Result "{winner}, {winner}"]' if line.startswith("[Result") else line for line in without_claims(game)]
    tag_line = next(i for i, line in enumerate(lines, 1) if line.startswith("[Result"))
    report = judge(lines)
    assert report.verdict is Verdict.MALFORMED
    assert (report.error.code, report.error.line) == ("claim-names-player-twice", tag_line)
    again = [f'[Result "{winner}"]' if line.startswith("[Result") else line for line in lines]
    assert judge(again).verdict is Verdict.VALID
