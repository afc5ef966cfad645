"""``referee variant check``, ``referee variant diff`` and ``referee stats``: each broken invariant found (with a
judged counterexample record), the shipped variants passing, fixed-seed output, the same output in any process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.errors import JOB_FAILED
from referee.variant import registered_variants

KNOWN_BROKEN = {"sp-no-minimum"}  # deliberately broken: the demonstration that the check catches a broken rule


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(main, list(args), catch_exceptions=False)
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)


def section(output: str, name: str) -> list[str]:
    """The lines of one invariant: its holds/broken line and the detail lines under it."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line[10:].startswith(name))
    end = start + 1
    while end < len(lines) and lines[end].startswith("          "):
        end += 1
    return lines[start:end]


def record_of(lines: list[str], tmp_path: Path) -> Path:
    line = next(line for line in lines if line.strip().startswith("record "))
    path = Path(line.strip().split()[1].rstrip(":"))
    return path if path.is_absolute() else tmp_path / path


# ------------------------------------------------------------------------------------------------ check
def test_check_finds_a_game_without_end(tmp_path: Path) -> None:
    """A Saint Petersburg house rule that never clears the lower row: players who pass whenever they may leave the
    display full, nothing is dealt, no deck runs out."""
    (tmp_path / "keep.toml").write_text(
        'name = "sp-keep-lower-row"\ngame = "saint-petersburg"\n[options]\ndiscard_lower_row = false\n'
    )
    result = run("variant", "check", "keep.toml", "-n", "1", "--no-proofs", "--cap", "1500", cwd=tmp_path)
    assert result.exit_code == 1, result.output
    lines = section(result.output, "every game ends within its bound")
    assert lines[0].startswith("  broken"), result.output
    assert "no end after 1500 statements (no bound claimed; cut at 1500)" in lines[1]
    assert "referee verdict unfinished after 1500 statements" in lines[2]
    record = record_of(lines, tmp_path)
    assert '[Variant "keep.toml"]' in record.read_text() and (record.parent / "keep.toml").is_file()
    assert section(result.output, "a player always has a legal statement")[0].startswith("  holds")


def test_check_follows_the_first_edition_refill_exception(tmp_path: Path) -> None:
    """[D2] flipped (1st edition: no refill after a phase in which no card left the display) is a rule, not a broken
    invariant: the display check of the game's own invariants follows it (it reported a building phase of round 1
    with the 4 untaken workers and no building). Players who always pass then leave the display empty for good, so
    the game need not end — that one is reported, and rightly."""
    (tmp_path / "skip.toml").write_text(
        'name = "sp-skip-refill"\ngame = "saint-petersburg"\nruleset = "1st edition"\n'
        "[options]\nrefill_skip_when_untouched = true\n"
    )
    result = run("variant", "check", "skip.toml", "-n", "4", "--no-proofs", "--cap", "1500", cwd=tmp_path)
    assert section(result.output, "the game's own invariants (SPChecker)")[0].startswith("  holds"), result.output
    ends = section(result.output, "every game ends within its bound")
    assert ends[0].startswith("  broken") and "no bound claimed" in ends[1], result.output
    assert result.output.splitlines()[-1] == "1 invariant(s) broken"


def test_check_finds_a_payment_below_one_ruble(tmp_path: Path) -> None:
    result = run("variant", "check", "sp-no-minimum", "-n", "2", cwd=tmp_path)
    assert result.exit_code == 1
    proof = section(result.output, "price >= 1 (every card except upgrades")
    assert proof[0].startswith("  broken") and "price=0" in proof[1]
    assert "referee verdict unfinished" in proof[2] and "(the counterexample is accepted)" in proof[2]
    assert record_of(proof, tmp_path).is_file()
    own = section(result.output, "the game's own invariants (SPChecker)")
    assert own[0].startswith("  broken") and "less than the 1-ruble minimum" in own[1]
    assert "paid 0 ruble(s)" in own[1]
    assert result.output.splitlines()[-1] == "3 invariant(s) broken"


def test_check_finds_a_player_without_legal_statement(tmp_path: Path) -> None:
    """Saint Petersburg with no starting money and no pass for a broke player in the buy-only first worker phase: the
    first player can neither buy nor pass. The generator's failure is a counterexample, never a traceback."""
    (tmp_path / "broke.toml").write_text(
        'name = "sp-broke-start"\ngame = "saint-petersburg"\n'
        "[options]\nstart_rubles = 0\nfirst_phase_broke_pass = false\n"
    )
    result = run("variant", "check", "broke.toml", "-n", "2", "--no-proofs", cwd=tmp_path)
    assert result.exit_code == 1, result.output
    lines = section(result.output, "a player always has a legal statement")
    assert lines[0].startswith("  broken")
    assert "no statement the referee lists as legal is accepted and moves the game on (listed: none)" in lines[1]
    assert "no legal action: round 1, worker phase" in lines[1]
    assert any("referee verdict unfinished after 4 statements" in line for line in lines), lines
    text = record_of(lines, tmp_path).read_text()
    assert '[Variant "broke.toml"]' in text and text.rstrip().splitlines()[-1].startswith("deal: ")


SNY_ONE_CARD_REFILL = 'name = "sny-one-card-refill"\ngame = "santorini-new-york"\n[options]\nrefill_size = 1\n'


def test_check_finds_santorini_hands_running_out_though_a_checkpoint_is_accepted(tmp_path: Path) -> None:
    """One card a refill: the hands run out in round 7, where the referee still lists (and accepts) the optional
    "round 7" checkpoint — which moves nothing on: no player can act. The generator stops with a counterexample."""
    (tmp_path / "one.toml").write_text(SNY_ONE_CARD_REFILL)
    result = run("variant", "check", "one.toml", "-n", "4", "--no-proofs", cwd=tmp_path)
    assert result.exit_code == 1, result.output
    lines = section(result.output, "a player always has a legal statement")
    assert lines[0].startswith("  broken")
    assert "(listed: round 7)" in lines[1] and "has no card left to play in round 7" in lines[1]
    assert section(result.output, "generated records replay valid")[0].startswith("  holds")
    assert "referee verdict unfinished" in "\n".join(lines)


def test_play_under_a_variant_that_cannot_be_played_through_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "one.toml").write_text(SNY_ONE_CARD_REFILL)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee.cli",
            "play",
            "santorini-new-york",
            "-n",
            "2",
            "--variant",
            "one.toml",
            "--games",
            "4",
            "-o",
            "out.rec",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == JOB_FAILED and done.stdout == ""
    assert done.stderr.startswith("referee: cannot play game ") and done.stderr.count("\n") == 1
    assert "has no card left to play" in done.stderr and "'referee variant check one.toml' says why" in done.stderr
    assert not (tmp_path / "out.rec").exists()


@pytest.mark.parametrize("option", ["hand_size", "refill_size", "refill_period"])
def test_santorini_deals_and_refills_are_at_least_one(tmp_path: Path, option: str) -> None:
    (tmp_path / "zero.toml").write_text(f'name = "zero"\ngame = "santorini-new-york"\n[options]\n{option} = 0\n')
    result = run("variant", "check", "zero.toml", "--no-proofs", cwd=tmp_path)
    assert result.exit_code == 1
    assert f"option '{option}' is at least 1, not 0" in result.output


def test_round_one_discards_keep_a_hand_limit_of_0_playable(tmp_path: Path) -> None:
    """Round 1 opens right after the setup: the dealt hands' discards are listed as legal and the generator writes
    them, so under a hand limit of 0 every invariant holds."""
    (tmp_path / "sj0.toml").write_text('name = "sj-hand-limit-0"\ngame = "san-juan"\n[options]\nhand_limit = 0\n')
    result = run("variant", "check", "sj0.toml", "-n", "2", "--no-proofs", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert section(result.output, "a player always has a legal statement")[0].startswith("  holds")
    assert result.output.splitlines()[-1] == "every invariant holds"


def test_check_finds_a_santorini_refill_that_runs_dry(tmp_path: Path) -> None:
    """5 cards every 4 rounds: hands grow, and after round 4 five players need 25 cards from a pile of 20. The proof
    finds it, with a played game whose refill lines the referee refuses; random play goes on (the referee deals
    what the pile holds), so the proof is what catches it."""
    (tmp_path / "rich.toml").write_text('name = "sny-rich"\ngame = "santorini-new-york"\n[options]\nrefill_size = 5\n')
    result = run("variant", "check", "rich.toml", "-n", "2", cwd=tmp_path)
    assert result.exit_code == 1, result.output
    lines = section(result.output, "refills never run dry")
    assert lines[0].startswith("  broken") and "players=5, after round=4" in lines[1]
    assert (
        "referee verdict illegal at line" in lines[2]
        and "[sny-hand-size] a refill is 4 cards; this is card 5" in lines[2]
    )
    assert '[Variant "rich.toml"]' in record_of(lines, tmp_path).read_text()
    assert result.output.splitlines()[-1] == "1 invariant(s) broken"


def test_check_of_a_santorini_house_rule_no_game_can_be_set_up_with(tmp_path: Path) -> None:
    """A refill period longer than a hand lasts: the proof's counterexample, and random play says that no game can
    be set up (the referee refuses the options at the Variant tag) instead of a traceback."""
    (tmp_path / "long.toml").write_text(
        'name = "sny-long"\ngame = "santorini-new-york"\n[options]\nrefill_period = 6\n'
    )
    result = run("variant", "check", "long.toml", "-n", "2", cwd=tmp_path)
    assert result.exit_code == 1, result.output
    proof = section(result.output, "a hand lasts until the refill")
    assert proof[0].startswith("  broken") and "round=6, hand=0" in proof[1]
    assert "malformed at line" in proof[2] and "[sny-bad-options]" in proof[2]
    played = section(result.output, "generated records replay valid")
    assert played[0].startswith("  broken") and "(no game: none can be set up)" in played[0]
    assert "no game with 2 players can be set up: Variant: refill_period is between 1 and hand_size" in played[1]
    assert "[sny-bad-options]" in played[2]
    assert result.output.splitlines()[-1] == "2 invariant(s) broken"


@pytest.mark.parametrize("name", sorted(set(registered_variants()) - KNOWN_BROKEN))
def test_shipped_variants_pass_the_check(tmp_path: Path, name: str) -> None:
    result = run("variant", "check", name, "-n", "2", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "every invariant holds"
    assert "broken" not in result.output
    assert not (tmp_path / "counterexamples").exists()  # nothing broken: nothing written, not even the folder


def test_a_sound_variant_file_leaves_nothing_behind(tmp_path: Path) -> None:
    """No counterexample, no folder and no copy of the file: 'variant check' and 'prove' left counterexamples/ with
    a copy of the variant in the user's folder even when everything held."""
    (tmp_path / "club.toml").write_text('game = "saint-petersburg"\n[options]\nstart_rubles = 30\n')
    assert run("variant", "check", "club.toml", "-n", "1", "-o", "out/deep", cwd=tmp_path).exit_code == 0
    assert run("prove", "--variant", "club.toml", cwd=tmp_path).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.toml"]
    # a broken one keeps its records and the copy they name, in the folders made for them
    (tmp_path / "free.toml").write_text('game = "saint-petersburg"\n[options]\nmin_price = 0\n')
    assert run("variant", "check", "free.toml", "-n", "1", "-o", "out/deep", cwd=tmp_path).exit_code == 1
    kept = sorted(p.name for p in (tmp_path / "out" / "deep").iterdir())
    assert "free.toml" in kept and any(name.endswith(".rec") for name in kept)


def test_check_refuses_a_bad_variant_file(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text('game = "san-juan"\n[cards."Chapel"]\ncopies = "none"\n')
    result = run("variant", "check", "bad.toml", cwd=tmp_path)
    assert result.exit_code == 1
    assert result.output.startswith("  broken  the variant file is valid: [bad-variant] variant bad:")
    assert "copies takes a whole number from 0 to 999" in result.output
    missing = run("variant", "check", "nowhere.toml", cwd=tmp_path)
    assert missing.exit_code == 1 and "[unknown-variant]" in missing.output


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[options]\nstart_rublez = 40\n", "no rule option 'start_rublez' in Saint Petersburg"),
        ("[options]\nstart_rubles = -5\n", "option 'start_rubles' is at least 0, not -5"),
        ("[options]\nend_buildings = 10\n", "no rule option 'end_buildings' in Saint Petersburg"),  # San Juan's
    ],
)
def test_every_command_refuses_a_variant_file_with_a_bad_option(tmp_path: Path, body: str, message: str) -> None:
    """A bad option is a usage error of the command that names the file, as bad TOML is — 'variant diff' and
    'regress --house-rule' judged every game bad-variant instead, exit 1, as if the house rule changed them all."""
    (tmp_path / "club.toml").write_text('game = "saint-petersburg"\n' + body)
    games = tmp_path / "games.rec"
    assert run("play", "saint-petersburg", "-n", "2", "-o", str(games)).exit_code == 0
    base = tmp_path / "base.jsonl"
    assert run("regress", str(games), "--save", str(base)).exit_code == 0
    for args in (
        ["variant", "diff", "2nd edition", "club.toml", "-n", "1"],
        ["variant", "diff", "club.toml", "2nd edition", str(games)],
        ["regress", str(games), "--baseline", str(base), "--house-rule", "club.toml"],
        ["stats", "--variant", "club.toml", "-n", "1"],
        ["prove", "--variant", "club.toml"],
    ):
        result = run(*args, cwd=tmp_path)
        assert result.exit_code == 2, (args, result.output)
        assert f"variant club: {message}" in result.output, (args, result.output)
        assert "game(s)" not in result.output, (args, result.output)


# ------------------------------------------------------------------------------------------------- diff
def test_diff_of_generated_games_names_the_first_statement_judged_differently() -> None:
    result = run("variant", "diff", "2nd edition", "sp-cheap-market", "-n", "2")
    assert result.exit_code == 1
    assert result.output == (
        "seed 0 (saint-petersburg): claims judged differently\n"
        "  first difference: line 21 'Clara: buy Market for 5': accepted under 2nd edition; accepted, claim noted "
        "broken [sp-price-mismatch] Market costs Clara 4 rubles here, not 5 under sp-cheap-market\n"
        "seed 1 (saint-petersburg): claims judged differently\n"
        "  first difference: line 38 'Anna: buy Market for 5': accepted under 2nd edition; accepted, claim noted "
        "broken [sp-price-mismatch] Market costs Anna 4 rubles here, not 5 under sp-cheap-market\n"
        "2 game(s) from 2 Saint Petersburg game(s) generated under 2nd edition (seeds 0-1): 2 differ between "
        "2nd edition and sp-cheap-market\n"
    )


def test_diff_of_records_a_verdict_and_the_final_scoring(tmp_path: Path) -> None:
    rich = tmp_path / "rich.rec"
    assert run("play", "saint-petersburg", "--variant", "sp-rich-start", "-s", "3", "-o", str(rich)).exit_code == 0
    result = run("variant", "diff", "sp-rich-start", "2nd edition", str(rich))
    assert result.exit_code == 1
    head, first = result.output.splitlines()[:2]
    assert "verdict valid -> illegal [sp-cannot-afford]" in head
    assert "accepted under sp-rich-start; illegal [sp-cannot-afford]" in first and "under 2nd edition" in first
    # the same statements accepted, only the final scoring differs: more rubles convert to more VP
    plain = tmp_path / "plain.rec"
    assert run("play", "saint-petersburg", "-s", "3", "-o", str(plain)).exit_code == 0
    result = run("variant", "diff", "2nd edition", "sp-rich-start", str(plain))
    head, first = result.output.splitlines()[:2]
    assert head.startswith(f"{plain} #1 (saint-petersburg): scores ")
    assert "[final-mismatch]" in first
    same = run("variant", "diff", "2nd edition", "2nd edition", str(plain))
    assert same.exit_code == 0 and same.output.endswith(": 0 differ between 2nd edition and 2nd edition\n")


def test_diff_needs_a_game_for_two_rulesets() -> None:
    result = CliRunner().invoke(main, ["variant", "diff", "2nd edition", "1st edition", "-n", "1"])
    assert result.exit_code == 2 and "--game" in result.output
    ok = run("variant", "diff", "2nd edition", "1st edition", "-n", "1", "--game", "saint-petersburg")
    assert ok.exit_code in (0, 1) and "1 game(s) from 1 Saint Petersburg game(s)" in ok.output


# ------------------------------------------------------------------------------------------------ stats
def test_stats_text_for_fixed_seeds() -> None:
    result = run("stats", "--variant", "sj-ten-buildings", "-n", "3", "--players", "2", "--against", "1st edition")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "San Juan: 3 game(s) per rule set, seeds 0-2"
    assert lines[1].split() == ["sj-ten-buildings", "1st", "edition"]
    assert lines[2].split()[:4] == ["games", "3", "(2", "players)"]
    rows = {line[:24].strip(): line for line in lines[3:]}
    assert {"win rate seat 1", "win rate seat 2", "score", "winning score", "margin", "statements", "rounds"} <= set(
        rows
    )
    assert any(name.startswith("built: ") for name in rows) and any(name.startswith("roles chosen: ") for name in rows)
    assert "ended by" in result.output


def test_stats_jsonl_and_wilson() -> None:
    from referee.variant_stats import wilson

    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)
    result = run("stats", "--game", "santorini-new-york", "-n", "2", "--format", "jsonl")
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [row.get("seed") for row in rows[:2]] == [0, 1] and rows[2]["games"] == 2
    summary = rows[2]
    assert summary["rules"] == "standard" and "score" not in summary  # no scores: how games end instead
    assert sum(summary["termination"].values()) == 2
    assert sum(seat["wins"] for seat in summary["win rate by seat"]) >= 2
    assert "played" in summary["counts"]


def test_stats_refuses_a_bad_player_count() -> None:
    result = CliRunner().invoke(main, ["stats", "--variant", "sp-no-pub", "--players", "6", "-n", "1"])
    assert result.exit_code == 2 and "2-4 players" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["stats", "--variant", "sp-no-pub", "-n", "3", "--against", "2nd edition", "--format", "jsonl"],
        ["variant", "diff", "sj-hand-limit-8", "sj-ten-buildings", "-n", "2"],
    ],
    ids=["stats", "diff"],
)
def test_the_same_output_in_any_process(args: list[str], tmp_path: Path) -> None:
    outputs = []
    for seed in ("0", "1234"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, env=env, cwd=tmp_path
        )
        assert done.returncode in (0, 1), done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0]


def test_the_variant_commands_load_lazily() -> None:
    code = (
        "import sys, referee.cli; print('referee.variants_cli' in sys.modules, 'referee.variant_stats' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "False"]


def test_a_generator_that_cannot_finish_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.saint_petersburg import play

    monkeypatch.setattr(play, "MAX_STATEMENTS", 50)
    result = run("stats", "--variant", "sp-no-pub", "-n", "1")
    assert result.exit_code == 1
    assert "no game under sp-no-pub: the generator stopped after 50 statement(s): no end after 50" in result.output


def test_play_refuses_options_that_cannot_set_up_the_game_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "big.toml").write_text('name = "big"\ngame = "santorini-new-york"\n[options]\nhand_size = 22\n')
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "play", "santorini-new-york", "-n", "2", "--variant", "big.toml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert "cannot set up a game of 2 players: Deck: the deck has 25 cards; 2 players are dealt 22 each" in done.stderr


def test_free_pub_vp_are_played_and_judged(tmp_path: Path) -> None:
    """A house rule that gives Pub VP away (price 0): the generator buys up to the cap, the referee charges nothing."""
    (tmp_path / "free.toml").write_text('name = "free"\ngame = "saint-petersburg"\n[options]\npub_vp_price = 0\n')
    played = run("play", "saint-petersburg", "-n", "2", "--games", "4", "--variant", "free.toml", cwd=tmp_path)
    assert played.exit_code == 0, played.output
    pubs = [line for line in played.output.splitlines() if ": pub " in line]
    assert any(re.search(r": pub [1-9]", line) for line in pubs)
    assert all(re.fullmatch(r".*: pub \d+( for 0)?", line) for line in pubs), pubs  # a price claimed is 0
    (tmp_path / "free.rec").write_text(played.output)
    checked = run("check", "free.rec", cwd=tmp_path)
    assert checked.exit_code == 0 and "4 valid" in checked.output


def test_play_into_a_file_copies_a_variant_file_beside_the_record(tmp_path: Path) -> None:
    """A Variant tag names a file relative to the record's folder: ``play -o`` copies the variant there (a different
    file of that name there is kept, the copy named by its content), so the record it writes is judged as played."""
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "club.toml").write_text(
        'name = "club"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 40\n'
    )
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "club.toml").write_text("someone else's file\n")
    played = run("play", "saint-petersburg", "--variant", "house/club.toml", "-o", "out/g.rec", cwd=tmp_path)
    assert played.exit_code == 0, played.output
    copies = sorted(p.name for p in (tmp_path / "out").glob("club*.toml"))
    assert len(copies) == 2 and (tmp_path / "out" / "club.toml").read_text() == "someone else's file\n"
    copy = next(name for name in copies if name != "club.toml")
    assert f'[Variant "{copy}"]' in (tmp_path / "out" / "g.rec").read_text()
    checked = run("check", "out", cwd=tmp_path)
    assert checked.exit_code == 0 and "1 valid" in checked.output, checked.output
