"""CI report formats: JUnit XML and SARIF validate against the published schemas, GitHub commands parse back, and
every located error (file, line, column, code) lands where a CI server will show it."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from schemas import schema_file

from referee.errors import CATALOGUE, RecordCode, Verdict, malformed
from referee.formats import (
    BASELINE_MISMATCH,
    EXPECTATION_MISMATCH,
    SARIF_SCHEMA_URI,
    SRCROOT,
    TRACE_MISMATCH,
    GitHubWriter,
    JUnitWriter,
    Problem,
    github_command,
    github_lines,
    problem_of,
    sarif_log,
    sarif_rules,
    write_github,
    write_junit,
    write_sarif,
)
from referee.registry import GAMES
from referee.replay import STDIN_NAME, GameReport, check_file, check_text, record_files

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"

XSDS = ["JUnit.xsd", "jenkins-junit.xsd"]
SARIF_SCHEMAS = ["sarif-2.1.0-rtm.5.json"]
# Validated too when a copy is found in REFEREE_SCHEMAS (they have no registry package; see tests/schemas.py).
OPTIONAL = {"sarif-schema-2.1.0.json": SARIF_SCHEMAS, "junit-10.xsd": XSDS}
for _name, _group in OPTIONAL.items():
    if os.environ.get("REFEREE_SCHEMAS") and (Path(os.environ["REFEREE_SCHEMAS"]) / _name).is_file():
        _group.append(_name)


def validate_junit(text: str, xsd: str) -> None:
    xmlschema = pytest.importorskip("xmlschema")
    schema = xmlschema.XMLSchema(str(schema_file(xsd)))
    errors = [str(error) for error in schema.iter_errors(text)]
    assert not errors, errors[0]


def validate_sarif(log: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    for name in SARIF_SCHEMAS:
        schema = json.loads(schema_file(name).read_text(encoding="utf-8"))
        validator = jsonschema.validators.validator_for(schema)
        assert validator is jsonschema.Draft4Validator  # the schema says draft-04; a later draft reads it differently
        validator.check_schema(schema)
        checker = validator(schema, format_checker=validator.FORMAT_CHECKER)
        errors = [error.message for error in checker.iter_errors(log)]
        assert not errors, f"{name}: {errors[0]}"


# ---------------------------------------------------------------------------------------------------------------
# Small records covering every kind of game a CI run meets

HEAD = '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n'
OPENING = """tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
Anna: buy Shepherd for 5
Boris: buy Gold Miner for 4
"""
ODD = "Zoë «Q»"  # non-ASCII (player names are printable: control characters are refused in the Players tag)
ODD_PLAYERS = f'[Players "Ann<a> & \\"Q\\", {ODD}"]'
ODD_BODY = (
    f'tokens: "Ann<a> & \\"Q\\"" worker aristocrat, "{ODD}" building upgrade\nround 1\nworker phase\n'
    f'deal: Lumberjack, Gold Miner, Shepherd, Lumberjack\n"{ODD}": buy Shepherd for 5\n'
)
# A file name with everything GitHub's properties and XML attributes must escape.
ODD_FILE = 'odd/100%, a: b <&> "q"\n\u0444.rec'

CASES: dict[str, str] = {
    "valid.rec": (RECORDS / "saint-petersburg" / "golden" / "golden-2p-2nd-edition.rec").read_text(encoding="utf-8"),
    "unfinished.rec": HEAD + OPENING,
    "illegal.rec": HEAD + OPENING + "Boris: buy Lumberjack for 3\n",  # line 9: not Boris's turn
    "malformed.rec": HEAD + OPENING + "Anna buy Lumberjack for 3\n",  # line 9 column 6: missing ':'
    "expect-met.rec": '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n[Expect "illegal not-your-turn 10"]\n'
    + OPENING
    + "Boris: buy Lumberjack for 3\n",
    "expect-other-code.rec": '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n[Expect "illegal price-mismatch"]\n'
    + OPENING
    + "Boris: buy Lumberjack for 3\n",
    "expect-on-valid.rec": '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n[Expect "illegal not-your-turn"]\n'
    + OPENING,
    "two-games.rec": HEAD + OPENING + "\n" + '[Game "Chess <&>"]\n[Players "Anna, Boris"]\n',
    "names.rec": f'[Game "Saint Petersburg"]\n{ODD_PLAYERS}\n\n{ODD_BODY}',
    "control.rec": HEAD + OPENING + "Anna: buy Lumber\x01jack <&> for 3\n",
    ODD_FILE: HEAD + OPENING + "Boris: buy Lumberjack for 3\n",
}

# (file, game index) → (line, column, code) of every game that is not ok
PROBLEMS = {
    ("illegal.rec", 1): (9, 1, "sp-not-your-turn"),
    ("malformed.rec", 1): (9, 6, "missing-colon"),
    ("expect-other-code.rec", 1): (10, 1, "sp-not-your-turn"),
    ("expect-on-valid.rec", 1): (1, 1, EXPECTATION_MISMATCH),
    ("two-games.rec", 2): (10, 7, "unknown-game"),
    ("names.rec", 1): (8, 1, "sp-not-your-turn"),
    ("control.rec", 1): (9, 17, "syntax"),
    (ODD_FILE, 1): (9, 1, "sp-not-your-turn"),
}


@pytest.fixture(scope="module")
def reports() -> list[GameReport]:
    return [report for name, text in CASES.items() for report in check_text(text, name)]


def test_the_cases_are_judged_as_intended(reports: list[GameReport]) -> None:
    verdicts = {(r.file, r.index): r.verdict for r in reports}
    assert verdicts[("valid.rec", 1)] is Verdict.VALID
    assert verdicts[("unfinished.rec", 1)] is Verdict.UNFINISHED
    assert verdicts[("expect-met.rec", 1)] is Verdict.ILLEGAL
    assert {(r.file, r.index) for r in reports if not r.ok} == set(PROBLEMS)
    names = next(r for r in reports if r.file == "names.rec")
    assert names.error is not None and ODD in names.error.message and ODD in names.error.state


def test_problem_of_is_none_exactly_for_ok_games(reports: list[GameReport]) -> None:
    for report in reports:
        problem = problem_of(report)
        assert (problem is None) is report.ok
        if problem is not None:
            assert (problem.line, problem.column, problem.code) == PROBLEMS[(report.file, report.index)]


def test_a_valid_game_against_its_expect_tag_is_an_expectation_mismatch(reports: list[GameReport]) -> None:
    problem = problem_of(next(r for r in reports if r.file == "expect-on-valid.rec"))
    assert problem is not None and problem.code == EXPECTATION_MISMATCH
    assert "judged unfinished after 6 statement(s)" in problem.message
    assert "'illegal not-your-turn'" in problem.message
    assert problem.expected == "illegal not-your-turn"
    assert problem.state == ""  # reports keep no final state (constant memory in bulk runs)


def test_another_code_than_expected_keeps_the_real_code(reports: list[GameReport]) -> None:
    problem = problem_of(next(r for r in reports if r.file == "expect-other-code.rec"))
    assert problem is not None and problem.code == "sp-not-your-turn"
    assert "the Expect tag states 'illegal price-mismatch'" in problem.message


def test_regress_differences_and_house_rules(reports: list[GameReport]) -> None:
    """``referee regress``: baseline differences make a game a problem; with a house rule only they count."""
    unfinished = next(r for r in reports if r.file == "unfinished.rec")
    illegal = next(r for r in reports if r.file == "illegal.rec")
    changed = ["verdict 'valid' -> 'unfinished'", "scores {'Anna': 3} -> None"]
    problem = problem_of(unfinished, differences=changed)
    assert problem is not None and (problem.code, problem.line, problem.column) == (BASELINE_MISMATCH, 1, 1)
    assert problem.message.endswith("unlike the baseline: verdict 'valid' -> 'unfinished'; scores {'Anna': 3} -> None")
    assert problem_of(illegal, expect=False) is None  # house rule: the illegal game is compared with the baseline only
    problem = problem_of(illegal, expect=False, differences=["code 'price-mismatch' -> 'not-your-turn'"])
    assert problem is not None and (problem.code, problem.line) == (BASELINE_MISMATCH, 9)
    assert problem.alternatives == ("Anna: buy Lumberjack for 3",)
    problem = problem_of(illegal, differences=["line 8 -> 9"])
    assert (
        problem is not None
        and problem.code == "sp-not-your-turn"
        and problem.message.endswith("(baseline: line 8 -> 9)")
    )
    out = io.StringIO()
    with JUnitWriter(out, hostname="h") as writer:
        writer.add(unfinished, differences=changed)
        writer.add(illegal, expect=False)
    assert [f.get("type") for f in ET.fromstring(out.getvalue()).iter("failure")] == [BASELINE_MISMATCH]
    github = io.StringIO()
    GitHubWriter(github).add(unfinished, differences=changed)
    assert parse_command(github.getvalue().rstrip("\n"))[0]["title"] == BASELINE_MISMATCH


# ---------------------------------------------------------------------------------------------------------------
# JUnit XML


def junit(reports: list[GameReport], **kwargs: Any) -> str:
    out = io.StringIO()
    write_junit(reports, out, hostname="ci-host", **kwargs)
    return out.getvalue()


@pytest.mark.parametrize("xsd", XSDS)
def test_junit_validates_against_the_xsd(reports: list[GameReport], xsd: str) -> None:
    validate_junit(junit(reports), xsd)


@pytest.mark.parametrize("xsd", XSDS)
def test_junit_of_no_games_validates(xsd: str) -> None:
    text = junit([])
    assert ET.fromstring(text).tag == "testsuites"
    validate_junit(text, xsd)


def test_junit_has_what_both_schemas_require(reports: list[GameReport]) -> None:
    """Checked without the XSD files too: the Ant schema's required parts and order, Jenkins's time form."""
    root = ET.fromstring(junit(reports))
    assert root.attrib == {}  # the Ant schema allows no attribute on <testsuites>
    for suite in root.findall("testsuite"):
        assert {"name", "package", "id", "hostname", "timestamp", "tests", "failures", "errors", "time"} <= set(
            suite.attrib
        )
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", suite.get("timestamp", ""))
        tags = [child.tag for child in suite]
        assert tags == ["properties", *["testcase"] * int(suite.get("tests", "0")), "system-out", "system-err"]
        for case in suite.findall("testcase"):
            assert re.fullmatch(r"\d+\.\d{3}", case.get("time", ""))
            assert len(case) <= 1 and all(child.tag in ("failure", "error") for child in case)
            assert all(child.get("type") for child in case)


def test_junit_has_a_suite_per_file_and_a_case_per_game(reports: list[GameReport]) -> None:
    root = ET.fromstring(junit(reports))
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == list(CASES)
    assert [s.get("id") for s in suites] == [str(n) for n in range(len(CASES))]
    two = suites[list(CASES).index("two-games.rec")]
    assert two.get("tests") == "2" and two.get("failures") == "1" and two.get("errors") == "0"
    cases = two.findall("testcase")
    assert [c.get("name") for c in cases] == ["game 1 (line 1)", "game 2 (line 10)"]
    assert {c.get("classname") for c in cases} == {"two-games.rec"}
    assert list(cases[0]) == []  # unfinished passes: no skipped, no failure
    total = sum(int(s.get("tests", "0")) for s in suites)
    failed = sum(int(s.get("failures", "0")) + int(s.get("errors", "0")) for s in suites)
    assert (total, failed) == (len(reports), len(PROBLEMS))


def test_junit_failures_are_located(reports: list[GameReport]) -> None:
    root = ET.fromstring(junit(reports))
    seen = {}
    for suite in root.findall("testsuite"):
        for case in suite.findall("testcase"):
            failure = case.find("failure")
            if failure is None:
                continue
            index = int(re.fullmatch(r"game (\d+) \(line \d+\)", case.get("name", "")).group(1))
            line, column, code = PROBLEMS[(case.get("classname"), index)]
            assert failure.get("type") == code
            assert failure.get("message", "").startswith(f"{line}:{column} [{code}] ")
            seen[(case.get("classname"), index)] = failure.text
    assert set(seen) == set(PROBLEMS)
    body = seen[("illegal.rec", 1)]
    assert body.startswith("illegal.rec:9:1: illegal [sp-not-your-turn] it is Anna's turn, not Boris's\n")
    assert f"rule: {CATALOGUE['sp-not-your-turn'].summary}" in body
    assert "\nstate:\n  round 1, worker phase, Anna to act" in body
    assert "\nlegal here:\n  Anna: buy Lumberjack for 3" in body
    assert "expected (Expect tag): illegal price-mismatch" in seen[("expect-other-code.rec", 1)]


def test_junit_escapes_every_user_string(reports: list[GameReport]) -> None:
    text = junit(reports)
    assert "\x01" not in text and "\x1b" not in text  # XML 1.0 cannot hold them, not even as &#1;
    root = ET.fromstring(text)  # well-formed
    names = next(s for s in root.findall("testsuite") if s.get("name") == "names.rec")
    failure = names.find("testcase/failure")
    assert failure is not None
    assert failure.get("message") == f"8:1 [sp-not-your-turn] it is Ann<a> & \"Q\"'s turn, not {ODD}'s"
    assert 'Ann<a> & "Q": 25 rubles' in failure.text and f"{ODD}: 25 rubles" in failure.text
    odd = next(s for s in root.findall("testsuite") if s.get("name") == ODD_FILE)  # quotes, &, <, newline survive
    assert odd.find("testcase").get("classname") == ODD_FILE
    control = next(s for s in root.findall("testsuite") if s.get("name") == "control.rec")
    assert "found '\\x01'" in control.find("testcase/failure").get("message")


def test_junit_keeps_carriage_returns_and_tabs_in_attributes() -> None:
    report = check_text(HEAD + OPENING + "Boris: buy Lumberjack for 3\n", "a\tb\r\nc.rec")[0]
    root = ET.fromstring(junit([report]))
    assert root.find("testsuite").get("name") == "a\tb\r\nc.rec"
    assert root.find("testsuite/testcase/failure").text.startswith("a\tb\r\nc.rec:9:1:")


def test_junit_reports_a_referee_failure_as_an_error() -> None:
    error = malformed(RecordCode.INTERNAL, "the referee failed here (KeyError: 'x')").at(7)
    report = GameReport("bug.rec", 1, 1, "saint-petersburg", Verdict.MALFORMED, error)
    suite = ET.fromstring(junit([report])).find("testsuite")
    assert (suite.get("failures"), suite.get("errors")) == ("0", "1")
    assert suite.find("testcase/error").get("type") == "internal-error"


def test_junit_times_and_timestamps() -> None:
    ticks = iter([10.0, 10.25, 10.5, 12.0])  # start, then one reading per report
    reports = [*check_text(HEAD + OPENING + "\n" + HEAD + OPENING, "a.rec"), *check_text(HEAD, "b.rec")]
    text = junit(reports, clock=lambda: next(ticks), now=lambda: datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC))
    root = ET.fromstring(text)
    a, b = root.findall("testsuite")
    assert [c.get("time") for c in a.findall("testcase")] == ["0.250", "0.250"]
    assert (a.get("time"), b.get("time")) == ("0.500", "1.500")
    assert a.get("timestamp") == "2025-03-04T05:06:06"  # when judging the suite began, UTC, no zone (Ant's form)
    assert a.get("hostname") == "ci-host"


def test_junit_writes_each_file_once_it_is_done() -> None:
    out = io.StringIO()
    writer = JUnitWriter(out, hostname="h")
    writer.add(check_text(HEAD + OPENING, "a.rec")[0])
    assert "<testsuite " not in out.getvalue()  # its counts are not known yet
    writer.add(check_text(HEAD + OPENING, "b.rec")[0])
    assert out.getvalue().count("<testsuite ") == 1 and 'name="a.rec"' in out.getvalue()
    writer.close()
    assert out.getvalue().count("<testsuite ") == 2 and out.getvalue().endswith("</testsuites>\n")


# ---------------------------------------------------------------------------------------------------------------
# SARIF 2.1.0


def test_sarif_validates_against_the_official_schema(reports: list[GameReport]) -> None:
    validate_sarif(sarif_log(reports, base=Path.cwd(), help_uri="https://example.org/errors.md#{code}"))


def test_sarif_of_no_games_validates() -> None:
    log = sarif_log([])
    assert (log["version"], log["$schema"]) == ("2.1.0", SARIF_SCHEMA_URI)
    assert log["runs"][0]["tool"]["driver"]["name"] == "referee"
    assert log["runs"][0]["results"] == []
    validate_sarif(log)


def test_sarif_rules_are_the_whole_catalogue(reports: list[GameReport]) -> None:
    list(GAMES.values())
    rules = sarif_log(reports)["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted([*CATALOGUE, EXPECTATION_MISMATCH, BASELINE_MISMATCH, TRACE_MISMATCH])
    by_id = {r["id"]: r for r in rules}
    for code, kind in CATALOGUE.items():
        assert by_id[code]["shortDescription"]["text"] == kind.summary
        assert by_id[code]["properties"]["verdict"] == kind.verdict.value
    assert by_id["sp-not-your-turn"]["name"] == "SpNotYourTurn"
    assert "helpUri" not in by_id["syntax"]
    assert sarif_rules("https://h/errors.md#{code}")[0]["helpUri"] == f"https://h/errors.md#{rules[0]['id']}"


def test_sarif_results_are_the_problems_located_and_sorted(reports: list[GameReport]) -> None:
    log = sarif_log(reversed(reports))  # order of arrival does not matter
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["columnKind"] == "unicodeCodePoints"
    located = []
    for result in run["results"]:
        assert result["level"] == "error"
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        (location,) = result["locations"]
        artifact, region = location["physicalLocation"]["artifactLocation"], location["physicalLocation"]["region"]
        assert artifact["uriBaseId"] == SRCROOT
        located.append((artifact["uri"], region["startLine"], region["startColumn"], result["ruleId"]))
    quoted = {
        name: re.sub(r"[^A-Za-z0-9/._~-]", lambda m: "%" + "%".join(f"{b:02X}" for b in m.group().encode()), name)
        for name in CASES
    }
    expected = sorted((quoted[file], *where) for (file, _), where in PROBLEMS.items())
    assert located == expected
    assert [(u, line) for u, line, _, _ in located] == sorted((u, line) for u, line, _, _ in located)


def test_sarif_result_properties_and_messages(reports: list[GameReport]) -> None:
    results = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r
        for r in sarif_log(reports)["runs"][0]["results"]
    }
    illegal = results["illegal.rec"]
    assert illegal["message"]["text"] == "it is Anna's turn, not Boris's"
    assert illegal["properties"]["alternatives"][0] == "Anna: buy Lumberjack for 3"
    assert illegal["properties"]["state"].startswith("round 1, worker phase, Anna to act")
    assert illegal["properties"]["game"] == "saint-petersburg"
    mismatch = results["expect-on-valid.rec"]
    assert mismatch["ruleId"] == EXPECTATION_MISMATCH and mismatch["properties"]["expected"] == "illegal not-your-turn"
    assert ODD in results["names.rec"]["message"]["text"]  # JSON carries control characters escaped, losslessly
    text = io.StringIO()
    write_sarif(reports, text)
    assert json.loads(text.getvalue()) == sarif_log(reports)
    assert "\x1b" not in text.getvalue()


def test_sarif_paths_are_relative_to_the_base(tmp_path: Path) -> None:
    inside = tmp_path / "repo" / "games" / "a b.rec"
    inside.parent.mkdir(parents=True)
    inside.write_text(HEAD + OPENING + "Boris: buy Lumberjack for 3\n", encoding="utf-8")
    outside = tmp_path / "elsewhere.rec"
    outside.write_text(HEAD + OPENING + "Boris: buy Lumberjack for 3\n", encoding="utf-8")
    log = sarif_log([*check_file(inside), *check_file(outside)], base=tmp_path / "repo")
    run = log["runs"][0]
    assert run["originalUriBaseIds"][SRCROOT]["uri"] == (tmp_path / "repo").as_uri() + "/"
    artifacts = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert {"uri": "games/a%20b.rec", "uriBaseId": SRCROOT} in artifacts
    assert {"uri": outside.as_uri()} in artifacts
    validate_sarif(log)  # last: a missing schema skips only the validation


def test_sarif_names_no_file_for_a_record_from_standard_input(tmp_path: Path) -> None:
    (report,) = check_text(HEAD + OPENING + "Boris: buy Lumberjack for 3\n", STDIN_NAME)
    log = sarif_log([report], base=tmp_path)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"description": {"text": "standard input"}}
    assert location["region"]["startLine"] == report.error.line
    validate_sarif(log)


# ---------------------------------------------------------------------------------------------------------------
# GitHub workflow commands

COMMAND = re.compile(r"::error (?P<properties>[^:]*)::(?P<data>.*)")


def unescape(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def parse_command(line: str) -> tuple[dict[str, str], str]:
    """What the runner reads: properties split on ',' and '=', then each value and the message unescaped."""
    match = COMMAND.fullmatch(line)
    assert match, line
    properties = dict(item.split("=", 1) for item in match.group("properties").split(","))
    return {key: unescape(value) for key, value in properties.items()}, unescape(match.group("data"))


def test_github_lines_parse_back_to_the_located_errors(reports: list[GameReport]) -> None:
    lines = list(github_lines(reports))
    assert len(lines) == len(PROBLEMS)
    parsed = [parse_command(line) for line in lines]
    for properties, _ in parsed:
        assert set(properties) == {"file", "line", "col", "title"}
    got = [(p["file"], int(p["line"]), int(p["col"]), p["title"]) for p, _ in parsed]
    order = {(r.file, r.index): n for n, r in enumerate(reports)}
    expected = [(file, *where) for (file, _), where in sorted(PROBLEMS.items(), key=lambda kv: order[kv[0]])]
    assert got == expected
    messages = {p["file"]: message for p, message in parsed}
    assert messages["illegal.rec"] == "it is Anna's turn, not Boris's"
    assert messages["names.rec"] == f"it is Ann<a> & \"Q\"'s turn, not {ODD}'s"
    assert all("\n" not in line and "\r" not in line for line in lines)


def test_control_characters_in_a_file_name_never_reach_the_outputs() -> None:
    """Record text is escaped at the source; a file name comes from the file system and may hold anything."""
    reports = check_text(HEAD + OPENING + "Boris: buy Lumberjack for 3\n", "bad\x01\x1b[31m.rec")
    junit_text = junit(reports)
    assert "\x01" not in junit_text and "\x1b" not in junit_text and "bad\\x01\\x1b[31m.rec" in junit_text
    ET.fromstring(junit_text)  # well-formed XML 1.0
    assert not any("\x1b" in line or "\x01" in line for line in github_lines(reports))


def test_github_annotates_no_file_for_a_record_from_standard_input() -> None:
    (report,) = check_text(HEAD + OPENING + "Boris: buy Lumberjack for 3\n", STDIN_NAME)
    (line,) = github_lines([report])
    properties, data = parse_command(line)
    assert properties == {"title": report.error.code}
    assert data == f"standard input, line {report.error.line}, column {report.error.column}: {report.error.message}"


def test_github_command_escapes_properties_and_data() -> None:
    problem = Problem(
        file="x",
        path="dir/a,b:c%\r\n.rec",
        index=1,
        first_line=1,
        line=3,
        column=4,
        code="syntax",
        verdict="malformed",
        message="100% wrong:\r\nsee, here",
        rule="",
    )
    line = github_command(problem)
    assert line == "::error file=dir/a%2Cb%3Ac%25%0D%0A.rec,line=3,col=4,title=syntax::100%25 wrong:%0D%0Asee, here"
    properties, message = parse_command(line)
    assert properties["file"] == problem.path and message == problem.message


def test_github_streams_one_line_per_problem(reports: list[GameReport]) -> None:
    pulled = []

    def source() -> Iterator[GameReport]:
        for report in reports:
            pulled.append(report)
            yield report

    lines = github_lines(source())
    first = next(lines)
    assert parse_command(first)[0]["file"] == "illegal.rec"
    assert len(pulled) == [r.file for r in reports].index("illegal.rec") + 1  # nothing read ahead
    out = io.StringIO()
    writer = GitHubWriter(out)
    writer.add(reports[0])
    assert out.getvalue() == ""
    writer.add(next(r for r in reports if r.file == "malformed.rec"))
    assert out.getvalue().count("\n") == 1
    assert write_github(reports, io.StringIO()) == len(PROBLEMS)


# ---------------------------------------------------------------------------------------------------------------
# The whole corpus


@pytest.fixture(scope="module")
def corpus() -> list[GameReport]:
    return [report for path in record_files([RECORDS]) for report in check_file(path)]


@pytest.fixture(scope="module")
def corpus_ignoring_expect(corpus: list[GameReport]) -> list[GameReport]:
    """As ``referee check --ignore-expect`` sees the corpus: every illegal and malformed game is a problem."""
    return [dataclasses.replace(report, expectation=None) for report in corpus]


@pytest.mark.parametrize("xsd", XSDS)
def test_corpus_junit_validates(corpus: list[GameReport], corpus_ignoring_expect: list[GameReport], xsd: str) -> None:
    for reports in (corpus, corpus_ignoring_expect):
        validate_junit(junit(reports, base=ROOT), xsd)


def test_corpus_is_all_good_as_its_expect_tags_state(corpus: list[GameReport]) -> None:
    assert write_junit(corpus, io.StringIO()) == 0
    assert sarif_log(corpus, base=ROOT)["runs"][0]["results"] == []
    assert list(github_lines(corpus)) == []


def test_corpus_sarif_validates(corpus: list[GameReport], corpus_ignoring_expect: list[GameReport]) -> None:
    for reports in (corpus, corpus_ignoring_expect):
        validate_sarif(sarif_log(reports, base=ROOT))


def test_corpus_errors_land_where_they_are(corpus_ignoring_expect: list[GameReport]) -> None:
    reports = corpus_ignoring_expect
    wanted = sorted(
        (Path(r.file).resolve().relative_to(ROOT).as_posix(), r.error.line, r.error.column, r.error.code)
        for r in reports
        if r.verdict in (Verdict.ILLEGAL, Verdict.MALFORMED)
    )
    assert len(wanted) > 150
    log = sarif_log(reports, base=ROOT)
    got = [
        (
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["locations"][0]["physicalLocation"]["region"]["startLine"],
            result["locations"][0]["physicalLocation"]["region"]["startColumn"],
            result["ruleId"],
        )
        for result in log["runs"][0]["results"]
    ]
    assert got == wanted
    annotations = sorted(
        (p["file"], int(p["line"]), int(p["col"]), p["title"])
        for p, _ in map(parse_command, github_lines(reports, base=ROOT))
    )
    assert annotations == wanted
    root = ET.fromstring(junit(reports, base=ROOT))
    failures = sorted(
        (case.get("classname"), *map(int, f.get("message").split(" ", 1)[0].split(":")), f.get("type"))
        for case in root.iter("testcase")
        for f in case.findall("failure")
    )
    assert failures == wanted
