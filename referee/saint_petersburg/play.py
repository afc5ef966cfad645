"""Random legal play: a complete Saint Petersburg game written as a record, claims filled in.

Randomness comes from the ``random.Random`` passed in, so the same seed gives the same record.
"""

from __future__ import annotations

import random

from referee.game import GeneratorFailed
from referee.record import NameRef, write_record
from referee.saint_petersburg.cards import DECKS, PHASES
from referee.saint_petersburg.notation import (
    Action,
    Actor,
    Buy,
    Deal,
    FinalClaim,
    FinalEntry,
    Grant,
    Observe,
    Pass,
    PhaseHeader,
    Play,
    Pub,
    RoundMark,
    ScoreClaim,
    ScoreEntry,
    Statement,
    Take,
    Tokens,
    statement_text,
)
from referee.saint_petersburg.options import SPOptions
from referee.saint_petersburg.state import ACTING, DEALING, OVER, SETUP, TOKEN_SPREAD, SPState

WEIGHTS = {Buy: 6.0, Play: 4.0, Take: 1.0, Observe: 1.5}
MAX_STATEMENTS = 20_000  # far beyond any game of the printed rules


def deal_tokens(players: list[str], rng: random.Random) -> Tokens:
    phases = list(PHASES)
    rng.shuffle(phases)
    counts = list(TOKEN_SPREAD[len(players)])
    rng.shuffle(counts)
    grants, start = [], 0
    for name, count in zip(players, counts, strict=False):
        grants.append(Grant(NameRef(name, 0), tuple(NameRef(p, 0) for p in phases[start : start + count])))
        start += count
    return Tokens(tuple(grants), 0)


def choose_action(state: SPState, rng: random.Random) -> Action:
    actions = state.legal_actions(observe_cards=False)
    if not actions:
        raise RuntimeError("no legal action: " + state.summary().splitlines()[0])
    others = [a for a in actions if not isinstance(a, Pass)]
    if state.phase == "building" and state.free_observatories(state.to_act) and rng.random() < 0.25:
        observed = random_observation(state, rng)
        if observed is not None:
            return observed
    if not others or (any(isinstance(a, Pass) for a in actions) and rng.random() < 0.3):
        return Pass()
    weights = [WEIGHTS.get(type(a), 1.0) for a in others]
    return rng.choices(others, weights)[0]


def random_observation(state: SPState, rng: random.Random) -> Observe | None:
    decks = [d for d in DECKS if state.observable(d)]
    if not decks:
        return None
    deck = rng.choice(decks)
    names = [name for name, copies in state.decks[deck].items() for _ in range(copies)]
    card = state.cards[rng.choice(names)]
    seat = state.to_act
    ref = NameRef(card.name, 0)
    choices: list[Observe] = [Observe(deck, ref, "discard")]
    if state.has_room(seat):
        choices.append(Observe(deck, ref, "take"))
    for over, price in state.purchases(seat, card, False, turning=1):
        choices.append(Observe(deck, ref, "buy", over, price))
    return rng.choice(choices)


def random_deal(state: SPState, rng: random.Random) -> Deal:
    """The cards due, drawn at random from what the phase's deck still holds."""
    deck = DECKS[state.phase_index]
    pool = [name for name, copies in sorted(state.decks[deck].items()) for _ in range(copies)]
    return Deal(tuple(NameRef(name, 0) for name in rng.sample(pool, state.due)), 0)


def score_claim(state: SPState) -> ScoreClaim:
    """The true ``score:`` line of the phase scoring that just happened."""
    assert state.last_scoring is not None
    return ScoreClaim(
        tuple(
            ScoreEntry(NameRef(name, 0), s.rubles, s.vp)
            for name, s in zip(state.players, state.last_scoring, strict=True)
        ),
        0,
    )


def final_claim(state: SPState) -> FinalClaim:
    """The true ``final:`` line."""
    scores = state.outcome().scores or {}
    return FinalClaim(tuple(FinalEntry(NameRef(name, 0), scores[name], 0) for name in state.players), 0)


class RandomPolicy:
    """The generator's choices, one statement at a time: every claim filled in, pubs used at random, the optional
    ``round N`` checkpoint always written. ``play``, the property suites and the proofs step games with it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._pubs_decided: set[tuple[int, int]] = set()  # (round, seat)
        self._round_marked = 0

    def next_statement(self, state: SPState) -> Statement | None:
        """The next statement of a random legal game, or None when the game is over and claimed."""
        rng = self.rng
        if state.stage == SETUP:
            return deal_tokens(state.players, rng)
        if state.stage == OVER:
            return None if state.final_claimed else final_claim(state)
        if state.stage == DEALING:
            return random_deal(state, rng)
        if state.stage == ACTING:
            return Actor(NameRef(state.players[state.to_act], 0), choose_action(state, rng))
        if state.score_claim_open and state.last_scoring is not None:
            return score_claim(state)
        if state.pub_open:
            price = state.options.pub_vp_price
            for seat, player in enumerate(state.p):
                if seat in state.pubs_used or (state.round, seat) in self._pubs_decided:
                    continue
                self._pubs_decided.add((state.round, seat))
                cap = state.pub_affordable(seat)
                if cap > 0 and rng.random() < 0.7:
                    count = rng.randint(0, cap)
                    return Actor(NameRef(player.name, 0), Pub(count, count * price))
        if state.phase_index == 0 and self._round_marked != state.round:
            self._round_marked = state.round
            return RoundMark(state.round, 0)
        return PhaseHeader(state.phase, 0)


def random_game(players: list[str], rng: random.Random, options: SPOptions) -> tuple[SPState, list[Statement]]:
    """Play a random legal game; return the final state and the statements in record order."""
    state = SPState(players, options)
    policy = RandomPolicy(rng)
    written: list[Statement] = []
    while True:
        try:
            statement = policy.next_statement(state)
        except RuntimeError as error:  # no statement to write (a house rule): say how far the game got
            raise GeneratorFailed([statement_text(s) for s in written], None, error) from error
        if statement is None:
            return state, written
        if len(written) >= MAX_STATEMENTS:  # a house rule under which the game need not end
            lines = [statement_text(s) for s in written]
            raise GeneratorFailed(lines, None, RuntimeError(f"no end after {MAX_STATEMENTS} statements"))
        state.apply(statement)
        written.append(statement)


def play_record(players: list[str], rng: random.Random, options: SPOptions, tags: dict[str, str]) -> str:
    state, statements = random_game(players, rng, options)
    tags = {
        "Game": "Saint Petersburg",
        **tags,
        "Players": ", ".join(players),
        "Result": ", ".join(state.outcome().winners),
    }
    return write_record(tags, (statement_text(statement) for statement in statements))
