"""Judging for the report: every game through the one replay loop with the picture collector watching, on one core
or on several (record files are the units of work; their games come back in input order)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TextIO

from referee.errors import Verdict
from referee.parallel import in_order
from referee.replay import GameReport, RecordSource, Referee
from referee.report.collect import judge_with_details
from referee.report.page import ReportPage, pack_detail

Packed = tuple[GameReport, str]  # a judged game and its details, packed for the page


def judge_file(referee: Referee, source: RecordSource) -> list[Packed]:
    """The games of one record file, judged, with their details packed (what a worker does)."""
    return [(report, pack_detail(detail)) for report, detail in judge_with_details(source, referee)]


def judged(sources: Iterable[RecordSource], referee: Referee, jobs: int = 1) -> Iterator[Packed]:
    """Every game of ``sources`` in input order, judged on ``jobs`` processes."""
    if jobs <= 1:
        for source in sources:
            yield from judge_file(referee, source)
        return
    yield from in_order(judge_file, sources, referee, jobs)


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
