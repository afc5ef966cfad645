"""The fast line parser agrees with the plain Lark parse on every line: the grammar is the one reference.

``LineParser.parse`` reads a line through caches, pieces (list items, actor actions) and the games' hand-written
readers (``Pieces.reader``); ``LineParser.parse_whole`` parses the whole line with the grammar and nothing else. For
every body line of the record corpus (``records/``, the hostile corpus, freshly generated games) and for a fuzzed corpus
made from those lines (tokens swapped, dropped or doubled, case changed, white space added or changed, lines cut, cards
replaced by unknown names or by keywords, separators moved), both must give the same statement (every field, columns
included) or the same error (code, column, message).

    .venv/bin/python -m pytest tests/test_parser_equivalence.py                          # ~3,000 fuzzed lines a game
    REFEREE_EQUIVALENCE_FUZZ=100000 .venv/bin/python -m pytest tests/test_parser_equivalence.py   # a deep run
"""

from __future__ import annotations

import dataclasses
import functools
import os
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from lark import Tree

from referee.errors import RefereeError
from referee.record import NOT_AN_ACTION, PLAIN_PLAYER, LineParser, TwoReadings, is_blank_statement, split_games

ROOT = Path(__file__).resolve().parent.parent
FUZZ_LINES = int(os.environ.get("REFEREE_EQUIVALENCE_FUZZ", "3000"))
BLANK = "blank line"
GAMES = {"san-juan": "San Juan", "saint-petersburg": "Saint Petersburg"}


def _make(game: str) -> Callable[[], LineParser]:
    if game == "san-juan":
        from referee.san_juan.parser import make_parser
    else:
        from referee.saint_petersburg.parser import make_parser
    return make_parser


@functools.cache
def corpus_lines(game: str) -> tuple[str, ...]:
    """Every distinct body line of the game's records: the record corpus, the hostile corpus and generated games."""
    title = GAMES[game]
    texts = []
    for folder in (ROOT / "records", ROOT / "tests" / "hostile" / "corpus"):
        for path in sorted(folder.rglob("*.rec")):
            texts.append(path.read_bytes().decode("utf-8", errors="replace"))
    from referee.registry import GAMES as REGISTERED

    registered = REGISTERED[game]
    for seed in range(6):
        players = ["Anna", "Boris", "Clara", "Dmitri"][: 2 + seed % 3]
        texts.append(registered.play(players, random.Random(seed), registered.ruleset(None), {}))
    lines: dict[str, None] = {}
    for text in texts:
        for record in split_games(text):
            name = (record.tag("Game") or "").strip().lower()
            if name not in (title.lower(), game):
                continue
            for _, line in record.body:
                if isinstance(line, str) and len(line) <= 2000:
                    lines[line] = None
    return tuple(lines)


def _reading(parser: LineParser, line: str, fast: bool) -> object:
    """What a line reads as: the statement, or (code, column, message) of its error."""
    try:
        result = parser.parse(line) if fast else parser.parse_whole(line)
    except RefereeError as error:
        return (error.code, error.column, error.message)
    if isinstance(result, RefereeError):
        return (result.code, result.column, result.message)
    if is_blank_statement(result) or (isinstance(result, Tree) and not result.children):
        return BLANK  # a blank or comment-only line (parse_whole gives an empty tree, parse None or its cached marker)
    return result


def expected_reading(plain: LineParser, line: str) -> object:
    """The plain Lark reading of a line: the whole line parsed with the grammar. A player named like a keyword
    (``Aristocrat: pass``, ``Round: pass``) is read as a player where a name stands (the line parser reads ``PLAYER:
    ACTION`` as a player and an action): when the whole line does not parse, such a line reads as the whole-line
    parse of the same line with the name replaced by a plain one of the same length, the name put back."""
    whole = _reading(plain, line, fast=False)
    if isinstance(whole, tuple) and '"' not in line:
        head = line.split("#", 1)[0].partition(":")[0]
        name = head.strip(" \t\f\r\n")
        if ":" in line.split("#", 1)[0] and PLAIN_PLAYER.fullmatch(name):
            actor = _actor_reference(plain, line, name)
            if not isinstance(actor, tuple):
                return actor
    return whole


def assert_same(game: str, lines: list[str]) -> int:
    """Every line reads the same through the fast parser (fresh, then again from its caches) and through plain Lark;
    returns how many lines the game's hand-written reader read itself."""
    make = _make(game)
    fast, plain = make(), make()
    read = 0
    reader = fast._reader
    problems = []
    for line in lines:
        expected = expected_reading(plain, line)
        got = _reading(fast, line, fast=True)
        if isinstance(got, TwoReadings):
            whole = _reading(plain, line, fast=False)
            actor = _actor_reference(plain, line, got.player)
            if got.keyword != whole or got.actor != actor:
                problems.append((line, (whole, actor), got))
            continue
        if got != expected:
            problems.append((line, expected, got))
        again = _reading(fast, line, fast=True)
        if again != got:
            problems.append((line, got, again))
        if reader is not None and ":" in line and '"' not in line and "#" not in line:
            head, _, rest = line.partition(":")
            text = rest.strip(" \t\f\r\n")
            if text and PLAIN_PLAYER.fullmatch(head.strip(" \t\f\r\n")):
                action = reader(text, len(head) + 2 + len(rest) - len(rest.lstrip(" \t\f\r\n")))
                if action is NOT_AN_ACTION:  # then Lark cannot read the line as an actor line either
                    name = head.strip(" \t\f\r\n")
                    if not isinstance(_actor_reference(plain, line, name), tuple):
                        problems.append((line, _actor_reference(plain, line, name), ("reader", "not an action")))
                elif action is not None:
                    read += 1
                    if getattr(expected, "action", None) != action:
                        problems.append((line, expected, ("reader", action)))
    assert not problems, "\n".join(f"{line!r}:\n  lark: {want}\n  fast: {got}" for line, want, got in problems[:20])
    return read


def _actor_reference(parser: LineParser, line: str, key: str) -> object:
    """The plain Lark reading of ``KEY: action`` as an actor line: the name replaced by a same-length plain name that
    is no keyword, the whole line parsed, then the name put back."""
    head, colon, rest = line.partition(":")
    reading = _reading(parser, head.replace(key, "Q" * len(key), 1) + colon + rest, fast=False)
    player = getattr(reading, "player", None)
    if player is not None:
        reading = dataclasses.replace(reading, player=dataclasses.replace(player, name=key))
    return reading


# ------------------------------------------------------------------------------------------------ the fuzzer
KEYWORDS = [
    *("over", "paying", "pay", "goods", "keeps", "keep", "none", "draws", "draw", "sell", "build", "produce"),
    *("tucks", "discards", "pass", "builder", "councilor", "prospector", "well", "poor", "house", "market", "hall"),
    *("gold", "mine", "indigo", "coffee", "for", "upper", "lower", "buy", "take", "play", "pub", "observe", "deal"),
    *("score", "final", "win", "round", "tile", "governor", "hand", "phase", "worker"),
]
ODD = ["?", ",", ";", ":", "(", ")", "&", "-", "'", "’", ".", "#", '"', "\t", "\u00a0", "\u2028", "  ", "0", "12"]
TOKEN = re.compile(r"[^\s,;:()?]+|[,;:()?]|\s+")


def mutate(line: str, rng: random.Random, words: list[str]) -> str:
    """One random change (sometimes two) of a corpus line."""
    for _ in range(1 + (rng.random() < 0.3)):
        tokens = TOKEN.findall(line) or [""]
        i = rng.randrange(len(tokens))
        choice = rng.randrange(12)
        if choice == 0 and len(tokens) > 1:  # swap two tokens
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif choice == 1:  # change case
            tokens[i] = rng.choice([str.upper, str.lower, str.title, str.swapcase])(tokens[i])
        elif choice == 2:  # white space
            tokens.insert(i, rng.choice([" ", "  ", "\t", " \t ", "\u00a0", "\f"]))
        elif choice == 3:  # cut the line
            return "".join(tokens)[: rng.randrange(len(line) + 1)]
        elif choice == 4:  # an unknown or misspelt card
            word = tokens[i]
            tokens[i] = rng.choice([word[:-1], word + "x", "Smithyy", "Guildhal", "Unknown Card", word[::-1]])
        elif choice == 5:  # a keyword where a card or a word stood
            tokens[i] = rng.choice(KEYWORDS)
        elif choice == 6:  # an odd character
            tokens.insert(i, rng.choice(ODD))
        elif choice == 7:  # drop a token
            del tokens[i]
        elif choice == 8:  # double a token
            tokens.insert(i, tokens[i])
        elif choice == 9:  # a card name from elsewhere in the corpus
            tokens[i] = rng.choice(words)
        elif choice == 10:  # glue tokens (no space)
            tokens = [t for t in tokens if not (t.isspace() and rng.random() < 0.5)]
        else:  # a ``?`` for a word
            tokens[i] = "?"
        line = "".join(tokens)
    return line


def fuzzed_lines(game: str, count: int, seed: int = 2026) -> list[str]:
    rng = random.Random(seed)
    lines = list(corpus_lines(game))
    words = sorted({w for line in lines for w in re.findall(r"[A-Z][\w'’.&-]*(?: [A-Z][\w'’.&-]*)*", line)})
    return [mutate(rng.choice(lines), rng, words) for _ in range(count)]


# ------------------------------------------------------------------------------------------------ the tests
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_corpus_line_reads_as_lark_reads_it(game: str) -> None:
    lines = list(corpus_lines(game))
    assert len(lines) > 1000
    read = assert_same(game, lines)
    # the reader reads most action lines itself (a Saint Petersburg record has more deal and score lines)
    assert read > len(lines) // (2 if game == "san-juan" else 3)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_fuzzed_line_reads_as_lark_reads_it(game: str) -> None:
    assert_same(game, fuzzed_lines(game, FUZZ_LINES))


def test_the_reader_leaves_what_it_is_not_sure_of_to_lark() -> None:
    """Errors, odd spacing and forms it does not know come from the grammar (the reader says None)."""
    from referee.san_juan.parser import make_parser

    parser = make_parser()
    reader = parser._reader
    assert reader is not None
    assert reader("build Smithyy", 7) is None  # an unknown card: Lark's error and suggestion
    assert reader("draws Well; keeps", 7) is None  # a syntax error
    assert reader("produce Indigo Plant over Crane", 7) is None  # 'over' is a keyword after a card's word
    assert reader("build\u00a0Smithy", 7) is None  # not the grammar's white space
    assert reader("build Smithy paying ? Well", 7) is None  # no word after a '?'
    build = reader("build  Smithy over Crane paying Well, ? goods Sugar Mill", 8)
    assert build == parser.parse_whole("Anna:  build  Smithy over Crane paying Well, ? goods Sugar Mill").action


SJ_CANONICAL_TEMPLATES = (
    "draws {c}, Well; keeps {c}",
    "draws Well, {c}; keeps none",
    "draws {c} (well)",
    "draws ?, {c} (market hall)",
    "build {c}",
    "build Well over {c}",
    "build {c} over Well paying {c}, ?",
    "build Well paying ?, {c} goods {c}",
    "sell indigo; draws {c}, ?",
    "sell {c}, sugar",
    "produce {c}, Well",
    "discards Well, {c}",
    "tucks {c}",
    "gold mine {c}, Well; keeps {c}",
    "gold mine Hero, {c}; keeps none",
)


def test_san_juan_canonical_actions_read_every_name_in_every_position_as_lark() -> None:
    """The canonical reader (``reader.CanonicalActions``: printed names, no lexer) reads every printed card name,
    ``?`` and good in every list position of every action exactly as the whole grammar does — or leaves the text
    to the lexing reader; a word the grammar reads otherwise there (a good where a card is due) is left too."""
    from referee.san_juan.cards import CARDS, GOODS
    from referee.san_juan.parser import make_parser

    parser = make_parser()
    reader = parser._reader
    assert reader is not None
    canonical = reader.canonical  # type: ignore[attr-defined]
    words = [*(card.name for card in CARDS.values()), "?", *GOODS, "none", "Smithy, ", "keeps", "well)", ""]
    read = 0
    for template in SJ_CANONICAL_TEMPLATES:
        for word in words:
            text = template.format(c=word)
            action = canonical(text, 6)
            if action is None:
                continue
            read += 1
            whole = parser.parse_whole(f"Anna: {text}")
            assert not isinstance(whole, RefereeError), (text, whole)
            assert action == whole.action, text
    assert read > len(SJ_CANONICAL_TEMPLATES) * len(CARDS) * 3 // 4  # most of them are read without a lexer
    assert canonical("draws Well,  Tower; keeps Well", 6) is None  # two blanks: the lexing reader's
    assert canonical("build smithy", 6) is None  # not as printed
    assert canonical("draws Well; keeps Well; keeps Well", 6) is None


def test_the_saint_petersburg_reader_leaves_what_it_is_not_sure_of_to_lark() -> None:
    """Errors, odd spacing and forms it does not know come from the grammar (the reader says None); a text whose
    first token starts no action (a ``deal:`` or ``score:`` line tried as a player's line) is ``NOT_AN_ACTION``."""
    from referee.saint_petersburg.parser import make_parser

    parser = make_parser()
    reader = parser._reader
    assert reader is not None
    assert reader("buy Lumberjak for 3", 7) is None  # an unknown card: Lark's error and suggestion
    assert reader("buy Lumberjack for", 7) is None  # a syntax error
    assert reader("take Lumberjack for 3", 7) is None  # no price on a take
    assert reader("buy Lumberjack for 1234567890", 7) is None  # a number too large: the grammar's error
    assert reader("pub 1234567890", 7) is None
    assert reader("buy\u00a0Lumberjack", 7) is None  # not the grammar's white space
    assert reader("observe workers: Lumberjack buy", 7) is None  # the comma is missing
    assert reader("Lumberjack, Shepherd", 7) is NOT_AN_ACTION
    assert reader("Anna +6R, Boris +6R", 7) is NOT_AN_ACTION
    for line in (
        "Anna:  buy  upper Tax Man over  Market for 07",
        "Anna: TAKE Lower Gold Miner",
        "Anna: plays Firehouse over Market for 3",
        "Anna: observes Buildings: Market, buy over Pub for 2",
        "Anna: observe upgrade:Tax Man,take",
        "Anna: pub 2 for 4",
        "Anna: Passes",
    ):
        head, _, rest = line.partition(":")
        action = reader(rest.strip(), len(head) + 2 + len(rest) - len(rest.lstrip()))
        assert action is not None and action == parser.parse_whole(line).action, line


def test_the_readers_two_card_readings_agree() -> None:
    """San Juan's reader lexes a card's words as one run (``Cards.runs``, the grammar as it is); the card-by-card
    reading it keeps for a grammar whose card words are not one run must read every corpus and fuzzed action the
    same, as Lark does."""
    from referee.san_juan.parser import make_parser
    from referee.san_juan.reader import ActionReader, Cards

    parser = make_parser()
    runs = ActionReader(parser)
    one_by_one = ActionReader(parser)
    listed = [name for name, value in vars(one_by_one).items() if isinstance(value, Cards)]
    assert len(listed) >= 10 and all(getattr(one_by_one, name).runs for name in listed)
    for name in listed:
        setattr(one_by_one, name, dataclasses.replace(getattr(one_by_one, name), runs=False))
    read = 0
    for line in [*corpus_lines("san-juan"), *fuzzed_lines("san-juan", FUZZ_LINES)]:
        head, colon, rest = line.partition(":")
        text = rest.strip(" \t\f\r\n")
        if not colon or not text or "#" in line or '"' in line:
            continue
        column = len(head) + 2 + len(rest) - len(rest.lstrip(" \t\f\r\n"))
        want, got = runs(text, column), one_by_one(text, column)
        assert got == want, (line, want, got)
        read += want is not None and want is not NOT_AN_ACTION
    assert read > 1000


# ------------------------------------------------------------------------------------------------ tag lines
@functools.cache
def corpus_tag_lines() -> tuple[str, ...]:
    """Every distinct line that starts like a tag in the record corpus and the hostile corpus (any game)."""
    lines: dict[str, None] = {}
    for folder in (ROOT / "records", ROOT / "tests" / "hostile" / "corpus"):
        for path in sorted(folder.rglob("*.rec")):
            for line in path.read_bytes().decode("utf-8", errors="replace").splitlines():
                if line.lstrip().startswith("[") and len(line) <= 2000:
                    lines[line] = None
    return tuple(lines)


TAG_ODD = ["\\", '\\"', "\\\\", '"', "[", "]", " ", "\t", "#", "\u00a0", "\u2028", "é", "-", "_", "0", "\r", "\n"]


def fuzzed_tag_lines(count: int, seed: int = 2027) -> list[str]:
    rng = random.Random(seed)
    lines = list(corpus_tag_lines())
    out = []
    for _ in range(count):
        line = rng.choice(lines)
        for _ in range(1 + (rng.random() < 0.4)):
            i = rng.randrange(len(line) + 1)
            choice = rng.randrange(4)
            if choice == 0:  # an odd character inserted
                line = line[:i] + rng.choice(TAG_ODD) + line[i:]
            elif choice == 1 and line:  # a character dropped
                line = line[:i] + line[i + 1 :]
            elif choice == 2:  # cut
                line = line[:i]
            else:  # a character doubled
                line = line[:i] + line[i : i + 1] + line[i:]
        out.append(line)
    return out


def test_every_tag_line_reads_as_the_tag_grammar_reads_it() -> None:
    """The usual ``[Name "value"]`` form is read without the tag grammar: name, value and the value's column (or the
    column of the error) are what the grammar (record.lark) gives, on the corpus and on fuzzed tag lines."""
    from referee.record import _parse_tag_line, _parse_tag_line_with_grammar

    lines = [*corpus_tag_lines(), *fuzzed_tag_lines(max(FUZZ_LINES, 3000))]
    lines += ['[A "x\\"y"]', '[A "x\\\\"]', '[A "x\\"]', '[A "x\\\\\\"]', '[A ""]', '[A "\\\n"]', '[a-_9 "#"]']
    assert len(corpus_tag_lines()) > 500
    problems = [
        (line, want, got)
        for line in lines
        if (got := _parse_tag_line(line)) != (want := _parse_tag_line_with_grammar(line))
    ]
    assert not problems, "\n".join(f"{line!r}: grammar {want}, fast {got}" for line, want, got in problems[:20])


FLAT_ITEMS = {"saint-petersburg": ("score", "final"), "san-juan": ("final",)}


def _flat_texts(game: str, keyword: str, lines: list[str]) -> list[str]:
    """The items of a game's ``KEYWORD:`` lines (a list statement's pieces, as ``LineParser`` reads them)."""
    texts = []
    for line in lines:
        head, colon, rest = line.split("#", 1)[0].partition(":")
        if colon and head.strip().lower() == keyword:
            texts += [piece.strip(" \t\f\r\n") for piece in rest.split(",")]
    return [text for text in texts if text]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_flat_items_read_as_the_grammar_reads_them(game: str) -> None:
    """``Pieces.flat_items`` (claim entries read with the grammar's lexers and callbacks, no parse): every item of
    the corpus and of the fuzzed corpus the reader reads is the grammar's reading of it, and it reads most of the
    corpus's own (the others it leaves to the grammar, errors and all)."""
    from referee.record import FlatItemReader, NotSure

    parser = _make(game)()
    assert parser._pieces is not None
    corpus, fuzzed = list(corpus_lines(game)), fuzzed_lines(game, FUZZ_LINES)
    checked = 0
    for rule, shape in parser._pieces.flat_items.items():
        keyword = rule.removesuffix("_entry")
        reader = FlatItemReader(parser, rule, *shape)
        own = _flat_texts(game, keyword, corpus)
        texts = own + _flat_texts(game, keyword, fuzzed) + [f"{text} 3" for text in own] + [" ", "3", "Anna +"]
        read = 0
        for text in texts:
            try:
                item = reader(text)
            except (NotSure, RefereeError):
                continue
            read += 1
            assert item == parser._lark.parse(text, start=rule), text
        assert own and read > len(own) // 2, (rule, read, len(own))
        checked += 1
    assert checked == len(FLAT_ITEMS[game])


def test_a_flat_item_reader_reads_only_its_shape() -> None:
    """A reader of one token after the player leaves a run of them to the grammar; a text that is no item of the
    rule (no player first, a token of another kind, nothing after the player where one is due) is not read."""
    from referee.record import FlatItemReader, NotSure
    from referee.saint_petersburg.parser import make_parser

    parser = make_parser()
    one = FlatItemReader(parser, "score_entry", "AMOUNT", "+1R", False)
    run = FlatItemReader(parser, "score_entry", "AMOUNT", "+1R", True)
    assert one("Anna +1R") == run("Anna +1R") == parser._lark.parse("Anna +1R", start="score_entry")
    assert run("Anna +1R +2VP") == parser._lark.parse("Anna +1R +2VP", start="score_entry")
    final = FlatItemReader(parser, "final_entry", "SIGNED_INT", "3", False)
    for reader, text in ((one, "Anna +1R +2VP"), (one, "Anna"), (final, "Anna"), (final, "3"), (final, "Anna +1R")):
        with pytest.raises(NotSure):
            reader(text)
