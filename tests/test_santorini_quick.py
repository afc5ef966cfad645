"""Santorini: New York: the quick judge (``quick.quick_turn``) against the reference judge (``judge_reference``: every
legal turn listed, the line matched against the list).

The quick judge may only say *yes* (the legal turn a line is) or *not sure*; every yes must be the reference's turn —
its steps, position, win, removed worker, effect tags and moments — on the lines of generated games (mostly the
first-game deck, whose cards it judges; the house rules it reads flipped at random; small supplies; both boards),
their legal alternatives, mutations of them (the differential test's, and squares moved along lines, steps of one card
written for another), and every line judged as if each of the quick cards had been played. It must also say yes to
most legal lines of its cards, so that it is really used. ``SNY_QUICK_GAMES=N`` sets the number of games.
"""

from __future__ import annotations

import dataclasses
import os
import random

from test_santorini_differential import FLIPPABLE, NAMES, SQUARE, Differential, Mutator, outcome

from referee.errors import RefereeError
from referee.santorini_new_york import SantoriniNewYork
from referee.santorini_new_york.cards import FIRST_GAME_DECK, PROFESSIONS
from referee.santorini_new_york.engine import Path, Position
from referee.santorini_new_york.judge_reference import reference_turn
from referee.santorini_new_york.notation import TurnLine
from referee.santorini_new_york.options import SNYOptions
from referee.santorini_new_york.quick import QUICK, quick_turn
from referee.santorini_new_york.state import TURNS, SNYState

DEEP = os.environ.get("REFEREE_PROFILE", "ci").lower() == "deep"
GAMES = int(os.environ.get("SNY_QUICK_GAMES", "100" if DEEP else "10"))
POSITIONS = 10 * GAMES  # made-up positions
# The house rules the quick judge reads (each flipped in two games out of five).
READ = (
    "diagonal_adjacency",
    "engineer_skyscraper_by_mover",
    "nypd_push_optional",
    "nypd_diagonal_push",
    "subway_too_high_closes",
    "must_card_fallback",
)
BY_KIND = {kind: sorted(p for p, k in PROFESSIONS.items() if k == kind) for kind in ("Builder", "Specialist", "Mover")}


def quick_options(rng: random.Random) -> SNYOptions:
    """Mostly the first-game deck (the quick judge's cards), now and then a random one; house rules and small
    supplies as in the differential test, the options the quick judge reads flipped more often."""
    deck: tuple[str, ...] = FIRST_GAME_DECK
    if rng.random() >= 0.8:
        deck = ("Engineer", *(rng.choice(BY_KIND[kind]) for kind in ("Builder", "Specialist", "Mover")))
    options = dataclasses.replace(SNYOptions(), deck=deck, board=rng.choice(["square-5x5", "manhattan"]))
    flips: dict[str, object] = {
        name: not getattr(options, name) for name in FLIPPABLE if rng.random() < (0.4 if name in READ else 0.15)
    }
    options = dataclasses.replace(options, **flips)  # type: ignore[arg-type]
    if rng.random() < 0.3:
        options = dataclasses.replace(options, if_possible_scope="turn")
    roll = rng.random()
    if roll < 0.15:
        options = dataclasses.replace(
            options, supply_blocks_1=12, supply_blocks_2=10, supply_blocks_3=6, supply_rooftops=4, supply_skyscrapers=3
        )
    elif roll < 0.3:  # only the skyscrapers run out (the quick judge counts them)
        options = dataclasses.replace(options, supply_skyscrapers=rng.choice((1, 2, 3)))
    return options


def reference_path(state: SNYState, line: TurnLine) -> tuple | None:
    """The reference's turn (with its effect tags and moments), or None when it finds the line illegal."""
    try:
        _, turn = reference_turn(state, line)
    except RefereeError:
        return None
    return (turn.acts, turn.pos.key(), turn.winner, turn.win_kind, turn.removed, turn.tags, turn.points)


class QuickCheck(Differential):
    """The generator, judging many lines with the quick judge and the reference at every turn."""

    def __init__(self, players: list[str], rng: random.Random, options: SNYOptions, check: random.Random) -> None:
        super().__init__(players, rng, options, check)
        self.yes = 0  # lines the quick judge took
        self.legal = 0  # lines of a quick card the reference finds legal
        self.legal_yes = 0  # ... and the quick judge took

    def compare(self, statement: TurnLine) -> None:
        state, rng = self.state, self.check
        seat = state.order[state.turn]
        lines = [self.text(statement)]
        legal = state.legal_turns()
        lines += [state.turn_line(seat, turn) for turn in rng.sample(legal, min(4, len(legal)))]
        mutator = Mutator(rng, state)
        lines += [mutator.mutate(rng.choice(lines)) for _ in range(8)]
        lines += [self.along_a_line(rng.choice(lines)) for _ in range(2)]
        lines += self.pushes(seat) + self.line_moves(seat)
        lines += [
            f"{line}; build {self.sq(rng.choice(sorted(state.pos.workers)))}" for line in lines if rng.random() < 0.1
        ]
        played, holder = state.played[seat], state.holder
        try:
            others = sorted(set(QUICK) - {played[0]})
            for profession in (played[0], *rng.sample(others, 2)):
                state.played[seat] = (profession, played[1])
                # a climb onto level 3 wins only for the Statue holder: the player, or another, holds it
                for statue in (holder, *({seat, (seat + 1) % len(state.players)} - {holder})):
                    state.holder = statue
                    self.judge_quick(lines, count=profession == played[0] and statue == holder)
        finally:
            state.played[seat], state.holder = played, holder

    def text(self, statement: TurnLine) -> str:
        from referee.santorini_new_york.notation import statement_text

        return statement_text(statement)

    def along_a_line(self, line: str) -> str:
        """A square moved one to three cells north, south, east or west (a mover's target, a push, a build)."""
        found = list(SQUARE.finditer(line))
        if not found:
            return line
        hit = self.check.choice(found)
        board = self.state.board
        cell = board.cell(hit.group())
        if cell is None:
            return line
        column, row = cell % board.width, cell // board.width
        dx, dy = self.check.choice(((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)))
        distance = self.check.randint(1, 3)
        column, row = column + dx * distance, row + dy * distance
        square = f"{chr(ord('a') + column)}{row + 1}" if 0 <= column < 26 and row >= 0 else "z1"
        return line[: hit.start()] + square + line[hit.end() :]

    def sq(self, cell: int) -> str:
        return self.state.board.square(cell)

    def pushes(self, seat: int) -> list[str]:
        """Pushes of every worker next to one of the player's (any owner), to every cell around it, legal or not."""
        state, rng = self.state, self.check
        name, geo = state.players[seat], state.geo
        out = []
        for w in state.pos.workers_of(seat):
            for other in geo.neighbours[w]:
                if other not in state.pos.workers:
                    continue
                straight = geo.step(other, geo.direction(w, other))
                backs = [b for b in geo.neighbours[other] if b not in (w, straight)]
                for back in [*([straight] if straight is not None else []), *rng.sample(backs, min(2, len(backs)))]:
                    build = rng.choice([*geo.neighbours[other], w])
                    claim = rng.choice(("", "", "=1", "=2", "=3", "=roof"))
                    out.append(
                        f"{name}: force {self.sq(other)}-{self.sq(back)}; move {self.sq(w)}-"
                        f"{self.sq(other)}; build {self.sq(build)}{claim}"
                    )
        return out

    def line_moves(self, seat: int) -> list[str]:
        """Moves of the player's workers to cells along the eight lines from them (a mover's targets), then a build."""
        state, rng = self.state, self.check
        name, board, geo = state.players[seat], state.board, state.geo
        out = []
        for w in state.pos.workers_of(seat):
            for direction in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1)):
                cells = geo.line(w, direction)[:4]
                if not cells:
                    continue
                to = rng.choice(cells)
                around = geo.neighbours.get(to) or (w,)
                build = rng.choice(around)
                out.append(f"{name}: move {self.sq(w)}-{self.sq(to)}; build {board.square(build)}")
        return out

    def judge_quick(self, lines: list[str], count: bool) -> None:
        """Every yes of the quick judge is the reference's turn (``count``: the lines as played, counted)."""
        parser = SantoriniNewYork.parser()
        state = self.state
        seat = state.order[state.turn]
        for text in lines:
            try:
                line = parser.parse(text)
            except RefereeError:
                continue
            if not isinstance(line, TurnLine) or state.seats.get(line.player.name) != seat:
                continue
            self.lines += 1
            self.yes += agrees(state, line, text) is not None
            quick_card = state.played[seat][0] in QUICK and not state.supply.finite  # a limited supply: find_turn's
            if count and quick_card and reference_path(state, line) is not None:
                self.legal += 1
                self.legal_yes += quick_turn(state.context(seat), state.pos, line.steps) is not None


def agrees(state: SNYState, line: TurnLine, text: str) -> Path | None:
    """The quick judge's turn for a line of the player to act, checked against the reference (None: not sure)."""
    seat = state.order[state.turn]
    before = state.fingerprint()
    quick = quick_turn(state.context(seat), state.pos, line.steps)
    assert state.fingerprint() == before
    if quick is None:
        return None
    reference = reference_path(state, line)
    got = (quick.acts, quick.pos.key(), quick.winner, quick.win_kind, quick.removed, quick.tags, quick.points)
    assert got == reference, f"{text}\n{state.summary()}\nquick:     {got}\nreference: {reference}"
    # and the state's judge says the same as the reference (the quick turn is the one it applies)
    assert outcome(lambda s, st: s.judge_turn(st), state, line)[2] == got[0]
    return quick


def test_every_turn_the_quick_judge_takes_is_the_reference_turn() -> None:
    lines = yes = legal = legal_yes = 0
    for game in range(GAMES):
        rng = random.Random(3000 + game)
        options = quick_options(rng)
        players = NAMES[: rng.randint(2, 5)]
        check = QuickCheck(players, random.Random(500 + game), options, random.Random(game + 11))
        check.run()
        lines, yes = lines + check.lines, yes + check.yes
        legal, legal_yes = legal + check.legal, legal_yes + check.legal_yes
    assert lines >= 200 * GAMES, lines
    assert yes > 0.05 * lines, (yes, lines)  # the quick judge is really used ...
    assert legal_yes > 0.8 * legal, (legal_yes, legal)  # ... on most legal lines of its cards
    print(f"{lines} lines, {yes} taken by the quick judge; {legal_yes} of {legal} legal lines of its cards")


def test_the_quick_judge_leaves_illegal_lines_and_other_cards_to_find_turn() -> None:
    """A line of another card, a square off the board, a climb too high: not sure (None), never a turn."""
    state = SantoriniNewYork.new_state(["Anna", "Boris"], SNYOptions(board="square-5x5"))
    parser = SantoriniNewYork.parser()
    for text in ("place: Anna b2 d4, Boris d2 b4", "hand Anna: ?, ?, ?, ?, ?", "hand Boris: ?, ?, ?, ?, ?"):
        state.apply(parser.parse(text))
    state.apply(parser.parse("play: Anna Iron Worker 2, Boris Engineer 1"))
    seat = state.order[state.turn]
    assert state.players[seat] == "Boris"
    context = state.context(seat)

    def quick(text: str) -> Path | None:
        line = parser.parse(text)
        assert isinstance(line, TurnLine)
        return quick_turn(context, state.pos, line.steps)

    assert quick("Boris: move d2-d3; build d2") is None  # a skyscraper space exists: the search is find_turn's
    turn = quick("Boris: skyscraper e1; move d2-d3; build d2")
    assert turn is not None and [act.kind for act in turn.acts] == ["sky", "move", "build"]
    assert quick("Boris: skyscraper e1; move d2-d3; build d2=2") is None  # a wrong claim
    assert quick("Boris: skyscraper e1; move d2-d3; build z9") is None  # off the board
    assert quick("Boris: skyscraper e1; move b2-b3; build b2") is None  # Anna's worker
    assert quick("Boris: skyscraper e1; move d2-d3") is None  # a build is missing
    assert quick("Boris: skyscraper e1; move d2-d3; build d2; build c2") is None  # one build too many
    context = dataclasses.replace(context, profession="Night Guard")
    assert quick("Boris: move d2-d3; build d2") is None  # not a card the quick judge knows


# ------------------------------------------------------------------------------------------------ made-up positions
def random_position(rng: random.Random, state: SNYState) -> Position:
    """Random heights, rooftops and skyscrapers on the board's spaces, and two workers of each player on free ones."""
    board = state.board
    spaces = sorted(board.spaces)
    height = [0] * (board.width * board.height)
    roof, sky = set(), set()
    for cell in spaces:
        height[cell] = rng.choice((0, 0, 0, 1, 1, 2, 2, 3))
        if height[cell] == 3 and rng.random() < 0.3:
            roof.add(cell)
        elif height[cell] == 0 and rng.random() < 0.1:
            sky.add(cell)
    free = [cell for cell in spaces if cell not in roof | sky]
    cells = rng.sample(free, 2 * len(state.players))
    workers = {cell: index // 2 for index, cell in enumerate(cells)}
    return Position(tuple(height), frozenset(roof), frozenset(sky), workers)


def candidate_lines(rng: random.Random, state: SNYState, seat: int) -> list[str]:
    """Lines of every shape the quick judge reads, near the player's workers: moves up to three cells away (then one
    or two builds, or none), skyscrapers first, pushes of every neighbouring worker to every cell around it."""
    name, geo, square = state.players[seat], state.geo, state.board.square
    board = state.board
    out = []
    for w in state.pos.workers_of(seat):
        column, row = w % board.width, w // board.width
        targets = [
            r * board.width + c
            for r in range(max(0, row - 3), min(board.height, row + 4))
            for c in range(max(0, column - 3), min(board.width, column + 4))
        ]
        for to in targets:
            around = [*geo.neighbours.get(to, ()), w]
            out.append(f"{name}: move {square(w)}-{square(to)}")
            for build in rng.sample(around, min(2, len(around))):
                claim = rng.choice(("", "", "", "=1", "=2", "=3", "=roof"))
                out.append(f"{name}: move {square(w)}-{square(to)}; build {square(build)}{claim}")
            first, second = rng.choice(around), rng.choice(around)
            out.append(f"{name}: move {square(w)}-{square(to)}; build {square(first)}, {square(second)}")
        for sky in geo.neighbours[w] + geo.neighbours[rng.choice(state.pos.workers_of(seat))]:
            to = rng.choice(targets)
            build = rng.choice([*geo.neighbours.get(to, ()), w])
            out.append(f"{name}: skyscraper {square(sky)}; move {square(w)}-{square(to)}; build {square(build)}")
        for other in state.pos.workers:  # next to the worker or not
            straight = geo.step(other, geo.direction(w, other))
            for back in {*geo.neighbours[other], *([straight] if straight is not None else [])}:
                to = other if rng.random() < 0.8 else rng.choice(targets)
                build = rng.choice([*geo.neighbours[to], w]) if to in geo.neighbours else w
                push = f"force {square(other)}-{square(back)}"
                out.append(f"{name}: {push}; move {square(w)}-{square(to)}; build {square(build)}")
    return out


def test_the_quick_judge_on_made_up_positions() -> None:
    """Random positions (any heights, rooftops and skyscrapers anywhere) and every line shape of the quick cards near
    the player's workers, each card played, the Statue with the player or another, under the house rules the quick
    judge reads: every yes is the reference's turn."""
    parser = SantoriniNewYork.parser()
    rng = random.Random(77)
    lines = yes = 0
    for _ in range(POSITIONS):
        options = dataclasses.replace(quick_options(rng), deck=FIRST_GAME_DECK)
        players = NAMES[: rng.randint(2, 3)]
        state = SantoriniNewYork.new_state(players, options)
        state.pos = random_position(rng, state)
        seat = rng.randrange(len(players))
        state.stage, state.order, state.turn = TURNS, [seat], 0
        texts = candidate_lines(rng, state, seat)
        for profession in sorted(QUICK):
            state.played = {seat: (profession, 1)}
            state.holder = rng.choice((seat, (seat + 1) % len(players)))
            for text in texts:
                line = parser.parse(text)
                assert isinstance(line, TurnLine)
                lines += 1
                yes += agrees(state, line, text) is not None
    assert yes > 0.005 * lines, (yes, lines)
    print(f"{lines} lines on made-up positions, {yes} taken by the quick judge")
