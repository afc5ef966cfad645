"""The ``referee`` command line: check logs in bulk, score, explain a position, generate games, list rule options.

Every command that judges records drives the one replay loop (``referee.replay.Referee``); none replays on its own.
Heavy modules (z3 for ``prove``) are imported only by the command that needs them.
"""

from __future__ import annotations

import errno
import importlib
import json
import logging
import os
import random
import signal
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, ClassVar, NoReturn

import click

from referee.cli_options import RECORD_PATHS, OutputFile, read_policy, reading_options, running_options
from referee.errors import CATALOGUE, JOB_FAILED, JobFailed, RefereeError, Verdict
from referee.files import FileExists, complete_standard_output, new_file, write_new_file, written_by_referee
from referee.formats import GONE, JUNIT_MARK, TRACE_MISMATCH, GitHubWriter, JUnitWriter, SarifWriter
from referee.game import GameState, GameType, GeneratorFailed, option_docs
from referee.progress import RunProgress, wanted
from referee.record import GameRecord, iter_games
from referee.registry import GAMES, find_game
from referee.replay import GameReport, Referee, ReplayVisitor, find_records
from referee.resources import DEFAULT_MAX_BYTES, USER_POLICY, ReadRefused, copy_beside, read_limited
from referee.stopping import signal_of, sigterm_stops_the_run, stop_message, stopping
from referee.variant import Variant, find_variant, record_tag, registered_variants, resolve_options, variant_rules

DEFAULT_NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena", "Fedor", "Galina", "Hugo"]


def _quiet_exit(status: int, message: str | None = None) -> NoReturn:
    """End the run with ``status`` and at most one line on standard error; no later write to a broken standard
    output (a full disk, a closed pipe) is attempted, so nothing follows the line."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            _discard_output(stream)
    if message is not None:
        try:
            click.echo(message, err=True)
            sys.stderr.flush()
        except (OSError, ValueError):
            _discard_output(sys.stderr)
    sys.exit(status)


def _discard_output(stream: Any) -> None:
    """Point a stream that can no longer be written at /dev/null, so the interpreter's last flush is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


class RefereeGroup(click.Group):
    """The command group. What stops a run is reported in one line, with its own exit status: an interrupt (Ctrl-C,
    SIGTERM) 128 + the signal (130, 143), as shells expect; a job that could not be done (a file that cannot be
    written, lost workers, an unreachable cluster, a full disk under standard output) 3 — never 1, the status of a
    judged problem, and never a traceback.

    Commands with heavy imports live in their own modules, named in ``LAZY`` ("module:attribute") and imported only
    when run or listed, so ``referee check`` starts fast."""

    LAZY: ClassVar[dict[str, str]] = {
        "fmt": "referee.fmt:fmt",
        "trace": "referee.traces:trace",
        "variant": "referee.variants_cli:variant",
        "stats": "referee.variants_cli:stats",
        "report": "referee.report.command:report",
        "serve": "referee.live.command:serve",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is None and name in self.LAZY:
            module, _, attribute = self.LAZY[name].partition(":")
            found = getattr(importlib.import_module(module), attribute)
            assert isinstance(found, click.Command)
            command = found
        return command

    def invoke(self, ctx: click.Context) -> Any:
        complete_standard_output()
        with sigterm_stops_the_run():
            try:
                result = super().invoke(ctx)
            except SystemExit as done:
                _quiet_exit_on_broken_output()
                raise done from None
            except KeyboardInterrupt as stop:
                _quiet_exit(stopping(stop), stop_message(signal_of(stop)))
            except FileExists as exists:
                _quiet_exit(2, f"Error: {exists}")
            except JobFailed as failed:
                _quiet_exit(JOB_FAILED, f"referee: {failed}")
            except BrokenPipeError:  # the reader of standard output went away (``| head``): stop, as SIGPIPE would
                _quiet_exit(128 + signal.SIGPIPE)
            except OSError as exc:
                _quiet_exit(JOB_FAILED, f"referee: {_os_error(exc)}")
            _quiet_exit_on_broken_output()
            return result


def _quiet_exit_on_broken_output() -> None:
    """Flush standard output now, so that a full disk or a closed pipe under it is one line, not a traceback at exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_exit(128 + signal.SIGPIPE)
    except OSError as exc:
        _quiet_exit(JOB_FAILED, f"referee: cannot write to standard output: {exc.strerror or exc}")


def _os_error(exc: OSError) -> str:
    """An operating-system failure in words: what it was about and why."""
    reason = exc.strerror or str(exc)
    if exc.filename:
        return f"{exc.filename}: {reason}"
    if exc.errno in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG):
        return f"cannot write to standard output: {reason}"
    return reason


def _game_arg(name: str) -> GameType:
    game = find_game(name)
    if game is None:
        raise click.BadParameter(f"unknown game '{name}' (games: {', '.join(GAMES)})")
    return game


def _judged(paths: Iterable[str], referee: Referee) -> Iterator[GameReport]:
    """Every game of the paths, in order, on the cores or the cluster the command line asked for."""
    ctx = click.get_current_context(silent=True)
    jobs = ctx.params.get("jobs") if ctx is not None else None
    dask = ctx.params.get("dask") if ctx is not None else None
    sources = find_records(paths)
    if dask:
        from referee.parallel import judge_on_dask

        _silence_dask_logs()
        yield from judge_on_dask(sources, referee, dask)
        return
    from referee.parallel import default_jobs, judge_parallel

    yield from judge_parallel(sources, referee, jobs or default_jobs())


def _silence_dask_logs() -> None:
    """What goes wrong with a cluster is said once, in one line (``ClusterFailed``): none of Dask's own log lines,
    which it writes to standard error as it loses the scheduler (some after the run, as the process exits)."""
    try:
        import distributed  # noqa: F401 - its loggers and their handler are set up on import
    except ImportError:  # judge_on_dask says what to install
        return
    for name in [name for name in logging.root.manager.loggerDict if name.split(".")[0] == "distributed"]:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    for handler in logging.getLogger("distributed").handlers:
        handler.setLevel(logging.CRITICAL)


def _describe(report: GameReport) -> str:
    head = f"{report.file} #{report.index} {report.game or '?'}: {report.verdict.value}"
    if report.error is not None:
        error = report.error
        head += f" at {error.line}:{error.column} [{error.code}] {error.message}"
    elif report.outcome is not None:
        head += f" — {_winners(report)}"
    elif report.verdict is Verdict.UNFINISHED:
        head += f" after {report.statements} statements"
    if report.expectation_problem is not None:
        head += f" (Expect tag unreadable: {report.expectation_problem})"
    elif (met := report.expectation_met) is not None:
        head += " (as expected)" if met else f" (EXPECTED {report.expectation})"
    return head


def _winners(report: GameReport) -> str:
    outcome = report.outcome
    assert outcome is not None
    verb = "wins" if len(outcome.winners) == 1 else "share the win"
    text = f"{' & '.join(outcome.winners)} {verb}"
    if outcome.scores:
        text += " (" + ", ".join(f"{name} {vp}" for name, vp in outcome.scores.items()) + ")"
    else:
        text += f" ({outcome.termination.description})"
    if outcome.tiebreak:
        text += f"; {outcome.tiebreak}"
    return text


FORMATS = click.Choice(["text", "jsonl", "sarif", "github"])
FORMAT_HELP = (
    "text: a line per game and a summary; jsonl: one JSON object per game; sarif: a SARIF 2.1.0 log of the problems "
    "(code scanning); github: workflow commands that annotate the record lines in a pull request."
)
JUNIT_OPTION = click.option(
    "--junit",
    type=OutputFile(stdout=False),
    default=None,
    help="Also write a JUnit XML report (a test case per game) to this file: a new file, or one referee wrote.",
)


def _writers(stack: ExitStack, fmt: str, junit: Path | None) -> list[Any]:
    """The report writers of a run: the chosen machine format on standard output, and a JUnit file."""
    writers: list[Any] = []
    base = Path.cwd()
    if junit is not None and junit.exists() and not _own_junit_report(junit):
        raise click.UsageError(f"{junit} exists and is not a referee JUnit report; referee never overwrites a file")
    stdout = sys.stdout
    if fmt == "sarif":
        writers.append(SarifWriter(stdout, base=base))
    elif fmt == "github":
        writers.append(GitHubWriter(stdout, base=base))
    if junit is not None:
        writers.append(JUnitWriter(stack.enter_context(new_file(junit, _own_junit_report)), base=base))
    return writers


@click.group(cls=RefereeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee")
def main() -> None:
    """Referee for board-game records: is this log legal, move by move, and who won?"""


@main.command()
@RECORD_PATHS
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True, help=FORMAT_HELP)
@JUNIT_OPTION
@click.option(
    "-v", "--verbose", is_flag=True, help="For each error also print the rule, the state and the legal alternatives."
)
@click.option("--ignore-expect", is_flag=True, help="Judge records by their verdict alone, ignoring Expect tags.")
@reading_options
@running_options
def check(
    paths: tuple[str, ...],
    fmt: str,
    junit: Path | None,
    verbose: bool,
    ignore_expect: bool,
    max_size: int,
    allow_dirs: tuple[Path, ...],
    allow_any_path: bool,
    jobs: int | None,
    dask: str | None,
) -> None:
    """Judge every game in PATHS (files, folders searched for *.rec, or - for standard input).

    Exit status: 0 when every game is valid or unfinished (or judged as its Expect tag states), 1 otherwise (or when
    no record was found), 2 for usage errors, 3 when the job could not be done (a file not written, workers or the
    cluster lost), 130 when interrupted (143: SIGTERM).
    """
    referee = Referee(read_policy(max_size, allow_dirs, allow_any_path))
    counts: Counter[Verdict] = Counter()
    expected = failed = total = 0
    with ExitStack() as stack:
        writers = _writers(stack, fmt, junit)
        progress = stack.enter_context(RunProgress(paths, wanted(fmt, junit)))  # a terminal only
        for report in _judged(paths, referee):
            if ignore_expect:
                report.expectation = None
                report.expectation_problem = None
            total += 1
            counts[report.verdict] += 1
            expected += bool(report.expectation_met)
            failed += not report.ok
            for writer in writers:
                writer.add(report)
            progress.add(report, problem=not report.ok)
            if fmt == "jsonl":
                click.echo(json.dumps(report.as_dict(), ensure_ascii=False))
            elif fmt == "text":
                click.echo(_describe(report))
                if verbose and report.error is not None:
                    _print_error_detail(report.error)
        for writer in writers:
            writer.close()
    if total == 0:
        click.echo(f"no record files (*.rec) found in {', '.join(paths)}", err=True)
        sys.exit(1)
    if fmt == "text":
        parts = [f"{counts[v]} {v.value}" for v in Verdict if counts[v]]
        summary = f"{total} game(s): " + (", ".join(parts) or "none")
        if expected:
            summary += f"; {expected} judged as their Expect tag states"
        summary += f"; {failed} problem(s)" if failed else "; all good"
        click.echo(summary)
        progress.table()
    sys.exit(1 if failed else 0)


def _print_error_detail(error: RefereeError) -> None:
    click.echo(f"    rule: {error.kind.summary}")
    if error.state:
        click.echo("    state:")
        for line in error.state.splitlines():
            click.echo(f"      {line}")
    if error.alternatives:
        click.echo("    legal here:")
        for alternative in error.alternatives:
            click.echo(f"      {alternative}")
        if error.alternatives_left:
            more = error.alternatives_left
            click.echo(f"      … and {more} more ('referee explain FILE --line {error.line}' lists them all)")


# ------------------------------------------------------------------------------------------------------ regress
SNAPSHOT_FIELDS = ("verdict", "code", "line", "scores", "winners")


def _snapshot(report: GameReport) -> dict[str, Any]:
    """What a baseline stores of a judged game: enough to see any change in how it is judged."""
    error, outcome = report.error, report.outcome
    return {
        "file": report.file,
        "key": report.key or Path(report.file).name,
        "index": report.index,
        "verdict": report.verdict.value,
        "code": error.code if error else None,
        "line": error.line if error else None,
        "scores": outcome.scores if outcome else None,
        "winners": sorted(outcome.winners) if outcome else None,
    }


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return [f"{key} {old.get(key)!r} -> {new.get(key)!r}" for key in SNAPSHOT_FIELDS if old.get(key) != new.get(key)]


class Baseline:
    """A stored run, looked up by a file's path relative to the argument it was found under — so a baseline saved
    from another working folder, or with another spelling of the same folder, still matches. When the arguments
    differ in depth (``records/`` then ``records/san-juan/``) a key matches the stored key it ends with."""

    def __init__(self, path: Path) -> None:
        self.rows: dict[tuple[str, int], dict[str, Any]] = {}
        try:
            lines = read_limited(path, DEFAULT_MAX_BYTES).decode("utf-8").splitlines()
        except ReadRefused as refused:
            raise click.UsageError(f"{path}: cannot read the baseline ({refused.reason})") from None
        except UnicodeDecodeError:
            raise click.UsageError(f"{path}: the baseline is not UTF-8 text") from None
        for number, line in enumerate(lines, 1):
            try:
                row = json.loads(line)
                key = str(row.get("key") or Path(row["file"]).name)
                index = row["index"]
                if not isinstance(index, int) or isinstance(index, bool):
                    raise TypeError(index)
                self.rows[(key, index)] = row
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError, OverflowError):
                raise click.UsageError(f"{path}:{number}: not a baseline line (make one with --save)") from None
        self.seen: set[tuple[str, int]] = set()

    def find(self, key: str, index: int) -> dict[str, Any] | None:
        found = self.rows.get((key, index))
        if found is None:
            candidates = [k for k in self.rows if k[1] == index and _same_file(k[0], key)]
            if len(candidates) == 1:
                found = self.rows[candidates[0]]
                key = candidates[0][0]
        if found is not None:
            self.seen.add((str(found.get("key") or Path(found["file"]).name), index))
        return found

    def missing(self, judged_keys: set[str], paths: Sequence[str]) -> list[tuple[str, int]]:
        """Games the baseline has and this run did not find: of a judged file, or of a file the baseline places inside
        a judged folder (a record file deleted since; the stored path read from the working folder)."""
        folders = [Path(path).resolve() for path in paths if path != "-" and Path(path).is_dir()]

        def in_scope(key: str, row: dict[str, Any]) -> bool:
            if any(_same_file(key, judged) for judged in judged_keys):
                return True
            file = row.get("file")
            if not folders or not isinstance(file, str):
                return False
            try:
                resolved = Path(file).resolve()
            except (OSError, ValueError, RuntimeError):  # not a path of this system
                return False
            return any(resolved.is_relative_to(folder) for folder in folders)

        return sorted(k for k, row in self.rows.items() if k not in self.seen and in_scope(k[0], row))


def _same_file(a: str, b: str) -> bool:
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


@main.command()
@RECORD_PATHS
@click.option(
    "--baseline",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Compare verdicts, codes, lines, scores and winners with this stored run (made with --save).",
)
@click.option(
    "--save",
    type=OutputFile(stdout=False),
    default=None,
    help="Store this run as a baseline file (JSON lines); refuses to overwrite an existing file.",
)
@click.option(
    "--house-rule",
    "house_rule",
    default=None,
    help="Judge every record with this variant (registered name or file) laid over its own tags and compare with "
    "--baseline (required): what does this house rule change?",
)
@click.option(
    "--traces",
    "traces_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Also compare the golden traces stored in this folder (one per record: its path relative to the argument, "
    ".rec -> .trace) with fresh ones; a game differs at the first statement whose trace differs.",
)
@click.option(
    "--update",
    is_flag=True,
    help="With --traces: rewrite the stored traces that differ (a rules change made on purpose) instead of "
    "reporting them.",
)
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True, help=FORMAT_HELP)
@JUNIT_OPTION
@reading_options
@running_options
def regress(
    paths: tuple[str, ...],
    baseline: Path | None,
    save: Path | None,
    house_rule: str | None,
    traces_dir: Path | None,
    update: bool,
    fmt: str,
    junit: Path | None,
    max_size: int,
    allow_dirs: tuple[Path, ...],
    allow_any_path: bool,
    jobs: int | None,
    dask: str | None,
) -> None:
    """Rule-regression check: is every stored game still judged as it should be?

    A game must be judged as its Expect tag states (valid or unfinished when it states none); with --baseline, its
    verdict, error code and line, scores and winners must also equal the stored ones; with --traces, its replay must
    equal its stored golden trace. With --house-rule (which needs --baseline) the records' claims, written for their
    own rules, are noted rather than stopping a game, so the new scores and winners show. Prints the games that
    differ, then a summary. Exit 0 when none differ, 1 otherwise, 2 for usage errors, 3 when the job could not be
    done, 130 when interrupted.
    """
    if update and traces_dir is None:
        raise click.UsageError("--update rewrites stored golden traces: give the folder with --traces DIR")
    if save is not None and save.exists():
        raise click.UsageError(f"{save} exists; referee never overwrites a file (choose another name)")
    rule = _house_rule(house_rule, baseline)
    stored = Baseline(baseline) if baseline is not None else None
    referee = Referee(read_policy(max_size, allow_dirs, allow_any_path), rule, check_claims=rule is None)
    traces = None
    if traces_dir is not None:
        from referee.traces import TraceStore

        traces = TraceStore(traces_dir, referee, update)
    judged_keys: set[str] = set()
    total = changed = 0
    with ExitStack() as stack:
        saved = stack.enter_context(new_file(save)) if save is not None else None
        writers = _writers(stack, fmt, junit)
        progress = stack.enter_context(RunProgress(paths, wanted(fmt, junit), problems="differ"))  # a terminal only
        for report in _judged(paths, referee):
            total += 1
            snap = _snapshot(report)
            if saved is not None:
                saved.write(json.dumps(snap, ensure_ascii=False) + "\n")
            judged_keys.add(snap["key"])
            problems = _expectation_problems(report) if rule is None else []
            differences = _baseline_differences(report, snap, stored, rule)
            placed: dict[str, Any] = {}
            traced = traces.check(report) if traces is not None else None
            if traced is not None:  # placed at the first statement that differs, when nothing else does
                placed = {} if differences else {"line": traced.line, "rule": TRACE_MISMATCH}
                differences.append(traced.summary)
            problems += differences
            progress.add(report, problem=bool(problems))
            for writer in writers:
                writer.add(report, differences=differences, expect=rule is None, **placed)
            if problems:
                changed += 1
                if fmt == "jsonl":
                    extra = {"trace_diff": list(traced.diff)} if traced is not None else {}
                    click.echo(json.dumps({**snap, "problems": problems, **extra}, ensure_ascii=False))
                elif fmt == "text":
                    click.echo(f"{report.file} #{report.index}: " + "; ".join(problems))
                    for diff_line in traced.diff if traced is not None else ():
                        click.echo(f"    {diff_line}")
        if stored is not None:
            for key, index in stored.missing(judged_keys, paths):  # a game gone from a judged file or folder
                changed += 1
                file = str(stored.rows[(key, index)].get("file") or key)
                for writer in writers:
                    writer.add_gone(file, index)
                if fmt == "jsonl":  # a line like any other differing game's, with nothing judged
                    row = {"file": file, "key": key, "index": index} | dict.fromkeys(SNAPSHOT_FIELDS)
                    click.echo(json.dumps({**row, "problems": [GONE]}, ensure_ascii=False))
                elif fmt == "text":
                    click.echo(f"{key} #{index}: {GONE}")
        for writer in writers:
            writer.close()
        if total == 0:
            raise click.ClickException(f"no record files (*.rec) found in {', '.join(paths)}")
    if fmt == "text":
        suffix = f" with house rule {rule.name}" if rule else ""
        click.echo(
            f"{total} game(s){suffix}: {changed} differ"
            + (f" (baseline {baseline})" if baseline else "")
            + (f"; baseline written to {save}" if save else "")
            + (f"; {traces.compared} golden trace(s) compared" if traces is not None else "")
            + (f", {len(traces.updated)} updated" if traces is not None and update else "")
        )
        progress.table()
    sys.exit(1 if changed else 0)


def _house_rule(house_rule: str | None, baseline: Path | None) -> Variant | None:
    """The variant of ``regress --house-rule``; it needs a baseline, as there is nothing to compare with otherwise."""
    if house_rule is None:
        return None
    if baseline is None:
        raise click.UsageError(
            "--house-rule compares the games under the house rule with a baseline of the same games under their "
            "own rules: give --baseline FILE (make one with 'referee regress PATH --save FILE')"
        )
    try:
        found = find_variant(house_rule, Path.cwd(), USER_POLICY)
        variant_rules(found)  # a bad file is refused here, not game after game
        return found
    except RefereeError as error:
        raise click.BadParameter(error.message, param_hint="--house-rule") from None


def _expectation_problems(report: GameReport) -> list[str]:
    """A game judged otherwise than its Expect tag states (valid or unfinished when it states none)."""
    if report.ok:
        return []
    expected = str(report.expectation) if report.expectation else "valid or unfinished"
    return [f"judged {_describe(report).split(': ', 1)[1]}; expected {expected}"]


def _baseline_differences(
    report: GameReport, snap: dict[str, Any], stored: Baseline | None, rule: Variant | None
) -> list[str]:
    """How a game differs from its stored run; under a house rule, also how many of its claims broke."""
    if stored is None:
        return []
    old = stored.find(snap["key"], snap["index"])
    differences = ["not in the baseline"] if old is None else _differences(old, snap)
    if rule is not None and report.claims_broken and differences:
        first = report.claims_broken[0]
        differences.append(
            f"{len(report.claims_broken)} claim(s) of the record no longer hold (first: line {first.line} "
            f"[{first.code}] {first.message})"
        )
    return differences


_own_junit_report = written_by_referee(JUNIT_MARK, 200)  # a JUnit report an earlier referee run wrote


# -------------------------------------------------------------------------------------------------------- score
@main.command()
@RECORD_PATHS
@reading_options
@running_options
def score(
    paths: tuple[str, ...],
    max_size: int,
    allow_dirs: tuple[Path, ...],
    allow_any_path: bool,
    jobs: int | None,
    dask: str | None,
) -> None:
    """Final scores of every finished game in PATHS (files, folders or -), by source, with the tie-break used.

    Exit 1 when a game is illegal or malformed (not as its Expect tag states) or no record was found.
    """
    failed = total = 0
    for report in _judged(paths, Referee(read_policy(max_size, allow_dirs, allow_any_path))):
        total += 1
        click.echo(_describe(report))
        failed += not report.ok
        outcome = report.outcome
        if outcome is None:
            continue
        for name, parts in outcome.breakdown.items():
            # VP sources are signed; the total and what follows it (tie-break data) are plain
            keys = list(parts)
            cut = keys.index("total") if "total" in keys else len(keys)
            detail = ", ".join(
                f"{key} {parts[key]:+d}" if i < cut else f"{key} {parts[key]}" for i, key in enumerate(keys)
            )
            click.echo(f"  {name}: {detail}")
        how = outcome.tiebreak or outcome.termination.description
        click.echo(f"  winner(s): {', '.join(outcome.winners)} ({how})")
    if total == 0:
        click.echo(f"no record files (*.rec) found in {', '.join(paths)}", err=True)
        sys.exit(1)
    sys.exit(1 if failed else 0)


# ------------------------------------------------------------------------------------------------------ explain
class StopBefore(ReplayVisitor):
    """Replays up to (not including) one line, keeping the state there, or the state before an earlier error."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.state: GameState | None = None
        self.game: GameType | None = None
        self.failure: RefereeError | None = None

    def begin(self, record: GameRecord, game: GameType, state: GameState) -> None:
        self.game, self.state = game, state

    def before(self, number: int, text: str) -> bool:
        return number < self.line

    def error(self, error: RefereeError, state: GameState | None) -> None:
        self.failure = error


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "--line", "line_number", type=click.IntRange(min=1), required=True, help="Show the state before this line."
)
@reading_options
def explain(file: str, line_number: int, max_size: int, allow_dirs: tuple[Path, ...], allow_any_path: bool) -> None:
    """The state just before line N of FILE and the statements that would be legal there."""
    referee = Referee(read_policy(max_size, allow_dirs, allow_any_path))
    (source,) = find_records([file])
    record = None
    try:
        for candidate in iter_games(source.lines(referee.policy), source.display):
            if candidate.first_line > line_number:
                break
            record = candidate
    except ReadRefused as refused:
        click.echo(f"{source.display}:1:1: malformed [unreadable-file] cannot read the file: {refused.reason}")
        sys.exit(1)
    if record is None:
        raise click.UsageError(f"line {line_number} is before the first game of {source.display}")
    stop = StopBefore(line_number)
    report = referee.judge(record, source.record_dir, stop)
    error = stop.failure
    if error is not None:
        click.echo(
            f"{source.display}:{error.line}:{error.column}: {error.verdict.value} [{error.code}] {error.message}"
        )
    if stop.state is None or stop.game is None:  # the tag section itself is broken
        sys.exit(1)
    if error is not None:
        click.echo(f"(the game breaks before line {line_number}; the state below is the one before line {error.line})")
    click.echo(
        f"{stop.game.title} ({report.ruleset}), game #{record.index} of {source.display}, before line {line_number}:"
    )
    for text_line in stop.state.summary().splitlines():
        click.echo(f"  {text_line}")
    click.echo("legal here:")
    for statement in stop.state.all_legal_statements():  # every one: a shortened list would hide legal statements
        click.echo(f"  {statement}")


# --------------------------------------------------------------------------------------------------------- play
@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-n", type=int, default=3, show_default=True, help="Number of players.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Random seed: same seed, same record.")
@click.option("--ruleset", "-r", default=None, help="Ruleset name (default: the game's default).")
@click.option("--variant", default=None, help="House-rule variant: a registered name or a variant file.")
@click.option(
    "--games", "count", type=click.IntRange(min=1), default=1, show_default=True, help="How many games to write."
)
@click.option(
    "-o",
    "--output",
    type=OutputFile(stdout=True),
    default=None,
    help="Write to this new file (refuses to overwrite one that exists) instead of standard output.",
)
def play(
    game_name: str,
    players: int,
    seed: int,
    ruleset: str | None,
    variant: str | None,
    count: int,
    output: Path | None,
) -> None:
    """Write complete random legal games of GAME as a record, claims filled in."""
    game = _game_arg(game_name)
    if not game.min_players <= players <= game.max_players:
        raise click.BadParameter(
            f"{game.title} takes {game.min_players}-{game.max_players} players", param_hint="--players"
        )
    if output is not None and output.exists():
        raise click.UsageError(f"{output} exists; referee never overwrites a file (choose another name)")
    try:
        options, label = resolve_options(game, ruleset, variant, Path.cwd(), USER_POLICY)
    except RefereeError as error:
        raise click.BadParameter(error.message) from None
    names = DEFAULT_NAMES[:players]
    try:  # options that do not fit this many players (the deck, the board), as check would refuse them at setup
        game.new_state(names, options)
    except (ValueError, RefereeError) as problem:
        message = getattr(problem, "message", str(problem))
        raise click.BadParameter(f"{label} cannot set up a game of {players} players: {message}") from None

    def records(variant_tag: str | None) -> str:
        texts = []
        for k in range(count):
            tags = {"Event": "referee play", "Ruleset": ruleset or game.default_ruleset, "Seed": str(seed + k)}
            if variant_tag:
                tags["Variant"] = variant_tag
            try:
                texts.append(game.play(names, random.Random(seed + k), options, tags))
            except GeneratorFailed as failed:  # a house rule under which a game cannot be played to its end
                hint = f"; 'referee variant check {variant}' says why" if variant else ""
                reason = str(failed).split("\n", 1)[0].rstrip(":")  # its first line (a state summary may follow)
                raise JobFailed(f"cannot play game {k + 1} of {game.title} ({label}): {reason}{hint}") from None
        return "\n".join(texts)

    if output is None:  # the tag as given: where the text goes, only the user knows
        click.echo(records(variant), nl=False)
        return
    tag, variant_file = _variant_tag(game, variant) if variant else (None, None)
    text = records(tag)
    if variant_file is not None:  # a file: copied beside the record, where the referee looks for it when it judges it
        try:
            copied = copy_beside(variant_file, output.parent)
        except (OSError, ReadRefused) as refused:
            raise JobFailed(f"cannot copy {variant_file} beside {output}: {refused}") from None
        if copied != tag:  # a different file of that name is there already: the copy has a name of its own
            text = records(copied)
    write_new_file(output, text)
    click.echo(f"wrote {count} game(s) of {game.title} ({label}) to {output}")


def _variant_tag(game: GameType, reference: str) -> tuple[str, Path | None]:
    """The Variant tag a record written to a file carries, and the variant file to copy beside it (``record_tag``)."""
    return record_tag(find_variant(reference, Path.cwd(), USER_POLICY, game), reference)


# ------------------------------------------------------------------------------------------- options and codes
@main.command()
@click.argument("game_name", metavar="GAME", required=False)
def options(game_name: str | None) -> None:
    """List the rule options of a game (or all games), their defaults per ruleset, and the registered variants."""
    games = [_game_arg(game_name)] if game_name else list(GAMES.values())
    for game in games:
        click.echo(f"{game.title} ({game.id}); rulesets: {', '.join(game.rulesets)} (default {game.default_ruleset})")
        for name, default, doc in option_docs(game.options_type):
            per_ruleset = {r: getattr(o, name) for r, o in game.rulesets.items()}
            if len(set(map(str, per_ruleset.values()))) > 1:
                values = ", ".join(f"{r}: {v}" for r, v in per_ruleset.items())
            else:
                values = str(default)
            click.echo(f"  {name} = {values}\n      {doc}")
        tags = ", ".join(f"[{tag}] sets {option}" for tag, option in game.tag_options.items())
        if tags:
            click.echo(f"  tags: {tags}")
    shown = [v for v in registered_variants().values() if game_name is None or find_game(v.game) in games]
    if shown:
        click.echo("registered variants:")
        for variant in shown:
            click.echo(f"  {variant.name} ({variant.game}): {variant.description}")


@main.command()
def codes() -> None:
    """List every error code with its verdict and the rule it stands for."""
    list(GAMES.values())  # loading the games registers their codes
    for code, kind in sorted(CATALOGUE.items()):
        click.echo(f"{code:28} {kind.verdict.value:10} {kind.summary}")


# -------------------------------------------------------------------------------------------------------- prove
@main.command("prove")
@click.option("--game", "game_name", default=None, help="Only this game (default: every game with proofs).")
@click.option("--ruleset", "-r", default=None, help="Only this ruleset (default: every ruleset).")
@click.option("--variant", default=None, help="Prove the rules of a house-rule variant (registered name or file).")
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("counterexamples"),
    show_default=True,
    help="Folder for the records showing counterexamples.",
)
def prove(game_name: str | None, ruleset: str | None, variant: str | None, output: Path) -> None:
    """Prove the arithmetic rules (prices, scoring tables, card counts) for every value the rules allow.

    Prints 'proved' or 'counterexample' with concrete values for each property; a counterexample a record can show
    is written to a record file and judged. Exit status: 0 when all are proved (or the game has no proofs: it says
    so), 1 when any counterexample.
    """
    from referee.proofs import run_proofs  # z3 is loaded only here

    sys.exit(run_proofs(game_name, ruleset, variant, output))


if __name__ == "__main__":  # pragma: no cover
    main()
