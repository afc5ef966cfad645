"""Santorini: New York: the judge of a turn line (``SNYState.judge_turn``: the record's steps followed through the
played card's turns, ``judge.find_turn``) against the reference judge (``judge_reference``: every legal turn listed,
the steps matched against the list) — the same verdict, turn, code, column, message and legal alternatives.

Lines come from random games of the generator (every player count, random decks of all 14 professions, both shipped
boards, the house-rule options flipped at random): at each turn the line the generator writes, other legal turns of
that position, and mutations of them (steps swapped, dropped, added or of another kind, squares moved to a neighbour,
anywhere on the grid or off it, level claims added or changed, builds joined or split), and the same lines judged as
if the player had played another profession. ``REFEREE_PROFILE=deep`` (as for the property suites) judges ten times
as many games; ``SNY_DIFFERENTIAL_GAMES=N`` sets the number of games.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re

from sny_cards import witness_problems

from referee.errors import RefereeError
from referee.santorini_new_york import SantoriniNewYork
from referee.santorini_new_york.cards import PROFESSIONS
from referee.santorini_new_york.judge_reference import reference_turn
from referee.santorini_new_york.notation import TurnLine, statement_text
from referee.santorini_new_york.options import SNYOptions
from referee.santorini_new_york.play import Generator
from referee.santorini_new_york.state import TURNS, SNYState

DEEP = os.environ.get("REFEREE_PROFILE", "ci").lower() == "deep"
GAMES = int(os.environ.get("SNY_DIFFERENTIAL_GAMES", "120" if DEEP else "12"))
ALTERNATIVES = 3  # other legal turns judged at each turn
MUTATIONS = 8  # mutated lines judged at each turn
OTHER_PROFESSION = 0.15  # chance that a turn's lines are also judged as another profession's
NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena"]
BY_KIND = {kind: sorted(p for p, k in PROFESSIONS.items() if k == kind) for kind in ("Builder", "Specialist", "Mover")}
FLIPPABLE = (
    "diagonal_adjacency",
    "must_card_fallback",
    "nypd_push_optional",
    "nypd_diagonal_push",
    "night_guard_normal_move",
    "fashion_designer_own_workers",
    "foreman_if_possible",
    "broadway_one_then_other",
    "reporter_chooses_direction",
    "subway_too_high_closes",
    "tour_bus_any_space",
    "engineer_skyscraper_by_mover",
)
SQUARE = re.compile(r"\b[a-z][0-9]+\b")


def outcome(judge, state: SNYState, line: TurnLine) -> tuple:
    """What a judge says of a line: the turn (its steps, the position, a win, a removed worker) or the error."""
    try:
        seat, turn = judge(state, line)
    except RefereeError as error:
        return ("error", error.code, error.column, error.message, tuple(error.alternatives))
    return ("turn", seat, turn.acts, turn.pos.key(), turn.winner, turn.win_kind, turn.removed)


def new_judge(state: SNYState, line: TurnLine):
    return state.judge_turn(line)


class Mutator:
    def __init__(self, rng: random.Random, state: SNYState) -> None:
        self.rng, self.state = rng, state

    def square_near(self, name: str) -> str:
        board, rng = self.state.board, self.rng
        cell = board.cell(name)
        roll = rng.random()
        if roll < 0.6 and cell is not None and cell in self.state.geo.neighbours:
            return board.square(rng.choice(self.state.geo.neighbours[cell]))
        if roll < 0.95:
            return board.square(rng.randrange(board.width * board.height))
        return rng.choice(["z9", "a0", f"a{board.height + 1}", f"{chr(ord('a') + board.width)}1"])

    def random_step(self) -> str:
        state, rng = self.state, self.rng
        workers = sorted(state.pos.workers)
        a = state.board.square(rng.choice(workers)) if workers and rng.random() < 0.7 else self.square_near("c3")
        b = self.square_near(a)
        kind = rng.choice(["move", "force", "build", "build", "skyscraper"])
        return f"{kind} {a}-{b}" if kind in ("move", "force") else f"{kind} {b}"

    def mutate(self, line: str) -> str:
        rng = self.rng
        head, rest = line.split(": ", 1)
        steps = rest.split("; ")
        for _ in range(rng.choice((1, 1, 1, 2))):
            op = rng.choice(("swap", "square", "square", "drop", "extra", "kind", "claim", "split", "join"))
            index = rng.randrange(len(steps))
            step = steps[index]
            if op == "swap" and len(steps) > 1:
                other = rng.randrange(len(steps))
                steps[index], steps[other] = steps[other], step
            elif op == "square":
                found = list(SQUARE.finditer(step))
                if found:
                    hit = rng.choice(found)
                    steps[index] = step[: hit.start()] + self.square_near(hit.group()) + step[hit.end() :]
            elif op == "drop" and len(steps) > 1:
                del steps[index]
            elif op == "extra":
                steps.insert(rng.randrange(len(steps) + 1), self.random_step())
            elif op == "kind":
                word, _, args = step.partition(" ")
                swap = {"move": "force", "force": "move", "build": "skyscraper", "skyscraper": "build"}[word]
                if swap == "skyscraper" and "," in args:
                    swap = "build"
                steps[index] = f"{swap} {args.split('=')[0] if swap == 'skyscraper' else args}"
            elif op == "claim" and step.startswith("build "):
                targets = step[6:].split(", ")
                at = rng.randrange(len(targets))
                targets[at] = targets[at].split("=")[0] + rng.choice(("", "=1", "=2", "=3", "=roof"))
                steps[index] = "build " + ", ".join(targets)
            elif op == "split" and step.startswith("build ") and "," in step:
                steps[index : index + 1] = ["build " + target for target in step[6:].split(", ")]
            elif (
                op == "join"
                and index + 1 < len(steps)
                and step.startswith("build ")
                and steps[index + 1][:6] == "build "
            ):
                steps[index : index + 2] = [step + ", " + steps[index + 1][6:]]
        return f"{head}: {'; '.join(steps)}"


class Differential(Generator):
    """The generator, judging many lines both ways at every turn before it writes its own."""

    def __init__(self, players: list[str], rng: random.Random, options: SNYOptions, check: random.Random) -> None:
        super().__init__(players, rng, options)
        self.check = check  # the mutations' own randomness: the game is the generator's
        self.lines = 0
        self.accepted = 0

    def emit(self, statement) -> None:
        if isinstance(statement, TurnLine) and self.state.stage == TURNS:
            self.compare(statement)
        super().emit(statement)
        assert not witness_problems(self.state.tracker)  # the tracker's assignment of the '?' cards holds

    def compare(self, statement: TurnLine) -> None:
        state, rng = self.state, self.check
        seat = state.order[state.turn]
        lines = [statement_text(statement)]
        legal = state.legal_turns()
        lines += [state.turn_line(seat, turn) for turn in rng.sample(legal, min(ALTERNATIVES, len(legal)))]
        mutator = Mutator(rng, state)
        lines += [mutator.mutate(rng.choice(lines)) for _ in range(MUTATIONS)]
        self.judge_all(lines)
        if rng.random() < OTHER_PROFESSION:
            played = state.played[seat]
            state.played[seat] = (rng.choice(sorted(set(PROFESSIONS) - {played[0]})), played[1])
            try:
                self.judge_all(lines)
            finally:
                state.played[seat] = played

    def judge_all(self, lines: list[str]) -> None:
        parser = SantoriniNewYork.parser()
        state = self.state
        for text in lines:
            try:
                line = parser.parse(text)
            except RefereeError:
                continue
            if not isinstance(line, TurnLine):
                continue
            before = state.fingerprint()
            new = outcome(new_judge, state, line)
            reference = outcome(reference_turn, state, line)
            assert new == reference, f"{text}\n{state.summary()}\nnew:       {new}\nreference: {reference}"
            assert state.fingerprint() == before
            self.lines += 1
            self.accepted += new[0] == "turn"


def random_options(rng: random.Random) -> SNYOptions:
    deck = ("Engineer", *(rng.choice(BY_KIND[kind]) for kind in ("Builder", "Specialist", "Mover")))
    board = rng.choice(["square-5x5", "manhattan"])
    options = dataclasses.replace(SNYOptions(), deck=deck, board=board)
    if rng.random() < 0.4:  # house rules
        flips = {name: not getattr(options, name) for name in FLIPPABLE if rng.random() < 0.3}
        options = dataclasses.replace(options, **flips)
        if rng.random() < 0.3:
            options = dataclasses.replace(options, if_possible_scope="turn")
    if rng.random() < 0.2:  # a small supply: pieces run out
        options = dataclasses.replace(
            options, supply_blocks_1=12, supply_blocks_2=10, supply_blocks_3=6, supply_rooftops=4, supply_skyscrapers=3
        )
    return options


def test_the_judge_agrees_with_the_reference_on_generated_and_mutated_lines() -> None:
    lines = accepted = 0
    for game in range(GAMES):
        rng = random.Random(1000 + game)
        options = random_options(rng)
        players = NAMES[: rng.randint(2, 5)]
        differential = Differential(players, random.Random(game), options, random.Random(game + 7))
        differential.run()
        lines += differential.lines
        accepted += differential.accepted
    assert lines >= 100 * GAMES, lines
    assert 0.1 * lines < accepted < 0.9 * lines, (accepted, lines)  # both verdicts are well represented
    print(f"{lines} lines judged both ways ({accepted} legal) in {GAMES} games")


def test_every_profession_is_in_the_random_decks() -> None:
    seen = set()
    for game in range(GAMES):
        seen |= set(random_options(random.Random(1000 + game)).deck)
    assert seen == set(PROFESSIONS) or GAMES < 12


# ------------------------------------------------------------------------------------------------ the line reader
ODD_HEADS = ["a1", "1", "_x", "move", "Moves", "build", "loses", "roof", "force", "Win2", "Winston", "Handel", "x"]
ODD_HEADS += ["Place", "PLAY", "win", "final", "round", "skyscraper", "hand", "hand  Anna", "hand\tAnna", "hand win"]
ODD_HEADS += ["play.x", "Anna-B", "Anna B", " Anna", "Anna ", "\tAnna", "Ann\u00e9", "hand Anna Boris", ""]
NOISE = [" ", "  ", "\t", ":", ";", ",", "-", "=", "#", '"', "?", "\f", "\x0b", "a", "z", "0", "9", "b2", "=roof"]
NOISE += ["move", "build", "force", "skyscraper", "loses", "Engineer", "Iron", "Worker", "5", "\u00e9", "x:"]


def test_lines_read_piece_by_piece_are_the_lines_the_grammar_reads() -> None:
    """The piece-by-piece reader gives the statement the whole grammar gives, or leaves the line to it."""
    from referee.santorini_new_york.notation import SNYLineParser

    parser = SNYLineParser()
    rng = random.Random(5)
    lines: list[str] = []
    for game in range(max(2, GAMES // 4)):
        options = random_options(random.Random(1000 + game))
        generator = Generator(NAMES[: 2 + game % 4], random.Random(game), options)
        lines += generator.run()
    samples = [*lines]
    for line in lines:
        for _ in range(3):
            chars = list(line)
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(chars) + 1)
                if rng.random() < 0.5 and at < len(chars):
                    del chars[at]
                else:
                    chars.insert(at, rng.choice(NOISE))
            samples.append("".join(chars))
        rest = line.partition(":")[2]
        samples.append(f"{rng.choice(ODD_HEADS)}:{rest}")
    read = 0
    for text in samples:
        statement = parser.read_plain(text)
        if statement is not None:
            read += 1
            assert statement == parser.parse_whole(text), repr(text)
    assert read > len(samples) // 4


GOOD_WORDS = ["move", "moves", "Move", "MOVES", "force", "Forces", "build", "BUILDS", "builds", "skyscraper"]
BAD_WORDS = ["mov", "buildx", "sky", "loses", "roof", "Skyscrapers"]
GOOD_SQUARES = ["b2", "B2", "c3", "a10", "z9", "f5"]
BAD_SQUARES = ["b02", "b", "2b", "b2x", "e", "b-2"]
GOOD_CLAIMS = ["", "", "", "=1", "=3", "= 2", "=02", "=roof", "=Rooftop", "=ROOF", "=0", "=7"]
BAD_CLAIMS = ["=roofs", "=", "=x", "=-1", "==2", "=2b"]
BLANK = ["", " ", " ", "  ", "\t"]


def random_piece(rng: random.Random) -> str:
    def pick(good: list[str], bad: list[str]) -> str:
        return rng.choice(bad if rng.random() < 0.08 else good)

    def gap() -> str:
        return rng.choice(BLANK)

    word = pick(GOOD_WORDS, BAD_WORDS)
    after = rng.choice([" ", " ", "\t", "  ", ""])
    if word.lower().startswith(("move", "force")) or rng.random() < 0.1:
        return f"{word}{after}{pick(GOOD_SQUARES, BAD_SQUARES)}{gap()}-{gap()}{pick(GOOD_SQUARES, BAD_SQUARES)}"
    count = 1 if word.lower().startswith("sky") and rng.random() < 0.8 else rng.randint(1, 3)
    targets = [f"{pick(GOOD_SQUARES, BAD_SQUARES)}{gap()}{pick(GOOD_CLAIMS, BAD_CLAIMS)}" for _ in range(count)]
    return f"{word}{after}{(gap() + ',' + gap()).join(targets)}"


def test_steps_read_in_their_plain_forms_are_the_steps_the_grammar_reads() -> None:
    from referee.santorini_new_york.notation import SNYLineParser

    parser = SNYLineParser()
    rng = random.Random(11)
    read = 0
    for _ in range(3000 if DEEP else 600):
        pieces = [random_piece(rng) for _ in range(rng.randint(1, 3))]
        text = f"{rng.choice(BLANK)}Anna{rng.choice(BLANK)}:{rng.choice(BLANK)}" + f"{rng.choice(BLANK)};".join(pieces)
        statement = parser.read_plain(text)
        if statement is not None:
            read += 1
            assert statement == parser.parse_whole(text), repr(text)
    assert read > 100
