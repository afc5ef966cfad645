"""The ``referee`` program (the console script, ``python -m referee``).

Signals are caught from its first instant: the command line's modules take a tenth of a second to load, and Ctrl-C or
SIGTERM in that time ends the run as it does later (``referee.cli``) — one line, status 130 or 143 — not with a
traceback of the loading, nor without a word. So nothing is loaded before ``main`` is running.
"""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from referee.stopping import sigterm_stops_the_run

        with sigterm_stops_the_run():
            from referee.cli import main as command_line
    except KeyboardInterrupt as stop:
        from referee.stopping import signal_of, stop_message, stopping

        status = stopping(stop)
        print(stop_message(signal_of(stop)), file=sys.stderr)
        sys.exit(status)
    command_line()  # which handles signals itself (``RefereeGroup.invoke``)


if __name__ == "__main__":
    main()
