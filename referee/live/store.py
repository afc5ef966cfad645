"""Where the live tables are kept: one small interface (``Store``) and its embedded implementation on SQLite.

The server keeps live tables in memory and asks the store only to keep what it accepted, and to give a table back when
it is not in memory. Every change names the table's ``revision`` (how many changes it has had) and is refused with
``Conflict`` when the stored table has had another change meanwhile: that is all a store needs to be shared by several
server processes (a PostgreSQL store, later), each of which may hold an out-of-date copy of a table in memory.

``SQLiteStore`` keeps tables in one SQLite file (the standard library's ``sqlite3``) in WAL mode with
``synchronous=FULL``: a change is on disk when it is acknowledged, so neither a killed process nor a power loss loses
it. One thread owns the connection and commits the changes that arrive together in one transaction (a group commit), so
many clients cost one disk sync, not one each.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar

T = TypeVar("T")

APPLICATION_ID = 0x52454652  # "REFR": PRAGMA application_id of a referee table database
SCHEMA_VERSION = 1
BATCH_LIMIT = 512  # changes committed together at most


class StoreError(Exception):
    """The store cannot do what was asked (a file that is no referee database, a full disk): for people."""


class Conflict(StoreError):
    """The stored table has changed since the revision the change was judged against (another process took a line
    first), or the line is not where it was said to be."""


@dataclass(frozen=True)
class TableRow:
    """What is kept of a table besides its lines: how it was set up, and its tokens as hashes only."""

    id: str
    game: str
    players: tuple[str, ...]
    tags: dict[str, str]
    host_hash: str
    seat_hashes: dict[str, str]  # player -> hash of the seat's token
    created: float


@dataclass(frozen=True)
class StoredTable:
    """A table as the store has it: its row, its accepted lines in order, and its revision."""

    row: TableRow
    lines: list[str]
    revision: int


class Store(Protocol):
    """What the live referee needs of a database. Every change is durable when the call returns."""

    async def create(self, row: TableRow) -> None:
        """Keep a new table (revision 0, no line)."""

    async def load(self, table_id: str) -> StoredTable | None:
        """The table with this id, or None."""

    async def append(self, table_id: str, revision: int, number: int, text: str) -> None:
        """Keep line ``number`` (1-based) of a table at ``revision``; ``Conflict`` when the table is at another
        revision. The table is then at ``revision + 1``."""

    async def remove_last(self, table_id: str, revision: int, number: int) -> None:
        """Withdraw the last line, ``number``, of a table at ``revision``; ``Conflict`` as for ``append``."""

    def close(self) -> None:
        """Finish the changes under way and let the database go."""


SCHEMA = """
CREATE TABLE IF NOT EXISTS live_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,      -- JSON list, seat order
    tags TEXT NOT NULL,         -- JSON object
    host_hash TEXT NOT NULL,
    seat_hashes TEXT NOT NULL,  -- JSON object: player -> hash
    created REAL NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0,
    line_count INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS live_lines (
    table_id TEXT NOT NULL REFERENCES live_tables(id),
    number INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
) WITHOUT ROWID;
"""


@dataclass
class _Job:
    work: Callable[[sqlite3.Connection], Any]
    future: Future[Any]
    writes: bool


class SQLiteStore:
    """Tables in one SQLite file. ``open`` checks the file at once (a file that is no SQLite database, or another
    program's database, is refused with a ``StoreError`` saying so) and takes it for this process alone: a second
    server on the same file is refused, as two processes would each keep their own copy of a table in memory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock_fd: int | None = None

    @classmethod
    def open(cls, path: Path) -> Self:
        store = cls(path)
        ready: Future[None] = Future()
        store._thread = threading.Thread(target=store._run, args=(ready,), name="referee-store", daemon=True)
        store._thread.start()
        ready.result()
        return store

    # -- the interface -------------------------------------------------------------------------------------------
    async def create(self, row: TableRow) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO live_tables (id, game, players, tags, host_hash, seat_hashes, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.game,
                    json.dumps(list(row.players), ensure_ascii=False),
                    json.dumps(row.tags, ensure_ascii=False),
                    row.host_hash,
                    json.dumps(row.seat_hashes, ensure_ascii=False),
                    row.created,
                ),
            )

        await self._submit(work, writes=True)

    async def load(self, table_id: str) -> StoredTable | None:
        def work(db: sqlite3.Connection) -> StoredTable | None:
            found = db.execute(
                "SELECT id, game, players, tags, host_hash, seat_hashes, created, revision FROM live_tables "
                "WHERE id = ?",
                (table_id,),
            ).fetchone()
            if found is None:
                return None
            lines = [
                text
                for (text,) in db.execute(
                    "SELECT text FROM live_lines WHERE table_id = ? ORDER BY number", (table_id,)
                ).fetchall()
            ]
            row = TableRow(
                found[0],
                found[1],
                tuple(json.loads(found[2])),
                json.loads(found[3]),
                found[4],
                json.loads(found[5]),
                found[6],
            )
            return StoredTable(row, lines, found[7])

        return await self._submit(work, writes=False)

    async def append(self, table_id: str, revision: int, number: int, text: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            _advance(db, table_id, revision, number - 1, number)
            db.execute("INSERT INTO live_lines (table_id, number, text) VALUES (?, ?, ?)", (table_id, number, text))

        await self._submit(work, writes=True)

    async def remove_last(self, table_id: str, revision: int, number: int) -> None:
        def work(db: sqlite3.Connection) -> None:
            _advance(db, table_id, revision, number, number - 1)
            db.execute("DELETE FROM live_lines WHERE table_id = ? AND number = ?", (table_id, number))

        await self._submit(work, writes=True)

    def close(self) -> None:
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join()
            self._thread = None

    # -- the store's thread --------------------------------------------------------------------------------------
    async def _submit(self, work: Callable[[sqlite3.Connection], T], *, writes: bool) -> T:
        if self._thread is None:
            raise StoreError("the table store is closed")
        future: Future[T] = Future()
        self._jobs.put(_Job(work, future, writes))
        return await asyncio.wrap_future(future)

    def _run(self, ready: Future[None]) -> None:
        try:
            db = self._connect()
        except BaseException as exc:
            self._thread = None
            ready.set_exception(exc)
            return
        ready.set_result(None)
        try:
            while (job := self._jobs.get()) is not None:
                batch = [job]
                while len(batch) < BATCH_LIMIT:
                    try:
                        more = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        self._jobs.put(None)  # stop once this batch is done
                        break
                    batch.append(more)
                self._commit(db, batch)
        finally:
            db.close()
            while True:  # asked for after the store closed: answered, never left waiting
                try:
                    late = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if late is not None and late.future.set_running_or_notify_cancel():
                    late.future.set_exception(StoreError("the table store is closed"))
            if self._lock_fd is not None:
                os.close(self._lock_fd)  # after the connection: closing it drops the process's locks on the file

    def _commit(self, db: sqlite3.Connection, batch: list[_Job]) -> None:
        """Run a batch in one transaction, each job in a savepoint of its own (a conflict undoes that job only), and
        answer each job once the transaction is committed."""
        results: list[tuple[_Job, Any, BaseException | None]] = []
        try:
            batch = [job for job in batch if job.future.set_running_or_notify_cancel()]  # not those given up on
            if not batch:
                return
            db.execute("BEGIN IMMEDIATE" if any(job.writes for job in batch) else "BEGIN")
            for job in batch:
                db.execute("SAVEPOINT job")
                try:
                    results.append((job, job.work(db), None))
                except (Conflict, sqlite3.IntegrityError) as exc:
                    db.execute("ROLLBACK TO job")
                    results.append((job, None, exc if isinstance(exc, Conflict) else Conflict(str(exc))))
                except sqlite3.Error:
                    raise  # the database itself failed: the whole batch fails
                except Exception as exc:  # a bug in one job: that job fails, the others go on
                    db.execute("ROLLBACK TO job")
                    results.append((job, None, exc))
                db.execute("RELEASE job")
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            failure = StoreError(f"the table database could not be written ({exc})")
            for job in batch:
                job.future.set_exception(failure)
            return
        for job, result, error in results:
            if error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(result)

    def _connect(self) -> sqlite3.Connection:
        shown = str(self.path)
        if self.path.is_dir():
            raise StoreError(f"{shown} is a folder, not a database file")
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"{shown}: cannot open the database ({exc})") from None
        try:
            self._take(db)
            return db
        except BaseException:
            db.close()
            if self._lock_fd is not None:
                os.close(self._lock_fd)
                self._lock_fd = None
            raise

    def _take(self, db: sqlite3.Connection) -> None:
        shown = str(self.path)
        try:
            application_id = db.execute("PRAGMA application_id").fetchone()[0]
            objects = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{shown} is not a referee table database ({exc})") from None
        if objects and application_id != APPLICATION_ID:
            raise StoreError(f"{shown} is another program's SQLite database, not a referee table database")
        self._lock_fd = _lock(self.path)
        try:
            db.execute("PRAGMA busy_timeout = 5000")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{shown}: the database cannot be put in WAL mode (journal mode {mode})")
            db.execute("PRAGMA synchronous = FULL")  # every commit synced: an acknowledged line survives a power loss
            db.execute("PRAGMA foreign_keys = ON")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{shown} was written by a newer referee (schema {version}; this one reads 1)")
            db.executescript(
                f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; "
                f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            )
        except sqlite3.Error as exc:
            raise StoreError(f"{shown}: cannot use the database ({exc})") from None


def _advance(db: sqlite3.Connection, table_id: str, revision: int, lines_before: int, lines_after: int) -> None:
    """Move a table from ``revision`` (with ``lines_before`` lines) to the next revision, or raise ``Conflict``."""
    changed = db.execute(
        "UPDATE live_tables SET revision = revision + 1, line_count = ? "
        "WHERE id = ? AND revision = ? AND line_count = ?",
        (lines_after, table_id, revision, lines_before),
    ).rowcount
    if changed != 1:
        raise Conflict(f"table {table_id} has changed since revision {revision}")


def _lock(path: Path) -> int | None:
    """Take the database file for this process (an advisory lock, separate from SQLite's own locks); a second
    server on the same file is refused. None where the system has no such locks."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise StoreError(f"{path} is in use by another referee server (one server per database file)") from None
    return fd
