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

from referee.santorini_new_york.board import DIAGONAL
from referee.santorini_new_york.engine import ROOF, Act, Path, Position, TurnContext
from referee.santorini_new_york.notation import BuildStep, ForceStep, MoveStep, SkyscraperStep, Step
from referee.santorini_new_york.professions import SKYSCRAPER

_new = tuple.__new__  # as in engine: a named tuple from all its fields at once
_NO_TAGS: frozenset[str] = frozenset()
_SKY_TAGS = frozenset((SKYSCRAPER,))


def _free(pos: Position, cell: int) -> bool:
    """``Position.occupied`` negated: no worker, no skyscraper, no rooftop."""
    return cell not in pos.workers and cell not in pos.sky and cell not in pos.roof


# ------------------------------------------------------------------------------------------------ the moves
# A card's own move from ``frm`` to ``to`` (both spaces, ``frm`` one of the player's workers): is it one the card's
# move function (``professions``) yields? Each answers exactly as that function's loop does.
Mover = Callable[[TurnContext, Position, int, int], bool]


def plain_move(t: TurnContext, pos: Position, frm: int, to: int) -> bool:
    """``engine.plain_moves``: a neighbouring unoccupied space, up at most one level."""
    return (
        to in t.geo.neighbours[frm]
        and to not in pos.workers
        and to not in pos.sky
        and to not in pos.roof
        and pos.height[to] <= pos.height[frm] + 1
    )


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


# ------------------------------------------------------------------------------------------------ move and build
def move_then_build(
    t: TurnContext,
    pos: Position,
    steps: tuple[Step, ...],
    index: int,
    moves: Mover,
    builds: int,
    acts: tuple[Act, ...] = (),
    tags: frozenset[str] = _NO_TAGS,
    points: tuple[tuple[str, tuple], ...] = (),
) -> Path | None:
    """``engine.move_then_build`` for the record's move ``steps[index]`` (after ``acts``, which led to ``pos``),
    then its builds — ``builds`` of them on as many different spaces next to the moved worker (``engine.one_build``,
    ``professions.two_builds``), each as ``TurnContext.build`` makes it (the Engineer's rooftop wins). A winning move
    ends the turn (nothing may follow it). The supply is unlimited (``quick_turn``), and the builds are on different
    spaces, so each build is judged on the position after the move; the turn's position is made once, at the end."""
    step = steps[index]
    if type(step) is not MoveStep:
        return None
    names = t.geo.space_names
    frm, to = names.get(step.frm.name), names.get(step.to.name)
    workers, height, seat = pos.workers, pos.height, t.seat
    if frm is None or to is None or workers.get(frm) != seat or not moves(t, pos, frm, to):
        return None
    move = _new(Act, ("move", frm, to, 0))
    moved = dict(workers)
    moved[to] = moved.pop(frm)
    if seat == t.holder and height[frm] == 2 and height[to] == 3:  # the climb wins
        if index + 1 != len(steps):
            return None
        return _new(
            Path, ((*acts, move), Position(height, pos.roof, pos.sky, moved), tags, points, seat, "climb", None)
        )
    out = [*acts, move]
    near, sky, roof = t.geo.neighbours[to], pos.sky, pos.roof
    levels = list(height)
    roofs = roof
    winner = win_kind = None
    for later in steps[index + 1 :]:
        if type(later) is not BuildStep:
            return None
        for target in later.targets:
            cell = names.get(target.square.name)
            if cell is None or cell not in near or cell in moved or cell in sky or cell in roofs:
                return None  # not a space next to the worker, or occupied (a rooftop built this turn included)
            if levels[cell] != height[cell]:
                return None  # built on already this turn: the builds are on different spaces
            level = ROOF if height[cell] == 3 else height[cell] + 1
            if target.claim is not None and target.claim != level:
                return None
            if level == ROOF:
                roofs = roofs | {cell}
                if t.profession == "Engineer" and seat == t.holder:
                    winner, win_kind = seat, "engineer-rooftop"
            else:
                levels[cell] = level
            out.append(_new(Act, ("build", cell, cell, level)))
    if len(out) != len(acts) + 1 + builds:
        return None
    new = Position(tuple(levels), roofs, sky, moved)
    return _new(Path, (tuple(out), new, tags, points, winner, win_kind, None))


# ------------------------------------------------------------------------------------------------ the cards
def plain_card(moves: Mover, builds: int) -> Callable[[TurnContext, Position, tuple[Step, ...]], Path | None]:
    """A card without an "if possible" effect whose turn is a move and its builds (``professions.each_worker``)."""

    def judge(t: TurnContext, pos: Position, steps: tuple[Step, ...]) -> Path | None:
        return move_then_build(t, pos, steps, 0, moves, builds)  # (a closure: cheaper to call than a partial)

    return judge


def engineer(t: TurnContext, pos: Position, steps: tuple[Step, ...]) -> Path | None:
    """``professions.engineer``: ``skyscraper s; move w-b; build c`` with ``s`` one of the skyscraper spaces next to
    the moving worker (or either worker, engineer_skyscraper_by_mover off); or ``move w-b; build c`` when no
    skyscraper space exists at all (then no turn performs the if-possible skyscraper, whatever its scope: otherwise
    whether one does is a search, left to find_turn)."""
    names = t.geo.space_names
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
    # turn when the if-possible scope is the whole turn); ``TurnContext.skyscraper_spaces`` asked of one space
    whole = not sky and t.options.if_possible_scope == "turn"
    near = [w] if t.options.engineer_skyscraper_by_mover and not whole else t.own(pos)
    neighbours, height = t.geo.neighbours, pos.height
    point = ((SKYSCRAPER, (w,)),)
    if not sky:
        if t.supply.has_skyscraper(pos) and any(
            height[cell] == 0 and _free(pos, cell) for worker in near for cell in neighbours[worker]
        ):
            return None
        return move_then_build(t, pos, steps, 0, plain_move, 1, (), _NO_TAGS, point)
    assert isinstance(first, SkyscraperStep)
    cell = names.get(first.square.name)
    if cell is None or height[cell] != 0 or not _free(pos, cell) or not t.supply.has_skyscraper(pos):
        return None
    if not any(cell in neighbours[worker] for worker in near):
        return None
    act = _new(Act, ("sky", cell, cell, 0))
    return move_then_build(t, pos.with_skyscraper(cell), steps, 1, plain_move, 1, (act,), _SKY_TAGS, point)


def nypd_officer(t: TurnContext, pos: Position, steps: tuple[Step, ...]) -> Path | None:
    """``professions.nypd_moves`` with the push optional (nypd_push_optional; otherwise an if-possible effect, left
    to find_turn): a plain move, or ``force o-back; move w-o`` — ``o`` an opponent's worker next to ``w``, ``back``
    one more step in that direction, a space and unoccupied (any height), and ``w`` able to climb onto ``o``."""
    if not t.options.nypd_push_optional:
        return None
    names = t.geo.space_names
    first = steps[0]
    if type(first) is not ForceStep:
        return move_then_build(t, pos, steps, 0, plain_move, 1)
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
    act = _new(Act, ("force", other, back, 0))  # the push is optional: no effect tag
    return move_then_build(t, pos.moved(other, back), steps, 1, _onto_pushed, 1, (act,))


def _onto_pushed(t: TurnContext, pos: Position, frm: int, to: int) -> bool:
    """The officer's move onto the space the push emptied (checked before the push: next to it, climbs at most 1)."""
    return True


QUICK: dict[str, Callable[[TurnContext, Position, tuple[Step, ...]], Path | None]] = {
    "Engineer": engineer,
    "Iron Worker": plain_card(plain_move, 2),
    "NYPD Officer": nypd_officer,
    "Subway Operator": plain_card(subway_move, 1),
}
# The cards of the first-game deck (rules §1.3), by far the most played.


def quick_turn(t: TurnContext, pos: Position, steps: tuple[Step, ...]) -> Path | None:
    """The legal turn the record's steps are, when the quick judge is sure of it; None otherwise (ask find_turn)."""
    judge = QUICK.get(t.profession)
    if judge is None or not steps or t.supply.finite:  # a limited supply: each build's piece counted, by find_turn
        return None
    return judge(t, pos, steps)
