"""referee: rules verification and game-record referee for board games.

>>> from referee import check_text
>>> [report.verdict.value for report in check_text(open("game.rec").read())]  # doctest: +SKIP
>>> table = Table("saint-petersburg", ["Anna", "Boris"])  # a game judged as it is played (docs/live.md)
>>> table.play("tokens: Anna worker aristocrat, Boris building upgrade")  # doctest: +SKIP

The names below are loaded when first used (PEP 562), so that the ``referee`` program catches a signal from its first
instant (``referee.__main__``) and a command loads only what it needs.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not typing's: loading typing would take ten milliseconds of the program's start
if TYPE_CHECKING:
    from typing import Any

    from referee.errors import CATALOGUE, IllegalStatement, MalformedStatement, RefereeError, Verdict
    from referee.replay import GameReport, check_file, check_text, judge
    from referee.table import Table, TableError

_EXPORTED_FROM = {
    "CATALOGUE": "referee.errors",
    "IllegalStatement": "referee.errors",
    "MalformedStatement": "referee.errors",
    "RefereeError": "referee.errors",
    "Verdict": "referee.errors",
    "GameReport": "referee.replay",
    "check_file": "referee.replay",
    "check_text": "referee.replay",
    "judge": "referee.replay",
    "Table": "referee.table",
    "TableError": "referee.table",
}

__all__ = [
    "CATALOGUE",
    "GameReport",
    "IllegalStatement",
    "MalformedStatement",
    "RefereeError",
    "Table",
    "TableError",
    "Verdict",
    "check_file",
    "check_text",
    "judge",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTED_FROM.get(name)
    if module is None:
        raise AttributeError(f"module 'referee' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
