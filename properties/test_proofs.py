"""The z3 proofs (referee/proofs.py): proved for the shipped rulesets, a counterexample for broken variants, and the
symbolic run of ``SPState.price`` agreeing with the concrete one."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import z3
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from properties.profiles import PROFILE, PROPS
from referee.cli import main
from referee.proofs import prove, prover
from referee.registry import GAMES
from referee.replay import check_file
from referee.saint_petersburg.proofs import sp_price_points
from referee.saint_petersburg.state import SPState
from referee.santorini_new_york.cards import DECK_LIST_DIR
from referee.santorini_new_york.hidden import DISCARD, OUT, hand
from referee.santorini_new_york.notation import Reveal, TurnLine
from referee.santorini_new_york.play import Generator
from referee.santorini_new_york.proofs import discard_before_refill, hand_cards
from referee.testkit import NAMES
from referee.variant import apply_variant, registered_variants

SP = GAMES["saint-petersburg"]
SHIPPED = [(game, name) for game in GAMES.values() if prover(game) is not None for name in game.rulesets]


@pytest.mark.parametrize("game,ruleset", SHIPPED, ids=lambda x: getattr(x, "id", x))
def test_every_shipped_ruleset_is_proved(game, ruleset, tmp_path) -> None:
    results = prove(game, game.rulesets[ruleset], {"Ruleset": ruleset}, tmp_path)
    assert results
    assert [r.name for r in results if not r.proved] == []
    assert not list(tmp_path.iterdir())


def test_shipped_sound_variants_are_proved(tmp_path) -> None:
    for variant in registered_variants().values():
        if variant.name == "sp-no-minimum":
            continue
        game = next(g for g in GAMES.values() if g.id == variant.game)
        options = apply_variant(game, game.ruleset(variant.ruleset), variant)
        bad = [r.name for r in prove(game, options, {"Variant": variant.name}, tmp_path) if not r.proved]
        assert bad == [], variant.name


def test_no_minimum_variant_gives_a_counterexample_and_a_record(tmp_path) -> None:
    variant = registered_variants()["sp-no-minimum"]
    options = apply_variant(SP, SP.ruleset(None), variant)
    results = prove(SP, options, {"Ruleset": "2nd edition", "Variant": "sp-no-minimum"}, tmp_path)
    failed = [r for r in results if not r.proved]
    assert {r.name.split(" (")[0] for r in failed} == {"price >= 1", "upgrade price >= 1"}
    for result in failed:
        assert result.values["price"] == 0 and "card" in result.values
        assert result.record is not None and result.record.is_file()
        assert result.verdict.startswith("unfinished")  # the referee accepts the free purchase
        assert result.record.read_text().rstrip().endswith("for 0")


def test_prove_command_exit_codes(tmp_path) -> None:
    runner = CliRunner()
    ok = runner.invoke(main, ["prove", "--game", "saint-petersburg", "-r", "2nd edition", "-o", str(tmp_path)])
    assert ok.exit_code == 0, ok.output
    assert "counterexample" not in ok.output and "proved" in ok.output
    bad = runner.invoke(main, ["prove", "--variant", "sp-no-minimum", "-o", str(tmp_path)])
    assert bad.exit_code == 1, bad.output
    assert "counterexample  price >= 1" in bad.output and "card=Pub" in bad.output
    assert "referee verdict unfinished" in bad.output


def test_broken_tables_are_caught(tmp_path) -> None:
    options = dataclasses.replace(
        SP.ruleset(None),
        variety_table=(0, 1, 3, 3, 10),
        first_deal_per_player=3,
        warehouse_hand_limit=2,
        potemkin_value=0,
    )
    failed = {r.name.split(" (")[0].split(":")[0] for r in prove(SP, options, {}, tmp_path) if not r.proved}
    assert "aristocrat variety table is strictly increasing" in failed
    assert any(name.startswith("aristocrat variety follows") for name in failed)
    assert any(name.startswith("round 1's deal") for name in failed)
    assert "the Warehouse never lowers the hand limit" in failed


POINTS = sp_price_points(SP.ruleset(None))


@PROPS
@given(
    index=st.integers(0, len(POINTS) - 1),
    owned=st.integers(0, 5),
    lower=st.booleans(),
    cw=st.integers(0, 1),
    gs=st.integers(0, 1),
)
def test_symbolic_price_is_the_referees_price(index, owned, lower, cw, gs) -> None:
    """The z3 term the proofs reason about equals ``SPState.price`` run on plain integers, at every point."""
    point = POINTS[index]
    state = SPState(["P", "Q"], SP.ruleset(None))
    card = state.cards[point.card]
    owned = min(owned, card.copies - 1)
    state.p[0].owned = Counter({"Carpenter Workshop": cw, "Gold Smelter": gs, card.name: owned})
    # (buying the Carpenter Workshop itself: its own count is ``owned``, in the symbolic run as in this one)
    target = state.cards[point.target] if point.target else None
    concrete = state.price(0, card, lower, target)
    v = point.variables
    term = z3.substitute(
        point.term,
        (v["owned"], z3.IntVal(owned)),
        (v["from_lower"], z3.BoolVal(lower)),
        (v["carpenter_workshop"], z3.IntVal(cw)),
        (v["gold_smelter"], z3.IntVal(gs)),
    )
    assert z3.simplify(term).as_long() == concrete


# ------------------------------------------------------------------------------------ Santorini: New York
SNY = GAMES["santorini-new-york"]
SNY_DECK_LIST = DECK_LIST_DIR / "provisional.toml"


def sny_prove(folder: Path, monkeypatch: pytest.MonkeyPatch, options: str, deck_list: str | None = None) -> Any:
    """``referee prove`` of a Santorini house rule written as a variant file in ``folder`` (and a deck-list file
    beside it, when given), run there; the records go to ``folder/out``."""
    (folder / "house.toml").write_text(f'name = "house"\ngame = "santorini-new-york"\n[options]\n{options}\n')
    if deck_list is not None:
        (folder / "real.toml").write_text(deck_list)
    monkeypatch.chdir(folder)
    return CliRunner().invoke(main, ["prove", "--variant", "house.toml", "-o", "out"], catch_exceptions=False)


def counterexamples(output: str) -> dict[str, tuple[str, str]]:
    """Each counterexample's property (up to its colon or parenthesis) -> (its values line, its record line)."""
    lines = output.splitlines()
    return {
        line.split("counterexample  ")[1].split(" (")[0].split(":")[0]: (line, lines[i + 1])
        for i, line in enumerate(lines)
        if line.startswith("  counterexample  ")
    }


def judged(folder: Path, record_line: str) -> tuple[Path, Any]:
    """The counterexample record a result line names, judged again by the referee."""
    path = folder / record_line.split("record ")[1].split(":")[0]
    (report,) = check_file(path)
    return path, report


def test_sny_deck_list_that_cannot_be_read_is_a_usage_error_not_a_counterexample(tmp_path, monkeypatch) -> None:
    result = sny_prove(tmp_path, monkeypatch, 'deck_list = "missing.toml"')
    assert result.exit_code == 2 and "counterexample" not in result.output
    assert "missing.toml" in result.output


def test_sny_shipped_rules_prove_four_card_properties(tmp_path: Path) -> None:
    results = prove(SNY, SNY.ruleset(None), {"Ruleset": "standard"}, tmp_path)
    assert [r.name.split(":")[0].split(" (")[0] for r in results] == [
        "the setup deal fits the deck",
        "one Statue holder",
        "a hand lasts until the refill",
        "refills never run dry",
    ]
    assert all(r.proved for r in results)
    assert "2-5 players, 75 decks of deck list 'provisional'" in results[0].name
    assert "any players out, their hands discarded" in results[3].name


@pytest.mark.parametrize(
    "options,prop,shown,verdict,code,last",
    [
        # a deck of 25 cannot deal 6 to each of 5 players: refused at the Deck tag
        ("hand_size = 6", "the setup deal fits the deck", "players=5", "malformed", "sny-bad-deck", None),
        # 3 cards every 4 rounds: hands of 5, then 4, then 3 at the start of a period: empty before round 12
        ("refill_size = 3", "a hand lasts until the refill", "round=12, hand=0", "illegal", "sny-not-in-hand", "play:"),
        # a hand of 5 does not last 6 rounds: the referee refuses the options at setup
        ("refill_period = 6", "a hand lasts until the refill", "round=6", "malformed", "sny-bad-options", None),
        # 5 cards every 4 rounds: 5 players hold 5 x 1 after round 4, the pile 20 < 25
        ("refill_size = 5", "refills never run dry", "players=5, after round=4", "illegal", "sny-hand-size", "hand "),
        # the original sny-fast-refill: 4 cards every 3 rounds, hands grow, the pile holds 15 < 20 for 5 players
        ("refill_period = 3", "refills never run dry", "discard pile=15, needed=20", "illegal", "sny-hand-size", None),
    ],
)
def test_sny_house_rule_breaking_the_card_arithmetic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: str, prop: str, shown: str, verdict: str, code: str, last
) -> None:
    result = sny_prove(tmp_path, monkeypatch, options)
    assert result.exit_code == 1, result.output
    found = counterexamples(result.output)
    assert list(found) == [prop], result.output  # the other properties are proved
    values, record_line = found[prop]
    assert shown in values
    path, report = judged(tmp_path, record_line)
    assert f"referee verdict {verdict}" in record_line and f"[{code}]" in record_line
    assert report.verdict.value == verdict and report.error.code == code
    text = path.read_text()
    assert '[Variant "house.toml"]' in text and (path.parent / "house.toml").is_file()
    if last is not None:  # a legal game up to the lines the rules ask for at that point: the first is refused
        refused = text.splitlines()[report.error.line - 1]
        assert refused.startswith(last) and all(
            line.startswith(last) for line in text.splitlines()[report.error.line :]
        )


TIED = SNY_DECK_LIST.read_text().replace('name = "provisional"', 'name = "real"')


@pytest.mark.parametrize(
    "line,deck,cards",
    [
        # a tie in the first-game deck: the deck in force is the counterexample
        (
            '"Iron Worker" = [1, 6, 10, 14, 18, 22]',
            "Engineer, Iron Worker, NYPD Officer, Subway Operator",
            "Engineer 1 and Iron Worker 1",
        ),
        # a tie only in decks with the Taxi Driver: one of them, with the deck list's numbers
        (
            '"Taxi Driver" = [4, 8, 12, 16, 20, 23]',
            "Engineer, Iron Worker, NYPD Officer, Taxi Driver",
            "NYPD Officer 23 and Taxi Driver 23",
        ),
    ],
)
def test_sny_deck_list_with_a_shared_number(tmp_path, monkeypatch, line: str, deck: str, cards: str) -> None:
    profession = line.split(" = ")[0]
    tied = "\n".join(line if row.startswith(profession + " =") else row for row in TIED.splitlines())
    result = sny_prove(tmp_path, monkeypatch, 'deck_list = "real.toml"', tied)
    assert result.exit_code == 1
    (prop,) = counterexamples(result.output)
    assert prop.startswith("one Statue holder")
    values, record_line = counterexamples(result.output)[prop]
    assert f"deck={deck}, cards={cards}" in values
    path, report = judged(tmp_path, record_line)
    assert report.error.code == "sny-bad-deck" and "share a number" in report.error.message
    text = path.read_text()
    assert '[DeckList "real.toml"]' in text and f'[Deck "{deck}"]' in text and (path.parent / "real.toml").is_file()
    first, second = cards.split(" and ")
    assert text.rstrip().splitlines()[-1] == f"play: Anna {first}, Boris {second}"


def test_sny_ties_allowed_by_the_house_rule_are_still_a_counterexample(tmp_path, monkeypatch) -> None:
    """With ``unique_numbers`` off the referee accepts the tie (the later seat takes the Statue): the record of the
    counterexample is accepted, as ``sp-no-minimum``'s free purchase is."""
    tied = TIED.replace('"Iron Worker" = [2,', '"Iron Worker" = [1,')
    result = sny_prove(tmp_path, monkeypatch, 'deck_list = "real.toml"\nunique_numbers = false', tied)
    (prop,) = counterexamples(result.output)
    _, record_line = counterexamples(result.output)[prop]
    path, report = judged(tmp_path, record_line)
    assert report.verdict.value == "unfinished" and report.error is None
    assert "(the counterexample is accepted)" in record_line
    assert path.read_text().rstrip().splitlines()[-1] == "play: Anna Engineer 1, Boris Iron Worker 1"


@pytest.mark.parametrize(
    "options",
    ["eliminated_hand_to_discard = false", "last_player_needs_statue = true\neliminated_hand_to_discard = false"],
)
def test_sny_eliminations_never_dry_the_refills(tmp_path, monkeypatch, options: str) -> None:
    """Players out take their hands out of the game ([D12] off), the last player may play on ([D13] on): every
    elimination pattern is covered, and with the printed numbers every refill is still full."""
    result = sny_prove(tmp_path, monkeypatch, options)
    assert result.exit_code == 0, result.output
    assert "their hands out of the game" in result.output and result.output.splitlines()[-1] == "all proved"


class NoWins(Generator):
    """The referee's generator taking no winning turn when another exists: games go on until players go out."""

    def turn(self) -> None:
        state = self.state
        going_on = [turn for turn in state.legal_turns() if turn.winner is None]
        if not going_on:
            super().turn()
            return
        self.emit(TurnLine(self.ref(state.order[state.turn]), self.steps_of(self.rng.choice(going_on)), 0))


SNY_GAMES = {"ci": 8, "dev": 40, "deep": 200}[PROFILE]


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"eliminated_hand_to_discard": False},
        {"eliminated_hand_to_discard": False, "last_player_needs_statue": True},
        {"refill_period": 3, "refill_size": 3},
        {"refill_size": 5},  # runs dry: the referee deals fewer, as the proof's counts say
    ],
    ids=lambda changes: ",".join(f"{k}={v}" for k, v in changes.items()) or "standard",
)
def test_sny_card_counts_of_the_proofs_are_the_referees(changes: dict[str, Any]) -> None:
    """The counts the refill proofs reason about (``hand_cards``, ``discard_before_refill``) are those of the
    referee's own card tracker in played games: every hand before every reveal, every hand of a player going out,
    the cards out of the game, and the discard pile and the refill the referee deals at every refill (until one
    runs dry: the proof's counts assume full refills before)."""
    options = dataclasses.replace(SNY.ruleset(None), **changes)
    period, size = options.refill_period, options.refill_size
    seen = {"reveals": 0, "refills": 0, "out": 0, "dry": 0}
    for seed in range(SNY_GAMES):
        players = NAMES[: 2 + seed % 4]
        generator = NoWins(players, random.Random(seed), options)
        generator.run()
        state = SNY.new_state(players, options)
        cards = len(state.tracker.cards)
        out_cards = 0
        for statement in generator.written:
            number = state.round
            done = (number - 1) // period  # refills dealt before this round
            held = {seat: state.tracker.count(hand(seat)) for seat in state.in_game()}
            if isinstance(statement, Reveal):
                seen["reveals"] += 1
                assert set(held.values()) == {hand_cards(options, done, number - 1 - done * period)}, (seed, number)
            before = set(state.out)
            due_before = bool(state.refill_due)
            state.apply(statement)
            for seat in set(state.out) - before:  # out this round, after revealing its card
                seen["out"] += 1
                assert held[seat] == hand_cards(options, done, number - done * period)
                out_cards += 0 if options.eliminated_hand_to_discard else held[seat]
                assert state.tracker.count(OUT) == out_cards
            if state.refill_due and not due_before:  # the round just ended: a refill is due
                seen["refills"] += 1
                players_in = len(state.refill_due)
                pile = discard_before_refill(options, cards, players_in, state.round // period - 1, out_cards)
                assert state.tracker.count(DISCARD) == pile, (seed, state.round)
                assert state.refill_count() == min(size, pile // players_in)
                if pile < size * players_in:
                    seen["dry"] += 1
                    break  # the referee deals fewer from here on: the proof's counterexample
    assert seen["reveals"] and seen["refills"] and seen["out"], seen
    assert bool(seen["dry"]) == (changes == {"refill_size": 5}), seen
