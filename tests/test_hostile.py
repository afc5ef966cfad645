"""Hostile input: the corpus in tests/hostile/ and inputs made at test time, through the API and the command line.

    .venv/bin/python -m pytest tests/test_hostile.py                       # default run: ~30 s once all pass
    REFEREE_FUZZ=deep .venv/bin/python -m pytest tests/test_hostile.py     # token mutations of every stored record
    .venv/bin/python tests/hostile/build_corpus.py                          # rewrite the corpus after editing it

Every input keeps the invariants of tests/hostile/invariants.py (a verdict or a located error for every game, never
an internal error, a traceback or a hang, short escaped messages); where the spec or the hostile-input issue says
what the answer is, the exact verdict, code and line are asserted too (tests/hostile/manifest.json). Special files,
huge inputs, signals, standard input and memory are tested with real ``referee`` processes (a timeout each, peak RSS
from ``os.wait4``). The numbers in the test names' comments refer to the items of the hostile-input issue.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile import build_corpus
from hostile.invariants import (
    Hang,
    Proc,
    as_row,
    output_problems,
    report_problems,
    run_proc,
    run_procs,
    shown,
    snapshot,
    time_limit,
)

from referee.cli import main
from referee.errors import Verdict, canonical_code
from referee.registry import GAMES, find_game
from referee.replay import GameReport, check_file, check_text

HOSTILE = Path(build_corpus.__file__).resolve().parent
CORPUS = HOSTILE / "corpus"
ROOT = HOSTILE.parents[1]
MANIFEST = json.loads((HOSTILE / "manifest.json").read_text())
DEEP = os.environ.get("REFEREE_FUZZ", "ci").lower() == "deep"
API_LIMIT = 20.0  # seconds for one in-process judgement: generous, a hang guard not a speed target
HANG_LIMIT = 10.0  # seconds for a process that must answer at once (special files)

SP_OPENING = build_corpus.sp_opening()
SP_BAD = build_corpus.sp_opening() + build_corpus.SP_BAD_PRICE + "\n"


def invoke(*args: str, input: bytes | str | None = None, limit: float = API_LIMIT):
    """The CLI in-process (CliRunner), under a time limit; exceptions are kept on the result."""
    with time_limit(limit, "referee " + " ".join(args)[:80]):
        return CliRunner().invoke(main, list(args), input=input)


def judge(path: Path) -> list[GameReport]:
    with time_limit(API_LIMIT, f"check_file({path.name})"):
        return check_file(path)


def fail_with(problems: list[str], what: str = "") -> None:
    """Fail with the problems, one a line (no traceback: the list is the finding)."""
    if problems:
        head = f"{what}: " if what else ""
        shown_problems = problems[:60] + ([f"... and {len(problems) - 60} more"] if len(problems) > 60 else [])
        pytest.fail(f"{head}{len(problems)} problem(s):\n" + "\n".join(shown_problems), pytrace=False)


def facts(report: GameReport | dict) -> dict:
    """What an expectation can name, from a report or a ``check --format jsonl`` row."""
    row = as_row(report)
    met = row.get("expectation_met")
    ok = report.ok if isinstance(report, GameReport) else (met if met is not None else row["verdict"] in GOOD)
    return {**{k: row.get(k) for k in ("index", "verdict", "code", "line", "column", "message")}, "ok": ok}


GOOD = ("valid", "unfinished")


def expectation_problems(reports: list[GameReport] | list[dict], games: list[dict]) -> list[str]:
    """How the reports differ from the manifest's per-game expectations."""
    problems = []
    if len(reports) != len(games):
        problems.append(f"{len(reports)} game(s) judged, expected {len(games)}")
    for report, want in zip(reports, games, strict=False):
        got = facts(report)
        index = got["index"]
        mine = []
        for key in ("verdict", "code", "line", "column", "ok"):
            if key not in want:
                continue
            allowed = want[key] if isinstance(want[key], list) else [want[key]]
            if key == "code":  # a code the corpus states by a former name (documented alias) counts as that code
                allowed = [canonical_code(code) if isinstance(code, str) else code for code in allowed]
            if got[key] not in allowed:
                mine.append(f"game {index}: {key} {got[key]!r}, expected {want[key]!r}")
        message = got["message"] or ""
        for pattern in want.get("message_excludes", []):
            if re.search(pattern, message):
                mine.append(f"game {index}: the message says {shown(message, 300)}")
        for pattern in want.get("message_includes", []):
            if not re.search(pattern, message):
                mine.append(f"game {index}: the message {shown(message, 300)} lacks /{pattern}/")
        if mine and got["code"] is not None:
            mine.append(f"game {index}: judged [{got['code']}] at {got['line']}:{got['column']}: {shown(message)}")
        problems += mine
        if len(problems) > 30:
            break
    return problems


@cache
def source_reports(path: str) -> tuple[GameReport, ...]:
    return tuple(check_file(ROOT / path))


def like_problems(reports: list[GameReport], like: dict) -> list[str]:
    """Judged as the source record, with the players renamed."""
    names = like["rename"]

    def mapped(name: str) -> str:
        return names.get(name, name)

    problems = []
    originals = source_reports(like["source"])
    if len(reports) != len(originals):
        return [f"{len(reports)} game(s), the source has {len(originals)}"]
    for got, want in zip(reports, originals, strict=True):
        describe = f"{got.verdict.value}" + (
            f" [{got.error.code}] at {got.error.line}:{got.error.column}: {shown(got.error.message, 160)}"
            if got.error
            else ""
        )
        if got.verdict != want.verdict:
            problems.append(f"judged {describe}; the source is {want.verdict.value}")
            continue
        if want.error is not None and (got.error is None or got.error.code != want.error.code):
            problems.append(f"judged {describe}; the source has [{want.error.code}]")
        if want.outcome is not None:
            want_scores = {mapped(k): v for k, v in (want.outcome.scores or {}).items()}
            want_winners = sorted(mapped(w) for w in want.outcome.winners)
            if got.outcome is None or (got.outcome.scores or {}) != want_scores:
                problems.append(f"scores {got.outcome and got.outcome.scores}, expected {want_scores}")
            if got.outcome is None or sorted(got.outcome.winners) != want_winners:
                problems.append(f"winners {got.outcome and got.outcome.winners}, expected {want_winners}")
    return problems


# ---------------------------------------------------------------------------------------------------------------
# The committed corpus, through the API


def test_corpus_is_built_from_the_generator() -> None:
    assert build_corpus.main(["--check"]) == 0, "run tests/hostile/build_corpus.py and commit the corpus"
    assert len(MANIFEST) >= 200


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["file"].removesuffix(".rec") for e in MANIFEST])
def test_corpus_api(entry: dict) -> None:
    path = CORPUS / entry["file"]
    data = path.read_bytes()
    try:
        reports = judge(path)
    except Hang:
        raise
    except Exception as exc:  # the API must judge, never raise
        pytest.fail(f"{entry['what']}: check_file raised {type(exc).__name__}: {shown(str(exc), 300)}")
    problems = report_problems(reports, data)
    if entry["games"] is not None:
        problems += expectation_problems(reports, entry["games"])
    if entry["like"] is not None:
        problems += like_problems(reports, entry["like"])
    fail_with(problems, entry["what"])


# ---------------------------------------------------------------------------------------------------------------
# The committed corpus, through the command line


@pytest.fixture(scope="module")
def corpus_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the corpus, so that the command line's runs can be checked for writes."""
    target = tmp_path_factory.mktemp("corpus") / "corpus"
    shutil.copytree(CORPUS, target, symlinks=True)
    return target


def test_corpus_check_text_and_jsonl(corpus_copy: Path) -> None:
    before = snapshot(corpus_copy.parent)
    text = invoke("check", str(corpus_copy))
    jsonl = invoke("check", "--format", "jsonl", str(corpus_copy))
    assert snapshot(corpus_copy.parent) == before, "check changed the user's files"
    problems = []
    for result in (text, jsonl):
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problems.append(f"exception {type(result.exception).__name__}: {shown(str(result.exception), 300)}")
        if result.exit_code not in (0, 1):
            problems.append(f"exit {result.exit_code}")
    problems += output_problems(text.output)
    rows = []
    for number, line in enumerate(jsonl.output.split("\n"), 1):
        if not line:
            continue
        try:
            rows.append(json.loads(line))
        except ValueError:
            problems.append(f"jsonl line {number} is not JSON: {shown(line)}")
    expected_games = 0
    for entry in MANIFEST:
        try:
            expected_games += len(judge(corpus_copy / entry["file"]))
        except Exception:  # a crash: its own test reports it; the command line must still give one row or more
            expected_games += 1
    if len(rows) < expected_games:
        problems.append(f"{len(rows)} jsonl rows for {expected_games} games")
    for row in rows:
        if row.get("code") == "internal-error":
            problems.append(f"{row['file']}: internal-error {shown(row.get('message') or '')}")
    fail_with(problems)


def test_corpus_score_and_explain(corpus_copy: Path) -> None:
    before = snapshot(corpus_copy.parent)
    problems = []
    for entry in MANIFEST:
        path = str(corpus_copy / entry["file"])
        for args in (("score", path), ("explain", path, "--line", "12")):
            result = invoke(*args)
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                problems.append(
                    f"{args[0]} {entry['file']}: {type(result.exception).__name__}: {shown(str(result.exception))}"
                )
            elif result.exit_code not in (0, 1, 2):
                problems.append(f"{args[0]} {entry['file']}: exit {result.exit_code}")
            problems += [f"{args[0]} {entry['file']}: {p}" for p in output_problems(result.output)]
    assert snapshot(corpus_copy.parent) == before, "score/explain changed the user's files"
    fail_with(problems)


# ---------------------------------------------------------------------------------------------------------------
# Inputs made at test time (too large to commit)


IN_PROCESS = [c for c in build_corpus.RUNTIME if not c.memory]


@pytest.mark.parametrize("case", IN_PROCESS, ids=[c.name for c in IN_PROCESS])
def test_runtime_input_api(case: build_corpus.Runtime, tmp_path: Path) -> None:
    data = case.make()
    path = tmp_path / f"{case.name}.rec"
    path.write_bytes(data)
    try:
        reports = judge(path)
    except Hang:
        raise
    except Exception as exc:
        pytest.fail(f"{case.what}: check_file raised {type(exc).__name__}: {shown(str(exc), 300)}")
    problems = report_problems(reports, data)
    if case.games is not None:
        problems += expectation_problems(reports, case.games)
    fail_with(problems, case.what)


def test_memory_stays_proportional_to_the_input(tmp_path: Path) -> None:
    """4. Peak RSS of `referee check` on each huge input <= base + 8 x input size + 48 MB (base: a tiny record)."""
    cases = [c for c in build_corpus.RUNTIME if c.memory]
    small = tmp_path / "small.rec"
    small.write_text(SP_OPENING)
    paths = []
    for case in cases:
        path = tmp_path / f"{case.name}.rec"
        path.write_bytes(case.make())
        paths.append(path)
    base = run_proc(Proc(["check", str(small)], timeout=60, measure=True))
    results = run_procs([Proc(["check", "--format", "jsonl", str(p)], timeout=90, measure=True) for p in paths])
    problems = []
    for case, path, result in zip(cases, paths, results, strict=True):
        size = path.stat().st_size
        bound = base.maxrss + 8 * size + 48 * 2**20
        if result.timed_out or result.returncode not in (0, 1):
            problems.append(f"{case.name}: {result.describe()}")
        elif result.maxrss > bound:
            problems.append(
                f"{case.name} ({size / 1e6:.1f} MB): peak RSS {result.maxrss / 2**20:.0f} MB > bound "
                f"{bound / 2**20:.0f} MB (base {base.maxrss / 2**20:.0f} MB), {result.elapsed:.1f} s"
            )
        rows = [json.loads(line) for line in result.out.split("\n") if line]
        problems += [f"{case.name}: {p}" for p in report_problems(rows, path.read_bytes())[:5]]
        if case.games is not None:
            problems += [f"{case.name}: {p}" for p in expectation_problems(rows, case.games)[:5]]
    fail_with(problems)


# ---------------------------------------------------------------------------------------------------------------
# 1. Variant files: the pytest plugin never fails at collection


def test_pytest_plugin_collects_hostile_records(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "ok.rec").write_text(SP_OPENING)
    (folder / "ruleset-number.toml").write_text('name = "x"\ngame = "saint-petersburg"\nruleset = 5\n[options]\n')
    (folder / "crash.rec").write_text(SP_OPENING + "\n" + build_corpus.sp_opening('[Variant "ruleset-number.toml"]'))
    (folder / "expect-digits.rec").write_text(build_corpus.sp_opening('[Expect "illegal x ' + "9" * 5000 + '"]'))
    (folder / "latin1.rec").write_bytes(SP_OPENING.replace("Anna", "Müller").encode("latin-1"))
    (folder / "variant-long.rec").write_text(build_corpus.sp_opening('[Variant "' + "v" * 5000 + '"]'))
    (tmp_path / "pytest.ini").write_text("[pytest]\nreferee_records = true\naddopts = -p no:cacheprovider\n")
    result = run_proc(
        Proc(
            [sys.executable, "-m", "pytest", "-q", "-rN", "-c", str(tmp_path / "pytest.ini"), str(folder)],
            referee=False,
            cwd=tmp_path,
            timeout=60,
        )
    )
    summary = result.out.strip().splitlines()[-1] if result.out.strip() else ""
    # one test per game: ok (1), crash.rec (2), expect-digits (1), latin1 (1), variant-long (1)
    assert "error" not in summary and "ERROR collecting" not in result.out, result.describe()
    counted = sum(int(n) for n, _ in re.findall(r"(\d+) (passed|failed)", summary))
    assert counted == 6 and result.returncode == 1, result.describe()


# ---------------------------------------------------------------------------------------------------------------
# 2. Files a record names


def _paths_setup(root: Path) -> tuple[Path, Path]:
    """root/rec/ holds records; root/outside.toml is a valid variant outside their folder."""
    rec = root / "rec"
    rec.mkdir(parents=True)
    outside = root / "outside.toml"
    outside.write_bytes(build_corpus.OUTSIDE_TOML)
    return rec, outside


def test_outside_variant_gets_one_answer_whether_it_exists_or_not(tmp_path: Path) -> None:
    """2. A reference outside the record's folder: unknown-variant at the tag, and the same answer (code, place,
    message) with the file there or not, so a record cannot probe the file system."""
    rec, outside = _paths_setup(tmp_path)
    (rec / "link.toml").symlink_to(outside)
    references = {
        "relative": "../outside.toml",
        "absolute": str(outside),
        "link inside to a file outside": "link.toml",
        "dotted": "./../rec/../outside.toml",
    }
    problems = []
    for name, reference in references.items():
        path = rec / "game.rec"
        path.write_text(build_corpus.sp_opening(f'[Variant "{reference}"]'))
        answers = []
        for present in (True, False):
            if present:
                outside.write_bytes(build_corpus.OUTSIDE_TOML)
            else:
                outside.unlink()
            reports = judge(path)
            error = reports[0].error
            answers.append((error.code, error.line, error.column, error.message) if error else reports[0].verdict.value)
        for present, answer in zip(("present", "absent"), answers, strict=True):
            if not isinstance(answer, tuple) or answer[:2] != ("unknown-variant", 3):
                problems.append(f"{name} ({present}): {answer}")
        if answers[0] != answers[1]:
            problems.append(f"{name}: the answer tells whether the file exists: {answers[0]} / {answers[1]}")
    fail_with(problems)


def test_allow_dir_option_lets_a_record_name_a_file_outside(tmp_path: Path) -> None:
    """2. ... unless the user allows it with an explicit option (referee/resources.py: --allow-dir)."""
    rec, _ = _paths_setup(tmp_path)
    path = rec / "game.rec"
    path.write_text(build_corpus.sp_opening('[Variant "../outside.toml"]'))
    refused = invoke("check", "--format", "jsonl", str(path))
    allowed = invoke("check", "--allow-dir", str(tmp_path), "--format", "jsonl", str(path))
    assert refused.exit_code == 1 and json.loads(refused.output.splitlines()[0])["code"] == "unknown-variant", (
        refused.output
    )
    assert allowed.exit_code == 0, allowed.output
    assert json.loads(allowed.output.splitlines()[0])["verdict"] == "unfinished", allowed.output


AUDIT_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    opened = []
    recording = [True]
    def hook(event, args):
        if recording[0] and event == "open" and args and isinstance(args[0], (str, bytes)):
            opened.append(args[0] if isinstance(args[0], str) else args[0].decode("utf-8", "replace"))
    out_path, folder = sys.argv[1], Path(sys.argv[2])
    files = sorted(str(p) for p in folder.glob("*.rec"))
    from referee.cli import main
    sys.addaudithook(hook)
    for command in (["check", str(folder)], *(["check", f] for f in files), *(["score", f] for f in files)):
        try:
            main(command, standalone_mode=False)
        except SystemExit:
            pass
        except BaseException as exc:
            opened.append("<" + type(exc).__name__ + " in " + " ".join(command) + ">")
    recording[0] = False
    with open(out_path, "w") as handle:
        json.dump(opened, handle)
    """
)


def test_a_record_opens_nothing_outside_its_folder(tmp_path: Path) -> None:
    """2. Audit every open() of a `referee check` run (sys.addaudithook in the child): only the named record
    folder, the referee's own package, its cache folder and the Python installation are opened, whatever the
    records name."""
    rec, outside = _paths_setup(tmp_path)
    bait = [outside, tmp_path / "secret.toml"]
    (tmp_path / "secret.toml").write_bytes(build_corpus.OUTSIDE_TOML)
    (rec / "link.toml").symlink_to(tmp_path / "secret.toml")
    (rec / "inside.toml").write_bytes(build_corpus.OUTSIDE_TOML)
    references = [*build_corpus.TRAVERSALS.values(), str(outside), str(tmp_path / "secret.toml"), "link.toml"]
    references += ["../secret.toml", "inside.toml", "sp-rich-start"]
    for index, reference in enumerate(references):
        value = reference.replace("\\", "\\\\")
        for tag in ("Variant", "Board", "DeckList", "Deck"):
            (rec / f"{tag}-{index}.rec").write_text(build_corpus.sp_opening(f'[{tag} "{value}"]'))
    log = tmp_path / "opened.json"
    audit = Proc([sys.executable, "-c", AUDIT_SCRIPT, str(log), str(rec)], referee=False, timeout=90, cwd=rec)
    result = run_proc(audit)
    opened = json.loads(log.read_text()) if log.exists() else []
    assert log.exists(), result.describe()
    import referee
    from referee.cachedir import cache_dir

    allowed_roots = [
        Path(referee.__file__).resolve().parent,
        ROOT / "grammar",
        rec.resolve(),
        *([cache_dir().resolve()] if cache_dir() is not None else []),  # the user's own grammar-table cache
        *{Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)},
    ]
    outside_opens = []
    for name in opened:
        if name.startswith("<"):
            continue  # a crash: reported by the corpus tests
        path = Path(name) if Path(name).is_absolute() else rec / name
        real = Path(os.path.realpath(path))
        if not any(real == root or root in real.parents for root in allowed_roots):
            outside_opens.append(name)
    bait_opened = [str(b) for b in bait if str(b) in opened or str(b.resolve()) in opened]
    fail_with(
        [f"opened the bait file {b}" for b in bait_opened] + sorted(set(outside_opens)),
        "opened because a record asked",
    )


def test_santorini_file_tags_stay_inside_the_record_folder(tmp_path: Path) -> None:
    """2. The Santorini: New York tags that name a file (Board, DeckList): one code, whatever exists."""
    game = find_game("santorini-new-york")
    if game is None:
        pytest.skip("Santorini: New York is not registered yet; its Board and DeckList tags are tested when it is")
    rec, outside = _paths_setup(tmp_path)
    head = f'[Game "{game.title}"]\n[Players "Anna, Boris"]\n'
    problems = []
    for tag in ("Board", "DeckList"):
        answers = set()
        for reference in ("../outside.toml", str(outside), "/etc/passwd", "../../nope.txt", "/proc/self/environ"):
            path = rec / f"{tag}.rec"
            path.write_text(head + f'[{tag} "{reference}"]\n')
            reports = judge(path)
            error = reports[0].error
            if error is None or error.verdict is not Verdict.MALFORMED or error.line != 3:
                problems.append(f"{tag} {reference}: {reports[0].verdict.value} {error and (error.code, error.line)}")
            else:
                answers.add(error.code)
        if len(answers) > 1:
            problems.append(f"{tag}: several codes {sorted(answers)}")
    fail_with(problems)


# ---------------------------------------------------------------------------------------------------------------
# 3. Special files


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def test_special_files_are_refused_at_once(tmp_path: Path) -> None:
    """3. FIFOs, devices and oversized files: unreadable-file (malformed, with the reason), never a hang."""
    fifo = _fifo(tmp_path / "pipe.rec")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "ok.rec").write_text(SP_OPENING)
    _fifo(folder / "pipe.rec")
    variant_folder = tmp_path / "vf"
    variant_folder.mkdir()
    _fifo(variant_folder / "v.toml")
    (variant_folder / "game.rec").write_text(build_corpus.sp_opening('[Variant "v.toml"]'))
    sparse = tmp_path / "sparse.rec"
    with open(sparse, "wb") as handle:
        handle.truncate(100 * 2**20)  # all NULs, no disk used: one 100 MB line
    zero_variant = tmp_path / "zv"
    zero_variant.mkdir()
    (zero_variant / "z.toml").symlink_to("/dev/zero")
    (zero_variant / "game.rec").write_text(build_corpus.sp_opening('[Variant "z.toml"]'))
    runs = {
        "check FIFO": (["check", "--format", "jsonl", str(fifo)], "unreadable-file"),
        "score FIFO": (["score", str(fifo)], "unreadable-file"),
        "explain FIFO": (["explain", str(fifo), "--line", "3"], None),
        "regress FIFO": (["regress", str(fifo)], "unreadable-file"),
        "check /dev/zero": (["check", "--format", "jsonl", "/dev/zero"], "unreadable-file"),
        "check /dev/null": (["check", "--format", "jsonl", "/dev/null"], "unreadable-file"),
        "check 100 MB sparse file over --max-size": (
            ["check", "--format", "jsonl", "--max-size", "64M", str(sparse)],
            "unreadable-file",
        ),
        "check a 100 MB line": (["check", "--format", "jsonl", str(sparse)], "line-too-long"),
        "check folder with a FIFO .rec": (["check", "--format", "jsonl", str(folder)], "unreadable-file"),
        "variant is a FIFO": (["check", "--format", "jsonl", str(variant_folder)], "-variant"),
        "variant links to /dev/zero": (["check", "--format", "jsonl", str(zero_variant)], "-variant"),
        "regress --baseline FIFO": (["regress", str(folder / "ok.rec"), "--baseline", str(fifo)], None),
        "regress --house-rule FIFO": (["regress", str(folder / "ok.rec"), "--house-rule", str(fifo)], None),
        "play --variant FIFO": (["play", "saint-petersburg", "--variant", str(fifo)], None),
    }
    results = run_procs([Proc(args, timeout=HANG_LIMIT) for args, _ in runs.values()])
    problems = []
    for (name, (_args, code)), result in zip(runs.items(), results, strict=True):
        if result.timed_out:
            problems.append(f"{name}: hangs (killed after {HANG_LIMIT:.0f} s)")
            continue
        output = result.out + result.err
        if "Traceback" in output or "MemoryError" in output:
            problems.append(f"{name}: {result.describe()}")
        elif result.returncode not in (1, 2):
            problems.append(f"{name}: exit {result.returncode}, expected a refusal: {shown(output, 300)}")
        elif code is not None and code not in output:
            problems.append(f"{name}: no [{code}] in the answer: {shown(output, 300)}")
    fail_with(problems)


def test_size_limit_is_an_option(tmp_path: Path) -> None:
    """3. ... stop reading past a size limit (an option with a sane default)."""
    options = {p.name: p for p in main.commands["check"].params}
    limit = [name for name in options if "max" in name or "limit" in name or "size" in name]
    assert limit, f"check has no size-limit option (its options: {sorted(options)})"
    option = options[limit[0]]
    path = tmp_path / "game.rec"
    path.write_text(SP_OPENING)
    result = invoke("check", "--format", "jsonl", option.opts[0], "100", str(path))
    assert result.exit_code == 1 and "unreadable-file" in result.output, result.output


# ---------------------------------------------------------------------------------------------------------------
# 6 and 7. Folders: nothing skipped in silence


def test_folder_problems_are_reported(tmp_path: Path) -> None:
    """7. Broken links and link loops inside a folder are reported, not skipped with 'all good'."""
    problems = []
    for name, make in {
        "broken link": lambda d: (d / "broken.rec").symlink_to(d / "missing.rec"),
        "link to itself": lambda d: (d / "self.rec").symlink_to(d / "self.rec"),
        "two-link loop": lambda d: ((d / "a.rec").symlink_to(d / "b.rec"), (d / "b.rec").symlink_to(d / "a.rec")),
    }.items():
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        (folder / "ok.rec").write_text(SP_OPENING)
        make(folder)
        result = invoke("check", str(folder))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problems.append(f"{name}: {type(result.exception).__name__} {result.exception}")
        elif result.exit_code != 1 or "unreadable-file" not in result.output:
            problems.append(f"{name}: exit {result.exit_code}: {shown(result.output, 300)}")
    # a folder whose links lead back up: judged once, no endless walk
    folder = tmp_path / "dir-loop"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "ok.rec").write_text(SP_OPENING)
    (folder / "sub" / "up").symlink_to(folder)
    result = invoke("check", str(folder))
    if result.exit_code != 0 or "1 game(s)" not in result.output:
        problems.append(f"directory link loop: exit {result.exit_code}: {shown(result.output, 300)}")
    fail_with(problems)


def test_unreadable_subfolder_is_reported(tmp_path: Path) -> None:
    """7. An unreadable subfolder is reported (as root: run without CAP_DAC_OVERRIDE so permission bits apply)."""
    folder = tmp_path / "games"
    (folder / "secret").mkdir(parents=True)
    (folder / "ok.rec").write_text(SP_OPENING)
    (folder / "secret" / "hidden.rec").write_text(SP_BAD)
    (folder / "unreadable.rec").write_text(SP_OPENING)
    os.chmod(folder / "unreadable.rec", 0)
    os.chmod(folder / "secret", 0)
    try:
        result = run_proc(Proc(["check", str(folder)], timeout=30, drop_dac=os.geteuid() == 0))
    finally:
        os.chmod(folder / "secret", 0o755)
    assert result.returncode == 1, result.describe()
    assert "secret" in result.out + result.err, f"the unreadable folder is not named:\n{result.describe()}"
    assert "unreadable-file" in result.out, result.describe()


@pytest.mark.parametrize("contents", ["empty", "only-other-files"])
def test_folder_without_records_is_not_all_good(tmp_path: Path, contents: str) -> None:
    """7. An empty folder: a non-zero exit with a clear message."""
    folder = tmp_path / "games"
    folder.mkdir()
    if contents == "only-other-files":
        (folder / "notes.txt").write_text(SP_OPENING)
    result = invoke("check", str(folder))
    assert result.exit_code != 0, result.output
    assert "all good" not in result.output and "no " in (result.output.lower()), result.output


@pytest.mark.parametrize("games", ["0", "-1"])
def test_play_no_games_is_a_usage_error(tmp_path: Path, games: str) -> None:
    """7. play --games 0 writes no empty file and exits 2."""
    out = tmp_path / "out.rec"
    result = invoke("play", "saint-petersburg", "--games", games, "-o", str(out))
    assert result.exit_code == 2, result.output
    assert not out.exists()


# ---------------------------------------------------------------------------------------------------------------
# 8. regress


@pytest.fixture
def games_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "work" / "games"
    folder.mkdir(parents=True)
    for name in ("sp-1e-2p-seed01.rec", "sp-1e-3p-seed02.rec"):
        shutil.copy(ROOT / "records/saint-petersburg/generated" / name, folder / name)
    return folder


def test_regress_house_rule_without_baseline_is_a_usage_error(games_dir: Path) -> None:
    result = invoke("regress", str(games_dir), "--house-rule", "sp-rich-start")
    assert result.exit_code == 2, result.output


def test_regress_house_rule_shows_the_new_scores(games_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(games_dir.parent)
    saved = invoke("regress", "games", "--save", "base.jsonl")
    assert saved.exit_code == 0, saved.output
    result = invoke("regress", "games", "--baseline", "base.jsonl", "--house-rule", "sp-rich-start")
    assert result.exit_code == 1, result.output
    assert "-> None" not in result.output, "a changed game shows no new scores or winners:\n" + result.output


@pytest.mark.parametrize("spelling", ["./games/", "games//", "ABSOLUTE", "../work/games", "FROM-SUB"])
def test_regress_baseline_matches_any_spelling_of_the_path(
    games_dir: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    work = games_dir.parent
    monkeypatch.chdir(work)
    saved = invoke("regress", "games", "--save", "base.jsonl")
    assert saved.exit_code == 0, saved.output
    argument = {"ABSOLUTE": str(games_dir), "FROM-SUB": "../games"}.get(spelling, spelling)
    if spelling == "FROM-SUB":
        (work / "sub").mkdir()
        monkeypatch.chdir(work / "sub")
    result = invoke("regress", argument, "--baseline", str(work / "base.jsonl"))
    assert result.exit_code == 0 and "not in the baseline" not in result.output, result.output


def test_regress_hostile_baselines(games_dir: Path, tmp_path: Path) -> None:
    """A baseline file is user input too: a usage error (exit 2), never a traceback."""
    problems = []
    for name, text in {
        "huge-index": '{"file": "x", "index": 1e400}\n',
        "nested": "[" * 100_000 + "]" * 100_000 + "\n",
        "not-json": "hello\n",
        "list-file": '{"file": [], "index": 1}\n',
        "invalid-utf8": "",
    }.items():
        path = tmp_path / f"{name}.jsonl"
        if name == "invalid-utf8":
            path.write_bytes(b"\xff\xfe{}\n")
        else:
            path.write_text(text)
        result = invoke("regress", str(games_dir), "--baseline", str(path))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problems.append(f"{name}: {type(result.exception).__name__}: {shown(str(result.exception))}")
        elif result.exit_code != 2:
            problems.append(f"{name}: exit {result.exit_code}: {shown(result.output)}")
    fail_with(problems)


# ---------------------------------------------------------------------------------------------------------------
# 9. Determinism


def test_play_is_the_same_in_every_process(tmp_path: Path) -> None:
    """9. Same arguments, same bytes, whatever PYTHONHASHSEED, for every registered game."""
    procs = []
    for game in sorted(GAMES):
        for seed in ("1", "2"):
            env = {**os.environ, "PYTHONHASHSEED": seed}
            procs.append(Proc(["play", game, "-n", "3", "-s", "7", "--games", "2"], env=env, timeout=60))
    results = run_procs(procs)
    problems = []
    for index, game in enumerate(sorted(GAMES)):
        first, second = results[2 * index], results[2 * index + 1]
        if first.returncode != 0 or second.returncode != 0:
            problems.append(f"{game}: {first.describe()}\n{second.describe()}")
        elif first.stdout != second.stdout:
            a, b = first.out.splitlines(), second.out.splitlines()
            line = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            problems.append(
                f"{game}: PYTHONHASHSEED 1 and 2 give different records from line {line + 1}: "
                f"{shown(a[line] if line < len(a) else '')} / {shown(b[line] if line < len(b) else '')}"
            )
    fail_with(problems)


# ---------------------------------------------------------------------------------------------------------------
# 11. Interrupts, pipes, standard input


def test_interrupt_exits_130_and_leaves_no_partial_file(tmp_path: Path) -> None:
    """11. Ctrl-C (SIGINT) mid-run: exit 130, no output file, no traceback."""
    big = tmp_path / "big"
    big.mkdir()
    for index in range(4):
        shutil.copytree(ROOT / "records", big / f"copy{index}")
    out = tmp_path / "out.rec"
    saved = tmp_path / "base.jsonl"
    runs = {
        "play -o": (["play", "saint-petersburg", "--games", "100000", "-o", str(out)], out),
        "regress --save": (["regress", str(big), "--save", str(saved)], saved),
        "check": (["check", str(big)], None),
    }
    results = run_procs([Proc(args, timeout=40, interrupt_after=3.0) for args, _ in runs.values()])
    problems = []
    for (name, (_args, written)), result in zip(runs.items(), results, strict=True):
        if result.returncode != 130:
            problems.append(f"{name}: {result.describe()}")
        if "Traceback" in result.err:
            problems.append(f"{name}: a traceback on Ctrl-C")
        if written is not None and written.exists():
            problems.append(f"{name}: left a partial {written.name} ({written.stat().st_size} bytes)")
    fail_with(problems)


def test_check_reads_standard_input() -> None:
    """11. `check -` judges the record on standard input."""
    result = invoke("check", "--format", "jsonl", "-", input=SP_BAD.encode())
    assert result.exit_code == 1, result.output
    row = json.loads(result.output.splitlines()[0])
    assert (row["verdict"], row["code"], row["line"]) == ("illegal", "sp-price-mismatch", 10), row


def test_check_standard_input_from_a_real_pipe() -> None:
    result = run_proc(Proc(["check", "-"], stdin=SP_BAD.encode(), timeout=HANG_LIMIT))
    assert result.returncode == 1 and "price-mismatch" in result.out, result.describe()


def test_score_accepts_folders(tmp_path: Path) -> None:
    """11. `score` takes folders like `check`."""
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(ROOT / build_corpus.SP_FULL, folder / "a.rec")
    shutil.copy(ROOT / build_corpus.SJ_FULL, folder / "b.rec")
    result = invoke("score", str(folder))
    assert result.exit_code == 0, result.output
    assert result.output.count("winner(s):") == 2, result.output


def test_closed_output_pipe_is_not_a_traceback() -> None:
    """A reader that stops early (`referee check records/ | head -1`): no BrokenPipeError traceback."""
    child = subprocess.Popen(
        [*build_corpus_referee(), "check", str(ROOT / "records")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.readline()
    child.stdout.close()
    try:
        _, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        raise
    assert b"Traceback" not in err, err.decode(errors="replace")[-800:]


def build_corpus_referee() -> list[str]:
    from hostile.invariants import referee_command

    return referee_command()


# ---------------------------------------------------------------------------------------------------------------
# Every statement of stored games with a token replaced by another: the file-order rule holds


def _mutation_sources() -> list[Path]:
    if DEEP:
        return sorted((ROOT / "records").rglob("*.rec"))
    return [ROOT / build_corpus.SP_FULL, ROOT / build_corpus.SJ_FULL, ROOT / build_corpus.SP_GOLDEN]


TOKEN = re.compile(r'"[^"]*"|[^\s,:;]+|[,:;]')


@pytest.mark.parametrize("source", _mutation_sources(), ids=lambda p: p.name)
def test_token_replacement_keeps_file_order(source: Path) -> None:
    """Each body statement, one token replaced by a random token of the file: every invariant holds, the game is
    judged as before up to that line, and a first problem is never placed before it (spec: file order), but for the
    Result tag, which is judged as soon as the outcome is settled."""
    text = source.read_text(encoding="utf-8")
    rows = text.split("\n")
    vocabulary = sorted({m.group() for row in rows for m in TOKEN.finditer(row.split("#")[0])} | {"0", "99999", "?"})
    rng = random.Random(f"{source.name}")
    originals = check_text(text, str(source), source.parent)
    problems = []
    for index, row in enumerate(rows):
        if not row.strip() or row.lstrip().startswith(("#", "[")):
            continue
        tokens = list(TOKEN.finditer(row.split("#")[0]))
        if not tokens:
            continue
        token = rng.choice(tokens)
        replacement = rng.choice(vocabulary)
        if replacement.startswith("["):
            continue
        mutated_row = row[: token.start()] + replacement + row[token.end() :]
        if mutated_row == row:
            continue
        number = index + 1
        # judged up to the mutated line only: the rest cannot move the first problem before it
        mutated = "\n".join([*rows[:index], mutated_row])
        try:
            with time_limit(API_LIMIT, f"line {number}"):
                reports = check_text(mutated, str(source), source.parent)
        except Hang:
            raise
        except Exception as exc:
            problems.append(f"line {number} {shown(mutated_row)}: raised {type(exc).__name__}: {shown(str(exc))}")
            continue
        problems += [f"line {number} {shown(mutated_row)}: {p}" for p in report_problems(reports, mutated.encode())]
        game = next((r for r in reversed(reports) if r.line <= number), None)
        original = next((r for r in originals if r.index == (game.index if game else 0)), None)
        if game is None or original is None:
            continue
        earlier = (  # a wrong Result tag sits on line 3 but is known only when the game is over
            original.error is not None and original.error.line < number and original.error.code != "result-mismatch"
        )
        if earlier and (
            game.error is None or (game.error.code, game.error.line) != (original.error.code, original.error.line)
        ):
            problems.append(f"line {number}: the earlier problem at line {original.error.line} changed")
        elif (
            not earlier and game.error is not None and game.error.line < number and game.error.code != "result-mismatch"
        ):
            problems.append(
                f"line {number} {shown(mutated_row)}: first problem placed before it, "
                f"[{game.error.code}] at line {game.error.line}"
            )
    fail_with(problems)
