"""What the report page shows of each game, collected while the one replay loop judges it.

``GameCollector`` is a ``ReplayVisitor``: after setup and after every legal statement it takes the game's picture of
the state (``Game.picture_module``'s ``snapshot``), and at the first problem the state before the offending statement.
Consecutive pictures differ in a few blocks only, so a step stores what changed (a delta over the picture's top-level
entries and blocks); the page rebuilds each position from them. ``TappedSource`` keeps the lines of a record file as
the replay reads them, so each game's text — comments and blank lines included — is shown beside its steps.
"""

from __future__ import annotations

import importlib
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.game import GameState, GameType
from referee.record import BadLine, GameRecord, excerpt
from referee.replay import GameReport, RecordSource, Referee, ReplayVisitor
from referee.resources import ReadPolicy

Snapshot = dict[str, Any]
Picture = Callable[[GameState], Snapshot]

_PICTURES: dict[str, Picture | None] = {}


def picture_of(game: GameType) -> Picture | None:
    """The game's ``snapshot`` function, or None when it names no picture module."""
    name = game.picture_module
    if not name:
        return None
    if name not in _PICTURES:
        function = getattr(importlib.import_module(name), "snapshot", None)
        _PICTURES[name] = function if callable(function) else None
    return _PICTURES[name]


def text_snapshot(state: GameState) -> Snapshot:
    """The picture of a game without a picture module: its summary, as text."""
    summary = state.summary()
    return {"head": summary.split("\n", 1)[0], "text": summary}


def flatten(snapshot: Snapshot) -> dict[str, Any]:
    """A picture as the flat entries a delta is taken over: the top-level entries, the order of the blocks, and each
    block under ``b:KEY``."""
    flat = {key: value for key, value in snapshot.items() if key != "blocks"}
    blocks = snapshot.get("blocks") or {}
    flat["order"] = list(blocks)
    for key, block in blocks.items():
        flat[f"b:{key}"] = block
    return flat


def delta(previous: dict[str, Any], current: dict[str, Any]) -> dict[str, Any]:
    """One step: the entries that changed (``d``) and those that are gone (``x``)."""
    changed = {key: value for key, value in current.items() if key not in previous or previous[key] != value}
    step: dict[str, Any] = {"d": changed}
    gone = [key for key in previous if key not in current]
    if gone:
        step["x"] = gone
    return step


def charts(points: list[tuple[Any, dict[str, Any]]], players: list[str]) -> list[dict[str, Any]]:
    """Score charts from the pictures' ``round`` and ``score``: per label, the last value of each round."""
    series: dict[str, dict[str, list[Any]]] = {}
    for label_round, scores in points:
        x = str(label_round)
        for label, values in scores.items():
            if not isinstance(values, list) or len(values) != len(players):
                continue
            chart = series.setdefault(label, {})
            chart[x] = values
    return [
        {
            "label": label,
            "x": list(by_round),
            "series": [[values[seat] for values in by_round.values()] for seat in range(len(players))],
        }
        for label, by_round in series.items()
    ]


def error_data(error: RefereeError) -> dict[str, Any]:
    """An error as the page shows it (what ``check -v`` prints)."""
    return {
        "line": error.line,
        "column": error.column,
        "code": error.code,
        "verdict": error.verdict.value,
        "message": error.message,
        "rule": error.kind.summary,
        "state": error.state,
        "alternatives": list(error.alternatives),
    }


@dataclass
class GameDetail:
    """Everything the page shows of one game when it is opened (the overview row comes from the report)."""

    game: str | None = None
    players: list[str] = field(default_factory=list)
    picture: str | None = None  # the picture module, None for the summary text
    picture_problem: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    charts: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None
    first_line: int = 1
    lines: list[str | dict[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "picture": self.picture,
            "picture_problem": self.picture_problem,
            "steps": self.steps,
            "charts": self.charts,
            "error": self.error,
            "text": {"first": self.first_line, "lines": self.lines},
        }


class GameCollector(ReplayVisitor):
    """Collects the details of each game judged (a file's games one after the other: ``end`` hands them over)."""

    def __init__(self) -> None:
        self.finished: list[GameDetail] = []
        self._reset()

    def _reset(self) -> None:
        self.detail = GameDetail()
        self.picture: Picture | None = None
        self.previous: dict[str, Any] = {}
        self.points: list[tuple[Any, dict[str, Any]]] = []

    def begin(self, record: GameRecord, game: GameType, state: GameState) -> None:
        self.detail.game = game.id
        self.detail.players = list(state.players)
        self.picture = picture_of(game)
        self.detail.picture = game.picture_module if self.picture is not None else None
        self._step(None, state)

    def statement(self, number: int, text: str, statement: Any, state: GameState) -> None:
        self._step(number, state)

    def error(self, error: RefereeError, state: GameState | None) -> None:
        self.detail.error = error_data(error)
        if state is not None:
            step = self._step(error.line, state, chart=False)
        else:
            step = {"line": error.line, "d": {}}
            self.detail.steps.append(step)
        step["error"] = True

    def end(self, report: GameReport, state: GameState | None) -> None:
        self.detail.charts = charts(self.points, self.detail.players)
        self.finished.append(self.detail)
        self._reset()

    def _snapshot(self, state: GameState) -> Snapshot:
        if self.picture is not None:
            try:
                snapshot = self.picture(state)
                if isinstance(snapshot, dict):
                    return snapshot
                raise TypeError(f"snapshot() returned {type(snapshot).__name__}, not a dict")
            except Exception as exc:  # a picture bug must not take the report down: the summary text instead
                frames = traceback.extract_tb(exc.__traceback__)
                where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
                self.detail.picture_problem = excerpt(f"{type(exc).__name__}: {exc}{where}", 300)
                self.picture = None
        return text_snapshot(state)

    def _step(self, line: int | None, state: GameState, chart: bool = True) -> dict[str, Any]:
        snapshot = self._snapshot(state)
        flat = flatten(snapshot)
        step = {"line": line, **delta(self.previous, flat)}
        self.previous = flat
        self.detail.steps.append(step)
        score = snapshot.get("score")
        if chart and isinstance(score, dict):
            self.points.append((snapshot.get("round", ""), score))
        return step


@dataclass(frozen=True)
class TappedSource(RecordSource):
    """A record source that keeps every line the replay reads (numbered, blank and comment lines included)."""

    seen: list[tuple[int, str | BadLine]] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def of(cls, source: RecordSource) -> TappedSource:
        return cls(source.path, source.display, source.key, source.problem)

    def lines(self, policy: ReadPolicy) -> Iterator[tuple[int, str | BadLine]]:
        return self._tap(super().lines(policy))

    def _tap(self, lines: Iterator[tuple[int, str | BadLine]]) -> Iterator[tuple[int, str | BadLine]]:
        for item in lines:
            self.seen.append(item)
            yield item

    def take(self, before: int | None) -> tuple[int, list[str | dict[str, str]]]:
        """The lines read so far that come before line ``before`` (all of them when None), removed from the tap:
        (first line number, texts); a line that cannot be read is ``{"bad": reason}``."""
        cut = len(self.seen)
        if before is not None:
            cut = next((k for k, (number, _) in enumerate(self.seen) if number >= before), cut)
        taken, self.seen[:cut] = self.seen[:cut], []
        first = taken[0][0] if taken else 1
        return first, [text if isinstance(text, str) else {"bad": text.reason} for _, text in taken]


def judge_with_details(source: RecordSource, referee: Referee) -> Iterator[tuple[GameReport, GameDetail]]:
    """Every game of one record file, judged by the one replay loop, with what the page shows of it.

    A game's text runs from its first line to the line before the next game's (the lines before the first game go
    with it), so a game's details are handed out when the next game starts or the file ends."""
    tapped = TappedSource.of(source)
    collector = GameCollector()
    pending: tuple[GameReport, GameDetail] | None = None
    for report in referee.judge_source(tapped, collector):
        detail = collector.finished.pop() if collector.finished else GameDetail()
        collector.finished.clear()
        if pending is not None:
            # a file that stops being readable is reported after its games, at line 1: they keep their lines
            _give_text(pending[1], tapped, report.line if report.line > pending[0].line else None)
            yield pending
        pending = (report, detail)
    if pending is not None:
        _give_text(pending[1], tapped, None)
        yield pending


def _give_text(detail: GameDetail, tapped: TappedSource, before: int | None) -> None:
    detail.first_line, detail.lines = tapped.take(before)
