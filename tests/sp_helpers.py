"""Shared helpers of the Saint Petersburg rules tests.

Two ways to set up a position:
- ``judge(body)``: a small hand-written record through ``check_text``; the offending line is marked with ``#!`` so
  ``marked_line`` gives its exact number;
- ``new_state`` / ``acting`` / ``give``: an ``SPState`` driven (or mutated) directly, for focused arithmetic.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from dataclasses import replace

import pytest

from referee.errors import RefereeError, Verdict
from referee.record import split_games
from referee.replay import GameReport, KeepState, Referee, check_text
from referee.saint_petersburg.cards import PHASES
from referee.saint_petersburg.options import FIRST_EDITION, SECOND_EDITION, SPOptions
from referee.saint_petersburg.parser import make_parser
from referee.saint_petersburg.state import SPState
from referee.turns import clockwise

PARSER = make_parser()

TOKENS = {
    2: "tokens: Anna worker aristocrat, Boris building upgrade",
    3: "tokens: Anna worker upgrade, Boris building, Clara aristocrat",
    4: "tokens: Anna worker, Boris building, Clara aristocrat, Dmitri upgrade",
}
NAMES = ("Anna", "Boris", "Clara", "Dmitri")

# The first round-1 worker phase of the spec's example (2nd edition, 2 players): Anna 23, Boris 24 rubles after it.
ROUND1_WORKERS = """\
tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
Anna: buy Shepherd for 5
Boris: buy Gold Miner for 4
Anna: buy Lumberjack for 3
Boris: buy Lumberjack for 3
score: Anna +6R, Boris +6R
"""
# After ROUND1_WORKERS: the building phase, display upper row as dealt, Boris (building token) acts first.
BUILDING_DEAL = "deal: Market, Warehouse, Pub, Customs House, Observatory, Market, Firehouse, Hospital"


def parse(line: str) -> object:
    return PARSER.parse(line)


def options(**changes: object) -> SPOptions:
    return replace(SECOND_EDITION, **changes)


def first(**changes: object) -> SPOptions:
    return replace(FIRST_EDITION, **changes)


def fresh(n: int = 2, opts: SPOptions = SECOND_EDITION) -> SPState:
    """A state before its 'tokens:' line (for bodies that start with one)."""
    return SPState(list(NAMES[:n]), opts)


def new_state(n: int = 2, opts: SPOptions = SECOND_EDITION, tokens: str | None = None) -> SPState:
    """A state right after its 'tokens:' line."""
    state = SPState(list(NAMES[:n]), opts)
    state.apply(parse(tokens or TOKENS[n]))
    return state


def run(state: SPState, text: str) -> SPState:
    """Apply every non-blank line of ``text``."""
    for line in textwrap.dedent(text).splitlines():
        if not line.strip() or line.strip().startswith("#"):
            continue  # the replay skips these lines before parsing
        state.apply(parse(line))
    return state


def rejects(state: SPState, line: str, code: str) -> RefereeError:
    """``line`` is refused with ``code`` and the state is left untouched."""
    before = state.fingerprint()
    with pytest.raises(RefereeError) as caught:
        state.apply(parse(line))
    assert caught.value.code == code, caught.value.message
    assert state.fingerprint() == before
    return caught.value


def _take_from_deck(state: SPState, name: str) -> None:
    card = state.cards[name]
    if state.decks[card.deck][name] > 0:
        state.decks[card.deck][name] -= 1
        state.deck_size[card.deck] -= 1


def give(state: SPState, seat: int, *names: str, hand: bool = False) -> None:
    """Put cards in a player's area (or hand), taking them out of their decks."""
    player = state.p[seat]
    for name in names:
        card = state.cards[name]
        _take_from_deck(state, name)
        if hand:
            player.hand.append(card)
        else:
            player.area.append(card)
            player.owned[name] += 1


def acting(
    state: SPState,
    phase: str,
    upper: tuple[str, ...] = (),
    lower: tuple[str, ...] = (),
    to_act: int = 0,
    round_: int = 2,
) -> SPState:
    """Jump to the action stage of ``phase`` in round ``round_`` with the given display."""
    state.round = round_
    state.phase_index = PHASES.index(phase)
    state.stage = "acting"
    state.to_act = to_act
    state.passes = 0
    state.deal_allowed = False
    state.display_touched = False
    state.upper = [state.cards[n] for n in upper]
    state.lower = [state.cards[n] for n in lower]
    for name in (*upper, *lower):
        _take_from_deck(state, name)
    return state


def set_deck(state: SPState, deck: str, names: dict[str, int]) -> None:
    state.decks[deck] = Counter(names)
    state.deck_size[deck] = sum(names.values())


def record(body: str, players: str = "Anna, Boris", **tags: str) -> str:
    head = ['[Game "Saint Petersburg"]', f'[Players "{players}"]']
    head += [f'[{name} "{value}"]' for name, value in tags.items()]
    return "\n".join(head) + "\n\n" + textwrap.dedent(body)


def judge(body: str, players: str = "Anna, Boris", **tags: str) -> GameReport:
    reports = check_text(record(body, players, **tags))
    assert len(reports) == 1
    return reports[0]


def final_state(body: str, players: str = "Anna, Boris", **tags: str) -> SPState:
    """The state a record's game ends in (as far as it goes)."""
    (game,) = split_games(record(body, players, **tags))
    keep = KeepState()
    Referee().judge(game, visitor=keep)
    assert keep.state is not None
    return keep.state


def marked_line(text: str, marker: str = "#!") -> int:
    hits = [number for number, line in enumerate(text.splitlines(), start=1) if marker in line]
    assert len(hits) == 1, hits
    return hits[0]


def assert_verdict(
    body: str, verdict: Verdict, code: str | None = None, players: str = "Anna, Boris", **tags: str
) -> GameReport:
    """Judge ``body``; the verdict and code must match, and the error must be on the line marked ``#!``."""
    report = judge(body, players, **tags)
    got = (report.verdict, report.error.code if report.error else None, report.error.line if report.error else None)
    want_line = marked_line(record(body, players, **tags)) if code else None
    assert got == (verdict, code, want_line), (got, report.error and report.error.message)
    return report


def illegal(body: str, code: str, players: str = "Anna, Boris", **tags: str) -> GameReport:
    return assert_verdict(body, Verdict.ILLEGAL, code, players, **tags)


def malformed(body: str, code: str, players: str = "Anna, Boris", **tags: str) -> GameReport:
    return assert_verdict(body, Verdict.MALFORMED, code, players, **tags)


def unfinished(body: str, players: str = "Anna, Boris", **tags: str) -> GameReport:
    return assert_verdict(body, Verdict.UNFINISHED, None, players, **tags)


def finish(state: SPState) -> SPState:
    """End the game now: the end is triggered and every player passes in the upgrade phase."""
    state.end_triggered = True
    holder = state.holder["upgrade"]
    acting(state, "upgrade", to_act=holder, round_=state.round)
    for seat in clockwise(holder, len(state.players)):
        state.apply(parse(f"{state.players[seat]}: pass"))
    assert state.is_terminal()
    return state
