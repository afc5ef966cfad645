"""What a house rule does to the game: ``referee variant diff`` (the same games judged under two rule sets) and
``referee stats`` (balance figures of seeded games played under a rule set).

A *rule set* is a ruleset name (``2nd edition``), a registered variant (``sp-rich-start``) or a variant file; it is
laid over a record the way ``regress --house-rule`` lays a house rule, with claims noted rather than stopping the
replay (``Referee(check_claims=False)``), so that claims written for one rule set do not drown the comparison.
Everything is seeded and every figure is printed in a fixed order: the same command prints the same output in any
process.
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import RecordCode, illegal, malformed
from referee.game import GameState, GameType
from referee.record import GameRecord, excerpt, iter_games
from referee.registry import GAMES, find_game
from referee.replay import GameReport, Referee, ReplayVisitor, find_records
from referee.resources import USER_POLICY, ReadPolicy
from referee.variant import CARD_OPTION, Variant, apply_variant, find_variant, registered_paths, variant_rules

NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena"]
OUTCOME_CLAIMS = {"final-mismatch", "win-mismatch", "result-mismatch"}  # claims about how the game ended


# ------------------------------------------------------------------------------------------------- rule sets
@dataclass(frozen=True)
class RuleSet:
    """A rule set named on the command line: a house rule (a variant, or a ruleset written as one) to lay over
    records, for one game or — a bare ruleset name — for every game that has that ruleset."""

    label: str
    variant: Variant | None  # None: a ruleset name, made into a variant per game (``for_game``)
    ruleset: str | None = None

    def game(self) -> GameType | None:
        return find_game(self.variant.game) if self.variant is not None else None

    def for_game(self, game: GameType) -> Variant | None:
        """The house rule this rule set lays over a record of ``game`` (None: it does not apply to that game)."""
        if self.variant is not None:
            return self.variant if find_game(self.variant.game) is game else None
        options = game.ruleset(self.ruleset)
        if options is None:
            return None
        values = {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
        if values.get(CARD_OPTION) == ():
            del values[CARD_OPTION]
        values = {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}
        return Variant(self.label, game.id, self.ruleset, f"the {self.label} ruleset", values, None)

    def options(self, game: GameType) -> Any:
        """The options of ``game`` under this rule set (its default ruleset, then the house rule)."""
        variant = self.for_game(game)
        if variant is None:
            raise malformed(RecordCode.BAD_VARIANT, f"{self.label} is no rule set of {game.title}")
        return apply_variant(game, game.ruleset(None), variant)


def rule_set(reference: str, policy: ReadPolicy = USER_POLICY) -> RuleSet:
    """A ruleset name of some game, a registered variant or a variant file (``unknown-variant`` otherwise)."""
    if reference.lower() not in registered_paths() and not Path(reference).suffix:
        for game in GAMES.values():
            if game.ruleset(reference) is not None:
                return RuleSet(reference, None, reference)
    found = find_variant(reference, Path.cwd(), policy)
    variant_rules(found)  # a bad file is refused here, not game after game
    return RuleSet(found.name, found)


# ------------------------------------------------------------------------------------------------------ diff
class Trail(ReplayVisitor):
    """The statements a replay accepted, by line, and the state it ended in."""

    def __init__(self) -> None:
        self.accepted: list[tuple[int, str]] = []
        self.seen: dict[int, str] = {}
        self.state: GameState | None = None

    def before(self, number: int, text: str) -> bool:
        self.seen = {number: text.strip()}  # the line being judged (the last one when the replay stops)
        return True

    def statement(self, number: int, text: str, statement: Any, state: GameState) -> None:
        self.accepted.append((number, text.strip()))

    def end(self, report: GameReport, state: GameState | None) -> None:
        self.state = state


@dataclass
class Judged:
    report: GameReport
    trail: Trail

    def text_at(self, line: int) -> str | None:
        """The record text of a line the replay refused (kept by the visitor)."""
        return self.trail.seen.get(line)

    def noted(self) -> dict[int, str]:
        """Line -> the first claim noted broken there."""
        out: dict[int, str] = {}
        for error in self.report.claims_broken:
            if error.line is not None:
                out.setdefault(error.line, f"[{error.code}] {error.message}")
        return out


@dataclass
class GameDiff:
    """One game judged under two rule sets: what changed, and the first statement judged differently."""

    where: str
    game: str
    changes: list[str]
    first: str

    def lines(self) -> list[str]:
        head = f"{self.where} ({self.game}): " + "; ".join(self.changes)
        return [head, f"  first difference: {self.first}"] if self.first else [head]


def _verdict(report: GameReport) -> str:
    if report.error is not None:
        return f"{report.verdict.value} [{report.error.code}]"
    return report.verdict.value


def _scores(report: GameReport) -> str:
    outcome = report.outcome
    if outcome is None or outcome.scores is None:
        return "-"
    return ", ".join(f"{name} {vp}" for name, vp in outcome.scores.items())


def _winners(report: GameReport) -> str:
    return " & ".join(report.outcome.winners) if report.outcome else "-"


def compare(a: Judged, b: Judged, label_a: str, label_b: str) -> tuple[list[str], str]:
    """(what changed, the first statement judged differently and why) of one game under rule sets A and B."""
    ra, rb = a.report, b.report
    changes = []
    if _verdict(ra) != _verdict(rb):
        changes.append(f"verdict {_verdict(ra)} -> {_verdict(rb)}")
    if _scores(ra) != _scores(rb):
        changes.append(f"scores {_scores(ra)} -> {_scores(rb)}")
    if _winners(ra) != _winners(rb):
        changes.append(f"winner {_winners(ra)} -> {_winners(rb)}")
    notes_a, notes_b = a.noted(), b.noted()
    if not changes and notes_a == notes_b:
        return [], ""
    if notes_a != notes_b and not changes:
        changes.append("claims judged differently")
    return changes, _first_difference(a, b, label_a, label_b, notes_a, notes_b)


def _judged_at(judged: Judged, line: int, notes: dict[int, str]) -> str:
    """How one rule set judged the statement at ``line``."""
    error = judged.report.error
    if error is not None and error.line == line:
        return f"{error.verdict.value} [{error.code}] {error.message}"
    if line in notes:
        return f"accepted, claim noted broken {notes[line]}"
    if any(number == line for number, _ in judged.trail.accepted):
        return "accepted"
    return "not reached"


def _first_difference(
    a: Judged, b: Judged, label_a: str, label_b: str, notes_a: dict[int, str], notes_b: dict[int, str]
) -> str:
    texts = dict(a.trail.accepted) | dict(b.trail.accepted)
    lines_a = [number for number, _ in a.trail.accepted]
    lines_b = [number for number, _ in b.trail.accepted]
    candidates = []
    if lines_a != lines_b:
        common = next((i for i, (x, y) in enumerate(zip(lines_a, lines_b, strict=False)) if x != y), None)
        if common is None:
            common = min(len(lines_a), len(lines_b))
        for judged in (a, b):
            error = judged.report.error
            if error is not None and error.line is not None:
                candidates.append(error.line)
        if common < len(lines_a):
            candidates.append(lines_a[common])
        if common < len(lines_b):
            candidates.append(lines_b[common])
    candidates += list(set(notes_a) ^ set(notes_b))
    candidates += [line for line in set(notes_a) & set(notes_b) if notes_a[line] != notes_b[line]]
    if not candidates:
        n = len(lines_a)
        return f"the same {n} statements accepted under both; the final scoring differs"
    line = min(candidates)
    text = texts.get(line) or a.text_at(line) or b.text_at(line)
    shown = f"line {line}" + (f" {excerpt(text, 80)}" if text else "")
    how = f"{shown}: {_judged_at(a, line, notes_a)} under {label_a}; {_judged_at(b, line, notes_b)} under {label_b}"
    claims = {error.code for each in (a, b) for error in each.report.claims_broken if error.line == line}
    if lines_a == lines_b and claims and claims <= OUTCOME_CLAIMS:
        return f"the same {len(lines_a)} statements accepted under both; the final scoring differs ({how})"
    return how


def judge_under(record: GameRecord, rules: RuleSet, base_dir: Path | None, policy: ReadPolicy) -> Judged | None:
    """One game judged under a rule set laid over it (None: the rule set does not apply to the record's game)."""
    game = find_game(record.tag("Game") or "")
    if game is None:
        return None
    variant = rules.for_game(game)
    if variant is None:
        return None
    trail = Trail()
    report = Referee(policy, variant, check_claims=False).judge(record, base_dir, trail)
    return Judged(report, trail)


def diff_records(
    a: RuleSet, b: RuleSet, records: Iterable[tuple[str, GameRecord, Path | None]], policy: ReadPolicy = USER_POLICY
) -> Iterator[GameDiff | str]:
    """Every game judged under A and B: a ``GameDiff`` for each that changes, the label of each that does not
    apply to both (a string)."""
    for where, record, base_dir in records:
        ja = judge_under(record, a, base_dir, policy)
        jb = judge_under(record, b, base_dir, policy)
        if ja is None or jb is None:
            yield f"{where}: {record.tag('Game') or '?'} has no rule set {a.label if ja is None else b.label}"
            continue
        changes, first = compare(ja, jb, a.label, b.label)
        if changes:
            yield GameDiff(where, ja.report.game or "?", changes, first)


def stored_records(paths: Iterable[str], policy: ReadPolicy) -> Iterator[tuple[str, GameRecord, Path | None]]:
    for source in find_records(paths):
        if source.problem is not None:
            continue
        for record in iter_games(source.lines(policy), source.display):
            yield f"{source.display} #{record.index}", record, source.record_dir


def generated_records(
    game: GameType, rules: RuleSet, games: int, seed: int, players: int
) -> Iterator[tuple[str, GameRecord, Path | None]]:
    """``games`` records ``Game.play`` writes under a rule set (seeds ``seed``, ``seed + 1``, ...)."""
    options = rules.options(game)
    names = NAMES[:players]
    for k in range(games):
        tags = {"Ruleset": game.default_ruleset, "Seed": str(seed + k)}
        text = game.play(names, random.Random(seed + k), options, tags)
        (record,) = list(iter_games(text, f"seed {seed + k}"))
        yield f"seed {seed + k}", record, None


# ----------------------------------------------------------------------------------------------------- stats
def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def spread(values: list[float]) -> dict[str, float]:
    """mean, stdev, min, median, max (rounded to 2 places)."""
    if not values:
        return {}
    return {
        "mean": round(statistics.fmean(values), 2),
        "stdev": round(statistics.stdev(values), 2) if len(values) > 1 else 0.0,
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
    }


@dataclass
class Played:
    """One seeded game: who won, scores by seat, how long, how it ended, the game's own counts."""

    seed: int
    winners: list[int]  # seats
    scores: list[int] | None
    termination: str
    statements: int
    rounds: int | None
    counts: dict[str, Counter[str]] = field(default_factory=dict)

    def row(self, label: str) -> dict[str, Any]:
        return {
            "rules": label,
            "seed": self.seed,
            "winners": [s + 1 for s in self.winners],
            "scores": self.scores,
            "termination": self.termination,
            "statements": self.statements,
            "rounds": self.rounds,
            "counts": {key: dict(sorted(counter.items())) for key, counter in sorted(self.counts.items())},
        }


def play_games(game: GameType, options: Any, games: int, seed: int, players: int) -> list[Played]:
    """Seeded games under a rule set: ``Game.play`` writes each, the referee replays it."""
    from referee.testkit import parse_record_body

    names = NAMES[:players]
    out = []
    for k in range(games):
        text = game.play(names, random.Random(seed + k), options, {})
        statements = parse_record_body(game, text)
        state = game.new_state(names, options)
        for statement in statements:
            state.apply(statement)
        outcome = state.outcome()
        scores = [outcome.scores[name] for name in names] if outcome.scores is not None else None
        rounds = getattr(state, "round", None)
        out.append(
            Played(
                seed + k,
                [names.index(name) for name in outcome.winners],
                scores,
                outcome.termination.code,
                len(statements),
                rounds if isinstance(rounds, int) else None,
                game.stats(statements, state),
            )
        )
    return out


def summary(played: list[Played], players: int) -> dict[str, Any]:
    """The balance figures of a set of games."""
    n = len(played)
    seats = []
    for seat in range(players):
        wins = sum(1 for game in played if seat in game.winners)
        shared = sum(1 for game in played if seat in game.winners and len(game.winners) > 1)
        low, high = wilson(wins, n)
        seats.append(
            {
                "seat": seat + 1,
                "wins": wins,
                "shared": shared,
                "rate": round(wins / n, 3) if n else 0.0,
                "ci95": [round(low, 3), round(high, 3)],
            }
        )
    figures: dict[str, Any] = {"games": n, "players": players, "win rate by seat": seats}
    scored = [game for game in played if game.scores is not None]
    if scored:
        figures["score"] = spread([float(s) for game in scored for s in game.scores or []])
        figures["winning score"] = spread([float(max(game.scores or [0])) for game in scored])
        figures["margin"] = spread([float(_margin(game.scores or [])) for game in scored])
    figures["termination"] = dict(sorted(Counter(game.termination for game in played).items()))
    figures["statements"] = spread([float(game.statements) for game in played])
    rounds = [float(game.rounds) for game in played if game.rounds is not None]
    if rounds:
        figures["rounds"] = spread(rounds)
    counters: dict[str, dict[str, Any]] = {}
    for key in sorted({key for game in played for key in game.counts}):
        totals: Counter[str] = Counter()
        present: Counter[str] = Counter()
        for game in played:
            counter = game.counts.get(key, Counter())
            totals.update(counter)
            present.update(name for name, count in counter.items() if count)
        counters[key] = {
            name: {"per game": round(totals[name] / n, 2), "in games": round(present[name] / n, 3)}
            for name in sorted(totals, key=lambda name: (-totals[name], name))
        }
    figures["counts"] = counters
    return figures


def _margin(scores: list[int]) -> int:
    ranked = sorted(scores, reverse=True)
    return ranked[0] - ranked[1] if len(ranked) > 1 else 0


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _spread_text(figures: dict[str, float]) -> str:
    if not figures:
        return "-"
    return (
        f"mean {_number(figures['mean'])} sd {_number(figures['stdev'])} "
        f"min/med/max {_number(figures['min'])}/{_number(figures['median'])}/{_number(figures['max'])}"
    )


def text_report(columns: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The figures of one or two rule sets side by side, one row per figure."""
    width = 12
    rows: list[tuple[str, list[str]]] = []

    def row(name: str, values: list[str]) -> None:
        rows.append((name, values))

    figures = [f for _, f in columns]
    players = figures[0]["players"]
    row("games", [f"{f['games']} ({f['players']} players)" for f in figures])
    for seat in range(players):
        cells = []
        for f in figures:
            s = f["win rate by seat"][seat]
            shared = f", {s['shared']} shared" if s["shared"] else ""
            cells.append(
                f"{s['rate'] * 100:.1f}% [{s['ci95'][0] * 100:.1f}-{s['ci95'][1] * 100:.1f}] ({s['wins']}{shared})"
            )
        row(f"win rate seat {seat + 1}", cells)
    for key in ("score", "winning score", "margin", "statements", "rounds"):
        if any(key in f for f in figures):
            row(key, [_spread_text(f.get(key, {})) for f in figures])
    kinds = sorted({kind for f in figures for kind in f["termination"]})
    for kind in kinds:
        row(f"ended by {kind}", [str(f["termination"].get(kind, 0)) for f in figures])
    for key in sorted({key for f in figures for key in f["counts"]}):
        names: list[str] = []
        for f in figures:
            names += [name for name in f["counts"].get(key, {}) if name not in names]
        for name in names:
            cells = []
            for f in figures:
                entry = f["counts"].get(key, {}).get(name)
                cells.append(f"{_number(entry['per game'])}/game, in {entry['in games'] * 100:.0f}%" if entry else "-")
            row(f"{key}: {name}", cells)
    names_width = max(len(name) for name, _ in rows) + 2
    cell = max(width, *(len(value) + 2 for _, values in rows for value in values))
    head = " " * names_width + "".join(f"{label:<{cell}}" for label, _ in columns)
    out = [head.rstrip()]
    for name, values in rows:
        out.append((f"{name:<{names_width}}" + "".join(f"{value:<{cell}}" for value in values)).rstrip())
    return out


def default_players(game: GameType, players: int | None) -> int:
    if players is None:
        return min(max(3, game.min_players), game.max_players)
    if not game.min_players <= players <= game.max_players:
        raise illegal(
            RecordCode.PLAYER_COUNT, f"{game.title} takes {game.min_players}-{game.max_players} players, not {players}"
        )
    return players


__all__ = [
    "GameDiff",
    "Played",
    "RuleSet",
    "compare",
    "diff_records",
    "generated_records",
    "play_games",
    "rule_set",
    "stored_records",
    "summary",
    "text_report",
    "wilson",
]
