"""Santorini: New York notation: every statement and step, the aliases, player names that are keywords (ruling 17),
the columns of every part, and syntax errors located where reading stops."""

from __future__ import annotations

import random

import pytest

from referee.errors import RefereeError, Verdict
from referee.record import NameRef
from referee.replay import check_text
from referee.santorini_new_york import SantoriniNewYork
from referee.santorini_new_york.notation import (
    BuildStep,
    CardRef,
    FinalClaim,
    ForceStep,
    HandDeal,
    LossLine,
    MoveStep,
    Place,
    Reveal,
    RoundMark,
    SetupSkyscraper,
    SkyscraperStep,
    TurnLine,
    WinClaim,
    statement_text,
)
from referee.santorini_new_york.options import SNYOptions
from referee.santorini_new_york.play import play_record


def parse(line: str):
    return SantoriniNewYork.parser().parse(line)


def error(line: str) -> tuple[str, int]:
    with pytest.raises(RefereeError) as caught:
        parse(line)
    return caught.value.code, caught.value.column


def test_game_statements() -> None:
    place = parse("place: Anna b2 d4, Boris d2 b4")
    assert isinstance(place, Place) and [e.player.name for e in place.entries] == ["Anna", "Boris"]
    assert [s.name for s in place.entries[1].squares] == ["d2", "b4"] and place.entries[1].squares[1].column == 29
    assert parse("skyscraper: e4") == SetupSkyscraper(parse("skyscraper: e4").square, 1)
    deal = parse("hand Anna: Engineer 1, ?, Iron Worker 6")
    assert isinstance(deal, HandDeal) and deal.player == NameRef("Anna", 6)
    assert deal.cards == (CardRef("Engineer", 1, 12, 21), CardRef(None, 0, 24), CardRef("Iron Worker", 6, 27, 39))
    assert parse("round 5") == RoundMark(5, 1, 7)
    reveal = parse("play: Anna Iron Worker 6, Boris Engineer 5")
    assert isinstance(reveal, Reveal) and reveal.entries[1].card == CardRef("Engineer", 5, 33, 42)
    assert reveal.end_column == 43
    assert parse("win: Anna") == WinClaim((NameRef("Anna", 6),), 1)


def test_turn_steps_and_their_columns() -> None:
    turn = parse("Boris: skyscraper c3; move d2-d3; build e4")
    assert isinstance(turn, TurnLine) and turn.player == NameRef("Boris", 1)
    sky, move, build = turn.steps
    assert isinstance(sky, SkyscraperStep) and (sky.column, sky.square.column) == (8, 19)
    assert isinstance(move, MoveStep) and (move.column, move.frm.column, move.to.column) == (23, 28, 31)
    assert isinstance(build, BuildStep) and build.targets[0].square.name == "e4"
    assert turn.end_column == len("Boris: skyscraper c3; move d2-d3; build e4") + 1
    turn = parse("Anna: force d4-e5; move c3-d4; build c4, c5=roof  # push")
    assert isinstance(turn.steps[0], ForceStep)
    target = turn.steps[2].targets[1]
    assert (target.claim, target.claim_column) == (4, 45) and turn.end_column == 49
    assert parse("Anna: loses c2") == LossLine(NameRef("Anna", 1), parse("Anna: loses c2").square, 7)


def test_aliases_and_case() -> None:
    assert statement_text(parse("Anna: Moves B2-C2; Builds C1=Rooftop")) == "Anna: move b2-c2; build c1=roof"
    assert statement_text(parse("Anna: forces b2-c2; move c3-b2; build b3 = 2")) == (
        "Anna: force b2-c2; move c3-b2; build b3=2"
    )
    assert statement_text(parse("Anna: lose b2")) == "Anna: loses b2"
    # a rooftop is the fourth level: '=4' is the documented alias of '=roof' (docs/santorini-new-york.md)
    assert statement_text(parse("Anna: move b2-c2; build c1=4")) == "Anna: move b2-c2; build c1=roof"
    assert statement_text(parse("Anna: move b2-c2; build c1=5")) == "Anna: move b2-c2; build c1=5"
    assert statement_text(parse("PLAY: Anna ironworker 6, Boris fire fighter 2")) == (
        "play: Anna Iron Worker 6, Boris Firefighter 2"
    )
    assert parse("hand Anna: nypd 3, police officer 7, tour bus 4, taxi 8, nightguard 11").cards[2].profession == (
        "Tour Bus Driver"
    )


def test_players_named_like_keywords() -> None:
    assert parse('"place": move a1-a2; build a3').player.name == "place"
    assert parse("move: move a1-a2; build a3").player.name == "move"
    assert [e.player.name for e in parse("play: place Engineer 1, win Iron Worker 6").entries] == ["place", "win"]
    assert parse("hand round: ?, ?, ?, ?, ?").player.name == "round"
    assert parse("win: play").players[0].name == "play"
    assert statement_text(parse('"win": loses a1')) == '"win": loses a1'
    assert error("place: move a1-a2")[0] == "syntax"  # a line opening with a keyword is that statement
    assert parse('"Anna K.": move a1-a2; build a3').player.name == "Anna K."


def test_final_is_no_statement_keyword() -> None:
    """Ruling 17 reserves place, skyscraper, hand, round, play and win only: a player named Final writes turns
    unquoted, and ``final:`` with player entries stays the common claim."""
    turn = parse("Final: move d8-c8; build d9")
    assert isinstance(turn, TurnLine) and turn.player == NameRef("Final", 1)
    assert [step.column for step in turn.steps] == [8, 20]
    loss = parse("final: loses c2")
    assert isinstance(loss, LossLine) and loss.player == NameRef("final", 1) and loss.square.column == 14
    claim = parse("final: Final 3")
    assert isinstance(claim, FinalClaim) and claim.entries[0].player.name == "Final"
    assert statement_text(turn) == "Final: move d8-c8; build d9"
    # the piecewise readers agree with the whole grammar, in every spelling
    parser = SantoriniNewYork.parser()
    for line in ("FINAL: move a1-a2; build a3", "  final :  move a1-a2 ;build a3", "final: Anna 3, Boris 1"):
        assert parser.parse(line) == parser.parse_whole(line)


def test_a_player_named_final_plays_a_whole_game() -> None:
    rng = random.Random(7)
    text = play_record(["Final", "Boris"], rng, SNYOptions(), {})
    assert "\nFinal: " in text and '"Final"' not in text
    (report,) = check_text(text)
    assert report.verdict is Verdict.VALID, report.error


def test_every_statement_prints_back_as_itself() -> None:
    for line in (
        "place: Anna b2 d4, Boris d2 b4",
        "skyscraper: e4",
        "hand Anna: Engineer 1, ?, Subway Operator 20",
        "round 12",
        "play: Anna Iron Worker 6, Boris Engineer 5",
        "win: Anna",
        "final: Anna 3",
        "Anna: build b2; move b2-b3; build a3",
        "Anna: move c2-c3; build d3; force d4-d5",
        "Anna: move b2-c2; build c1, b1",
        "Anna: loses c2",
        '"Anna K.": move a1-a2; build a3=roof',
    ):
        assert statement_text(parse(line)) == line


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ("Anna move b2-c2", "missing-colon", 6),
        ("play Anna Engineer 1", "missing-colon", 6),
        ("Anna: jump b2-c2", "unknown-action", 7),
        ("Anna: pass", "unknown-action", 7),
        ("round", "missing-number", 6),
        ("play: Anna Engineer", "missing-number", 20),
        ("final: Anna", "missing-number", 12),
        ("place: Anna b2", "syntax", 15),
        ("Anna: move b2 c2", "syntax", 15),
        ("Anna: loses c2; move a1-a2", "syntax", 15),
        ("Anna: build c2=", "syntax", 16),
        ("play: Anna ?", "syntax", 12),
        ("play: Anna Enginer 1", "unknown-card", 12),
        ("hand Anna: Iron Wroker 2", "unknown-card", 12),
    ],
)
def test_syntax_errors_say_where_reading_stops(line: str, code: str, column: int) -> None:
    assert error(line) == (code, column)


def test_an_unknown_profession_suggests_the_nearest() -> None:
    with pytest.raises(RefereeError) as caught:
        parse("play: Anna Subway Operater 4")
    assert "did you mean 'Subway Operator'" in caught.value.message


def test_blank_and_comment_lines_are_nothing() -> None:
    assert not parse("   # a comment")
    assert not parse("")
