"""referee: rules verification and game-record referee for board games.

>>> from referee import check_text
>>> [report.verdict.value for report in check_text(open("game.rec").read())]  # doctest: +SKIP
>>> table = Table("saint-petersburg", ["Anna", "Boris"])  # a game judged as it is played (docs/live.md)
>>> table.play("tokens: Anna worker aristocrat, Boris building upgrade")  # doctest: +SKIP
"""

from referee.errors import CATALOGUE, IllegalStatement, MalformedStatement, RefereeError, Verdict
from referee.replay import GameReport, check_file, check_text, judge
from referee.table import Table, TableError

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
