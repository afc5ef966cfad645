"""The z3 proofs (referee/proofs.py): proved for the shipped rulesets, a counterexample for broken variants, and the
symbolic run of ``SPState.price`` agreeing with the concrete one."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
import z3
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from properties.profiles import PROPS
from referee.cli import main
from referee.proofs import prove, prover
from referee.registry import GAMES
from referee.saint_petersburg.proofs import sp_price_points
from referee.saint_petersburg.state import SPState
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
