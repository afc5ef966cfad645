"""The 14 professions: each card's requirement written out once — one turn function and one table entry per
profession, with its clauses in words (the docs and the error messages quote them).

A turn function yields the candidate turns of the played card (``engine.Path``); "must" is structure (a path that
cannot meet it is never yielded), "if possible" is an effect: ``reach(E, key)`` where its moment comes
(``reach_here(E)`` when the key is the steps so far), ``tag(E)`` when the turn performs it — before the effect's
first step, so a turn that makes a step after the moment without the tag never performs it (a search for a turn
that does follows no other: ``judge.Seek``). ``engine.settle`` keeps the turns the [D2] reading allows. Every step
is made by the context (``t.move``, ``t.force``, ``t.build``, ``t.skyscraper``), which returns None for a step a
guided enumeration does not follow (``engine.Guide``): a turn function skips it, and decides nothing from whether a
step was made. Rulings cited are those of the rules reference, section 8.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from referee.santorini_new_york.board import DIAGONAL, NORTH, ORTHOGONAL, SOUTH
from referee.santorini_new_york.engine import (
    ROOF,
    Moves,
    Path,
    Position,
    TurnContext,
    move_then_build,
    one_build,
    plain_moves,
    settle,
)

# If-possible effects (the names tag the turns that perform them).
SKYSCRAPER, BOTH, CHOSEN, PUSH, COMPEL, VENDOR, REPORT, FOREMAN = (
    "skyscraper",
    "both workers",
    "chosen worker",
    "push",
    "compelled move",
    "vendor's force",
    "reporter's force",
    "foreman's builds",
)
ALL_EFFECTS = (SKYSCRAPER, BOTH, CHOSEN, PUSH, COMPEL, VENDOR, REPORT, FOREMAN)


@dataclass(frozen=True)
class Profession:
    """One profession: its clauses in words, its turns, and how an error against it is described."""

    name: str
    clauses: tuple[str, ...]
    turns: Callable[[TurnContext, Position], Iterator[Path]]
    must: bool = False  # ruling 11: a 'must' card that cannot be met costs a worker
    plain_moves: bool = True  # its own move goes to a neighbouring space
    plain_builds: bool = True  # its builds are next to the moved worker
    whole_turn: tuple[str, ...] = ()  # effects whose "if possible" always covers the whole turn (ruling 9)

    def scopes(self, default: str) -> dict[str, str]:
        """Each effect's [D2] scope: the option's ('moment' or 'turn'), or 'turn' where a ruling fixes it."""
        return {effect: "turn" if effect in self.whole_turn else default for effect in ALL_EFFECTS}


def each_worker(t: TurnContext, pos: Position, **pieces) -> Iterator[Path]:
    """A normal turn shape with either worker: move, build, end effect (the pieces a card changes)."""
    start = t.start(pos)
    for w in t.own(pos):
        yield from move_then_build(t, start, w, **pieces)


# ---------------------------------------------------------------------------------------------- Engineer
def engineer(t: TurnContext, pos: Position) -> Iterator[Path]:
    """[D4] Before the chosen worker moves, if possible a skyscraper next to it; then move and build. The rooftop
    win is in ``TurnContext.build``."""
    start = t.start(pos)
    for w in t.own(pos):
        base = start.reach(SKYSCRAPER, (w,))
        yield from move_then_build(t, base, w)
        near = [w] if t.options.engineer_skyscraper_by_mover else t.own(pos)
        tagged = base.tag(SKYSCRAPER)
        for cell in t.skyscraper_spaces(pos, near) if t.may(tagged, "sky") else ():
            built = t.skyscraper(tagged, cell)
            if built is not None:
                yield from move_then_build(t, built, w)


# ---------------------------------------------------------------------------------------------- Builders
def two_builds(t: TurnContext, p: Path, at: int) -> Iterator[Path]:
    """Iron Worker: two builds on two different spaces next to the worker (must)."""
    for first in t.build_spaces(p.pos, at, t.aim(p, "build")):
        once = t.build(p, first)
        if once is None:
            continue
        for second in t.build_spaces(once.pos, at, t.aim(once, "build")):
            twice = t.build(once, second) if second != first else None
            if twice is not None:
                yield twice


def iron_worker(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, builds=two_builds)


def crane_builds(t: TurnContext, p: Path, at: int) -> Iterator[Path]:
    """Crane Operator: unless the build is a rooftop, build again on the same space (must)."""
    for once in one_build(t, p, at):
        if once.acts[-1].level == ROOF:
            yield once
            continue
        twice = t.build(once, once.acts[-1].a)
        if twice is not None:
            yield twice


def crane_operator(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, builds=crane_builds)


def broadway_actor(t: TurnContext, pos: Position) -> Iterator[Path]:
    """Ruling 9 / [D9]: if any turn moves and builds with both workers, the turn is one of those (one worker moves
    and builds, then the other); otherwise a normal one-worker turn."""
    start = t.start(pos)
    workers = t.own(pos)
    for w in workers:
        for turn in move_then_build(t, start, w):
            yield turn if turn.winner is not None else turn.reach(BOTH, ())
    if len(workers) < 2:
        return
    for first, second in (workers, workers[::-1]):
        if t.options.broadway_one_then_other:
            for half in move_then_build(t, start, first):
                if half.winner is None:
                    yield from move_then_build(t, half.reach(BOTH, ()).tag(BOTH), second)
        else:
            yield from _broadway_moves_first(t, start, first, second)


def _broadway_moves_first(t: TurnContext, start: Path, first: int, second: int) -> Iterator[Path]:
    """[D9] false: both workers move, then both build (the first build next to the first worker)."""
    for moved, at1 in plain_moves(t, start, first):
        if moved.winner is not None:
            continue  # the same as the one-worker winning move
        for both, at2 in plain_moves(t, moved.reach(BOTH, ()).tag(BOTH), second):
            if both.winner is not None:
                yield both
                continue
            for once in one_build(t, both, at1):
                yield from one_build(t, once, at2)


def firefighter(t: TurnContext, pos: Position) -> Iterator[Path]:
    """First build under the chosen worker (must; ruling 5); a rooftop there removes the worker and ends the turn
    (ruling 10); otherwise move and build."""
    start = t.start(pos)
    for w in t.own(pos):
        under = t.build(start, w)
        if under is None:
            continue
        if under.acts[-1].level == ROOF:
            yield Path(under.acts, under.pos.without_worker(w), removed=w)
        else:
            yield from move_then_build(t, under, w)


def foreman_builds(t: TurnContext, p: Path, at: int) -> Iterator[Path]:
    """Foreman: choose a worker next to the moved worker (anyone's), build on two different spaces next to it
    (ruling 8; must, [D8]). With foreman_if_possible, a normal build when no such choice exists."""
    effect = t.options.foreman_if_possible
    base = p.reach_here(FOREMAN) if effect else p
    if effect:
        yield from one_build(t, base, at)
    for chosen in t.workers_next_to(p.pos, at):
        for first in t.build_spaces(p.pos, chosen):
            once = t.build(base.tag(FOREMAN) if effect else base, first)
            if once is None:
                continue
            for second in t.build_spaces(once.pos, chosen):
                twice = t.build(once, second) if second != first else None
                if twice is not None:
                    yield twice


def foreman(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, builds=foreman_builds)


# ---------------------------------------------------------------------------------------------- Specialists
def nypd_moves(t: TurnContext, p: Path, w: int) -> Moves:
    """[D5] / ruling 7: a normal move, or onto an opponent's space when that worker can be forced one more step in
    the officer's direction onto an unoccupied space (any height); the officer climbs at most 1; the push never
    wins. Written 'force O-BACK; move W-O'."""
    optional = t.options.nypd_push_optional
    base = p if optional else p.reach(PUSH, (w,))
    yield from plain_moves(t, base, w)
    for other in t.opponents_next_to(p.pos, w):
        direction = t.geo.direction(w, other)
        if direction in DIAGONAL and not t.options.nypd_diagonal_push:
            continue
        back = t.geo.step(other, direction)
        if not t.geo.board.is_space(back) or p.pos.occupied(back) or not t.climbs_ok(p.pos, w, other):
            continue
        pushed = t.force(base if optional else base.tag(PUSH), other, back)
        if pushed is None:
            continue
        moved = t.move(pushed, w, other)
        if moved is not None:
            yield moved, other


def nypd_officer(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, moves=nypd_moves)


def compelled_spaces(t: TurnContext, pos: Position, worker: int) -> list[int]:
    """[D6] / ruling 6: where the owner's compelled move may go: a normal move (climbs at most 1, may win for him);
    or, with the option off, a forced move to any neighbouring unoccupied space."""
    normal = t.options.night_guard_normal_move
    return [
        to for to in t.geo.neighbours[worker] if not pos.occupied(to) and (not normal or t.climbs_ok(pos, worker, to))
    ]


def night_guard_end(t: TurnContext, p: Path, at: int) -> Iterator[Path]:
    """End of turn: choose an adjacent opponent worker if there is one (required); if it can move, its owner must
    move it (ruling 6: the guard may choose one that cannot move)."""
    base = p.reach_here(COMPEL)
    yield base
    tagged = base.tag(COMPEL)
    for worker in t.opponents_next_to(p.pos, at):
        spaces = compelled_spaces(t, p.pos, worker)
        if not spaces:
            yield tagged
        for to in spaces:
            if t.options.night_guard_normal_move:
                compelled = t.move(tagged, worker, to, kind="compel")
            else:
                compelled = t.force(tagged, worker, to, kind="compel")
            if compelled is not None:
                yield compelled


def night_guard(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, end=night_guard_end)


def street_vendor_end(t: TurnContext, p: Path, at: int) -> Iterator[Path]:
    """End of turn: an opponent worker next to the block just built is forced onto it (required when there is one;
    ruling 8: a rooftop is not a block). With ``street_vendor_next_to_vendor`` (ruling 1's reading), only one next to
    the vendor's worker too."""
    base = p.reach_here(VENDOR)
    yield base
    built = p.acts[-1]
    if built.level == ROOF:
        return
    candidates = t.opponents_next_to(p.pos, built.a)
    if t.options.street_vendor_next_to_vendor:
        candidates = [worker for worker in candidates if worker in t.geo.neighbours[at]]
    for worker in candidates:
        forced = t.force(base.tag(VENDOR), worker, built.a)
        if forced is not None:
            yield forced


def street_vendor(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, end=street_vendor_end)


def fashion_designer(t: TurnContext, pos: Position) -> Iterator[Path]:
    """[D7] / rulings 1, 5: a worker next to the chosen worker's start space is chosen if possible; after the move it
    is forced into the space the worker left; the build may not use that space."""
    start = t.start(pos)
    for w in t.own(pos):
        chosen = [
            c for c in t.workers_next_to(pos, w) if t.options.fashion_designer_own_workers or pos.workers[c] != t.seat
        ]
        for moved, at in plain_moves(t, start, w):
            if moved.winner is not None:
                yield moved
                continue
            yield from one_build(t, moved.reach(CHOSEN, (w,)), at)
            for worker in chosen:
                forced = t.force(moved.reach(CHOSEN, (w,)).tag(CHOSEN), worker, w)
                if forced is not None:
                    yield from one_build(t, forced, at)


def reporter_end(t: TurnContext, p: Path, at: int) -> Iterator[Path]:
    """End of turn: if possible an opponent worker next to the moved worker is forced north or south to the first
    unoccupied space (passing over anything; [D10] the reporter chooses worker and direction; ruling 8)."""
    base = p.reach_here(REPORT)
    yield base
    for worker in t.opponents_next_to(p.pos, at):
        for direction in _report_directions(t, worker, at):
            target = next((c for c in t.geo.line(worker, direction) if _free_space(t, p.pos, c)), None)
            forced = t.force(base.tag(REPORT), worker, target) if target is not None else None
            if forced is not None:
                yield forced


def _report_directions(t: TurnContext, worker: int, reporter: int) -> tuple[tuple[int, int], ...]:
    row, own_row = worker // t.geo.board.width, reporter // t.geo.board.width
    if t.options.reporter_chooses_direction or row == own_row:
        return (NORTH, SOUTH)
    return (NORTH,) if row > own_row else (SOUTH,)


def reporter(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, end=reporter_end)


# ---------------------------------------------------------------------------------------------- Movers
def _free_space(t: TurnContext, pos: Position, cell: int) -> bool:
    return t.geo.board.is_space(cell) and not pos.occupied(cell)


def subway_moves(t: TurnContext, p: Path, w: int) -> Moves:
    """North, south, east or west to the first unoccupied space (passing over anything), climbing at most 1;
    [D11] a too-high first unoccupied space closes the direction."""
    if not t.may(p, "move", w):
        return
    for direction in ORTHOGONAL:
        for cell in t.geo.line(w, direction):
            if not _free_space(t, p.pos, cell):
                continue
            if t.climbs_ok(p.pos, w, cell):
                moved = t.move(p, w, cell)
                if moved is not None:
                    yield moved, cell
                break
            if t.options.subway_too_high_closes:
                break


def subway_operator(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, moves=subway_moves)


def taxi_moves(t: TurnContext, p: Path, w: int) -> Moves:
    """Exactly 2 or 3 spaces in one of the 8 directions, passing over anything, climbing at most 1."""
    if not t.may(p, "move", w):
        return
    for direction in ORTHOGONAL + DIAGONAL:
        for distance in (2, 3):
            cell = t.geo.step(w, direction, distance)
            if cell is not None and _free_space(t, p.pos, cell) and t.climbs_ok(p.pos, w, cell):
                moved = t.move(p, w, cell)
                if moved is not None:
                    yield moved, cell


def taxi_driver(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, moves=taxi_moves)


def tour_bus_moves(t: TurnContext, p: Path, w: int) -> Moves:
    """North, south, east or west to an unoccupied space next to a skyscraper, passing over anything, climbing at
    most 1; [D11] any such space along the line (or only the first, with the option off)."""
    if not t.may(p, "move", w):
        return
    for direction in ORTHOGONAL:
        for cell in t.geo.line(w, direction):
            if not _free_space(t, p.pos, cell) or not any(n in p.pos.sky for n in t.geo.neighbours[cell]):
                continue
            if t.climbs_ok(p.pos, w, cell):
                moved = t.move(p, w, cell)
                if moved is not None:
                    yield moved, cell
            if not t.options.tour_bus_any_space:
                break


def tour_bus_driver(t: TurnContext, pos: Position) -> Iterator[Path]:
    yield from each_worker(t, pos, moves=tour_bus_moves)


# ---------------------------------------------------------------------------------------------- the table
MOVER_CLIMB = (
    "A Mover's worker climbs at most 1 level; its own climb from level 2 onto level 3 wins for the Statue holder."
)
PROFESSIONS: dict[str, Profession] = {
    p.name: p
    for p in (
        Profession(
            "Engineer",
            (
                "Start of the turn, if possible: a skyscraper on an unoccupied ground-level space next to the chosen "
                "worker, before it moves (written 'skyscraper SQ' first) [D4].",
                "Then the worker moves and builds as usual.",
                "Extra win: a rooftop built while holding the Statue wins.",
            ),
            engineer,
        ),
        Profession(
            "Iron Worker",
            ("Must: build on two different spaces next to the moved worker ('build a, b' or 'build a; build b').",),
            iron_worker,
            must=True,
        ),
        Profession(
            "Crane Operator",
            (
                "Must: unless the build is a rooftop, build again on the same space ('build c3, c3'): two levels, or "
                "a level and then a rooftop.",
            ),
            crane_operator,
            must=True,
        ),
        Profession(
            "Broadway Actor",
            (
                "If possible (over the whole turn, ruling 9): both workers move and build — one worker moves and "
                "builds, then the other ('move; build; move; build') [D9]; the first must leave the second able to.",
                "Otherwise a normal turn with one worker.",
            ),
            broadway_actor,
            whole_turn=(BOTH,),
        ),
        Profession(
            "Firefighter",
            (
                "Must: first build under the chosen worker ('build W; move ...; build ...').",
                "A rooftop under it removes that worker from the game and ends the turn (a complete turn).",
                "Otherwise the worker then moves and builds as usual.",
            ),
            firefighter,
            plain_builds=False,
        ),
        Profession(
            "Foreman",
            (
                "Must: after the move choose a worker next to the moved worker (anyone's) and build on two different "
                "spaces next to that worker (not necessarily next to the builder) [D8].",
            ),
            foreman,
            must=True,
            plain_builds=False,
        ),
        Profession(
            "NYPD Officer",
            (
                "May: move onto an opponent worker's space when that worker can be forced one more step in the same "
                "direction (diagonals too) onto an unoccupied space, any height ('force O-BACK; move W-O') [D5].",
                "The officer's move climbs at most 1 and may win; the push never wins.",
            ),
            nypd_officer,
            plain_moves=False,
        ),
        Profession(
            "Night Guard",
            (
                "End of the turn: if an opponent worker stands next to the moved worker, one of them is chosen; if "
                "it can move, its owner moves it at once — a normal move, written last as 'force A-B' or 'move A-B', "
                "which may win for a Statue holder [D6].",
            ),
            night_guard,
        ),
        Profession(
            "Street Vendor",
            (
                "End of the turn: if the build was a block (not a rooftop) and an opponent worker stands next to it, "
                "one of them is forced onto it ('force A-B' last).",
            ),
            street_vendor,
        ),
        Profession(
            "Fashion Designer",
            (
                "Start of the turn, if possible: a worker next to the chosen worker (anyone's [D7]) is chosen; after "
                "the move it is forced into the space the worker left ('move W-D; force X-W; build ...'); the build "
                "may not use that space.",
            ),
            fashion_designer,
        ),
        Profession(
            "Reporter",
            (
                "End of the turn, if possible: an opponent worker next to the moved worker is forced north or south "
                "to the first unoccupied space, passing over anything ('force A-B' last) [D10].",
            ),
            reporter,
        ),
        Profession(
            "Subway Operator",
            (
                "Must: the worker moves north, south, east or west to the first unoccupied space in that direction, "
                "passing over anything; a direction whose first unoccupied space is too high is closed [D11].",
                MOVER_CLIMB,
            ),
            subway_operator,
            must=True,
            plain_moves=False,
        ),
        Profession(
            "Taxi Driver",
            (
                "Must: the worker moves exactly 2 or 3 spaces in one of the 8 directions, passing over anything.",
                MOVER_CLIMB,
            ),
            taxi_driver,
            must=True,
            plain_moves=False,
        ),
        Profession(
            "Tour Bus Driver",
            (
                "Must: the worker moves north, south, east or west to an unoccupied space next to a skyscraper, any "
                "distance, passing over anything [D11].",
                MOVER_CLIMB,
                "Setup: one skyscraper is placed ('skyscraper: SQ').",
            ),
            tour_bus_driver,
            must=True,
            plain_moves=False,
        ),
    )
}


def legal_turns(t: TurnContext, pos: Position) -> list[Path]:
    """Every legal complete turn of the played card for the acting player (empty: he must lose a worker)."""
    profession = PROFESSIONS[t.profession]
    scopes = profession.scopes(t.options.if_possible_scope)
    turns = settle(profession.turns(t, pos), scopes)
    if not turns and profession.must and t.options.must_card_fallback:
        turns = settle(each_worker(t, pos), scopes)  # ruling 11 as a house rule: a normal turn instead
    return turns
