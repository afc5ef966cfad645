"""Where the parse+check time goes: py-spy on the benchmark's check job, per game.

    python -m bench.profile [--games ID,ID] [--actions 50000] [--seed 1] [--rate 1000] [--top 10] [--markdown FILE]

For each registered game (or those named): the same seeded corpus as ``python -m bench`` is generated, then the
benchmark's own check job (``bench/worker.py check FILE``: ``check_text`` on the file, a fresh interpreter, cold
caches) runs under ``py-spy record --nonblocking --function`` (a sampling profiler outside the process: it neither
stops nor slows the job, unlike an in-process profiler that hooks every call). Only samples inside ``check_text``
count; the rest (interpreter start, imports) is given as one figure. Samples are summed per step of the replay loop
(what ``judge`` calls: the line parser, with its LALR parses of lines or pieces not seen before split out, the
state's ``apply``, the setup, ...) and per function (name, file, first line):

- own time: samples whose innermost Python frame is the function (time in C code it calls, such as ``re``,
  ``dict`` or ``str`` methods, is its own: py-spy sees Python frames);
- cumulative time: samples with the function anywhere on the stack (once per sample when it recurses);

and printed as top-N tables per game, with own time by file. ``--keep DIR`` keeps py-spy's raw stacks (collapsed,
one line per stack: feed them to flamegraph.pl or speedscope).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.run import INSTALL_HINT, WORKER, BenchError, select_games, worker

ROOT = "check_text"  # the function whose samples are the profile


def py_spy() -> str:
    local = Path(sys.executable).parent / "py-spy"
    if local.is_file():
        return str(local)
    found = shutil.which("py-spy")
    if found is None:
        raise BenchError(f"py-spy is not installed: {INSTALL_HINT}")
    return found


def read_stacks(path: Path) -> Counter[tuple[str, ...]]:
    """py-spy's raw output: ``frame;frame;...;frame COUNT`` per line, outermost frame first."""
    stacks: Counter[tuple[str, ...]] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks[tuple(stack.split(";"))] += int(count)
    return stacks


def _name(frame: str) -> str:
    return frame.split(" (", 1)[0]


def stage(names: list[str]) -> str:
    """The step of the replay loop a sample is in: the function ``judge`` (one game) calls, or, outside a game, the
    one ``check_text`` calls (``split_games``); LALR parsing inside the line parser is split out (cache misses)."""
    anchor = "judge" if "judge" in names else ROOT
    index = names.index(anchor) + 1
    while index < len(names) and names[index].endswith(("<listcomp>", "<genexpr>")):
        index += 1
    if index >= len(names):
        return f"{anchor} (own)"
    step = names[index]
    if step == "setup" and index + 1 < len(names):
        step = f"setup → {names[index + 1]}"
    if step.endswith(".parse") and "Lark.parse" in names:
        step += " → Lark.parse (new line or piece)"
    return step


def aggregate(stacks: Counter[tuple[str, ...]]) -> dict[str, Any]:
    stages: Counter[str] = Counter()
    own: Counter[str] = Counter()
    cumulative: Counter[str] = Counter()
    by_file: Counter[str] = Counter()
    inside = outside = 0
    for stack, count in stacks.items():
        names = [_name(frame) for frame in stack]
        if ROOT not in names:
            outside += count
            continue
        inside += count
        stages[stage(names[names.index(ROOT) :])] += count
        frames = stack[names.index(ROOT) :]
        own[frames[-1]] += count
        location = frames[-1].rpartition(" (")[2].rstrip(")")
        by_file[location.rpartition(":")[0] or location] += count
        for frame in set(frames):
            cumulative[frame] += count
    return {
        "inside": inside,
        "outside": outside,
        "stages": stages,
        "own": own,
        "cumulative": cumulative,
        "by_file": by_file,
    }


def _table(
    title: str, rows: Counter[str], total: int, top: int, seconds_per_sample: float, what: str = "function (file:line)"
) -> list[str]:
    out = [f"{title}:", "", f"| # | {what} | samples | share | ≈ seconds |"]
    out.append("| ---: | --- | ---: | ---: | ---: |")
    for rank, (label, count) in enumerate(rows.most_common(top), start=1):
        out.append(f"| {rank} | `{label}` | {count:,} | {count / total:.1%} | {count * seconds_per_sample:.2f} |")
    return [*out, ""]


def main(argv: list[str] | None = None) -> int:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=doc.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--actions", type=int, default=50_000, help="actions in each game's corpus (default 50000)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1, as python -m bench)")
    parser.add_argument("--rate", type=int, default=1000, help="py-spy samples per second (default 1000)")
    parser.add_argument("--top", type=int, default=10, help="rows per table (default 10)")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the tables to FILE")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep py-spy's raw stacks (GAME.txt) in DIR")
    args = parser.parse_args(argv)
    out = ["Command: `" + shlex.join(["python", "-m", "bench.profile", *(argv or sys.argv[1:])]) + "`", ""]
    try:
        spy = py_spy()
        game_ids = select_games(args.games)
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="referee-profile-") as folder:
            for game_id in game_ids:
                rec = Path(folder) / f"{game_id}.rec"
                raw = (args.keep or Path(folder)) / f"{game_id}.txt"
                corpus = worker("corpus", game_id, args.actions, args.seed, rec).data()
                print(f"profiling {game_id}: {corpus['games']} games, {corpus['actions']:,} actions", file=sys.stderr)
                command = [spy, "record", "--nonblocking", "--function", "--format", "raw", "-r", str(args.rate)]
                command += ["-o", str(raw), "--", sys.executable, str(WORKER), "check", str(rec)]
                env = dict(os.environ, PYTHONHASHSEED="0")
                proc = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
                if proc.returncode != 0 or not raw.exists():
                    raise BenchError(
                        f"py-spy failed on {game_id} (it needs to ptrace its child: run as root or allow ptrace):\n"
                        + (proc.stderr.strip() or proc.stdout.strip())
                    )
                summary = aggregate(read_stacks(raw))
                inside = summary["inside"]
                if not inside:
                    raise BenchError(f"py-spy recorded no sample inside {ROOT} for {game_id}")
                per = 1 / args.rate
                out += [
                    f"### {game_id}",
                    "",
                    f"{corpus['games']} games, {corpus['actions']:,} actions; {inside:,} samples in {ROOT}"
                    f" (≈ {inside * per:.2f} s), {summary['outside']:,} before it (interpreter start, imports).",
                    "",
                ]
                out += _table("Steps of the replay loop", summary["stages"], inside, args.top, per, "step")
                out += _table("Top by own time", summary["own"], inside, args.top, per)
                out += _table("Top by cumulative time", summary["cumulative"], inside, args.top, per)
                out += _table("Own time by file", summary["by_file"], inside, args.top, per, "file")
    except BenchError as error:
        print(f"bench.profile: {error}", file=sys.stderr)
        return 2
    text = "\n".join(out)
    print(text)
    if args.markdown is not None:
        args.markdown.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
