"""Judging one turn line: the record's steps followed through the played card's turns (ruling 4).

The line is legal when its steps are exactly one legal complete turn. ``find_turn`` decides that without listing
the legal turns: the card's enumeration follows only the record's steps (``Follow``), and where the turn it finds
leaves out an "if possible" effect, a search with early exit (``Seek``) asks whether some turn performs it at that
moment (then the line is not legal: [D2]). Only a line found illegal is matched against the list of every legal turn
(``match``), prefix by prefix, for its error. The error is at the first step no
legal turn shares with the record, at its first wrong token (the step word, a square, a claim); a line that stops
where every legal turn goes on is missing a step, at the end of the line. The code names the basic rule the wrong
token breaks (an occupied space, a climb too high, ...) or, when the step is fine by the basic rules, the played
card's requirement, quoted from its clauses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.santorini_new_york.board import BoardMap
from referee.santorini_new_york.codes import SNYCode
from referee.santorini_new_york.engine import (
    NOWHERE,
    ROOF,
    Act,
    Guide,
    Path,
    Position,
    Steps,
    TurnContext,
    replay_acts,
)
from referee.santorini_new_york.notation import BuildStep, ForceStep, MoveStep, Step
from referee.santorini_new_york.professions import PROFESSIONS

LEVEL_WORDS = {1: "level 1", 2: "level 2", 3: "level 3", ROOF: "a rooftop"}
KIND_WORDS = {
    "move": "a move",
    "force": "a forced move",
    "compel": "the compelled move",
    "build": "a build",
    "sky": "a skyscraper",
}


class Written(NamedTuple):
    """One step of the record, as the engine's steps are compared: its kind, cells (None off the grid), square
    names and the column of every token (the step word, each square, the claim)."""

    kind: str
    cells: tuple[int | None, ...]
    squares: tuple[str, ...]
    columns: tuple[int, ...]
    claim: int | None = None
    follow: tuple[Any, ...] = ()  # what ``Follow`` compares an engine step with (``followed``)

    @property
    def size(self) -> int:
        return len(self.columns)


# Each step's engine steps, per board, both by identity: the line parser hands out the same step object for a piece
# it has read before, and an id is far cheaper than hashing a step. Each entry holds its object, so the id stays its
# own.
_WRITTEN: dict[int, tuple[BoardMap, dict[int, tuple[Step, tuple[Written, ...]]]]] = {}
WRITTEN_LIMIT = 100_000


def written_steps(steps: tuple[Step, ...], board: BoardMap) -> list[Written]:
    """The record's steps, one per engine step (``build a, b`` is two builds)."""
    held = _WRITTEN.get(id(board))
    if held is None or held[0] is not board:
        if len(_WRITTEN) >= 16:
            _WRITTEN.clear()
        held = _WRITTEN[id(board)] = (board, {})
    known = held[1]
    out: list[Written] = []
    for step in steps:
        found = known.get(id(step))
        if found is None or found[0] is not step:
            if len(known) >= WRITTEN_LIMIT:
                known.clear()
            found = known[id(step)] = (step, tuple(written_step(step, board)))
        out.extend(found[1])
    return out


def written_step(step: Step, board: BoardMap) -> list[Written]:
    """One step of the record as engine steps."""
    out: list[Written] = []
    if isinstance(step, (MoveStep, ForceStep)):
        kind = "move" if isinstance(step, MoveStep) else "force"
        squares = (step.frm, step.to)
        out.append(
            Written(
                kind,
                tuple(board.cell(s.name) for s in squares),
                tuple(s.name for s in squares),
                (step.column, step.frm.column, step.to.column),
            )
        )
    elif isinstance(step, BuildStep):
        for index, target in enumerate(step.targets):
            lead = step.column if index == 0 else target.square.column
            columns = (lead, target.square.column) + ((target.claim_column,) if target.claim is not None else ())
            out.append(
                Written("build", (board.cell(target.square.name),), (target.square.name,), columns, target.claim)
            )
    else:
        out.append(
            Written("sky", (board.cell(step.square.name),), (step.square.name,), (step.column, step.square.column))
        )
    return [w._replace(follow=followed(w)) for w in out]


# --------------------------------------------------------------------------------------------- the record's turn
Key = tuple[Any, ...]  # an effect's key (engine.Path.reach)
KINDS_FOLLOWED = {"move": ("move", "compel"), "force": ("force", "compel"), "build": ("build",), "sky": ("sky",)}


def followed(w: Written) -> tuple[Any, ...]:
    """The engine steps a record step is: their kinds (a written move or force may be the Night Guard's compelled
    move), a and b (a build's or skyscraper's act has its cell twice), the claimed level, and the aim (b alone)."""
    return (KINDS_FOLLOWED[w.kind], w.cells[0], w.cells[-1], w.claim, frozenset((w.cells[-1],)))


class Follow(Guide):
    """The record's steps: a step is followed only where the record writes it — its kind (a written move or force
    may be the Night Guard's compelled move), its squares, its claimed level — and never past the record's end."""

    __slots__ = ("size", "want")

    def __init__(self, written: list[Written]) -> None:
        self.want = [w.follow for w in written]  # see ``followed``
        self.size = len(written)

    def allows(self, p: Path, act: Act) -> bool:
        index = len(p.acts)
        if index >= self.size:
            return False
        kinds, a, b, claim, _ = self.want[index]
        return act.kind in kinds and act.a == a and act.b == b and (claim is None or claim == act.level)

    def aim(self, p: Path, kind: str, a: int | None) -> frozenset[int | None] | None:
        index = len(p.acts)
        if index >= self.size:
            return NOWHERE
        want = self.want[index]
        return want[4] if kind in want[0] and (a is None or a == want[1]) else NOWHERE


class Seek(Guide):
    """Turns that may perform an effect at its moment with a given key (None: anywhere in the turn): those following
    the key's steps (``Steps``); none that reached the moment with another key (a turn reaches it once), and none
    that makes a step after the moment without the effect's tag (a turn is tagged before the effect's first step)."""

    __slots__ = ("effect", "key", "prefix")

    def __init__(self, effect: str, key: Key | None) -> None:
        self.effect, self.key = effect, key
        self.prefix = key if isinstance(key, Steps) else None

    def allows(self, p: Path, act: Act) -> bool:
        prefix = self.prefix
        if prefix is not None:
            index = len(p.acts)
            if index < len(prefix) and act != prefix[index]:
                return False
        return not self._passed(p)

    def aim(self, p: Path, kind: str, a: int | None) -> frozenset[int | None] | None:
        if self._passed(p):
            return NOWHERE
        prefix = self.prefix
        if prefix is not None:
            index = len(p.acts)
            if index < len(prefix):
                act = prefix[index]
                return frozenset((act.b,)) if act.kind == kind and (a is None or a == act.a) else NOWHERE
        return None

    def _passed(self, p: Path) -> bool:
        """Has ``p`` passed the moment sought (with another key, or without performing the effect)?"""
        for effect, key in p.points:
            if effect == self.effect and (effect not in p.tags or (self.key is not None and key != self.key)):
                return True
        return False


def performs(t: TurnContext, pos: Position, effect: str, key: Key | None) -> bool:
    """Does some candidate turn perform ``effect`` having reached its moment with ``key`` (None: any)? The [D2]
    test of ``engine.settle``, searched with early exit."""
    for turn in PROFESSIONS[t.profession].turns(t.guided(Seek(effect, key)), pos):
        if effect in turn.tags and any(e == effect and (key is None or k == key) for e, k in turn.points):
            return True
    return False


def find_turn(t: TurnContext, pos: Position, written: list[Written]) -> Path | None:
    """The legal turn a line's steps are, or None when they are none (then ``match`` on the list finds the error).

    The same as finding the steps in ``professions.legal_turns``: a candidate turn with exactly the record's steps
    that ``settle`` keeps — no effect it leaves out at a moment it reaches is performed there by another candidate.
    (Candidates with the same steps are the same turn.) With the house rule ``must_card_fallback``, a card that
    allows no turn falls back to the list."""
    profession = PROFESSIONS[t.profession]
    whole = t.options.if_possible_scope == "turn"
    size = len(written)
    known: dict[tuple[str, Key | None], bool] = {}
    for turn in profession.turns(t.guided(Follow(written)), pos):
        if len(turn.acts) != size:
            continue
        for effect, key in turn.points:
            if effect in turn.tags:
                continue
            wanted = (effect, None if whole or effect in profession.whole_turn else key)
            required = known.get(wanted)
            if required is None:
                required = known[wanted] = performs(t, pos, *wanted)
            if required:
                break
        else:
            return turn
    return None


def tokens_matched(w: Written, act: Act) -> int:
    """How many leading tokens of a record step agree with an engine step."""
    same_kind = w.kind == act.kind or (act.kind == "compel" and w.kind in ("move", "force"))
    if not same_kind:
        return 0
    values: tuple[int | None, ...] = (act.a, act.b) if act.kind in ("move", "force", "compel") else (act.a,)
    for index, cell in enumerate(w.cells):
        if cell != values[index]:
            return 1 + index
    if w.claim is not None and w.claim != act.level:
        return 1 + len(w.cells)
    return w.size


@dataclass
class Match:
    """The outcome of matching a line: the legal turn it is, or where and against what it fails."""

    turn: Path | None
    index: int = 0  # the first record step no legal turn shares (== number of steps: a step is missing)
    token: int = 0  # its first wrong token
    sharing: tuple[Path, ...] = ()  # the legal turns that share the record's steps before ``index``


def match(written: list[Written], legal: list[Path]) -> Match:
    best, sharing = -1, []
    for turn in legal:
        k = 0
        while k < len(written) and k < len(turn.acts) and tokens_matched(written[k], turn.acts[k]) == written[k].size:
            k += 1
        if k == len(written) == len(turn.acts):
            return Match(turn)
        if k > best:
            best, sharing = k, [turn]
        elif k == best:
            sharing.append(turn)
    if best == len(written):
        return Match(None, best, 0, tuple(sharing))
    following = [turn.acts[best] for turn in sharing if len(turn.acts) > best]
    token = max((tokens_matched(written[best], act) for act in following), default=0)
    return Match(None, best, token, tuple(sharing))


@dataclass
class Failure:
    kind: SNYCode
    message: str
    column: int


def explain(t: TurnContext, pos: Position, written: list[Written], found: Match, end_column: int, card: str) -> Failure:
    """The code, words and column of a line that is no legal turn (``found`` from ``match``)."""
    board = t.geo.board
    clauses = " ".join(profession_clauses(t.profession))
    if found.index == len(written):
        nexts = sorted({KIND_WORDS[turn.acts[found.index].kind] for turn in found.sharing})
        return Failure(
            SNYCode.INCOMPLETE_TURN,
            f"the turn is not complete: {' or '.join(nexts)} must follow ({card}: {clauses})",
            end_column,
        )
    w = written[found.index]
    column = w.columns[min(found.token, w.size - 1)]
    following = [turn.acts[found.index] for turn in found.sharing if len(turn.acts) > found.index]
    if not following:
        if any(turn.winner is not None for turn in found.sharing):
            return Failure(SNYCode.AFTER_WIN, "the game was won by the previous step: nothing may follow it", column)
        return Failure(SNYCode.EXTRA_STEP, f"the turn is complete; {card} allows no further step ({clauses})", column)
    if found.token == 0:
        kinds = " or ".join(sorted({KIND_WORDS[act.kind] for act in following}))
        return Failure(
            SNYCode.STEP_ORDER, f"here the turn needs {kinds}, not {KIND_WORDS[w.kind]} ({card}: {clauses})", column
        )
    here = replay_acts(pos, found.sharing[0].acts[: found.index])
    compel = any(act.kind == "compel" for act in following)
    problem = basic_rule(t, here, found.sharing[0].acts[: found.index], w, found.token, compel)
    if problem is not None:
        kind, words = problem
        return Failure(kind, words, column)
    if w.kind == "build" and found.token == 2:
        level = next(act.level for act in following if act.kind == "build" and act.a == w.cells[0])
        claimed = LEVEL_WORDS.get(w.claim or 0, f"level {w.claim}")
        return Failure(
            SNYCode.BUILD_CLAIM, f"the build on {w.squares[0]} reaches {LEVEL_WORDS[level]}, not {claimed}", column
        )
    square = board.square
    options = ", ".join(sorted({describe_act(act, square) for act in following}))
    return Failure(
        SNYCode.CARD_RULE, f"{card} does not allow this step here ({clauses}); possible here: {options}", column
    )


def basic_rule(
    t: TurnContext, pos: Position, before: tuple[Act, ...], w: Written, token: int, compel: bool = False
) -> tuple[SNYCode, str] | None:
    """The basic rule (not the card's) a wrong square breaks, if any: off the board, no worker, occupied, too far,
    too high. ``compel``: the Night Guard's compelled move (an opponent's worker, written 'move') may come here."""
    profession = PROFESSIONS[t.profession]
    board = t.geo.board
    index = token - 1
    if index >= len(w.cells):
        return None
    cell, name = w.cells[index], w.squares[index]
    if not board.is_space(cell):
        return SNYCode.NO_SUCH_SPACE, f"{name} is not a space of the board {board.name!r}"
    if w.kind in ("move", "force") and index == 0:
        if cell not in pos.workers:
            return SNYCode.NO_WORKER, f"no worker stands on {name}"
        if w.kind == "move" and pos.workers[cell] != t.seat and not compel:
            return SNYCode.NOT_YOUR_WORKER, f"the worker on {name} is not the player's own"
        return None
    occupant = occupied_by(pos, cell)
    firefighter_under = w.kind == "build" and not before and t.profession == "Firefighter"
    if occupant and not firefighter_under:
        return SNYCode.OCCUPIED, f"{name} is occupied ({occupant})"
    if w.kind == "sky":
        if pos.height[cell] != 0:
            return SNYCode.SKYSCRAPER_SPACE, f"{name} is not at ground level (level {pos.height[cell]})"
        if not any(t.geo.adjacent(own, cell) for own in pos.workers_of(t.seat)):
            return SNYCode.NOT_ADJACENT, f"{name} is next to none of the player's workers"
        return None
    compelled = w.cells[0] if compel and w.kind in ("move", "force") else None
    if compelled is not None and compelled in pos.workers and pos.workers[compelled] != t.seat:
        # the Night Guard's compelled move is a normal move of the owner's (ruling 6): adjacent, climbs at most 1
        if not t.geo.adjacent(compelled, cell):
            return SNYCode.NOT_ADJACENT, f"a compelled move is a normal move: {name} is not next to {w.squares[0]}"
        if pos.height[cell] > pos.height[compelled] + 1:
            return SNYCode.TOO_HIGH, (
                f"a compelled move is a normal move: {w.squares[0]} is at level {pos.height[compelled]}, "
                f"{name} at level {pos.height[cell]}"
            )
    mover = last_own_move(before, t.seat, pos)
    if w.kind == "move" and w.cells[0] is not None and w.cells[0] in pos.workers:
        frm = w.cells[0]
        if profession.plain_moves and not t.geo.adjacent(frm, cell):
            return SNYCode.NOT_ADJACENT, f"{name} is not next to {w.squares[0]}"
        if pos.height[cell] > pos.height[frm] + 1:
            return SNYCode.TOO_HIGH, f"{w.squares[0]} is at level {pos.height[frm]}, {name} at level {pos.height[cell]}"
    if w.kind == "build":
        level = pos.level_after_build(cell)
        if not t.supply.has(pos, level):
            return SNYCode.NO_PIECES, f"no {LEVEL_WORDS[level]} piece is left in the supply"
        if profession.plain_builds and mover is not None and not t.geo.adjacent(mover, cell):
            return SNYCode.NOT_ADJACENT, f"{name} is not next to the worker on {board.square(mover)}"
    return None


def occupied_by(pos: Position, cell: int) -> str:
    if cell in pos.workers:
        return "a worker"
    if cell in pos.sky:
        return "a skyscraper"
    if cell in pos.roof:
        return "a rooftop"
    return ""


def last_own_move(before: tuple[Act, ...], seat: int, pos: Position) -> int | None:
    """Where the turn's own worker stands after the steps so far (the space its builds are next to)."""
    for act in reversed(before):
        if act.kind == "move" and pos.workers.get(act.b) == seat:
            return act.b
    return None


def profession_clauses(name: str) -> tuple[str, ...]:
    return PROFESSIONS[name].clauses


def describe_act(act: Act, square: Callable[[int], str]) -> str:
    if act.kind == "build":
        return f"build {square(act.a)}"
    if act.kind == "sky":
        return f"skyscraper {square(act.a)}"
    verb = "move" if act.kind == "move" else "force"
    return f"{verb} {square(act.a)}-{square(act.b)}"


def turn_text(acts: tuple[Act, ...], square: Callable[[int], str]) -> str:
    """The steps of a turn as the record writes them: consecutive builds joined ('build a, b'), the compelled move
    written 'force'."""
    parts: list[str] = []
    index = 0
    while index < len(acts):
        act = acts[index]
        if act.kind == "build":
            cells = []
            while index < len(acts) and acts[index].kind == "build":
                cells.append(square(acts[index].a))
                index += 1
            parts.append("build " + ", ".join(cells))
            continue
        parts.append(describe_act(act, square))
        index += 1
    return "; ".join(parts)


def ranked(legal: list[Path], written: list[Written]) -> list[Path]:
    """The legal turns, those sharing the most steps with the record first (the alternatives an error lists)."""

    def shared(turn: Path) -> int:
        k = 0
        while k < len(written) and k < len(turn.acts) and tokens_matched(written[k], turn.acts[k]) == written[k].size:
            k += 1
        return k

    return sorted(legal, key=lambda turn: -shared(turn))
