"""The benchmark's scale part (``python -m bench``, docs/performance.md): that it finds the outputs of ``--jobs 1``,
``--jobs 2`` and ``--dask`` identical on a tiny folder, and that ``markdown()`` renders its table.

The timings themselves are the benchmark's business (CONTRIBUTING.md: no speed targets in unit tests)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import run
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


def _report(scale: dict[str, Any] | None) -> dict[str, Any]:
    """The smallest report ``markdown()`` accepts: no game, python-chess and machine filled in."""
    return {
        "date": "2026-12-01 00:00 UTC",
        "command": "python -m bench",
        "machine": {"cpu": "cpu", "cores": 2, "memory": "1 GiB", "python": "3.11", "versions": dict.fromkeys(
            ("referee", "lark", "chess"), "1")},
        "load_before": "0", "load_after": "0", "other_load_cores": 0.0, "repeats": 3, "elapsed_s": 60.0,
        "chess": {"games": 1, "ply_cap": 200, "plies": 10,
                  "read": {"per_s": 1.0, "per_s_cpu": 1.0, "per_s_inner": 1.0}},
        "games": [],
        "startup": {},
        "scale": scale,
    }  # fmt: skip


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
