"""The command line: exit codes, output formats, never touching a user's file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main

HEAD = '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n'
OPENING = """tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
Anna: buy Shepherd for 5
Boris: buy Gold Miner for 4
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    path = tmp_path / "games.rec"
    result = run("play", "saint-petersburg", "--players", "3", "--seed", "4", "--games", "2", "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


def test_play_is_deterministic_and_writes_a_valid_record(generated: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.rec"
    run("play", "saint-petersburg", "--players", "3", "--seed", "4", "--games", "2", "-o", str(again))
    assert generated.read_text() == again.read_text()
    result = run("check", str(generated))
    assert result.exit_code == 0
    assert "2 game(s): 2 valid" in result.output


def test_play_refuses_to_overwrite(generated: Path) -> None:
    before = generated.read_text()
    result = CliRunner().invoke(main, ["play", "saint-petersburg", "-s", "9", "-o", str(generated)])
    assert result.exit_code == 2
    assert generated.read_text() == before


def test_dash_as_an_output_is_standard_output_or_refused_never_a_file_named_dash(
    generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for command in (("play", "saint-petersburg", "-s", "4", "-n", "3"), ("trace", str(generated))):
        plain, dashed = run(*command), run(*command, "-o", "-")
        assert dashed.exit_code == plain.exit_code == 0 and dashed.output == plain.output != ""
    for command in (
        ("check", str(generated), "--junit", "-"),
        ("regress", str(generated), "--save", "-"),
        ("report", str(generated), "-o", "-"),
    ):
        result = CliRunner().invoke(main, list(command))
        assert result.exit_code == 2 and "'-' (standard output) cannot take this file here" in result.output
    assert not (tmp_path / "-").exists()


def test_standard_input_named_twice_is_a_usage_error(generated: Path) -> None:
    result = CliRunner().invoke(main, ["check", "-", str(generated), "-"], input=generated.read_text())
    assert result.exit_code == 2 and "'-' (standard input) is named more than once" in result.output


def test_check_exit_1_on_illegal_and_jsonl_fields(tmp_path: Path) -> None:
    path = tmp_path / "bad.rec"
    path.write_text(HEAD + OPENING.replace("Boris: buy Gold Miner for 4", "Boris: buy Gold Miner for 3"))
    result = run("check", "--format", "jsonl", str(path))
    assert result.exit_code == 1
    row = json.loads(result.output.strip().splitlines()[0])
    for key in ("file", "index", "game", "verdict", "line", "column", "code", "message", "scores", "winners"):
        assert key in row
    assert (row["verdict"], row["code"], row["line"], row["column"], row["index"]) == (
        "illegal",
        "sp-price-mismatch",
        8,
        27,
        1,
    )
    assert row["alternatives"] and row["state"]


def test_check_unfinished_is_exit_0(tmp_path: Path) -> None:
    path = tmp_path / "live.rec"
    path.write_text(HEAD + OPENING)
    result = run("check", str(path))
    assert result.exit_code == 0
    assert "unfinished" in result.output


def test_check_folder_searches_rec_files(tmp_path: Path, generated: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.rec").write_text(HEAD + OPENING)
    (tmp_path / "notes.txt").write_text("not a record")
    result = run("check", str(tmp_path))
    assert "3 game(s)" in result.output


def test_check_usage_errors_exit_2(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["check", str(tmp_path / "missing.rec")]).exit_code == 2
    assert CliRunner().invoke(main, ["check", "--bogus", str(tmp_path)]).exit_code == 2
    assert CliRunner().invoke(main, ["check"]).exit_code == 2


def test_expect_tag_counts_as_ok_unless_ignored(tmp_path: Path) -> None:
    path = tmp_path / "expected.rec"
    path.write_text(
        HEAD
        + '[Expect "illegal price-mismatch 8"]\n'
        + OPENING.replace("Boris: buy Gold Miner for 4", "Boris: buy Gold Miner for 3")
    )
    assert run("check", str(path)).exit_code == 1  # line 9 now: the Expect tag shifted it
    path.write_text(path.read_text().replace("price-mismatch 8", "price-mismatch 9"))
    assert run("check", str(path)).exit_code == 0
    assert run("check", "--ignore-expect", str(path)).exit_code == 1


def test_check_verbose_prints_rule_state_and_alternatives(tmp_path: Path) -> None:
    path = tmp_path / "bad.rec"
    path.write_text(HEAD + OPENING.replace("Boris: buy Gold", "Anna: buy Gold"))
    out = run("check", "-v", str(path)).output
    assert "rule: Players act in turn" in out
    assert "Boris to act" in out
    assert "Boris: buy Gold Miner for 4" in out


def test_score_breaks_down_the_final_scores(generated: Path) -> None:
    result = run("score", str(generated))
    assert result.exit_code == 0
    for part in ("phase scoring", "aristocrat variety", "rubles", "hand penalty", "rubles left", "winner(s)"):
        assert part in result.output


def test_explain_shows_state_and_legal_actions(tmp_path: Path) -> None:
    path = tmp_path / "live.rec"
    path.write_text(HEAD + OPENING)
    result = run("explain", str(path), "--line", "8")
    assert result.exit_code == 0
    assert "Boris to act" in result.output
    assert "Boris: buy Gold Miner for 4" in result.output
    assert "Boris: pass" not in result.output  # round 1 worker phase: buy only


def test_explain_lists_every_legal_turn(tmp_path: Path) -> None:
    """`explain` answers "what is legal here": a Santorini turn has hundreds of choices, and a list cut short (the
    short list an error carries) would show legal turns as missing — here the second worker's turns (audit sny5)."""
    path = tmp_path / "opening.rec"
    path.write_text(
        '[Game "Santorini: New York"]\n[Players "Anna, Boris"]\n[Board "square-5x5"]\n\n'
        "place: Anna b2 d4, Boris d2 b4\nhand Anna: ?, ?, ?, ?, ?\nhand Boris: ?, ?, ?, ?, ?\n"
        "play: Anna Iron Worker 2, Boris Engineer 25\n"
    )
    listed = [line.strip() for line in run("explain", str(path), "--line", "9").output.splitlines()]
    turns = [line for line in listed if line.startswith("Anna: move")]
    assert "Anna: move b2-a1; build a2, b1" in turns  # the first worker's turns
    assert "Anna: move d4-e5; build d5, e4" in turns  # and the second's, after well over 60 of the first's
    assert len(turns) == len(set(turns)) > 60


def test_options_lists_every_rule_option() -> None:
    from referee.game import option_docs
    from referee.saint_petersburg.options import SPOptions

    out = run("options", "saint-petersburg").output
    for name, _, _ in option_docs(SPOptions):
        assert name in out
    assert "sp-no-minimum" in out


def test_variant_file_relative_to_the_record(tmp_path: Path) -> None:
    (tmp_path / "cheap.toml").write_text('name = "cheap"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 3\n')
    path = tmp_path / "v.rec"
    path.write_text(HEAD + '[Variant "cheap.toml"]\n' + OPENING)
    result = run("check", "--format", "jsonl", str(path))
    row = json.loads(result.output)
    assert row["verdict"] == "illegal" and row["code"] == "sp-cannot-afford"  # Shepherd costs 5, Anna has 3


def test_bad_variant_file_is_malformed(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text('game = "saint-petersburg"\n[options]\nno_such_option = 1\n')
    path = tmp_path / "v.rec"
    path.write_text(HEAD + '[Variant "bad.toml"]\n' + OPENING)
    row = json.loads(run("check", "--format", "jsonl", str(path)).output)
    assert (row["verdict"], row["code"], row["line"]) == ("malformed", "bad-variant", 3)


def test_regress_baseline_round_trip_and_house_rule(tmp_path: Path, generated: Path) -> None:
    base = tmp_path / "base.jsonl"
    result = run("regress", str(generated), "--save", str(base))
    assert result.exit_code == 0 and base.exists()
    assert "2 game(s): 0 differ" in run("regress", str(generated), "--baseline", str(base)).output
    # the tool never overwrites a baseline
    assert CliRunner().invoke(main, ["regress", str(generated), "--save", str(base)]).exit_code == 2
    # a house rule that changes prices changes how stored games are judged
    cheap = tmp_path / "rich.toml"
    cheap.write_text('name = "rich"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 60\n')
    changed = run("regress", str(generated), "--baseline", str(base), "--house-rule", str(cheap))
    assert changed.exit_code == 1
    assert "final-mismatch" in changed.output or "scores" in changed.output


def test_regress_jsonl_reports_a_game_gone_from_the_baseline_as_json(tmp_path: Path) -> None:
    """Every line of --format jsonl is a JSON object, a game gone from a judged file included (it was a text line)."""
    path = tmp_path / "g.rec"
    path.write_text(HEAD + OPENING + "\n" + HEAD + OPENING)
    base = tmp_path / "base.jsonl"
    assert run("regress", str(path), "--save", str(base)).exit_code == 0
    path.write_text(HEAD + OPENING)
    result = run("regress", str(path), "--baseline", str(base), "--format", "jsonl")
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert rows == [
        {
            "file": str(path),
            "key": "g.rec",
            "index": 2,
            "verdict": None,
            "code": None,
            "line": None,
            "scores": None,
            "winners": None,
            "problems": ["in the baseline, no longer found"],
        }
    ]
    assert "g.rec #2: in the baseline, no longer found" in run("regress", str(path), "--baseline", str(base)).output


def test_regress_reports_a_deleted_record_file_in_every_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record file deleted from a judged folder since the baseline is a difference — in the text, and as a located
    problem of the CI formats (JUnit, SARIF, GitHub), which had left gone games out."""
    monkeypatch.chdir(tmp_path)
    folder = Path("records")
    folder.mkdir()
    (folder / "kept.rec").write_text(HEAD + OPENING)
    (folder / "deleted.rec").write_text(HEAD + OPENING + "\n" + HEAD + OPENING)
    assert run("regress", "records", "--save", "base.jsonl").exit_code == 0
    (folder / "deleted.rec").unlink()
    text = run("regress", "records", "--baseline", "base.jsonl", "--junit", "out.xml")
    assert text.exit_code == 1
    assert "deleted.rec #1: in the baseline, no longer found" in text.output
    assert "deleted.rec #2: in the baseline, no longer found" in text.output
    junit = Path("out.xml").read_text()
    assert junit.count('classname="records/deleted.rec"') == 2 and junit.count("<failure ") == 2
    github = run("regress", "records", "--baseline", "base.jsonl", "--format", "github").output.splitlines()
    assert github == [
        f"::error file=records/deleted.rec,line=1,col=1,title=baseline-mismatch::game {index}: in the baseline, "
        "no longer found"
        for index in (1, 2)
    ]
    sarif = json.loads(run("regress", "records", "--baseline", "base.jsonl", "--format", "sarif").output)
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results] == [
        ("baseline-mismatch", "records/deleted.rec")
    ] * 2
    # a narrower run leaves the rest of the baseline alone: nothing outside the judged folder is gone
    other = folder / "other"
    other.mkdir()
    (other / "x.rec").write_text(HEAD + OPENING)
    narrow = run("regress", "records/other", "--baseline", "base.jsonl")
    assert "no longer found" not in narrow.output


def test_regress_reports_a_changed_verdict(tmp_path: Path) -> None:
    path = tmp_path / "g.rec"
    path.write_text(HEAD + OPENING)
    base = tmp_path / "base.jsonl"
    run("regress", str(path), "--save", str(base))
    path.write_text(HEAD + OPENING.replace("Boris: buy Gold Miner for 4", "Boris: buy Gold Miner for 3"))
    result = run("regress", str(path), "--baseline", str(base))
    assert result.exit_code == 1
    assert "verdict 'unfinished' -> 'illegal'" in result.output


def test_check_verbose_says_how_many_alternatives_it_leaves_out() -> None:
    """An error lists 40 legal statements; when there are more, the list says how many more and where to see them."""
    record = Path(__file__).parent.parent / "records" / "santorini-new-york" / "illegal" / "broadway-one-worker.rec"
    result = run("check", "-v", str(record))
    listed = [line for line in result.output.split("legal here:\n", 1)[1].splitlines() if line.startswith("      ")]
    more = [line for line in listed if line.strip().startswith("… and ")]
    assert len(more) == 1, result.output
    count = int(more[0].split()[2])
    explained = run("explain", str(record), "--line", "12").output.split("legal here:\n", 1)[1]
    assert "'referee explain FILE --line 12' lists them all" in more[0]
    assert len(listed) - 1 == 40 and 40 + count == len(explained.splitlines())
