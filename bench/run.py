"""The referee benchmark: one command, every registered game, python-chess as the yardstick.

    python -m bench [--actions 50000] [--games ID,ID] [--repeats 3] [--memory-games 100,10000]
                    [--scale-files-games 10] [--no-scale] [--markdown FILE] [--json FILE]

In one run, for every game registered in ``referee.registry.GAMES`` (or those named with ``--games``):

1. a seeded corpus: games generated with ``game.play`` (seeds SEED, SEED+1, ...; player counts cycling through the
   game's range) until it holds ``--actions`` actions (actor lines, counted through the game's own parser);
2. in a fresh interpreter each, ``--repeats`` times: generating the same games again (games/s), splitting and
   parsing every body line without rules (parse-only actions/s), and ``check_text`` (parse+check actions/s). The
   whole process is timed from outside and the median startup (``python -c "import referee.cli"``) subtracted;
3. the peak memory (the kernel's ru_maxrss of the child) of ``referee check FILE --format jsonl`` on a file of each
   size in ``--memory-games``: the corpus's distinct games repeated in order up to that many games;

4. the scale part (unless ``--no-scale``): every corpus split into files of ``--scale-files-games`` games in one
   folder, ``referee check --format jsonl`` on it with ``--jobs 1``, ``--jobs N`` (N: the cores this process may
   use) and, if Dask distributed is installed, ``--dask`` on a local cluster of N worker processes: wall times, the
   speed-up of N jobs, and whether every output is byte for byte the first ``--jobs 1`` output;

5. the hidden-card line (unless ``--no-hidden``, when Santorini: New York is measured): the Santorini corpus's games
   generated with every dealt card named, and the same games with ``--hidden-rate`` (0.4) of the dealt cards written
   ``?``; parse+check of each, ``--repeats`` times, and the time of the hidden file over the named one (target
   ≤ 1.5×: hidden cards are judged exactly, docs/santorini-new-york.md);

and, for python-chess, a seeded corpus of random legal games (random legal moves until the game is over or
``--chess-ply-cap`` plies) written as PGN and read back, in a fresh interpreter each, every way in ``CHESS_READINGS``
(bench/yardstick.py): first the yardstick, python-chess's fastest faithful validation (``read_game`` with
``BoardBuilder``: every move parsed against the position, an illegal one raises; ``outcome()`` against the ``Result``
tag), then readings shown for context. Plies/s, startup ``python -c "import chess.pgn"`` subtracted, as on the
referee's side; the referee's rates are divided by the yardstick's, whole process and in-process alike.

See docs/performance.md for what each number means and the results measured on the project's machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import hashlib
import json
import logging
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

WORKER = Path(__file__).with_name("worker.py")
INSTALL_HINT = "pip install -e '.[bench]'"


@dataclasses.dataclass(frozen=True)
class ChessReading:
    """One way python-chess reads and validates the PGN corpus: ``bench/worker.py chess-read NAME FILE``."""

    name: str  # a key of bench/yardstick.py READINGS, and of the report's "chess" "readings"
    title: str  # the tables' line ("(the yardstick)" or "(context)" is added)
    how: str  # what it does, in the text above the tables


# The first is the yardstick every ratio divides by; the others are lines for context (their ratio to it is shown).
CHESS_READINGS = (
    ChessReading(
        "board-builder",
        "python-chess, BoardBuilder",
        "`chess.pgn.read_game(handle, Visitor=BoardBuilder)` and `board.outcome()`: every SAN move parsed against the"
        " position (an illegal, ambiguous or null move raises), the `Result` tag checked against the outcome",
    ),
    ChessReading(
        "game-builder",
        "python-chess, GameBuilder",
        "`chess.pgn.read_game(handle)`: the same, building the game tree, errors collected in `game.errors` and"
        " checked, the outcome of `game.end().board()`",
    ),
)
YARDSTICK = CHESS_READINGS[0]
# The three kinds of rate (see rates()), by their keys' suffix: whole process, CPU, in-process.
RATE_KINDS = ("", "_cpu", "_inner")


class BenchError(Exception):
    """A problem the user can fix (missing dependency, unknown game, a failed job): printed without a traceback."""


# ---------------------------------------------------------------------------------------------------------------
# Child processes


@dataclasses.dataclass
class Child:
    wall: float  # seconds, whole process, from fork to exit
    cpu: float | None  # user + system CPU seconds of the process (None where unavailable)
    maxrss_mib: float | None  # peak resident set size of the child (kernel's ru_maxrss), None where unavailable
    returncode: int
    stdout: str
    stderr: str

    def data(self) -> dict[str, Any]:
        """The worker's JSON result (its last stdout line)."""
        lines = [line for line in self.stdout.splitlines() if line.strip()]
        if not lines:
            raise BenchError("a benchmark job printed nothing" + (f":\n{self.stderr.strip()}" if self.stderr else ""))
        return json.loads(lines[-1])


# A tiny launcher between the benchmark and each measured process. A child's peak RSS as the kernel reports it
# includes the memory of the process it was forked from (Linux keeps the larger of the two across exec), so a child
# forked straight from this process (which holds python-chess, the referee and the corpora) would show at least this
# process's size. The launcher is a bare interpreter of ~9 MiB, less than any measured job, so the peak it reports
# is the job's own; it also times the job from fork to exit, without its own start.
LAUNCHER = """
import os, sys, time
out, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
scale = 1024 * 1024 if sys.platform == "darwin" else 1024
print(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / scale, os.waitstatus_to_exitcode(status))
"""


def run_child(argv: list[str], *, keep_stdout: bool = True) -> Child:
    """Run one process to its end through the launcher: its wall time, its peak memory, its output."""
    # A fixed hash seed: a generator that iterates over a set of strings is then reproducible across processes.
    env = dict(os.environ, PYTHONHASHSEED="0")
    if not hasattr(os, "fork"):  # pragma: no cover - Windows: timed from here, no peak memory
        start = time.perf_counter()
        proc = subprocess.run(argv, capture_output=True, text=True, env=env)
        return Child(time.perf_counter() - start, None, None, proc.returncode, proc.stdout, proc.stderr)
    with tempfile.TemporaryDirectory(prefix="referee-bench-out-") as folder:
        out = Path(folder) / "stdout"
        launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(out) if keep_stdout else os.devnull, *argv]
        proc = subprocess.run(launcher, capture_output=True, text=True, env=env)
        try:
            wall_text, cpu_text, rss_text, code_text = proc.stdout.split()
        except ValueError:
            raise BenchError(f"could not run {' '.join(argv)}:\n{proc.stderr.strip()}") from None
        stdout = out.read_text(encoding="utf-8") if keep_stdout and out.exists() else ""
        return Child(float(wall_text), float(cpu_text), float(rss_text), int(code_text), stdout, proc.stderr)


def worker(*args: object) -> Child:
    child = run_child([sys.executable, str(WORKER), *map(str, args)])
    if child.returncode != 0:
        detail = (child.stderr.strip() or child.stdout.strip()).splitlines()
        raise BenchError(f"benchmark job '{' '.join(map(str, args))}' failed: " + "\n".join(detail[-15:]))
    return child


@dataclasses.dataclass
class Samples:
    """Repeated runs of one job: walls and peak memory of each, and the worker's own timed section."""

    walls: list[float] = dataclasses.field(default_factory=list)
    cpus: list[float] = dataclasses.field(default_factory=list)
    inners: list[float] = dataclasses.field(default_factory=list)
    maxrss: list[float] = dataclasses.field(default_factory=list)

    def add(self, child: Child, data: dict[str, Any] | None = None) -> None:
        self.walls.append(child.wall)
        if child.cpu is not None:
            self.cpus.append(child.cpu)
        if child.maxrss_mib is not None:
            self.maxrss.append(child.maxrss_mib)
        if data is not None and "inner" in data:
            self.inners.append(data["inner"])

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float | None:
        return statistics.median(self.cpus) if self.cpus else None

    @property
    def inner(self) -> float | None:
        return statistics.median(self.inners) if self.inners else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "wall_s": self.walls,
            "cpu_s": self.cpus,
            "inner_s": self.inners,
            "maxrss_mib": self.maxrss,
            "median_wall_s": self.wall,
            "median_cpu_s": self.cpu,
            "median_inner_s": self.inner,
        }


def rates(samples: Samples, startup: Samples, count: int) -> dict[str, Any]:
    """Throughput of ``count`` things from repeated runs, startup subtracted.

    ``per_s``: median whole-process wall time less the median startup wall time (never below the job's own timed
    section, a guard against noise); ``per_s_cpu``: the same with user + system CPU seconds (less sensitive to other
    load on the machine); ``per_s_inner``: the job's own timed section (no interpreter start, imports or exit).
    """
    wall = samples.wall - startup.wall
    if samples.inner is not None and wall < samples.inner:
        wall = samples.inner
    wall = max(wall, 1e-9)
    cpu = None
    if samples.cpu is not None and startup.cpu is not None:
        cpu = max(samples.cpu - startup.cpu, 1e-9)
    return samples.as_dict() | {
        "count": count,
        "net_s": wall,
        "per_s": count / wall,
        "net_cpu_s": cpu,
        "per_s_cpu": count / cpu if cpu else None,
        "per_s_inner": count / samples.inner if samples.inner else None,
    }


def ratios(measured: dict[str, Any], yardstick: dict[str, Any], key: str) -> dict[str, float | None]:
    """``measured``'s rates ÷ the yardstick's, each kind of rate by the same kind (whole process by whole process,
    CPU by CPU, in-process by in-process): ``key``, ``key_cpu``, ``key_inner``."""
    out: dict[str, float | None] = {}
    for kind in RATE_KINDS:
        rate, base = measured["per_s" + kind], yardstick["per_s" + kind]
        out[key + kind] = rate / base if rate and base else None
    return out


# ---------------------------------------------------------------------------------------------------------------
# The run


class Progress:
    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.start = time.perf_counter()

    def __call__(self, message: str) -> None:
        if not self.quiet:
            print(f"[{time.perf_counter() - self.start:6.1f}s] {message}", file=sys.stderr, flush=True)


def referee_help_command() -> list[str]:
    script = Path(sys.executable).parent / ("referee.exe" if os.name == "nt" else "referee")
    if script.is_file():
        return [str(script), "--help"]
    found = shutil.which("referee")
    if found:
        return [found, "--help"]
    return [sys.executable, "-c", "from referee.cli import main; main()", "--help"]


def referee_cli() -> list[str]:
    return referee_help_command()[:-1]


STARTUP = {
    "import referee.cli": [sys.executable, "-c", "import referee.cli"],
    "referee --help": referee_help_command(),
    "import chess.pgn": [sys.executable, "-c", "import chess.pgn"],
}


def run_startup(name: str, samples: Samples) -> None:
    child = run_child(STARTUP[name], keep_stdout=False)
    if child.returncode != 0:
        raise BenchError(f"'{' '.join(STARTUP[name])}' failed:\n{child.stderr.strip()}")
    samples.add(child)


def write_repeated(path: Path, texts: list[str], games: int) -> None:
    """A record file of ``games`` games: the distinct games in order, repeated (nothing renumbered)."""
    with path.open("w", encoding="utf-8") as handle:
        for index in range(games):
            if index:
                handle.write("\n")
            handle.write(texts[index % len(texts)])


def _split_lengths(text: str, lengths: list[int]) -> list[str]:
    texts, position = [], 0
    for length in lengths:
        texts.append(text[position : position + length])
        position += length + 1  # the "\n" that joins two games
    return texts


@dataclasses.dataclass
class GameRun:
    """What is being measured of one game, gathered over the interleaved repeats."""

    game: str
    rec: Path
    corpus: dict[str, Any]
    generate: Samples = dataclasses.field(default_factory=Samples)
    parse: Samples = dataclasses.field(default_factory=Samples)
    check: Samples = dataclasses.field(default_factory=Samples)
    table: Samples = dataclasses.field(default_factory=Samples)
    notes: list[str] = dataclasses.field(default_factory=list)


def make_corpus(game_id: str, args: argparse.Namespace, work: Path, say: Progress) -> GameRun:
    rec = work / f"{game_id}.rec"
    say(f"{game_id}: generating the corpus ({args.actions:,} actions)")
    corpus = worker("corpus", game_id, args.actions, args.seed, rec).data()
    say(
        f"{game_id}: {corpus['games']} games, {corpus['actions']:,} actions, {corpus['lines']:,} body lines,"
        f" players {corpus['players']}"
    )
    return GameRun(game_id, rec, corpus)


def run_game_jobs(run: GameRun, args: argparse.Namespace, say: Progress, label: str) -> None:
    """One fresh process each: generate the corpus again, parse it, check it."""
    corpus = run.corpus
    child = worker("generate", run.game, corpus["games"], args.seed)
    data = child.data()
    run.generate.add(child, data)
    if data["sha256"] != corpus["sha256"]:
        run.notes.append("the generator gave a different text for the same seeds (not deterministic)")
    child = worker("parse", run.rec)
    data = child.data()
    run.parse.add(child, data)
    if data["actions"] != corpus["actions"] or data["errors"]:
        run.notes.append(f"parse-only counted {data['actions']} actions and {data['errors']} errors")
    parse_wall = child.wall
    child = worker("check", run.rec)
    data = child.data()
    run.check.add(child, data)
    if data["first_bad"]:
        run.notes.append(f"not every generated game was judged valid: {data['first_bad']} ({data['verdicts']})")
    check_wall = child.wall
    child = worker("table", run.rec)
    data = child.data()
    run.table.add(child, data)
    if data["valid"] != data["games"]:
        run.notes.append(f"the live table ended {data['games'] - data['valid']} generated game(s) not valid")
    say(
        f"{run.game} {label}: generate {run.generate.walls[-1]:.2f} s, parse {parse_wall:.2f} s,"
        f" check {check_wall:.2f} s, live table {child.wall:.2f} s"
    )


def measure_memory(run: GameRun, args: argparse.Namespace, work: Path, startup: Samples, say: Progress) -> list:
    """Peak memory of ``referee check FILE --format jsonl`` on files of the corpus's games repeated to each size."""
    memory: list[dict[str, Any]] = []
    texts = _split_lengths(run.rec.read_text(encoding="utf-8"), run.corpus["lengths"])
    per_game = run.corpus["actions_per_game"]
    for size in args.memory_games:
        path = work / f"{run.game}-{size}.rec"
        write_repeated(path, texts, size)
        say(f"{run.game}: peak memory of referee check on {size:,} games ({path.stat().st_size / 1e6:,.1f} MB)")
        child = run_child([*referee_cli(), "check", str(path), "--format", "jsonl"], keep_stdout=False)
        if child.returncode != 0:
            run.notes.append(f"referee check exited {child.returncode} on the {size}-game file")
        size_actions = sum(per_game[i % len(per_game)] for i in range(size))
        memory.append(
            {
                "games": size,
                "distinct_games": min(size, len(texts)),
                "bytes": path.stat().st_size,
                "actions": size_actions,
                "wall_s": child.wall,
                "cpu_s": child.cpu,
                "peak_rss_mib": child.maxrss_mib,
                "actions_per_s": size_actions / max(child.wall - startup.wall, 1e-9),
            }
        )
        path.unlink()
        say(f"{run.game}: {size:,} games: {_mib(child.maxrss_mib)} MiB peak, {child.wall:.1f} s")
    return memory


def measure_dask_memory(run: GameRun, args: argparse.Namespace, work: Path, say: Progress) -> dict[str, Any] | None:
    """Peak memory of ``referee check FILE --dask`` on a file of ``--dask-memory-games`` games: the client, the
    scheduler and the largest worker, each a process of its own (bench/cluster.py), on a fresh cluster."""
    from bench.cluster import ProcessCluster
    from referee.parallel import default_jobs

    size = args.dask_memory_games
    if not size or args.no_scale:
        return None
    if not ProcessCluster.available():
        return {"games": size, "measured": False, "reason": f"not measured: {DASK_HINT}"}
    texts = _split_lengths(run.rec.read_text(encoding="utf-8"), run.corpus["lengths"])
    path = work / f"{run.game}-{size}-dask.rec"
    write_repeated(path, texts, size)
    workers = default_jobs()
    say(f"{run.game}: peak memory of referee check --dask ({workers} workers) on {size:,} games")
    try:
        with ProcessCluster(workers) as cluster:
            argv = [*referee_cli(), "check", str(path), "--format", "jsonl", "--dask", cluster.address]
            child = run_child(argv, keep_stdout=False)
            peaks = cluster.peaks()
    finally:
        bytes_ = path.stat().st_size
        path.unlink()
    if child.returncode != 0:
        run.notes.append(f"referee check --dask exited {child.returncode} on the {size}-game file")
    say(f"{run.game}: --dask {size:,} games: client {_mib(child.maxrss_mib)} MiB, {peaks}")
    return {
        "games": size,
        "measured": True,
        "bytes": bytes_,
        "workers": workers,
        "wall_s": child.wall,
        "client_mib": child.maxrss_mib,
        "scheduler_mib": peaks["scheduler"],
        "worker_mib": peaks["worker"],
    }


# ---------------------------------------------------------------------------------------------------------------
# Scale: many files on every core, and on a Dask cluster

SCALE_TARGET = 1.7  # the --jobs speed-up the project asks for on the 2-core machine
DASK_HINT = "pip install 'referee[dask]'"


def write_scale_folder(corpora: dict[str, list[str]], games_per_file: int, folder: Path) -> dict[str, int]:
    """A folder of many small record files: each game's corpus cut, in order, into files of ``games_per_file`` games
    (``GAME-NNNN.rec``), the shape of a collection of records that ``--jobs`` spreads over the cores file by file."""
    folder.mkdir(parents=True, exist_ok=True)
    files = games = size = 0
    for game_id, texts in corpora.items():
        for number, start in enumerate(range(0, len(texts), games_per_file), 1):
            chunk = texts[start : start + games_per_file]
            path = folder / f"{game_id}-{number:04d}.rec"
            path.write_text("\n".join(chunk), encoding="utf-8")
            files += 1
            games += len(chunk)
            size += path.stat().st_size
    return {"files": files, "games": games, "bytes": size, "games_per_file": games_per_file}


def _first_difference(expected: str, got: str) -> str:
    """Where two outputs part (for a note): the first differing line, or which one is longer."""
    for number, (left, right) in enumerate(zip(expected.splitlines(), got.splitlines(), strict=False), 1):
        if left != right:
            return f"line {number} differs"
    return f"{len(got.splitlines())} lines instead of {len(expected.splitlines())}"


class _Comparison:
    """Outputs of one kind of run compared byte for byte with the reference (the first ``--jobs 1`` output)."""

    def __init__(self, label: str, notes: list[str]) -> None:
        self.label, self.notes = label, notes
        self.samples = Samples()
        self.identical = True

    def add(self, child: Child, reference: str) -> None:
        self.samples.add(child)
        if child.returncode not in (0, 1):  # 1: some game is not valid; anything else: the command failed
            tail = " ".join(child.stderr.strip().splitlines()[-3:])
            self.notes.append(f"{self.label} exited {child.returncode}: {tail}")
        if child.stdout != reference:
            self.identical = False
            self.notes.append(
                f"{self.label}: output differs from --jobs 1 ({_first_difference(reference, child.stdout)})"
            )

    def as_dict(self) -> dict[str, Any]:
        return self.samples.as_dict() | {"identical": self.identical}


def _start_dask(workers: int) -> Any:
    """A local Dask cluster of ``workers`` single-threaded worker processes, or None if distributed is missing."""
    try:
        from distributed import LocalCluster
    except ImportError:
        return None
    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
        env={"PYTHONHASHSEED": "0"},  # as every measured process (run_child)
    )


def measure_scale(
    folder: Path,
    layout: dict[str, int],
    jobs: int,
    repeats: int,
    say: Callable[[str], None],
    *,
    dask: bool = True,
) -> dict[str, Any]:
    """``referee check --format jsonl FOLDER`` with ``--jobs 1`` and ``--jobs N`` (``repeats`` fresh processes each,
    interleaved), then with ``--dask`` (a local cluster of ``jobs`` workers, started for these runs only): the wall
    times, the speed-up of N jobs, and whether every output is byte for byte the first ``--jobs 1`` output (the
    promise of ``--jobs`` and ``--dask``)."""
    base = [*referee_cli(), "check", "--format", "jsonl"]
    target = str(folder.resolve())  # the reports name files as given: one spelling for every run
    notes: list[str] = []
    one, many = _Comparison("--jobs 1", notes), _Comparison(f"--jobs {jobs}", notes)
    on_dask = _Comparison("--dask", notes)
    if jobs > 1 and layout["files"] < 2 * jobs:
        notes.append(f"only {_count(layout['files'], 'file')}: too few for {jobs} jobs to keep every core busy")
    reference: str | None = None
    lines = 0
    for repeat in range(1, repeats + 1):
        label = f"run {repeat}/{repeats}"
        child = run_child([*base, "--jobs", "1", target], keep_stdout=True)
        if reference is None:
            reference = child.stdout
            lines = len(reference.splitlines())
            if lines != layout["games"]:
                notes.append(f"--jobs 1 reported {lines} games of the folder's {layout['games']}")
        one.add(child, reference)
        message = f"scale {label}: --jobs 1 {child.wall:.2f} s"
        if jobs > 1:
            child = run_child([*base, "--jobs", str(jobs), target], keep_stdout=True)
            many.add(child, reference)
            message += f", --jobs {jobs} {child.wall:.2f} s"
        say(message)
    # The cluster runs only for its own runs: its idle processes (the scheduler, the workers' heartbeats and
    # profiler) took CPU from the --jobs runs on a 2-core machine.
    cluster = _start_dask(jobs) if dask else None
    try:
        for repeat in range(1, repeats + 1) if cluster is not None else ():
            child = run_child([*base, "--dask", cluster.scheduler_address, target], keep_stdout=True)
            on_dask.add(child, reference or "")
            say(f"scale run {repeat}/{repeats}: --dask {child.wall:.2f} s")
    finally:
        if cluster is not None:
            cluster.close()
    speedup = one.samples.wall / many.samples.wall if many.samples.walls else None
    if dask and cluster is None:
        dask_result: dict[str, Any] = {"measured": False, "reason": f"not measured: {DASK_HINT}"}
    elif cluster is None:
        dask_result = {"measured": False, "reason": "not measured"}
    else:
        dask_result = {"measured": True, "workers": jobs} | on_dask.as_dict()
    return {
        "folder": layout,
        "jobs": jobs,
        "output_lines": lines,
        "output_sha256": hashlib.sha256((reference or "").encode()).hexdigest(),
        "jobs_1": one.as_dict(),
        "jobs_n": many.as_dict() if many.samples.walls else None,
        "speedup": speedup,
        "target": SCALE_TARGET,
        "meets_target": None if speedup is None else speedup >= SCALE_TARGET,
        "identical": one.identical and many.identical,
        "dask": dask_result,
        "notes": notes,
    }


def run_scale(runs: list[GameRun], args: argparse.Namespace, work: Path, say: Progress) -> dict[str, Any]:
    """The scale part of the benchmark on every measured game's corpus."""
    from referee.parallel import default_jobs

    corpora = {run.game: _split_lengths(run.rec.read_text(encoding="utf-8"), run.corpus["lengths"]) for run in runs}
    folder = work / "scale"
    layout = write_scale_folder(corpora, args.scale_files_games, folder)
    jobs = default_jobs()
    say(
        f"scale: {_count(layout['files'], 'file')} of ≤ {args.scale_files_games} games ({layout['games']:,} games,"
        f" {layout['bytes'] / 1e6:,.1f} MB); --jobs 1 and --jobs {jobs}"
    )
    return measure_scale(folder, layout, jobs, args.repeats, say)


def run_live(args: argparse.Namespace, say: Progress) -> dict[str, Any]:
    """The live server (``python -m bench.bench_live``, in a process of its own, as are the server and its
    clients): lines/s and the p50/p99 latency of ``POST /tables/{id}/lines`` with 1, 8 and 32 clients."""
    from bench.bench_live import TARGET_P99_MS

    say(f"live server: 1, 8 and 32 clients, {args.live_seconds:g} s each")
    command = [sys.executable, "-m", "bench.bench_live", "--json", "--seconds", str(args.live_seconds)]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    if proc.returncode != 0:
        raise BenchError(f"the live benchmark failed: {proc.stderr.strip()[-2000:]}")
    lines = proc.stdout.strip().splitlines()
    rows = json.loads(lines[-1])
    for row in rows:
        say(f"live server, {row['clients']} clients: {row['lines_per_s']:,.0f} lines/s, p99 {row['p99_ms']:.1f} ms")
    return {"setup": lines[0], "rows": rows, "target_p99_ms": TARGET_P99_MS}


def chess_readings(samples: dict[str, Samples], startup: Samples, plies: int) -> dict[str, Any]:
    """Each python-chess reading's rates (startup subtracted), what it is, and its ratio to the yardstick."""
    readings = {}
    for reading in CHESS_READINGS:
        runs = samples[reading.name]
        readings[reading.name] = rates(runs, startup, plies) | {
            "title": reading.title,
            "how": reading.how,
            "peak_rss_mib": max(runs.maxrss) if runs.maxrss else None,
        }
    for entry in readings.values():
        entry |= ratios(entry, readings[YARDSTICK.name], "ratio_to_yardstick")
    return readings


def measure(args: argparse.Namespace, game_ids: list[str], work: Path, say: Progress) -> dict[str, Any]:
    """Corpora first; then the repeats, interleaved (startup, python-chess, each game) so that slow drifts in the
    machine's load touch every number alike; then the memory runs."""
    pgn = work / "chess.pgn"
    say(f"python-chess: generating random legal games up to {args.chess_plies:,} plies")
    chess_corpus = worker("chess-corpus", args.chess_plies, args.seed, args.chess_ply_cap, pgn).data()
    runs = [make_corpus(game_id, args, work, say) for game_id in game_ids]
    hidden = make_hidden(args, work, say) if HIDDEN_GAME in game_ids and not args.no_hidden else None
    startup = {name: Samples() for name in STARTUP}
    for name in STARTUP:  # once untimed: byte-code caches written, files in the page cache
        run_startup(name, Samples())
    chess_reads = {reading.name: Samples() for reading in CHESS_READINGS}
    for repeat in range(1, args.repeats + 1):
        label = f"run {repeat}/{args.repeats}"
        for name, samples in startup.items():
            run_startup(name, samples)
        say(f"startup {label}: " + ", ".join(f"{name} {s.walls[-1] * 1000:.0f} ms" for name, s in startup.items()))
        for reading in CHESS_READINGS:
            child = worker("chess-read", reading.name, pgn)
            data = child.data()
            chess_reads[reading.name].add(child, data)
            if (data["games"], data["plies"]) != (chess_corpus["games"], chess_corpus["plies"]):
                raise BenchError(
                    f"python-chess ({reading.name}) read {data['games']} games, {data['plies']} plies back;"
                    f" {chess_corpus['games']} games, {chess_corpus['plies']} plies were written"
                )
            say(f"python-chess {reading.name} {label}: {child.wall:.2f} s")
        for run in runs:
            run_game_jobs(run, args, say, label)
        if hidden is not None:
            run_hidden_jobs(hidden, say, label)
    base, chess_base = startup["import referee.cli"], startup["import chess.pgn"]
    readings = chess_readings(chess_reads, chess_base, chess_corpus["plies"])
    yardstick = readings[YARDSTICK.name]
    chess = {
        "games": chess_corpus["games"],
        "plies": chess_corpus["plies"],
        "ply_cap": args.chess_ply_cap,
        "bytes": pgn.stat().st_size,
        "generate_s": chess_corpus["inner"],
        "yardstick": YARDSTICK.name,
        "readings": readings,
    }
    say(f"python-chess: {yardstick['per_s']:,.0f} plies/s ({YARDSTICK.name}, the yardstick)")
    games = []
    for run in runs:
        actions = run.corpus["actions"]
        result: dict[str, Any] = {
            "game": run.game,
            "corpus": {k: v for k, v in run.corpus.items() if k not in ("lengths", "actions_per_game", "maxrss_kib")},
            "generate": rates(run.generate, base, run.corpus["games"]),
            "parse": rates(run.parse, base, actions),
            "check": rates(run.check, base, actions),
        }
        for job in ("parse", "check"):
            result |= ratios(result[job], yardstick, f"ratio_{job}_to_chess")
        result["table"] = rates(run.table, base, actions)
        result |= ratios(result["check"], result["table"], "cost_table_to_check")  # a line's cost: table ÷ check
        say(
            f"{run.game}: parse {result['parse']['per_s']:,.0f}, check {result['check']['per_s']:,.0f} actions/s,"
            f" {result['generate']['per_s']:,.1f} games/s, {result['ratio_check_to_chess']:.2f}× the yardstick"
        )
        result["memory"] = measure_memory(run, args, work, base, say)
        result["dask_memory"] = measure_dask_memory(run, args, work, say)
        result["notes"] = sorted(set(run.notes))
        games.append(result)
    scale = None if args.no_scale else run_scale(runs, args, work, say)
    live = None if args.no_live else run_live(args, say)
    return {
        "startup": {name: s.as_dict() for name, s in startup.items()},
        "chess": chess,
        "games": games,
        "hidden": None if hidden is None else hidden_result(hidden, base, say),
        "scale": scale,
        "live": live,
    }


# ---------------------------------------------------------------------------------------------------------------
# The hidden-card line

HIDDEN_GAME = "santorini-new-york"
HIDDEN_TARGET = 1.5  # the hidden file's check time ÷ the named file's, at most


@dataclasses.dataclass
class HiddenRun:
    named: Path
    hidden: Path
    rate: float
    corpus: dict[str, Any]
    checks: dict[str, Samples] = dataclasses.field(default_factory=lambda: {"named": Samples(), "hidden": Samples()})
    notes: list[str] = dataclasses.field(default_factory=list)


def make_hidden(args: argparse.Namespace, work: Path, say: Progress) -> HiddenRun:
    named, hidden = work / f"{HIDDEN_GAME}-named.rec", work / f"{HIDDEN_GAME}-hidden.rec"
    say(f"{HIDDEN_GAME}: generating the hidden-card corpus ({args.hidden_rate:.0%} of the dealt cards written '?')")
    corpus = worker("hidden-corpus", args.actions, args.seed, args.hidden_rate, named, hidden).data()
    say(f"{HIDDEN_GAME}: {corpus['games']} games, {corpus['hidden']:,} of {corpus['dealt']:,} dealt cards written '?'")
    return HiddenRun(named, hidden, args.hidden_rate, corpus)


def run_hidden_jobs(run: HiddenRun, say: Progress, label: str) -> None:
    """The named file's check, then the hidden file's (each in a fresh process)."""
    walls = []
    for kind, path in (("named", run.named), ("hidden", run.hidden)):
        child = worker("check", path)
        data = child.data()
        run.checks[kind].add(child, data)
        walls.append(child.wall)
        if data["first_bad"]:
            run.notes.append(f"{kind}: not every game was judged valid: {data['first_bad']} ({data['verdicts']})")
    say(f"{HIDDEN_GAME} hidden cards {label}: check named {walls[0]:.2f} s, {run.rate:.0%} '?' {walls[1]:.2f} s")


def hidden_result(run: HiddenRun, base: Samples, say: Progress) -> dict[str, Any]:
    actions = run.corpus["actions"]
    named, hidden = rates(run.checks["named"], base, actions), rates(run.checks["hidden"], base, actions)
    result: dict[str, Any] = {"game": HIDDEN_GAME, "rate": run.rate, "corpus": run.corpus, "target": HIDDEN_TARGET}
    result |= {"named": named, "hidden": hidden, "notes": sorted(set(run.notes))}
    for kind in ("", "_cpu", "_inner"):
        fast, slow = named["per_s" + kind], hidden["per_s" + kind]
        result["ratio" + kind] = fast / slow if fast and slow else None
    result["meets_target"] = result["ratio"] is not None and result["ratio"] <= HIDDEN_TARGET
    say(f"{HIDDEN_GAME} hidden cards: {result['ratio']:.2f}× the named file's check time")
    return result


def hidden_markdown(hidden: dict[str, Any]) -> list[str]:
    c = hidden["corpus"]
    return [
        f"Hidden cards ({hidden['game']}, judged exactly): the corpus's games with every dealt card named, and the"
        f" same games with {c['hidden']:,} of their {c['dealt']:,} dealt cards ({c['hidden'] / c['dealt']:.0%})"
        " written `?`; parse+check, startup subtracted (the check time of the `?` file ÷ the named file's, from wall"
        " time, CPU time and the job's own timed section):",
        "",
        "| corpus | named actions/s | with `?` actions/s | time ÷ named | CPU ÷ named | in-process ÷ named |"
        f" ≤ {hidden['target']}× |",
        "| --- | ---: | ---: | ---: | ---: | ---: | :---: |",
        f"| {c['games']:,} games, {c['actions']:,} actions | {_rate(hidden['named']['per_s'])} |"
        f" {_rate(hidden['hidden']['per_s'])} | {_ratio(hidden['ratio'])} | {_ratio(hidden['ratio_cpu'])} |"
        f" {_ratio(hidden['ratio_inner'])} | {'yes' if hidden['meets_target'] else 'no'} |",
    ]


# ---------------------------------------------------------------------------------------------------------------
# Machine and report


def cpu_times() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of the whole machine so far, all cores (Linux /proc/stat), or None."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except (OSError, IndexError):
        return None
    ticks = [int(x) for x in fields[:8]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = ticks[3] + ticks[4]
    return (sum(ticks) - idle) / tick, sum(ticks) / tick


def own_cpu() -> float:
    """CPU seconds of this process and every process it has waited for (the launchers and their jobs)."""
    import resource

    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


Snapshot = tuple[tuple[float, float] | None, float]


def other_load(before: Snapshot, after: Snapshot, elapsed: float) -> float | None:
    """Cores kept busy by other processes on average during the run (machine busy time less this run's own)."""
    if before[0] is None or after[0] is None or elapsed <= 0:
        return None
    busy = after[0][0] - before[0][0]
    ours = after[1] - before[1]
    return max(busy - ours, 0.0) / elapsed


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    except OSError:
        pass
    versions = {}
    for package in ("referee", "chess", "lark"):
        try:
            from importlib.metadata import version

            versions[package] = version(package)
        except Exception:
            versions[package] = "?"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": memory,
        "os": platform.platform(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "versions": versions,
    }


def _rate(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def _mib(value: float | None) -> str:
    return "–" if value is None else f"{value:,.1f}"


def _cores(value: float | None) -> str:
    return "?" if value is None else f"{value:.2f}"


def _ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}×"


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _seconds(samples: dict[str, Any] | None) -> str:
    return "–" if not samples else f"{samples['median_wall_s']:,.2f} s"


def scale_markdown(scale: dict[str, Any]) -> list[str]:
    """The scale table: one folder of many files, one job against every core, and on a Dask cluster."""
    folder, jobs, dask = scale["folder"], scale["jobs"], scale["dask"]
    runs = len(scale["jobs_1"]["wall_s"])
    if scale["jobs_n"] is None:
        many, speedup, ok = "–", "–", f"cannot be measured ({jobs} core)"
    else:
        many, speedup = _seconds(scale["jobs_n"]), _ratio(scale["speedup"])
        ok = "yes" if scale["meets_target"] else "no"
    if dask["measured"]:
        dask_wall, dask_same = _seconds(dask), "yes" if dask["identical"] else "no"
    else:
        dask_wall, dask_same = dask["reason"], "–"
    return [
        f"Scale: `referee check --format jsonl FOLDER` on one folder of every corpus cut into files of"
        f" {folder['games_per_file']} games: whole-process wall time, median of {runs} run(s) each, interleaved;"
        f" speed-up = `--jobs 1` ÷ `--jobs {jobs}` ({jobs}: the cores this process may use); identical: every"
        f" output byte for byte the first `--jobs 1` output. `--dask`: a local cluster of {jobs} single-threaded"
        " worker processes, started after the `--jobs` runs and kept for the `--dask` runs (the first includes"
        " the workers' imports):",
        "",
        f"| folder | `--jobs 1` | `--jobs {jobs}` | speed-up | ≥ {scale['target']}× | identical |"
        f" `--dask` ({jobs} workers) | `--dask` identical |",
        "| --- | ---: | ---: | ---: | :---: | :---: | ---: | :---: |",
        f"| {_count(folder['files'], 'file')}, {_count(folder['games'], 'game')}, {folder['bytes'] / 1e6:,.1f} MB |"
        f" {_seconds(scale['jobs_1'])} | {many} | {speedup} | {ok} | {'yes' if scale['identical'] else 'no'} |"
        f" {dask_wall} | {dask_same} |",
    ]


def live_markdown(live: dict[str, Any]) -> list[str]:
    """The live server's table: each client posts the lines of generated games to tables of its own, closed loop."""
    target = live["target_p99_ms"]
    out = [
        "The live server (`referee serve`, docs/live.md; `python -m bench.bench_live`): `POST /tables/{id}/lines` from"
        " 1, 8 and 32 concurrent clients, each sending the lines of generated games to tables of its own, the next"
        f" line once the last is acknowledged; every line committed to SQLite before its reply. {live['setup']}",
        "",
        f"| clients | lines | lines/s | p50 ms | p99 ms | max ms | server CPU ms/line | p99 < {target:g} ms |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: |",
    ]
    for row in live["rows"]:
        ok = "yes" if row["p99_ms"] < target else "no"
        out.append(
            f"| {row['clients']} | {row['lines']:,} | {row['lines_per_s']:,.0f} | {row['p50_ms']:.1f} |"
            f" {row['p99_ms']:.1f} | {row['max_ms']:.1f} | {row['cpu_ms_per_line']:.2f} |"
            f" {ok if row['clients'] == 32 else ''} |"
        )
    return out


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    chess = report["chess"]
    readings = chess["readings"]
    titles = {
        name: r["title"] + (" (the yardstick)" if name == chess["yardstick"] else " (context)")
        for name, r in readings.items()
    }
    out = [
        f"Measured {report['date']} with `{report['command']}` on {m['cpu']}, {m['cores']} cores, {m['memory']};"
        f" Python {m['python']}, referee {m['versions']['referee']}, lark {m['versions']['lark']},"
        f" python-chess {m['versions']['chess']}. Load average (1, 5, 15 min) before: {report['load_before']},"
        f" after: {report['load_after']}; other processes kept {_cores(report['other_load_cores'])} of the"
        f" {m['cores']} cores busy on average. {report['repeats']} run(s) of each job, each in a fresh process,"
        f" interleaved; medians. The whole run took {report['elapsed_s'] / 60:.1f} min.",
        "",
        f"python-chess reads {chess['games']:,} random games (≤ {chess['ply_cap']} plies), {chess['plies']:,} plies,"
        " of PGN: "
        + "; ".join(f"**{titles[name]}**: {r['how']}" for name, r in readings.items())
        + ". Every ratio divides by the yardstick's plies/s, each kind of rate by the same kind. This table:"
        ' whole process, each side\'s startup (`python -c "import referee.cli"`, `python -c "import chess.pgn"`)'
        " subtracted:",
        "",
        "| line | corpus | parse-only actions/s | parse+check actions/s | generator games/s |"
        " parse+check ÷ yardstick | ≥ 2× |",
        "| --- | --- | ---: | ---: | ---: | ---: | :---: |",
    ]
    for g in report["games"]:
        c = g["corpus"]
        ratio = g["ratio_check_to_chess"]
        out.append(
            f"| {g['game']} | {c['games']:,} games ({'/'.join(c['players'])} players), {c['actions']:,} actions |"
            f" {_rate(g['parse']['per_s'])} | {_rate(g['check']['per_s'])} | {g['generate']['per_s']:,.1f} |"
            f" {_ratio(ratio)} | {'yes' if ratio and ratio >= 2 else 'no'} |"
        )
    corpus = f"{chess['games']:,} random games, {chess['plies']:,} plies"
    for name, r in readings.items():
        out.append(
            f"| {titles[name]} | {corpus} | | {_rate(r['per_s'])} plies/s | | {_ratio(r['ratio_to_yardstick'])} | |"
        )
        corpus = "the same"
    out += [
        "",
        "The same from CPU time (user + system seconds of the process, the startup's subtracted; less sensitive to"
        " other load) and in-process (each job's own timed section, both sides: no interpreter start, no imports"
        " before it, no exit; the referee's includes importing the record's game and loading its grammar tables):",
        "",
        "| line | parse-only actions/s CPU | parse+check actions/s CPU | generator games/s CPU | ÷ yardstick CPU |"
        " parse-only in-process | parse+check in-process | generator in-process | ÷ yardstick in-process |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for g in report["games"]:
        gen = g["generate"]
        out.append(
            f"| {g['game']} | {_rate(g['parse']['per_s_cpu'])} | {_rate(g['check']['per_s_cpu'])} |"
            f" {gen['per_s_cpu'] or 0:,.1f} | {_ratio(g['ratio_check_to_chess_cpu'])} |"
            f" {_rate(g['parse']['per_s_inner'])} | {_rate(g['check']['per_s_inner'])} |"
            f" {gen['per_s_inner'] or 0:,.1f} | {_ratio(g['ratio_check_to_chess_inner'])} |"
        )
    for name, r in readings.items():
        out.append(
            f"| {titles[name]} | | {_rate(r['per_s_cpu'])} plies/s | | {_ratio(r['ratio_to_yardstick_cpu'])} |"
            f" | {_rate(r['per_s_inner'])} plies/s | | {_ratio(r['ratio_to_yardstick_inner'])} |"
        )
    sizes = [entry["games"] for entry in report["games"][0]["memory"]] if report["games"] else []
    if sizes:
        last, first = sizes[-1], sizes[0]
        out += [
            "",
            "Peak memory of `referee check FILE --format jsonl` (the kernel's ru_maxrss of that process, MiB), on files"
            " of the corpus's distinct games repeated in order up to the size (nothing renumbered):",
            "",
            "| game | " + " | ".join(f"{n:,} games" for n in sizes) + f" | {last:,} ÷ {first:,} |"
            f" < 150 MiB and ≤ 1.5× at {last:,} games |",
            "| --- | " + " | ".join("---:" for _ in sizes) + " | ---: | :---: |",
        ]
        for g in report["games"]:
            rss = [entry["peak_rss_mib"] for entry in g["memory"]]
            cells = " | ".join(
                f"{_mib(v)} ({e['bytes'] / 1e6:,.1f} MB, {e['wall_s']:,.1f} s)"
                for v, e in zip(rss, g["memory"], strict=True)
            )
            if None in rss:
                ratio_text, ok = "–", "–"
            else:
                ratio = rss[-1] / rss[0]
                ratio_text, ok = f"{ratio:.2f}×", "yes" if rss[-1] < 150 and ratio <= 1.5 else "no"
            out.append(f"| {g['game']} | {cells} | {ratio_text} | {ok} |")
    out += [
        "",
        "The live API (`referee.Table`, docs/live.md) against `check` on the same corpus: every game played into a"
        " table a line at a time (`Table.play`), as a scorekeeper enters it. Cost of a line = check's rate ÷ the"
        " table's (target: at most 1.5×):",
        "",
        "| game | table actions/s | check actions/s | cost per line | ≤ 1.5× | table in-process | check in-process |"
        " cost in-process |",
        "| --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: |",
    ]
    for g in report["games"]:
        cost = g["cost_table_to_check"]
        out.append(
            f"| {g['game']} | {_rate(g['table']['per_s'])} | {_rate(g['check']['per_s'])} | {_ratio(cost)} |"
            f" {'yes' if cost and cost <= 1.5 else 'no'} | {_rate(g['table']['per_s_inner'])} |"
            f" {_rate(g['check']['per_s_inner'])} | {_ratio(g['cost_table_to_check_inner'])} |"
        )
    dask_rows = [g for g in report["games"] if g.get("dask_memory")]
    if dask_rows:
        out += [
            "",
            "Peak memory with `--dask` (`referee check FILE --format jsonl --dask ADDRESS`; the kernel's peak resident"
            " memory of each process, MiB), a fresh cluster of a scheduler and single-threaded workers, each started"
            " apart with the `dask` command:",
            "",
            "| game | file | client | scheduler | largest worker | wall |",
            "| --- | --- | ---: | ---: | ---: | ---: |",
        ]
        for g in dask_rows:
            d = g["dask_memory"]
            if not d["measured"]:
                out.append(f"| {g['game']} | {d['games']:,} games | {d['reason']} | | | |")
                continue
            out.append(
                f"| {g['game']} | {d['games']:,} games ({d['bytes'] / 1e6:,.1f} MB), {d['workers']} workers |"
                f" {_mib(d['client_mib'])} | {_mib(d['scheduler_mib'])} | {_mib(d['worker_mib'])} |"
                f" {d['wall_s']:,.1f} s |"
            )
    if report.get("hidden"):
        out += ["", *hidden_markdown(report["hidden"])]
    if report.get("scale"):
        out += ["", *scale_markdown(report["scale"])]
    if report.get("live"):
        out += ["", *live_markdown(report["live"])]
    out += [
        "",
        "Startup (whole process, median):",
        "",
        "| command | wall | CPU | peak RSS |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, s in report["startup"].items():
        shown = name if name.startswith("referee") else f'python -c "{name}"'
        peak = max(s["maxrss_mib"]) if s["maxrss_mib"] else None
        cpu = s["median_cpu_s"]
        out.append(
            f"| `{shown}` | {s['median_wall_s'] * 1000:,.0f} ms | {'–' if cpu is None else f'{cpu * 1000:,.0f} ms'} |"
            f" {_mib(peak)} MiB |"
        )
    notes = [f"- {g['game']}: {note}" for g in report["games"] for note in g["notes"]]
    notes += [f"- hidden cards: {note}" for note in (report.get("hidden") or {}).get("notes", [])]
    notes += [f"- scale: {note}" for note in (report.get("scale") or {}).get("notes", [])]
    if notes:
        out += ["", "Notes:", "", *notes]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# Command line


def _positive(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number ≥ 1, not {value}")
    return value


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, not {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number above 0 and at most 1, not {value}")
    return value


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Benchmark every registered game of the referee against python-chess (docs/performance.md).",
    )
    parser.add_argument(
        "--actions", type=_positive, default=50_000, help="actions (actor lines) in each game's corpus (default 50000)"
    )
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--repeats", type=_positive, default=3, help="fresh-process runs of a job; median (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first seed of the generated games (default 1)")
    parser.add_argument(
        "--memory-games",
        default="100,10000",
        help="comma-separated game counts of the files whose peak memory is measured (default 100,10000)",
    )
    parser.add_argument("--chess-plies", type=_positive, help="plies in the python-chess corpus (default: --actions)")
    parser.add_argument("--chess-ply-cap", type=_positive, default=200, help="longest random chess game (default 200)")
    parser.add_argument(
        "--scale-files-games",
        type=_positive,
        default=10,
        metavar="N",
        help="games a file in the scale folder (--jobs and --dask on many files; default 10)",
    )
    parser.add_argument("--no-scale", action="store_true", help="skip the scale part (--jobs speed-up, --dask)")
    parser.add_argument(
        "--dask-memory-games",
        type=int,
        default=10_000,
        metavar="N",
        help="games in the file whose peak memory is measured with --dask, client, scheduler and worker apart"
        " (default 10000; 0: not measured; skipped with --no-scale)",
    )
    parser.add_argument("--no-live", action="store_true", help="skip the live server's throughput and latency")
    parser.add_argument(
        "--live-seconds", type=float, default=10.0, help="measured seconds per live-server run (default 10)"
    )
    parser.add_argument(
        "--hidden-rate",
        type=_share,
        default=0.4,
        metavar="P",
        help="share of the dealt cards written '?' in the hidden-card line (default 0.4)",
    )
    parser.add_argument("--no-hidden", action="store_true", help="skip the hidden-card line (Santorini: New York)")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the results table to FILE")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every number and sample to FILE as JSON")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the generated corpora in DIR")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress messages on stderr")
    args = parser.parse_args(argv)
    try:
        args.memory_games = sorted({_positive(part) for part in args.memory_games.split(",") if part.strip()})
    except argparse.ArgumentTypeError as exc:
        parser.error(f"--memory-games: {exc}")
    if not args.memory_games:
        parser.error("--memory-games: give at least one game count")
    args.chess_plies = args.chess_plies or args.actions
    return args


def check_dependencies() -> None:
    missing = []
    for module, package in (("chess.pgn", "chess (python-chess)"), ("referee.cli", "referee")):
        try:
            __import__(module)
        except ImportError:
            missing.append(package)
    if missing:
        raise BenchError(f"missing: {', '.join(missing)}. Install the benchmark's dependencies: {INSTALL_HINT}")


def compile_measured() -> None:
    """Byte-compile the referee's modules and the benchmark's own before measuring, as installing a package does (pip
    writes the ``.pyc`` files of python-chess and Lark at install time). An editable install under
    ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile every game module from source in every measured process,
    and python-chess would not; the chess jobs import bench/yardstick.py, compiled here for the same reason."""
    import compileall

    import referee

    for folder in (Path(referee.__file__).parent, Path(__file__).parent):
        if not compileall.compile_dir(str(folder), quiet=1):
            raise BenchError(f"could not byte-compile {folder}")


def select_games(names: str) -> list[str]:
    from referee.registry import GAMES, find_game

    if not GAMES:
        raise BenchError("no game is registered in the referee.games entry points (is referee installed?)")
    if not names.strip():
        return list(GAMES)
    chosen = []
    for name in names.split(","):
        game = find_game(name.strip())
        if game is None:
            raise BenchError(f"unknown game {name.strip()!r} (games: {', '.join(GAMES)})")
        if game.id not in chosen:
            chosen.append(game.id)
    return chosen


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    say = Progress(args.quiet)
    try:
        check_dependencies()
        compile_measured()
        game_ids = select_games(args.games)
        for target in (args.markdown, args.json):
            if target is not None and not target.parent.is_dir():
                raise BenchError(f"cannot write {target}: no folder {target.parent}")
        load_before = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
        cpu_before = (cpu_times(), own_cpu())
        work_dir = args.keep or Path(tempfile.mkdtemp(prefix="referee-bench-"))
        work_dir.mkdir(parents=True, exist_ok=True)
        try:
            measured = measure(args, game_ids, work_dir, say)
        finally:
            if args.keep is None:
                shutil.rmtree(work_dir, ignore_errors=True)
        load_after = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
        others = other_load(cpu_before, (cpu_times(), own_cpu()), time.perf_counter() - say.start)
    except BenchError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        return 130
    report = {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": shlex.join(["python", "-m", "bench", *(argv if argv is not None else sys.argv[1:])]),
        "machine": machine(),
        "load_before": load_before,
        "load_after": load_after,
        "other_load_cores": others,
        "repeats": args.repeats,
        "seed": args.seed,
        "actions": args.actions,
        "memory_games": args.memory_games,
        "scale_files_games": None if args.no_scale else args.scale_files_games,
        **measured,
        "elapsed_s": time.perf_counter() - say.start,
    }
    table = markdown(report)
    print(table)
    if args.markdown is not None:
        args.markdown.write_text(table, encoding="utf-8")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
