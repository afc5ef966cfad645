"""``referee report PATH... -o report.html``: the tournament report page (docs/report.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from referee.cli_options import RECORD_PATHS, OutputFile, read_policy, reading_options
from referee.errors import Verdict
from referee.files import new_file, written_by_referee
from referee.replay import Referee, find_records
from referee.report.build import write_report
from referee.report.page import MARK


class NoRecords(Exception):
    """No record file was found: the page is not written."""


own_report = written_by_referee(MARK, 400)  # a report page an earlier referee run wrote (safe to replace)


@click.command("report")
@RECORD_PATHS
@click.option(
    "-o",
    "--output",
    type=OutputFile(stdout=False),
    required=True,
    help="The page to write: a new file, or a report an earlier run wrote (any other existing file is refused).",
)
@click.option("--title", default="referee report", show_default=True, help="The page's title.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes; record files are judged in parallel, the page is the same.",
)
@reading_options
def report(
    paths: tuple[str, ...],
    output: Path,
    title: str,
    jobs: int,
    max_size: int,
    allow_dirs: tuple[Path, ...],
    allow_any_path: bool,
) -> None:
    """Write one self-contained HTML page about every game in PATHS (files, folders or -): an overview to sort and
    filter, standings, and a replay viewer per game that steps through the record with the position drawn.

    Exit status: 0 when the page is written (whatever the verdicts), 1 when no record was found, 2 for usage errors.
    """
    if output.exists() and not own_report(output):
        raise click.UsageError(f"{output} exists and is not a referee report; referee never overwrites a file")
    referee = Referee(read_policy(max_size, allow_dirs, allow_any_path))
    try:
        with new_file(output, own_report) as out:
            counts = write_report(find_records(paths), referee, out, title=title, arguments=list(paths), jobs=jobs)
            if not counts:
                raise NoRecords
    except NoRecords:
        click.echo(f"no record files (*.rec) found in {', '.join(paths)}", err=True)
        sys.exit(1)
    parts = ", ".join(f"{counts[v]} {v.value}" for v in Verdict if counts[v])
    click.echo(f"wrote {output}: {sum(counts.values())} game(s): {parts}")
