"""A Hypothesis state machine per game and configuration, mixing legal and illegal statements.

Rules: ``legal`` plays one statement the generator reports legal (it must be accepted); ``illegal`` offers one it
reports illegal (it must be rejected, the position unchanged); ``fast_forward`` plays up to 40 statements of the
step policy to reach later rounds quickly. After every rule the game's invariants (the adapter's checker) hold and,
unless the game is over, someone can act. On failure the statements so far (and the offending one) are written as a
counterexample record.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from properties.adapters import case_id, cases
from properties.profiles import PROPS
from referee.errors import RefereeError
from referee.testkit import NAMES, Config, GameAdapter, save_counterexample


def machine_for(adapter: GameAdapter, config: Config) -> type[RuleBasedStateMachine]:
    class GameMachine(RuleBasedStateMachine):
        @initialize(n=st.sampled_from(adapter.player_counts()), seed=st.integers(0, 2**31 - 1))
        def start(self, n: int, seed: int) -> None:
            self.players = NAMES[:n]
            self.rng = random.Random(seed)
            self.state = config.game.new_state(self.players, config.options)
            self.history: list = []
            self.checker = adapter.checker(config, self.players)

        def _apply(self, statement, expect_legal: bool) -> None:
            before = self.state.fingerprint()
            try:
                if expect_legal and self.checker is not None:
                    self.checker.before(self.state, statement)
                self.state.apply(statement)
            except RefereeError as error:
                if expect_legal:
                    self._fail(statement, f"reported legal, rejected: [{error.code}] {error.message}")
                if self.state.fingerprint() != before:
                    self._fail(statement, f"rejected [{error.code}] but the position changed")
                return
            if not expect_legal:
                self._fail(statement, "reported illegal, accepted")
            self.history.append(statement)
            if self.checker is not None:
                try:
                    self.checker.after(self.state, statement)
                except AssertionError as error:
                    self._fail(None, str(error))

        def _fail(self, statement, why: str) -> None:
            lines = [adapter.text(s) for s in self.history]
            if statement is not None:
                lines.append(adapter.text(statement))
            save_counterexample(config, self.players, lines, "state-machine", [f"the last line: {why}"])
            raise AssertionError(f"{adapter.text(statement) if statement is not None else 'last line'}: {why}")

        def _live(self) -> bool:
            return adapter.legal_moves(self.state, self.rng, self.history) != []

        @precondition(lambda self: self._live())
        @rule(pick=st.integers(0, 10**6))
        def legal(self, pick: int) -> None:
            moves = adapter.legal_moves(self.state, self.rng, self.history)
            self._apply(moves[pick % len(moves)], expect_legal=True)

        @rule(pick=st.integers(0, 10**6))
        def illegal(self, pick: int) -> None:
            moves = adapter.illegal_moves(self.state, self.rng, self.history)
            if moves:
                self._apply(moves[pick % len(moves)], expect_legal=False)

        @precondition(lambda self: self._live())
        @rule(steps=st.integers(1, 40))
        def fast_forward(self, steps: int) -> None:
            for _ in range(steps):
                statement = adapter.step(self.state, self.rng, self.history)
                if statement is None:
                    return
                self._apply(statement, expect_legal=True)

        @invariant()
        def someone_can_act(self) -> None:
            if "someone-can-act" in getattr(adapter, "open_issues", {}):
                return  # a known finding, tested (xfail) in test_generic.py
            if not adapter.has_legal_action(self.state):
                self._fail(None, "the player to act has no legal action")

    GameMachine.__name__ = f"Machine_{config.label.replace('/', '_').replace('-', '_').replace(' ', '_')}"
    return GameMachine


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_state_machine(case) -> None:
    adapter, config = case
    broken = [prop for prop, variants in adapter.known_broken.items() if config.variant in variants]
    original = adapter.checker

    def checker(cfg, players):
        made = original(cfg, players)
        if made is not None and broken and hasattr(made, "only"):
            made.only -= set(broken)
        if made is not None and hasattr(made, "only"):
            made.only -= set(getattr(adapter, "open_issues", {}))
        return made

    adapter_view = _Overlay(adapter, checker=checker)
    run_state_machine_as_test(machine_for(adapter_view, config), settings=PROPS)


class _Overlay:
    """The adapter with some attributes replaced (here: a checker leaving out expected failures)."""

    def __init__(self, inner: GameAdapter, **overrides) -> None:
        self._inner = inner
        self.__dict__.update(overrides)

    def __getattr__(self, name: str):
        return getattr(self._inner, name)
