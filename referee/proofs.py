"""z3 proofs of the arithmetic rules, about the referee's own code and rule parameters (``referee prove``).

The core holds the machinery; each game holds its proofs (``Game.proofs_module``, a module with a ``proofs(game,
options, tags, out_dir)`` function). Proofs do not re-type a rule's formula: they run the referee's own code on
symbolic values (z3 integers wrapped so that arithmetic builds z3 terms, and every ``if``/``max`` on a symbolic
condition is explored on both branches). A counterexample that a record can show is written as a record file, judged
by the referee, and its verdict printed. z3 is imported only here, so only ``referee prove`` loads it.

Exit status of ``referee prove``: 0 when every property is proved (or the game has none: it says so), 1 when any
has a counterexample.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import z3

from referee.errors import RefereeError
from referee.files import write_named_by_content
from referee.game import GameType
from referee.registry import GAMES, find_game
from referee.resources import USER_POLICY, counterexample_folder
from referee.variant import find_variant, record_tag, resolve_options


@dataclass
class Result:
    name: str
    proved: bool
    values: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    record: Path | None = None
    verdict: str | None = None

    def lines(self) -> list[str]:
        if self.proved:
            return [f"  proved          {self.name}"]
        shown = ", ".join(f"{k}={v}" for k, v in self.values.items())
        out = [f"  counterexample  {self.name}: {shown}" + (f" ({self.detail})" if self.detail else "")]
        if self.record is not None:
            out.append(f"                  record {self.record}: referee verdict {self.verdict}")
        elif self.verdict:
            out.append(f"                  {self.verdict}")
        return out


# ------------------------------------------------------------------------------------ symbolic execution
class Paths:
    """Chooses the branch of every symbolic condition met while the referee's code runs (depth-first)."""

    def __init__(self, prefix: list[bool]) -> None:
        self.prefix = list(prefix)
        self.pos = 0
        self.condition: list[Any] = []

    def decide(self, condition: z3.BoolRef) -> bool:
        if self.pos < len(self.prefix):
            choice = self.prefix[self.pos]
        else:
            choice = True
            self.prefix.append(True)
        self.pos += 1
        self.condition.append(condition if choice else z3.Not(condition))
        return choice


class SymBool:
    def __init__(self, term: z3.BoolRef, paths: Paths) -> None:
        self.term, self.paths = term, paths

    def __bool__(self) -> bool:
        return self.paths.decide(self.term)


class Sym:
    """A z3 integer the referee's code can compute with."""

    def __init__(self, term: Any, paths: Paths) -> None:
        self.term, self.paths = term, paths

    def _wrap(self, term: Any) -> Sym:
        return Sym(term, self.paths)

    @staticmethod
    def _t(value: Any) -> Any:
        return value.term if isinstance(value, Sym) else value

    def __add__(self, o: Any) -> Any:
        return self._wrap(self.term + self._t(o))

    def __radd__(self, o: Any) -> Any:
        return self._wrap(self._t(o) + self.term)

    def __sub__(self, o: Any) -> Any:
        return self._wrap(self.term - self._t(o))

    def __rsub__(self, o: Any) -> Any:
        return self._wrap(self._t(o) - self.term)

    def __mul__(self, o: Any) -> Any:
        return self._wrap(self.term * self._t(o))

    __rmul__ = __mul__

    def __neg__(self) -> Any:
        return self._wrap(-self.term)

    def __floordiv__(self, o: Any) -> Any:
        return self._wrap(self.term / self._t(o))

    def __eq__(self, o: Any) -> Any:
        return SymBool(self.term == self._t(o), self.paths)

    def __ne__(self, o: Any) -> Any:
        return SymBool(self.term != self._t(o), self.paths)

    __hash__ = None  # type: ignore[assignment]

    def __gt__(self, o: Any) -> Any:
        return SymBool(self.term > self._t(o), self.paths)

    def __ge__(self, o: Any) -> Any:
        return SymBool(self.term >= self._t(o), self.paths)

    def __lt__(self, o: Any) -> Any:
        return SymBool(self.term < self._t(o), self.paths)

    def __le__(self, o: Any) -> Any:
        return SymBool(self.term <= self._t(o), self.paths)


def symbolic(run: Callable[[Paths], Any]) -> z3.ArithRef:
    """The value ``run`` computes, as one z3 term over every path through the code."""
    results = []
    prefix: list[bool] = []
    while True:
        paths = Paths(prefix)
        out = run(paths)
        results.append((z3.And(*paths.condition) if paths.condition else z3.BoolVal(True), Sym._t(out)))
        taken = paths.prefix[: paths.pos]
        while taken and taken[-1] is False:
            taken.pop()
        if not taken:
            break
        taken[-1] = False
        prefix = taken
    term = z3.IntVal(results[-1][1]) if isinstance(results[-1][1], int) else results[-1][1]
    for condition, value in reversed(results[:-1]):
        term = z3.If(condition, value, term)
    return term


def refute(solver: z3.Solver, claim: z3.BoolRef) -> z3.ModelRef | None:
    """None when ``claim`` holds under the solver's assumptions, else a model breaking it."""
    solver.push()
    solver.add(z3.Not(claim))
    found = solver.model() if solver.check() == z3.sat else None
    solver.pop()
    return found


# ------------------------------------------------------------------------------------------ registry + CLI
Prover = Callable[[GameType, Any, dict[str, str], Path], list[Result]]


def prover(game: GameType) -> Prover | None:
    """A game's proofs (its ``proofs_module``'s ``proofs`` function), or None for a game without proofs."""
    if not game.proofs_module:
        return None
    return importlib.import_module(game.proofs_module).proofs  # type: ignore[no-any-return]


def prove(game: GameType, options: Any, tags: dict[str, str], out_dir: Path = Path("counterexamples")) -> list[Result]:
    """Every proof of a game under one set of rule options."""
    proofs = prover(game)
    return proofs(game, options, tags, out_dir) if proofs is not None else []


def write_counterexample(game: GameType, text: str, out_dir: Path) -> tuple[Path, str]:
    """Write a counterexample record (named by its content) and judge it: (path, verdict in words)."""
    from referee.replay import check_file

    path = out_dir / f"prove-{game.id}-{hashlib.sha1(text.encode()).hexdigest()[:8]}.rec"
    write_named_by_content(path, text)
    (report,) = check_file(path)
    verdict = report.verdict.value + (
        f" at line {report.error.line} [{report.error.code}] {report.error.message}"
        if report.error
        else f" after {report.statements} statements (the counterexample is accepted)"
    )
    return path, verdict


@dataclass
class Target:
    """A game under one set of rule options to prove (``options`` None: the game has no proofs), the label and
    record tags naming them, and a variant file its counterexample records need beside them."""

    game: GameType
    options: Any
    label: str
    tags: dict[str, str]
    variant_file: Path | None = None


def targets(game_name: str | None, ruleset: str | None, variant: str | None) -> list[Target]:
    """What to prove: one variant, one ruleset, or every ruleset of every game (a game without proofs once)."""
    if variant is not None:
        found = find_variant(variant, Path.cwd(), USER_POLICY)
        game = find_game(game_name or found.game)
        if game is None:
            raise click.BadParameter(f"unknown game '{game_name or found.game}'")
        options, label = resolve_options(game, ruleset, variant, Path.cwd(), USER_POLICY)
        tag, variant_file = record_tag(found, variant)
        tags: dict[str, str] = {"Ruleset": ruleset or found.ruleset or game.default_ruleset, "Variant": tag}
        return [Target(game, options, label, tags, variant_file)]
    found_game = find_game(game_name) if game_name else None
    if game_name and found_game is None:
        raise click.BadParameter(f"unknown game '{game_name}' (games: {', '.join(GAMES)})")
    games = [found_game] if found_game is not None else list(GAMES.values())
    out: list[Target] = []
    for game in games:
        if not game.proofs_module:
            if ruleset:  # an unknown ruleset is refused, as for any game
                resolve_options(game, ruleset, None)
            out.append(Target(game, None, "", {}))
            continue
        names = [ruleset] if ruleset else list(game.rulesets)
        for name in names:
            options, label = resolve_options(game, name, None)
            out.append(Target(game, options, label, {"Ruleset": name}))
    return out


def run_proofs(game_name: str | None, ruleset: str | None, variant: str | None, output: Path) -> int:
    """``referee prove``: print each property as proved or with its counterexample; the exit status (0 or 1). A game
    without proofs is said to have none (exit 0): nothing is claimed proved for it."""
    failed = done = 0
    try:
        chosen = targets(game_name, ruleset, variant)
    except Exception as error:
        message = getattr(error, "message", str(error))
        raise click.BadParameter(message) from None
    for target in chosen:
        game = target.game
        if target.options is None or prover(game) is None:
            click.echo(f"{game.title} has no proofs")
            continue
        click.echo(f"{game.title} ({target.label})")
        with counterexample_folder(output, target.variant_file) as copied:  # the records name it: beside them
            if copied is not None:
                target.tags["Variant"] = copied
            try:
                results = prove(game, target.options, target.tags, output)
            except RefereeError as problem:  # the rules' data cannot be read (a deck list or board by path)
                raise click.BadParameter(f"{target.label}: {problem.message}") from None
        for result in results:
            done += 1
            failed += not result.proved
            for line in result.lines():
                click.echo(line)
    if failed:
        click.echo(f"{failed} counterexample(s)")
    elif done:
        click.echo("all proved")
    return 1 if failed else 0


__all__ = [
    "Paths",
    "Result",
    "Sym",
    "SymBool",
    "Target",
    "prove",
    "prover",
    "refute",
    "run_proofs",
    "symbolic",
    "write_counterexample",
]
