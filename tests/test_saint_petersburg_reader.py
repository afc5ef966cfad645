"""Saint Petersburg's hand-written action reader (``referee/saint_petersburg/reader.py``) against plain Lark, on lines
mutated with the game's own words: every keyword and alias of the grammar, card names of one to three words, numbers
of every shape, the separators of an Observatory turn. ``tests/test_parser_equivalence.py`` fuzzes every game with
generic mutations; these reach the reader's own paths (rows, ``over``, ``for``, ``pub K``, ``observe DECK: CARD,
CHOICE``) far more often.

    REFEREE_EQUIVALENCE_FUZZ=100000 .venv/bin/python -m pytest tests/test_saint_petersburg_reader.py   # a deep run
"""

from __future__ import annotations

import random
import re

from test_parser_equivalence import FUZZ_LINES, assert_same, corpus_lines

from referee.saint_petersburg.cards import SECOND_EDITION

GAME = "saint-petersburg"
WORDS = [
    *("buy", "buys", "Buy", "take", "takes", "TAKE", "play", "plays", "pass", "passes", "observe", "observes", "pub"),
    *("discard", "discards", "upper", "lower", "Upper", "over", "for", "FOR", "none", "deal", "score", "round"),
    *("worker", "workers", "building", "buildings", "aristocrat", "aristocrats", "upgrade", "upgrades", "phase"),
]
NUMBERS = ["0", "1", "5", "07", "12", "999999999", "1234567890", "00000000001", "-3", "+3", "3R", "²"]
ODD = [",", ":", ", ", " :", "  ", "\t", "&", "'", "’", ".", "-", "?"]
TOKEN = re.compile(r"[^\s,:]+|[,:]|\s+")


def _vary(line: str, rng: random.Random, cards: list[str]) -> str:
    """A change that keeps the line's form: another card, another price, a keyword's alias or case, more space."""
    choice = rng.randrange(4)
    if choice == 0:
        names = [card for card in cards if card in line]
        return line.replace(rng.choice(names), rng.choice(cards), 1) if names else line
    if choice == 1:
        return re.sub(r"\d+", lambda _: rng.choice(["0", "3", "07", "12", "999999999"]), line, count=1)
    if choice == 2:
        aliases = {"buy ": "buys ", "take ": "TAKES ", "play ": "Plays ", "pass": "passes", "observe ": "observes "}
        word = rng.choice(sorted(aliases))
        return line.replace(word, aliases[word], 1)
    return line.replace(" ", rng.choice(["  ", "\t", " \t "]), 1)


def _mutate(line: str, rng: random.Random, cards: list[str]) -> str:
    """One to three changes of a line, in the game's own vocabulary; half of the lines keep their form."""
    if rng.random() < 0.5:
        return _vary(_vary(line, rng, cards), rng, cards)
    for _ in range(rng.choice((1, 1, 2, 3))):
        tokens = TOKEN.findall(line) or [""]
        i = rng.randrange(len(tokens))
        choice = rng.randrange(8)
        if choice == 0:  # a keyword or alias where any token stood
            tokens[i] = rng.choice(WORDS)
        elif choice == 1:  # a keyword inserted
            tokens.insert(i, rng.choice(WORDS) + " ")
        elif choice == 2:  # a number
            tokens[i] = rng.choice(NUMBERS)
        elif choice == 3:  # a card name (one to three words), in any case
            tokens[i] = rng.choice([str, str.lower, str.upper])(rng.choice(cards))
        elif choice == 4:  # a separator or odd character
            tokens.insert(i, rng.choice(ODD))
        elif choice == 5 and len(tokens) > 1:  # a token dropped
            del tokens[i]
        elif choice == 6:  # a tail added: over CARD, for N, a row
            tokens.append(rng.choice([" over " + rng.choice(cards), " for " + rng.choice(NUMBERS), " upper"]))
        else:  # two tokens swapped
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        line = "".join(tokens)
    return line


def _lines(count: int, seed: int = 2030) -> list[str]:
    """Mutated actor lines (most of them) and deal/score lines of the corpus, plus the forms a mutation rarely makes."""
    rng = random.Random(seed)
    cards = sorted(SECOND_EDITION)
    actors = [line for line in corpus_lines(GAME) if re.match(r"\s*\w+:\s*(buy|take|play|pass|observe|pub)", line)]
    others = [line for line in corpus_lines(GAME) if re.match(r"\s*(deal|score|tokens):", line)]
    assert len(actors) > 1000 and others
    lines = [_mutate(rng.choice(actors if rng.random() < 0.85 else others), rng, cards) for _ in range(count)]
    for card, other in zip(cards, reversed(cards), strict=True):
        lines += [
            f"Anna: buy {card} over {other} for 3",
            f"Anna: take lower {card}",
            f"Anna: play {card} for 2",
            f"Anna: observe upgrades: {card}, buy over {other}",
        ]
    return lines


def test_mutated_lines_read_as_lark_reads_them() -> None:
    lines = _lines(FUZZ_LINES)
    read = assert_same(GAME, lines)
    assert read > len(lines) // 3  # the reader's own paths are reached, not only its fallback to Lark
