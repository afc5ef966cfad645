"""The reference judge of a turn line, for the tests only: the judge as it was before ``judge.find_turn``.

It lists every legal complete turn of the played card (``professions.legal_turns``: every candidate, then
``engine.settle``) and matches the record's steps against the list, prefix by prefix — what the referee itself does
only for a line ``find_turn`` found illegal (``SNYState._judge_on_the_list``). ``tests/test_santorini_differential.py``
checks that ``SNYState.judge_turn`` gives the same verdict, turn, code, column, message and legal alternatives on
generated and mutated lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.santorini_new_york.engine import Path
from referee.santorini_new_york.judge import written_steps
from referee.santorini_new_york.notation import TurnLine

if TYPE_CHECKING:
    from referee.santorini_new_york.state import SNYState


def reference_turn(state: SNYState, st: TurnLine) -> tuple[int, Path]:
    """The seat and the legal turn a line is, or its error raised: the list of legal turns, then the match."""
    seat = state._turn_seat(st.player)
    return seat, state._judge_on_the_list(seat, st, written_steps(st.steps, state.board))
