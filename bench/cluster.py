"""A Dask cluster of separate processes — a scheduler and single-threaded workers, each started with the ``dask``
command — so that each one's peak memory can be read from the kernel when it stops (``VmHWM`` in /proc): the client
(``referee check --dask``), the scheduler and every worker are measured apart, as they would run on a real cluster."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _peak_mib(pid: int) -> float | None:
    """A live process's peak resident memory (MiB), or None where /proc does not tell."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class ProcessCluster:
    """``with ProcessCluster(2) as cluster:`` ... ``cluster.address`` ... ``cluster.peaks()`` before it stops."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.processes: list[subprocess.Popen[bytes]] = []

    @staticmethod
    def available() -> bool:
        return shutil.which("dask", path=os.path.dirname(sys.executable)) is not None and Path("/proc").is_dir()

    def __enter__(self) -> ProcessCluster:
        dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or "dask"
        env = dict(os.environ, PYTHONHASHSEED="0")
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
        port = self.address.rsplit(":", 1)[1]
        self.processes.append(
            subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"], **quiet)
        )
        for _ in range(self.workers):
            command = [dask, "worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard"]
            self.processes.append(subprocess.Popen(command, **quiet))
        self._wait_for_workers()
        return self

    def _wait_for_workers(self, timeout: float = 60.0) -> None:
        from distributed import Client

        deadline = time.monotonic() + timeout
        while True:
            try:
                with Client(self.address, timeout=5) as client:
                    client.wait_for_workers(self.workers, timeout=max(1.0, deadline - time.monotonic()))
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def peaks(self) -> dict[str, float | None]:
        """The peak memory so far of the scheduler and of the largest worker (MiB)."""
        scheduler, *workers = (_peak_mib(process.pid) for process in self.processes)
        known = [peak for peak in workers if peak is not None]
        return {"scheduler": scheduler, "worker": max(known) if known else None}

    def __exit__(self, *exc: object) -> None:
        for process in reversed(self.processes):
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
