"""The quick judge: a common turn line checked straight against the position, without enumerating the card's turns.

Most lines of a record are a plain turn of a card whose turns have a fixed shape — ``move a-b; build c`` (Iron Worker:
two builds; Engineer: a skyscraper first; NYPD Officer: a push first; Subway Operator: a move along a line). For those
cards the rules of ``professions`` are few enough to check one written line directly: the move, the builds, the
skyscraper and the push, each exactly as the card's turn function makes it (same conditions, same order, the same
``Path`` — steps, position, win). The quick judge only ever says *yes*: ``quick_turn`` returns the legal turn a line
is, or None when it is not sure — another card, a house rule it does not model, an "if possible" effect that some
turn could perform, a square it does not know, or an illegal line — and then ``judge.find_turn`` (and the list of
legal turns, for the error) judges the line as before. So a verdict, an error, its column and its message never come
from here. ``tests/test_santorini_quick.py`` checks every yes against the reference judge on generated and mutated
lines.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.santorini_new_york.board import DIAGONAL, Geometry
from referee.santorini_new_york.engine import ROOF, Act, Path, Position, TurnContext
from referee.santorini_new_york.notation import BuildStep, ForceStep, MoveStep, SkyscraperStep, Step
from referee.santorini_new_york.professions import SKYSCRAPER

_new = tuple.__new__  # as in engine: a named tuple from all its fields at once
_NO_TAGS: frozenset[str] = frozenset()
_SKY_TAGS = frozenset((SKYSCRAPER,))

# board -> its spaces by square name (a record's square names are lower case); void cells and names off the grid are
# not in it (the quick judge then leaves the line to find_turn, which names the problem).
_SPACES: dict[int, tuple[Geometry, dict[str, int]]] = {}


def space_names(geo: Geometry) -> dict[str, int]:
    """The board's spaces by their square names, made once per geometry (kept by identity, as ``Geometry.of``)."""
    held = _SPACES.get(id(geo))
    if held is None or held[0] is not geo:
        if len(_SPACES) >= 64:
            _SPACES.clear()
        board = geo.board
        held = _SPACES[id(geo)] = (geo, {board.square(cell): cell for cell in board.spaces})
    return held[1]


def _free(pos: Position, cell: int) -> bool:
    """``Position.occupied`` negated: no worker, no skyscraper, no rooftop."""
    return cell not in pos.workers and cell not in pos.sky and cell not in pos.roof


# ------------------------------------------------------------------------------------------------ the moves
# A card's own move from ``frm`` to ``to`` (both spaces, ``frm`` one of the player's workers): is it one the card's
# move function (``professions``) yields? Each answers exactly as that function's loop does.
Mover = Callable[[TurnContext, Position, int, int], bool]


def plain_move(t: TurnContext, pos: Position, frm: int, to: int) -> bool:
    """``engine.plain_moves``: a neighbouring unoccupied space, up at most one level."""
    return to in t.geo.neighbours[frm] and _free(pos, to) and pos.height[to] <= pos.height[frm] + 1


def subway_move(t: TurnContext, pos: Position, frm: int, to: int) -> bool:
    """``professions.subway_moves``: along the line from ``frm`` through ``to`` (north, south, east or west), ``to``
    is the first unoccupied space the worker can climb to, and (with subway_too_high_closes) no unoccupied space too
    high comes before it."""
    width = t.geo.board.width
    dx, dy = to % width - frm % width, to // width - frm // width
    if (dx and dy) or not (dx or dy):  # not along a line north, south, east or west
        return False
    direction = (0, 1 if dy > 0 else -1) if dx == 0 else (1 if dx > 0 else -1, 0)
    spaces, height, closes = t.geo.board.spaces, pos.height, t.options.subway_too_high_closes
    top = height[frm] + 1
    for cell in t.geo.line(frm, direction):
        if cell not in spaces or not _free(pos, cell):
            continue
        if height[cell] <= top:
            return cell == to
        if closes:
            return False
    return False


# ------------------------------------------------------------------------------------------------ the builds
def _builds(steps: tuple[Step, ...], start: int, names: dict[str, int]) -> list[tuple[int, int | None]] | None:
    """The cells and claims of the record's builds from ``steps[start]`` on, every one of them a build (None: a step
    of another kind, or a square that is no space)."""
    out: list[tuple[int, int | None]] = []
    for index in range(start, len(steps)):
        step = steps[index]
        if type(step) is not BuildStep:
            return None
        for target in step.targets:
            cell = names.get(target.square.name)
            if cell is None:
                return None
            out.append((cell, target.claim))
    return out


def _build(t: TurnContext, p: Path, at: int, cell: int, claim: int | None) -> Path | None:
    """``TurnContext.build`` of a block or rooftop next to ``at`` (``TurnContext.build_spaces``), its level as
    claimed; None when the card's build does not allow it."""
    pos = p.pos
    if cell not in t.geo.neighbours[at] or not _free(pos, cell):
        return None
    level = ROOF if pos.height[cell] == 3 else pos.height[cell] + 1
    if claim is not None and claim != level:
        return None
    if t.supply.finite and not t.supply.has(pos, level):
        return None
    wins = level == ROOF and t.profession == "Engineer" and t.seat == t.holder
    act = _new(Act, ("build", cell, cell, level))
    return p.then(act, pos.built(cell), t.seat if wins else None, "engineer-rooftop" if wins else None)


def one_build(t: TurnContext, p: Path, at: int, builds: list[tuple[int, int | None]]) -> Path | None:
    """``engine.one_build``: exactly one build next to the moved worker."""
    if len(builds) != 1:
        return None
    return _build(t, p, at, *builds[0])


def two_builds(t: TurnContext, p: Path, at: int, builds: list[tuple[int, int | None]]) -> Path | None:
    """``professions.two_builds`` (Iron Worker): two builds on two different spaces next to the moved worker."""
    if len(builds) != 2 or builds[0][0] == builds[1][0]:
        return None
    once = _build(t, p, at, *builds[0])
    return None if once is None else _build(t, once, at, *builds[1])


Builder = Callable[[TurnContext, Path, int, list[tuple[int, int | None]]], Path | None]


def move_then_build(
    t: TurnContext, p: Path, steps: tuple[Step, ...], index: int, names: dict[str, int], moves: Mover, builds: Builder
) -> Path | None:
    """``engine.move_then_build`` for the record's move ``steps[index]`` of one of the player's workers, then its
    builds: a winning move ends the turn (nothing may follow it)."""
    step = steps[index]
    if type(step) is not MoveStep:
        return None
    frm, to = names.get(step.frm.name), names.get(step.to.name)
    pos = p.pos
    if frm is None or to is None or pos.workers.get(frm) != t.seat or not moves(t, pos, frm, to):
        return None
    wins = t.seat == t.holder and pos.height[frm] == 2 and pos.height[to] == 3
    moved = p.then(
        _new(Act, ("move", frm, to, 0)), pos.moved(frm, to), t.seat if wins else None, "climb" if wins else None
    )
    if wins:
        return moved if index + 1 == len(steps) else None
    found = _builds(steps, index + 1, names)
    return None if found is None else builds(t, moved, to, found)


# ------------------------------------------------------------------------------------------------ the cards
def plain_card(moves: Mover, builds: Builder) -> Callable[[TurnContext, Position, tuple[Step, ...]], Path | None]:
    """A card without an "if possible" effect whose turn is a move and its builds (``professions.each_worker``)."""

    def judge(t: TurnContext, pos: Position, steps: tuple[Step, ...]) -> Path | None:
        start = _new(Path, ((), pos, _NO_TAGS, (), None, None, None))
        return move_then_build(t, start, steps, 0, space_names(t.geo), moves, builds)

    return judge


def engineer(t: TurnContext, pos: Position, steps: tuple[Step, ...]) -> Path | None:
    """``professions.engineer``: ``skyscraper s; move w-b; build c`` with ``s`` one of the skyscraper spaces next to
    the moving worker (or either worker, engineer_skyscraper_by_mover off); or ``move w-b; build c`` when no
    skyscraper space exists at all (then no turn performs the if-possible skyscraper, whatever its scope: otherwise
    whether one does is a search, left to find_turn)."""
    names = space_names(t.geo)
    first = steps[0]
    sky = type(first) is SkyscraperStep
    index = 1 if sky else 0
    if index >= len(steps) or type(steps[index]) is not MoveStep:
        return None
    mover = steps[index]
    assert isinstance(mover, MoveStep)
    w = names.get(mover.frm.name)
    if w is None or pos.workers.get(w) != t.seat:
        return None
    # the workers the skyscraper may go next to: those of the turns a search for it would look at (any worker's
    # turn when the if-possible scope is the whole turn)
    whole = not sky and t.options.if_possible_scope == "turn"
    near = [w] if t.options.engineer_skyscraper_by_mover and not whole else t.own(pos)
    spaces = t.skyscraper_spaces(pos, near)
    point = ((SKYSCRAPER, (w,)),)
    if not sky:
        if spaces:
            return None
        start = _new(Path, ((), pos, _NO_TAGS, point, None, None, None))
        return move_then_build(t, start, steps, 0, names, plain_move, one_build)
    assert isinstance(first, SkyscraperStep)
    cell = names.get(first.square.name)
    if cell is None or cell not in spaces:
        return None
    act = _new(Act, ("sky", cell, cell, 0))
    start = _new(Path, ((act,), pos.with_skyscraper(cell), _SKY_TAGS, point, None, None, None))
    return move_then_build(t, start, steps, 1, names, plain_move, one_build)


def nypd_officer(t: TurnContext, pos: Position, steps: tuple[Step, ...]) -> Path | None:
    """``professions.nypd_moves`` with the push optional (nypd_push_optional; otherwise an if-possible effect, left
    to find_turn): a plain move, or ``force o-back; move w-o`` — ``o`` an opponent's worker next to ``w``, ``back``
    one more step in that direction, a space and unoccupied (any height), and ``w`` able to climb onto ``o``."""
    if not t.options.nypd_push_optional:
        return None
    names = space_names(t.geo)
    first = steps[0]
    if type(first) is not ForceStep:
        start = _new(Path, ((), pos, _NO_TAGS, (), None, None, None))
        return move_then_build(t, start, steps, 0, names, plain_move, one_build)
    if len(steps) < 2 or type(steps[1]) is not MoveStep:
        return None
    mover = steps[1]
    assert isinstance(mover, MoveStep)
    other, back = names.get(first.frm.name), names.get(first.to.name)
    w, to = names.get(mover.frm.name), names.get(mover.to.name)
    if other is None or back is None or w is None or to != other:
        return None
    geo = t.geo
    owner = pos.workers.get(other)
    if pos.workers.get(w) != t.seat or owner is None or owner == t.seat or other not in geo.neighbours[w]:
        return None
    direction = geo.direction(w, other)
    if direction in DIAGONAL and not t.options.nypd_diagonal_push:
        return None
    if geo.step(other, direction) != back or not _free(pos, back) or pos.height[other] > pos.height[w] + 1:
        return None
    act = _new(Act, ("force", other, back, 0))
    pushed = _new(Path, ((act,), pos.moved(other, back), _NO_TAGS, (), None, None, None))  # optional: no tag
    return move_then_build(t, pushed, steps, 1, names, _onto_pushed, one_build)


def _onto_pushed(t: TurnContext, pos: Position, frm: int, to: int) -> bool:
    """The officer's move onto the space the push emptied (checked before the push: next to it, climbs at most 1)."""
    return True


QUICK: dict[str, Callable[[TurnContext, Position, tuple[Step, ...]], Path | None]] = {
    "Engineer": engineer,
    "Iron Worker": plain_card(plain_move, two_builds),
    "NYPD Officer": nypd_officer,
    "Subway Operator": plain_card(subway_move, one_build),
}
# The cards of the first-game deck (rules §1.3), by far the most played.


def quick_turn(t: TurnContext, pos: Position, steps: tuple[Step, ...]) -> Path | None:
    """The legal turn the record's steps are, when the quick judge is sure of it; None otherwise (ask find_turn)."""
    judge = QUICK.get(t.profession)
    return None if judge is None or not steps else judge(t, pos, steps)
