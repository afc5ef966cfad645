"""Santorini: New York hidden hands for the tests: the card history of a record as events, a reference that decides
consistency by brute force (every way the ``?`` cards may have been dealt, followed card by card), random histories
driven by a true deal, and the card tracker replayed over the same events.

Events: ``("deal", seat, card or None)`` (from the deck at setup, from the discard pile at a refill; None: ``?``),
``("begin",)`` (the first reveal), ``("play", seat, card)``, ``("end",)`` (the round's played cards go to the discard
pile), ``("shuffle",)`` (a refill begins), ``("out", seat)`` (an elimination).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from referee.santorini_new_york.assignment import BACK, BY_PLAY, DEALT, GONE, IN_HAND, OPEN, PLAYED, Window
from referee.santorini_new_york.cards import Card
from referee.santorini_new_york.hidden import CardError, CardTracker

Event = tuple
POOL, LEFT = -1, -2  # a card's place in a reference world: the pile (deck or discard), out of the game


def hand_of(seat: int) -> int:
    return 2 * seat


def played_of(seat: int) -> int:
    return 2 * seat + 1


def reference_failure(cards: Sequence[Card], events: Sequence[Event], to_discard: bool = True) -> int | None:
    """The index of the first event after which no world is possible (every card in one place, every named card
    where the event takes it from), or None: all the worlds the events allow, one per way of dealing each ``?``."""
    index = {card: i for i, card in enumerate(cards)}
    worlds: set[tuple[int, ...]] = {tuple(POOL for _ in cards)}
    for position, event in enumerate(events):
        kind = event[0]
        after: set[tuple[int, ...]] = set()
        for world in worlds:
            if kind == "deal":
                _, seat, card = event
                options = [i for i, place in enumerate(world) if place == POOL] if card is None else [index[card]]
                for i in options:
                    if world[i] == POOL:
                        after.add((*world[:i], hand_of(seat), *world[i + 1 :]))
            elif kind == "play":
                _, seat, card = event
                i = index[card]
                if world[i] == hand_of(seat):
                    after.add((*world[:i], played_of(seat), *world[i + 1 :]))
            elif kind == "end":
                after.add(tuple(POOL if place >= 0 and place % 2 else place for place in world))
            elif kind == "out":
                seat = event[1]
                to = POOL if to_discard else LEFT
                after.add(tuple(to if place == hand_of(seat) else place for place in world))
            else:  # begin, shuffle: the pile is one place for the question
                after.add(world)
        worlds = after
        if not worlds:
            return position
    return None


def feed(tracker: CardTracker, event: Event, played: list[Card], to_discard: bool = True) -> None:
    """One event given to the card tracker (``played``: the round's played cards so far, emptied at its end);
    ``CardError`` when the tracker refuses it."""
    kind = event[0]
    if kind == "deal":
        tracker.deal(event[1], event[2])
    elif kind == "play":
        tracker.play(event[1], event[2])
        played.append(event[2])
    elif kind == "end":
        tracker.end_round(list(played))
        played.clear()
    elif kind == "out":
        tracker.eliminate(event[1], to_discard)
    elif kind == "begin":
        tracker.begin()
    else:
        tracker.shuffle()


def tracker_failure(
    cards: Sequence[Card], events: Sequence[Event], to_discard: bool = True, check: bool = True
) -> int | None:
    """The index of the first event the card tracker refuses, or None; ``check``: the witness is checked after
    every event (``witness_problems``)."""
    tracker = CardTracker(tuple(cards))
    played: list[Card] = []
    for position, event in enumerate(events):
        try:
            feed(tracker, event, played, to_discard)
        except CardError:
            return position
        if check:
            problems = witness_problems(tracker)
            assert not problems, (position, problems)
    return None


def random_history(
    rng: random.Random,
    players: int,
    deck: int,
    hand_size: int,
    period: int,
    refill_size: int,
    rounds: int,
    hide: float,
    wrong: float,
    out: float,
    to_discard: bool = True,
) -> tuple[list[Card], list[Event]]:
    """A history from a true deal: each dealt card written ``?`` with chance ``hide``; a play or named deal names a
    wrong card with chance ``wrong`` (one the record has not placed, where it can: the mistakes a simple count would
    miss), and the history stops there; a player still in drops out after a round with chance ``out``."""
    cards: list[Card] = [("Engineer", n) for n in range(1, deck + 1)]
    pile = list(cards)
    rng.shuffle(pile)
    hands: dict[int, list[Card]] = {seat: [] for seat in range(players)}
    events: list[Event] = []
    alive = list(range(players))
    named: set[Card] = set()  # cards the record has placed: named in a hand, or played since the last shuffle

    def mistake() -> Card:
        unplaced = [card for card in cards if card not in named]
        return rng.choice(unplaced or cards)

    def deal(seat: int, count: int) -> bool:
        for _ in range(count):
            card = pile.pop()
            hands[seat].append(card)
            if rng.random() < wrong:
                events.append(("deal", seat, mistake()))
                return False
            written = None if rng.random() < hide else card
            events.append(("deal", seat, written))
            if written is not None:
                named.add(card)
        return True

    order = list(range(players))
    rng.shuffle(order)
    for seat in order:
        if not deal(seat, hand_size):
            return cards, events
    events.append(("begin",))
    for number in range(1, rounds + 1):
        for seat in alive:
            card = hands[seat].pop(rng.randrange(len(hands[seat])))
            pile.append(card)
            if rng.random() < wrong:
                events.append(("play", seat, mistake()))
                return cards, events
            events.append(("play", seat, card))
            named.add(card)
        if len(alive) > 1 and rng.random() < out:
            seat = rng.choice(alive)
            alive.remove(seat)
            events.append(("out", seat))
            if to_discard:
                pile.extend(hands[seat])
            else:
                named.update(hands[seat])
            hands[seat] = []
        events.append(("end",))
        if number % period == 0 and number < rounds:
            events.append(("shuffle",))
            named -= set(pile)
            rng.shuffle(pile)
            count = min(refill_size, len(pile) // len(alive))
            for seat in alive:
                if not deal(seat, count):
                    return cards, events
        if any(not hands[seat] for seat in alive):
            break
    return cards, events


def witness_problems(tracker: CardTracker) -> list[str]:
    """What is wrong with the tracker's witness, checked against its history without its code: every slot's card
    in a window of that card, no card in two slots at once, every played window ended by a slot of its seat, every
    named deal's card in the pile then, and the witness's own indexes (``at``, ``free``) agreeing."""
    problems: list[str] = []
    windows: dict[Card, list[Window]] = {}
    for window in tracker.windows:
        windows.setdefault(window.card, []).append(window)
    for card in tracker.cards:
        where = tracker.known.get(card)
        if where is None or not where.startswith(("hand", "out")):
            windows.setdefault(card, []).append(Window(card, tracker.alpha.get(card, 0), OPEN))
    spans: dict[Card, list[tuple[int, int, int]]] = {}
    for index, slot in enumerate(tracker.slots):
        card, fate, end, dealt = slot.card, slot.fate, slot.end, slot.dealt
        last = 10**9 if fate in (IN_HAND, GONE) else end
        spans.setdefault(card, []).append((dealt, last, index))
        home = [w for w in windows.get(card, []) if w.start <= dealt and (w.kind == OPEN or dealt <= w.time)]
        if not home:
            problems.append(f"slot {index}: {card} is in no window of its at refill {dealt}")
            continue
        window = home[-1]
        ends_play = window.kind == PLAYED and window.seat == slot.seat and window.time == end
        if fate == BY_PLAY and not ends_play:
            problems.append(f"slot {index}: played, but not at the end of its card's played window")
        if fate in (IN_HAND, GONE) and window.kind != OPEN:
            problems.append(f"slot {index}: {card} stays in it, but its window ends")
        if fate == BACK and window.kind != OPEN and end >= window.time:
            problems.append(f"slot {index}: {card} comes back to the pile after its window ends")
        if slot.prev > dealt or slot.prev < window.start:
            problems.append(f"slot {index}: its card was in the pile from {slot.prev}, not by its deal")
    for card, held in spans.items():
        held.sort()
        for (_, last, first_index), (start, _, second_index) in itertools.pairwise(held):
            if start <= last:
                problems.append(f"{card} is in slots {first_index} and {second_index} at once")
    for window in tracker.windows:
        if window.kind == PLAYED:
            ended = [
                i
                for i, (dealt, last, _) in enumerate(spans.get(window.card, []))
                if last == window.time and dealt >= window.start
            ]
            if not ended:
                problems.append(f"{window.card} played in epoch {window.time} from no slot of seat {window.seat}")
        elif window.kind == DEALT and any(a <= window.time <= b for a, b, _ in spans.get(window.card, [])):
            problems.append(f"{window.card} dealt named at refill {window.time} while in a slot")
    holding = {slot.card: i for i, slot in enumerate(tracker.slots) if slot.fate in (IN_HAND, GONE)}
    if holding != tracker.at:
        problems.append(f"at {tracker.at} is not the cards in hands and out: {holding}")
    idle = {card for card in tracker.cards if card not in tracker.known and card not in holding}
    if tracker.slots and set(tracker.free) != idle:
        problems.append(f"free lists {set(tracker.free) ^ idle} wrongly (in the pile: {idle})")
    return problems


def record_events(body: Sequence[str], players: Sequence[str], period: int = 4) -> list[tuple[Event, int]]:
    """The card events of a Santorini: New York record's body lines (the game's first-game rules: a player is out
    at his second ``loses``), each with the index of the line it comes from."""
    seat = {name: index for index, name in enumerate(players)}
    events: list[tuple[Event, int]] = []
    losses: dict[str, int] = {}
    rounds = 0
    open_round = False
    for number, raw in enumerate(body):
        line = raw.split("#")[0].strip()
        if line.startswith("hand "):
            name, _, cards = line[5:].partition(":")
            if open_round:  # the refill follows the round's end
                events += [(("end",), number), (("shuffle",), number)]
                open_round = False
            for text in cards.split(","):
                text = text.strip()
                events.append((("deal", seat[name.strip()], None if text == "?" else _card(text)), number))
        elif line.startswith("play:"):
            if rounds == 0:
                events.append((("begin",), number))
            elif open_round:
                events.append((("end",), number))
                if rounds % period == 0:
                    events.append((("shuffle",), number))
            rounds += 1
            open_round = True
            for entry in line[5:].split(","):
                name, _, text = entry.strip().partition(" ")
                events.append((("play", seat[name], _card(text)), number))
        elif ": loses " in line:
            name = line.split(":")[0].strip()
            losses[name] = losses.get(name, 0) + 1
            if losses[name] == 2:
                events.append((("out", seat[name]), number))
    return events


def _card(text: str) -> Card:
    profession, _, number = text.rpartition(" ")
    return (profession, int(number))
