"""The turn engine: the position, the steps of a turn, and every legal complete turn of a played card.

One rule, one place: a profession (``professions.py``) enumerates its *candidate* turns as step sequences from the
shared pieces here (a move, a build, a forced move); each "if possible" effect marks the turns that perform it
(``tags``) and the turns that reach the moment where it would happen (``points``). ``settle`` then keeps, wherever
some complete turn performs a required effect, only the turns that do — the [D2] reading of "if possible". The list
of legal turns gives the error column, lists the legal alternatives and feeds the generator.

A record line is judged without the list (``judge.find_turn``): the same enumeration runs with a *guide* on the
context (``TurnContext.guide``), which every step passes before it is made. A pruned step is never made, so only the
record's own steps are followed; a search for a turn that performs an effect is guided the same way. Every step a
turn function takes goes through ``TurnContext.move``, ``force``, ``build`` or ``skyscraper`` (None: not possible
here, or pruned), and no turn function decides anything from whether a step was made (it asks the position).

A winning step ends the turn at once (ruling 2): the enumeration stops a path there, so nothing may follow it, and a
win that comes before an effect's moment is never held against that effect.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from referee.record import made_once
from referee.santorini_new_york.board import BoardMap, Geometry
from referee.santorini_new_york.options import SNYOptions

ROOF = 4  # the level a build reaches when it puts a rooftop on a level-3 building


class Position:
    """Heights, rooftops, skyscrapers and workers; immutable (every change makes a new one), so turns can share it."""

    __slots__ = ("_seated", "height", "roof", "sky", "workers")

    def __init__(self, height: tuple[int, ...], roof: frozenset[int], sky: frozenset[int], workers: dict[int, int]):
        self.height = height
        self.roof = roof
        self.sky = sky
        self.workers = workers  # cell -> seat; never changed in place
        self._seated: dict[int, list[int]] | None = None  # seat -> his workers, made when first asked

    @classmethod
    def empty(cls, board: BoardMap) -> Position:
        """The board before setup: one object per board (a position is never changed)."""
        size = board.width * board.height
        return made_once(_EMPTY, id(board), (board,), lambda: cls((0,) * size, frozenset(), frozenset(), {}))

    def key(self) -> tuple:
        return (self.height, tuple(sorted(self.roof)), tuple(sorted(self.sky)), tuple(sorted(self.workers.items())))

    def occupied(self, cell: int) -> bool:
        """A worker, a skyscraper or a rooftop makes a space occupied."""
        return cell in self.workers or cell in self.sky or cell in self.roof

    def level_after_build(self, cell: int) -> int:
        return ROOF if self.height[cell] == 3 else self.height[cell] + 1

    def workers_of(self, seat: int) -> list[int]:
        """A seat's workers, in cell order (kept: every turn judged asks it of the same position; do not change the
        list)."""
        seated = self._seated
        if seated is None:
            seated = self._seated = {}
            for cell in sorted(self.workers):
                seated.setdefault(self.workers[cell], []).append(cell)
        return seated.get(seat, [])

    def moved(self, frm: int, to: int) -> Position:
        workers = dict(self.workers)
        workers[to] = workers.pop(frm)
        return Position(self.height, self.roof, self.sky, workers)

    def built(self, cell: int) -> Position:
        if self.height[cell] == 3:
            return Position(self.height, self.roof | {cell}, self.sky, self.workers)
        height = list(self.height)
        height[cell] += 1
        return Position(tuple(height), self.roof, self.sky, self.workers)

    def with_skyscraper(self, cell: int) -> Position:
        return Position(self.height, self.roof, self.sky | {cell}, self.workers)

    def with_worker(self, cell: int, seat: int) -> Position:
        return Position(self.height, self.roof, self.sky, {**self.workers, cell: seat})

    def without_worker(self, cell: int) -> Position:
        workers = dict(self.workers)
        del workers[cell]
        return Position(self.height, self.roof, self.sky, workers)

    def pieces_used(self, level: int) -> int:
        """Pieces of one kind on the board: blocks of level 1-3, rooftops (ROOF)."""
        if level == ROOF:
            return len(self.roof)
        return sum(1 for h in self.height if h >= level)


_EMPTY: dict[int, tuple[tuple[object, ...], Position]] = {}  # id(board) -> ((the board,), its empty position)


class Act(NamedTuple):
    """One step of a turn. kind: 'move' (the turn's own worker), 'force' (a forced move), 'compel' (the Night
    Guard's compelled move, written 'force' or 'move'), 'build' (``level`` reached; ROOF for a rooftop), 'sky'."""

    kind: str
    a: int
    b: int
    level: int = 0


# A named tuple made from all its fields at once, without the generated ``__new__`` (a second Python call): the
# engine makes steps and paths by the thousand.
_new = tuple.__new__


class Path(NamedTuple):
    """A (partial or complete) turn: its steps, the position they lead to, the if-possible effects it performed
    (``tags``) and the effect moments it reached with their choice keys (``points``), and a win it makes. (A named
    tuple: turns are made by the thousand, and it is the cheapest immutable record.)"""

    acts: tuple[Act, ...]
    pos: Position
    tags: frozenset[str] = frozenset()
    points: tuple[tuple[str, tuple], ...] = ()
    winner: int | None = None
    win_kind: str | None = None  # 'climb' | 'engineer-rooftop'
    removed: int | None = None  # a worker the turn takes out of the game (Firefighter's rooftop)

    def then(self, act: Act, pos: Position, winner: int | None = None, win_kind: str | None = None) -> Path:
        return _new(Path, ((*self.acts, act), pos, self.tags, self.points, winner, win_kind, self.removed))

    def tag(self, effect: str) -> Path:
        return _new(
            Path, (self.acts, self.pos, self.tags | {effect}, self.points, self.winner, self.win_kind, self.removed)
        )

    def reach(self, effect: str, key: tuple) -> Path:
        """The moment of an effect, with the key of the choices made before it (a turn reaches each effect's moment
        at most once: a guided search relies on it)."""
        points = (*self.points, (effect, key))
        return _new(Path, (self.acts, self.pos, self.tags, points, self.winner, self.win_kind, self.removed))

    def reach_here(self, effect: str) -> Path:
        """The moment of an effect keyed by the steps so far (``Steps``): a search for a turn that performs it
        follows those steps."""
        return self.reach(effect, Steps(self.acts))


NOWHERE: frozenset[int | None] = frozenset()  # an aim no step may follow


class Steps(tuple[Act, ...]):
    """An effect's key that is the turn's steps before its moment: every turn reaching it starts with them."""

    __slots__ = ()


class Guide:
    """What a guided enumeration may follow: ``allows`` sees each step (``act``) before it is added to ``p``."""

    __slots__ = ()

    def allows(self, p: Path, act: Act) -> bool:
        raise NotImplementedError

    def aim(self, p: Path, kind: str, a: int | None) -> frozenset[int | None] | None:
        """Where ``p``'s next step of ``kind`` (``act.kind``) from cell ``a`` (None: any) may go (its ``act.b``;
        None: anywhere): ``allows`` refuses every such step to another cell (a piece then skips them)."""
        return None


@dataclass
class Supply:
    """Finite piece counts (0 = unlimited): blocks of level 1, 2, 3, rooftops, skyscrapers."""

    blocks: tuple[int, int, int] = (0, 0, 0)
    rooftops: int = 0
    skyscrapers: int = 0
    finite: bool = False  # some block or rooftop count is limited (checked before counting pieces)

    @classmethod
    def of(cls, options: SNYOptions) -> Supply:
        blocks = (options.supply_blocks_1, options.supply_blocks_2, options.supply_blocks_3)
        return cls(
            blocks, options.supply_rooftops, options.supply_skyscrapers, any(blocks) or options.supply_rooftops > 0
        )

    def has(self, pos: Position, level: int) -> bool:
        limit = self.rooftops if level == ROOF else self.blocks[level - 1]
        return limit == 0 or pos.pieces_used(level) < limit

    def has_skyscraper(self, pos: Position) -> bool:
        return self.skyscrapers == 0 or len(pos.sky) < self.skyscrapers


@dataclass(slots=True)
class TurnContext:
    """Who plays which card, on which board, under which options: what the shared pieces of a turn ask."""

    geo: Geometry
    options: SNYOptions
    seat: int
    profession: str
    holder: int | None  # the Statue holder: only he wins by climbing or by the Engineer's rooftop
    supply: Supply = field(default_factory=Supply)
    guide: Guide | None = None  # prunes the steps an enumeration follows (None: every candidate turn)

    def start(self, pos: Position) -> Path:
        return _new(Path, ((), pos, frozenset(), (), None, None, None))

    def aim(self, p: Path, kind: str, a: int | None = None) -> frozenset[int | None] | None:
        """Where the next step of this kind, from ``a``, may go in this enumeration (None: anywhere, unguided)."""
        return None if self.guide is None else self.guide.aim(p, kind, a)

    def may(self, p: Path, kind: str, a: int | None = None) -> bool:
        """Could the next step be of this kind, from ``a``, in this enumeration (always, unguided)?"""
        return self.guide is None or self.guide.aim(p, kind, a) != NOWHERE

    def guided(self, guide: Guide | None) -> TurnContext:
        """The same context, its enumerations following ``guide``."""
        return TurnContext(self.geo, self.options, self.seat, self.profession, self.holder, self.supply, guide)

    def own(self, pos: Position) -> list[int]:
        return pos.workers_of(self.seat)

    def opponents_next_to(self, pos: Position, cell: int) -> list[int]:
        return [n for n in self.geo.neighbours[cell] if n in pos.workers and pos.workers[n] != self.seat]

    def workers_next_to(self, pos: Position, cell: int) -> list[int]:
        return [n for n in self.geo.neighbours[cell] if n in pos.workers]

    @staticmethod
    def climbs_ok(pos: Position, frm: int, to: int) -> bool:
        return pos.height[to] <= pos.height[frm] + 1

    def move(self, p: Path, frm: int, to: int, kind: str = "move") -> Path | None:
        """A worker's own move (also the Night Guard's compelled move): up from level 2 onto level 3 wins for the
        Statue holder. None: pruned by the guide."""
        act = _new(Act, (kind, frm, to, 0))
        if self.guide is not None and not self.guide.allows(p, act):
            return None
        owner = p.pos.workers[frm]
        wins = owner == self.holder and p.pos.height[frm] == 2 and p.pos.height[to] == 3
        return p.then(act, p.pos.moved(frm, to), owner if wins else None, "climb" if wins else None)

    def force(self, p: Path, frm: int, to: int, kind: str = "force") -> Path | None:
        """A forced move: any height, never a win. None: pruned by the guide."""
        act = _new(Act, (kind, frm, to, 0))
        if self.guide is not None and not self.guide.allows(p, act):
            return None
        return p.then(act, p.pos.moved(frm, to))

    def build(self, p: Path, cell: int) -> Path | None:
        """A block or (on level 3) a rooftop; None when the supply has none left (or pruned by the guide). An
        Engineer's rooftop wins for the Statue holder."""
        level = p.pos.level_after_build(cell)
        act = _new(Act, ("build", cell, cell, level))
        if self.guide is not None and not self.guide.allows(p, act):
            return None
        if self.supply.finite and not self.supply.has(p.pos, level):
            return None
        wins = level == ROOF and self.profession == "Engineer" and self.seat == self.holder
        return p.then(
            act,
            p.pos.built(cell),
            self.seat if wins else None,
            "engineer-rooftop" if wins else None,
        )

    def skyscraper(self, p: Path, cell: int) -> Path | None:
        """A skyscraper (None: pruned by the guide)."""
        act = _new(Act, ("sky", cell, cell, 0))
        if self.guide is not None and not self.guide.allows(p, act):
            return None
        return p.then(act, p.pos.with_skyscraper(cell))

    def skyscraper_spaces(self, pos: Position, near: list[int]) -> list[int]:
        """Unoccupied ground-level spaces next to any of ``near`` (while skyscrapers are left)."""
        if not self.supply.has_skyscraper(pos):
            return []
        cells = {n for c in near for n in self.geo.neighbours[c]}
        return sorted(c for c in cells if pos.height[c] == 0 and not pos.occupied(c))

    def build_spaces(self, pos: Position, at: int, aim: frozenset[int | None] | None = None) -> list[int]:
        """The unoccupied spaces next to ``at`` (among ``aim``, when given: ``TurnContext.aim``)."""
        if aim is not None:
            return [n for n in self.geo.neighbours[at] if n in aim and not pos.occupied(n)]
        return [n for n in self.geo.neighbours[at] if not pos.occupied(n)]


# ------------------------------------------------------------------------------------------ shared pieces
Moves = Iterator[tuple[Path, int]]


def plain_moves(t: TurnContext, p: Path, w: int) -> Moves:
    """A normal move: to an unoccupied neighbouring space, up at most one level."""
    aim = t.aim(p, "move", w)
    if aim is None:
        targets = t.geo.neighbours[w]
    elif not aim:
        return  # not this worker's move (a guided enumeration)
    else:
        targets = tuple(n for n in t.geo.neighbours[w] if n in aim)
    for to in targets:
        if not p.pos.occupied(to) and t.climbs_ok(p.pos, w, to):
            moved = t.move(p, w, to)
            if moved is not None:
                yield moved, to


def one_build(t: TurnContext, p: Path, at: int) -> Iterator[Path]:
    """A normal build: one block or rooftop next to the worker's space ``at``."""
    for cell in t.build_spaces(p.pos, at, t.aim(p, "build")):
        built = t.build(p, cell)
        if built is not None:
            yield built


def move_then_build(t: TurnContext, p: Path, w: int, moves=plain_moves, builds=one_build, end=None) -> Iterator[Path]:
    """The skeleton of every turn: move the worker, then build, then an end-of-turn effect. A win ends the path."""
    for moved, at in moves(t, p, w):
        if moved.winner is not None:
            yield moved
            continue
        for built in builds(t, moved, at):
            if built.winner is not None or end is None:
                yield built
            else:
                yield from end(t, built, at)


def settle(paths: Iterator[Path], scopes: dict[str, str]) -> list[Path]:
    """The legal turns among the candidates: an effect some turn performs at a moment (same key; ``'turn'`` scope:
    anywhere in the turn) is required of every turn that reaches that moment. Equal step sequences are one turn."""
    candidates = list(paths)

    whole = {effect for effect, scope in scopes.items() if scope == "turn"}
    required = {(e, () if e in whole else k) for p in candidates if p.tags for e, k in p.points if e in p.tags}
    legal: list[Path] = []
    seen: set[tuple[Act, ...]] = set()
    for p in candidates:
        if required and any((e, () if e in whole else k) in required and e not in p.tags for e, k in p.points):
            continue
        if p.acts not in seen:
            seen.add(p.acts)
            legal.append(p)
    return legal


def replay_acts(pos: Position, acts: tuple[Act, ...]) -> Position:
    """The position after some steps (for describing an error mid-turn)."""
    for act in acts:
        if act.kind == "build":
            pos = pos.built(act.a)
        elif act.kind == "sky":
            pos = pos.with_skyscraper(act.a)
        else:
            pos = pos.moved(act.a, act.b)
    return pos
