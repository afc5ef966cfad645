"""Santorini: New York test scenarios: a turn judged on a position drawn as text.

The other ``test_santorini_*`` modules import ``scenario``, ``accept``, ``reject`` and ``legal`` from here; the tests
below check the drawing itself (a position drawn by the summary reads back the same).
"""

from __future__ import annotations

import dataclasses

import pytest

from referee.errors import RefereeError
from referee.santorini_new_york import SantoriniNewYork
from referee.santorini_new_york.cards import PROFESSIONS, shipped_deck_list
from referee.santorini_new_york.options import SNYOptions
from referee.santorini_new_york.state import TURNS, SNYState
from referee.santorini_new_york.view import draw_board, read_drawing

FIRST_OF_KIND = {"Builder": "Iron Worker", "Specialist": "NYPD Officer", "Mover": "Subway Operator"}


def card_of(profession: str) -> tuple[str, int]:
    """The lowest-numbered card of a profession in the provisional deck list."""
    return (profession, shipped_deck_list("provisional").numbers[profession][0])


def deck_with(*professions: str) -> tuple[str, ...]:
    """The first-game deck with the given professions in place of their kind's default."""
    chosen = dict(FIRST_OF_KIND)
    for profession in professions:
        if PROFESSIONS[profession] != "Engineer":
            chosen[PROFESSIONS[profession]] = profession
    return ("Engineer", chosen["Builder"], chosen["Specialist"], chosen["Mover"])


def scenario(
    drawing: str,
    profession: str,
    *,
    players: tuple[str, ...] = ("Anna", "Boris"),
    seat: int = 0,
    holder: int | None = None,
    board: str = "square-5x5",
    **changes: object,
) -> SNYState:
    """A game at the turn of ``players[seat]``, who played the first card of ``profession``, on the drawn position
    (rows north first: ``0`` a level, ``1A`` a worker of the first player, ``3R`` a rooftop, ``S`` a skyscraper)."""
    options = dataclasses.replace(SNYOptions(), board=board, deck=deck_with(profession), **changes)
    state = SantoriniNewYork.new_state(list(players), options)
    state.pos = read_drawing(state.board, drawing)
    state.pairs = {s: 1 + s for s in range(len(players))}
    state.dealt = set(range(len(players)))
    state.stage, state.played, state.order, state.turn = TURNS, {seat: card_of(profession)}, [seat], 0
    state.holder = holder
    return state


def accept(state: SNYState, line: str) -> SNYState:
    state.apply(SantoriniNewYork.parser().parse(line))
    return state


def reject(state: SNYState, line: str) -> tuple[str, int]:
    """The code and column of the error a line gets (the state must stay as it was)."""
    before = state.fingerprint()
    with pytest.raises(RefereeError) as caught:
        accept(state, line)
    assert state.fingerprint() == before, "a rejected line changed the state"
    return caught.value.code, caught.value.column


def legal(state: SNYState) -> set[str]:
    """The legal turns of the player to act, as record lines."""
    return set(state.legal_statements())


def col(line: str, token: str, occurrence: int = 1) -> int:
    """The 1-based column of the n-th occurrence of a token in a line."""
    start = -1
    for _ in range(occurrence):
        start = line.index(token, start + 1)
    return start + 1


EMPTY = """
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
"""


def test_a_drawing_reads_back_as_drawn() -> None:
    state = scenario(
        """
        0 1 2 3R S
        0 1A 2B 3 0
        0 0 0 0 0
        0 0 0 0 0
        0 0 0 0 0
        """,
        "Night Guard",
    )
    text = "\n".join(draw_board(state.board, state.pos))
    again = read_drawing(state.board, text)
    assert again.key() == state.pos.key()
    assert state.pos.height[state.board.cell("d5")] == 3 and state.board.cell("d5") in state.pos.roof
    assert state.pos.workers == {state.board.cell("b4"): 0, state.board.cell("c4"): 1}
    assert state.board.cell("e5") in state.pos.sky


def test_a_drawing_must_match_the_board() -> None:
    with pytest.raises(ValueError):
        scenario("0 0 0", "Night Guard")
    with pytest.raises(ValueError):  # manhattan: a1 is a void cell
        scenario("\n".join(["0 0 0 0 0 0"] * 9), "Night Guard", board="manhattan")


def test_col_finds_tokens() -> None:
    assert col("Anna: move b2-c2; build c2", "c2", 2) == 25


# ------------------------------------------------------------------------------------------------ whole records
FIRST_DEAL = {
    "Anna": "Engineer 1, Iron Worker 2, NYPD Officer 3, Subway Operator 4, Engineer 5",
    "Boris": "Iron Worker 6, NYPD Officer 7, Subway Operator 8, Engineer 9, Iron Worker 10",
}


class Script:
    """A record written line by line, each line judged as it is added; ``turns()`` writes every turn of the round
    (the first legal turn, or a loss). ``text()`` is the record; ``mutated`` swaps one line for another."""

    def __init__(self, players: tuple[str, ...] = ("Anna", "Boris"), tags: dict[str, str] | None = None) -> None:
        from referee.record import split_games
        from referee.replay import setup

        self.head = {"Game": "Santorini: New York", "Players": ", ".join(players), "Board": "square-5x5"}
        self.head.update(tags or {})
        self.lines: list[str] = []
        (record,) = split_games(self.text())
        _, self.state, _ = setup(record)

    def text(self, lines: list[str] | None = None) -> str:
        from referee.record import write_record
        from referee.santorini_new_york.options import TAG_OPTIONS

        return write_record(self.head, self.lines if lines is None else lines, game_tags=TAG_OPTIONS)

    def add(self, *lines: str) -> Script:
        for line in lines:
            accept(self.state, line)
            self.lines.append(line)
        return self

    def turns(self) -> Script:
        while self.state.stage == TURNS:
            self.add(self.state.legal_statements()[0])
        return self

    def line_of(self, text: str) -> int:
        """The file line of the last body line that starts with ``text``."""
        full = self.text().splitlines()
        return max(i for i, line in enumerate(full, 1) if line.startswith(text))

    def judged(self, *extra: str):
        from referee.replay import check_text

        (report,) = check_text(self.text([*self.lines, *extra]))
        return report

    def last_line(self) -> int:
        return len(self.text().splitlines())


def two_player_opening() -> Script:
    return Script().add(
        "place: Anna b2 d4, Boris d2 b4", f"hand Anna: {FIRST_DEAL['Anna']}", f"hand Boris: {FIRST_DEAL['Boris']}"
    )
