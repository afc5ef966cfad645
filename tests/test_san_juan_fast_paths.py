"""San Juan's fast paths against the plain rules they stand for.

The referee takes shortcuts on the hot path of a replay: a statement goes straight to its handler, a phase turn routes
its role's action itself, what remains to draw is counted from the discard pile only when the supply alone falls short,
goods are added and sold without Counter copies, the hand limits ask for a Tower only above the lower limit. Each test
here sets a position on the boundary of a shortcut and checks the answer the plain rule gives (a count, a set of
allowed draws, the same error), so a shortcut that drifts from its rule fails here, not only in a corpus.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from test_san_juan import PARSER, fails, fresh, give, goods, hold, run

from referee.errors import RefereeError
from referee.san_juan.base import LibraryUse
from referee.san_juan.ledger import add_counts, subtract_counts
from referee.san_juan.notation import RoundMark
from referee.san_juan.options import FIRST_EDITION
from referee.san_juan.state import ACT, SJState, Turn
from referee.turns import clockwise


def set_piles(state: SJState, supply: int, discard: int) -> None:
    """Exactly ``supply`` cards in the supply and ``discard`` unknown cards in the discard pile (the rest tucked out
    of play under Boris's Chapel, so the card count stays 110)."""
    spare = state.supply + state.discard_unknown - supply - discard
    assert spare >= 0 and not state.discard_known
    state.p[1].tucked += spare
    state.supply, state.discard_unknown = supply, discard


# ------------------------------------------------------------------------------------------------ counters
def test_adding_and_selling_goods_is_counter_arithmetic_with_the_same_key_order() -> None:
    """``add_counts`` / ``subtract_counts`` leave the same entries in the same order as ``Counter`` ``+=`` / ``-=``
    (the state summary lists goods in that order)."""
    rng = random.Random(7)
    kinds = ["indigo", "sugar", "tobacco", "coffee", "silver"]
    for _ in range(2000):
        start = {kind: rng.randint(-1, 2) for kind in rng.sample(kinds, rng.randint(0, 5))}
        change = {kind: rng.randint(0, 3) for kind in rng.sample(kinds, rng.randint(0, 5))}
        for ours, theirs in ((add_counts, Counter.__iadd__), (subtract_counts, Counter.__isub__)):
            got, want = Counter(start), Counter(start)
            ours(got, change)
            want = theirs(want, Counter(change))
            assert list(got.items()) == list(want.items()), (start, change, ours.__name__)


# ------------------------------------------------------------------------------------------------ the supply
@pytest.mark.parametrize("supply", range(7))
@pytest.mark.parametrize("discard", range(4))
def test_capped_is_the_wanted_count_within_what_remains(supply: int, discard: int) -> None:
    state = fresh(2)
    set_piles(state, supply, discard)
    for wanted in range(9):
        for extra in range(3):
            assert state.capped(wanted, extra) == min(wanted, supply + discard + extra), (wanted, extra)


@pytest.mark.parametrize("supply", range(6))
@pytest.mark.parametrize("discard", range(4))
def test_drawing_reshuffles_exactly_when_the_supply_runs_out(supply: int, discard: int) -> None:
    for count in range(supply + discard + 1):
        state = fresh(2)
        set_piles(state, supply, discard)
        state._draw(count)
        if count <= supply:  # no reshuffle on the way
            assert (state.supply, state.discard_size) == (supply - count, discard), count
        else:  # the discard pile became the supply when it ran out
            assert (state.supply, state.discard_size) == (supply + discard - count, 0), count


@pytest.mark.parametrize("supply", range(8))
@pytest.mark.parametrize("discard", (0, 2))
@pytest.mark.parametrize("player", ("Anna", "Boris"))
def test_the_councillor_draws_any_allowed_count_capped_by_what_remains(supply: int, discard: int, player: str) -> None:
    """The chooser draws 2 or 5, another player 2, each capped by supply + discard pile (the count is checked from
    the supply alone when it covers every count)."""
    counts = (2, 5) if player == "Anna" else (2,)
    allowed = {min(count, supply + discard) for count in counts}
    for drawn in range(1, 9):
        state = fresh(2)
        set_piles(state, supply, discard)
        run(state, "Anna: councillor")
        if player == "Boris":
            run(state, "Anna: pass")
        line = f"{player}: draws {', '.join('?' * drawn)}; keeps ?"
        if drawn in allowed:
            run(state, line)
        else:
            fails(state, line, "sj-draw-count")


@pytest.mark.parametrize("supply", range(3))
@pytest.mark.parametrize("discard", range(3))
def test_production_needs_a_card_per_good_from_what_remains(supply: int, discard: int) -> None:
    for count in (1, 2):
        state = fresh(2)
        give(state, "Anna", "Sugar Mill")
        set_piles(state, supply, discard)
        run(state, "Anna: producer")
        line = "Anna: produce " + ", ".join(["Indigo Plant", "Sugar Mill"][:count])
        if count <= supply + discard:
            run(state, line)
            assert state.p[0].goods_total == count
        else:
            fails(state, line, "sj-supply-empty")


# ------------------------------------------------------------------------------------------------ privilege counts
def test_one_good_needs_no_privilege_and_two_need_one() -> None:
    """Producing or selling one good is always within the limit; the second good is the chooser's privilege."""
    state = fresh(2)
    give(state, "Anna", "Sugar Mill")
    give(state, "Boris", "Sugar Mill")
    run(state, "Anna: producer\nAnna: produce Indigo Plant, Sugar Mill")
    fails(state, "Boris: produce Indigo Plant, Sugar Mill", "sj-produce-limit")
    run(state, "Boris: produce Sugar Mill")
    goods(state, "Boris", indigo=1)
    run(state, "Boris: builder\nBoris: pass\nAnna: pass\nAnna: trader\ntile: 1-1-1-2-2")
    run(state, "Anna: sell sugar, indigo; draws ?, ?")
    fails(state, "Boris: sell sugar, indigo; draws ?, ?", "sj-sell-limit")
    run(state, "Boris: sell sugar; draws ?")


def test_goods_sold_leave_the_remaining_goods_in_order() -> None:
    state = fresh(2)
    give(state, "Anna", "Sugar Mill", "Coffee Roaster")
    goods(state, "Anna", coffee=1, indigo=1, sugar=1)
    run(state, "Anna: trader\ntile: 1-1-1-2-2\nAnna: sell indigo, coffee; draws ?, ?, ?")
    assert list(state.p[0].goods.items()) == [("sugar", 1)]
    assert "goods sugar 1" in state.summary()


# ------------------------------------------------------------------------------------------------ hand limits
@pytest.mark.parametrize("tower", (False, True))
def test_the_hand_limit_asks_for_a_tower_whichever_limit_is_lower(tower: bool) -> None:
    """With a house rule whose Tower limit is below the plain one, a Tower owner over it must discard first."""
    options = replace(FIRST_EDITION, hand_limit=7, tower_hand_limit=5)
    state = fresh(2, options)
    if tower:
        give(state, "Anna", "Tower")
    hold(state, "Anna", "Well", "Hero")  # 6 cards
    if tower:
        fails(state, "Anna: builder", "sj-hand-limit")
        run(state, "Anna: discards ?\nAnna: builder")
    else:
        run(state, "Anna: builder")


# ------------------------------------------------------------------------------------------------ dispatch
def test_a_subclass_handler_is_the_one_that_runs() -> None:
    """``SJState.apply`` goes straight to ``SJState``'s handlers; a subclass that overrides one is still heard."""
    seen: list[object] = []

    class Traced(SJState):
        def _apply_round(self, st: RoundMark) -> None:
            seen.append(st)
            super()._apply_round(st)

    state = Traced(["Anna", "Boris"], FIRST_EDITION)
    run(state, "governor: Anna\nhand Anna: ?, ?, ?, ?\nhand Boris: ?, ?, ?, ?\nround 1")
    assert len(seen) == 1 and isinstance(seen[0], RoundMark)


def test_a_statement_of_no_handled_type_is_the_cores_type_error() -> None:
    with pytest.raises(TypeError):
        fresh(2).apply(object())


@pytest.mark.parametrize(
    ("role", "line", "code"),
    [
        ("builder", "Anna: produce Indigo Plant", "sj-wrong-action"),
        ("builder", "Anna: sell indigo", "sj-wrong-action"),
        ("builder", "Anna: draws ? (well)", "sj-not-owed"),
        ("producer", "Anna: build Well", "sj-wrong-action"),
        ("producer", "Anna: draws ?; keeps ?", "sj-wrong-action"),
        ("councillor", "Anna: produce Indigo Plant", "sj-wrong-action"),
        ("councillor", "Anna: draws ? (prospector)", "sj-not-owed"),
        ("prospector", "Anna: build Well", "sj-wrong-action"),
        ("prospector", "Anna: draws ? (well)", "sj-wrong-action"),
        ("prospector", "Anna: gold mine ?, ?, ?, ?; keeps none", "sj-wrong-action"),
        ("builder", "Boris: build Well", "sj-not-your-turn"),
    ],
)
def test_a_phase_turn_takes_only_its_roles_action(role: str, line: str, code: str) -> None:
    state = fresh(2)
    run(state, f"Anna: {role}")
    fails(state, line, code)


def test_a_phase_turn_routes_each_roles_action() -> None:
    state = fresh(2)
    hold(state, "Anna", "Well")
    run(state, "Anna: builder\nAnna: build Well paying ?\nBoris: pass")
    assert state.p[0].city == ["Indigo Plant", "Well"]
    run(state, "Boris: producer\nBoris: produce Indigo Plant\nAnna: produce Indigo Plant")
    assert state.p[0].goods_total == state.p[1].goods_total == 1
    run(state, "Anna: councillor\nAnna: draws ?, ?; keeps ?\nBoris: draws ?, ?; keeps ?")
    run(state, "Boris: trader\ntile: 1-1-1-2-2\nBoris: sell indigo; draws ?\nAnna: pass")
    assert state.p[1].goods_total == 0 and state.round == 2


def test_a_phase_has_every_player_once_from_its_chooser() -> None:
    for players in (2, 3, 4):
        state = fresh(players)
        chooser = state.chooser_due()
        run(state, f"{state.players[chooser]}: builder")
        assert state.turns == [Turn(seat, ACT) for seat in clockwise(chooser, players)]
        state.turns.pop()  # a list of its own: changing it changes no other phase's turns
        other = fresh(players)
        run(other, f"{other.players[chooser]}: builder")
        assert len(other.turns) == players


def test_the_library_answers_are_the_rule() -> None:
    state = fresh(2)
    give(state, "Anna", "Library")
    assert state.library(0) == LibraryUse(False, False)  # no role chosen: no privilege
    run(state, "Anna: councillor")
    assert state.library(0) == LibraryUse(True, False) and state.library(1) == LibraryUse(False, False)
    run(state, "Anna: draws ?, ?, ?, ?, ?, ?, ?, ?; keeps ?\nBoris: pass\nBoris: builder\nBoris: pass\nAnna: pass")
    run(state, "Anna: producer")
    assert state.library(0) == LibraryUse(False, True)  # 2 players: the governor's once per round is spent


# ------------------------------------------------------------------------------------------------ discards
@pytest.mark.parametrize("pending", (False, True))
def test_a_payment_goes_to_the_pile_card_by_card(pending: bool) -> None:
    state, plain = fresh(2), fresh(2)
    refs = PARSER.parse("Anna: discards Well, ?, Well, Hero, ?").action.cards
    state._to_discard_all(refs, pending)
    for ref in refs:
        plain._to_discard(ref, pending)
    assert state.fingerprint() == plain.fingerprint()


def test_a_rejected_statement_on_each_fast_path_changes_nothing() -> None:
    state = fresh(2)
    hold(state, "Anna", "Well")
    run(state, "Anna: builder")
    for line, code in (
        ("Anna: build Well paying ?, ?", "sj-payment"),
        ("Anna: build Well paying ?, ?, ?, ?, ?", "sj-not-in-hand"),
        ("Boris: build Well", "sj-not-your-turn"),
        ("Anna: builder", "sj-phase-not-over"),
    ):
        fails(state, line, code)
    with pytest.raises(RefereeError):
        state.apply(PARSER.parse("Clara: pass"))
