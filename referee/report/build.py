"""Judging for the report: every game through the one replay loop with the picture collector watching, on one core
or on several (record files are the units of work; their games come back in input order)."""

from __future__ import annotations

import multiprocessing
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from referee.errors import Verdict
from referee.replay import GameReport, RecordSource, Referee
from referee.report.collect import judge_with_details
from referee.report.page import ReportPage, pack_detail

Packed = tuple[GameReport, str]  # a judged game and its details, packed for the page


def judge_file(referee: Referee, source: RecordSource) -> list[Packed]:
    """The games of one record file, judged, with their details packed (what a worker does)."""
    return [(report, pack_detail(detail)) for report, detail in judge_with_details(source, referee)]


_REFEREE: Referee | None = None


def _start_worker(referee: Referee) -> None:
    global _REFEREE
    _REFEREE = referee


def _work(source: RecordSource) -> list[Packed]:
    assert _REFEREE is not None
    return judge_file(_REFEREE, source)


def judged(sources: Iterable[RecordSource], referee: Referee, jobs: int = 1) -> Iterator[Packed]:
    """Every game of ``sources`` in input order, judged on ``jobs`` processes."""
    if jobs <= 1:
        for source in sources:
            yield from judge_file(referee, source)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(jobs, initializer=_start_worker, initargs=(referee,)) as pool:
        pending: deque[Any] = deque()
        for source in sources:
            pending.append(pool.apply_async(_work, (source,)))
            if len(pending) >= 2 * jobs:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()


def write_report(
    sources: Iterable[RecordSource],
    referee: Referee,
    out: TextIO,
    *,
    title: str = "referee report",
    arguments: list[str] | None = None,
    jobs: int = 1,
) -> Counter[Verdict]:
    """Judge every game of ``sources`` and write the report page to ``out``; the games per verdict."""
    page = ReportPage(out, title, arguments)
    counts: Counter[Verdict] = Counter()
    for report, packed in judged(sources, referee, jobs):
        counts[report.verdict] += 1
        page.add(report, packed)
    page.close()
    return counts
