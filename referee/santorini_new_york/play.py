"""Random legal play: a complete Santorini: New York game written as a record, claims filled in.

The generator holds the true cards (it shuffles the real deck); the record names what a table log would show and
now and then writes ``?`` for a dealt card, so replays exercise the hidden-hand bookkeeping. Every statement is
judged by ``SNYState.apply`` as it is written, and every turn is chosen from the state's own list of legal turns
(one rule, one place): the generator only decides. Randomness comes from the ``random.Random`` passed in, and no
choice depends on the iteration order of a set or a dict: same seed, same record, in any process.
"""

from __future__ import annotations

import dataclasses
import random

from referee.errors import RefereeError
from referee.game import GeneratorFailed, SetupContext
from referee.record import NameRef, write_record
from referee.santorini_new_york.cards import Card, card_order
from referee.santorini_new_york.engine import Act, Path
from referee.santorini_new_york.notation import (
    BuildStep,
    BuildTarget,
    CardRef,
    ForceStep,
    HandDeal,
    LossLine,
    MoveStep,
    Place,
    PlaceEntry,
    PlayEntry,
    Reveal,
    RoundMark,
    SetupSkyscraper,
    SkyscraperStep,
    Square,
    Statement,
    Step,
    TurnLine,
    WinClaim,
    statement_text,
)
from referee.santorini_new_york.options import TAG_OPTIONS, SNYOptions
from referee.santorini_new_york.setup import make_state
from referee.santorini_new_york.state import OVER, REVEAL, SNYState

HIDE = 0.12  # chance that a dealt card is written '?'
CLAIM = 0.2  # chance that a build carries its level claim
TAKE_WIN = 0.9  # chance to take a winning turn when there is one
MAX_STATEMENTS = 5_000  # a game always ends far sooner: every turn builds or removes a worker


def options_from_tags(options: SNYOptions, tags: dict[str, str]) -> SNYOptions:
    """The Board, DeckList and Deck tags given to the generator set the options, as they do on replay."""
    if "Board" in tags:
        options = dataclasses.replace(options, board=tags["Board"].strip())
    if "DeckList" in tags:
        options = dataclasses.replace(options, deck_list=tags["DeckList"].strip())
    if "Deck" in tags:
        options = dataclasses.replace(options, deck=tuple(v.strip() for v in tags["Deck"].split(",")))
    return options


class Generator:
    def __init__(
        self,
        players: list[str],
        rng: random.Random,
        options: SNYOptions,
        context: SetupContext | None = None,
        hide: float = HIDE,
    ) -> None:
        """``context``: how the board and deck list are read (none: only the shipped ones, see ``make_state``);
        ``hide``: the chance that a dealt card is written '?'."""
        self.players, self.rng, self.options, self.hide = players, rng, options, hide
        self.state: SNYState = make_state(players, options, context)
        deck = sorted(self.state.tracker.cards, key=card_order)
        rng.shuffle(deck)
        self.deck = deck
        self.hands: list[list[Card]] = [[] for _ in players]
        self.discard: list[Card] = []
        self.out_seen: set[int] = set()
        self.written: list[Statement] = []

    # ----------------------------------------------------------------------------------------------- helpers
    def emit(self, statement: Statement) -> None:
        try:
            self.state.apply(statement)
        except RefereeError as error:  # a house rule the generator cannot play: say how far it got
            lines = [statement_text(s) for s in self.written]
            raise GeneratorFailed(lines, statement_text(statement), error) from error
        self.written.append(statement)
        if len(self.written) > MAX_STATEMENTS:  # pragma: no cover - a referee bug, not a long game
            raise RuntimeError("the generated game does not end")
        for seat in self.state.out:
            if seat not in self.out_seen:
                self.out_seen.add(seat)
                if self.options.eliminated_hand_to_discard:
                    self.discard.extend(self.hands[seat])
                self.hands[seat] = []

    def ref(self, seat: int) -> NameRef:
        return NameRef(self.players[seat], 0)

    def deal(self, seat: int, cards: list[Card]) -> HandDeal:
        self.hands[seat].extend(cards)
        refs = tuple(
            CardRef(None, 0, 0) if self.rng.random() < self.hide else CardRef(card[0], card[1], 0, 0) for card in cards
        )
        return HandDeal(self.ref(seat), refs, 0)

    def square(self, cell: int) -> Square:
        return Square(self.state.board.square(cell), 0)

    # ----------------------------------------------------------------------------------------------- setup
    def setup(self) -> None:
        """Place, the skyscraper and the deals in a random order (ruling 13), each judged where it stands."""
        jobs = ["place", "hand"] + (["skyscraper"] if self.state.needs_skyscraper else [])
        self.rng.shuffle(jobs)
        if self.rng.random() < 0.3:
            self.emit(RoundMark(1, 0))
        for job in jobs:
            {"place": self.place, "hand": self.setup_hands, "skyscraper": self.skyscraper}[job]()
        self.discard = list(self.deck)

    def place(self) -> None:
        seats = list(range(len(self.players)))
        self.rng.shuffle(seats)
        entries = []
        free = self.state.free_pairs(self.state.pos)
        for seat in seats:
            number = free.pop(self.rng.randrange(len(free)))
            cells = list(self.state.board.starts[number])
            self.rng.shuffle(cells)
            entries.append(PlaceEntry(self.ref(seat), (self.square(cells[0]), self.square(cells[1]))))
        if self.rng.random() < 0.5:
            self.emit(Place(tuple(entries), 0))
        else:
            for entry in entries:
                self.emit(Place((entry,), 0))

    def skyscraper(self) -> None:
        """The Tour Bus Driver's setup skyscraper on a space the rules allow that leaves a starting pair for every
        player still to place (five players on a 5x5 board need every pair)."""
        state = self.state
        to_place = len(self.players) - len(state.pairs)
        cells = sorted(state.board.spaces)
        self.rng.shuffle(cells)
        for cell in cells:
            free = state.skyscraper_problem(cell) is None
            if free and len(state.free_pairs(state.pos.with_skyscraper(cell))) >= to_place:
                self.emit(SetupSkyscraper(self.square(cell), 0))
                return
        raise RuntimeError("no space for the setup skyscraper")

    def setup_hands(self) -> None:
        seats = list(range(len(self.players)))
        self.rng.shuffle(seats)
        for seat in seats:
            if len(self.deck) < self.options.hand_size:
                raise RuntimeError(f"the deck has too few cards to deal {self.players[seat]} a hand")
            cards = [self.deck.pop() for _ in range(self.options.hand_size)]
            self.emit(self.deal(seat, cards))

    # ----------------------------------------------------------------------------------------------- rounds
    def round(self) -> None:
        state = self.state
        if state.refill_due:
            self.refill()
        if self.rng.random() < 0.3:
            self.emit(RoundMark(state.round, 0))
        entries = []
        seats = state.in_game()
        self.rng.shuffle(seats)
        for seat in seats:
            if not self.hands[seat]:
                raise RuntimeError(f"{self.players[seat]} has no card left to play in round {state.round}")
            card = self.hands[seat].pop(self.rng.randrange(len(self.hands[seat])))
            self.discard.append(card)
            entries.append(PlayEntry(self.ref(seat), CardRef(card[0], card[1], 0, 0)))
        self.emit(Reveal(tuple(entries), 0))
        while state.stage not in (REVEAL, OVER):
            self.turn()

    def refill(self) -> None:
        state = self.state
        if self.rng.random() < 0.3:
            self.emit(RoundMark(state.round, 0))
        self.discard.sort(key=card_order)
        self.rng.shuffle(self.discard)
        seats = sorted(state.refill_due)
        self.rng.shuffle(seats)
        count = state.refill_count()
        for seat in seats:
            if len(self.discard) < count:
                raise RuntimeError(f"the discard pile has too few cards to refill {self.players[seat]}'s hand")
            self.emit(self.deal(seat, [self.discard.pop() for _ in range(count)]))

    def turn(self) -> None:
        state = self.state
        seat = state.order[state.turn]
        turns = state.legal_turns()
        if not turns:
            workers = state.pos.workers_of(seat)
            self.emit(LossLine(self.ref(seat), self.square(self.rng.choice(workers)), 0))
            return
        winning = [t for t in turns if t.winner is not None]
        chosen = self.rng.choice(winning) if winning and self.rng.random() < TAKE_WIN else self.rng.choice(turns)
        self.emit(TurnLine(self.ref(seat), self.steps_of(chosen), 0))

    def steps_of(self, turn: Path) -> tuple[Step, ...]:
        """A legal turn written as a record writes it, in one of its accepted forms (builds joined or not, the
        compelled move as 'force' or 'move', level claims now and then)."""
        steps: list[Step] = []
        acts = list(turn.acts)
        while acts:
            act = acts.pop(0)
            if act.kind == "build":
                group = [act]
                while acts and acts[0].kind == "build":
                    group.append(acts.pop(0))
                steps += self.builds(group)
            elif act.kind == "sky":
                steps.append(SkyscraperStep(self.square(act.a), 0))
            elif act.kind == "move" or (act.kind == "compel" and self.rng.random() < 0.5):
                steps.append(MoveStep(self.square(act.a), self.square(act.b), 0))
            else:
                steps.append(ForceStep(self.square(act.a), self.square(act.b), 0))
        return tuple(steps)

    def builds(self, group: list[Act]) -> list[Step]:
        targets = [BuildTarget(self.square(act.a), act.level if self.rng.random() < CLAIM else None) for act in group]
        if len(targets) > 1 and self.rng.random() < 0.5:
            return [BuildStep((target,), 0) for target in targets]
        return [BuildStep(tuple(targets), 0)]

    # ----------------------------------------------------------------------------------------------- a game
    def run(self) -> list[str]:
        self.setup()
        while self.state.stage != OVER:
            self.round()
        winners = self.state.outcome().winners
        self.emit(WinClaim(tuple(NameRef(name, 0) for name in winners), 0))
        return [statement_text(statement) for statement in self.written]


def play_record(
    players: list[str], rng: random.Random, options: SNYOptions, tags: dict[str, str], hide: float = HIDE
) -> str:
    """A complete game; ``hide``: the chance that a dealt card is written '?' (the same game whatever it is: the
    chance is drawn for every card)."""
    options = options_from_tags(options, tags)
    generator = Generator(players, rng, options, hide=hide)
    try:
        body = generator.run()
    except GeneratorFailed:
        raise
    except RuntimeError as error:  # the options leave no statement to write: how far the game got (variant check)
        raise GeneratorFailed([statement_text(s) for s in generator.written], None, error) from error
    outcome = generator.state.outcome()
    head = {"Game": "Santorini: New York", "Players": ", ".join(players)}
    extra = {k: v for k, v in tags.items() if k not in TAG_OPTIONS}
    data = {"Board": options.board, "DeckList": options.deck_list, "Deck": ", ".join(generator.state.deck)}
    comments = [f"{outcome.winners[0]} wins: {outcome.termination.description}"]
    return write_record({**head, **extra, **data, "Result": ", ".join(outcome.winners)}, body, comments, TAG_OPTIONS)
