"""Santorini: New York invariants, checked on random legal games (every player count, any deck, both shipped
boards): no worker on an occupied space, heights only grow, a worker's own move never climbs more than one level,
only the Statue holder wins by climbing, a win ends the game at once, every game ends, and a player always has a
legal statement (or loses a worker). Each game is the generator's; each check is computed here independently of
the engine that chose the moves."""

from __future__ import annotations

import dataclasses
import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.santorini_new_york import SantoriniNewYork
from referee.santorini_new_york.cards import PROFESSIONS
from referee.santorini_new_york.judge import match, written_steps
from referee.santorini_new_york.notation import LossLine, TurnLine, WinClaim
from referee.santorini_new_york.options import SNYOptions
from referee.santorini_new_york.play import Generator
from referee.santorini_new_york.state import OVER, TURNS

KINDS = {kind: [p for p, k in PROFESSIONS.items() if k == kind] for kind in ("Builder", "Specialist", "Mover")}
DECKS = [("Engineer", *combo) for combo in itertools.product(KINDS["Builder"], KINDS["Specialist"], KINDS["Mover"])]
NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena"]
MAX_STATEMENTS = 3_000

games = settings(
    max_examples=12, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


class Watched(Generator):
    """The generator, with every statement it writes checked before and after it is applied."""

    def emit(self, statement) -> None:
        state = self.state
        assert len(self.written) < MAX_STATEMENTS, "the game does not end"
        assert state.is_terminal() or state.legal_statements(), "nobody can act:\n" + state.summary()
        if state.stage == TURNS:
            turns = state.legal_turns()
            assert turns or all(line.split(": ")[1].startswith("loses") for line in state.legal_statements())
            assert isinstance(statement, LossLine) == (not turns)
        before, holder = state.pos, state.holder
        if isinstance(statement, TurnLine):
            turn = match(written_steps(statement.steps, state.board), state.legal_turns()).turn
            assert turn is not None
            check_climbs(state, turn.acts)
        super().emit(statement)
        check_board(before, state.pos)
        if state.stage == OVER and not isinstance(statement, WinClaim) and state.termination.code == "climb":
            assert state.winner == holder, "a player without the Statue won by climbing"
        if state.stage == OVER:
            check_game_is_over(state)


def check_climbs(state, acts) -> None:
    """A worker's own move (and the Night Guard's compelled move) climbs at most one level, whatever the card."""
    height = list(state.pos.height)
    workers = dict(state.pos.workers)
    for act in acts:
        if act.kind in ("move", "compel") and state.options.night_guard_normal_move:
            assert height[act.b] <= height[act.a] + 1, f"a move from level {height[act.a]} to {height[act.b]}"
        if act.kind == "build":
            height[act.a] = min(3, height[act.a] + 1)
        elif act.kind in ("move", "force", "compel"):
            workers[act.b] = workers.pop(act.a)


def check_board(before, after) -> None:
    assert all(a <= b for a, b in zip(before.height, after.height, strict=True)), "a building got lower"
    assert before.roof <= after.roof and before.sky <= after.sky
    assert not set(after.workers) & (after.roof | after.sky), "a worker on an occupied space"
    assert all(after.height[c] == 3 for c in after.roof) and all(after.height[c] == 0 for c in after.sky)


def check_game_is_over(state) -> None:
    """After the win only claims may follow: any other statement is rejected and changes nothing."""
    probe = state.players[0]
    before = state.fingerprint()
    for line in (f"{probe}: loses a1", f"round {state.round + 1}", f"play: {probe} Engineer 1"):
        try:
            state.apply(SantoriniNewYork.parser().parse(line))
        except RefereeError as error:
            assert error.code == "after-end", line
        else:
            raise AssertionError(f"{line!r} accepted after the end")
        assert state.fingerprint() == before


@games
@given(
    seed=st.integers(0, 2**31 - 1),
    players=st.integers(2, 5),
    deck=st.sampled_from(DECKS),
    board=st.sampled_from(["square-5x5", "manhattan"]),
)
def test_random_games_keep_the_invariants(seed: int, players: int, deck: tuple[str, ...], board: str) -> None:
    options = dataclasses.replace(SNYOptions(), deck=deck, board=board)
    generator = Watched(NAMES[:players], random.Random(seed), options)
    generator.run()
    assert generator.state.stage == OVER and generator.state.final_claimed


@games
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 5), deck=st.sampled_from(DECKS))
def test_house_rule_options_keep_the_invariants(seed: int, players: int, deck: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    flips = {
        name: not getattr(SNYOptions(), name)
        for name in (
            "diagonal_adjacency",
            "must_card_fallback",
            "nypd_push_optional",
            "night_guard_normal_move",
            "foreman_if_possible",
            "broadway_one_then_other",
            "tour_bus_any_space",
            "last_player_needs_statue",
        )
        if rng.random() < 0.5
    }
    options = dataclasses.replace(SNYOptions(), deck=deck, board="square-5x5", **flips)
    if rng.random() < 0.5:
        options = dataclasses.replace(options, if_possible_scope="turn")
    Watched(NAMES[:players], random.Random(seed), options).run()


def test_the_generator_is_deterministic_for_a_seed() -> None:
    options = SNYOptions()
    first = SantoriniNewYork.play(NAMES[:3], random.Random(7), options, {})
    second = SantoriniNewYork.play(NAMES[:3], random.Random(7), options, {})
    assert first == second
    assert SantoriniNewYork.play(NAMES[:3], random.Random(8), options, {}) != first
