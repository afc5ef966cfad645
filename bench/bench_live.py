"""``python -m bench.bench_live``: the live referee's throughput and latency (docs/live.md, docs/performance.md).

Starts ``referee serve`` on 127.0.0.1 with a new SQLite database on the local disk, then for 1, 8 and 32 concurrent
clients measures ``POST /tables/{id}/lines``: lines accepted per second and the p50/p99 latency of a post, each client
sending the lines of generated games (every registered game in turn) to a table of its own, one line after the other
(a closed loop: the next line is sent when the reply to the last one is in). Every line is committed to the database
before its reply, as always. The clients speak HTTP/1.1 over keep-alive connections from one asyncio process of their
own, with a few lines of code rather than an HTTP library, so that their own cost stays small beside the server's
on a small machine. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import platform
import random
import socket
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from referee.live.spawn import ServerProcess
from referee.record import iter_games
from referee.registry import GAMES
from referee.table import NOT_TABLE_TAGS
from referee.testkit import NAMES

TARGET_P99_MS = 25.0  # at 32 clients (issue 26)


class Connection:
    """One keep-alive HTTP/1.1 connection: a request, then its reply (status and body)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str) -> None:
        self.reader, self.writer, self.host = reader, writer, host

    @classmethod
    async def open(cls, url: str) -> Connection:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        reader, writer = await asyncio.open_connection(host, port)
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(reader, writer, f"{host}:{port}")

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        reply = await self.reader.readexactly(length)
        return status, json.loads(reply) if reply else None

    def close(self) -> None:
        self.writer.close()


Script = tuple[str, list[str], dict[str, str], list[str]]


def game_script(index: int) -> Script:
    """Generated game ``index``: its game id, players, table tags and statement lines."""
    game = list(GAMES.values())[index % len(GAMES)]
    players = NAMES[: 2 + index % 3]
    (record,) = iter_games(game.play(players, random.Random(index), game.ruleset(None), {}))
    tags = {name: value for name, value in record.tag_values().items() if name.lower() not in NOT_TABLE_TAGS}
    lines = [line for _, line in record.body if isinstance(line, str) and line.strip() and line.lstrip()[0] != "#"]
    return game.id, players, tags, lines


async def client(url: str, scripts: list[Script], first: int, deadline: float, latencies: list[float]) -> None:
    """Post lines of games, a table per game, until ``deadline``; the latency of each post goes to ``latencies``."""
    connection = await Connection.open(url)
    try:
        index = first
        while time.perf_counter() < deadline:
            game_id, players, tags, lines = scripts[index % len(scripts)]
            index += 1
            status, created = await connection.request(
                "POST", "/tables", {"game": game_id, "players": players, "tags": tags}
            )
            assert status == 201, created
            host, seats = created["host_token"], created["seat_tokens"]
            for number, text in enumerate(lines, 1):
                token = seats.get(text.partition(":")[0].strip(), host)
                start = time.perf_counter()
                status, reply = await connection.request(
                    "POST", f"/tables/{created['id']}/lines", {"text": text, "expect": number - 1}, token
                )
                latencies.append(time.perf_counter() - start)
                assert status == 201 and reply["number"] == number, reply
                if time.perf_counter() >= deadline:
                    break
    finally:
        connection.close()


async def measure(url: str, scripts: list[Script], clients: int, seconds: float, warmup: float) -> dict[str, Any]:
    """``clients`` closed-loop clients for ``seconds`` (after ``warmup`` seconds not counted)."""
    latencies: list[float] = []
    start = time.perf_counter()
    deadline = start + warmup + seconds
    tasks = [client(url, scripts, i * len(scripts) // clients, deadline, latencies) for i in range(clients)]
    counted_from: list[int] = []

    async def mark() -> None:
        await asyncio.sleep(warmup)
        counted_from.append(len(latencies))

    await asyncio.gather(mark(), *tasks)
    elapsed = time.perf_counter() - start - warmup
    counted = sorted(latencies[counted_from[0] :])
    return {
        "clients": clients,
        "lines": len(counted),
        "lines_per_s": len(counted) / elapsed,
        "p50_ms": 1000 * statistics.median(counted),
        "p99_ms": 1000 * counted[min(len(counted) - 1, int(0.99 * len(counted)))],
        "max_ms": 1000 * counted[-1],
        "lines_all": len(latencies),
    }


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far: the server's own cost, whatever else the machine
    runs."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:  # not Linux
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| clients | lines | lines/s | p50 ms | p99 ms | max ms | server CPU ms/line |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['clients']} | {row['lines']:,} | {row['lines_per_s']:,.0f} | {row['p50_ms']:.1f} | "
            f"{row['p99_ms']:.1f} | {row['max_ms']:.1f} | {row['cpu_ms_per_line']:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="1,8,32", help="concurrent clients per run, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds per run before measuring")
    parser.add_argument("--json", action="store_true", help="print the results as JSON too")
    args = parser.parse_args(argv)
    counts = [int(count) for count in args.clients.split(",")]
    scripts = [game_script(index) for index in range(24)]  # made before: the clients' own work stays small
    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="bench-live-", dir=os.getcwd()) as folder,
        ServerProcess(Path(folder) / "tables.db") as server,
    ):
        for count in counts:
            before = cpu_seconds(server.process.pid)
            row = asyncio.run(measure(server.url, scripts, count, args.seconds, args.warmup))
            row["cpu_ms_per_line"] = 1000 * (cpu_seconds(server.process.pid) - before) / row["lines_all"]
            rows.append(row)
    parser_name = "httptools" if importlib.util.find_spec("httptools") else "h11"
    print(
        f"referee serve, SQLite (WAL, synchronous=FULL) on the local disk, HTTP parser {parser_name}; "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; {args.seconds:g} s per run"
    )
    print(markdown(rows))
    last = rows[-1]
    if last["clients"] == 32:
        verdict = "meets" if last["p99_ms"] < TARGET_P99_MS else "misses"
        print(f"\np99 at 32 clients: {last['p99_ms']:.1f} ms ({verdict} the target of {TARGET_P99_MS:g} ms)")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
