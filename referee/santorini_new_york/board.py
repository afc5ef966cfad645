"""Board geometry: a board file read and checked, squares named like chess squares, and the neighbours and lines the
rules look along.

A board is data, not code (the printed board is not publicly known): a TOML file with a map of rows, north first,
where ``.`` is a space and ``#`` a void cell, and the starting pair of each player number. Cells are numbered
``row * width + column`` from the south-west corner (a1 = 0); the bounding grid holds void cells too, which movers
and the Reporter pass over but nothing ever stands on.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import ClassVar, TypeGuard

DATA = Path(__file__).parent / "data"
BOARD_DIR = DATA / "boards"
SQUARE = re.compile(r"([a-z])([1-9][0-9]*)")
BOARD_KEYS = {"name", "provisional", "description", "source", "north", "map", "starts"}
# The eight directions (column step, row step); the first four are north, south, east, west.
ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
NORTH, SOUTH = (0, 1), (0, -1)


class DataError(ValueError):
    """A board or deck-list file that is not valid; the message says what is wrong, for people, and ``item`` names
    the offending part when there is one (so the error can point at it)."""

    def __init__(self, message: str, item: str | None = None) -> None:
        super().__init__(message)
        self.item = item


@dataclass(frozen=True)
class BoardMap:
    """One board: the bounding grid, which cells are spaces, and the starting pair of each player number."""

    name: str
    provisional: bool
    description: str
    width: int
    height: int
    spaces: frozenset[int]
    starts: dict[int, tuple[int, int]] = field(hash=False)

    @cached_property
    def _cells(self) -> dict[str, int]:
        """Every cell of the grid by its name, for ``cell`` (not a field: no part of the board's identity)."""
        return {self.square(c): c for c in range(self.width * self.height)}

    def square(self, cell: int) -> str:
        """The record's name of a cell: column letter and row number (a1 is the south-west corner)."""
        return f"{chr(ord('a') + cell % self.width)}{cell // self.width + 1}"

    def cell(self, square: str) -> int | None:
        """The cell a square names, or None when it lies outside the bounding grid."""
        found = self._cells.get(square)
        if found is not None:
            return found
        match = SQUARE.fullmatch(square.lower())
        if match is None:
            return None
        digits = match.group(2).lstrip("0")
        if len(digits) > len(str(self.height)):  # far off the grid: no int() of a 5,000-digit row
            return None
        column, row = ord(match.group(1)) - ord("a"), int(digits or "0") - 1
        if not (0 <= column < self.width and 0 <= row < self.height):
            return None
        return row * self.width + column

    def is_space(self, cell: int | None) -> TypeGuard[int]:
        """Is ``cell`` a space of the board (not None, not a void cell)?"""
        return cell is not None and cell in self.spaces

    def pair_of(self, cell: int) -> int | None:
        """The number of the starting pair a cell belongs to, if any."""
        return self._pairs.get(cell)

    @cached_property
    def _pairs(self) -> dict[int, int]:
        """Each starting space's pair number, for ``pair_of`` (the first pair that names a cell, as ``starts`` is
        read)."""
        pairs: dict[int, int] = {}
        for number, pair in self.starts.items():
            for cell in pair:
                pairs.setdefault(cell, number)
        return pairs


class Geometry:
    """What the rules look along on one board under one adjacency rule ([D1]): neighbours, straight lines, steps.
    Computed once per board and rule (``of``); the lines are kept as they are first asked for."""

    _made: ClassVar[dict[tuple[BoardMap, bool], Geometry]] = {}

    def __init__(self, board: BoardMap, diagonal: bool = True) -> None:
        self.board = board
        self.directions = ORTHOGONAL + DIAGONAL if diagonal else ORTHOGONAL
        self.neighbours: dict[int, tuple[int, ...]] = {
            cell: tuple(sorted(n for n in (self.step(cell, d) for d in self.directions) if board.is_space(n)))
            for cell in sorted(board.spaces)
        }
        self._lines: dict[tuple[int, tuple[int, int]], tuple[int, ...]] = {}
        # the spaces by their square names (a record's names are lower case; void cells and cells off the grid are not
        # in it): a turn line's squares, looked up without ``BoardMap.cell``
        self.space_names: dict[str, int] = {board.square(cell): cell for cell in sorted(board.spaces)}

    @classmethod
    def of(cls, board: BoardMap, diagonal: bool = True) -> Geometry:
        """The geometry of a board under an adjacency rule, made once per process."""
        key = (board, diagonal)
        found = cls._made.get(key)
        if found is None:
            if len(cls._made) >= 64:  # boards from files: a bounded number kept
                cls._made.clear()
            found = cls._made[key] = cls(board, diagonal)
        return found

    def step(self, cell: int, direction: tuple[int, int], distance: int = 1) -> int | None:
        """The cell ``distance`` steps away in a direction, or None off the bounding grid (void cells included)."""
        width = self.board.width
        column = cell % width + direction[0] * distance
        row = cell // width + direction[1] * distance
        if not (0 <= column < width and 0 <= row < self.board.height):
            return None
        return row * width + column

    def line(self, cell: int, direction: tuple[int, int]) -> tuple[int, ...]:
        """The cells beyond ``cell`` in a direction, to the edge of the grid (void cells included)."""
        found = self._lines.get((cell, direction))
        if found is None:
            out: list[int] = []
            here = self.step(cell, direction)
            while here is not None:
                out.append(here)
                here = self.step(here, direction)
            found = self._lines[(cell, direction)] = tuple(out)
        return found

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours.get(a, ())

    def direction(self, a: int, b: int) -> tuple[int, int]:
        """The unit step from a to b when they are neighbours (any of the eight directions)."""
        width = self.board.width
        dx = (b % width) - (a % width)
        dy = (b // width) - (a // width)
        return ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))


def load_board(text: str) -> BoardMap:
    """Read and check a board file; raise DataError saying what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"not valid TOML: {exc}") from None
    unknown = sorted(set(data) - BOARD_KEYS)
    if unknown:
        raise DataError(f"unknown key(s) {', '.join(unknown)} (a board has: {', '.join(sorted(BOARD_KEYS))})")
    name, provisional, description = data.get("name"), data.get("provisional", False), data.get("description", "")
    if not isinstance(name, str) or not name.strip():
        raise DataError("'name' (a non-empty string) is missing")
    if not isinstance(provisional, bool) or not isinstance(description, str):
        raise DataError("'provisional' is true or false and 'description' a string")
    north = data.get("north", "up")
    if north not in ("up", "down"):
        raise DataError(f'\'north\' is "up" (the map\'s first row is the north edge) or "down", not {north!r}')
    width, height, spaces = _read_map(data.get("map"), north == "up")
    probe = BoardMap(name.strip(), provisional, description, width, height, spaces, {})
    return dataclasses.replace(probe, starts=_read_starts(data.get("starts"), probe))


def _read_map(text: object, north_up: bool) -> tuple[int, int, frozenset[int]]:
    if not isinstance(text, str):
        raise DataError("'map' (a string of rows, '.' a space and '#' a void cell) is missing")
    rows = [row.strip() for row in text.strip().splitlines() if row.strip()]
    if not rows:
        raise DataError("the map has no rows")
    width = len(rows[0])
    if width > 26 or any(len(row) != width for row in rows):
        raise DataError("every map row has the same length, at most 26 columns (a-z)")
    bad = sorted({char for row in rows for char in row} - {".", "#"})
    if bad:
        raise DataError(f"map characters are '.' (a space) and '#' (a void cell), not {', '.join(map(repr, bad))}")
    if north_up:
        rows = rows[::-1]  # the file lists the north row first; row 1 is the south edge
    spaces = frozenset(r * width + c for r, row in enumerate(rows) for c, char in enumerate(row) if char == ".")
    if not spaces:
        raise DataError("the map has no spaces")
    return width, len(rows), spaces


def _read_starts(table: object, board: BoardMap) -> dict[int, tuple[int, int]]:
    if not isinstance(table, dict) or not table:
        raise DataError("'[starts]' (player number = two squares) is missing")
    starts: dict[int, tuple[int, int]] = {}
    seen: dict[int, int] = {}
    for key, value in table.items():
        if not key.isdigit() or int(key) < 1:
            raise DataError(f"starting pair {key!r}: pairs are numbered 1, 2, 3, ...")
        number = int(key)
        if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, str) for v in value):
            raise DataError(f'starting pair {number}: two squares, like ["b2", "d4"]')
        cells = []
        for square in value:
            cell = board.cell(square)
            if not board.is_space(cell):
                raise DataError(f"starting pair {number}: {square!r} is not a space of the map")
            if cell in seen:
                raise DataError(f"starting pair {number}: {square} is already in pair {seen[cell]}")
            seen[cell] = number
            cells.append(cell)
        if cells[0] == cells[1]:
            raise DataError(f"starting pair {number}: two different squares")
        starts[number] = (cells[0], cells[1])
    return dict(sorted(starts.items()))


@cache
def shipped_boards() -> dict[str, Path]:
    """The boards shipped with the game, by lower-case name (the file stem); listed once per process (do not
    change the dict)."""
    return {path.stem.lower(): path for path in sorted(BOARD_DIR.glob("*.toml"))}


@cache
def parse_board_text(text: str) -> BoardMap:
    """A board file's text read once per process (records name the same few boards)."""
    return load_board(text)


def shipped_board(name: str) -> BoardMap:
    path = shipped_boards().get(name.strip().lower())
    if path is None:
        raise DataError(f"no shipped board {name!r} (shipped: {', '.join(shipped_boards())})")
    return parse_board_text(path.read_text(encoding="utf-8"))
