"""``referee serve`` in a child process, for the tests and the benchmark: started on a free port of 127.0.0.1, its URL
read from the line it prints, stopped (or killed) by its process id."""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


class ServerProcess:
    """A ``referee serve`` child process on 127.0.0.1 with the database ``database`` (and more ``options``)."""

    def __init__(self, database: Path, *options: str, timeout: float = 30.0) -> None:
        self.database = database
        command = [sys.executable, "-m", "referee.cli", "serve", "--port", "0", "--database", str(database), *options]
        self.errors = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - kept open while the server runs
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=self.errors, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"}
        )
        self.url = self._read_url(timeout)

    def _read_url(self, timeout: float) -> str:
        assert self.process.stdout is not None
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if selector.select(deadline - time.monotonic()):
                line = self.process.stdout.readline()
                if not line:
                    break
                for word in line.split():
                    if word.startswith("http://"):
                        return word.rstrip("/")
        self.kill()
        raise RuntimeError(f"referee serve did not start: {self.log()[-2000:]}")

    def log(self) -> str:
        """What the server wrote to its standard error so far."""
        self.errors.seek(0)
        return self.errors.read().strip()

    def stop(self, timeout: float = 15.0) -> int:
        """Stop it as Ctrl-C does and wait: its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        """SIGKILL: no shutdown at all, as a crash or a power cut would stop it (the operating system keeps what
        it was given)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.stop()
        self.kill()
        self.errors.close()
