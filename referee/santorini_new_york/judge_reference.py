"""The reference judge of a turn line, for the tests only: the judge as it was before ``judge.find_turn``.

It lists every legal complete turn of the played card (``professions.legal_turns``: every candidate, then
``engine.settle``) and matches the record's steps against the list, prefix by prefix; the matcher is kept here as it
was. ``tests/test_santorini_differential.py`` checks that ``SNYState.judge_turn`` gives the same verdict, turn, code,
column, message and legal alternatives on generated and mutated lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.santorini_new_york.cards import card_text
from referee.santorini_new_york.codes import SNYCode
from referee.santorini_new_york.engine import Act, Path
from referee.santorini_new_york.judge import Match, Written, explain, ranked, written_steps
from referee.santorini_new_york.notation import TurnLine

if TYPE_CHECKING:
    from referee.santorini_new_york.state import SNYState


def tokens_matched(w: Written, act: Act) -> int:
    """How many leading tokens of a record step agree with an engine step."""
    same_kind = w.kind == act.kind or (act.kind == "compel" and w.kind in ("move", "force"))
    if not same_kind:
        return 0
    values: tuple[int | None, ...] = (act.a, act.b) if act.kind in ("move", "force", "compel") else (act.a,)
    for index, cell in enumerate(w.cells):
        if cell != values[index]:
            return 1 + index
    if w.claim is not None and w.claim != act.level:
        return 1 + len(w.cells)
    return w.size


def match(written: list[Written], legal: list[Path]) -> Match:
    best, sharing = -1, []
    for turn in legal:
        k = 0
        while k < len(written) and k < len(turn.acts) and tokens_matched(written[k], turn.acts[k]) == written[k].size:
            k += 1
        if k == len(written) == len(turn.acts):
            return Match(turn)
        if k > best:
            best, sharing = k, [turn]
        elif k == best:
            sharing.append(turn)
    if best == len(written):
        return Match(None, best, 0, tuple(sharing))
    following = [turn.acts[best] for turn in sharing if len(turn.acts) > best]
    token = max((tokens_matched(written[best], act) for act in following), default=0)
    return Match(None, best, token, tuple(sharing))


def reference_turn(state: SNYState, st: TurnLine) -> tuple[int, Path]:
    """The seat and the legal turn a line is, or its error raised: the list of legal turns, then the match."""
    seat = state._turn_seat(st.player)
    legal = state.legal_turns()
    written = written_steps(st.steps, state.board)
    card = card_text(state.played[seat])
    if not legal:
        raise state.fail(
            SNYCode.MUST_LOSE,
            f"{card} allows {state.players[seat]} no complete turn with either worker: the line is 'loses SQ'",
            written[0].columns[0],
        )
    found = match(written, legal)
    if found.turn is None:
        failure = explain(state.context(seat), state.pos, written, found, st.end_column, card)
        error = state.fail(failure.kind, failure.message, failure.column)
        error.alternatives = [state.turn_line(seat, turn) for turn in ranked(legal, written)[:40]]
        raise error
    return seat, found.turn
