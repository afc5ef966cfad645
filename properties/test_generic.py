"""Generic properties, run for every game in ``ADAPTERS`` and every ruleset and shipped variant of it."""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from properties.adapters import case_id, cases
from properties.profiles import PROPS, scaled
from referee.errors import RefereeError, Verdict
from referee.record import split_games
from referee.replay import check_text
from referee.testkit import (
    HARD_CAP,
    NAMES,
    FailedAt,
    clone,
    drive,
    guarded,
    parse_record_body,
    playout,
    record_text,
    replay,
    save_counterexample,
)

CASES = cases()
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def players_of(adapter):
    return st.sampled_from(adapter.player_counts())


def open_issue_cases(prop: str) -> list:
    """CASES, with the pairs an adapter lists in ``open_issues`` (known referee findings) marked xfail."""
    out = []
    for adapter, config in CASES:
        reason = getattr(adapter, "open_issues", {}).get(prop)
        marks = [pytest.mark.xfail(reason=reason, strict=False)] if reason else []
        out.append(pytest.param((adapter, config), id=config.label, marks=marks))
    return out


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPS
@given(data=st.data(), seed=seeds)
def test_playout_ends_within_bound(case, data, seed) -> None:
    """A random legal playout ends within the adapter's stated bound (``statement_bound``)."""
    adapter, config = case
    n = data.draw(players_of(adapter), label="players")
    bound = adapter.statement_bound(n, config.options)
    game = drive(adapter, config, NAMES[:n], seed, cap=(bound + 1) if bound is not None else HARD_CAP)

    def body() -> None:
        assert not game.capped, f"no end after {len(game.statements)} statements (bound {bound})"
        assert game.state.is_terminal(), "the playout stopped before the game ended"
        if bound is not None:
            assert len(game.statements) <= bound, f"{len(game.statements)} statements > bound {bound}"

    guarded(adapter, game, "ends-within-bound", body)


@pytest.mark.parametrize("case", open_issue_cases("someone-can-act"))
def test_someone_can_always_act(case) -> None:
    """At every point of a random legal playout that is not the end, the player to act has at least one legal
    action (the game never gets stuck)."""
    adapter, _config = case
    known = "someone-can-act" in getattr(adapter, "open_issues", {})
    # a known finding (xfail) is not shrunk: it would only spend the CI budget
    chosen = settings(PROPS, phases=[Phase.explicit, Phase.generate]) if known else PROPS
    chosen(given(data=st.data(), seed=seeds)(_someone_can_act))(case)


def _someone_can_act(case, data, seed) -> None:
    adapter, config = case
    n = data.draw(players_of(adapter), label="players")
    game = playout(adapter, config, n, seed)

    def check(state, index) -> None:
        if not adapter.has_legal_action(state):
            save_counterexample(
                config,
                game.players,
                map(adapter.text, game.statements[:index]),
                "someone-can-act",
                ["after the last line, no legal action is listed:", state.summary()],
            )
            raise FailedAt(index - 1, "the player to act has no legal action:\n" + state.summary())

    replay(adapter, game, None, each=check)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPS
@given(data=st.data(), seed=seeds)
def test_generated_record_replays_valid_with_identical_scores(case, data, seed) -> None:
    """``Game.play`` writes a record the referee judges valid (its final claim and Result tag included), within the
    bound; and a record written from a driver playout replays valid with exactly the scores and winners the
    playout's own state reached."""
    adapter, config = case
    n = data.draw(players_of(adapter), label="players")
    players = NAMES[:n]
    text = config.game.play(players, random.Random(seed), config.options, config.tags())
    (report,) = check_text(text)
    bound = adapter.statement_bound(n, config.options)
    if report.verdict is not Verdict.VALID or (bound is not None and report.statements > bound):
        save_counterexample(
            config,
            players,
            [line for _, line in split_games(text)[0].body],
            "generator-record-valid",
            [f"verdict {report.verdict.value}: {report.error}"],
        )
    assert report.verdict is Verdict.VALID, f"Game.play wrote a {report.verdict.value} record: {report.error}"
    assert bound is None or report.statements <= bound, f"{report.statements} statements > bound {bound}"
    game = playout(adapter, config, n, seed)

    def body() -> None:
        record = record_text(config, game.players, map(adapter.text, game.statements), "driver playout")
        (again,) = check_text(record)
        assert again.verdict is Verdict.VALID, f"{again.verdict.value}: {again.error}"
        mine = game.state.outcome()
        assert again.outcome.scores == mine.scores, f"replayed {again.outcome.scores}, played {mine.scores}"
        assert again.outcome.winners == mine.winners

    guarded(adapter, game, "record-replays-identically", body)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPS
@given(data=st.data(), seed=seeds, source=st.sampled_from(["driver", "generator"]))
def test_statement_text_round_trip(case, data, seed, source) -> None:
    """Printing a parsed record and parsing it again gives the same game: every statement survives
    print -> parse unchanged (source positions aside), the printed text is a fixed point, and the reparsed game
    reaches the same position (fingerprint) after every statement."""
    adapter, config = case
    n = data.draw(players_of(adapter), label="players")
    game = playout(adapter, config, n, seed, source)
    parser = config.game.parser()

    def body() -> None:
        for index, statement in enumerate(game.statements):
            text = adapter.text(statement)
            again = parser.parse(text)
            assert adapter.normalise(again) == adapter.normalise(statement), (
                f"statement {index + 1}: {text!r} parses to {again!r}, not {statement!r}"
            )
            assert adapter.text(again) == text, (
                f"statement {index + 1}: {text!r} prints back as {adapter.text(again)!r}"
            )
        record = record_text(config, game.players, map(adapter.text, game.statements), "round trip")
        reparsed = parse_record_body(config.game, record)
        assert len(reparsed) == len(game.statements)
        first = config.game.new_state(game.players, config.options)
        second = config.game.new_state(game.players, config.options)
        for index, (a, b) in enumerate(zip(game.statements, reparsed, strict=False)):
            first.apply(a)
            second.apply(b)
            assert first.fingerprint() == second.fingerprint(), f"positions differ after statement {index + 1}"

    guarded(adapter, game, "statement-round-trip", body)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@scaled(0.8)
@given(data=st.data(), seed=seeds, probe_seed=seeds)
def test_legal_accepted_and_illegal_rejected_unchanged(case, data, seed, probe_seed) -> None:
    """At sampled positions of a playout, every statement the generator reports legal is accepted (on a copy),
    and every statement it reports illegal is rejected with a referee error and leaves the position
    (``fingerprint()``) exactly as it was."""
    adapter, config = case
    n = data.draw(players_of(adapter), label="players")
    game = playout(adapter, config, n, seed)
    rng = random.Random(probe_seed)
    probes = set(rng.sample(range(len(game.statements) + 1), min(len(game.statements) + 1, 15)))
    problem: list = []

    def probe(state, index) -> None:
        if index not in probes:
            return
        legal = adapter.legal_probes(state, rng, game.statements[:index])
        for move in rng.sample(legal, min(4, len(legal))):
            copy = clone(state)
            try:
                copy.apply(move)
            except RefereeError as error:
                problem.append((index, move, f"reported legal, rejected: [{error.code}] {error.message}"))
                raise FailedAt(index, problem[-1][2]) from error
        for move in adapter.illegal_moves(state, rng, game.statements[:index]):
            before = state.fingerprint()
            try:
                state.apply(move)
            except RefereeError:
                after = state.fingerprint()
                if after != before:
                    problem.append((index, move, "rejected but the position changed"))
                    raise FailedAt(index, f"{adapter.text(move)!r}: rejected but the position changed") from None
                continue
            problem.append((index, move, "reported illegal, accepted"))
            raise FailedAt(index, f"{adapter.text(move)!r}: reported illegal, accepted")

    try:
        replay(adapter, game, None, each=probe)
    except FailedAt as error:
        index, move, why = problem[-1]
        lines = [adapter.text(s) for s in game.statements[:index]] + [adapter.text(move)]
        save_counterexample(
            config,
            game.players,
            lines,
            "legal-illegal-agree",
            [f"the last line: {why} (seed {seed}, probe seed {probe_seed})"],
        )
        raise AssertionError(str(error)) from None
