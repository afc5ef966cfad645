"""The house-rule commands: ``referee variant check``, ``referee variant diff`` and ``referee stats``.

Loaded lazily (``RefereeGroup.LAZY``): ``referee check`` never imports them, nor z3 or the property adapters they
use.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from referee.errors import RefereeError


@click.group("variant")
def variant() -> None:
    """Check a house-rule variant, or compare two rule sets on the same games."""


@variant.command("check")
@click.argument("reference", metavar="VARIANT")
@click.option(
    "-n", "--games", type=click.IntRange(min=1), default=12, show_default=True, help="Random games to play."
)
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
