"""A progress bar for long runs and a summary table at the end — on a terminal only.

``check`` and ``regress`` show them when standard output is a terminal and the output is the text format (no
``--junit``): piped, redirected or in a machine format (jsonl, sarif, github, junit) the output stays byte for byte
what it is without them. ``rich`` draws both and is imported only then, so ``referee check`` starts as fast as
before.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

from referee.errors import Verdict
from referee.registry import find_game
from referee.replay import GameReport, find_records


def is_terminal() -> bool:
    """Whether standard output is a terminal a person watches."""
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def wanted(fmt: str, junit: Path | None) -> bool:
    """A bar and a table for this run: text output, no JUnit report, on a terminal."""
    return fmt == "text" and junit is None and is_terminal()


class RunProgress:
    """The progress of a run over record files (a context manager): ``add`` each judged game, then ``table``.

    Disabled, it does nothing at all (and never imports rich)."""

    def __init__(self, paths: Iterable[str], enabled: bool, *, problems: str = "problems") -> None:
        self.enabled = enabled
        self.paths = list(paths)
        self.problems_label = problems
        self.counts: dict[str, Counter[str]] = {}
        self.files = 0
        self._file: str | None = None
        self._progress: Any = None
        self._task: Any = None
        self._started = time.perf_counter()

    def __enter__(self) -> RunProgress:
        if not self.enabled:
            return self
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(file=sys.stdout)
        if not console.is_terminal:  # rich cannot redraw a bar there (a forced tty): the table only
            return self
        total = sum(1 for source in find_records(self.paths) if source.path is not None) or None
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("files · {task.fields[games]} games · {task.fields[problems]} " + self.problems_label),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._task = self._progress.add_task("judging", total=total, games=0, problems=0)
        self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def add(self, report: GameReport, problem: bool) -> None:
        """One judged game (``problem``: it counts against the exit status)."""
        if not self.enabled:
            return
        game = report.game or next((g.id for g in [find_game(report.tags.get("Game", ""))] if g is not None), "?")
        counts = self.counts.setdefault(game, Counter())
        counts[report.verdict.value] += 1
        counts["games"] += 1
        counts["problems"] += problem
        if report.file != self._file:
            self._file = report.file
            self.files += 1
        if self._progress is not None:
            games = sum(c["games"] for c in self.counts.values())
            problems = sum(c["problems"] for c in self.counts.values())
            self._progress.update(self._task, completed=max(self.files - 1, 0), games=games, problems=problems)

    def table(self) -> None:
        """The summary table: a column per game (and the totals), a row per verdict, then the problems."""
        if not self.enabled or not self.counts:
            return
        from rich.console import Console
        from rich.table import Table

        elapsed = time.perf_counter() - self._started
        table = Table(title=f"{self.files} file(s) in {elapsed:.1f} s", title_justify="left")
        columns = dict(sorted(self.counts.items()))
        if len(columns) > 1:
            total: Counter[str] = Counter()
            for counts in columns.values():
                total.update(counts)
            columns["all"] = total
        table.add_column("")
        for game in columns:
            table.add_column(game, justify="right", no_wrap=True, style="bold" if game == "all" else None)
        for row in ("games", *(v.value for v in Verdict)):
            table.add_row(row, *(str(counts[row]) for counts in columns.values()))
        table.add_row(
            self.problems_label,
            *(f"[red]{c['problems']}[/red]" if c["problems"] else "0" for c in columns.values()),
            end_section=True,
        )
        Console(file=sys.stdout).print(table)
