"""Interrupt ``referee check`` and ``referee regress --save`` at random moments and report every run that does not end
as promised (docs/cli.md): status 130 or 143 with one line, or 0 when the signal came after the end — never a hang,
a traceback or a leftover file. The default test suite holds one deterministic case of each fault found this way;
this finds the ones that depend on timing.

python tools/stress_interrupts.py FOLDER [--runs 60] [--seed 1] [--jobs 2]

FOLDER: records to judge, large enough for a run of a few seconds (e.g. four copies of records/).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENDINGS = {130: "interrupted\n", 143: "terminated\n"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hang", type=float, default=30.0, help="seconds after the signal that count as a hang")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    referee = [sys.executable, "-m", "referee"]
    problems = 0
    with tempfile.TemporaryDirectory() as scratch:
        saved = Path(scratch) / "base.jsonl"
        for run in range(args.runs):
            command = ["check", str(args.folder)]
            if run % 2:
                command = ["regress", str(args.folder), "--save", str(saved)]
            saved.unlink(missing_ok=True)
            process = subprocess.Popen(
                [*referee, *command, "--jobs", str(args.jobs)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
            )
            delay, signum = rng.uniform(0.05, 2.5), rng.choice([signal.SIGINT, signal.SIGTERM])
            time.sleep(delay)
            os.kill(process.pid, signum)
            try:
                _, err = process.communicate(timeout=args.hang)
            except subprocess.TimeoutExpired:
                problems += 1
                print(f"run {run}: {command[0]} HUNG after {signum.name} at {delay:.2f} s", flush=True)
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                continue
            fine = (process.returncode == 0 and err == "") or ENDINGS.get(process.returncode) == err
            leftover = process.returncode != 0 and saved.exists()
            if not fine or leftover:
                problems += 1
                print(f"run {run}: {command[0]} {signum.name} at {delay:.2f} s: status {process.returncode}, {err!r}")
    print(f"{args.runs} runs, {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
