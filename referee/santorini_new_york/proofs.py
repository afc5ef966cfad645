"""z3 proofs of Santorini: New York's card arithmetic (``referee prove --game santorini-new-york``).

The cards are the game's arithmetic: who takes the Statue, and whether every hand and every refill can be dealt. The
proofs read what the referee reads: the deck list the options name, loaded as a record's ``DeckList`` tag loads it
(``setup.load``); every deck the rules allow with it (``cards.check_deck``: the Engineer plus one Builder, one
Specialist and one Mover, all printed in the list) and its cards (``cards.deck_cards``); the board's starting pairs
(how many players it seats); the player counts of the game; and the options ``hand_size``, ``refill_size``,
``refill_period``, ``eliminated_hand_to_discard`` [D12] and ``last_player_needs_statue`` [D13].

- *the setup deal fits*: every player count the board seats, every deck: players x ``hand_size`` <= the deck's cards;
- *one Statue holder*: in every deck the card numbers are pairwise distinct, so every reveal has exactly one highest
  card (and the turn order, lowest first, is total);
- *a hand lasts until the refill*: before every reveal, every player still in holds a card;
- *refills never run dry*: every refill deals ``refill_size`` cards to each player still in from the discard pile —
  every player count, every deck, any number of rounds, and every elimination pattern the rules allow (any players
  out in any rounds, as long as the game goes on; their hands to the discard pile or out of the game, as [D12] says).

The last two reason over the card counts of ``hand_cards`` and ``discard_before_refill`` (the rules' flow: the setup
deal, one card per player still in each round, a refill after every ``refill_period`` rounds, an eliminated player's
hand); ``properties/test_proofs.py`` replays generated games and checks that they are the counts the referee's own
card tracker holds at every reveal and refill. Eliminations never make a refill run dry when the hands go to the
discard pile (each one adds its hand to the pile and takes a player out of the refill), and they do not with the
shipped numbers when the hands leave the game either: the proof covers both.

A counterexample is written as a record and judged: a game whose reveal ties (refused at the ``Deck`` tag by
default, [§2 D] ``unique_numbers``), a deck too small for the players (refused at the tag), or a random legal game
played (without wins) to the reveal where a hand is empty or the refill the rules ask for, which the referee refuses.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import z3

from referee.errors import RefereeError
from referee.game import Game, GeneratorFailed, SetupContext
from referee.proofs import Result, refute, write_counterexample
from referee.record import NameRef, write_record
from referee.resources import USER_POLICY, copy_beside
from referee.santorini_new_york.board import BoardMap, DataError, shipped_boards
from referee.santorini_new_york.cards import (
    KINDS,
    PROFESSIONS,
    Card,
    DeckList,
    card_order,
    card_text,
    check_deck,
    deck_cards,
    shipped_deck_lists,
)
from referee.santorini_new_york.notation import (
    CardRef,
    HandDeal,
    Place,
    PlaceEntry,
    PlayEntry,
    Reveal,
    SetupSkyscraper,
    Square,
    Statement,
    TurnLine,
    statement_text,
)
from referee.santorini_new_york.options import TAG_OPTIONS, SNYOptions
from referee.santorini_new_york.play import Generator
from referee.santorini_new_york.setup import load_data, make_state
from referee.santorini_new_york.state import OVER
from referee.testkit import NAMES

ATTEMPTS = 40  # random games tried to reach a counterexample's round (each takes milliseconds)
Term = Any  # an int, or a z3 integer term: the card counts below are computed on both


# ------------------------------------------------------------------------------------------------ card counts
def hand_cards(options: SNYOptions, refills: Term, played: Term) -> Term:
    """Cards in the hand of each player still in, after ``refills`` refills of ``refill_size`` and ``played`` rounds
    since the last one (or since the setup deal of ``hand_size``): each round takes one card from every hand."""
    return options.hand_size + refills * (options.refill_size - options.refill_period) - played


def discard_before_refill(options: SNYOptions, cards: Term, players_in: int, refills: Term, out_cards: Term) -> Term:
    """The discard pile when a refill is due (after ``refills`` earlier refills): every card of the deck but the hands
    of the ``players_in`` players still in and ``out_cards`` hands that left the game with their players ([D12])."""
    return cards - players_in * hand_cards(options, refills, options.refill_period) - out_cards


# ------------------------------------------------------------------------------------------------ the data
@dataclass(frozen=True)
class Deck:
    professions: tuple[str, ...]
    cards: tuple[Card, ...]
    playable: bool  # the referee sets a game up with it (no shared number, unless ``unique_numbers`` is off)

    @property
    def text(self) -> str:
        return ", ".join(self.professions)


@dataclass(frozen=True)
class Data:
    """What the proofs reason about: the options, the deck list and board they name, and every deck the rules
    allow with the list, read through ``context`` (the user's files, relative to the current folder)."""

    game: type[Game]
    options: SNYOptions
    deck_list: DeckList
    board: BoardMap
    decks: tuple[Deck, ...]
    in_force: tuple[str, ...]  # the options' deck, canonical (empty when it is no deck of the list)
    context: SetupContext

    @property
    def player_counts(self) -> range:
        """The player counts of the game that the board seats (one starting pair each)."""
        return range(self.game.min_players, min(self.game.max_players, len(self.board.starts)) + 1)

    def in_force_first(self, decks: Iterable[Deck]) -> list[Deck]:
        """The deck the options name first (a counterexample shows it when it can), then the others in kind order."""
        return sorted(decks, key=lambda deck: deck.professions != self.in_force)


def read_data(game: type[Game], options: SNYOptions) -> Data:
    """The deck list and board as a record's tags read them (a user's file by path, relative to the current
    folder); a problem with them is the ``RefereeError`` a record would get at its tag."""
    context = SetupContext(policy=USER_POLICY)
    board, deck_list = load_data(options, context)
    by_kind = [[name for name, kind in PROFESSIONS.items() if kind == wanted] for wanted in KINDS]
    decks = []
    for names in itertools.product(*by_kind):
        try:
            professions = check_deck(names, deck_list, unique_numbers=False)
        except DataError:  # the list prints no cards of one of them: no game can name this deck
            continue
        try:
            check_deck(professions, deck_list, options.unique_numbers)
            playable = True
        except DataError:
            playable = False
        decks.append(Deck(professions, deck_cards(professions, deck_list), playable))
    try:
        in_force = check_deck(options.deck, deck_list, unique_numbers=False)
    except DataError:
        in_force = ()
    return Data(game, options, deck_list, board, tuple(decks), in_force, context)


def proofs(game: type[Game], options: Any, tags: dict[str, str], out_dir: Path) -> list[Result]:
    """The setup deal, one Statue holder, hands that last until the refill, refills that never run dry."""
    data = read_data(game, options)  # a deck list or board that cannot be read: the RefereeError, for ``prove``
    if not data.player_counts:
        counts = f"{game.min_players}-{game.max_players}"
        detail = (
            f"the board {data.board.name!r} has {len(data.board.starts)} starting pair(s); the game is for {counts}"
        )
        return [Result("the board seats a game", False, detail=detail)]
    if not data.decks:
        detail = f"the deck list {data.deck_list.name!r} prints no Engineer, Builder, Specialist and Mover to make one"
        return [Result("a deck the rules allow can be made", False, detail=detail)]
    records = Records(data, tags, out_dir)
    return [_setup_deal(data, records), _one_statue_holder(data, records), *_refill_proofs(data, records)]


# ------------------------------------------------------------------------------------------------ the proofs
def _setup_deal(data: Data, records: Records) -> Result:
    """Every player count the board seats is dealt ``hand_size`` cards each from every deck."""
    hand = data.options.hand_size
    name = f"the setup deal fits the deck (players x {hand} cards <= the deck's cards, {_scope(data)})"
    players, cards = z3.Ints("players cards")
    solver = z3.Solver()
    counts = data.player_counts
    solver.add(players >= counts.start, players < counts.stop, z3.Or(*[cards == len(d.cards) for d in data.decks]))
    model = refute(solver, players * hand <= cards)
    if model is None:
        return Result(name, True)
    n, size = model[players].as_long(), model[cards].as_long()
    deck = data.in_force_first([d for d in data.decks if len(d.cards) == size])[0]
    result = Result(name, False, {"players": n, "deck": deck.text, "cards": size, "dealt": n * hand})
    result.record, result.verdict = records.write(
        name, NAMES[:n], deck, [], [f"{n} players are dealt {hand} cards each from a deck of {size}"]
    )
    return result


def _one_statue_holder(data: Data, records: Records) -> Result:
    """No two cards of a deck share a number, so the highest card of a reveal is one card. One query: a symbolic deck
    (any printed profession of each kind) and two different cards of it; the deck in force is asked first."""
    name = (
        f"one Statue holder: the card numbers of every deck are pairwise distinct (deck list "
        f"{data.deck_list.name!r}, {len(data.decks)} decks)"
    )
    deck = SymbolicDeck(data)
    solver = z3.Solver()
    solver.add(*deck.domain)
    first, second = deck.card("first"), deck.card("second")
    solver.add(*first.domain, *second.domain, first.before(second))
    claim = first.number != second.number
    if refute(solver, claim) is None:
        return Result(name, True)
    closest = z3.Optimize()  # the counterexample: the deck in force, or the one that changes fewest of its kinds
    closest.add(*solver.assertions(), z3.Not(claim))
    closest.minimize(deck.changes(data.in_force))
    assert closest.check() == z3.sat
    model = closest.model()
    broken = deck.count(solver, z3.Not(claim))
    shown, low, high = deck.value(model), first.value(model), second.value(model)
    values = {"deck": shown.text, "cards": f"{card_text(low)} and {card_text(high)}", "decks broken": broken}
    result = Result(name, False, values, "the reveal of both has two highest cards")
    result.record, result.verdict = records.write(
        name,
        NAMES[:2],
        shown,
        _tied_reveal(data, shown, low, high),
        [f"{card_text(low)} and {card_text(high)} share a number: the last line's reveal ties"],
    )
    return result


class SymbolicDeck:
    """Any deck the rules allow with the deck list: a z3 choice of a printed profession of each kind."""

    def __init__(self, data: Data) -> None:
        self.data = data
        self.members = [sorted({deck.professions[k] for deck in data.decks}) for k in range(len(KINDS))]
        self.chosen = [z3.Int(f"{kind.lower()}_profession") for kind in KINDS]
        self.domain = [z3.And(c >= 0, c < len(m)) for c, m in zip(self.chosen, self.members, strict=True)]

    def changes(self, professions: tuple[str, ...]) -> z3.ArithRef:
        """How many kinds of the deck differ from these professions'."""
        wanted = set(professions)
        return z3.Sum(
            *[
                z3.If(z3.Or(*[c == p for p, name in enumerate(m) if name in wanted]), 0, 1)
                for c, m in zip(self.chosen, self.members, strict=True)
            ]
        )

    def card(self, label: str) -> SymbolicCard:
        return SymbolicCard(self, *z3.Ints(f"{label}_kind {label}_index"))

    def value(self, model: z3.ModelRef) -> Deck:
        professions = tuple(m[model.eval(c).as_long()] for c, m in zip(self.chosen, self.members, strict=True))
        return next(deck for deck in self.data.decks if deck.professions == professions)

    def count(self, solver: z3.Solver, condition: z3.BoolRef) -> int:
        """How many decks some cards meet ``condition`` in (each found deck blocked in turn)."""
        solver.push()
        found = 0
        while solver.check(condition) == z3.sat:
            model = solver.model()
            found += 1
            solver.add(z3.Or(*[c != model.eval(c) for c in self.chosen]))
        solver.pop()
        return found


class SymbolicCard:
    """A card of the symbolic deck: a kind and an index into the numbers its profession prints."""

    def __init__(self, deck: SymbolicDeck, kind: z3.ArithRef, index: z3.ArithRef) -> None:
        self.deck, self.kind, self.index = deck, kind, index
        numbers = deck.data.deck_list.numbers
        number: z3.ArithRef = z3.IntVal(0)
        count: z3.ArithRef = z3.IntVal(0)
        for k, members in enumerate(deck.members):
            for p, profession in enumerate(members):
                here = z3.And(kind == k, deck.chosen[k] == p)
                count = z3.If(here, len(numbers[profession]), count)
                for i, printed in enumerate(numbers[profession]):
                    number = z3.If(z3.And(here, index == i), printed, number)
        self.number = number
        self.domain = [kind >= 0, kind < len(KINDS), index >= 0, index < count]

    def before(self, other: SymbolicCard) -> z3.BoolRef:
        """Another card than ``other``, and each pair once."""
        return z3.Or(self.kind < other.kind, z3.And(self.kind == other.kind, self.index < other.index))

    def value(self, model: z3.ModelRef) -> Card:
        kind = model.eval(self.kind).as_long()
        profession = self.deck.members[kind][model.eval(self.deck.chosen[kind]).as_long()]
        return profession, self.deck.data.deck_list.numbers[profession][model.eval(self.index).as_long()]


def _refill_proofs(data: Data, records: Records) -> list[Result]:
    hand = data.options.hand_size
    fits = [
        (n, sizes)
        for n in data.player_counts
        if (sizes := sorted({len(d.cards) for d in data.decks if d.playable and len(d.cards) >= n * hand}))
    ]
    if not fits:  # no game can be set up: the setup deal's or the Statue's counterexample says why
        return []
    return [_hands_last(data, records, fits), _refills_full(data, records, fits)]


def _hands_last(data: Data, records: Records, fits: list[tuple[int, list[int]]]) -> Result:
    """Before the reveal of round j of every refill period, each player still in holds a card (all hold alike)."""
    options = data.options
    period = options.refill_period
    name = (
        f"a hand lasts until the refill: every player still in has a card to reveal (hand {options.hand_size}, "
        f"refill {options.refill_size} every {period} rounds, any number of rounds)"
    )
    refills, played = z3.Ints("refills played")
    domain = [refills >= 0, played >= 0, played < period]
    solver = z3.Solver()
    solver.add(*domain)
    claim = hand_cards(options, refills, played) >= 1
    if refute(solver, claim) is None:
        return Result(name, True)
    model = _earliest(domain, z3.Not(claim), refills * period + played)
    round_number = model[refills].as_long() * period + model[played].as_long() + 1
    players = fits[0][0]
    values = {
        "players": players,
        "round": round_number,
        "hand": model.eval(hand_cards(options, refills, played)).as_long(),
    }
    result = Result(name, False, values, f"the hands are empty before the reveal of round {round_number}")
    result.record, result.verdict = records.staged(
        name,
        NAMES[:players],
        fits[0][1],
        round_number,
        _empty_reveal,
        [f"every hand is empty before the reveal of round {round_number}: the last line names a card each"],
    )
    return result


def _refills_full(data: Data, records: Records, fits: list[tuple[int, list[int]]]) -> Result:
    """Every refill deals ``refill_size`` cards to each player still in from the discard pile: for every player
    count, every deck that fits them, every number of rounds and every way players may have gone out."""
    options = data.options
    hand, refill, period = options.hand_size, options.refill_size, options.refill_period
    fewest_in = 1 if options.last_player_needs_statue else 2  # [D13]: the last player with workers wins at once
    hands_leave = not options.eliminated_hand_to_discard
    name = (
        f"refills never run dry: {refill} cards to each player still in from the discard pile ({_scope(data)}, "
        f"any number of rounds, any players out, their hands {'out of the game' if hands_leave else 'discarded'})"
    )
    found: list[tuple[tuple[int, int, int], dict[str, Any], int, int]] = []
    for players, sizes in fits:
        for out in range(players - fewest_in + 1):
            players_in = players - out
            cards, refills = z3.Ints("cards refills")
            domain = [z3.Or(*[cards == size for size in sizes]), refills >= 0]
            # the hands lasted through this refill period (else it is the other proof's counterexample)
            domain += [hand >= period, hand_cards(options, refills, period - 1) >= 1]
            out_cards: Term = 0
            gone = []
            for k in range(out):  # each player out left in round j of a refill period up to this one
                when, j = z3.Ints(f"out{k}_refills out{k}_round")
                held = hand_cards(options, when, j)
                domain += [when >= 0, when <= refills, j >= 1, j <= period, held >= 0]
                gone.append((when, j))
                out_cards = out_cards + held if hands_leave else out_cards
            pile = discard_before_refill(options, cards, players_in, refills, out_cards)
            claim = pile >= players_in * refill
            solver = z3.Solver()
            solver.add(*domain)
            if refute(solver, claim) is None:
                continue
            model = _earliest(domain, z3.Not(claim), refills)
            after = (model[refills].as_long() + 1) * period
            values: dict[str, Any] = {"players": players, "after round": after}
            if out:
                values["players out"] = out
                values["out in rounds"] = ", ".join(str(model.eval(when * period + j).as_long()) for when, j in gone)
            size = model[cards].as_long()
            values |= {"cards": size, "discard pile": model.eval(pile).as_long(), "needed": players_in * refill}
            found.append(((out, after, players), values, players, size))
    if not found:
        return Result(name, True)
    _, values, players, size = min(found, key=lambda item: item[0])
    result = Result(name, False, values, f"{values['needed']} cards needed, {values['discard pile']} in the pile")
    if "players out" in values:
        result.verdict = "no record: the counterexample needs players out, which random play does not stage"
        return result
    after = values["after round"]
    result.record, result.verdict = records.staged(
        name,
        NAMES[:players],
        [size],
        after + 1,
        _full_refill,
        [
            f"the discard pile holds {values['discard pile']} cards after round {after}: the refill lines ask for "
            f"{refill} cards each"
        ],
    )
    return result


def _scope(data: Data) -> str:
    counts = data.player_counts
    return f"{counts.start}-{counts.stop - 1} players, {len(data.decks)} decks of deck list {data.deck_list.name!r}"


def _earliest(domain: list[Any], bad: Any, when: Any) -> z3.ModelRef:
    """The model of ``bad`` with the smallest ``when`` (the first time a record can show it)."""
    opt = z3.Optimize()
    opt.add(*domain, bad)
    opt.minimize(when)
    assert opt.check() == z3.sat
    return opt.model()


# ------------------------------------------------------------------------------------------- counterexample records
class NotReached(Exception):
    """A staged game that cannot go on to the round wanted (the reason, for people)."""


class Stager(Generator):
    """The referee's generator playing a game to a given round: it takes no winning turn and stops when a player
    goes out (every turn is still chosen from the state's own list of legal turns)."""

    def turn(self) -> None:
        state = self.state
        going_on = [turn for turn in state.legal_turns() if turn.winner is None]
        if going_on:
            self.emit(TurnLine(self.ref(state.order[state.turn]), self.steps_of(self.rng.choice(going_on)), 0))
            return
        if state.legal_turns():
            raise NotReached("every legal turn wins")
        super().turn()  # no legal turn: a worker is lost
        if state.out:
            raise NotReached("a player went out")

    def play_to(self, round_number: int) -> None:
        """Setup, then whole rounds until ``round_number`` is the next to play (its refill, if due, not dealt)."""
        self.setup()
        while self.state.round < round_number:
            if self.state.stage == OVER:
                raise NotReached("the game ended")
            self.round()


Ending = Callable[[Stager], list[Statement]]


def _empty_reveal(stager: Stager) -> list[Statement]:
    """The refill due, then the reveal the rules ask for: every player still in names a card — here the one he
    played last, as his hand holds none."""
    state = stager.state
    if state.refill_due:
        stager.refill()
    last = _last_played(stager)
    entries = tuple(
        PlayEntry(stager.ref(seat), CardRef(last[seat][0], last[seat][1], 0, 0)) for seat in state.in_game()
    )
    return [Reveal(entries, 0)]


def _last_played(stager: Stager) -> dict[int, Card]:
    found: dict[int, Card] = {}
    for statement in stager.written:
        if isinstance(statement, Reveal):
            for entry in statement.entries:
                assert entry.card.profession is not None
                found[stager.state.seats[entry.player.name]] = (entry.card.profession, entry.card.number)
    return found


def _full_refill(stager: Stager) -> list[Statement]:
    """The refill the rules ask for: ``refill_size`` cards (unnamed) to each player still in."""
    count = stager.options.refill_size
    return [
        HandDeal(stager.ref(seat), tuple(CardRef(None, 0, 0) for _ in range(count)), 0)
        for seat in sorted(stager.state.refill_due)
    ]


def _tied_reveal(data: Data, deck: Deck, low: Card, high: Card) -> list[Statement]:
    """Setup and a reveal of the two cards that share a number, each line legal where ties are allowed (no line when
    two players cannot even be set up: the record's tags show why)."""
    options = dataclasses.replace(data.options, deck=deck.professions, unique_numbers=False)
    players = NAMES[:2]
    try:
        state = make_state(players, options, data.context)
    except RefereeError:
        return []
    refs = [NameRef(name, 0) for name in players]
    board = state.board
    pairs = [board.starts[number] for number in sorted(board.starts)[:2]]
    lines: list[Statement] = [
        Place(
            tuple(
                PlaceEntry(ref, (Square(board.square(a), 0), Square(board.square(b), 0)))
                for ref, (a, b) in zip(refs, pairs, strict=True)
            ),
            0,
        )
    ]
    if state.needs_skyscraper:
        state.apply(lines[0])
        cell = next(c for c in sorted(board.spaces) if state.skyscraper_problem(c) is None)
        lines.append(SetupSkyscraper(Square(board.square(cell), 0), 0))
    rest = [card for card in sorted(deck.cards, key=card_order) if card not in (low, high)]
    size = options.hand_size - 1
    for ref, card, others in zip(refs, (low, high), (rest[:size], rest[size : 2 * size]), strict=True):
        lines.append(HandDeal(ref, tuple(CardRef(c[0], c[1], 0, 0) for c in (card, *others)), 0))
    lines.append(
        Reveal(tuple(PlayEntry(r, CardRef(c[0], c[1], 0, 0)) for r, c in zip(refs, (low, high), strict=True)), 0)
    )
    return lines


@dataclass
class Records:
    """Writes the counterexample records: the tags naming the rules (the Ruleset and Variant tags given, the board
    and deck list — a user's file copied beside the record — and the deck), the lines, and the referee's verdict."""

    data: Data
    tags: dict[str, str]
    out_dir: Path

    def write(
        self, prop: str, players: list[str], deck: Deck, lines: list[Statement], comments: list[str]
    ) -> tuple[Path, str]:
        options = self.data.options
        record_tags = {
            "Game": self.data.game.title,
            "Players": ", ".join(players),
            **self.tags,
            "Board": self._data_tag(options.board, shipped_boards()),
            "DeckList": self._data_tag(options.deck_list, shipped_deck_lists()),
            "Deck": deck.text,
            "Event": f"referee prove: counterexample to '{prop}'",
        }
        body = [statement_text(line) for line in lines]
        text = write_record(record_tags, body, [f"counterexample to: {prop}", *comments], TAG_OPTIONS)
        return write_counterexample(self.data.game, text, self.out_dir)

    def staged(
        self, prop: str, players: list[str], sizes: list[int], round_number: int, ending: Ending, comments: list[str]
    ) -> tuple[Path | None, str]:
        """A random legal game of ``players`` played to ``round_number`` and the lines ``ending`` adds there; the
        deck: the one in force if it has a size in ``sizes`` (the first size first), else another playable one."""
        data = self.data
        decks = [d for size in sizes for d in data.in_force_first(data.decks) if d.playable and len(d.cards) == size]
        if not decks:
            return None, "no record: no deck of that size can be set up"
        deck = decks[0]
        options = dataclasses.replace(data.options, deck=deck.professions)
        try:
            make_state(players, options, data.context)
        except RefereeError:  # the referee refuses the game at its setup: the tags alone show it
            return self.write(prop, players, deck, [], comments)
        for seed in range(ATTEMPTS):
            stager = Stager(players, random.Random(seed), options, data.context)
            try:
                stager.play_to(round_number)
                lines = [*stager.written, *ending(stager)]
            except (NotReached, GeneratorFailed):
                continue  # the game ended, a player went out, or every legal turn won: another game
            return self.write(prop, players, deck, lines, [*comments, f"random legal play, seed {seed}"])
        return None, f"no record: round {round_number} was not reached in {ATTEMPTS} random games"

    def _data_tag(self, reference: str, shipped: Mapping[str, Path]) -> str:
        """A shipped data file by its name; a user's copied beside the record, by its file name."""
        if reference.strip().lower() in shipped:
            return reference
        path = USER_POLICY.locate(reference, shipped, None)
        return copy_beside(path, self.out_dir) if path is not None else reference
