"""The benchmark (``python -m bench``, docs/performance.md): that its yardstick, python-chess, really validates every
game it reads (a corrupted game stops every reading), that the scale part finds the outputs of ``--jobs 1``,
``--jobs 2`` and ``--dask`` identical on a tiny folder, and that ``markdown()`` renders the tables.

The timings themselves are the benchmark's business (CONTRIBUTING.md: no speed targets in unit tests)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import chess.pgn
import pytest

from bench import run, yardstick
from bench.worker import play
from referee.registry import GAMES

HAS_DASK = importlib.util.find_spec("distributed") is not None


def test_scale_outputs_identical(tmp_path: Path) -> None:
    """Four one-game files, two per job: several units, so ``--jobs 2`` really uses the process pool."""
    game = GAMES["saint-petersburg"]
    texts = [play(game, index, 1) for index in range(4)]
    folder = tmp_path / "scale"
    layout = run.write_scale_folder({game.id: texts}, 1, folder)
    assert layout == {"files": 4, "games": 4, "bytes": layout["bytes"], "games_per_file": 1}
    assert sorted(path.name for path in folder.iterdir()) == [f"{game.id}-{n:04d}.rec" for n in (1, 2, 3, 4)]

    scale = run.measure_scale(folder, layout, 2, 1, lambda message: None, dask=HAS_DASK)

    assert scale["notes"] == []
    assert scale["output_lines"] == 4
    assert scale["identical"] is True
    assert scale["jobs_n"] is not None and scale["jobs_n"]["identical"] is True
    assert scale["speedup"] is not None and scale["meets_target"] in (True, False)
    if HAS_DASK:
        assert scale["dask"]["measured"] is True
        assert scale["dask"]["identical"] is True
        assert len(scale["dask"]["wall_s"]) == 1
    else:
        assert scale["dask"] == {"measured": False, "reason": "not measured"}


def test_scale_without_distributed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    assert run._start_dask(2) is None


def test_write_scale_folder_splits_in_order(tmp_path: Path) -> None:
    texts = [f'[Game "x"]\n[Seed "{n}"]\n' for n in range(25)]
    layout = run.write_scale_folder({"a": texts[:5], "b": texts[5:]}, 10, tmp_path)
    assert layout["files"] == 1 + 2 and layout["games"] == 25
    assert (tmp_path / "b-0002.rec").read_text(encoding="utf-8") == "\n".join(texts[15:25])


def _pgn(moves: str, result: str, marker: str | None = None) -> str:
    """One PGN game: its ``Result`` tag, its moves and its result marker (the tag's unless given)."""
    return f'[Event "t"]\n[Result "{result}"]\n\n{moves} {marker or result}\n\n'


GOOD = [_pgn("1. e4 e5 2. Nf3 Nc6", "*"), _pgn("1. f3 e5 2. g4 Qh4#", "0-1")]  # 4 + 4 plies

# Each corruption, and the start of the error it must be caught by (python-chess's own, or the record checks').
CORRUPTED = {
    "a piece moved where it cannot go": (_pgn("1. e4 e5 2. Ke3", "*"), "illegal san: 'Ke3'"),
    "a move that leaves the king in check": (_pgn("1. e4 f5 2. Qh5+ Nf6", "*"), "illegal san: 'Nf6'"),
    "a pinned piece moved": (_pgn("1. e4 d6 2. Bb5+ Nd7 3. Nf3 Nb6", "*"), "illegal san: 'Nb6'"),
    "an ambiguous move": (_pgn("1. d4 d5 2. Nf3 Nf6 3. Nd2", "*"), "ambiguous san: 'Nd2'"),
    "a move after mate": (_pgn("1. f3 e5 2. g4 Qh4# 3. Kf2", "0-1"), "illegal san: 'Kf2'"),
    "a null move": (_pgn("1. e4 -- 2. d4", "*"), "null move '--'"),
    "a Result tag the end position does not have": (_pgn("1. f3 e5 2. g4 Qh4#", "1-0"), "Result tag '1-0'"),
    "a result for an unfinished game": (_pgn("1. e4 e5", "1-0"), "Result tag '1-0'"),
    "a finished game tagged unfinished": (_pgn("1. f3 e5 2. g4 Qh4#", "*"), "Result tag '*'"),
    "a result marker other than the tag": (_pgn("1. f3 e5 2. g4 Qh4#", "0-1", marker="1-0"), "result marker '1-0'"),
}

READINGS = [reading.name for reading in run.CHESS_READINGS]


def test_the_yardstick_is_board_builder() -> None:
    """The ratios divide by python-chess's fastest faithful validation, and every reading the benchmark runs exists."""
    assert run.YARDSTICK is run.CHESS_READINGS[0] and run.YARDSTICK.name == "board-builder"
    assert issubclass(yardstick.READINGS["board-builder"], chess.pgn.BoardBuilder)
    assert set(READINGS) == set(yardstick.READINGS)


@pytest.mark.parametrize("reading", READINGS)
def test_reading_counts_games_and_plies(reading: str, tmp_path: Path) -> None:
    path = tmp_path / "good.pgn"
    path.write_text("".join(GOOD), encoding="utf-8")
    assert yardstick.read(str(path), yardstick.READINGS[reading]) == (2, 8)
    random_games = tmp_path / "random.pgn"  # the benchmark's own corpus, finished and capped games alike
    written = yardstick.write_random_games(str(random_games), 1500, 1, 120)
    assert yardstick.read(str(random_games), yardstick.READINGS[reading]) == written


@pytest.mark.parametrize("corruption", CORRUPTED)
@pytest.mark.parametrize("reading", READINGS)
def test_reading_rejects_corrupted_game(reading: str, corruption: str, tmp_path: Path) -> None:
    """Every reading the benchmark times validates: a corrupted second game stops it, named."""
    path = tmp_path / "corrupted.pgn"
    text, error = CORRUPTED[corruption]
    path.write_text(GOOD[0] + text + GOOD[1], encoding="utf-8")
    with pytest.raises(yardstick.InvalidGame) as caught:
        yardstick.read(str(path), yardstick.READINGS[reading])
    assert caught.value.number == 2
    assert str(caught.value.error).startswith(error)


def test_benchmark_job_fails_on_corrupted_game(tmp_path: Path) -> None:
    """The yardstick's job as the benchmark runs it (a fresh process): a corrupted game fails the benchmark."""
    path = tmp_path / "corrupted.pgn"
    path.write_text(GOOD[0] + CORRUPTED["a pinned piece moved"][0], encoding="utf-8")
    with pytest.raises(run.BenchError, match=r"corrupted\.pgn game 2: illegal san: 'Nb6'"):
        run.worker("chess-read", run.YARDSTICK.name, path)
    path.write_text("".join(GOOD), encoding="utf-8")
    assert run.worker("chess-read", run.YARDSTICK.name, path).data()["plies"] == 8


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_live_table_job_plays_what_check_judges(game_id: str, tmp_path: Path) -> None:
    """The live-API line (``worker.py table``) plays every statement of the corpus and ends every game as check does."""
    path = tmp_path / "corpus.rec"
    path.write_text("".join(play(GAMES[game_id], index, 7) for index in range(3)), encoding="utf-8")
    table, check = run.worker("table", path).data(), run.worker("check", path).data()
    assert (table["games"], table["statements"], table["valid"]) == (3, check["statements"], check["verdicts"]["valid"])


def test_ratios_divide_each_kind_by_the_same_kind() -> None:
    measured = {"per_s": 300.0, "per_s_cpu": 200.0, "per_s_inner": None}
    base = {"per_s": 100.0, "per_s_cpu": 400.0, "per_s_inner": 50.0}
    assert run.ratios(measured, base, "r") == {"r": 3.0, "r_cpu": 0.5, "r_inner": None}


def _report(scale: dict[str, Any] | None) -> dict[str, Any]:
    """The smallest report ``markdown()`` accepts: no game, python-chess and machine filled in."""
    return {
        "date": "2026-12-01 00:00 UTC",
        "command": "python -m bench",
        "machine": {"cpu": "cpu", "cores": 2, "memory": "1 GiB", "python": "3.11", "versions": dict.fromkeys(
            ("referee", "lark", "chess"), "1")},
        "load_before": "0", "load_after": "0", "other_load_cores": 0.0, "repeats": 3, "elapsed_s": 60.0,
        "chess": {"games": 1, "ply_cap": 200, "plies": 10, "yardstick": "board-builder", "readings": {
            "board-builder": {"title": "BB", "how": "reads", "per_s": 1.0, "per_s_cpu": 1.0, "per_s_inner": 1.0,
                              "ratio_to_yardstick": 1.0, "ratio_to_yardstick_cpu": 1.0,
                              "ratio_to_yardstick_inner": 1.0}}},
        "games": [],
        "startup": {},
        "scale": scale,
    }  # fmt: skip


def _runs(wall: float, inner: float) -> run.Samples:
    samples = run.Samples()
    samples.walls, samples.cpus, samples.inners = [wall], [wall], [inner]
    return samples


def test_markdown_ratios_against_the_yardstick() -> None:
    """Each kind of rate divided by the yardstick's same kind; the context line shown against the yardstick."""
    startup = _runs(0.1, 0.0)
    readings = run.chess_readings({"board-builder": _runs(1.1, 0.9), "game-builder": _runs(1.6, 1.4)}, startup, 90_000)
    check = run.rates(_runs(0.6, 0.4), startup, 100_000)  # 200,000 actions/s whole process, 250,000 in-process
    table = run.rates(_runs(0.9, 0.5), startup, 100_000)  # 125,000 actions/s whole process, 200,000 in-process
    game = (
        {
            "game": "toy",
            "corpus": {"games": 7, "players": ["2"], "actions": 100_000},
            "parse": check,
            "check": check,
            "generate": run.rates(_runs(1.1, 1.0), startup, 7),
            "table": table,
            "memory": [],
            "notes": [],
        }
        | run.ratios(check, readings["board-builder"], "ratio_check_to_chess")
        | run.ratios(check, table, "cost_table_to_check")
    )
    report = _report(None) | {"games": [game]}
    report["chess"] |= {"games": 3, "plies": 90_000, "readings": readings}
    lines = run.markdown(report).splitlines()
    assert "| toy | 7 games (2 players), 100,000 actions | 200,000 | 200,000 | 7.0 | 2.22× | yes |" in lines
    assert (
        "| python-chess, BoardBuilder (the yardstick) | 3 random games, 90,000 plies | | 90,000 plies/s | | 1.00× | |"
        in lines
    )
    assert "| python-chess, GameBuilder (context) | the same | | 60,000 plies/s | | 0.67× | |" in lines
    in_process = next(line for line in lines if line.startswith("| toy | 200,000 | 200,000 | 7.0 | 2.22× |"))
    assert in_process.endswith("| 250,000 | 250,000 | 7.0 | 2.50× |")
    assert (
        "| toy | 125,000 | 200,000 | 1.60× | no | 200,000 | 250,000 | 1.25× |" in lines
    )  # a line's cost: table ÷ check
    assert "**python-chess, BoardBuilder (the yardstick)**: `chess.pgn.read_game(handle, Visitor=BoardBuilder)`" in (
        "\n".join(lines)
    )


def _samples(walls: list[float], identical: bool = True) -> dict[str, Any]:
    return {"wall_s": walls, "median_wall_s": sorted(walls)[len(walls) // 2], "identical": identical}


def _scale(**changes: Any) -> dict[str, Any]:
    scale = {
        "folder": {"files": 250, "games": 2457, "bytes": 12_345_678, "games_per_file": 10},
        "jobs": 2,
        "jobs_1": _samples([10.0, 11.0, 12.0]),
        "jobs_n": _samples([5.0, 6.0, 7.0]),
        "speedup": 11.0 / 6.0,
        "target": 1.7,
        "meets_target": True,
        "identical": True,
        "dask": {"measured": True, "workers": 2} | _samples([8.0, 8.5, 9.0], identical=False),
        "notes": ["--dask: output differs from --jobs 1 (line 3 differs)"],
    }
    return scale | changes


def test_markdown_scale_table() -> None:
    text = run.markdown(_report(_scale()))
    lines = text.splitlines()
    header = lines.index(
        "| folder | `--jobs 1` | `--jobs 2` | speed-up | ≥ 1.7× | identical |"
        " `--dask` (2 workers) | `--dask` identical |"
    )
    assert lines[header + 2] == (
        "| 250 files, 2,457 games, 12.3 MB | 11.00 s | 6.00 s | 1.83× | yes | yes | 8.50 s | no |"
    )
    assert "- scale: --dask: output differs from --jobs 1 (line 3 differs)" in lines
    assert text.index("`--jobs 1`") < text.index("Startup (whole process, median)")


def test_markdown_scale_one_core_and_no_dask() -> None:
    scale = _scale(
        jobs=1,
        jobs_n=None,
        speedup=None,
        meets_target=None,
        dask={"measured": False, "reason": f"not measured: {run.DASK_HINT}"},
        notes=[],
    )
    row = next(line for line in run.markdown(_report(scale)).splitlines() if line.startswith("| 250 files"))
    assert row == (
        "| 250 files, 2,457 games, 12.3 MB | 11.00 s | – | – | cannot be measured (1 core) | yes |"
        " not measured: pip install 'referee[dask]' | – |"
    )


def test_markdown_without_scale() -> None:
    assert "Scale:" not in run.markdown(_report(None))
    report = _report(None)
    del report["scale"]  # a report written before the scale part
    assert "Scale:" not in run.markdown(report)


def test_options() -> None:
    args = run.parse_args(["--scale-files-games", "5", "--no-scale"])
    assert args.scale_files_games == 5 and args.no_scale is True
    args = run.parse_args([])
    assert args.scale_files_games == 10 and args.no_scale is False


def test_markdown_live_server_table() -> None:
    row = {"lines": 9_000, "lines_per_s": 900.0, "p50_ms": 5.0, "max_ms": 40.0, "cpu_ms_per_line": 0.3}
    live = {
        "setup": "referee serve, SQLite",
        "target_p99_ms": 25.0,
        "rows": [row | {"clients": 1, "p99_ms": 30.0}, row | {"clients": 32, "p99_ms": 24.0}],
    }
    lines = run.markdown(_report(None) | {"live": live}).splitlines()
    assert "| 1 | 9,000 | 900 | 5.0 | 30.0 | 40.0 | 0.30 |  |" in lines  # the target is for 32 clients only
    assert "| 32 | 9,000 | 900 | 5.0 | 24.0 | 40.0 | 0.30 | yes |" in lines


def test_hidden_corpus_holds_the_same_games_with_cards_written_question_marks(tmp_path: Path) -> None:
    """The hidden-card line's two files: the same games, every dealt card named in one, some written '?' in the
    other (and both judged valid: a '?' can always be the card that was dealt)."""
    from bench import worker
    from referee.replay import check_text

    named, hidden = tmp_path / "named.rec", tmp_path / "hidden.rec"
    worker.mode_hidden_corpus("60", "1", "0.4", str(named), str(hidden))
    named_lines, hidden_lines = named.read_text().splitlines(), hidden.read_text().splitlines()
    assert len(named_lines) == len(hidden_lines)
    assert not any("?" in line for line in named_lines if line.startswith("hand "))
    changed = [(a, b) for a, b in zip(named_lines, hidden_lines, strict=True) if a != b]
    assert changed and all(a.startswith("hand ") and "?" in b for a, b in changed)
    for path in (named, hidden):
        assert all(report.verdict.value == "valid" for report in check_text(path.read_text(), str(path)))


def test_markdown_hidden_table() -> None:
    samples = {"wall_s": [], "cpu_s": [], "inner_s": []}
    hidden = {
        "game": "santorini-new-york",
        "rate": 0.4,
        "target": 1.5,
        "corpus": {"games": 2000, "actions": 50000, "dealt": 60000, "hidden": 24000},
        "named": samples | {"per_s": 40000.0},
        "hidden": samples | {"per_s": 30000.0},
        "ratio": 40000 / 30000,
        "ratio_cpu": 1.3,
        "ratio_inner": 1.2,
        "meets_target": True,
        "notes": ["hidden: not every game was judged valid"],
    }
    report = _report(None) | {"hidden": hidden}
    lines = run.markdown(report).splitlines()
    assert "| 2,000 games, 50,000 actions | 40,000 | 30,000 | 1.33× | 1.30× | 1.20× | yes |" in lines
    assert "- hidden cards: hidden: not every game was judged valid" in lines
    assert "Hidden cards" not in run.markdown(_report(None))


def test_hidden_options() -> None:
    args = run.parse_args(["--hidden-rate", "0.25", "--no-hidden"])
    assert args.hidden_rate == 0.25 and args.no_hidden is True
    assert run.parse_args([]).hidden_rate == 0.4
    with pytest.raises(SystemExit):
        run.parse_args(["--hidden-rate", "1.5"])
