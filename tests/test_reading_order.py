"""Within one line, the first problem in reading order is the one reported (record format section 1), at its column
(section 5): an unknown player before an unknown card or a number too large, a Santorini: New York number too large
(a card's, a build claim's) at the number — read with the other numbers, never left to int() or to the judging."""

from __future__ import annotations

import pytest

from referee.replay import check_text

HEADS = {
    "sp": """[Game "Saint Petersburg"]
[Players "Anna, Boris"]

tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
""",
    "sj": """[Game "San Juan"]
[Players "Anna, Boris"]

governor: Anna
hand Anna: Smithy, Well, Sugar Mill, Tower
hand Boris: Indigo Plant, Quarry, Chapel, Hero
Anna: builder
""",
    "sny": """[Game "Santorini: New York"]
[Players "Anna, Boris"]
[Board "square-5x5"]

place: Anna b2 d4, Boris d2 b4
hand Anna: Engineer 1, Iron Worker 2, NYPD Officer 3, Subway Operator 4, Engineer 5
hand Boris: Iron Worker 6, NYPD Officer 7, Subway Operator 8, Engineer 9, Iron Worker 10
""",
}
SNY_PLAY = "play: Anna Engineer 1, Boris Iron Worker 6\n"
BIG = "9" * 5000  # past int()'s 4,300-digit limit: a conversion would fail, not judge


@pytest.mark.parametrize(
    ("game", "line", "code", "column"),
    [
        ("sp", "Zed: buy Foo", "unknown-player", 1),
        ("sp", "Zed: buy Shepherd for 99999999999", "unknown-player", 1),
        ("sp", "Anna: buy Foo for 99999999999", "unknown-card", 11),
        ("sp", "score: Anna +6R, Zed +99999999999R", "unknown-player", 18),
        ("sj", "Zed: build Foo", "unknown-player", 1),
        ("sj", "final: Zed 9999999999, Anna 3", "unknown-player", 8),
        ("sj", '"Zed": build Smithy paying Fooo', "unknown-player", 1),
        ("sj", "Anna: build Smithy paying Well, Fooo", "unknown-card", 33),
        ("sny", "play: Zed Engineer 99999999999, Boris Iron Worker 6", "unknown-player", 7),
        ("sny", "play: Zed Enginer 1, Boris Iron Worker 6", "unknown-player", 7),
        ("sny", "play: Anna Engineer 99999999999, Boris Foo 6", "number-too-large", 21),
        ("sny", f"play: Anna Engineer {BIG}, Boris Iron Worker 6", "number-too-large", 21),
        ("sny", SNY_PLAY + "Zed: skyscraper e5; move d4-d3; build c3=9999999999", "unknown-player", 1),
        ("sny", SNY_PLAY + "Anna: skyscraper e5; move d4-d3; build c3=9999999999", "number-too-large", 43),
        ("sny", SNY_PLAY + f"Anna: skyscraper e5; move d4-d3; build c3={BIG}", "number-too-large", 43),
        ("sny", SNY_PLAY + "Anna: skyscraper e5; move d4-d3; build c3=7", "sny-build-claim", 43),
        ("sny", SNY_PLAY + f"Anna: skyscraper e5; move d4-d{BIG}; build c3", "sny-no-such-space", 30),
    ],
)
def test_the_first_problem_of_a_line_in_reading_order(game: str, line: str, code: str, column: int) -> None:
    (report,) = check_text(HEADS[game] + line + "\n")
    assert report.error is not None, report.verdict
    assert (report.error.kind.code, report.error.line, report.error.column) == (
        code,
        HEADS[game].count("\n") + line.count("\n") + 1,
        column,
    ), report.error


@pytest.mark.parametrize(
    ("tags", "code", "line", "column"),
    [
        ('[Deck "Engineer, Iron Worker, Crane Operator, Subway Operator"]\n[Board "nope"]', "sny-deck-mix", 3, 7),
        ('[Deck "Engineer, Iron Wroker, NYPD Officer, Subway Operator"]\n[Board "nope"]', "sny-bad-deck", 3, 18),
        ('[DeckList "nope"]\n[Board "nope"]', "sny-bad-deck-list", 3, 11),
        ('[Board "nope"]\n[Deck "Engineer, Iron Worker, Crane Operator, Subway Operator"]', "sny-bad-board", 3, 8),
        ('[Board "nope"]\n[DeckList "nope"]', "sny-bad-board", 3, 8),
    ],
)
def test_setup_tags_are_judged_in_file_order(tags: str, code: str, line: int, column: int) -> None:
    """A Santorini: New York Deck tag whose professions cannot make a deck is reported before a Board or DeckList
    tag below it that names no file, and the other way round (record format section 1: tags in file order)."""
    (report,) = check_text(f'[Game "Santorini: New York"]\n[Players "Anna, Boris"]\n{tags}\n')
    assert report.error is not None, report.verdict
    assert (report.error.kind.code, report.error.line, report.error.column) == (code, line, column), report.error
