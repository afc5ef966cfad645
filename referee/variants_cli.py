"""The house-rule commands: ``referee variant check``, ``referee variant diff`` and ``referee stats``.

Loaded lazily (``RefereeGroup.LAZY``): ``referee check`` never imports them, nor z3 or the property adapters they
use.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from referee.errors import RefereeError
from referee.game import GameType, GeneratorFailed
from referee.registry import GAMES, find_game
from referee.resources import USER_POLICY

if TYPE_CHECKING:
    from referee.variant_stats import RuleSet


@click.group("variant")
def variant() -> None:
    """Check a house-rule variant, or compare two rule sets on the same games."""


@variant.command("check")
@click.argument("reference", metavar="VARIANT")
@click.option("-n", "--games", type=click.IntRange(min=1), default=12, show_default=True, help="Random games to play.")
@click.option("-s", "--seed", type=int, default=0, show_default=True, help="Seed of the first game (then +1 each).")
@click.option("--no-proofs", is_flag=True, help="Skip the z3 proofs (random play only).")
@click.option(
    "--cap",
    type=click.IntRange(min=1),
    default=20_000,
    show_default=True,
    help="A game not over after this many statements (or past the game's bound) does not end.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("counterexamples"),
    show_default=True,
    help="Folder for the counterexample records (and a copy of a variant file they name).",
)
def check(reference: str, games: int, seed: int, no_proofs: bool, cap: int, output: Path) -> None:
    """Validate VARIANT (a registered name or a variant file), run the game's z3 proofs under it and play seeded
    random games under it; print each invariant as 'holds' or 'broken', a broken one with a counterexample record
    and the referee's verdict on it.

    Exit status: 0 when every invariant holds, 1 when one is broken or the file is not a valid variant.
    """
    from referee.variant_check import run_check

    last = ""
    try:
        for line in run_check(reference, games, seed, output, proofs=not no_proofs, cap=cap):
            click.echo(line)
            last = line
    except RefereeError as error:
        click.echo(f"  broken  the variant file is valid: [{error.code}] {error.message}")
        sys.exit(1)
    sys.exit(0 if last == "every invariant holds" else 1)


def _rules(reference: str, what: str) -> RuleSet:
    from referee.variant_stats import rule_set

    try:
        return rule_set(reference)
    except RefereeError as error:
        raise click.BadParameter(error.message, param_hint=what) from None


def _game_of(rules: list[RuleSet], game_name: str | None) -> GameType:
    if game_name is not None:
        found = find_game(game_name)
        if found is None:
            raise click.BadParameter(f"unknown game '{game_name}' (games: {', '.join(GAMES)})", param_hint="--game")
        return found
    games = {game.id: game for game in (r.game() for r in rules) if game is not None}
    if len(games) != 1:
        raise click.UsageError("say which game with --game (the rule sets name no single game)")
    return next(iter(games.values()))


@variant.command("diff")
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, allow_dash=True))
@click.option("-n", "--games", type=click.IntRange(min=1), default=20, show_default=True, help="Generated games.")
@click.option("-s", "--seed", type=int, default=0, show_default=True, help="Seed of the first generated game.")
@click.option("--players", type=int, default=None, help="Players of each generated game (default 3).")
@click.option("--game", "game_name", default=None, help="The game, when A and B are ruleset names.")
def diff(
    first: str, second: str, paths: tuple[str, ...], games: int, seed: int, players: int | None, game_name: str | None
) -> None:
    """Which games change verdict, scores or winner between rule sets A and B (each a ruleset name, a registered
    variant or a variant file), and for each the first statement judged differently and why.

    The games are the records in PATHS (files, folders or -), or, without PATHS, games generated under A (-n
    games from seed -s). Claims are noted, not stopped at. Exit status: 0 when no game differs, 1 otherwise.
    """
    from referee.variant_stats import default_players, diff_records, generated_records, stored_records

    a, b = _rules(first, "A"), _rules(second, "B")
    if paths:
        records = stored_records(paths, USER_POLICY)
        source = f"{', '.join(paths)}"
    else:
        game = _game_of([a, b], game_name)
        try:
            count = default_players(game, players)
        except RefereeError as error:
            raise click.BadParameter(error.message, param_hint="--players") from None
        records = generated_records(game, a, games, seed, count)
        source = f"{games} {game.title} game(s) generated under {a.label} (seeds {seed}-{seed + games - 1})"
    total = changed = 0
    try:
        for found in diff_records(a, b, records):
            total += 1
            if isinstance(found, str):
                click.echo(found)
                continue
            changed += 1
            for line in found.lines():
                click.echo(line)
    except RefereeError as error:
        raise click.UsageError(error.message) from None
    except GeneratorFailed as failed:
        raise click.ClickException(f"no game under {a.label}: {failed}") from None
    click.echo(f"{total} game(s) from {source}: {changed} differ between {a.label} and {b.label}")
    sys.exit(1 if changed else 0)


@click.command("stats")
@click.option(
    "--variant", "reference", default=None, help="The rule set: a ruleset name, a registered variant or a file."
)
@click.option("--game", "game_name", default=None, help="The game (default: the variant's).")
@click.option("-n", "--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games to play.")
@click.option("-s", "--seed", type=int, default=0, show_default=True, help="Seed of the first game (then +1 each).")
@click.option("--players", type=int, default=None, help="Players per game (default 3).")
@click.option("--against", default=None, help="A second rule set, shown side by side.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl"]),
    default="text",
    show_default=True,
    help="text: a table; jsonl: a JSON object per game, then one with the figures per rule set.",
)
def stats(
    reference: str | None,
    game_name: str | None,
    games: int,
    seed: int,
    players: int | None,
    against: str | None,
    fmt: str,
) -> None:
    """Play seeded games under a rule set and report balance: win rate by seat (95% Wilson interval), scores
    (Santorini: New York: how games end), game length, and how often each card or building is bought or built;
    with --against, two rule sets side by side on the same seeds."""
    from referee.variant_stats import default_players, play_games, summary, text_report

    sets = [_rules(reference, "--variant") if reference else None, _rules(against, "--against") if against else None]
    chosen = [r for r in sets if r is not None]
    game = _game_of(chosen, game_name)
    try:
        count = default_players(game, players)
    except RefereeError as error:
        raise click.BadParameter(error.message, param_hint="--players") from None
    columns = []
    for rules in [sets[0], *([sets[1]] if against else [])]:
        label = rules.label if rules is not None else game.default_ruleset
        try:
            options = rules.options(game) if rules is not None else game.ruleset(None)
        except RefereeError as error:
            raise click.UsageError(error.message) from None
        try:
            played = play_games(game, options, games, seed, count)
        except GeneratorFailed as failed:
            raise click.ClickException(
                f"no game under {label}: {failed} ('referee variant check' shows what breaks)"
            ) from None
        figures = summary(played, count)
        if fmt == "jsonl":
            for one in played:
                click.echo(json.dumps(one.row(label), ensure_ascii=False))
            click.echo(json.dumps({"rules": label, "game": game.id, "seed": seed, **figures}, ensure_ascii=False))
        columns.append((label, figures))
    if fmt == "text":
        click.echo(f"{game.title}: {games} game(s) per rule set, seeds {seed}-{seed + games - 1}")
        for line in text_report(columns):
            click.echo(line)
