"""The report page: one static HTML file that needs nothing but itself.

The picture of a position is drawn by ``assets/picture.js`` (with ``picture.css``), which the live scorekeeper page
(``referee serve``) uses too; the report inlines it before its own script and style.

The page is written as the games are judged, so memory stays flat however many games there are: first the head (the
styles inline, a Content-Security-Policy that lets the page load nothing and run only its own script, by hash) and
the skeleton; then each game's details as one ``<script type="application/x-referee-game">`` element holding its JSON
deflated and base64-encoded (the browser never parses it until the game is opened, then inflates it with
``DecompressionStream``); last the overview (every game's row and the standings) as JSON and the script.

Record text may hold anything (a comment is free text, a file name any bytes): it only ever reaches the page inside
JSON — escaped so that no ``<`` can close an element — or base64, and the script writes it with ``textContent``.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import zlib
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, TextIO

from referee.errors import Verdict
from referee.registry import GAMES
from referee.replay import GameReport
from referee.report.collect import GameDetail

MARK = '<meta name="generator" content="referee report">'
"""In the first bytes of every page referee writes: such a file may be replaced by a new report."""

GAME_TYPE = "application/x-referee-game"
SEVERITY = [Verdict.VALID, Verdict.UNFINISHED, Verdict.ILLEGAL, Verdict.MALFORMED]  # the page's order of verdicts


def asset(name: str) -> str:
    return files("referee.report").joinpath("assets", name).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: ``<``, ``>`` and ``&`` (which only occur inside strings) escaped, and
    everything outside ASCII too (a lone surrogate from an odd file name cannot be written as UTF-8)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def pack(value: Any) -> str:
    """JSON, deflated (zlib format, what ``DecompressionStream("deflate")`` reads), base64: a game's details."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    raw = text.encode("utf-8", "backslashreplace")  # a lone surrogate becomes the JSON escape \udcxx
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def pack_detail(detail: GameDetail) -> str:
    return pack(detail.as_dict())


def unpack(text: str) -> Any:
    """What ``pack`` packed (for tests and tools)."""
    return json.loads(zlib.decompress(base64.b64decode(text)).decode("utf-8"))


def fill(template: str, values: dict[str, str]) -> str:
    """``{{name}}`` placeholders replaced in one pass (a value is never searched for placeholders itself)."""
    return re.sub(r"\{\{(\w+)\}\}", lambda match: values[match.group(1)], template)


def csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def overview_row(number: int, report: GameReport) -> dict[str, Any]:
    """A game's row of the overview: file, players, ruleset, verdict, winner and scores, or its error."""
    error, outcome = report.error, report.outcome
    game = GAMES.get(report.game) if report.game else None
    row: dict[str, Any] = {
        "id": number,
        "file": report.file,
        "index": report.index,
        "first_line": report.line,
        "game": game.title if game is not None else report.tags.get("Game", ""),
        "players": report.players,
        "ruleset": report.ruleset,
        "verdict": report.verdict.value,
        "statements": report.statements,
        "winners": outcome.winners if outcome else [],
        "scores": outcome.scores if outcome else None,
        "how": (outcome.tiebreak or outcome.termination.description) if outcome else "",
        "code": error.code if error else None,
        "line": error.line if error else None,
        "column": error.column if error else None,
        "message": error.message if error else None,
    }
    for tag in ("Event", "Round", "Date"):
        if tag in report.tags:
            row[tag.lower()] = report.tags[tag]
    if report.expectation is not None or report.expectation_problem is not None:
        row["expected"] = str(report.expectation) if report.expectation else report.expectation_problem
        row["met"] = report.expectation_met
    return row


@dataclass
class Standing:
    game: str
    player: str
    games: int = 0
    finished: int = 0  # valid games: the only ones with winners and scores
    wins: int = 0  # shared wins included
    shared: int = 0
    points: int | None = None  # the sum of final scores (None: the game has no scores)


class Standings:
    """Each player's record across the files, per game (points of different games do not add up)."""

    def __init__(self) -> None:
        self.table: dict[tuple[str, str], Standing] = {}

    def add(self, report: GameReport) -> None:
        game = GAMES.get(report.game) if report.game else None
        if game is None:
            return
        outcome = report.outcome if report.verdict is Verdict.VALID else None
        for name in report.players:
            row = self.table.setdefault((game.title, name), Standing(game.title, name))
            row.games += 1
            if outcome is None:
                continue
            row.finished += 1
            if name in outcome.winners:
                row.wins += 1
                row.shared += len(outcome.winners) > 1
            if outcome.scores is not None and name in outcome.scores:
                row.points = (row.points or 0) + outcome.scores[name]

    def rows(self) -> list[dict[str, Any]]:
        """By game, then most wins, most points, name."""
        ordered = sorted(self.table.values(), key=lambda s: (s.game, -s.wins, -(s.points or 0), s.player))
        return [vars(row).copy() for row in ordered]


class ReportPage:
    """Writes the page to ``out`` as games are added; ``close`` writes the overview and the script."""

    def __init__(self, out: TextIO, title: str = "referee report", arguments: list[str] | None = None) -> None:
        self.out = out
        self.title = title
        self.arguments = arguments or []
        self.rows: list[dict[str, Any]] = []
        self.standings = Standings()
        self.script = asset("picture.js") + "\n" + asset("report.js")  # the picture is shared with the live page
        style = asset("picture.css") + "\n" + asset("report.css")
        if "</" in self.script or "</" in style:
            raise AssertionError("an inline asset may not hold '</'")
        csp = (
            f"default-src 'none'; script-src {csp_hash(self.script)}; style-src {csp_hash(style)}; "
            "img-src data:; base-uri 'none'; form-action 'none'"
        )
        head, self.tail = asset("report.html").split("<!-- games -->")
        out.write(fill(head, {"mark": MARK, "csp": html.escape(csp), "title": html.escape(title), "style": style}))

    def add(self, report: GameReport, packed: str) -> None:
        """A game: its overview row, its standings, and its details as ``pack_detail`` packed them."""
        number = len(self.rows)
        self.rows.append(overview_row(number, report))
        self.standings.add(report)
        self.out.write(f'<script type="{GAME_TYPE}" id="game-{number}">{packed}</script>\n')

    def close(self) -> None:
        from referee.formats import tool_version

        overview = {
            "title": self.title,
            "version": tool_version(),
            "arguments": self.arguments,
            "verdicts": [verdict.value for verdict in sorted(Verdict, key=SEVERITY.index)],
            "games": self.rows,
            "standings": self.standings.rows(),
        }
        self.out.write(fill(self.tail, {"overview": script_json(overview), "script": self.script}))
