"""``referee serve``: the live referee's HTTP server (loaded lazily by ``referee.cli``: ``check`` never loads it)."""

from __future__ import annotations

import gc
import socket
import sys
from pathlib import Path

import click
import uvicorn

from referee.cli_options import ByteSize
from referee.registry import GAMES
from referee.resources import ReadPolicy
from referee.table import Table

from .app import create_app
from .store import SQLiteStore, StoreError
from .tables import TableService

DEFAULT_DATABASE = Path("referee-tables.db")
DEFAULT_MAX_SIZE = 16 * 1024 * 1024
GRACE = 5  # seconds a shutdown waits for requests under way


class Server(uvicorn.Server):
    """uvicorn's server, which ends the event streams first when it shuts down (a stream never ends by itself, and
    uvicorn waits for every response to end)."""

    def __init__(self, config: uvicorn.Config, tables: TableService) -> None:
        super().__init__(config)
        self.tables = tables

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.tables.end_streams("the server is shutting down")
        await super().shutdown(sockets)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` (0: any free port) and listening; ``OSError`` when it cannot be."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[
        0
    ]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def settle_in() -> None:
    """Load every game before the first request (its grammar tables and card data: the first table of a game then
    costs what any other does), and keep what is loaded out of the garbage collector's full passes, which otherwise
    walk it all again and again: a full pass over a server's heap took 15-20 ms, the slowest posts' latency
    (bench/bench_live.py). Young objects are collected less often for the same reason."""
    for game in GAMES.each_loadable():
        try:
            Table(game, [f"P{seat}" for seat in range(1, game.min_players + 1)])
        except Exception:  # a hint only: a game that fails here fails where a table names it
            continue
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on (0.0.0.0 or :: for "
    "every interface: anyone who reaches it can create tables; see docs/live.md).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="The port to listen on (0: any free port; the URL printed names it).",
)
@click.option(
    "--database",
    type=click.Path(path_type=Path),
    default=DEFAULT_DATABASE,
    show_default=True,
    help="The SQLite file the tables are kept in (created if missing).",
)
@click.option(
    "--max-size",
    type=ByteSize(),
    default=DEFAULT_MAX_SIZE,
    show_default="16M",
    help="The largest a table's record may grow (a line that would pass it is refused).",
)
@click.option(
    "--cache",
    type=click.IntRange(min=1),
    default=256,
    show_default=True,
    help="Live tables kept in memory (others are rebuilt from the database when asked for).",
)
@click.option(
    "--heartbeat",
    type=click.FloatRange(min=0.05),
    default=15.0,
    show_default=True,
    help="Seconds between keep-alive comments on an idle event stream.",
)
@click.option("--access-log", is_flag=True, help="Print a line per request.")
def serve(host: str, port: int, database: Path, max_size: int, cache: int, heartbeat: float, access_log: bool) -> None:
    """Serve live tables: games judged line by line as they are played, over HTTP (docs/live.md).

    Prints the URL it serves on, then runs until interrupted (Ctrl-C or SIGTERM), ending event streams and
    finishing the requests under way. Exit status: 130 after Ctrl-C, 1 when the database cannot be used or the address
    cannot be listened on, 2 for usage errors.
    """
    try:
        store = SQLiteStore.open(database)
    except StoreError as error:
        click.echo(f"referee serve: {error}", err=True)
        sys.exit(1)
    try:
        sock = listening_socket(host, port)
    except OSError as error:
        store.close()
        click.echo(f"referee serve: cannot listen on {host} port {port} ({error.strerror or error})", err=True)
        sys.exit(1)
    settle_in()
    tables = TableService(store, policy=ReadPolicy(max_bytes=max_size), cache=cache, heartbeat=heartbeat)
    config = uvicorn.Config(
        create_app(tables),
        log_level="info" if access_log else "warning",
        access_log=access_log,
        ws="none",
        lifespan="on",
        server_header=False,
        timeout_graceful_shutdown=GRACE,
    )
    click.echo(f"referee serve: {url_of(sock)} (tables in {database}; Ctrl-C to stop)")
    sys.stdout.flush()
    try:
        Server(config, tables).run(sockets=[sock])
    finally:
        sock.close()
        store.close()
