"""How a signal stops a run: Ctrl-C (SIGINT) and SIGTERM (``timeout``, a cancelled CI job, systemd) both unwind it —
temporary files removed, worker processes stopped — and end it with one line and 128 + the signal (130, 143).

Loaded by the program before anything else (``referee.__main__``), so it imports nothing heavier than ``signal``.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

TYPE_CHECKING = False  # not typing's, which would take ten milliseconds of the program's start to load
if TYPE_CHECKING:
    from types import FrameType
    from typing import NoReturn


class Interrupted(KeyboardInterrupt):
    """A signal that stops a run as Ctrl-C does: SIGTERM."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise Interrupted(signum)


@contextmanager
def sigterm_stops_the_run() -> Iterator[None]:
    """SIGTERM raises ``Interrupted`` in the main thread, as SIGINT raises ``KeyboardInterrupt``."""
    try:
        previous = signal.signal(signal.SIGTERM, _interrupt)
    except ValueError:  # not the main thread (an embedding program): its own handling stays
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def signal_of(stop: KeyboardInterrupt) -> int:
    return stop.signum if isinstance(stop, Interrupted) else signal.SIGINT


def stop_message(signum: int) -> str:
    """The one line a signal ends the run with; after Ctrl-C on a terminal, on a line of its own (past the ``^C``)."""
    if signum != signal.SIGINT:
        return "terminated"
    return "\ninterrupted" if sys.stderr is not None and sys.stderr.isatty() else "interrupted"


def stopping(stop: KeyboardInterrupt) -> int:
    """Prepare to end the run that ``stop`` interrupted; its exit status. A second Ctrl-C or SIGTERM no longer
    interrupts the stopping (no second traceback), and CPython's note of the interrupt is cleared: it notes a
    KeyboardInterrupt that escapes code run from a string (``eval``/``exec`` of text, which ``namedtuple`` and
    ``dataclass`` do while a module loads) as unhandled, and at exit kills the process with SIGINT whatever status
    ``sys.exit`` gave — even when the interrupt was caught further up. The next such call clears the note."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(signum, signal.SIG_IGN)
        except ValueError:
            break
    exec("pass")
    return 128 + signal_of(stop)
