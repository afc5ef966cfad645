"""The live tables of one server: judged in memory, kept in a ``Store``, watched by spectators.

Each table is a ``referee.Table`` in a bounded cache (least recently used first out), rebuilt from the store when it
is not there. The requests of one table take turns (a lock per table): a line is judged, committed to the store, and
only then answered and sent to the table's event streams; a line the store could not keep is forgotten with the
table's copy in memory, which the next request rebuilds from the store. Judging runs on one thread of its own (the
referee's caches are shared by the tables of a game), so the event loop stays free for the other requests.

Nothing here knows HTTP: a refusal is an ``ApiError`` with the status and the JSON error the contract names
(``/work/shared/spec/live-api.md``, docs/live.md); ``referee.live.app`` turns the calls into routes.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from referee.errors import RefereeError
from referee.game import GameState
from referee.record import excerpt, quote_player
from referee.registry import GAMES, find_game
from referee.resources import ReadPolicy
from referee.table import Table, TableError, line_as_read

from .access import Holder, holder_of, line_player, new_token, token_hash
from .store import Conflict, Store, StoredTable, StoreError, TableRow

T = TypeVar("T")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_PLAYERS = 64  # names in a request's player list (the games allow far fewer; this bounds the work of refusing)
STREAM_BACKLOG = 1024  # events a spectator may fall behind by before its stream is ended
QUICK_LINE = 256  # characters: a line this short (every line a person writes) is judged on the event loop's thread


class ApiError(Exception):
    """A refusal: the HTTP status and the JSON error body ``{"error": {"kind", "code", "message", ...}}``."""

    def __init__(self, status: int, kind: str, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.kind, self.code, self.message, self.extra = status, kind, code, message, extra

    def body(self) -> dict[str, Any]:
        return {"error": {"kind": self.kind, "code": self.code, "message": self.message, **self.extra}}


def bad_request(code: str, message: str) -> ApiError:
    return ApiError(400, "bad-request", code, message)


@dataclass
class LiveTable:
    """A table in memory: how it is stored, the judged game, and the store's revision it matches."""

    row: TableRow
    table: Table
    revision: int


@dataclass(frozen=True)
class Created:
    row: TableRow
    host_token: str
    seat_tokens: dict[str, str]


class Subscription:
    """One spectator's event stream: the events not yet sent, in order; ended when the server shuts down or the
    spectator falls too far behind."""

    def __init__(self, backlog: int = STREAM_BACKLOG) -> None:
        self.pending: deque[bytes] = deque()
        self.backlog = backlog
        self.ended: str | None = None
        self._ready = asyncio.Event()

    def push(self, event: bytes) -> None:
        if self.ended is not None:
            return
        if len(self.pending) >= self.backlog:
            self.end(f"the stream fell more than {self.backlog} events behind; read the table and open a new one")
            return
        self.pending.append(event)
        self._ready.set()

    def end(self, reason: str) -> None:
        if self.ended is None:
            self.ended = reason
            self._ready.set()

    async def next(self, heartbeat: float) -> bytes | None:
        """The next event (those already pushed come before the end); ``None`` when ``heartbeat`` seconds passed
        without one; ``b""`` when the stream ends."""
        while not self.pending and self.ended is None:
            self._ready.clear()
            try:
                await asyncio.wait_for(self._ready.wait(), heartbeat)
            except TimeoutError:
                return None
        if self.pending:
            return self.pending.popleft()
        return b""


def sse(event: str, data: Mapping[str, Any]) -> bytes:
    """One server-sent event (the JSON is one line: no newline can break the framing)."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


KEEP_ALIVE = b": keep-alive\n\n"


class TableService:
    """Every operation of the contract on the tables of one store. ``cache`` live tables are kept in memory;
    ``policy`` is what a table's tags may make the referee read (registered variants, boards and deck lists only,
    unless widened) and how large a table's record may grow; ``heartbeat`` seconds between keep-alive comments on an
    event stream; at most ``streams_per_table`` open streams per table."""

    def __init__(
        self,
        store: Store,
        *,
        policy: ReadPolicy,
        cache: int = 256,
        heartbeat: float = 15.0,
        streams_per_table: int = 64,
    ) -> None:
        self.store = store
        self.policy = policy
        self.cache_size = cache
        self.heartbeat = heartbeat
        self.streams_per_table = streams_per_table
        self._cache: OrderedDict[str, LiveTable] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._streams: dict[str, set[Subscription]] = {}
        self._judge = ThreadPoolExecutor(max_workers=1, thread_name_prefix="referee-judge")
        self._judging = threading.Lock()  # held while referee code runs: one table at a time, on either thread
        self._closing: str | None = None

    # -- the contract's operations ---------------------------------------------------------------------------------
    async def create(self, game_name: str, players: Sequence[str], tags: Mapping[str, str]) -> Created:
        game = find_game(game_name)
        if game is None:
            titles = ", ".join(f"{g.id} ({g.title})" for g in GAMES.values())
            raise bad_request("unknown-game", f"unknown game {excerpt(game_name)} (games: {titles})")
        if not players:
            raise bad_request("bad-players", "the list of players is empty: name every player, in seat order")
        if len(players) > MAX_PLAYERS:
            raise bad_request(
                "bad-players",
                f"{game.title} is played by {game.min_players} to {game.max_players} players, not {len(players)}",
            )

        def make() -> Table:
            try:
                return Table(game, players, tags, policy=self.policy)
            except TableError as error:
                raise bad_request("bad-table", str(error)) from None
            except RefereeError as error:  # the setup the rules refuse: what check says at the tag
                raise bad_request(error.code, error.message) from None

        table = await self._run(make)
        host_token = new_token()
        seat_tokens = {player: new_token() for player in table.players}
        row = TableRow(
            id=secrets.token_urlsafe(12),
            game=game.id,
            players=table.players,
            tags=dict(tags),
            host_hash=token_hash(host_token),
            seat_hashes={player: token_hash(token) for player, token in seat_tokens.items()},
            created=time.time(),
        )
        await self._store(self.store.create(row))
        self._keep(LiveTable(row, table, 0))
        return Created(row, host_token, seat_tokens)

    async def play(self, table_id: str, token: str | None, text: str, expect: int | None) -> dict[str, Any]:
        """Judge one line and keep it: the reply of ``POST /tables/{id}/lines``. The line is read, judged, stored and
        sent to the streams as ``check`` reads it in a record file (``line_as_read``)."""
        text = line_as_read(text)
        async with self._hold(table_id, token) as (live, holder):
            table = live.table

            def judge() -> dict[str, Any]:
                if not holder.is_host:
                    owner = line_player(table.game, table.state.seats, text)
                    if owner != holder.seat:
                        raise _not_the_seats(table, holder.seat or "", owner, text)
                _expect(table, expect)
                try:
                    table.play(text)
                except TableError as error:
                    raise bad_request("not-a-line", str(error)) from None
                except RefereeError as error:
                    raise _refusal(error, table) from None
                return {"number": len(table), **_standing(table)}

            reply = await self._run(judge, quick=len(text) <= QUICK_LINE)
            await self._commit(live, self.store.append(table_id, live.revision, reply["number"], text))
            self._publish(table_id, "line", {"number": reply["number"], "text": text, **_ending(reply)})
            return reply

    async def undo(self, table_id: str, token: str | None, expect: int | None) -> dict[str, Any]:
        """Withdraw the last line: the reply of ``DELETE /tables/{id}/lines/last``."""
        async with self._hold(table_id, token) as (live, holder):
            table = live.table
            if not holder.is_host:
                raise ApiError(403, "forbidden", "host-only", "only the host's token withdraws a line")
            _expect(table, expect)
            if not len(table):
                raise ApiError(409, "conflict", "no-lines", "the table has no line to withdraw", lines=0)
            number, text = len(table), table.lines[-1]
            await self._commit(live, self.store.remove_last(table_id, live.revision, number))

            def withdraw() -> dict[str, Any]:
                table.undo()
                return {"number": number, "text": text, "lines": len(table), **_standing(table)}

            try:
                reply = await self._run(withdraw)
            except BaseException:
                self._forget(table_id)
                raise
            self._publish(table_id, "undo", {"number": number, "text": text, **_ending(reply)})
            return reply

    async def view(self, table_id: str, token: str | None) -> dict[str, Any]:
        """The table as ``GET /tables/{id}`` shows it."""
        async with self._hold(table_id, token) as (live, holder):
            table, row = live.table, live.row

            def look() -> dict[str, Any]:
                picture, problem = _picture(table)
                return {
                    "id": row.id,
                    "game": table.game.id,
                    "title": table.game.title,
                    "players": list(table.players),
                    "tags": dict(row.tags),
                    "ruleset": table.ruleset,
                    "lines": list(table.lines),
                    **_standing(table),
                    "state": table.summary(),
                    "picture": picture,
                    **({"picture_problem": problem} if problem else {}),
                    "seat": holder.seat,
                }

            return await self._run(look, quick=True)

    async def legal(self, table_id: str, token: str | None, prefix: str) -> dict[str, Any]:
        """Every statement legal now that starts with ``prefix`` (``GET /tables/{id}/legal``): ``legal`` in the other
        replies may be shortened (Santorini's turns), this never is."""
        async with self._hold(table_id, token) as (live, _):
            table = live.table

            def complete() -> dict[str, Any]:
                return {"lines": len(table), "prefix": prefix, "legal": table.legal(prefix)}

            return await self._run(complete, quick=True)

    async def record(self, table_id: str, token: str | None) -> str:
        """The table as a record file."""
        async with self._hold(table_id, token) as (live, _):
            return await self._run(live.table.record)

    async def stream(self, table_id: str, token: str | None) -> AsyncIterator[bytes]:
        """A spectator's event stream (checked before the response starts): an ``open`` event with the table's line
        count, then a ``line`` or ``undo`` event per change as it is committed, keep-alive comments in between, and a
        ``close`` event when the stream ends."""
        async with self._hold(table_id, token) as (live, _):
            if self._closing is not None:
                raise ApiError(503, "unavailable", "shutting-down", self._closing)
            streams = self._streams.setdefault(table_id, set())
            if len(streams) >= self.streams_per_table:
                raise ApiError(
                    429, "too-many", "too-many-streams", f"a table has at most {self.streams_per_table} open streams"
                )
            table = live.table
            opening = await self._run(lambda: {"lines": len(table), **_ending(_standing(table))}, quick=True)
            subscription = Subscription()
            streams.add(subscription)
        return self._events(table_id, subscription, opening)

    def end_streams(self, reason: str) -> None:
        """End every event stream (the server is shutting down) and open no new one."""
        self._closing = reason
        for streams in self._streams.values():
            for subscription in streams:
                subscription.end(reason)

    def close(self) -> None:
        self.end_streams("the server is shutting down")
        self._judge.shutdown(wait=True)

    # -- tables in memory -------------------------------------------------------------------------------------------
    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def _hold(self, table_id: str, token: str | None) -> AsyncIterator[tuple[LiveTable, Holder]]:
        """The table, its requests' turn, and who the token is; 401 without a token, 404, 401 for a token that is not
        one of this table's."""
        if token is None:
            raise ApiError(
                401, "unauthorized", "no-token", "send the table's host or seat token: Authorization: Bearer TOKEN"
            )
        if not TABLE_ID.fullmatch(table_id):
            raise _no_table(table_id)
        async with self._lock(table_id):
            live = self._cache.get(table_id)
            if live is None:
                live = await self._restore(table_id)
            else:
                self._cache.move_to_end(table_id)
            holder = holder_of(live.row, token)
            if holder is None:
                raise ApiError(401, "unauthorized", "unknown-token", "this token is not one of this table's")
            yield live, holder

    async def _restore(self, table_id: str) -> LiveTable:
        stored: StoredTable | None = await self._store(self.store.load(table_id))
        if stored is None:
            raise _no_table(table_id)
        row = stored.row

        def rebuild() -> Table:
            try:
                return Table.restore(row.game, row.players, row.tags, stored.lines, policy=self.policy)
            except (RefereeError, TableError) as error:  # the rules changed since: say where, never a traceback
                where = f"line {error.line} [{error.code}] " if isinstance(error, RefereeError) else ""
                raise ApiError(
                    500,
                    "internal",
                    "stored-table-refused",
                    f"the stored table no longer replays under these rules: {where}{error}",
                ) from None

        live = LiveTable(row, await self._run(rebuild), stored.revision)
        self._keep(live)
        return live

    def _keep(self, live: LiveTable) -> None:
        self._cache[live.row.id] = live
        self._cache.move_to_end(live.row.id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)  # a table in use stays with its user; the next one rebuilds it

    def _forget(self, table_id: str) -> None:
        self._cache.pop(table_id, None)

    async def _commit(self, live: LiveTable, change: Any) -> None:
        """Wait for a change to be durable; if it is not (or we cannot know), the copy in memory goes: the next
        request rebuilds the table from the store, which is the truth."""
        try:
            await change
        except BaseException as exc:
            self._forget(live.row.id)
            if isinstance(exc, Conflict):
                raise ApiError(
                    409, "conflict", "table-changed", "the table was changed elsewhere meanwhile; read it again"
                ) from None
            if isinstance(exc, StoreError):
                raise ApiError(503, "unavailable", "store-failed", str(exc)) from None
            raise
        live.revision += 1

    async def _store(self, operation: Any) -> Any:
        try:
            return await operation
        except StoreError as exc:
            raise ApiError(503, "unavailable", "store-failed", str(exc)) from None

    async def _run(self, work: Callable[[], T], quick: bool = False) -> T:
        """Run referee code, one piece at a time (the games' parsers and caches are shared by their tables). Quick
        work (a short line, a look at a table: well under a millisecond) runs at once on the event loop's thread,
        unless longer work is under way; anything else (a long line, rebuilding a table, an undo, a large record) on
        the judging thread, so that the event loop goes on serving the other requests meanwhile."""
        if quick and self._judging.acquire(blocking=False):
            try:
                return work()
            finally:
                self._judging.release()
        return await asyncio.get_running_loop().run_in_executor(self._judge, self._locked, work)

    def _locked(self, work: Callable[[], T]) -> T:
        with self._judging:
            return work()

    # -- spectators -------------------------------------------------------------------------------------------------
    def _publish(self, table_id: str, event: str, data: Mapping[str, Any]) -> None:
        streams = self._streams.get(table_id)
        if streams:
            chunk = sse(event, data)
            for subscription in streams:
                subscription.push(chunk)

    async def _events(self, table_id: str, subscription: Subscription, opening: dict[str, Any]) -> AsyncIterator[bytes]:
        try:
            yield sse("open", opening)
            while True:
                event = await subscription.next(self.heartbeat)
                if event is None:
                    yield KEEP_ALIVE
                elif event:
                    yield event
                else:
                    yield sse("close", {"reason": subscription.ended})
                    return
        finally:
            streams = self._streams.get(table_id)
            if streams is not None:
                streams.discard(subscription)
                if not streams:
                    del self._streams[table_id]


def _no_table(table_id: str) -> ApiError:
    return ApiError(404, "not-found", "no-such-table", f"no table {excerpt(table_id)}")


def _not_the_seats(table: Table, seat: str, owner: str | None, text: str) -> ApiError:
    """The 403 for a line a seat's token may not send, saying what the line is: another player's line, a game
    statement, or a line that does not read as a statement at all (with the reason, as the host would be told)."""
    if owner is not None:
        what = f"this is {owner}'s line"
    else:
        parser = table.game.parser()
        try:
            named = getattr(parser.resolve(parser.parse(text), dict(table.state.seats)), "player", None)
            if named is not None and getattr(named, "name", None) not in table.state.seats:
                what = f"this line does not read as {seat}'s line ({excerpt(named.name)} is not a player of this table)"
            else:
                what = "this is a game statement"
        except RefereeError as unreadable:
            what = f"this line does not read as {seat}'s line ({unreadable.message})"
    written = quote_player(seat, table.game.reserved_words)
    return ApiError(
        403,
        "forbidden",
        "not-your-line",
        f"{what}: the seat token of {seat} sends only {seat}'s own lines ({written}: ...); the host's token sends "
        "the others",
    )


def _expect(table: Table, expect: int | None) -> None:
    if expect is not None and expect != len(table):
        raise ApiError(
            409,
            "conflict",
            "expect-mismatch",
            f"the table has {len(table)} line(s), not {expect}: another client was first; read the table again",
            lines=len(table),
        )


def _standing(table: Table) -> dict[str, Any]:
    outcome = table.outcome
    return {
        "verdict": table.verdict.value,
        "outcome": outcome.as_dict() if outcome is not None else None,
        "legal": table.legal(),
    }


def _ending(standing: Mapping[str, Any]) -> dict[str, Any]:
    return {"verdict": standing["verdict"], "outcome": standing["outcome"]}


def _refusal(error: RefereeError, table: Table) -> ApiError:
    """A line the rules refuse: what ``referee check -v`` reports for it in the record so far."""
    return ApiError(
        422,
        error.verdict.value,
        error.code,
        error.message,
        column=error.column,
        line=error.line,
        rule=error.kind.summary,
        state=error.state or table.summary(),
        legal=list(error.alternatives),
    )


def _picture(table: Table) -> tuple[dict[str, Any] | None, str | None]:
    """The game's picture of the position (as the report page draws it), or None and why."""
    from referee.report.collect import picture_of

    picture = picture_of(table.game)
    if picture is None:
        return None, None
    state: GameState = table.state
    try:
        snapshot = picture(state)
    except Exception as exc:  # a picture bug must not take the table down
        return None, excerpt(f"{type(exc).__name__}: {exc}", 300)
    return snapshot, None
