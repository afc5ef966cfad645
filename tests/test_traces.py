"""Golden traces: ``referee trace``, ``regress --traces [--update]``, the stored traces of ``records/traces/``, and a
rule changed on purpose turning stored expectations and traces red in every format, at the record's line."""

from __future__ import annotations

import dataclasses
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.fmt import format_text
from referee.formats import TRACE_MISMATCH
from referee.registry import find_game
from referee.replay import RecordSource, Referee
from referee.traces import TRACE_MARK, compare, games_of, trace_name, trace_source, trace_text

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
TRACES = RECORDS / "traces"

OPENING = """\
[Game "Saint Petersburg"]
[Players "Anna, Boris"]

tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: lumberjack, Gold Miner, Shepherd, Lumberjack
Anna:  buy shepherd for 5   # spelled carelessly: the trace writes it canonically
Boris: buy Gold Miner for 4
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_the_trace_format() -> None:
    trace = trace_text(OPENING)
    lines = trace.splitlines()
    assert lines[0].startswith(TRACE_MARK)
    body = [line for line in lines if not line.startswith("#")]
    assert body[0] == "game 1 (line 1): Saint Petersburg; Anna, Boris"
    assert body[1] == "setup"
    at = body.index("line 8: Anna: buy Shepherd for 5")  # the record's line, the statement's canonical text
    assert body[at + 1] == "  round 1, worker phase, Boris to act, 0 pass(es) in a row"  # the phase or turn
    assert body[at + 2] == "  legal: 2"  # len(state.legal_statements())
    assert body[at + 3].startswith("  | display upper: Lumberjack, Gold Miner, Lumberjack")  # the state that changed
    assert "  | Anna: 20 rubles, 0 VP, tokens worker/aristocrat; hand [-]; area [Shepherd]" in body[at:]
    assert body[-1] == "end: unfinished after 6 statement(s)"


def test_a_formatted_record_keeps_its_trace() -> None:
    assert trace_text(format_text(OPENING).text) == trace_text(OPENING)


def test_the_end_of_a_broken_game() -> None:
    trace = trace_text(OPENING.replace("for 4", "for 3"))
    assert trace.splitlines()[-1] == "end: illegal sp-price-mismatch at line 9"
    assert trace_text('[Game "Saint Petersburg"]\n[Players "Anna"]\n').splitlines()[-2:] == [
        "game 1 (line 1): saint-petersburg; not set up",  # the Game tag names it, though the setup failed
        "end: illegal player-count at line 2",
    ]
    assert trace_text('[Game "Saint Petersburg"]\n[Players "Anna, Anna"]\n').splitlines()[-1] == (
        "end: malformed bad-players at line 2"
    )
    assert trace_text('[Game "Chess"]\n[Players "Anna, Boris"]\n').splitlines()[-2:] == [
        "game 1 (line 1): ?; not set up",
        "end: malformed unknown-game at line 1",
    ]


def test_compare_names_the_first_statement_that_differs() -> None:
    old = trace_text(OPENING)
    new = trace_text(OPENING.replace("Boris: buy Gold Miner for 4", "Boris: buy Lumberjack for 3"))
    (difference,) = compare(old, new)
    assert difference.line == 9
    assert "trace differs at line 9" in difference.summary
    assert any(line.startswith("-line 9: Boris: buy Gold Miner for 4") for line in difference.diff)
    assert compare(old, old) == []
    assert len(games_of(old + old.split("\n", 3)[3])) == 2


def test_a_statement_gone_from_the_end_is_placed_at_its_line() -> None:
    """The last statement taken out (a valid or unfinished end has no line of its own): the difference stands at
    the line the statement stood on, not at the game's first line."""
    old = trace_text(OPENING)
    (difference,) = compare(old, trace_text(OPENING.replace("Boris: buy Gold Miner for 4", "# not played yet")))
    assert difference.line == 9
    assert difference.summary.startswith("trace differs at line 9 ")
    (longer,) = compare(trace_text(OPENING.replace("Boris: buy Gold Miner for 4", "")), old)
    assert longer.line == 9  # the replay goes on at line 9


def test_trace_name() -> None:
    assert trace_name("san-juan/generated/sj-2p-seed01.rec") == "san-juan/generated/sj-2p-seed01.trace"


def test_trace_command_writes_and_replaces_only_its_own_files(tmp_path: Path) -> None:
    record = tmp_path / "opening.rec"
    record.write_text(OPENING)
    result = run("trace", str(record))
    assert result.exit_code == 0 and result.stdout == trace_text(OPENING)
    out = tmp_path / "traces" / "opening.trace"
    assert run("trace", str(record), "-o", str(out)).exit_code == 0
    assert out.read_text() == trace_text(OPENING)
    assert run("trace", str(record), "-o", str(out)).exit_code == 0  # its own file: replaced
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    assert CliRunner().invoke(main, ["trace", str(record), "-o", str(other)]).exit_code == 2
    assert other.read_text() == "mine"


# ---------------------------------------------------------------------------------------------------------------
# The stored traces


def _stored() -> list[Path]:
    return sorted(TRACES.rglob("*.trace"))


def test_there_are_traces_of_every_game() -> None:
    games = {path.relative_to(TRACES).parts[0] for path in _stored()}
    assert games == {"saint-petersburg", "san-juan", "santorini-new-york"}
    assert {p.stem for p in (TRACES / "saint-petersburg" / "golden").glob("*.trace")} == {
        p.stem for p in (RECORDS / "saint-petersburg" / "golden").glob("*.rec")
    }


@pytest.mark.parametrize("trace", _stored(), ids=lambda p: p.relative_to(TRACES).as_posix())
def test_the_stored_traces_are_current(trace: Path) -> None:
    """Each stored trace is its record's replay today (regenerate on purpose: referee regress records/ --traces
    records/traces --update)."""
    key = trace.relative_to(TRACES).with_suffix(".rec").as_posix()
    record = RECORDS / key
    assert record.is_file(), f"{trace} has no record {record}"
    fresh = trace_source(RecordSource(record, str(record), key), Referee())
    differences = compare(trace.read_text(encoding="utf-8"), fresh)
    assert not differences, "\n".join([differences[0].summary, *differences[0].diff])


def test_regress_finds_the_traces_by_the_records_path(tmp_path: Path) -> None:
    result = run("regress", str(RECORDS / "saint-petersburg" / "golden"), "--traces", str(TRACES))
    assert result.exit_code == 0, result.output
    assert result.output.endswith("5 game(s): 0 differ; 5 golden trace(s) compared\n")


def test_update_needs_traces() -> None:
    result = CliRunner().invoke(main, ["regress", str(RECORDS / "saint-petersburg" / "golden"), "--update"])
    assert result.exit_code == 2 and "--traces" in result.output


def _copy(tmp_path: Path, *keys: str) -> tuple[Path, Path]:
    """Records and their traces copied out of the repository (so --update writes nothing of it)."""
    records, traces = tmp_path / "records", tmp_path / "traces"
    for key in keys:
        for folder, source, suffix in ((records, RECORDS, ".rec"), (traces, TRACES, ".trace")):
            target = folder / (key + suffix)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source / (key + suffix), target)
    return records, traces


def test_a_stored_trace_that_differs_and_update(tmp_path: Path) -> None:
    key = "saint-petersburg/golden/golden-2p-2nd-edition"
    records, traces = _copy(tmp_path, key)
    stored = traces / (key + ".trace")
    good = stored.read_text()
    stored.write_text(good.replace("  | Anna: 20 rubles, 0 VP", "  | Anna: 21 rubles, 0 VP", 1))
    result = run("regress", str(records), "--traces", str(traces))
    assert result.exit_code == 1
    assert "#1: trace differs at line 14 ('line 14: Anna: buy Shepherd for 5'): 'Anna: 21 rubles" in result.output
    assert "    -  | Anna: 21 rubles, 0 VP" in result.output and "    +  | Anna: 20 rubles, 0 VP" in result.output
    result = run("regress", str(records), "--traces", str(traces), "--update")
    assert result.exit_code == 0 and result.output.endswith("golden trace(s) compared, 1 updated\n")
    assert stored.read_text() == good


# ---------------------------------------------------------------------------------------------------------------
# A rule changed on purpose: red in every format, at the record's line, with the difference


def _flip(monkeypatch: pytest.MonkeyPatch, ruleset: str, **changes: object) -> None:
    game = find_game("saint-petersburg")
    assert game is not None
    monkeypatch.setitem(game.rulesets, ruleset, dataclasses.replace(game.rulesets[ruleset], **changes))


def _every_format(records: Path, traces: Path, tmp_path: Path) -> dict[str, str]:
    """The regress outputs of one run per format (and the JUnit file), each exiting 1."""
    outputs = {}
    for fmt in ("text", "jsonl", "sarif", "github"):
        junit = tmp_path / f"{fmt}.xml"
        result = run("regress", str(records), "--traces", str(traces), "--format", fmt, "--junit", str(junit), "-j1")
        assert result.exit_code == 1, (fmt, result.output)
        outputs[fmt] = result.stdout
        outputs["junit"] = junit.read_text()
    return outputs


def test_a_changed_rule_turns_expectations_and_traces_red(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The Pub's VP price from 2 to 3 rubles: the golden game's 'Boris: pub 2 for 4' on line 26 breaks."""
    _flip(monkeypatch, "2nd edition", pub_vp_price=3)
    records, traces = _copy(tmp_path, "saint-petersburg/golden/golden-2p-2nd-edition")
    out = _every_format(records, traces, tmp_path)
    assert "judged illegal at 26:" in out["text"] and "[sp-price-mismatch]" in out["text"]
    assert "expected valid" in out["text"] and "trace differs at line 26" in out["text"]
    assert "    -line 26: Boris: pub 2 for 4" in out["text"]  # the readable diff under it
    row = json.loads(out["jsonl"])
    assert row["line"] == 26 and row["code"] == "sp-price-mismatch"
    assert any("trace differs at line 26" in problem for problem in row["problems"]) and row["trace_diff"]
    (result,) = json.loads(out["sarif"])["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 26
    assert result["ruleId"] == "sp-price-mismatch" and "trace differs at line 26" in result["message"]["text"]
    assert ",line=26," in out["github"] and "trace differs at line 26" in out["github"]
    (failure,) = ET.fromstring(out["junit"]).iter("failure")
    assert failure.get("message", "").startswith("26:") and "trace differs at line 26" in failure.get("message", "")


def test_a_changed_rule_that_only_changes_the_trace(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """1st edition, an Observatory no longer usable in the building phase it is built in: the shared-win game stays
    valid, as its Expect tag states, but one statement fewer is legal after line 26 — only the trace shows it."""
    _flip(monkeypatch, "1st edition", observatory_same_phase=False)
    records, traces = _copy(tmp_path, "saint-petersburg/golden/golden-3p-shared-win")
    out = _every_format(records, traces, tmp_path)
    difference = "trace differs at line 26 ('line 26: \"Anna K.\": buy Potemkin Village for 2'): 'legal: 13' -> "
    assert difference in out["text"] and "    -  legal: 13" in out["text"] and "    +  legal: 12" in out["text"]
    row = json.loads(out["jsonl"])
    assert row["verdict"] == "valid" and any(difference in problem for problem in row["problems"])
    (result,) = json.loads(out["sarif"])["runs"][0]["results"]
    assert result["ruleId"] == TRACE_MISMATCH and difference in result["message"]["text"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 26
    assert f",line=26,col=1,title={TRACE_MISMATCH}::" in out["github"]
    (failure,) = ET.fromstring(out["junit"]).iter("failure")
    assert failure.get("type") == TRACE_MISMATCH and failure.get("message", "").startswith("26:1 [trace-mismatch]")
