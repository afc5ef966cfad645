"""Santorini: New York: the line parser agrees with the plain Lark parse on every line — the grammar
(``santorini_new_york.lark``) is the one reference (as ``tests/test_parser_equivalence.py`` checks for the other games).

``SNYLineParser.parse`` reads a line through its caches, the canonical reader (``read_canonical``: lines as the referee
writes them) and the piece-by-piece reader (``read_plain``), and only then the whole grammar; ``parse_whole`` is the
grammar alone. On every body line of the Santorini records (``records/``, the hostile corpus, freshly generated games
with random decks, boards and house rules) and on fuzzed lines made from them (tokens swapped, dropped or doubled,
case changed, blanks added or removed around separators, squares, names, keywords and cards replaced, lines cut),
both give the same statement (every field, columns included) or the same error (code, column, message); the canonical
reader's statement is the piece-by-piece reader's (where that reads the line); and the canonical reader reads nearly
every generated line.
``SNY_EQUIVALENCE_FUZZ=N`` sets the number of fuzzed lines.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import random
import re
from pathlib import Path

from test_santorini_differential import random_options

from referee.errors import RefereeError
from referee.record import is_blank_statement, split_games
from referee.santorini_new_york.notation import CANONICAL_HAND, CANONICAL_LIST, CANONICAL_TURN, SNYLineParser
from referee.santorini_new_york.play import Generator

CANONICAL_FORMS = (CANONICAL_TURN, CANONICAL_LIST, CANONICAL_HAND)

ROOT = Path(__file__).resolve().parent.parent
FUZZ_LINES = int(os.environ.get("SNY_EQUIVALENCE_FUZZ", "3000"))
NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena"]


@functools.cache
def generated_lines() -> tuple[str, ...]:
    """The body lines of generated games: random decks (all 14 professions), both boards, house rules."""
    lines: dict[str, None] = {}
    for game in range(8):
        options = random_options(random.Random(1000 + game))
        for line in Generator(NAMES[: 2 + game % 4], random.Random(game), options).run():
            lines[line] = None
    return tuple(lines)


@functools.cache
def corpus_lines() -> tuple[str, ...]:
    """Every distinct Santorini body line of the record corpus, the hostile corpus and generated games."""
    lines: dict[str, None] = {}
    for folder in (ROOT / "records", ROOT / "tests" / "hostile" / "corpus"):
        for path in sorted(folder.rglob("*.rec")):
            text = path.read_bytes().decode("utf-8", errors="replace")
            if "santorini" not in text.lower():
                continue
            for record in split_games(text):
                if "santorini" not in (record.tag("Game") or "").lower():
                    continue
                for _, line in record.body:
                    if isinstance(line, str) and len(line) <= 2000:
                        lines[line] = None
    lines.update(dict.fromkeys(generated_lines()))
    return tuple(lines)


def reading(parser: SNYLineParser, line: str, fast: bool) -> object:
    """What a line reads as: the statement, or (code, column, message) of its error (blank: None)."""
    try:
        result = parser.parse(line) if fast else parser.parse_whole(line)
    except RefereeError as error:
        return (error.code, error.column, error.message)
    if isinstance(result, RefereeError):  # parse_whole gives its error
        return (result.code, result.column, result.message)
    if is_blank_statement(result) or not dataclasses.is_dataclass(result):
        return None  # a blank or comment-only line (the grammar gives an empty tree, the line parser None)
    return result


def assert_same(lines: list[str]) -> int:
    """Every line reads the same through the line parser (fresh, then again from its caches) and the grammar; a
    line the canonical reader reads is the piece-by-piece reader's too. Returns how many the canonical reader read."""
    fast, plain, pieces, canonical_reader = SNYLineParser(), SNYLineParser(), SNYLineParser(), SNYLineParser()
    problems = []
    canonical = 0
    for line in lines:
        expected = reading(plain, line, fast=False)
        got = reading(fast, line, fast=True)
        again = reading(fast, line, fast=True)
        if got != expected or again != got:
            problems.append((line, expected, (got, again)))
        statement = canonical_reader.read_canonical(line)
        piecewise = pieces.read_plain(line)  # None for a loss line (the grammar's)
        # the canonical reader checks a line's head and each new piece, not the whole line: it reads exactly the
        # lines of the canonical forms (the patterns) whose pieces read
        form = any(pattern.fullmatch(line) for pattern in CANONICAL_FORMS)
        if (statement is not None and not form) or (form and piecewise is not None and statement is None):
            problems.append((line, expected, ("canonical form", form, statement)))
        if statement is not None:
            canonical += 1
            if statement != expected or (piecewise is not None and statement != piecewise):
                problems.append((line, expected, ("canonical", statement)))
    assert not problems, "\n".join(f"{line!r}:\n  lark: {want}\n  fast: {got}" for line, want, got in problems[:20])
    return canonical


# ------------------------------------------------------------------------------------------------ the fuzzer
WORDS = ["move", "moves", "Move", "force", "build", "Builds", "skyscraper", "loses", "roof", "rooftop", "place"]
WORDS += ["play", "hand", "win", "final", "round", "Engineer", "Iron Worker", "NYPD Officer", "Subway Operator", "?"]
WORDS += ["Crane", "Foreman", "Taxi", "Anna", "Boris", "win2", "_x", "a1", "b02", "z9", "c3=2", "c3=roof", "=", "-"]
ODD = [" ", "  ", "\t", ",", ";", ":", "-", "=", "#", '"', "?", "\u00a0", "\f", "\x0b", "é", "0", "12", ", ", "; "]
TOKEN = re.compile(r"[^\s,;:\-=]+|[,;:\-=]|\s+")
SEPARATOR = re.compile(r"\s*([,;:])\s*")


def mutate(line: str, rng: random.Random) -> str:
    """One random change (sometimes two) of a line; many keep it canonical in form (a square or a word replaced)."""
    for _ in range(1 + (rng.random() < 0.3)):
        tokens = TOKEN.findall(line) or [""]
        i = rng.randrange(len(tokens))
        choice = rng.randrange(11)
        if choice == 0 and len(tokens) > 1:  # swap two tokens
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif choice == 1:  # change case
            tokens[i] = rng.choice([str.upper, str.lower, str.title, str.swapcase])(tokens[i])
        elif choice == 2:  # a blank added or removed around a separator
            line = SEPARATOR.sub(
                lambda m: rng.choice(["", " ", "  ", "\t"]) + m.group(1) + rng.choice(["", " ", "  "]), line, count=1
            )
            continue
        elif choice == 3:  # cut the line
            return "".join(tokens)[: rng.randrange(len(line) + 1)]
        elif choice == 4:  # a word or square from elsewhere
            tokens[i] = rng.choice(WORDS)
        elif choice == 5:  # an odd character
            tokens.insert(i, rng.choice(ODD))
        elif choice == 6:  # drop a token
            del tokens[i]
        elif choice == 7:  # double a token
            tokens.insert(i, tokens[i])
        elif choice == 8:  # a square changed
            tokens[i] = re.sub(r"[a-z][0-9]+", lambda _: rng.choice("abcez") + str(rng.randrange(12)), tokens[i])
        elif choice == 9:  # a number changed
            tokens[i] = re.sub(r"[0-9]+", lambda _: str(rng.randrange(30)), tokens[i])
        else:  # a trailing blank or comment
            tokens.append(rng.choice([" ", "\t", " # note", "#"]))
        line = "".join(tokens)
    return line


def fuzzed_lines(count: int, seed: int = 2031) -> list[str]:
    rng = random.Random(seed)
    lines = list(corpus_lines())
    return [mutate(rng.choice(lines), rng) for _ in range(count)]


# ------------------------------------------------------------------------------------------------ the tests
def test_every_corpus_line_reads_as_lark_reads_it() -> None:
    lines = list(corpus_lines())
    assert len(lines) > 1000
    assert_same(lines)


def test_the_canonical_reader_reads_nearly_every_generated_line() -> None:
    # 'round N' and the setup 'skyscraper: SQ' (once a game at most) are left to the grammar
    lines = [line for line in generated_lines() if ":" in line and not line.startswith("skyscraper:")]
    assert assert_same(lines) == len(lines)
    losses = [line for line in corpus_lines() if ": loses " in line and not {"#", ";"} & set(line)]
    assert losses and assert_same(losses) == len(losses)


def test_every_fuzzed_line_reads_as_lark_reads_it() -> None:
    assert assert_same(fuzzed_lines(FUZZ_LINES)) > 0.15 * FUZZ_LINES  # many fuzzed lines are still canonical


def test_the_canonical_reader_leaves_other_forms_to_the_piece_reader() -> None:
    parser = SNYLineParser()
    for line in (
        "Anna:  move b2-c2; build c1",  # two blanks
        "Anna: move b2-c2 ; build c1",
        "Anna : move b2-c2",
        " Anna: move b2-c2",
        "Anna: move b2-c2; build c1 ",
        "Anna: move b2-c2;build c1",
        "hand  Anna: Engineer 1",
        "Play: Anna Engineer 1",
        "play: Anna Engineer 1,Boris Engineer 5",
        "round: move b2-c2",  # a statement keyword as a name
        'Anna: move b2-c2 # "note"',
    ):
        assert parser.read_canonical(line) is None, line
    assert parser.read_canonical("Anna: move b2-c2; build c1, b1=2") == parser.parse_whole(
        "Anna: move b2-c2; build c1, b1=2"
    )


def test_the_pieces_kept_are_bounded_and_a_full_cache_reads_the_same() -> None:
    parser, plain = SNYLineParser(), SNYLineParser()
    parser.PIECE_LIMIT = 7
    for index in range(200):
        line = f"Anna: move a{index % 9 + 1}-b{index % 7 + 1}; build c{index % 5 + 1}=1, d{index % 11 + 1}"
        assert parser.parse(line) == plain.parse_whole(line)
        kept = sum(len(pieces) for columns in parser._sny_canonical.values() for pieces in columns.values())
        assert kept == parser._sny_kept <= 7
