"""Faults an operator meets — a killed worker, Ctrl-C or SIGTERM, a full disk, a read-only folder, a cluster run from
another folder or gone mid-run, a folder thousands of levels deep — never hang the referee, make it lie, or leave
debris: the run judges everything again or ends at once with one line and an exit status of its own."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee import files, parallel
from referee.errors import JOB_FAILED
from referee.fmt import FormatRefused, write_in_place
from referee.replay import Referee, find_records

RECORDS = Path(__file__).parent.parent / "records"
REFEREE = [sys.executable, "-m", "referee"]  # the program, as the console script runs it
LINUX = sys.platform.startswith("linux")


def run(
    *args: str | Path, cwd: Path | None = None, stdout: int | None = subprocess.PIPE, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*REFEREE, *map(str, args)],
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 1,500 games in 150 files: a run of a second or two on two workers."""
    folder = tmp_path_factory.mktemp("corpus")
    sources = [
        run("play", game, "-n", "3", "-s", "5", "--games", "10").stdout
        for game in ("saint-petersburg", "san-juan", "santorini-new-york")
    ]
    for index in range(150):
        (folder / f"g{index:03}.rec").write_text(sources[index % 3], encoding="utf-8")
    return folder


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def started(args: list[str], cwd: Path | None = None) -> tuple[subprocess.Popen[str], set[int]]:
    """A run in a process group of its own, once it has written its first report (its workers are busy). It starts
    with Ctrl-C's default action even when the tests run in a background job (where the shell ignores SIGINT, and a
    program started there keeps ignoring it, as it should)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # reset to the default in the child by exec
    try:
        process = subprocess.Popen(
            [*REFEREE, *args],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    assert process.stdout is not None
    process.stdout.readline()
    workers: set[int] = set()
    for _ in range(50):
        workers = children(process.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.05)
    return process, workers


# ----------------------------------------------------------------------------------------------- lost workers
def _numbered(referee: Referee, item: int) -> list[tuple[int, int]]:
    time.sleep(0.02)
    return [(item, os.getpid())]


def _dies_on_five(referee: Referee, item: int) -> list[int]:
    if item == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return [item]


def test_a_killed_worker_is_replaced_and_its_work_judged_again() -> None:
    seen: list[int] = []
    killed = False
    for item, worker in parallel.in_order(_numbered, range(40), Referee(), 2):
        seen.append(item)
        if item == 3 and not killed:
            os.kill(worker, signal.SIGKILL)  # as the out-of-memory killer does
            killed = True
    assert seen == list(range(40))


def test_work_that_kills_its_worker_every_time_ends_the_run_with_a_reason() -> None:
    seen: list[int] = []
    with pytest.raises(parallel.WorkersLost, match="killed 3 times"):
        seen.extend(parallel.in_order(_dies_on_five, range(20), Referee(), 2))
    assert seen == [0, 1, 2, 3, 4]


@pytest.mark.skipif(not LINUX, reason="reads the process tree from /proc")
def test_check_with_a_worker_killed_mid_run_gives_the_output_of_one_job(corpus: Path) -> None:
    alone = run("check", "--jobs", "1", "--format", "jsonl", corpus)
    process, workers = started(["check", "--jobs", "2", "--format", "jsonl", str(corpus)])
    os.kill(min(workers), signal.SIGKILL)
    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout.read(), process.stderr.read()  # (communicate would skip what readline buffered)
    process.wait(timeout=120)
    assert process.returncode == alone.returncode == 0, err
    assert alone.stdout.split("\n", 1)[1] == out  # the first line was read by ``started``
    assert err == ""


def _same(referee: Referee, item: int) -> list[int]:
    return [item]


def _recorded_pools(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The process pools ``parallel`` makes from now on, as it makes them."""
    from concurrent.futures import ProcessPoolExecutor

    pools: list[ProcessPoolExecutor] = []

    class Recorded(ProcessPoolExecutor):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            pools.append(self)

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", Recorded)
    return pools


def _send_half_a_message(pool: Any) -> None:
    """Ten bytes of a million-byte result in the pool's result pipe: the pool's thread waits for the rest."""
    import struct

    os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1_000_000) + b"x" * 10)


@pytest.mark.skipif(not LINUX, reason="forked workers and pipes")
def test_a_result_half_sent_when_the_run_stops_does_not_hang_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a worker was writing a result: the worker is killed with half a message in the result pipe, and
    the pool's thread waited for the rest — forever, as this process holds a writing end of the pipe too (about one
    Ctrl-C in thirty hung the run). Here the half message is written by hand, so the moment is certain."""
    import threading

    pools = _recorded_pools(monkeypatch)
    results = parallel.in_order(_same, range(100), Referee(), 2)
    assert next(results) == 0
    _send_half_a_message(pools[0])
    time.sleep(0.2)  # the pool's thread is reading it
    stopping = threading.Thread(target=results.close, daemon=True)  # what Ctrl-C does to the run
    stopping.start()
    stopping.join(timeout=20)
    assert not stopping.is_alive()


def _slow(referee: Referee, item: int) -> list[int]:
    time.sleep(0.02)
    return [item]


@pytest.mark.skipif(not LINUX, reason="forked workers and pipes")
def test_a_worker_killed_while_it_wrote_a_result_does_not_hang_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The out-of-memory killer strikes a worker in the middle of a large result (a report page's file is megabytes
    through a pipe of 64 KiB): half a message is in the result pipe, and the pool's thread waited for the rest for
    ever, so the run hung (audit faults5: 'report --jobs 2' killed in a pipe write). Here the half message is
    written by hand and a worker killed, so the moment is certain; the run goes on and loses nothing."""
    import threading

    pools = _recorded_pools(monkeypatch)
    results = parallel.in_order(_slow, range(60), Referee(), 2)
    seen = [next(results)]
    pool = pools[0]
    _send_half_a_message(pool)  # what the killed worker had sent
    os.kill(next(iter(pool._processes)), signal.SIGKILL)  # type: ignore[attr-defined]
    rest = threading.Thread(target=lambda: seen.extend(results), daemon=True)
    rest.start()
    rest.join(timeout=30)
    if rest.is_alive():
        for process in list(pools[-1]._processes.values()):  # type: ignore[attr-defined]
            process.kill()
        pytest.fail("the run hung on the half message of a killed worker")
    assert seen == list(range(60))


# ---------------------------------------------------------------------------------------------------- signals
@pytest.mark.skipif(not LINUX, reason="reads the process tree from /proc")
@pytest.mark.parametrize(
    ("signum", "group", "status", "message"),
    [
        (signal.SIGINT, True, 130, "interrupted\n"),  # Ctrl-C in a terminal: the whole foreground process group
        (signal.SIGINT, False, 130, "interrupted\n"),
        (signal.SIGTERM, True, 143, "terminated\n"),  # a cancelled CI job
        (signal.SIGTERM, False, 143, "terminated\n"),  # timeout(1), systemd: the main process only
    ],
)
def test_a_signal_ends_the_run_with_one_line_and_no_worker_left(
    corpus: Path, tmp_path: Path, signum: int, group: bool, status: int, message: str
) -> None:
    out = tmp_path / "out"
    process, workers = started(
        ["check", "--jobs", "2", "--format", "jsonl", "--junit", str(out / "r.xml"), str(corpus)]
    )
    assert workers
    if group:
        os.killpg(process.pid, signum)
    else:
        os.kill(process.pid, signum)
    _, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (status, message)
    time.sleep(0.2)
    assert not [pid for pid in workers if alive(pid)]
    assert not out.exists()  # no report, no hidden partial file, not even the folder made for the report


@pytest.mark.skipif(not LINUX, reason="signals to a process")
def test_a_signal_while_the_program_starts_is_one_line_too(tmp_path: Path) -> None:
    """Ctrl-C or SIGTERM in the tenth of a second the program takes to load its modules: no traceback of the
    loading, no silent end. (Before the interpreter itself has started, the signal's default action ends it — killed
    by the signal, not a word, the status a shell shows is the same — or the interpreter reports its own failed start:
    neither is the referee's.)"""
    record = next(ONE_GAME.glob("*.rec"))
    outcomes = set()
    for signum in (signal.SIGINT, signal.SIGTERM):
        for delay in (0.01, 0.02, 0.03, 0.045, 0.06, 0.08, 0.1, 0.13):
            previous = signal.signal(signal.SIGINT, signal.default_int_handler)
            try:
                process = subprocess.Popen(
                    [*REFEREE, "check", str(record)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
                )
            finally:
                signal.signal(signal.SIGINT, previous)
            time.sleep(delay)
            process.send_signal(signum)
            _, err = process.communicate(timeout=60)
            name = "interrupted" if signum == signal.SIGINT else "terminated"
            if "Traceback" in err and not any(f"referee{os.sep}{m}" in err for m in ("__main__.py", "cli.py")):
                err = ""  # the interpreter's own start (its modules, runpy, the package's first line), before ours
            assert (process.returncode, err) in {(128 + signum, f"{name}\n"), (-signum, ""), (0, ""), (1, "")}, (
                delay,
                err,
            )
            outcomes.add(process.returncode)
    assert outcomes & {130, 143}  # some signal arrived while the referee ran, and was reported


@pytest.mark.skipif(not (LINUX and hasattr(os, "O_TMPFILE")), reason="an unnamed temporary file needs Linux")
def test_sigkill_while_writing_a_report_leaves_nothing(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    process = subprocess.Popen([*REFEREE, "report", str(corpus), "-o", str(out / "page.html")], stderr=subprocess.PIPE)
    time.sleep(1.0)
    process.kill()
    process.wait(timeout=30)
    assert list(out.iterdir()) == []


# --------------------------------------------------------------------------------------------------- full disk
@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[Callable[..., Path]]:
    """Mount a small tmpfs (root only): ``mount("full", prepare)`` fills it after ``prepare(point)`` has put files
    there; ``mount("ro")`` mounts it read-only; ``mount("small")`` leaves its 64 KiB free."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system for a full disk needs root")
    mounts: list[Path] = []

    def mount(kind: str, prepare: Callable[[Path], None] | None = None) -> Path:
        point = tmp_path / kind
        point.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(point)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
        mounts.append(point)
        if prepare is not None:
            prepare(point)
        if kind == "ro":
            subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)
        elif kind == "full":
            with contextlib.suppress(OSError), open(point / "filler", "wb") as filler:
                while True:
                    filler.write(b"x" * 4096)
                    filler.flush()
        return point

    yield mount
    for point in mounts:
        subprocess.run(["umount", str(point)], check=False)


ONE_GAME = RECORDS / "saint-petersburg" / "golden"


def _outputs(place: Path) -> dict[str, list[str]]:
    rec = next(ONE_GAME.glob("*.rec"))
    return {
        "play": ["play", "san-juan", "-n", "3", "--games", "20", "-o", str(place / "g.rec")],
        "report": ["report", str(ONE_GAME), "-o", str(place / "page.html")],
        "junit": ["check", str(ONE_GAME), "--junit", str(place / "r.xml")],
        "trace": ["trace", str(rec), "-o", str(place / "t.trace")],
        "save": ["regress", str(ONE_GAME), "--save", str(place / "base.jsonl")],
    }


@pytest.mark.parametrize("command", ["play", "report", "junit", "trace", "save"])
@pytest.mark.parametrize("kind", ["full", "ro"])
def test_a_file_that_cannot_be_written_is_one_line_and_status_3(mounted, command: str, kind: str) -> None:
    place = mounted(kind)
    before = sorted(p.name for p in place.iterdir())
    done = run(*_outputs(place)[command], stdout=subprocess.DEVNULL)
    reason = "No space left on device" if kind == "full" else "Read-only file system"
    target = _outputs(place)[command][-1]
    assert done.returncode == JOB_FAILED
    assert done.stderr == f"referee: cannot write {target}: {reason}\n"
    assert sorted(p.name for p in place.iterdir()) == before  # no partial file, hidden or not


def test_a_stale_trace_is_kept_when_its_update_cannot_be_written(mounted, tmp_path: Path) -> None:
    rec = next(ONE_GAME.glob("*.rec"))
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / rec.name).write_text(rec.read_text(encoding="utf-8"), encoding="utf-8")
    stale_text = "# referee trace 1\nstale\n"

    def stale_trace(point: Path) -> None:
        (point / "traces").mkdir()
        (point / "traces" / rec.with_suffix(".trace").name).write_text(stale_text, encoding="utf-8")

    stale = mounted("full", stale_trace) / "traces" / rec.with_suffix(".trace").name
    done = run("regress", folder, "--traces", stale.parent, "--update")
    assert (done.returncode, done.stderr) == (JOB_FAILED, f"referee: cannot write {stale}: No space left on device\n")
    assert stale.read_text(encoding="utf-8") == stale_text


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_standard_output_on_a_full_disk_is_one_line_and_status_3() -> None:
    with open("/dev/full", "w") as full:
        done = run("check", ONE_GAME, stdout=full.fileno())
    assert (done.returncode, done.stderr) == (
        JOB_FAILED,
        "referee: cannot write to standard output: No space left on device\n",
    )


@pytest.mark.parametrize("command", ["play", "trace"])
def test_unbuffered_standard_output_filling_the_disk_is_one_line_and_status_3(
    mounted, big_file: Path, command: str
) -> None:
    """One large write that the disk takes only in part (``python -u``, ``PYTHONUNBUFFERED``): Python's own unbuffered
    standard output took the short write as done and dropped the rest, status 0 and not a word."""
    place = mounted("small")
    args = {"play": ["play", "san-juan", "--games", "30"], "trace": ["trace", big_file]}[command]
    with open(place / "out", "w") as out:
        done = run(*args, stdout=out.fileno(), env={"PYTHONUNBUFFERED": "1"})
    assert (done.returncode, done.stderr) == (
        JOB_FAILED,
        "referee: cannot write to standard output: No space left on device\n",
    )


def test_a_failed_write_removes_the_folders_it_made(mounted) -> None:
    place = mounted("full")
    with pytest.raises(files.CannotWrite, match="No space left on device"):
        files.write_new_file(place / "new" / "deeper" / "big.txt", "x" * 100_000)
    assert not (place / "new").exists()


def test_a_replacement_killed_in_its_named_moment_leaves_nothing_past_the_next_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replacing a file names the new one ``.NAME.referee.part`` for the microseconds before the rename (no system
    call links a file over another): a SIGKILL then leaves it, and the next replacement of that file removes it."""
    target = tmp_path / "page.html"
    target.write_text("old <!-- mine -->")
    mine = files.written_by_referee("<!-- mine -->", 100)
    leftover = tmp_path / ".page.html.referee.part"
    leftover.write_text("half")  # a killed run's
    with files.new_file(target, mine) as out:  # named a moment ago: perhaps another run's, left alone
        out.write("new <!-- mine -->")
    assert leftover.exists() and target.read_text() == "new <!-- mine -->"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".page.html.referee.part", "page.html"]
    monkeypatch.setattr(files, "STALE_AFTER", 0.0)  # as if named over a minute ago
    with files.new_file(target, mine) as out:
        out.write("newer <!-- mine -->")
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]
    assert target.read_text() == "newer <!-- mine -->"


def test_output_to_a_closed_pipe_stops_quietly(corpus: Path) -> None:
    process = subprocess.Popen([*REFEREE, "check", str(corpus)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.readline()
    process.stdout.close()  # the reader went away, as ``| head -1`` does
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (128 + signal.SIGPIPE, b"")


# ---------------------------------------------------------------------------------------------------- writing
def test_a_new_file_is_flushed_to_disk_before_it_is_named_and_its_folder_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    real_fsync, real_link = os.fsync, os.link
    monkeypatch.setattr(
        os, "fsync", lambda fd: (events.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"), real_fsync(fd))
    )
    monkeypatch.setattr(os, "link", lambda *a, **k: (events.append("link"), real_link(*a, **k)))
    files.write_new_file(tmp_path / "new.txt", "text\n")
    assert events == ["file", "link", "dir"]
    assert (tmp_path / "new.txt").read_text() == "text\n"
    assert [p.name for p in tmp_path.iterdir()] == ["new.txt"]


def test_fmt_replaces_a_file_durably_and_keeps_its_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.rec"
    path.write_text("old\n")
    path.chmod(0o640)
    events: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(
        os, "fsync", lambda fd: (events.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"), real_fsync(fd))
    )
    write_in_place(path, "new\n", os.lstat(path))
    assert events == ["file", "dir"]
    assert (path.read_text(), stat.S_IMODE(path.stat().st_mode)) == ("new\n", 0o640)
    assert [p.name for p in tmp_path.iterdir()] == ["g.rec"]


def test_fmt_sees_a_same_size_edit_whose_modification_time_was_put_back(tmp_path: Path) -> None:
    path = tmp_path / "g.rec"
    path.write_text("abc\n")
    read = os.lstat(path)
    time.sleep(0.01)
    path.write_text("xyz\n")  # the same size, in place (same inode)
    os.utime(path, ns=(read.st_atime_ns, read.st_mtime_ns))  # touch -r, a sync tool
    with pytest.raises(FormatRefused, match="changed while it was being formatted"):
        write_in_place(path, "formatted\n", read)
    assert path.read_text() == "xyz\n"


# -------------------------------------------------------------------------------------------------------- dask
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_cluster_is_one_line_and_status_3() -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    done = run("check", "--dask", address, ONE_GAME)
    assert (done.returncode, done.stdout) == (JOB_FAILED, "")
    assert done.stderr == f"referee: cannot reach the Dask scheduler at {address}: Connection refused\n"


def _listening(answer: bytes | None) -> tuple[str, socket.socket]:
    """A server on a free port that is not a Dask scheduler: it answers every connection with ``answer`` (another
    protocol), or accepts and never answers (None)."""
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = server.accept()
                held.append(connection)
                if answer is not None:
                    with contextlib.suppress(OSError):
                        connection.recv(65536)
                        connection.sendall(answer)
                        connection.close()

    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}", server


def test_a_server_that_is_not_a_scheduler_is_one_line_and_status_3() -> None:
    """Another protocol's answer made Dask fail in its handshake after 20 s with a 60-line traceback and status 1."""
    pytest.importorskip("distributed")
    address, server = _listening(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n" + b"x" * 64)
    with server:
        started_at = time.monotonic()
        done = run("check", "--dask", address, ONE_GAME)
    assert (done.returncode, done.stdout) == (JOB_FAILED, "")
    assert done.stderr.startswith(f"referee: {address} does not answer as a Dask scheduler (")
    assert done.stderr.count("\n") == 1 and time.monotonic() - started_at < 10


def test_a_server_that_never_answers_is_given_up_after_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dask's own timeout does not cover its handshake: a silent listener held the run for minutes."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1)
    address, server = _listening(None)
    with server, pytest.raises(parallel.ClusterFailed, match="no answer within 1 s"):
        list(parallel.judge_on_dask(find_records([ONE_GAME]), Referee(), address))


@pytest.mark.skipif(not LINUX, reason="a cluster of separate processes (bench/cluster.py)")
def test_a_scheduler_killed_mid_run_is_one_line_and_status_3(corpus: Path) -> None:
    pytest.importorskip("distributed")
    from bench.cluster import ProcessCluster

    if not ProcessCluster.available():
        pytest.skip("no dask command")
    with ProcessCluster(1) as cluster:
        process, _ = started(["check", "--dask", cluster.address, "--format", "jsonl", str(corpus)])
        cluster.processes[0].kill()  # the scheduler
        _, err = process.communicate(timeout=120)
    assert process.returncode == JOB_FAILED
    assert err.startswith(f"referee: the Dask cluster at {cluster.address} failed during the run: ")
    assert err.count("\n") == 1


def test_dask_judges_the_files_the_caller_means_from_any_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("distributed")
    illegal = RECORDS / "saint-petersburg" / "illegal"
    theirs, mine = tmp_path / "workers", tmp_path / "caller"
    for root, source in ((theirs, ONE_GAME), (mine, illegal)):  # the same file names, other games
        (root / "games").mkdir(parents=True)
        for index, path in enumerate(sorted(source.glob("*.rec"))[:3]):
            (root / "games" / f"{index}.rec").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(theirs)  # the workers start in another folder, holding files of the same names
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster:
        on_cluster = run("check", "--dask", cluster.scheduler_address, "--format", "jsonl", "games", cwd=mine)
    alone = run("check", "--jobs", "1", "--format", "jsonl", "games", cwd=mine)
    assert (on_cluster.stdout, on_cluster.returncode) == (alone.stdout, alone.returncode)
    assert '"verdict": "illegal"' in alone.stdout


def test_dask_reads_the_variant_files_the_caller_allows_from_any_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--allow-dir house`` means the caller's ``house`` folder: it was sent as given and the workers looked in their
    own working folder, where another ``house/club.toml`` made a valid game illegal."""
    distributed = pytest.importorskip("distributed")
    rich = (RECORDS.parent / "referee" / "saint_petersburg" / "variants" / "sp-rich-start.toml").read_text()
    theirs, mine = tmp_path / "workers", tmp_path / "caller"
    for root, text in ((theirs, rich.replace("start_rubles = 40", "start_rubles = 5")), (mine, rich)):
        (root / "house").mkdir(parents=True)
        (root / "house" / "club.toml").write_text(text.replace('"sp-rich-start"', '"club"'))
    (mine / "games").mkdir()
    played = run("play", "saint-petersburg", "-s", "4", "--variant", "sp-rich-start", cwd=mine)
    (mine / "games" / "g.rec").write_text(played.stdout.replace('"sp-rich-start"', '"club.toml"'))
    monkeypatch.chdir(theirs)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster:
        args = ("check", "--format", "jsonl", "--allow-dir", "house", "games")
        on_cluster = run(*args[:1], "--dask", cluster.scheduler_address, *args[1:], cwd=mine)
    alone = run(*args, cwd=mine)
    assert (on_cluster.stdout, on_cluster.returncode) == (alone.stdout, alone.returncode)
    assert '"verdict": "valid"' in alone.stdout


def test_a_record_from_standard_input_finds_files_in_the_callers_folder_wherever_it_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.cli_options import read_policy

    (tmp_path / "club.toml").write_text("name = 'club'\n")
    monkeypatch.chdir(tmp_path)
    policy = read_policy(1024, (), allow_any_path=True)  # made where the caller runs
    monkeypatch.chdir(tmp_path.parent)  # judged by a worker elsewhere
    assert policy.locate("club.toml", {}, None) == (tmp_path / "club.toml").resolve()


def test_dask_keeps_a_bounded_window_of_work_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    pulled = 0

    def sources() -> Iterator:
        nonlocal pulled
        for source in find_records([RECORDS / "san-juan"]):
            pulled += 1
            yield source

    monkeypatch.setattr(parallel, "BATCH_FILES", 1)  # a unit per file, so a window is counted in files
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=40
    ) as cluster:
        reports = parallel.judge_on_dask(sources(), Referee(), cluster.scheduler_address)
        next(reports)
        assert pulled <= 5  # the window (at least 4 units) and the one that did not fit
        rest = list(reports)
    assert len(rest) + 1 == len(list(find_records([RECORDS / "san-juan"]))) and pulled > 5


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One file of 120 games (three games' records): cut into slices when ``BIG_FILE`` is made small."""
    path = tmp_path_factory.mktemp("big") / "big.rec"
    path.write_text(
        "".join(
            run("play", game, "-n", "2", "-s", "3", "--games", "40").stdout
            for game in ("saint-petersburg", "san-juan", "santorini-new-york")
        ),
        encoding="utf-8",
    )
    return path


def _slices_in(root: object) -> int:
    """How many ``Slice`` objects the data held from ``root`` reaches (every reference the collector knows, but not
    through code: a function's globals lead to the whole process, and to the worker's own data)."""
    import gc
    import types

    code = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.FrameType)
    seen, todo, found = {id(root)}, [root], 0
    while todo:
        for child in gc.get_referents(todo.pop()):
            if id(child) not in seen and not isinstance(child, code):
                seen.add(id(child))
                todo.append(child)
                found += isinstance(child, parallel.Slice)
    return found


def test_dask_sends_no_record_text_through_the_scheduler(big_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler keeps its last thousand messages to each worker (a debugging log): a slice's games must not be
    in them, else its memory grows with the file (1.27 GiB for a 240 MB file). They are scattered instead."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(parallel, "BIG_FILE", 1)
    monkeypatch.setattr(parallel, "GAMES_PER_SLICE", 10)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=40
    ) as cluster:
        reports = list(parallel.judge_on_dask(find_records([big_file]), Referee(), cluster.scheduler_address))
        logs = [comm.recent_message_log for comm in cluster.scheduler.stream_comms.values()]
        assert sum(len(log) for log in logs) > 0
        assert _slices_in(logs) == 0
    assert [r.index for r in reports] == list(range(1, 121))


@pytest.mark.skipif(not LINUX, reason="a cluster of separate processes (bench/cluster.py)")
def test_dask_judges_again_the_slices_a_killed_worker_held(big_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A slice's games live on the worker they were scattered to: when it dies (the out-of-memory killer), the slices
    it held, judged or not, are sent again, and the reports are those of one job."""
    pytest.importorskip("distributed")
    from bench.cluster import ProcessCluster

    if not ProcessCluster.available():
        pytest.skip("no dask command")
    monkeypatch.setattr(parallel, "BIG_FILE", 1)
    monkeypatch.setattr(parallel, "GAMES_PER_SLICE", 5)
    sent = 0
    on_dask = parallel._on_dask

    def counting(*args: object) -> object:
        nonlocal sent
        sent += 1
        return on_dask(*args)

    monkeypatch.setattr(parallel, "_on_dask", counting)
    alone = [r.as_dict() for r in Referee().judge_source(next(iter(find_records([big_file]))))]
    with ProcessCluster(2) as cluster:
        reports = parallel.judge_on_dask(find_records([big_file]), Referee(), cluster.address)
        first = next(reports).as_dict()
        cluster.processes[2].kill()  # a worker, with slices (and results) on it
        on_cluster = [first, *(r.as_dict() for r in reports)]
    assert on_cluster == alone and len(alone) == 120
    assert sent > 120 // 5  # some slices were sent again


# ------------------------------------------------------------------------------------------------ deep folders
def _chain(root: Path, depth: int, files_at: dict[int, str]) -> None:
    """A folder ``d`` inside ``d`` ... ``depth`` levels deep (made through folder descriptors: the paths are longer
    than the system takes), with a record at the levels given."""
    fd = os.open(root, os.O_RDONLY)
    try:
        for level in range(depth + 1):
            if level in files_at:
                handle = os.open(files_at[level], os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
                with open(handle, "w", encoding="utf-8") as out:
                    out.write(next(ONE_GAME.glob("*.rec")).read_text(encoding="utf-8"))
            if level < depth:
                os.mkdir("d", dir_fd=fd)
                inner = os.open("d", os.O_RDONLY, dir_fd=fd)
                os.close(fd)
                fd = inner
    finally:
        os.close(fd)


def _remove_chain(top: Path) -> None:
    """Remove a chain of ``d`` folders without recursion (shutil.rmtree would recurse 2,500 times)."""
    fds = [os.open(top, os.O_RDONLY)]
    with contextlib.suppress(FileNotFoundError):
        while True:
            fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
    while fds:
        fd = fds.pop()
        for name in os.listdir(fd):
            if stat.S_ISDIR(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                os.rmdir(name, dir_fd=fd)
            else:
                os.unlink(name, dir_fd=fd)
        os.close(fd)


def test_a_folder_thousands_of_levels_deep_is_walked_and_too_deep_a_part_is_one_report(tmp_path: Path) -> None:
    top = tmp_path / "deep"
    top.mkdir()
    _chain(top, 2500, {0: "top.rec", 1000: "middle.rec", 2500: "bottom.rec"})
    try:
        found = {source.key: source.problem for source in find_records([top])}
        too_deep = [key for key, problem in found.items() if problem is not None]
        assert len(found) == 3 and len(too_deep) == 1  # the bottom file's folder is past what the system takes
        assert found["top.rec"] is None and found["d/" * 1000 + "middle.rec"] is None
        assert "File name too long" in str(found[too_deep[0]])
        done = run("check", top)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stdout.count(": valid") == 2 and "[unreadable-file]" in done.stdout
    finally:
        _remove_chain(top)
