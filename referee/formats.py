"""CI report formats for judged games: JUnit XML, SARIF 2.1.0 and GitHub Actions workflow commands.

CI servers do not read the referee's text or jsonl output; they read these three formats. Every writer here takes
``GameReport`` objects one at a time (``add``) or as an iterable (``write_*``), so the CLI can feed them from the same
loop that prints its own lines, and none keeps the reports themselves: JUnit keeps the test cases of the current file
only (a ``<testsuite>`` states its counts up front), SARIF keeps the few problems (its results are sorted), and GitHub
annotations go out one line per problem as they arrive.

A game is a *problem* exactly when ``report.ok`` is false — illegal or malformed without an ``Expect`` tag, or not
judged as its ``Expect`` tag states — so every format agrees with the exit status of ``referee check``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import socket
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, TextIO, cast

from referee.errors import CATALOGUE, ErrorKind, RecordCode, Verdict
from referee.registry import GAMES
from referee.replay import STDIN_NAME, GameReport

__all__ = [
    "BASELINE_MISMATCH",
    "EXPECTATION_MISMATCH",
    "SARIF_SCHEMA_URI",
    "SRCROOT",
    "TRACE_MISMATCH",
    "GitHubWriter",
    "JUnitWriter",
    "Problem",
    "SarifWriter",
    "display_path",
    "github_command",
    "github_lines",
    "problem_of",
    "sarif_log",
    "sarif_rules",
    "tool_version",
    "write_github",
    "write_junit",
    "write_sarif",
]

EXPECTATION_MISMATCH = "expectation-mismatch"
"""The rule of a game judged without error (valid or unfinished) whose ``Expect`` tag states another verdict: no
catalogue code names that problem, since the record itself is fine; the test corpus is what is wrong."""

EXPECTATION_SUMMARY = "The game is not judged as its Expect tag states (the record itself breaks no rule)."

BASELINE_MISMATCH = "baseline-mismatch"
"""The rule of a game that ``referee regress --baseline`` finds judged differently from the stored run, when nothing
else is wrong with it (a changed score, a game that became valid)."""

BASELINE_SUMMARY = "The game is judged differently from the stored baseline (verdict, code, line, scores or winners)."

TRACE_MISMATCH = "trace-mismatch"
"""The rule of a game whose golden trace (``referee regress --traces``) differs from a fresh one — a statement's
text, the phase or turn, the state or the number of legal statements after it — when nothing else is wrong with it;
placed at the record line of the first statement that differs."""

TRACE_SUMMARY = (
    "The game's replay differs from its stored golden trace (a statement, the phase or turn, the state or the number "
    "of legal statements after it)."
)

SRCROOT = "%SRCROOT%"
"""The ``uriBaseId`` of every result: the record paths are relative to the folder the CI checked out."""

SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def tool_version() -> str:
    """The installed referee's version, as every format names its producer."""
    try:
        return version("referee")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0.0.0"


# ---------------------------------------------------------------------------------------------------------------
# What a game that is not ok amounts to, once for all formats


@dataclass(frozen=True)
class Problem:
    """A game that is not ``ok``, located: the one thing all three formats report, so they never disagree."""

    file: str
    path: str
    index: int
    first_line: int
    line: int
    column: int
    code: str
    verdict: str
    message: str
    rule: str
    game: str | None = None
    expected: str | None = None
    state: str = ""
    alternatives: tuple[str, ...] = ()
    internal: bool = False

    @property
    def located(self) -> str:
        """``line:col [code] message``: what a CI summary line shows."""
        return f"{self.line}:{self.column} [{self.code}] {self.message}"

    def detail(self) -> str:
        """The long form (a JUnit failure body): where, the rule, the expectation, the state, the legal moves."""
        lines = [f"{self.path}:{self.line}:{self.column}: {self.verdict} [{self.code}] {self.message}"]
        lines.append(f"rule: {self.rule}")
        if self.expected is not None:
            lines.append(f"expected (Expect tag): {self.expected}")
        if self.state:
            lines.append("state:")
            lines.extend(f"  {text}" for text in self.state.splitlines())
        if self.alternatives:
            lines.append("legal here:")
            lines.extend(f"  {text}" for text in self.alternatives)
        return "\n".join(lines)


def display_path(file: str, base: Path | None = None) -> str:
    """The record path as CI tools match it: relative to ``base`` (the checkout) with ``/``, else as given.

    ``abspath`` rather than ``resolve``: a symlinked record is reported where the user put it, not at its target.
    """
    if base is not None:
        try:
            relative = Path(os.path.abspath(file)).relative_to(os.path.abspath(base))
        except ValueError:
            pass
        else:
            return relative.as_posix()
    return file.replace(os.sep, "/") if os.sep != "/" else file


def _judged(report: GameReport) -> str:
    """How the game was judged, in words, for a message that must say why an expectation failed."""
    if report.error is not None:
        error = report.error
        return f"{report.verdict.value} [{error.code}] at line {error.line}"
    if report.verdict is Verdict.UNFINISHED:
        return f"unfinished after {report.statements} statement(s)"
    return report.verdict.value


def problem_of(
    report: GameReport,
    base: Path | None = None,
    *,
    differences: Sequence[str] = (),
    expect: bool = True,
    line: int | None = None,
    rule: str = BASELINE_MISMATCH,
) -> Problem | None:
    """The problem a report stands for, or None when the game is judged as it should be.

    A game with an error is reported under its error's code at the error's place, even when the problem is that an
    ``Expect`` tag stated something else (the message then says what was expected): the code is what a reader
    needs to fix either the record or the referee. A game without error whose ``Expect`` tag fails gets the
    ``expectation-mismatch`` rule at the game's first line (the report carries no position for the tag itself).

    For ``referee regress``: ``differences`` (what changed against the baseline, in the CLI's words) make a game a
    problem too — under ``baseline-mismatch`` when it is otherwise fine — and ``expect=False`` leaves ``report.ok``
    out (with a house rule the Expect tags speak of other rules, so only the baseline counts). ``line`` places such a
    difference (the first statement whose golden trace differs) and ``rule`` names it (``trace-mismatch``).
    """
    path = display_path(report.file, base)
    changed = "; ".join(differences)
    if expect and not report.ok:
        problem = _judged_problem(report, path)
        return dataclasses.replace(problem, message=f"{problem.message} (baseline: {changed})") if changed else problem
    if not changed:
        return None
    error = report.error
    return Problem(
        file=report.file,
        path=path,
        index=report.index,
        first_line=report.line,
        line=line if line is not None else error.line if error is not None and error.line > 0 else max(report.line, 1),
        column=max(error.column, 1) if error is not None and line is None else 1,
        code=rule,
        verdict=report.verdict.value,
        message=f"game {report.index} is judged {_judged(report)}, unlike the baseline: {changed}"
        if rule == BASELINE_MISMATCH
        else f"game {report.index}: {changed}",
        rule=TRACE_SUMMARY if rule == TRACE_MISMATCH else BASELINE_SUMMARY,
        game=report.game,
        expected=str(report.expectation) if report.expectation is not None else None,
        state=error.state if error is not None else "",
        alternatives=tuple(error.alternatives) if error is not None else (),
    )


GONE = "in the baseline, no longer found"
"""What ``referee regress --baseline`` says of a game the baseline has and the run did not find."""


def gone_problem(file: str, index: int, base: Path | None = None) -> Problem:
    """A game gone since the baseline (its record cut from the file, or the whole file deleted): placed at the file's
    first line, as no game is left to point at."""
    return Problem(
        file=file,
        path=display_path(file, base),
        index=index,
        first_line=1,
        line=1,
        column=1,
        code=BASELINE_MISMATCH,
        verdict="gone",
        message=f"game {index}: {GONE}",
        rule=BASELINE_SUMMARY,
    )


def _judged_problem(report: GameReport, path: str) -> Problem:
    """A game that is not ``ok``: its error, or a failed expectation on a game without error."""
    expected = str(report.expectation) if report.expectation is not None else None
    error = report.error
    if error is not None:
        message = error.message
        if expected is not None:
            message += f" (the Expect tag states '{expected}'; judged {_judged(report)})"
        return Problem(
            file=report.file,
            path=path,
            index=report.index,
            first_line=report.line,
            line=error.line if error.line > 0 else max(report.line, 1),
            column=max(error.column, 1),
            code=error.code,
            verdict=report.verdict.value,
            message=message,
            rule=error.kind.summary,
            game=report.game,
            expected=expected,
            state=error.state,
            alternatives=tuple(error.alternatives),
            internal=error.kind is RecordCode.INTERNAL,
        )
    return Problem(
        file=report.file,
        path=path,
        index=report.index,
        first_line=report.line,
        line=max(report.line, 1),
        column=1,
        code=EXPECTATION_MISMATCH,
        verdict=report.verdict.value,
        message=(
            f"game {report.index}: the Expect tag cannot be read ({report.expectation_problem})"
            if report.expectation_problem is not None
            else f"game {report.index} is judged {_judged(report)}, but its Expect tag states '{expected}'"
        ),
        rule=EXPECTATION_SUMMARY,
        game=report.game,
        expected=expected,
        state="",
    )


# ---------------------------------------------------------------------------------------------------------------
# Text that is safe in any output: record text may hold anything


def _visible(char: str) -> str:
    """A character no output can carry, written as the escape ``excerpt`` uses in messages (``\\x1b``)."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_XML_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _xml_text(text: str) -> str:
    """Element content: markup escaped, CR kept as a reference (parsers turn a raw CR into LF), the rest made
    visible."""
    text = _XML_UNSAFE.sub(lambda m: _visible(m.group()), text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def _xml_attr(text: str) -> str:
    """An attribute value in double quotes: also tab and line ends as references, which attribute-value
    normalisation would otherwise turn into spaces."""
    return _xml_text(text).replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;")


def _no_surrogates(text: str) -> str:
    """Lone surrogates (from undecodable file names) cannot be written as UTF-8: make them visible."""
    return _SURROGATE.sub(lambda m: _visible(m.group()), text)


# ---------------------------------------------------------------------------------------------------------------
# JUnit XML


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Suite:
    """The test cases of one record file, held until the file is done (a suite's counts come first)."""

    file: str
    path: str
    started: datetime
    cases: list[str]
    out: list[str]
    failures: int = 0
    errors: int = 0
    time: float = 0.0


JUNIT_MARK = "<!-- written by referee -->"  # so that a later run may replace its own report (never another file)


class JUnitWriter:
    """JUnit XML, one ``<testsuite>`` per record file and one ``<testcase>`` per game.

    One suite per file rather than one suite for the run: GitHub reporters (dorny/test-reporter) show a table per
    suite, Jenkins and GitLab group by ``classname``, which is the file path too; so every tool groups the games by
    file, and a run over many files stays readable. The document validates against both the Ant schema
    (windyroad JUnit.xsd: ``properties``, ``system-out`` and ``system-err`` in every suite, ``package``, ``id``,
    ``hostname``, ``timestamp`` without zone) and Jenkins xUnit's ``junit-10.xsd`` (at most 3 decimals of time).

    Times are measured between reports (``add`` calls): the time to judge a game is what passes before its report
    arrives. ``check_file`` judges a whole file at once, so then the first game of a file carries the file's time;
    pass ``elapsed`` to ``add`` when the caller measures each game itself.
    """

    def __init__(
        self,
        out: TextIO,
        *,
        base: Path | None = None,
        hostname: str | None = None,
        clock: Callable[[], float] = time.perf_counter,
        now: Callable[[], datetime] = _utc_now,
    ) -> None:
        self._out = out
        self._base = base
        self._hostname = hostname or socket.gethostname() or "localhost"
        self._clock = clock
        self._now = now
        self._last = clock()
        self._suite: _Suite | None = None
        self._suites = 0
        self.tests = self.problems = 0
        out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n{JUNIT_MARK}\n<testsuites>\n')

    def add(
        self,
        report: GameReport,
        elapsed: float | None = None,
        *,
        differences: Sequence[str] = (),
        expect: bool = True,
        line: int | None = None,
        rule: str = BASELINE_MISMATCH,
    ) -> None:
        """One judged game as a test case: it fails when ``problem_of`` finds a problem (same arguments)."""
        mark = self._clock()
        if elapsed is None:
            elapsed = mark - self._last
        self._last = mark
        problem = problem_of(report, self._base, differences=differences, expect=expect, line=line, rule=rule)
        name = f"game {report.index} (line {report.line})"
        self._case(report.file, name, max(elapsed, 0.0), problem, f"{report.game or '?'}: {_outcome(report, problem)}")

    def add_gone(self, file: str, index: int) -> None:
        """A game the baseline has and the run no longer found (``referee regress``): a failed test case."""
        problem = gone_problem(file, index, self._base)
        self._case(file, f"game {index}", 0.0, problem, f"FAILED {problem.located}")

    def _case(self, file: str, name: str, elapsed: float, problem: Problem | None, outline: str) -> None:
        suite = self._suite
        if suite is None or suite.file != file:
            self._flush()
            started = self._now() - timedelta(seconds=elapsed)
            suite = self._suite = _Suite(file, display_path(file, self._base), started, [], [])
        self.tests += 1
        suite.time += elapsed
        head = f'<testcase name="{_xml_attr(name)}" classname="{_xml_attr(suite.path)}" time="{elapsed:.3f}"'
        suite.out.append(f"{name} {outline}")
        if problem is None:
            suite.cases.append(head + "/>")
            return
        self.problems += 1
        tag = "error" if problem.internal else "failure"
        if problem.internal:
            suite.errors += 1
        else:
            suite.failures += 1
        suite.cases.append(
            f'{head}>\n      <{tag} type="{_xml_attr(problem.code)}" message="{_xml_attr(problem.located)}">'
            f"{_xml_text(problem.detail())}</{tag}>\n    </testcase>"
        )

    def _flush(self) -> None:
        suite, self._suite = self._suite, None
        if suite is None:
            return
        package, _, _ = suite.path.rpartition("/")
        stamp = suite.started.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
        write = self._out.write
        write(
            f'  <testsuite name="{_xml_attr(suite.path)}" package="{_xml_attr(package or ".")}" id="{self._suites}"'
            f' hostname="{_xml_attr(self._hostname)}" timestamp="{stamp}" tests="{len(suite.cases)}"'
            f' failures="{suite.failures}" errors="{suite.errors}" time="{suite.time:.3f}">\n'
        )
        write(f'    <properties>\n      <property name="referee.version" value="{_xml_attr(tool_version())}"/>\n')
        write("    </properties>\n")
        for case in suite.cases:
            write(f"    {case}\n")
        write(f"    <system-out>{_xml_text(chr(10).join(suite.out))}</system-out>\n    <system-err/>\n  </testsuite>\n")
        self._suites += 1

    def close(self) -> None:
        """Write the last suite and end the document."""
        self._flush()
        self._out.write("</testsuites>\n")

    def __enter__(self) -> JUnitWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _outcome(report: GameReport, problem: Problem | None) -> str:
    """A suite's ``system-out`` line for a game: how it was judged, and against what expectation."""
    text = _judged(report)
    if report.outcome is not None and report.outcome.winners:
        text += " — won by " + ", ".join(report.outcome.winners)
    if report.expectation is not None:
        text += " (as the Expect tag states)" if report.expectation_met else f" (EXPECTED {report.expectation})"
    if problem is not None:
        text += f" — FAILED {problem.located}"
    return text


def write_junit(
    reports: Iterable[GameReport],
    out: TextIO,
    *,
    base: Path | None = None,
    hostname: str | None = None,
    clock: Callable[[], float] = time.perf_counter,
    now: Callable[[], datetime] = _utc_now,
) -> int:
    """Write every report as JUnit XML; returns the number of games that are not ok (the exit status's count)."""
    with JUnitWriter(out, base=base, hostname=hostname, clock=clock, now=now) as writer:
        for report in reports:
            writer.add(report)
    return writer.problems


# ---------------------------------------------------------------------------------------------------------------
# SARIF 2.1.0


def _rule_name(code: str) -> str:
    """SARIF's ``name`` is an identifier-like form of the rule: ``not-your-turn`` → ``NotYourTurn``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", code) if part)


def _rule(code: str, summary: str, properties: dict[str, Any], help_uri: str | None) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": code,
        "name": _rule_name(code),
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "defaultConfiguration": {"level": "error"},
        "properties": properties,
    }
    if help_uri:
        rule["helpUri"] = help_uri.format(code=code)
    return rule


def _catalogue_rule(kind: ErrorKind, help_uri: str | None) -> dict[str, Any]:
    properties = {"verdict": kind.verdict.value, "category": type(kind).__name__, "tags": [kind.verdict.value]}
    return _rule(kind.code, kind.summary, properties, help_uri)


def sarif_rules(help_uri: str | None = None, extra: Iterable[ErrorKind] = ()) -> list[dict[str, Any]]:
    """Every code of the error catalogue (all games loaded first), ``expectation-mismatch``, ``baseline-mismatch``
    and ``trace-mismatch``, sorted by id.

    ``help_uri`` is a template with ``{code}``, e.g. ``https://host/referee/blob/main/docs/errors.md#{code}``:
    SARIF wants an absolute URI there, which only the caller knows.
    """
    for _ in GAMES.values():  # loading a game registers its codes
        pass
    kinds = {kind.code: kind for kind in (*CATALOGUE.values(), *extra)}
    for reserved in (EXPECTATION_MISMATCH, BASELINE_MISMATCH, TRACE_MISMATCH):
        if reserved in kinds:
            raise RuntimeError(f"error code {reserved!r} is reserved for the report formats")
    rules = [_catalogue_rule(kind, help_uri) for kind in kinds.values()]
    rules.append(_rule(EXPECTATION_MISMATCH, EXPECTATION_SUMMARY, {"tags": ["expectation"]}, help_uri))
    rules.append(_rule(BASELINE_MISMATCH, BASELINE_SUMMARY, {"tags": ["regression"]}, help_uri))
    rules.append(_rule(TRACE_MISMATCH, TRACE_SUMMARY, {"tags": ["regression"]}, help_uri))
    return sorted(rules, key=lambda rule: rule["id"])


def _base_uri(base: Path) -> str:
    uri = Path(os.path.abspath(base)).as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _artifact(problem: Problem, base: Path | None) -> dict[str, Any]:
    """A path relative to ``%SRCROOT%`` (the base folder, else wherever the CI resolves it: GitHub uses the
    checkout), percent-encoded; a record outside the base folder keeps an absolute ``file:`` URI. A record read
    from standard input has no file: its location says so in words and names none (no alert on a file that does not
    exist)."""
    if problem.file == STDIN_NAME:
        return {"description": {"text": "standard input"}}
    if base is None:
        path = problem.path
    else:
        absolute = Path(os.path.abspath(problem.file))
        try:
            path = absolute.relative_to(os.path.abspath(base)).as_posix()
        except ValueError:
            return {"uri": absolute.as_uri()}
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": urllib.parse.quote(_no_surrogates(path), safe="/"), "uriBaseId": SRCROOT}


def _sarif_result(problem: Problem, rule_index: int, base: Path | None) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "verdict": problem.verdict,
        "gameIndex": problem.index,
        "firstLine": problem.first_line,
    }
    if problem.game is not None:
        properties["game"] = problem.game
    if problem.expected is not None:
        properties["expected"] = problem.expected
    if problem.state:
        properties["state"] = problem.state
    if problem.alternatives:
        properties["alternatives"] = list(problem.alternatives)
    return {
        "ruleId": problem.code,
        "ruleIndex": rule_index,
        "level": "error",
        "message": {"text": problem.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": _artifact(problem, base),
                    "region": {"startLine": problem.line, "startColumn": problem.column},
                }
            }
        ],
        "properties": properties,
    }


def _clean(value: Any) -> Any:
    """Every string of a JSON document without lone surrogates (json would write them, UTF-8 cannot)."""
    if isinstance(value, str):
        return _no_surrogates(value)
    if isinstance(value, dict):
        return {_clean(key): _clean(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_clean(item) for item in value]
    return value


class SarifWriter:
    """SARIF 2.1.0: one run, the whole catalogue as rules, one result per problem, sorted by file, line, column.

    Only problems are kept until ``close`` (the results are sorted), never the reports.
    """

    def __init__(self, out: TextIO, *, base: Path | None = None, help_uri: str | None = None) -> None:
        self._out = out
        self._base = base
        self._help_uri = help_uri
        self._problems: list[Problem] = []
        self._kinds: dict[str, ErrorKind] = {}
        self.tests = 0

    @property
    def problems(self) -> int:
        return len(self._problems)

    def add(
        self,
        report: GameReport,
        *,
        differences: Sequence[str] = (),
        expect: bool = True,
        line: int | None = None,
        rule: str = BASELINE_MISMATCH,
    ) -> None:
        """Keep the game's problem, if any (``problem_of``'s arguments)."""
        self.tests += 1
        problem = problem_of(report, self._base, differences=differences, expect=expect, line=line, rule=rule)
        if problem is not None:
            self._problems.append(problem)
            if report.error is not None:
                self._kinds[report.error.code] = report.error.kind

    def add_gone(self, file: str, index: int) -> None:
        """A game the baseline has and the run no longer found (``referee regress``)."""
        self.tests += 1
        self._problems.append(gone_problem(file, index, self._base))

    def log(self) -> dict[str, Any]:
        """The SARIF document as a dict (``close`` writes it)."""
        rules = sarif_rules(self._help_uri, self._kinds.values())
        index = {rule["id"]: position for position, rule in enumerate(rules)}
        problems = sorted(self._problems, key=lambda p: (p.path, p.line, p.column, p.index, p.code))
        run: dict[str, Any] = {
            "tool": {
                "driver": {
                    "name": "referee",
                    "version": tool_version(),
                    "semanticVersion": tool_version(),
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": [_sarif_result(p, index[p.code], self._base) for p in problems],
        }
        if self._base is not None:
            run["originalUriBaseIds"] = {SRCROOT: {"uri": _base_uri(self._base)}}
        document: dict[str, Any] = _clean({"$schema": SARIF_SCHEMA_URI, "version": "2.1.0", "runs": [run]})
        return document

    def close(self) -> None:
        json.dump(self.log(), self._out, ensure_ascii=False, indent=2)
        self._out.write("\n")

    def __enter__(self) -> SarifWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sarif_log(
    reports: Iterable[GameReport], *, base: Path | None = None, help_uri: str | None = None
) -> dict[str, Any]:
    """The SARIF document for these reports, as a dict."""
    writer = SarifWriter(cast(TextIO, _Discard()), base=base, help_uri=help_uri)
    for report in reports:
        writer.add(report)
    return writer.log()


def write_sarif(
    reports: Iterable[GameReport], out: TextIO, *, base: Path | None = None, help_uri: str | None = None
) -> int:
    """Write the SARIF document; returns the number of games that are not ok."""
    with SarifWriter(out, base=base, help_uri=help_uri) as writer:
        for report in reports:
            writer.add(report)
    return writer.problems


class _Discard:
    def write(self, text: str) -> int:
        return len(text)


# ---------------------------------------------------------------------------------------------------------------
# GitHub Actions workflow commands

_CONTROL = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _github_data(text: str) -> str:
    """A command's message: GitHub's escapes (``%``, CR, LF) first; other control characters made visible, so a
    record cannot colour or rewrite the log (ESC sequences)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return _CONTROL.sub(lambda m: _visible(m.group()), text)


def _github_property(text: str) -> str:
    """A command's property value: the message escapes and also ``:`` and ``,``, which separate properties."""
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(problem: Problem) -> str:
    """``::error file=PATH,line=L,col=C,title=CODE::message`` — one annotation on the record line. A record read
    from standard input has no file to annotate: its command is a plain error whose message starts with the place."""
    if problem.file == STDIN_NAME:
        place = f"standard input, line {problem.line}, column {problem.column}: "
        return f"::error title={_github_property(problem.code)}::{_github_data(place + problem.message)}"
    properties = {
        "file": problem.path,
        "line": str(problem.line),
        "col": str(problem.column),
        "title": problem.code,
    }
    head = ",".join(f"{key}={_github_property(value)}" for key, value in properties.items())
    return f"::error {head}::{_github_data(problem.message)}"


def github_lines(reports: Iterable[GameReport], *, base: Path | None = None) -> Iterator[str]:
    """One workflow command per problem, as the reports arrive (no newline at the end of each)."""
    for report in reports:
        problem = problem_of(report, base)
        if problem is not None:
            yield github_command(problem)


class GitHubWriter:
    """Workflow commands written as the reports arrive: nothing is kept."""

    def __init__(self, out: TextIO, *, base: Path | None = None) -> None:
        self._out = out
        self._base = base
        self.tests = self.problems = 0

    def add(
        self,
        report: GameReport,
        *,
        differences: Sequence[str] = (),
        expect: bool = True,
        line: int | None = None,
        rule: str = BASELINE_MISMATCH,
    ) -> None:
        """Write the game's annotation now, if it has a problem (``problem_of``'s arguments)."""
        self.tests += 1
        problem = problem_of(report, self._base, differences=differences, expect=expect, line=line, rule=rule)
        if problem is not None:
            self._write(problem)

    def add_gone(self, file: str, index: int) -> None:
        """A game the baseline has and the run no longer found (``referee regress``)."""
        self.tests += 1
        self._write(gone_problem(file, index, self._base))

    def _write(self, problem: Problem) -> None:
        self.problems += 1
        self._out.write(github_command(problem) + "\n")
        self._out.flush()

    def close(self) -> None:
        """Nothing to finish: every line is out already (the same interface as the other writers)."""

    def __enter__(self) -> GitHubWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_github(reports: Iterable[GameReport], out: TextIO, *, base: Path | None = None) -> int:
    """Write the workflow commands; returns the number of games that are not ok."""
    with GitHubWriter(out, base=base) as writer:
        for report in reports:
            writer.add(report)
    return writer.problems
