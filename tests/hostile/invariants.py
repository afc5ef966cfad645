"""What every judged input must keep, whatever it holds, and the means to run the referee on it safely.

Used by ``tests/test_hostile.py`` (the corpus, the inputs made at test time) and ``tests/test_fuzz.py`` (Hypothesis).

Invariants of a report list (``report_problems``):

- every game has a verdict; an illegal or malformed game has an error, a valid or unfinished one has none;
- an error is located: line >= 1 and within the file (lines end at LF, per the spec), column >= 1 and at most one past
  the end of that line;
- never ``internal-error`` (a referee bug: the referee failed on the input instead of judging it);
- a message is at most ``MESSAGE_LIMIT`` characters and holds only printable characters (control, format, private-use
  and line/paragraph separators are shown as escapes, never raw).

Running: ``time_limit`` bounds an in-process call (SIGALRM; a hang becomes a failure, never a stuck test run);
``run_procs`` runs real ``referee`` processes concurrently with a timeout each, returning exit status, output and
peak resident memory (``os.wait4``'s rusage of that very child).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import Verdict
from referee.replay import GameReport

MESSAGE_LIMIT = 500
INTERNAL = "internal-error"
ADDRESS_SPACE_LIMIT = 6 * 1024**3  # a runaway child fails with MemoryError instead of eating the machine


def spec_lines(data: bytes) -> list[str]:
    """The file's lines as the spec counts them: split at LF only, a CR before the LF dropped."""
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    out = text.split("\n")
    return [line[:-1] if line.endswith("\r") else line for line in out]


def shown(text: str, limit: int = 80) -> str:
    """User text in a failure message: escaped and short."""
    return repr(text[:limit]) + (f"…({len(text)} chars)" if len(text) > limit else "")


def unprintable(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in text if not c.isprintable()})


def message_problems(message: str) -> list[str]:
    problems = []
    if len(message) > MESSAGE_LIMIT:
        problems.append(f"message of {len(message):,} characters (limit {MESSAGE_LIMIT}): {shown(message)}")
    raw = unprintable(message)
    if raw:
        problems.append(f"raw invisible/control characters {', '.join(raw[:8])} in message {shown(message)}")
    return problems


def as_row(report: GameReport | dict) -> dict:
    """A report as ``check --format jsonl`` writes it (a jsonl row passes through)."""
    return report if isinstance(report, dict) else report.as_dict()


def report_problems(reports: Sequence[GameReport | dict], data: bytes | None = None) -> list[str]:
    """Every invariant a list of reports (or of ``check --format jsonl`` rows) breaks; empty when all hold."""
    problems: list[str] = []
    file_lines = spec_lines(data) if data is not None else None
    verdicts = {v.value for v in Verdict}
    for report in reports:
        row = as_row(report)
        where = f"game {row.get('index')}"
        verdict, code, line, column = row.get("verdict"), row.get("code"), row.get("line"), row.get("column")
        if verdict not in verdicts:
            problems.append(f"{where}: no verdict ({verdict!r})")
            continue
        if verdict in ("illegal", "malformed") and code is None:
            problems.append(f"{where}: {verdict} without an error")
        if verdict in ("valid", "unfinished") and code is not None:
            problems.append(f"{where}: {verdict} with an error [{code}]")
        if code is None:
            continue
        message = row.get("message") or ""
        if code == INTERNAL:
            problems.append(f"{where}: internal-error at {line}:{column}: {shown(message, 200)}")
        if not isinstance(line, int) or line < 1:
            problems.append(f"{where}: error [{code}] not located on a line (line {line!r})")
        elif file_lines is not None and line > max(1, len(file_lines)):
            problems.append(f"{where}: error [{code}] at line {line}, the file has {len(file_lines)}")
        if not isinstance(column, int) or column < 1:
            problems.append(f"{where}: error [{code}] at column {column!r}")
        elif file_lines is not None and isinstance(line, int) and 1 <= line <= len(file_lines):
            width = len(file_lines[line - 1])
            if column > width + 1:
                problems.append(
                    f"{where}: error [{code}] at {line}:{column}, past the end of the line ({width} characters)"
                )
        problems += [f"{where}: [{code}] {p}" for p in message_problems(message)]
    return problems


def output_problems(output: str) -> list[str]:
    """Text output of the CLI: no traceback, no raw invisible or control characters on any line."""
    problems = []
    if "Traceback (most recent call last)" in output:
        problems.append("a traceback: " + shown(output[output.index("Traceback") :], 400))
    for number, line in enumerate(output.split("\n"), 1):
        raw = unprintable(line)
        if raw:
            problems.append(f"output line {number} holds raw {', '.join(raw[:8])}: {shown(line)}")
            if len(problems) > 5:
                break
    return problems


# ---------------------------------------------------------------------------------------------------------------
# Running


class Hang(Exception):
    """An in-process call ran past its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float, what: str = "the call") -> Iterator[None]:
    """Raise ``Hang`` in the main thread when the block runs longer than ``seconds`` (interrupts blocking reads)."""

    def expire(signum: int, frame: object) -> None:
        raise Hang(f"{what} ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def referee_command() -> list[str]:
    """The installed console script next to this interpreter (the venv's), else the module."""
    script = Path(sys.executable).parent / "referee"
    return [str(script)] if script.exists() else [sys.executable, "-m", "referee.cli"]


@dataclass
class ProcResult:
    args: list[str]
    returncode: int | None
    stdout: bytes
    stderr: bytes
    maxrss: int  # bytes
    elapsed: float
    timed_out: bool

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", errors="replace")

    def describe(self) -> str:
        state = "timed out" if self.timed_out else f"exit {self.returncode}"
        return (
            f"{' '.join(self.args)[:200]}: {state} after {self.elapsed:.1f} s, peak RSS {self.maxrss / 2**20:.0f} MB\n"
            f"stdout: {shown(self.out, 600)}\nstderr: {shown(self.err, 600)}"
        )


@dataclass
class Proc:
    """A child to start: ``args`` (after ``referee`` when ``referee`` is true)."""

    args: list[str]
    timeout: float = 30.0
    cwd: Path | None = None
    env: dict[str, str] | None = None
    stdin: bytes | None = None
    referee: bool = True
    drop_dac: bool = False  # root without CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH: permission bits apply
    interrupt_after: float | None = None  # send SIGINT after this many seconds
    measure: bool = False  # peak RSS through a small launcher (a child forked from pytest inherits its RSS)
    extra_env: dict[str, str] = field(default_factory=dict)


# Forks the command from a small process and writes its peak RSS (KiB): Linux keeps the RSS a child had when it was
# forked (from pytest, ~150 MB) in its ru_maxrss across exec, which would hide the referee's own peak.
LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as handle:
    handle.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def _limit_child(drop_dac: bool) -> None:
    os.setsid()
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))
    if drop_dac:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            libc.prctl(24, capability, 0, 0, 0)  # PR_CAPBSET_DROP: gone after exec


def run_procs(procs: Sequence[Proc]) -> list[ProcResult]:
    """Run the children concurrently; each is killed (with its process group) at its timeout."""
    with contextlib.ExitStack() as stack:
        started = []
        for proc in procs:
            args = (referee_command() if proc.referee else []) + proc.args
            rss_file = None
            if proc.measure:
                rss_file = stack.enter_context(tempfile.NamedTemporaryFile("r"))
                args = [sys.executable, "-c", LAUNCHER, rss_file.name, *args]
            env = dict(proc.env if proc.env is not None else os.environ)
            env.update(proc.extra_env)
            out = stack.enter_context(tempfile.TemporaryFile())
            err = stack.enter_context(tempfile.TemporaryFile())
            stdin = stack.enter_context(tempfile.TemporaryFile())
            if proc.stdin is not None:
                stdin.write(proc.stdin)
                stdin.seek(0)
            child = subprocess.Popen(
                args,
                stdin=stdin if proc.stdin is not None else subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                cwd=proc.cwd,
                env=env,
                preexec_fn=lambda drop=proc.drop_dac: _limit_child(drop),
            )
            started.append((proc, args, child, out, err, rss_file, time.monotonic()))
        return [_finish(*item) for item in started]


def _finish(proc: Proc, args: list[str], child: subprocess.Popen, out, err, rss_file, start: float) -> ProcResult:
    timed_out = interrupted = False
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        now = time.monotonic() - start
        if proc.interrupt_after is not None and not interrupted and now >= proc.interrupt_after:
            os.kill(child.pid, signal.SIGINT)
            interrupted = True
        if now > proc.timeout:
            timed_out = True
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(child.pid, 0)
            break
        time.sleep(0.02)
    child.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    err.seek(0)
    maxrss = usage.ru_maxrss * 1024
    if rss_file is not None:
        rss_file.seek(0)
        measured = rss_file.read().strip()
        maxrss = int(measured) * 1024 if measured.isdigit() else 0
    return ProcResult(
        args,
        None if timed_out else child.returncode,
        out.read(),
        err.read(),
        maxrss,
        time.monotonic() - start,
        timed_out,
    )


def run_proc(proc: Proc) -> ProcResult:
    return run_procs([proc])[0]


# ---------------------------------------------------------------------------------------------------------------
# The user's files


def snapshot(root: Path) -> dict[str, str]:
    """Every entry under ``root`` (not following links): regular files by content hash, others by kind and target.
    Never opens anything but regular files (a FIFO would block)."""
    found = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = Path(folder) / name
            info = path.lstat()
            key = str(path.relative_to(root))
            if stat.S_ISREG(info.st_mode):
                found[key] = hashlib.sha256(path.read_bytes()).hexdigest()
            elif stat.S_ISLNK(info.st_mode):
                found[key] = "link -> " + os.readlink(path)
            elif stat.S_ISDIR(info.st_mode):
                found[key] = f"dir {stat.S_IMODE(info.st_mode):o}"
            else:
                found[key] = f"special {stat.S_IFMT(info.st_mode):o}"
    return found
