"""The progress bar and summary table: on a terminal only; piped or in a machine format the output is unchanged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import referee.progress
from referee.cli import main
from referee.replay import check_file

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "records" / "saint-petersburg" / "golden"
ILLEGAL = ROOT / "records" / "san-juan" / "illegal" / "sj-crane-missing.rec"


def _plain_check_output(paths: list[Path]) -> str:
    """What 'referee check' printed before the progress bar existed: a line per game, then the summary."""
    from referee.cli import _describe

    reports = [report for path in paths for report in check_file(path)]
    lines = [_describe(report) for report in reports]
    valid = sum(r.verdict.value == "valid" for r in reports)
    illegal = sum(r.verdict.value == "illegal" for r in reports)
    expected = sum(bool(r.expectation_met) for r in reports)
    lines.append(
        f"{len(reports)} game(s): {valid} valid, {illegal} illegal; {expected} judged as their Expect tag states; "
        "all good"
    )
    return "\n".join(lines) + "\n"


def test_not_a_terminal_the_output_is_unchanged() -> None:
    paths = [*sorted(GOLDEN.glob("*.rec")), ILLEGAL]
    result = CliRunner().invoke(main, ["check", *map(str, paths)], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.output == _plain_check_output(paths)


def test_piped_the_output_is_unchanged_and_rich_is_not_loaded() -> None:
    paths = [*sorted(GOLDEN.glob("*.rec")), ILLEGAL]
    code = (
        "import sys; from referee.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('rich loaded' if 'rich' in sys.modules else 'rich not loaded')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "check", *map(str, paths)], capture_output=True, text=True, timeout=300
    )
    assert done.stdout == _plain_check_output(paths)
    assert done.stderr.endswith("rich not loaded")


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_on_a_real_terminal_the_table_shows(unbuffered: str) -> None:
    """On a pseudo-terminal, with standard output unbuffered too (PYTHONUNBUFFERED, python -u: common in containers
    and CI), where the referee puts its own stream over the terminal — the table was never shown there."""
    import os
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered, "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-m", "referee", "check", str(ILLEGAL)], stdout=follower, env=env, timeout=120, check=False
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal is closed and read to its end
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert done.returncode == 0
    assert "1 file(s) in" in shown.decode("utf-8", "replace")


@pytest.mark.parametrize("fmt", ["jsonl", "sarif", "github"])
def test_machine_formats_never_show_it(monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    monkeypatch.setattr(referee.progress, "is_terminal", lambda: True)
    result = CliRunner().invoke(main, ["check", str(GOLDEN), "--format", fmt], catch_exceptions=False)
    assert "┃" not in result.output and "judging" not in result.output


def test_junit_never_shows_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(referee.progress, "is_terminal", lambda: True)
    result = CliRunner().invoke(main, ["check", str(GOLDEN), "--junit", str(tmp_path / "r.xml")])
    assert "┃" not in result.output


def test_on_a_terminal_a_summary_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referee.progress, "is_terminal", lambda: True)
    paths = [*sorted(GOLDEN.glob("*.rec")), ILLEGAL]
    result = CliRunner().invoke(main, ["check", *map(str, paths)], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.output.startswith(_plain_check_output(paths))  # the usual lines first, the table after them
    table = result.output[len(_plain_check_output(paths)) :]
    assert "6 file(s) in" in table
    header = next(line for line in table.splitlines() if "saint-petersburg" in line)
    assert "san-juan" in header and "all" in header
    rows = {line.split("│")[1].strip(): line.split("│")[2:-1] for line in table.splitlines() if line.startswith("│")}
    assert [cell.strip() for cell in rows["games"]] == ["5", "1", "6"]
    assert [cell.strip() for cell in rows["illegal"]] == ["0", "1", "1"]
    assert [cell.strip() for cell in rows["problems"]] == ["0", "0", "0"]


def test_regress_shows_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referee.progress, "is_terminal", lambda: True)
    result = CliRunner().invoke(main, ["regress", str(GOLDEN)], catch_exceptions=False)
    assert "5 game(s): 0 differ\n" in result.output
    assert any(line.startswith("│ differ") for line in result.output.splitlines())
