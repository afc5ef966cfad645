"""Fuzzing the referee with Hypothesis: mutated real records and random bytes, judged under the hostile invariants.

    .venv/bin/python -m pytest tests/test_fuzz.py                                 # ci profile: a few seconds
    REFEREE_FUZZ=deep .venv/bin/python -m pytest tests/test_fuzz.py               # deep: 3,000 examples per test
    REFEREE_FUZZ=deep REFEREE_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/test_fuzz.py -x   # deeper still
    REFEREE_FUZZ=deep .venv/bin/python -m pytest tests/test_fuzz.py tests/test_hostile.py   # and every record mutated

Profiles (applied to these tests only, never loaded globally):

``ci``    (default) derandomised, no example database, no shrinking, ~25 examples per test: the same inputs every
          run, so a failure in CI is reproducible with the same command.
``deep``  random, with the example database (``.hypothesis/``, ignored by git), ``REFEREE_FUZZ_EXAMPLES`` examples
          per test (default 3,000): run it after a change to the reader, the grammar or the replay loop.

Every input must keep the invariants of tests/hostile/invariants.py: a verdict or a located error for every game
(line and column inside the file), never an exception, an internal error or a hang (each input has a generous
``PER_INPUT`` time limit: a hang guard, not a speed target), short messages with invisible characters escaped, the
same answer twice, and, for a single-line change, the spec's file order: the first problem is never placed before
the changed line (but for the Result tag, judged as soon as the outcome is settled).
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hostile import build_corpus
from hostile.invariants import Hang, output_problems, report_problems, shown, time_limit
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.replay import check_file, check_text

PER_INPUT = 10.0  # seconds

_COMMON = {
    "deadline": None,
    "print_blob": True,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
}
settings.register_profile(  # no shrinking in CI: a failure prints its input at once; deep runs shrink
    "referee-fuzz-ci",
    max_examples=25,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    **_COMMON,
)
settings.register_profile(
    "referee-fuzz-deep", max_examples=int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "3000")), **_COMMON
)
PROFILE = os.environ.get("REFEREE_FUZZ", "ci").lower()
if PROFILE not in ("ci", "deep"):
    raise RuntimeError(f"REFEREE_FUZZ={PROFILE!r}: use ci or deep")
FUZZ = settings.get_profile(f"referee-fuzz-{PROFILE}")
FEW = settings(FUZZ, max_examples=max(5, FUZZ.max_examples // 5))  # the slower command-line runs

ROOT = build_corpus.ROOT
SOURCE_PATHS = [
    build_corpus.SP_FULL,
    build_corpus.SJ_FULL,
    build_corpus.SP_GOLDEN,
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "records/saint-petersburg/illegal").glob("*.rec"))[:6],
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "records/san-juan/illegal").glob("*.rec"))[:4],
]
SOURCES = {path: (ROOT / path).read_bytes() for path in SOURCE_PATHS}
SINGLE = [build_corpus.SP_FULL, build_corpus.SJ_FULL, build_corpus.SP_GOLDEN]  # one valid game each
SMALL_CORPUS = sorted(p for p in build_corpus.CORPUS.rglob("*.rec") if p.stat().st_size < 4000)
TOKEN = re.compile(r'"[^"]*"|[^\s,:;]+|[,:;]')
VOCABULARY = sorted(
    {m.group() for data in SOURCES.values() for line in data.decode().split("\n") for m in TOKEN.finditer(line)}
    | {"0", "-1", "99999999999999999999", "9" * 5000, "?", "#", '"', "[", "]", ":", ",", ";", "\\"}
)
WORK = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)

# Characters an attacker likes: line-end look-alikes, invisible and bidirectional controls, a BOM, a NUL.
NASTY = "\r\n\x00\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\u200b\u200d\u202e\u2066\ufeff\x1b\x7f\ufffd\U0001f600é’"
nasty_text = st.text(alphabet=st.sampled_from(NASTY) | st.characters(codec="utf-8"), max_size=40)


# ---------------------------------------------------------------------------------------------------------------
# Mutations


@st.composite
def mutated(draw: st.DrawFn, sources: list[str] | None = None) -> tuple[str, bytes, int | None]:
    """(source, mutated bytes, the first changed LF line when the change stays within whole lines, else None)."""
    name = draw(st.sampled_from(sources or list(SOURCES)))
    data = SOURCES[name]
    count = 1 if sources else draw(st.integers(1, 4))
    first: int | None = None
    for _ in range(count):
        data, line = draw(mutation(data))
        first = line if first is None and line is not None and count == 1 else None
    return name, data, first


@st.composite
def mutation(draw: st.DrawFn, data: bytes) -> tuple[bytes, int | None]:
    rows = data.split(b"\n")
    kind = draw(
        st.sampled_from(["delete", "duplicate", "swap", "token", "insert-text", "insert-bytes", "truncate", "join"])
    )
    i = draw(st.integers(0, max(0, len(rows) - 1)))
    if kind == "delete":
        return b"\n".join(rows[:i] + rows[i + 1 :]), i + 1
    if kind == "duplicate":
        return b"\n".join(rows[: i + 1] + rows[i:]), i + 2
    if kind == "swap":
        j = draw(st.integers(0, max(0, len(rows) - 1)))
        rows[i], rows[j] = rows[j], rows[i]
        return b"\n".join(rows), min(i, j) + 1
    if kind == "join":  # two lines become one
        if i + 1 < len(rows):
            rows[i : i + 2] = [rows[i] + b" " + rows[i + 1]]
        return b"\n".join(rows), i + 1
    if kind == "token":
        text = rows[i].decode("utf-8", errors="replace")
        tokens = list(TOKEN.finditer(text))
        if not tokens:
            return data, None
        token = draw(st.sampled_from(tokens))
        replacement = draw(st.sampled_from(VOCABULARY) | nasty_text)
        rows[i] = (text[: token.start()] + replacement + text[token.end() :]).encode("utf-8", errors="surrogatepass")
        return b"\n".join(rows), None if "\n" in replacement else i + 1  # only LF ends a line (spec)
    if kind == "insert-text":
        text = draw(nasty_text).encode("utf-8", errors="surrogatepass")
        at = draw(st.integers(0, len(data)))
        return data[:at] + text + data[at:], None
    if kind == "insert-bytes":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at:], None
    at = draw(st.integers(0, len(data)))  # truncate
    return data[:at], None


# ---------------------------------------------------------------------------------------------------------------
# Running one input


def judge_bytes(data: bytes, name: str = "fuzz.rec"):
    path = WORK / name
    path.write_bytes(data)
    try:
        with time_limit(PER_INPUT, "one fuzzed input"):
            return check_file(path)
    except Hang:
        raise AssertionError(f"no answer within {PER_INPUT} s") from None
    except Exception as exc:
        raise AssertionError(f"check_file raised {type(exc).__name__}: {shown(str(exc), 300)}") from exc


def body_start(data: bytes) -> int:
    """The LF line of the blank line that ends the first tag section."""
    rows = data.decode().split("\n")
    return next(i for i, row in enumerate(rows, 1) if not row.strip())


def signature(reports) -> list[tuple]:
    return [
        (r.index, r.verdict.value, r.error and (r.error.code, r.error.line, r.error.column, r.error.message))
        for r in reports
    ]


def assert_invariants(data: bytes, reports) -> None:
    problems = report_problems(reports, data)
    assert not problems, "\n".join(problems[:10])


# ---------------------------------------------------------------------------------------------------------------
# The tests


@FUZZ
@given(mutated())
def test_mutated_records_keep_the_invariants(case: tuple[str, bytes, int | None]) -> None:
    """Lines deleted, duplicated, swapped, joined; tokens replaced; Unicode and bytes inserted; truncated."""
    _, data, _ = case
    reports = judge_bytes(data)
    assert_invariants(data, reports)
    assert signature(judge_bytes(data)) == signature(reports), "judged differently the second time"


@FUZZ
@given(mutated(SINGLE))
def test_one_changed_line_keeps_file_order(case: tuple[str, bytes, int | None]) -> None:
    """A change that starts on line N: the first problem is on line N or later (or the Result tag's)."""
    name, data, first = case
    assume(first is not None and first > body_start(SOURCES[name]))
    reports = judge_bytes(data)
    assert_invariants(data, reports)
    original = check_text(SOURCES[name].decode(), "orig.rec", WORK)
    assert original[0].error is None  # the sources are valid games
    for report in reports:
        error = report.error
        if error is None or report.index != 1:
            continue
        assert error.line >= first or error.code in ("result-mismatch",), (
            f"the change is on line {first}, the problem placed on line {error.line}: [{error.code}] "
            f"{shown(error.message)}"
        )


@FUZZ
@given(st.binary(max_size=4096))
def test_random_bytes(data: bytes) -> None:
    reports = judge_bytes(data)
    assert_invariants(data, reports)


@FUZZ
@given(st.lists(st.sampled_from(SMALL_CORPUS), min_size=1, max_size=3), st.data())
def test_hostile_corpus_spliced(paths: list[Path], data: st.DataObject) -> None:
    """Pieces of several hostile inputs glued together, with a random cut in each."""
    pieces = []
    for path in paths:
        raw = path.read_bytes()
        cut = data.draw(st.integers(0, len(raw)))
        pieces.append(raw[:cut] if data.draw(st.booleans()) else raw[cut:])
    blob = b"\n".join(pieces)
    reports = judge_bytes(blob, "spliced.rec")
    assert_invariants(blob, reports)


TAG_NAMES = ["Game", "Players", "Ruleset", "Variant", "Result", "Expect", "Board", "DeckList", "Deck", "Event"]


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.sampled_from(TAG_NAMES) | st.from_regex(r"[A-Za-z][A-Za-z0-9_\-]{0,8}", fullmatch=True), nasty_text
        ),
        max_size=8,
    ),
    st.sampled_from(["Saint Petersburg", "San Juan", "saint-petersburg", "SAN JUAN", "chess", ""]),
)
def test_random_tag_sections(tags: list[tuple[str, str]], game: str) -> None:
    """Tag sections with random names and values (quotes and backslashes escaped) before a real opening."""
    lines = [f'[Game "{game}"]', '[Players "Anna, Boris"]']
    lines += ["[" + name + ' "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"]' for name, value in tags]
    text = "\n".join(lines) + "\n\n" + build_corpus.SP_OPENING
    data = text.encode("utf-8", errors="surrogatepass")
    reports = judge_bytes(data, "tags.rec")
    assert_invariants(data, reports)


@FEW
@given(mutated())
def test_command_line_on_mutated_records(case: tuple[str, bytes, int | None]) -> None:
    """`check` (text and jsonl), `score` and `explain` on a mutated record: exit 0 or 1 (2 for explain's usage
    errors), no traceback, no raw control or invisible characters in the text output, the file untouched."""
    _, data, _ = case
    path = WORK / "cli.rec"
    path.write_bytes(data)
    runs = [
        ["check", str(path)],
        ["check", "--format", "jsonl", str(path)],
        ["score", str(path)],
        ["explain", str(path), "--line", "20"],
    ]
    for args in runs:
        with time_limit(PER_INPUT, " ".join(args)):
            result = CliRunner().invoke(main, args)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{args[0]}: {type(result.exception).__name__}: {shown(str(result.exception))}")
        assert result.exit_code in ((0, 1, 2) if args[0] == "explain" else (0, 1)), (args, result.output[-300:])
        if "jsonl" not in args:
            problems = output_problems(result.output)
            assert not problems, f"{args[0]}: " + "\n".join(problems)
    assert path.read_bytes() == data, "the record was changed"
