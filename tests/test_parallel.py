"""Every core and a cluster: ``--jobs`` and ``--dask`` give exactly the reports of one job, in the same order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee import parallel
from referee.cli import main
from referee.replay import Referee, find_records

RECORDS = Path(__file__).parent.parent / "records"


def rows(*args: str) -> list[dict]:
    result = CliRunner().invoke(main, ["check", "--format", "jsonl", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def test_jobs_give_the_output_of_one_job_in_the_same_order() -> None:
    one = rows("-j", "1", str(RECORDS))
    assert len(one) > 400
    assert rows("-j", "2", str(RECORDS)) == one
    assert rows("-j", "3", str(RECORDS / "san-juan"), str(RECORDS / "saint-petersburg" / "golden")) == rows(
        "-j", "1", str(RECORDS / "san-juan"), str(RECORDS / "saint-petersburg" / "golden")
    )


def test_a_big_file_is_cut_into_slices_of_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    games = sorted((RECORDS / "saint-petersburg" / "generated").glob("*.rec"))[:12]
    big = tmp_path / "archive.rec"
    big.write_text("\n".join(path.read_text(encoding="utf-8") for path in games), encoding="utf-8")
    monkeypatch.setattr(parallel, "BIG_FILE", 1)
    monkeypatch.setattr(parallel, "GAMES_PER_SLICE", 5)
    referee = Referee()
    units = list(parallel.units(find_records([big]), referee))
    assert [len(unit.games) for unit in units] == [5, 5, 2]
    monkeypatch.setattr(parallel, "GAMES_PER_SLICE", 6)  # the games end with a full slice: nothing judged twice
    assert [len(unit.games) for unit in parallel.units(find_records([big]), referee)] == [6, 6]
    monkeypatch.setattr(parallel, "GAMES_PER_SLICE", 5)
    monkeypatch.setattr(parallel, "SLICE_CHARS", 10_000)  # a slice also ends after about this much record text
    sized = list(parallel.units(find_records([big]), referee))
    assert len(sized) > 3 and sum(len(unit.games) for unit in sized) == 12
    for unit in sized:
        text = sum(len(line) for game in unit.games[:-1] for _, line in game.body)
        assert text < 10_000
    one = [r.as_dict() for r in parallel.judge_parallel(find_records([big]), referee, 1)]
    two = [r.as_dict() for r in parallel.judge_parallel(find_records([big]), referee, 2)]
    assert two == one and [row["index"] for row in one] == list(range(1, 13))


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as local:
        yield local


def test_dask_gives_the_reports_of_one_process(cluster) -> None:
    folders = [RECORDS / "san-juan" / "illegal", RECORDS / "saint-petersburg" / "golden"]
    referee = Referee()
    alone = [r.as_dict() for r in parallel.judge_parallel(find_records(folders), referee, 1)]
    on_cluster = [
        r.as_dict() for r in parallel.judge_on_dask(find_records(folders), referee, cluster.scheduler_address)
    ]
    assert on_cluster == alone and len(alone) > 60


def test_check_on_a_cluster_from_the_command_line(cluster) -> None:
    folder = str(RECORDS / "saint-petersburg" / "golden")
    assert rows("--dask", cluster.scheduler_address, folder) == rows("-j", "1", folder)


def test_a_report_keeps_its_error_without_the_frames_it_came_through(tmp_path: Path) -> None:
    """A hostile variant file overflows the TOML reader's stack; the report's error must not carry that
    RecursionError or a traceback: Dask installs tblib, which pickles both, and the worker's result then failed to
    send (and a kept traceback keeps the game's states alive)."""
    import pickle

    from referee.replay import check_file

    deep = 'name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = ' + "[" * 5000 + "]" * 5000 + "\n"
    (tmp_path / "deep.toml").write_text(deep, encoding="utf-8")
    record = tmp_path / "deep.rec"
    record.write_text('[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n[Variant "deep.toml"]\n', encoding="utf-8")
    (report,) = check_file(record)
    assert report.error is not None and report.error.code == "bad-variant"
    error = report.error
    assert error.__traceback__ is None and error.__context__ is None and error.__cause__ is None
    tblib = pytest.importorskip("tblib.pickling_support")
    tblib.install()  # as importing distributed does
    assert pickle.loads(pickle.dumps(report)).error.message == error.message


def test_small_files_go_to_the_workers_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder of many small records is sent a batch of files at a time (one round trip per batch, not per file),
    in order; the reports are those of one job."""
    games = sorted((RECORDS / "saint-petersburg" / "generated").glob("*.rec"))[:9]
    for number, path in enumerate(games):
        (tmp_path / f"{number:02d}.rec").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(parallel, "BATCH_FILES", 4)
    referee = Referee()
    work = list(parallel.units(find_records([tmp_path]), referee))
    assert [len(unit.sources) if isinstance(unit, parallel.Batch) else 1 for unit in work] == [4, 4, 1]
    names = [s.display for unit in work for s in (unit.sources if isinstance(unit, parallel.Batch) else [unit])]
    assert names == sorted(names) and len(names) == 9
    one = [r.as_dict() for r in parallel.judge_parallel(find_records([tmp_path]), referee, 1)]
    two = [r.as_dict() for r in parallel.judge_parallel(find_records([tmp_path]), referee, 2)]
    assert two == one and len(one) == 9
