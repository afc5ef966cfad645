"""What the generic property suites (``properties/``) need from a game, and the plumbing they share.

A game joins every generic suite (playout bound, a legal action always exists, record replay, statement round trip,
legal/illegal agreement, the stateful machine) by naming one ``GameAdapter`` subclass in its ``property_adapter``
("module:Class"); the suites find it through the game registry. Every rule configuration of the game — each ruleset
and each variant shipped in the game's ``variants/`` folder — is tested; nothing else needs to change.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import os
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Generic

from referee.errors import RefereeError
from referee.files import write_named_by_content
from referee.game import GameState, GameType, StateT
from referee.record import is_blank_statement, split_games, write_record
from referee.variant import apply_variant, registered_variants

NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena", "Fyodor"]
HARD_CAP = 20_000  # a playout longer than this is reported as not ending (whatever the stated bound)


@dataclass(frozen=True)
class Config:
    """One rule configuration of a game: a ruleset, possibly with a shipped variant on top."""

    game: GameType
    ruleset: str
    variant: str | None
    options: Any

    @property
    def label(self) -> str:
        return f"{self.game.id}/{self.variant or self.ruleset}"

    def tags(self) -> dict[str, str]:
        tags = {"Ruleset": self.ruleset}
        if self.variant:
            tags["Variant"] = self.variant
        return tags


def configs_of(game: GameType) -> list[Config]:
    """Every ruleset of a game, then every registered variant for it."""
    found = [Config(game, name, None, options) for name, options in game.rulesets.items()]
    for variant in registered_variants().values():
        try:
            options = apply_variant(game, game.ruleset(variant.ruleset), variant)
        except RefereeError:
            continue  # a variant of another game
        found.append(Config(game, variant.ruleset or game.default_ruleset, variant.name, options))
    return found


class GameAdapter(Generic[StateT]):
    """The game-specific half of the generic suites. Override the methods marked *required*."""

    game: GameType
    # property name -> variants expected to break it (a deliberately broken variant, e.g. sp-no-minimum); the
    # suites skip those pairs and ``test_known_broken_variants_are_caught`` asserts that the property does fail.
    known_broken: ClassVar[dict[str, tuple[str, ...]]] = {}

    # -- required ------------------------------------------------------------------------------------------
    def step(self, state: StateT, rng: random.Random, history: list[Any]) -> Any | None:
        """The next statement of a random legal playout (None once the game is over and claimed)."""
        raise NotImplementedError

    def statement_bound(self, players: int, options: Any) -> int | None:
        """The most statements a legal game can have (None: no bound is claimed)."""
        raise NotImplementedError

    def legal_moves(self, state: StateT, rng: random.Random, history: list[Any]) -> list[Any]:
        """Statements the generator reports legal right now (a sample is fine); ``history``: the statements so far.
        The state machine plays one of them, so following them must keep the game going."""
        raise NotImplementedError

    def legal_probes(self, state: StateT, rng: random.Random, history: list[Any]) -> list[Any]:
        """Statements reported legal, tried on a copy of the state only (default: ``legal_moves``)."""
        return self.legal_moves(state, rng, history)

    def illegal_moves(self, state: StateT, rng: random.Random, history: list[Any]) -> list[Any]:
        """Statements the generator reports illegal right now (mutations of legal ones, out-of-turn moves...)."""
        raise NotImplementedError

    def has_legal_action(self, state: StateT) -> bool:
        """The player to act (if any) has at least one legal action."""
        return state.is_terminal() or bool(state.legal_statements())

    def text(self, statement: Any) -> str:
        raise NotImplementedError

    # -- optional --------------------------------------------------------------------------------------------
    def checker(self, config: Config, players: list[str]) -> Checker[StateT] | None:
        """Game-specific invariants checked after every statement of every playout."""
        return None

    def normalise(self, statement: Any) -> Any:
        """A statement with every source position zeroed (two parses of the same text compare equal)."""
        return zero_columns(statement)

    def policies(self) -> dict[str, Callable[[StateT, random.Random, list[Any]], Any | None]]:
        """The playout policies ``referee variant check`` plays each game with (name -> step function): random
        play, and a game may add others that stress its end (e.g. players who pass whenever they may)."""
        return {"random": self.step}

    def player_counts(self) -> list[int]:
        return list(range(self.game.min_players, self.game.max_players + 1))

    def configs(self) -> list[Config]:
        return configs_of(self.game)


class Checker(Generic[StateT]):
    """Observes a game statement by statement; raises AssertionError when an invariant breaks."""

    def before(self, state: StateT, statement: Any) -> None: ...

    def after(self, state: StateT, statement: Any) -> None: ...


def zero_columns(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.name == "column" or f.name.endswith("_column"):
                changes[f.name] = 0
            else:
                changes[f.name] = zero_columns(item)
        return dataclasses.replace(value, **changes)
    if isinstance(value, tuple):
        # (word, column) pairs, like Saint Petersburg's token grants
        if len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], int):
            return (value[0], 0)
        return tuple(zero_columns(v) for v in value)
    return value


# ------------------------------------------------------------------------------------------------- playouts
@dataclass
class Playout:
    """A complete (or capped) game: the statements in record order, and the final state."""

    config: Config
    players: list[str]
    seed: int
    source: str  # "driver" (adapter.step) or "generator" (Game.play)
    statements: list[Any]
    state: GameState
    capped: bool = False


def parse_record_body(game: GameType, text: str) -> list[Any]:
    parser = game.parser()
    (record,) = split_games(text)
    statements = []
    for _, line in record.body:
        assert isinstance(line, str), line  # generated records are text
        statement = parser.parse(line)
        if not is_blank_statement(statement):
            statements.append(statement)
    return statements


def drive(
    adapter: GameAdapter[Any],
    config: Config,
    players: list[str],
    seed: int,
    on_state: Callable[[GameState, list[Any]], None] | None = None,
    cap: int = HARD_CAP,
) -> Playout:
    """A random legal playout by the adapter's step policy, stopped after ``cap`` statements."""
    rng = random.Random(seed)
    state = config.game.new_state(players, config.options)
    history: list[Any] = []
    while True:
        if on_state is not None:
            on_state(state, history)
        if len(history) >= cap:
            return Playout(config, players, seed, "driver", history, state, capped=True)
        statement = adapter.step(state, rng, history)
        if statement is None:
            return Playout(config, players, seed, "driver", history, state)
        state.apply(statement)
        history.append(statement)


@lru_cache(maxsize=256)
def _playout_cached(adapter: GameAdapter[Any], config: Config, n: int, seed: int, source: str) -> Playout:
    players = NAMES[:n]
    if source == "generator":
        text = config.game.play(players, random.Random(seed), config.options, config.tags())
        statements = parse_record_body(config.game, text)
        state = config.game.new_state(players, config.options)
        for statement in statements:
            state.apply(statement)
        return Playout(config, players, seed, source, statements, state)
    return drive(adapter, config, players, seed)


def playout(adapter: GameAdapter[Any], config: Config, n: int, seed: int, source: str = "driver") -> Playout:
    """A cached playout (the CI profile is derandomised, so the suites share their games)."""
    return _playout_cached(adapter, config, n, seed, source)


def replay(
    adapter: GameAdapter[Any],
    game: Playout,
    checker: Checker[Any] | None,
    each: Callable[[GameState, int], None] | None = None,
) -> GameState:
    """Replay a playout on a fresh state, calling the checker around every statement."""
    state: GameState = game.config.game.new_state(game.players, game.config.options)
    for index, statement in enumerate(game.statements):
        if each is not None:
            each(state, index)
        if checker is not None:
            checker.before(state, statement)
        state.apply(statement)
        if checker is not None:
            checker.after(state, statement)
    if each is not None:
        each(state, len(game.statements))
    return state


def clone(state: StateT) -> StateT:
    return copy.deepcopy(state)


# ------------------------------------------------------------------------------------------ counterexamples
def counterexample_dir() -> Path:
    return Path(os.environ.get("REFEREE_COUNTEREXAMPLES", "counterexamples"))


def _final_run() -> bool:
    """True outside Hypothesis, and in the final (shrunk) replay of a failing Hypothesis example."""
    try:
        from hypothesis.control import _current_build_context, current_build_context

        if _current_build_context.value is None:
            return True
        return bool(current_build_context().is_final)
    except Exception:
        return True


def record_text(
    config: Config, players: list[str], lines: Iterable[str], event: str, comments: Iterable[str] = ()
) -> str:
    tags = {"Game": config.game.title, "Players": ", ".join(players), **config.tags(), "Event": event}
    return write_record(tags, lines, comments, config.game.tag_options)


def save_counterexample(
    config: Config,
    players: list[str],
    lines: Iterable[str],
    prop: str,
    comments: Iterable[str] = (),
    force: bool = False,
) -> Path | None:
    """Write a counterexample record (only in the final, shrunk run of a failing example) and print its path."""
    if not (force or _final_run()):
        return None
    text = record_text(config, players, list(lines), f"referee properties: {prop}", comments)
    digest = hashlib.sha1(text.encode()).hexdigest()[:8]
    slug = "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in f"{config.label}-{prop}").strip("-")
    folder = counterexample_dir()
    path = folder / f"{slug}-{digest}.rec"
    write_named_by_content(path, text)
    message = f"counterexample record written to {path}"
    print(message)
    try:
        from hypothesis import note

        note(message)
    except Exception:
        pass
    return path


def guarded(
    adapter: GameAdapter[Any], game: Playout, prop: str, body: Callable[[], None], upto: int | None = None
) -> None:
    """Run a property body; on failure save the playout (up to statement ``upto``) as a record and re-raise."""
    try:
        body()
    except AssertionError as error:
        statements = game.statements if upto is None else game.statements[:upto]
        save_counterexample(
            game.config,
            game.players,
            (adapter.text(s) for s in statements),
            prop,
            [f"{prop} failed (seed {game.seed}, {game.source}): {error}"],
        )
        raise


class FailedAt(AssertionError):
    """An invariant broke right after statement ``index`` (0-based) of a playout."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"after statement {index + 1}: {message}")
        self.index = index


class ScriptedAdapter(GameAdapter[StateT]):
    """For a game whose generator cannot be stepped (San Juan keeps its hidden cards in the generator): the step
    policy follows a record ``Game.play`` writes, parsed back; the legal move is the record's next statement.
    Subclasses add ``illegal_moves`` (and may add ``legal_probes``)."""

    def __init__(self) -> None:
        self._scripts: list[tuple[list[Any], list[Any]]] = []  # (first statements, script), most recent last

    def script_for(self, state: StateT, rng: random.Random | None, history: list[Any]) -> list[Any] | None:
        """The record this game follows: attached to the state, or (for a replayed copy) found by its history."""
        attached: list[Any] | None = getattr(state, "_property_script", None)
        if attached is not None:
            return attached
        if history:
            for _head, known in reversed(self._scripts):
                if len(known) >= len(history) and bool(known[: len(history)] == history):
                    return list(known)
            return None
        if rng is None:
            return None
        text = self.game.play(list(state.players), rng, getattr(state, "options", None), {})
        script = parse_record_body(self.game, text)
        self._scripts.append((script[:3], script))
        del self._scripts[:-64]
        state._property_script = script  # type: ignore[attr-defined]
        return script

    def step(self, state: StateT, rng: random.Random, history: list[Any]) -> Any | None:
        script = self.script_for(state, rng, history)
        if script is None or len(history) >= len(script):
            return None
        return script[len(history)]

    def legal_moves(self, state: StateT, rng: random.Random, history: list[Any]) -> list[Any]:
        script = self.script_for(state, rng, history)
        if script is None or len(history) >= len(script):
            return []
        return [script[len(history)]]
