"""A game plugged in from outside: Nim (``tests/toy/nim_toy``), declared by its own distribution metadata
(``tests/toy/nim_toy-1.0.dist-info/entry_points.txt``) in the ``referee.games`` group, exactly as a third-party
package would be, and found because its folder is on the Python path. No core file names it.

Every command runs in a fresh process with that folder on ``PYTHONPATH`` (so this session's own registry, catalogue
and caches stay untouched): ``check``, ``score``, ``explain``, ``play``, ``options``, ``codes``, ``regress``, the
pytest plugin, and the generic property suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOY = Path(__file__).resolve().parent / "toy"

GAME = """[Game "Nim"]
[Players "Anna, Boris"]
[Result "Anna"]

pile: 21
Anna: take 3
Boris: take 3
Anna: take 3
Boris: take 3
Anna: take 3
Boris: take 3
Anna: take 3
win: Anna
"""


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TOY), str(ROOT)])}
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd, timeout=300, check=False)


def referee(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "referee.cli", *args, cwd=cwd)


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "nim.rec"
    path.write_text(GAME, encoding="utf-8")
    return path


def test_the_toy_game_is_not_known_without_its_distribution() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "options", "nim"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 2 and "unknown game 'nim'" in done.stderr


def test_check_judges_a_game_with_winners_and_no_scores(record: Path) -> None:
    done = referee("check", "--format", "jsonl", str(record))
    assert done.returncode == 0, done.stderr
    (row,) = map(json.loads, done.stdout.splitlines())
    assert (row["game"], row["verdict"], row["winners"], row["scores"]) == ("nim", "valid", ["Anna"], None)
    assert row["termination"] == "last-stone"


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ("Boris: take 4", "nim-take", 13),
        ("Anna: take 1", "nim-not-your-turn", 1),
        ("final: Anna 1", "final-misplaced", 1),
        ("win: Boris", "win-misplaced", 1),
        ("Clara: take 1", "unknown-player", 1),
        ("Boris take 1", "syntax", 7),
    ],
)
def test_check_reports_the_toy_games_errors_at_their_place(record: Path, line: str, code: str, column: int) -> None:
    lines = GAME.splitlines()
    lines.insert(6, line)  # after "Anna: take 3": Boris is to act
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = referee("check", "--format", "jsonl", str(record))
    (row,) = map(json.loads, done.stdout.splitlines())
    assert (row["code"], row["line"], row["column"]) == (code, 7, column), row
    assert done.returncode == 1


def test_claims_after_the_end_are_judged(record: Path) -> None:
    record.write_text(GAME + "win: Anna\nfinal: Anna 3\n", encoding="utf-8")
    (row,) = map(json.loads, referee("check", "--format", "jsonl", str(record)).stdout.splitlines())
    assert (row["code"], row["line"]) == ("final-no-scores", 15)
    record.write_text(GAME.replace('[Result "Anna"]', '[Result "Boris"]'), encoding="utf-8")
    (row,) = map(json.loads, referee("check", "--format", "jsonl", str(record)).stdout.splitlines())
    assert (row["code"], row["line"]) == ("result-mismatch", 3)


def test_score_explain_options_and_codes(record: Path) -> None:
    score = referee("score", str(record))
    assert score.returncode == 0 and "winner(s): Anna (took the last stone)" in score.stdout
    explain = referee("explain", str(record), "--line", "7")
    assert "Nim (standard)" in explain.stdout and "18 stone(s) left, Boris to act" in explain.stdout
    assert "Boris: take 3" in explain.stdout
    options = referee("options", "nim")
    assert "pile = standard: 21, short: 7" in options.stdout
    codes = referee("codes")
    assert "nim-take" in codes.stdout and "nim-not-your-turn" in codes.stdout


def test_play_writes_games_the_referee_judges_valid(tmp_path: Path) -> None:
    out = tmp_path / "played.rec"
    done = referee("play", "nim", "-n", "3", "-s", "5", "--games", "4", "-r", "short", "-o", str(out))
    assert done.returncode == 0, done.stderr
    check = referee("check", str(out))
    assert check.returncode == 0 and "4 game(s): 4 valid" in check.stdout


def test_prove_says_a_game_without_proofs_has_none(tmp_path: Path) -> None:
    """A game whose package declares no proofs: ``prove`` says so and exits 0, never "all proved" (with a ruleset
    named too), and writes nothing."""
    done = referee("prove", "--game", "nim", "-o", str(tmp_path))
    assert (done.returncode, done.stdout) == (0, "Nim has no proofs\n"), done.stderr
    every = referee("prove", "--game", "nim", "-r", "short", "-o", str(tmp_path))
    assert every.stdout == "Nim has no proofs\n"
    unknown = referee("prove", "--game", "nim", "-r", "nosuch", "-o", str(tmp_path))  # refused as for any game
    assert unknown.returncode == 2 and "has no ruleset 'nosuch'" in unknown.stderr, unknown.stderr
    assert not list(tmp_path.iterdir())


def test_regress_with_a_baseline(record: Path, tmp_path: Path) -> None:
    base = tmp_path / "base.jsonl"
    assert referee("regress", str(record), "--save", str(base)).returncode == 0
    again = referee("regress", str(record.parent), "--baseline", str(base))
    assert again.returncode == 0 and "1 game(s): 0 differ" in again.stdout


def test_the_pytest_plugin_collects_toy_games(record: Path) -> None:
    done = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--referee-records", str(record))
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


def test_the_generic_property_suite_runs_for_the_toy_game() -> None:
    done = run(
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "properties/test_generic.py", "-k", "nim"
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "deselected" in done.stdout and " passed" in done.stdout
