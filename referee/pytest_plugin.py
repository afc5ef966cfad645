"""pytest plugin: every game in a folder of records becomes a test item (rule-regression checks in CI).

Enable it with ``--referee-records`` on the command line or ``referee_records = true`` in the pytest ini section,
and point pytest at record folders (``pytest records/``). A game passes when it is judged valid or unfinished, or
exactly as its ``[Expect "VERDICT CODE LINE"]`` tag states.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.replay import GameReport, check_file


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("referee")
    group.addoption(
        "--referee-records",
        action="store_true",
        default=False,
        help="collect *.rec game records as tests, one per game",
    )
    parser.addini("referee_records", type="bool", default=False, help="collect *.rec game records as tests")


def _enabled(config: pytest.Config) -> bool:
    return bool(config.getoption("referee_records") or config.getini("referee_records"))


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> RecordFile | None:
    if file_path.suffix == ".rec" and _enabled(parent.config):
        return RecordFile.from_parent(parent, path=file_path)
    return None


class RecordFile(pytest.File):
    def collect(self) -> Iterator[RecordItem]:
        for report in check_file(self.path):
            yield RecordItem.from_parent(self, name=f"game{report.index}", report=report)


class RecordMismatch(Exception):
    """A game was not judged as it should be."""


class RecordItem(pytest.Item):
    def __init__(self, *, report: GameReport, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.report = report

    def runtest(self) -> None:
        if not self.report.ok:
            raise RecordMismatch(self.report)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: object = None) -> str:
        if isinstance(excinfo.value, RecordMismatch):
            report = self.report
            text = f"{report.file} game {report.index}: judged {report.verdict.value}"
            if report.error is not None:
                text += (
                    f" at line {report.error.line}, column {report.error.column} [{report.error.code}]: "
                    f"{report.error.message}"
                )
            if report.expectation is not None:
                text += f"\nexpected: {report.expectation}"
            return text
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.report.line - 1, f"{self.path.name} game {self.report.index}"
