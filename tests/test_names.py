"""Players named like statement keywords work unquoted wherever a name is expected (issue: hostile input, class 6).

A line such as ``Score: pass`` reads two ways in Saint Petersburg — a score claim about a player "pass", or player
Score passing — and the game's Players tag decides; the same holds for San Juan's ``governor:``, ``tile:``,
``final:`` and ``win:``."""

from __future__ import annotations

import pytest

from referee.errors import Verdict
from referee.replay import check_text

SP_OPENING = """tokens: {a} worker aristocrat, {b} building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
{a}: buy Shepherd for 5
{b}: buy Gold Miner for 4
{a}: buy Lumberjack for 3
{b}: buy Lumberjack for 3
score: {a} +6R, {b} +6R
building phase
deal: Market, Warehouse, Pub, Customs House, Observatory, Market, Firehouse, Hospital
{b}: take Pub
{a}: pass
{b}: pass
score: {a} +0R, {b} +0R
"""

SJ_OPENING = """governor: {a}
hand {a}: ?, ?, ?, ?
hand {b}: ?, ?, ?, ?
governor: {a}
round 1
{a}: councillor
{a}: draws ?, ?, ?, ?, ?; keeps ?
{b}: draws ?, ?; keeps ?
{b}: prospector
{b}: draws ? (prospector)
{a}: builder
{a}: pass
{b}: pass
governor: {b}
"""


def judged(game: str, players: tuple[str, str], body: str):
    a, b = players
    (report,) = check_text(f'[Game "{game}"]\n[Players "{a}, {b}"]\n\n' + body.format(a=a, b=b))
    return report


@pytest.mark.parametrize(
    "players", [("Score", "Deal"), ("Tokens", "Final"), ("Win", "Round"), ("Worker", "Phase"), ("deal", "score")]
)
def test_saint_petersburg_players_named_like_keywords(players: tuple[str, str]) -> None:
    report = judged("Saint Petersburg", players, SP_OPENING)
    assert report.error is None, report.error
    assert report.verdict is Verdict.UNFINISHED and report.statements == 15


@pytest.mark.parametrize(
    "players", [("Builder", "Tile"), ("Governor", "Final"), ("Win", "Round"), ("Hand", "Prospector"), ("tile", "pass")]
)
def test_san_juan_players_named_like_keywords(players: tuple[str, str]) -> None:
    report = judged("San Juan", players, SJ_OPENING)
    assert report.error is None, report.error
    assert report.verdict is Verdict.UNFINISHED and report.statements == 14


def test_a_keyword_line_is_the_statement_when_no_player_has_that_name() -> None:
    body = SP_OPENING.replace("{b}: take Pub\n", "{b}: take Pub\nScore: pass #\n")
    report = judged("Saint Petersburg", ("Anna", "Boris"), body)
    # no player is called Score: the line is a score claim naming an unknown player 'pass'
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, "unknown-player", 16)


def test_a_player_named_score_still_claims_scores() -> None:
    body = SP_OPENING.replace("score: {a} +6R, {b} +6R", "score: {a} +7R, {b} +6R")
    report = judged("Saint Petersburg", ("Score", "Deal"), body)
    assert (report.error.code, report.error.line) == ("sp-score-mismatch", 12)


@pytest.mark.parametrize("players", [("-y", ".Anna"), ("Anna-", "B."), ("--", "_"), ("-5", "x-1.2")])
def test_a_name_of_letters_digits_and_allowed_punctuation_is_written_bare_wherever_they_stand(
    players: tuple[str, str],
) -> None:
    """Record format section 1: only a name with a space or punctuation other than '_ - .' is quoted — those three
    may open a name too ('-y' needed quotes: a bare name had to open with a letter or digit); the tool writes such a
    name bare as well."""
    from referee.record import quote_player

    report = judged("Saint Petersburg", players, SP_OPENING)
    assert report.error is None, report.error
    assert report.verdict is Verdict.UNFINISHED and report.statements == 15
    assert [quote_player(name) for name in players] == list(players)
