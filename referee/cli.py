"""The ``referee`` command line: check logs in bulk, score, explain a position, generate games, list rule options."""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

import click

from referee.errors import CATALOGUE, RefereeError, Verdict
from referee.game import option_docs
from referee.record import read_text, split_games
from referee.registry import GAMES, find_game
from referee.replay import GameReport, check_file, record_files, setup
from referee.resources import USER_POLICY
from referee.variant import find_variant, registered_variants, resolve_options

DEFAULT_NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena"]


def _game_arg(name: str) -> type:
    game = find_game(name)
    if game is None:
        raise click.BadParameter(f"unknown game '{name}' (games: {', '.join(GAMES)})")
    return game


def _describe(report: GameReport) -> str:
    head = f"{report.file} #{report.index} {report.game or '?'}: {report.verdict.value}"
    if report.error is not None:
        error = report.error
        head += f" at {error.line}:{error.column} [{error.code}] {error.message}"
    elif report.outcome is not None:
        outcome = report.outcome
        scores = ", ".join(f"{name} {vp}" for name, vp in (outcome.scores or {}).items())
        verb = "wins" if len(outcome.winners) == 1 else "share the win"
        head += f" — {' & '.join(outcome.winners)} {verb}" + (f" ({scores})" if scores else "")
        if outcome.tiebreak:
            head += f"; {outcome.tiebreak}"
    elif report.verdict is Verdict.UNFINISHED:
        head += f" after {report.statements} statements"
    met = report.expectation_met
    if met is not None:
        head += " (as expected)" if met else f" (EXPECTED {report.expectation})"
    return head


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee")
def main() -> None:
    """Referee for board-game records: is this log legal, move by move, and who won?"""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl"]),
    default="text",
    show_default=True,
    help="text: a line per game and a summary; jsonl: one JSON object per game.",
)
@click.option(
    "-v", "--verbose", is_flag=True, help="For each error also print the rule, the state and the legal alternatives."
)
@click.option("--ignore-expect", is_flag=True, help="Judge records by their verdict alone, ignoring Expect tags.")
def check(paths: tuple[Path, ...], fmt: str, verbose: bool, ignore_expect: bool) -> None:
    """Judge every game in PATHS (files, or folders searched for *.rec).

    Exit status: 0 when every game is valid or unfinished (or judged as its Expect tag states), 1 otherwise, 2 for
    usage errors.
    """
    counts: Counter = Counter()
    expected = failed = total = 0
    for path in record_files(paths):
        for report in check_file(path):
            if ignore_expect:
                report.expectation = None
            total += 1
            counts[report.verdict] += 1
            if report.expectation_met:
                expected += 1
            if not report.ok:
                failed += 1
            if fmt == "jsonl":
                click.echo(json.dumps(report.as_dict(), ensure_ascii=False))
                continue
            click.echo(_describe(report))
            if verbose and report.error is not None:
                _print_error_detail(report.error)
    if fmt == "text":
        parts = [f"{counts[v]} {v.value}" for v in Verdict if counts[v]]
        summary = f"{total} game(s): " + (", ".join(parts) or "none")
        if expected:
            summary += f"; {expected} judged as their Expect tag states"
        summary += f"; {failed} problem(s)" if failed else "; all good"
        click.echo(summary)
    sys.exit(1 if failed else 0)


def _print_error_detail(error: RefereeError) -> None:
    click.echo(f"    rule: {error.kind.summary}")
    if error.state:
        click.echo("    state:")
        for line in error.state.splitlines():
            click.echo(f"      {line}")
    if error.alternatives:
        click.echo("    legal here:")
        for alternative in error.alternatives:
            click.echo(f"      {alternative}")


def _snapshot(report: GameReport) -> dict:
    """What a baseline stores of a judged game: enough to see any change in how it is judged."""
    error, outcome = report.error, report.outcome
    return {
        "file": report.file,
        "index": report.index,
        "verdict": report.verdict.value,
        "code": error.code if error else None,
        "line": error.line if error else None,
        "scores": outcome.scores if outcome else None,
        "winners": sorted(outcome.winners) if outcome else None,
    }


def _differences(old: dict, new: dict) -> list[str]:
    return [
        f"{key} {old.get(key)!r} -> {new.get(key)!r}"
        for key in ("verdict", "code", "line", "scores", "winners")
        if old.get(key) != new.get(key)
    ]


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--baseline",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Compare verdicts, codes, lines, scores and winners with this stored run (made with --save).",
)
@click.option(
    "--save",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Store this run as a baseline file (JSON lines); refuses to overwrite an existing file.",
)
@click.option(
    "--house-rule",
    "house_rule",
    default=None,
    help="Judge every record with this variant (registered name or file) laid over its own tags: "
    "what does this house rule change?",
)
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text", show_default=True)
def regress(
    paths: tuple[Path, ...], baseline: Path | None, save: Path | None, house_rule: str | None, fmt: str
) -> None:
    """Rule-regression check: is every stored game still judged as it should be?

    A game must be judged as its Expect tag states (valid or unfinished when it states none); with --baseline, its
    verdict, error code and line, scores and winners must also equal the stored ones. With --house-rule only the
    baseline is compared (Expect tags speak of the record's own rules). Prints the games that differ, then a
    summary. Exit 0 when none differ, 1 otherwise, 2 for usage errors.
    """
    if save is not None and save.exists():
        raise click.UsageError(f"{save} exists; referee never overwrites a file (choose another name)")
    rule = None
    if house_rule is not None:
        try:
            rule = find_variant(house_rule, Path.cwd(), USER_POLICY)
        except RefereeError as error:
            raise click.BadParameter(error.message, param_hint="--house-rule") from None
    stored: dict[tuple[str, int], dict] = {}
    if baseline is not None:
        for number, line in enumerate(baseline.read_text(encoding="utf-8").splitlines(), 1):
            try:
                row = json.loads(line)
                stored[(row["file"], int(row["index"]))] = row
            except (ValueError, KeyError, TypeError):
                raise click.UsageError(f"{baseline}:{number}: not a baseline line (make one with --save)") from None
    snapshots: list[dict] = []
    total = changed = 0
    for path in record_files(paths):
        for report in check_file(path, rule):
            total += 1
            snap = _snapshot(report)
            snapshots.append(snap)
            problems = []
            if not report.ok and rule is None:  # Expect tags state the verdict under the record's own rules
                expected = str(report.expectation) if report.expectation else "valid or unfinished"
                problems.append(f"judged {_describe(report).split(': ', 1)[1]}; expected {expected}")
            old = stored.get((snap["file"], snap["index"]))
            if baseline is not None:
                problems += ["not in the baseline"] if old is None else _differences(old, snap)
            if problems:
                changed += 1
                if fmt == "jsonl":
                    click.echo(json.dumps({**snap, "problems": problems}, ensure_ascii=False))
                else:
                    click.echo(f"{report.file} #{report.index}: " + "; ".join(problems))
    if baseline is not None:
        seen = {(s["file"], s["index"]) for s in snapshots}
        files = {s["file"] for s in snapshots}
        for key in sorted(k for k in set(stored) - seen if k[0] in files):  # a game gone from a judged file
            changed += 1
            click.echo(f"{key[0]} #{key[1]}: in the baseline, no longer found")
    if save is not None:
        save.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in snapshots), encoding="utf-8")
    if fmt == "text":
        suffix = f" with house rule {rule.name}" if rule else ""
        click.echo(
            f"{total} game(s){suffix}: {changed} differ"
            + (f" (baseline {baseline})" if baseline else "")
            + (f"; baseline written to {save}" if save else "")
        )
    sys.exit(1 if changed else 0)


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def score(file: Path) -> None:
    """Final scores of every finished game in FILE, broken down by source, with the tie-break used."""
    failed = False
    for report in check_file(file):
        click.echo(_describe(report))
        if report.outcome is None:
            failed = failed or not report.ok
            continue
        outcome = report.outcome
        for name, parts in outcome.breakdown.items():
            # VP sources are signed; the total and what follows it (tie-break data) are plain
            keys = list(parts)
            cut = keys.index("total") if "total" in keys else len(keys)
            detail = ", ".join(
                f"{key} {parts[key]:+d}" if i < cut else f"{key} {parts[key]}" for i, key in enumerate(keys)
            )
            click.echo(f"  {name}: {detail}")
        click.echo(
            f"  winner(s): {', '.join(outcome.winners)}" + (f" ({outcome.tiebreak})" if outcome.tiebreak else "")
        )
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--line", "line_number", type=int, required=True, help="Show the state just before this line.")
def explain(file: Path, line_number: int) -> None:
    """The state just before line N of FILE and the statements that would be legal there."""
    try:
        records = split_games(read_text(file), str(file))
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(f"{file}:1:1: malformed: cannot read the file as UTF-8 text ({exc})")
        sys.exit(1)
    record = None
    for candidate in records:
        if candidate.first_line <= line_number:
            record = candidate
    if record is None:
        raise click.UsageError(f"line {line_number} is before the first game of {file}")
    cut = [(n, text) for n, text in record.body if n < line_number]
    try:
        game, state, label = setup(record, file.parent)
    except RefereeError as error:
        click.echo(f"{file}:{error.line}:{error.column}: {error.verdict.value} [{error.code}] {error.message}")
        sys.exit(1)
    parser = game.parser()
    for number, text in cut:
        try:
            statement = parser.parse(text)
            if statement:
                state.apply(statement)
        except RefereeError as error:
            click.echo(f"{file}:{number}:{error.column}: {error.verdict.value} [{error.code}] {error.message}")
            click.echo(f"(the game breaks before line {line_number}; the state below is the one before line {number})")
            break
    click.echo(f"{game.title} ({label}), game #{record.index} of {file}, before line {line_number}:")
    for text in state.summary().splitlines():
        click.echo(f"  {text}")
    click.echo("legal here:")
    for text in state.legal_statements():
        click.echo(f"  {text}")


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-n", type=int, default=3, show_default=True, help="Number of players.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Random seed: same seed, same record.")
@click.option("--ruleset", "-r", default=None, help="Ruleset name (default: the game's default).")
@click.option("--variant", default=None, help="House-rule variant: a registered name or a variant file.")
@click.option("--games", "count", type=int, default=1, show_default=True, help="How many games to write.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file (refuses to overwrite one that exists) instead of standard output.",
)
def play(
    game_name: str, players: int, seed: int, ruleset: str | None, variant: str | None, count: int, output: Path | None
) -> None:
    """Write complete random legal games of GAME as a record, claims filled in."""
    game = _game_arg(game_name)
    if not game.min_players <= players <= game.max_players:
        raise click.BadParameter(
            f"{game.title} takes {game.min_players}-{game.max_players} players", param_hint="--players"
        )
    try:
        options, label = resolve_options(game, ruleset, variant, Path.cwd(), USER_POLICY)
    except RefereeError as error:
        raise click.BadParameter(error.message) from None
    names = DEFAULT_NAMES[:players]
    texts = []
    for k in range(count):
        tags = {"Event": "referee play", "Ruleset": ruleset or game.default_ruleset, "Seed": str(seed + k)}
        if variant:
            tags["Variant"] = variant
        texts.append(game.play(names, random.Random(seed + k), options, tags))
    text = "\n".join(texts)
    if output is None:
        click.echo(text, nl=False)
        return
    if output.exists():
        raise click.UsageError(f"{output} exists; referee never overwrites a file (choose another name)")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    click.echo(f"wrote {count} game(s) of {game.title} ({label}) to {output}")


@main.command()
@click.argument("game_name", metavar="GAME", required=False)
def options(game_name: str | None) -> None:
    """List the rule options of a game (or all games), their defaults per ruleset, and the registered variants."""
    games = [_game_arg(game_name)] if game_name else list(GAMES.values())
    for game in games:
        click.echo(f"{game.title} ({game.id}); rulesets: {', '.join(game.rulesets)} (default {game.default_ruleset})")
        for name, default, doc in option_docs(game.options_type):
            per_ruleset = {r: getattr(o, name) for r, o in game.rulesets.items()}
            values = (
                ", ".join(f"{r}: {v}" for r, v in per_ruleset.items())
                if len(set(map(str, per_ruleset.values()))) > 1
                else str(default)
            )
            click.echo(f"  {name} = {values}\n      {doc}")
    variants = registered_variants()
    if variants:
        click.echo("registered variants:")
        for variant in variants.values():
            if game_name is None or find_game(variant.game) in games:
                click.echo(f"  {variant.name} ({variant.game}): {variant.description}")


@main.command()
def codes() -> None:
    """List every error code with its verdict and the rule it stands for."""
    for code, kind in sorted(CATALOGUE.items()):
        click.echo(f"{code:28} {kind.verdict.value:10} {kind.summary}")


from referee.proofs import prove_command  # noqa: E402 - registered last, see referee/proofs.py

main.add_command(prove_command)

if __name__ == "__main__":  # pragma: no cover
    main()
