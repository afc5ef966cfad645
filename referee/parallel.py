"""Judging on every core, and past one machine on a Dask cluster — with the reports of one job, in the same order.

The work is cut into units: a record file, or a slice of the games of a large file (so one big file uses every core
too). Units are judged in worker processes and their reports come back in input order (``imap``), as they are ready,
so output streams and is byte-for-byte the output of one job. Workers are forked: they start with the parent's
imported modules and compiled grammars (every game's, loaded first: ``preload_games``), and each keeps its own
bounded parse caches.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from referee.errors import JobFailed
from referee.record import GameRecord, iter_games
from referee.registry import GAMES
from referee.replay import GameReport, RecordSource, Referee
from referee.resources import ReadRefused

Item = TypeVar("Item")
Result = TypeVar("Result")

BIG_FILE = 4 * 1024 * 1024  # bytes: a file this large is cut into slices of games
GAMES_PER_SLICE = 200  # at most this many games a slice
SLICE_CHARS = 256 * 1024  # and about this much record text: a window of slices in flight stays a few MB


@dataclass(frozen=True)
class Slice:
    """Some consecutive games of one file (already split by the parent)."""

    source: RecordSource
    games: tuple[GameRecord, ...]


@dataclass(frozen=True)
class Batch:
    """Some consecutive small files: one task for many, so a folder of many small records does not pay a round trip
    to a worker (and a report list pickled back) per file."""

    sources: tuple[RecordSource, ...]


Unit = RecordSource | Slice | Batch
BATCH_FILES = 64  # at most this many small files a task


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def units(sources: Iterable[RecordSource], referee: Referee) -> Iterator[Unit]:
    """The units of work, in input order: small files together in batches of about ``SLICE_CHARS`` bytes, large files
    as slices of games (read as they go)."""
    batch_files: list[RecordSource] = []
    batch_bytes = 0
    for source in sources:
        size = _size(source)
        if source.problem is not None or (source.path is not None and size < BIG_FILE):
            batch_files.append(source)
            batch_bytes += size
            if batch_bytes >= SLICE_CHARS or len(batch_files) >= BATCH_FILES:
                yield _batched(batch_files)
                batch_files, batch_bytes = [], 0
            continue
        if batch_files:
            yield _batched(batch_files)
            batch_files, batch_bytes = [], 0
        try:
            lines = source.lines(referee.policy)
        except ReadRefused:  # the worker reports it as it would for one job
            yield source
            continue
        batch: list[GameRecord] = []
        chars = 0
        sliced = False
        try:
            for record in iter_games(lines, source.display):
                batch.append(record)
                chars += sum(len(text) for _, text in record.body if isinstance(text, str))
                if len(batch) >= GAMES_PER_SLICE or chars >= SLICE_CHARS:
                    yield Slice(source, tuple(batch))
                    batch, chars, sliced = [], 0, True
        except ReadRefused as refused:
            if batch:
                yield Slice(source, tuple(batch))
            yield dataclasses.replace(source, problem=f"the rest of the file: {refused.reason}")
            continue
        if batch:
            yield Slice(source, tuple(batch))
        elif not sliced:  # no game at all: the file itself, reported as one job reports it
            yield source
    if batch_files:
        yield _batched(batch_files)


def _batched(sources: list[RecordSource]) -> Unit:
    return sources[0] if len(sources) == 1 else Batch(tuple(sources))


def _size(source: RecordSource) -> int:
    try:
        return source.path.stat().st_size if source.path is not None else 0
    except OSError:
        return 0


def judge_unit(referee: Referee, unit: Unit) -> list[GameReport]:
    """The reports of one unit (what a worker does)."""
    if isinstance(unit, Slice):
        reports = []
        for record in unit.games:
            report = referee.judge(record, unit.source.record_dir)
            report.key = unit.source.key
            reports.append(report)
        return reports
    if isinstance(unit, Batch):
        return [report for source in unit.sources for report in referee.judge_source(source)]
    return list(referee.judge_source(unit))


_TASK: tuple[Callable[[Referee, Any], list[Any]], Referee] | None = None


def _start_worker(task: Callable[[Referee, Any], list[Any]], referee: Referee, parent: int) -> None:
    """A worker leaves interrupts to the parent (Ctrl-C reaches the whole process group: the parent stops the
    workers, none prints a traceback), and ends when the parent is gone (killed) instead of waiting for work."""
    global _TASK
    _TASK = (task, referee)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_end_with_parent, args=(parent,), daemon=True).start()


def _end_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.1)  # a system call ten times a second: nothing, beside judging
    os._exit(0)


def _work(item: Any) -> list[Any]:
    assert _TASK is not None
    task, referee = _TASK
    return task(referee, item)


class WorkersLost(JobFailed):
    """Worker processes died (killed by the system, e.g. out of memory) again and again on the same work."""


RETRIES = 2  # a unit whose worker dies is judged again on new workers this many times before the run gives up


def in_order(
    task: Callable[[Referee, Item], list[Result]], items: Iterable[Item], referee: Referee, jobs: int
) -> Iterator[Result]:
    """``task(referee, item)`` for every item on ``jobs`` processes (``task`` a module-level function), the results
    yielded in input order as soon as they are ready; a bounded window of items in flight keeps memory flat.

    A worker that dies (the out-of-memory killer, a stray ``kill -9``) breaks the pool: the items it and the others
    held are judged again on a new pool, so the output is the same as with one job; when that happens ``RETRIES``
    times in a row without progress, ``WorkersLost``. However the run ends (done, an error, Ctrl-C or SIGTERM), the
    workers are stopped before this returns: none is left running or printing."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    window = 2 * jobs  # items in flight: enough to keep every worker busy, few enough to keep memory flat

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(jobs, context, initializer=_start_worker, initargs=(task, referee, os.getpid()))

    source = iter(items)
    pending: deque[tuple[Item, Future[list[Result]]]] = deque()
    pool = new_pool()
    failures = 0
    try:
        while True:
            while len(pending) < window and (item := next(source, _END)) is not _END:
                pending.append((item, _submit(pool, item)))
            if not pending:
                return
            try:
                results = _result(pool, pending[0][1])
            except BrokenProcessPool as broken:
                failures += 1
                if failures > RETRIES:
                    raise WorkersLost(
                        f"worker processes were killed {failures} times on the same work (out of memory?); "
                        "try fewer --jobs"
                    ) from broken
                _stop(pool)
                pool = new_pool()
                pending = deque((item, _again(pool, item, done)) for item, done in pending)
                continue
            pending.popleft()
            failures = 0
            yield from results
    finally:
        _stop(pool)


_END: Any = object()
WATCH_EVERY = 0.25  # seconds between looks at the workers while a result is awaited


def _result(pool: ProcessPoolExecutor, future: Future[Any]) -> Any:
    """A unit's result, or ``BrokenProcessPool`` as soon as a worker of the pool is found dead.

    The pool's own thread notices a dead worker only between messages: a worker killed while it wrote a result larger
    than the pipe holds (a report page's file, megabytes; the out-of-memory killer strikes where memory peaks) leaves
    half a message, and that thread waits for the rest for ever — this process holds a writing end of the pipe too —
    so the run hung. Looking at the workers from here breaks that wait: ``_stop`` closes the pipe and a new pool
    judges the lost work again."""
    while True:
        try:
            return future.result(timeout=WATCH_EVERY)
        except TimeoutError:
            processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way (3.11)
            if any(process.exitcode is not None for process in processes):
                raise BrokenProcessPool("a worker process died") from None


def _submit(pool: ProcessPoolExecutor, item: Any) -> Future[Any]:
    """The unit sent to the pool; a pool broken already gives a future that says so (the unit is sent again)."""
    try:
        return pool.submit(_work, item)
    except BrokenProcessPool as broken:
        failed: Future[Any] = Future()
        failed.set_exception(broken)
        return failed


def _again(pool: ProcessPoolExecutor, item: Any, done: Future[Any]) -> Future[Any]:
    """A unit's result when its worker finished it before the pool broke, else the unit sent to the new pool."""
    if done.done() and not done.cancelled() and done.exception() is None:
        return done
    return _submit(pool, item)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: its workers are killed (not waited for: a unit of a huge file may take a while), the work
    not started is dropped, and the pool's own thread is joined, so nothing is left running at exit.

    A worker killed while it wrote a result leaves half a message in the result pipe, which the pool's thread then
    waits to read in full — forever, since this process holds a writing end of that pipe too (a Ctrl-C at the wrong
    moment hung the run, about one time in thirty). That end is closed once the workers are killed: the read ends,
    the pool is broken, its thread stops. Nor is the work still queued for the dead workers waited for."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # no public way to stop them (3.11)
    for process in workers:
        with contextlib.suppress(OSError, AttributeError):
            process.kill()
    if workers:
        with contextlib.suppress(OSError, AttributeError):
            pool._result_queue._writer.close()  # type: ignore[attr-defined]
        with contextlib.suppress(AttributeError):
            pool._call_queue.cancel_join_thread()  # type: ignore[attr-defined]
    pool.shutdown(wait=True, cancel_futures=True)


def judge_parallel(sources: Iterable[RecordSource], referee: Referee, jobs: int) -> Iterator[GameReport]:
    """Every game of ``sources`` judged on ``jobs`` processes, reported in input order as soon as it is ready."""
    if jobs <= 1:  # one process: every file read and judged a game at a time, nothing cut into slices
        for source in sources:
            yield from referee.judge_source(source)
        return
    work = units(sources, referee)
    first = list(itertools.islice(work, 2))
    if len(first) < 2:  # one unit: no process is worth starting
        for unit in itertools.chain(first, work):
            yield from judge_unit(referee, unit)
        return
    preload_games()
    yield from in_order(judge_unit, itertools.chain(first, work), referee, jobs)


def preload_games() -> None:
    """Import every game and load its grammar tables in the parent before the workers fork, so that they start with
    them. Else each worker imports and loads every game it meets, and the parent imports them too, beside the
    workers, when it unpickles their reports (a report's outcome names its game's own kinds of ending): measured on
    a folder of all three games, 0.1-0.3 s less wall time with two workers, and no loss on a folder of one game."""
    for game in GAMES.each_loadable():
        try:
            game.parser()
        except Exception:  # a hint only: a game that fails here fails where a record names it
            continue


class ClusterFailed(JobFailed):
    """The Dask cluster could not be reached, or failed during the run (its scheduler stopped, workers kept dying)."""


CONNECT_TIMEOUT = 10  # seconds to reach a scheduler that accepts the connection; a refused connection fails at once


def judge_on_dask(sources: Iterable[RecordSource], referee: Referee, address: str) -> Iterator[GameReport]:
    """Every game of ``sources`` judged on a Dask distributed cluster (the scheduler at ``address``), in input order.

    The workers read the record files themselves, by their absolute paths as this process sees them: run them where
    the files are visible at the same paths (a shared folder). Large files and standard input are sliced here and
    their games scattered to the workers (``_on_dask``). A bounded window of units is in flight, so memory stays flat
    on this side, on the scheduler and on the workers, whatever the size of a file."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - depends on the installation
        raise ClusterFailed("--dask needs Dask distributed: pip install 'referee[dask]'") from None
    _check_reachable(address)
    with _connect(Client, address) as client:
        threads = sum(client.nthreads().values())
        window = max(4, 2 * threads)
        pending: deque[tuple[Unit, Any]] = deque()
        for unit in units(map(_absolute, sources), referee):
            pending.append((unit, _on_dask(client, referee, unit)))
            if len(pending) >= window:
                yield from _dask_result(client, referee, *pending.popleft(), address)
        while pending:
            yield from _dask_result(client, referee, *pending.popleft(), address)


def _on_dask(client: Any, referee: Referee, unit: Unit) -> Any:
    """A unit submitted. A slice's games (record text) are scattered to a worker first and the task names them: a
    task's own arguments travel in the scheduler's messages to the worker, and the scheduler keeps its last thousand
    messages to each worker under 1 MB (``distributed.admin.low-level-log-length``, for debugging) — with the text
    inside, up to a gigabyte per worker (measured: 1.27 GiB for a 240 MB file before this)."""
    if not isinstance(unit, Slice):
        return client.submit(judge_unit, referee, unit, pure=False)
    for attempt in range(SCATTER_TRIES):
        try:
            games = client.scatter(unit, hash=False)
            break
        except Exception as exc:  # the worker it went to died; the scheduler drops it in a moment
            if attempt == SCATTER_TRIES - 1 or client.status != "running":
                raise ClusterFailed(f"cannot send work to the Dask cluster: {_reason(exc)}") from None
            time.sleep(0.2 * (attempt + 1))
    return client.submit(judge_unit, referee, games, pure=False)


SCATTER_TRIES = 5  # a slice sent again to another worker after 0.2, 0.4, ... s (2 s in all)


def _absolute(source: RecordSource) -> RecordSource:
    """A source named by its absolute path (shown and keyed as the user wrote it): a worker elsewhere, in another
    working folder, opens the file this process means, or none — never another file of the same relative name."""
    if source.path is None or source.path.is_absolute():
        return source
    return dataclasses.replace(source, path=source.path.absolute())


def _dask_result(client: Any, referee: Referee, unit: Unit, future: Any, address: str) -> list[GameReport]:
    """A unit's reports. Dask judges a task again when its worker dies, but a slice's scattered games die with the
    worker that held them: that unit is scattered and submitted again (``RETRIES`` times)."""
    for attempt in range(RETRIES + 1):
        try:
            result: list[GameReport] = future.result()
            return result
        except Exception as exc:  # the scheduler went away, workers kept dying (KilledWorker), the connection broke
            if attempt == RETRIES or client.status != "running" or not isinstance(unit, Slice):
                raise ClusterFailed(f"the Dask cluster at {address} failed during the run: {_reason(exc)}") from None
            future = _on_dask(client, referee, unit)
    raise AssertionError("unreachable")  # pragma: no cover


def _connect(client_class: Any, address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or ``ClusterFailed``.

    Dask's own timeout covers the connection, not the handshake after it: something that accepts connections and
    never answers (not a scheduler, a firewall's tarpit) held the run for minutes, and one that answers in another
    protocol failed deep inside Dask, whose half-made client then spent 20 s and a traceback closing itself at exit.
    So the scheduler is asked who it is first (``_identity``), within ``CONNECT_TIMEOUT``; only a scheduler gets a
    client."""
    import asyncio

    try:
        identity = asyncio.run(asyncio.wait_for(_identity(address), CONNECT_TIMEOUT))
    except TimeoutError:
        raise ClusterFailed(
            f"cannot reach the Dask scheduler at {address}: no answer within {CONNECT_TIMEOUT} s (is it one?)"
        ) from None
    except OSError as exc:
        raise ClusterFailed(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}") from None
    except Exception as exc:  # whatever the other end made Dask raise: it is not a scheduler we can use
        raise ClusterFailed(f"{address} does not answer as a Dask scheduler ({_reason(exc)})") from None
    if not isinstance(identity, dict) or identity.get("type") != "Scheduler":
        raise ClusterFailed(f"{address} is not a Dask scheduler (it answered {str(identity)[:60]!r})")
    try:
        return client_class(address, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except Exception as exc:  # it stopped in the meantime
        raise ClusterFailed(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}") from None


async def _identity(address: str) -> Any:
    """What the Dask server at ``address`` says it is (a scheduler answers ``{"type": "Scheduler", ...}``)."""
    from distributed.comm import connect

    comm = await connect(address, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _check_reachable(address: str) -> None:
    """Fail at once when nothing listens at a TCP scheduler address (Dask itself would retry until its timeout)."""
    if "://" in address and not address.startswith("tcp://"):
        return  # another transport (tls, inproc, ucx): Dask's own timeout applies
    host, _, port = address.removeprefix("tcp://").rpartition(":")
    try:
        with socket.create_connection((host.strip("[]") or "localhost", int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except ValueError:
        raise ClusterFailed(f"{address!r} is not a scheduler address (e.g. tcp://10.0.0.5:8786)") from None
    except OSError as exc:
        raise ClusterFailed(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    """An exception in a few words: the system's reason, or its kind and the first line of its message."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
