"""referee: rules verification and game-record referee for board games.

>>> from referee import check_text
>>> [report.verdict.value for report in check_text(open("game.rec").read())]  # doctest: +SKIP
"""

from referee.errors import CATALOGUE, IllegalStatement, MalformedStatement, RefereeError, Verdict
from referee.replay import GameReport, check_file, check_text, judge

__all__ = [
    "CATALOGUE",
    "GameReport",
    "IllegalStatement",
    "MalformedStatement",
    "RefereeError",
    "Verdict",
    "check_file",
    "check_text",
    "judge",
]
