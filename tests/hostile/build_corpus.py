"""Write the hostile corpus: ``corpus/<class>/*.rec`` (and the variant files they name) and ``manifest.json``.

    .venv/bin/python tests/hostile/build_corpus.py          # rewrite corpus/ and manifest.json
    .venv/bin/python tests/hostile/build_corpus.py --check  # exit 1 when the committed corpus is out of date

Every input is built here from the real games in ``records/`` (or from a few literal lines) by plain text
operations, and every expectation is written here from the record-format spec and the hostile-input issue, never
from what the referee answers. ``tests/test_hostile.py`` judges each file against its manifest entry and against the
invariants of ``invariants.py``. Inputs that cannot be committed as files (huge ones, FIFOs, devices, symbolic-link
loops, unreadable folders) are made at test time: ``RUNTIME`` below lists the large ones, ``tests/test_hostile.py``
makes the special files.

A manifest entry::

    {"file": "variant/ruleset-number.rec", "class": "variant", "issue": 1, "what": "...",
     "games": [{"verdict": "malformed", "code": "bad-variant", "line": 3}],  # per game, in order; null: any
     "like": {"source": "records/...", "rename": {"Anna": "Score"}}}         # or null

A per-game expectation may hold ``verdict`` and ``code`` (a value or a list of allowed values), ``line``,
``column``, ``ok`` (the report's ``ok``: judged as expected), ``message_excludes`` / ``message_includes`` (regular
expressions). ``like``: the file must be judged as the source record is, with the players renamed (same verdict,
same scores and winners under the new names).
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = HERE / "corpus"
MANIFEST = HERE / "manifest.json"

SP_FULL = "records/saint-petersburg/generated/sp-1e-2p-seed01.rec"  # a complete valid game, Anna wins
SP_GOLDEN = "records/saint-petersburg/golden/golden-2p-2nd-edition.rec"  # Boris owns a Pub, Anna never does
SJ_FULL = "records/san-juan/generated/sj-2p-seed01.rec"  # a complete valid game; Boris is the first governor
SJ_SOURCES = sorted(f"records/san-juan/generated/{p.name}" for p in (ROOT / "records/san-juan/generated").glob("*.rec"))

SP_HEAD = '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n'
SP_OPENING = (
    "tokens: Anna worker aristocrat, Boris building upgrade\n"
    "round 1\n"
    "worker phase\n"
    "deal: Lumberjack, Gold Miner, Shepherd, Lumberjack\n"
    "Anna: buy Shepherd for 5\n"
    "Boris: buy Gold Miner for 4\n"
)
SP_BAD_PRICE = "Anna: buy Lumberjack for 2"  # the price is 3: illegal price-mismatch at the '2'
SP_BAD_COL = len("Anna: buy Lumberjack for ") + 1

UNREADABLE_CHARS = {  # characters that str.splitlines() takes for line ends; the spec's lines end at LF only
    "u2028": "\u2028",
    "u2029": "\u2029",
    "nel": "\x85",
    "ff": "\f",
    "vt": "\v",
    "fs": "\x1c",
    "gs": "\x1d",
    "rs": "\x1e",
    "cr": "\r",
}


@dataclass
class Case:
    file: str
    cls: str
    issue: int | None
    what: str
    data: bytes
    games: list[dict] | None = None
    like: dict | None = None
    extra: dict[str, bytes] = field(default_factory=dict)  # sibling files (variant TOML) written next to it

    def entry(self) -> dict:
        return {
            "file": self.file,
            "class": self.cls,
            "issue": self.issue,
            "what": self.what,
            "games": self.games,
            "like": self.like,
        }


def source(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def lines(text: str) -> list[str]:
    """The spec's lines: split at LF only."""
    return text.split("\n")


def line_of(text: str, needle: str, start: int = 1) -> int:
    """1-based LF line of the first line (from ``start``) that contains ``needle``."""
    for number, line in enumerate(lines(text), 1):
        if number >= start and needle in line:
            return number
    raise ValueError(needle)


def col_of(text: str, line: int, token: str) -> int:
    return lines(text)[line - 1].index(token) + 1


def err(verdict: str | list[str] | None = None, code: str | list[str] | None = None, line: int | None = None, **kw):
    out: dict = {}
    if verdict is not None:
        out["verdict"] = verdict
    if code is not None:
        out["code"] = code
    if line is not None:
        out["line"] = line
    out.update(kw)
    return out


UNFINISHED = {"verdict": "unfinished"}
VALID = {"verdict": "valid"}
NOT_INTERNAL = {"verdict": ["valid", "unfinished", "illegal", "malformed"]}


def with_tags(text: str, *tags: str, after: str = "[Players") -> str:
    """Insert tag lines right after the first tag line that starts with ``after``."""
    out = []
    done = False
    for line in lines(text):
        out.append(line)
        if not done and line.startswith(after):
            out.extend(tags)
            done = True
    assert done, after
    return "\n".join(out)


def rename(text: str, old: str, new: str, quote: bool = False) -> str:
    """Rename a player everywhere (tags raw; in the body quoted when ``quote``)."""
    head, sep, body = text.partition("\n\n")
    written = '"' + new.replace("\\", "\\\\").replace('"', '\\"') + '"' if quote else new
    head = re.sub(rf"\b{old}\b", new.replace("\\", "\\\\"), head)
    body = re.sub(rf"\b{old}\b", written.replace("\\", "\\\\"), body)
    return head + sep + body


def sp_opening(*tags: str, body: str = SP_OPENING) -> str:
    return SP_HEAD + "".join(t + "\n" for t in tags) + "\n" + body


# ---------------------------------------------------------------------------------------------------------------
# 1. Variant files not validated deeply


BAD_VARIANTS_SP = {  # name -> (TOML text, expected code list)
    "ruleset-number": ('name = "x"\ngame = "saint-petersburg"\nruleset = 5\n[options]\n', "bad-variant"),
    "ruleset-list": ('name = "x"\ngame = "saint-petersburg"\nruleset = ["2nd edition"]\n[options]\n', "bad-variant"),
    "ruleset-bool": ('name = "x"\ngame = "saint-petersburg"\nruleset = true\n[options]\n', "bad-variant"),
    "ruleset-table": ('name = "x"\ngame = "saint-petersburg"\n[ruleset]\na = 1\n[options]\n', "bad-variant"),
    "ruleset-unknown": ('name = "x"\ngame = "saint-petersburg"\nruleset = "9th edition"\n[options]\n', "bad-variant"),
    "game-number": ('name = "x"\ngame = 5\n[options]\n', "bad-variant"),
    "game-list": ('name = "x"\ngame = ["saint-petersburg"]\n[options]\n', "bad-variant"),
    "game-other": ('name = "x"\ngame = "san-juan"\n[options]\n', "bad-variant"),
    "game-unknown": ('name = "x"\ngame = "chess"\n[options]\n', "bad-variant"),
    "game-missing": ('name = "x"\n[options]\nstart_rubles = 30\n', "bad-variant"),
    "name-table": ('game = "saint-petersburg"\n[name]\na = 1\n[options]\n', "bad-variant"),
    "description-list": ('game = "saint-petersburg"\ndescription = [1, 2]\n[options]\n', "bad-variant"),
    "options-number": ('name = "x"\ngame = "saint-petersburg"\noptions = 5\n', "bad-variant"),
    "options-list": ('name = "x"\ngame = "saint-petersburg"\noptions = [1, 2]\n', "bad-variant"),
    "option-unknown": ('name = "x"\ngame = "saint-petersburg"\n[options]\nno_such_option = 1\n', "bad-variant"),
    "option-string-for-int": (
        'name = "x"\ngame = "saint-petersburg"\n[options]\nstart_rubles = "ten"\n',
        "bad-variant",
    ),
    "option-float-for-int": ('name = "x"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 10.5\n', "bad-variant"),
    "option-bool-for-int": ('name = "x"\ngame = "saint-petersburg"\n[options]\nstart_rubles = true\n', "bad-variant"),
    "option-int-for-bool": ('name = "x"\ngame = "saint-petersburg"\n[options]\npub_cap_per_pub = 1\n', "bad-variant"),
    "option-table-for-int": ('name = "x"\ngame = "saint-petersburg"\n[options.start_rubles]\na = 1\n', "bad-variant"),
    "option-date-for-int": (
        'name = "x"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 2024-01-01\n',
        "bad-variant",
    ),
    "table-strings": (
        'name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = ["a", "b", "c"]\n',
        "bad-variant",
    ),
    "table-floats": ('name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = [0.5, 1.5]\n', "bad-variant"),
    "table-nested": (
        'name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = [[0, 1], [3]]\n',
        "bad-variant",
    ),
    "table-mixed": ('name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = [0, "1", 3]\n', "bad-variant"),
    "table-bools": ('name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = [false, true]\n', "bad-variant"),
    "table-empty": ('name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = []\n', "bad-variant"),
    "table-int": ('name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = 5\n', "bad-variant"),
    "zero-rubles-per-vp": ('name = "x"\ngame = "saint-petersburg"\n[options]\nrubles_per_vp = 0\n', "bad-variant"),
    "not-utf8": (
        b'name = "x"\ngame = "saint-petersburg"\ndescription = "\xff\xfe"\n[options]\n',
        ["bad-variant", "unknown-variant"],
    ),
    "not-toml": ('name = "x"\ngame = "saint-petersburg"\n[options\n', "bad-variant"),
    "toml-deep-nesting": (
        'name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = ' + "[" * 5000 + "]" * 5000 + "\n",
        "bad-variant",
    ),
}
# Values the rules may or may not allow: the referee may reject them (bad-variant at the tag) or judge the game
# under them; never an internal error, a traceback or a hang.
ODD_VARIANTS_SP = {
    "negative-rubles-per-vp": 'name = "x"\ngame = "saint-petersburg"\n[options]\nrubles_per_vp = -10\n',
    "negative-start-rubles": 'name = "x"\ngame = "saint-petersburg"\n[options]\nstart_rubles = -25\n',
    "huge-start-rubles": 'name = "x"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 9223372036854775807\n',
    "zero-display": 'name = "x"\ngame = "saint-petersburg"\n[options]\ndisplay_size = 0\n',
    "huge-display": 'name = "x"\ngame = "saint-petersburg"\n[options]\ndisplay_size = 1000000000\n',
    "negative-hand-limit": 'name = "x"\ngame = "saint-petersburg"\n[options]\nhand_limit = -1\n',
    "negative-table": 'name = "x"\ngame = "saint-petersburg"\n[options]\nvariety_table = [-5, -10]\n',
    "zero-first-deal": 'name = "x"\ngame = "saint-petersburg"\n[options]\nfirst_deal_per_player = 0\n',
    "edition-7": 'name = "x"\ngame = "saint-petersburg"\n[options]\nedition = 7\n',
    # free Pub VP: a coherent house rule (referee prove --variant shows the broken "at least 1 ruble" property)
    "zero-pub-vp-price": 'name = "x"\ngame = "saint-petersburg"\n[options]\npub_vp_price = 0\n',
}
BAD_VARIANTS_SJ = {
    "sj-ruleset-number": ('name = "x"\ngame = "san-juan"\nruleset = 1\n[options]\n', "bad-variant"),
    "sj-start-building-unknown": (
        'name = "x"\ngame = "san-juan"\n[options]\nstart_building = "No Such Card"\n',
        "bad-variant",
    ),
    "sj-start-building-number": ('name = "x"\ngame = "san-juan"\n[options]\nstart_building = 5\n', "bad-variant"),
}
ODD_VARIANTS_SJ = {
    "sj-zero-keep": 'name = "x"\ngame = "san-juan"\n[options]\ncouncil_keep = 0\n',
    "sj-zero-end": 'name = "x"\ngame = "san-juan"\n[options]\nend_buildings = 0\n',
    "sj-huge-start-hand": 'name = "x"\ngame = "san-juan"\n[options]\nstart_hand = 1000000\n',
    "sj-negative-gold-mine": 'name = "x"\ngame = "san-juan"\n[options]\ngold_mine_cards = -4\n',
    "sj-zero-roles": 'name = "x"\ngame = "san-juan"\n[options]\ntwo_player_roles = 0\n',
}


def variant_record(full: str, variant: str) -> str:
    """A complete game naming ``variant``: a check that fails only at the end scoring is still reached."""
    return with_tags(full, f'[Variant "{variant}"]')


def variant_cases() -> list[Case]:
    cases = []
    sp_full, sj_full = source(SP_FULL), source(SJ_FULL)
    for group, full in ((BAD_VARIANTS_SP, sp_full), (BAD_VARIANTS_SJ, sj_full)):
        for name, (toml, code) in group.items():
            text = variant_record(full, f"{name}.toml")
            data = toml if isinstance(toml, bytes) else toml.encode()
            cases.append(
                Case(
                    f"variant/{name}.rec",
                    "variant",
                    1,
                    f"a malformed variant file ({name}): bad-variant at the Variant tag",
                    text.encode(),
                    [err("malformed", code, line_of(text, "[Variant"))],
                    extra={f"variant/{name}.toml": data},
                )
            )
    for group, full in ((ODD_VARIANTS_SP, sp_full), (ODD_VARIANTS_SJ, sj_full)):
        for name, toml in group.items():
            text = variant_record(full, f"{name}.toml")
            cases.append(
                Case(
                    f"variant/{name}.rec",
                    "variant",
                    1,
                    f"an odd rule value ({name}): rejected at the Variant tag or judged; never internal-error",
                    text.encode(),
                    [NOT_INTERNAL],
                    extra={f"variant/{name}.toml": toml.encode()},
                )
            )
    # one bad game never stops the run: valid, crashing variant, valid
    opening = sp_opening()
    bad = sp_opening('[Variant "ruleset-number.toml"]')
    text = opening + "\n" + bad + "\n" + opening
    cases.append(
        Case(
            "variant/three-games-middle-bad.rec",
            "variant",
            1,
            "three games, the middle one names a variant whose ruleset is a number: the other two are still judged",
            text.encode(),
            [UNFINISHED, err("malformed", "bad-variant", line_of(text, "[Variant")), UNFINISHED],
        )
    )
    # registered names, spelled oddly, still work
    for name, value in (("registered-upper", "SP-RICH-START"), ("registered-spaces", "  sp-rich-start  ")):
        text = sp_opening(f'[Variant "{value}"]')
        cases.append(
            Case(f"variant/{name}.rec", "variant", 1, f"a registered variant written {value!r}", text.encode(), None)
        )
    return cases


# ---------------------------------------------------------------------------------------------------------------
# 2. A record can make the referee read any file

TRAVERSALS = {
    "etc-passwd": "/etc/passwd",
    "etc-shadow": "/etc/shadow",
    "etc-passwd-dotted": "/etc/./passwd",
    "etc-passwd-slashes": "//etc//passwd",
    "proc-environ": "/proc/self/environ",
    "proc-cmdline": "/proc/self/cmdline",
    "proc-mem": "/proc/self/mem",
    "dev-zero": "/dev/zero",
    "dev-stdin": "/dev/stdin",
    "dev-tty": "/dev/tty",
    "dev-random": "/dev/random",
    "root": "/",
    "dotdot-passwd": "../../../../../../../../etc/passwd",
    "dotdot-outside": "../outside.toml",
    "dotdot-outside-deep": "sub/../../outside.toml",
    "dotdot-registered": "../../../../referee/variants/sp-rich-start.toml",
    "dotdot": "..",
    "dot": ".",
    "tilde": "~/.bashrc",
    "tilde-root": "~root/.profile",
    "env-var": "$HOME/.profile",
    "file-url": "file:///etc/passwd",
    "unc": "\\\\server\\share\\x.toml",
    "windows-drive": "C:\\Windows\\win.ini",
    "percent-encoded": "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "backslash-dotdot": "..\\..\\outside.toml",
    "nul-suffix": "/etc/passwd\\u0000.toml",
    "long-component": "a" * 300 + ".toml",
    "long-path": "a/" * 3000 + "x.toml",
    "missing-inside": "no-such-variant.toml",
}


def path_cases() -> list[Case]:
    cases = []
    for name, value in TRAVERSALS.items():
        escaped = value.replace("\\", "\\\\")
        if name == "nul-suffix":
            escaped = "/etc/passwd\x00.toml"
        text = sp_opening(f'[Variant "{escaped}"]')
        cases.append(
            Case(
                f"paths/variant-{name}.rec",
                "paths",
                2,
                f"Variant {value!r}: not registered, not inside the record's folder: unknown-variant, one message",
                text.encode(),
                [err("malformed", "unknown-variant", 3)],
            )
        )
    for tag in ("Board", "DeckList", "Deck"):
        for name in ("etc-passwd", "dotdot-outside", "proc-environ", "dev-zero"):
            value = TRAVERSALS[name]
            text = sp_opening(f'[{tag} "{value}"]')
            cases.append(
                Case(
                    f"paths/{tag.lower()}-{name}.rec",
                    "paths",
                    2,
                    f"{tag} {value!r} in a Saint Petersburg record: a tag kept, never read",
                    text.encode(),
                    [UNFINISHED],
                )
            )
    text = sp_opening('[Variant "inside.toml"]')
    cases.append(
        Case(
            "paths/variant-inside.rec",
            "paths",
            2,
            "a variant file inside the record's own folder is read",
            text.encode(),
            [UNFINISHED],
            extra={"paths/inside.toml": b'name = "inside"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 25\n'},
        )
    )
    return cases


OUTSIDE_TOML = b'name = "outside"\ngame = "saint-petersburg"\n[options]\nstart_rubles = 25\n'


# ---------------------------------------------------------------------------------------------------------------
# 4. Size (the committed, moderate ones; the 5 MB ones are RUNTIME below)

BIG = 20_000


def size_cases() -> list[Case]:
    cases = []
    opening = sp_opening()

    def add(name: str, what: str, text: str, games: list[dict] | None) -> None:
        cases.append(Case(f"size/{name}.rec", "size", 4, what, text.encode(), games))

    add(
        "long-game-tag",
        "a 20k-character Game tag",
        f'[Game "{"x" * BIG}"]\n[Players "Anna, Boris"]\n',
        [err("malformed", "unknown-game", 1)],
    )
    add(
        "long-ruleset-tag",
        "a 20k-character Ruleset tag",
        sp_opening(f'[Ruleset "{"x" * BIG}"]'),
        [err("malformed", "unknown-ruleset", 3)],
    )
    add(
        "long-variant-tag",
        "a 20k-character Variant tag (longer than a path may be)",
        sp_opening(f'[Variant "{"x" * BIG}"]'),
        [err("malformed", "unknown-variant", 3)],
    )
    add(
        "long-player-name",
        "a 20k-character player name, then a statement naming another player",
        f'[Game "Saint Petersburg"]\n[Players "{"A" * BIG}, Boris"]\n\nX: pass\n',
        [err("malformed", "bad-players", 2)],  # player names have at most 64 characters (docs/security.md)
    )
    add(
        "long-result-tag",
        "a Result tag naming a 20k-character non-player",
        f'[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n[Result "{"Z" * BIG}"]\n',
        [err("malformed", "unknown-player", 3)],
    )
    add(
        "long-event-tag",
        "a 20k-character Event tag (kept, never judged)",
        sp_opening(f'[Event "{"e" * BIG}"]'),
        [UNFINISHED],
    )
    add(
        "long-unknown-card",
        "a 20k-character card name (did-you-mean must not quote it whole)",
        opening + "Anna: buy " + "Lumberjack" * (BIG // 10) + " for 3\n",
        [err("malformed", "unknown-card", 10)],
    )
    add(
        "long-unknown-player",
        "a 20k-character player before the colon",
        opening + "Q" * BIG + ": pass\n",
        [err("malformed", None, 10)],
    )
    add(
        "long-junk-line",
        "a 20k-character line of punctuation",
        opening + "!@$%^&*" * (BIG // 7) + "\n",
        [err("malformed", None, 10)],
    )
    add(
        "commas-deal",
        "a deal line of 20k commas",
        SP_HEAD
        + "\ntokens: Anna worker aristocrat, Boris building upgrade\nround 1\nworker phase\ndeal: "
        + "," * BIG
        + "\n",
        [err("malformed", None, 7)],
    )
    add(
        "long-comment",
        "a 20k-character comment (fine)",
        opening + "# " + "c" * BIG + "\n" + SP_BAD_PRICE + "\n",
        [err("illegal", "price-mismatch", 11)],
    )
    return cases


# ---------------------------------------------------------------------------------------------------------------
# 5. Line numbers: lines end at LF (CRLF accepted), nothing else


def line_cases() -> list[Case]:
    cases = []
    for name, char in UNREADABLE_CHARS.items():
        # in a comment line: the illegal statement after it keeps its LF line number
        text = sp_opening() + f"# note{char}Boris: this is still the comment\n" + SP_BAD_PRICE + "\n"
        line = line_of(text, SP_BAD_PRICE)
        cases.append(
            Case(
                f"lines/comment-{name}.rec",
                "lines",
                5,
                f"U+{ord(char):04X} inside a comment line is not a line end: the error after it is at LF line {line}",
                text.encode(),
                [err("illegal", "price-mismatch", line, column=SP_BAD_COL)],
            )
        )
        # in a statement's trailing comment
        text = (
            sp_opening().replace("Boris: buy Gold Miner for 4", f"Boris: buy Gold Miner for 4 # ok{char}junk")
            + "Anna: buy Shepherd for 1\n"
        )
        line = line_of(text, "Anna: buy Shepherd for 1")
        cases.append(
            Case(
                f"lines/trailing-comment-{name}.rec",
                "lines",
                5,
                f"U+{ord(char):04X} in a trailing comment: the comment runs to the LF",
                text.encode(),
                [err("illegal", None, line)],
            )
        )
        # in a tag value: one tag, its value holds the character
        text = sp_opening(f'[Event "club{char}night"]') + SP_BAD_PRICE + "\n"
        line = line_of(text, SP_BAD_PRICE)
        cases.append(
            Case(
                f"lines/tag-value-{name}.rec",
                "lines",
                5,
                f"U+{ord(char):04X} inside a tag value: still one tag line",
                text.encode(),
                [err("illegal", "price-mismatch", line, column=SP_BAD_COL)],
            )
        )
    crlf = (sp_opening() + SP_BAD_PRICE + "\n").replace("\n", "\r\n")
    cases.append(
        Case(
            "lines/crlf.rec",
            "lines",
            5,
            "CRLF line ends throughout",
            crlf.encode(),
            [err("illegal", "price-mismatch", 10, column=SP_BAD_COL)],
        )
    )
    mixed = sp_opening() + SP_BAD_PRICE + "\n"
    mixed = "".join(line + ("\r\n" if i % 2 else "\n") for i, line in enumerate(mixed.split("\n")[:-1]))
    cases.append(
        Case(
            "lines/mixed-crlf-lf.rec",
            "lines",
            5,
            "CRLF and LF mixed",
            mixed.encode(),
            [err("illegal", "price-mismatch", 10, column=SP_BAD_COL)],
        )
    )
    no_final_newline = sp_opening() + SP_BAD_PRICE
    cases.append(
        Case(
            "lines/no-final-newline.rec",
            "lines",
            5,
            "no LF after the last line",
            no_final_newline.encode(),
            [err("illegal", "price-mismatch", 10, column=SP_BAD_COL)],
        )
    )
    old_mac = (sp_opening() + SP_BAD_PRICE + "\n").replace("\n", "\r")
    cases.append(
        Case(
            "lines/cr-only.rec",
            "lines",
            5,
            "an old-Mac file, CR only: one single line, so never a game judged line by line",
            old_mac.encode(),
            [err("malformed", None, 1)],
        )
    )
    return cases


# ---------------------------------------------------------------------------------------------------------------
# 6. Players named like keywords

SP_KEYWORD_NAMES = [
    "Score",
    "score",
    "SCORE",
    "Round",
    "Deal",
    "Final",
    "Tokens",
    "Worker",
    "Workers",
    "Building",
    "Aristocrat",
    "Upgrade",
    "Upgrades",
    "Phase",
    "Pass",
    "Buy",
    "Take",
    "Play",
    "Observe",
    "Pub",
    "For",
    "Over",
    "Upper",
    "Lower",
    "None",
    "Win",
    "Governor",
    "Hand",
    "Tile",
    "Discard",
]
SJ_KEYWORD_NAMES = [
    "Builder",
    "builder",
    "BUILDER",
    "Producer",
    "Trader",
    "Councillor",
    "Prospector",
    "Governor",
    "Tile",
    "Hand",
    "Round",
    "Final",
    "Win",
    "Score",
    "Pass",
    "Build",
    "Produce",
    "Sell",
    "Draws",
    "Keeps",
    "Tucks",
    "Discards",
    "Gold",
    "Mine",
    "Paying",
    "Goods",
    "Over",
    "None",
    "Deal",
    "Tokens",
]
# Names with invisible or control characters are refused in the Players tag (bad-players): a name shows in every
# message about its player, so it must be printable (docs/security.md).
INVISIBLE_NAMES = {
    "rtl-override": "\u202eanna",
    "zero-width-space": "An\u200bna",
    "zero-width-joiner": "An\u200dna",
    "bom-inside": "An\ufeffna",
    "ansi-escape": "\x1b[2J\x1b[31mAnna",
}
QUOTED_NAMES = {
    "combining": "Ann\u0301a",
    "space-and-dot": "Anna K.",
    "colon": "Anna: the first",
    "hash": "Anna #1",
    "quote": 'Anna "the great"',
}


def name_cases() -> list[Case]:
    cases = []
    sp_full, sj_full = source(SP_FULL), source(SJ_FULL)
    both = {"Score", "score", "SCORE", "Win", "Round", "Final", "Deal", "Tokens"}  # the rest: Anna only
    for name in SP_KEYWORD_NAMES:
        for old in ("Anna", "Boris") if name in both else ("Anna",):
            text = rename(sp_full, old, name)
            cases.append(
                Case(
                    f"names/sp-{old.lower()}-as-{name}.rec",
                    "names",
                    6,
                    f"Saint Petersburg: {old} renamed {name!r} (unquoted): judged as the original",
                    text.encode(),
                    None,
                    like={"source": SP_FULL, "rename": {old: name}},
                )
            )
    for name in SJ_KEYWORD_NAMES:
        old = "Boris"  # the first governor: 'governor: Boris'
        text = rename(sj_full, old, name)
        cases.append(
            Case(
                f"names/sj-{old.lower()}-as-{name}.rec",
                "names",
                6,
                f"San Juan: {old} (the first governor) renamed {name!r} (unquoted): judged as the original",
                text.encode(),
                None,
                like={"source": SJ_FULL, "rename": {old: name}},
            )
        )
    for label, name in {**QUOTED_NAMES, **INVISIBLE_NAMES}.items():
        for path, full in ((SP_FULL, sp_full), (SJ_FULL, sj_full)):
            game = "sp" if "saint" in path else "sj"
            if '"' in name:
                continue  # the Players tag cannot hold it unescaped; see below
            text = rename(full, "Anna", name, quote=True)
            invisible = label in INVISIBLE_NAMES
            cases.append(
                Case(
                    f"names/{game}-quoted-{label}.rec",
                    "names",
                    6,
                    f"Anna renamed {name!r}, quoted in the body: "
                    + ("refused in the Players tag (not printable)" if invisible else "judged as the original"),
                    text.encode(),
                    [err("malformed", "bad-players", line_of(text, "[Players"))] if invisible else None,
                    like=None if invisible else {"source": path, "rename": {"Anna": name}},
                )
            )
    return cases


# ---------------------------------------------------------------------------------------------------------------
# 7. Untrue or silent results


def silent_cases() -> list[Case]:
    cases = []
    golden = source(SP_GOLDEN)
    # A pub line, "pub 0" included, is written only by a Pub owner, once per building scoring (record format §2):
    # a silent "pub 0" is never taken for no line.
    first_pub = line_of(golden, "Boris: pub 2 for 4")
    inserted = {  # name: (line inserted after Boris's first pub line, the code, its column)
        "pub-0-without-pub": ("Anna: pub 0", "sp-pub-not-owned", 7),
        "pub-0-for-0-without-pub": ("Anna: pub 0 for 0", "sp-pub-not-owned", 7),
        "pub-0-after-own-pub": ("Boris: pub 0", "sp-pub-twice", 8),
    }
    for name, (insert, code, column) in inserted.items():
        out = lines(golden)
        out.insert(first_pub, insert)
        cases.append(
            Case(
                f"silent/{name}.rec",
                "silent",
                7,
                f"'{insert}' right after Boris's pub line: illegal at it, never taken for no line",
                "\n".join(out).encode(),
                [err("illegal", code, first_pub + 1, column=column)],
            )
        )
    # 'pub 0' right after the score line (before Boris's own pub line)
    out = lines(golden)
    out.insert(first_pub - 1, "Anna: pub 0")
    cases.append(
        Case(
            "silent/pub-0-before-other-pub.rec",
            "silent",
            7,
            "'Anna: pub 0' (no Pub) right after the score line, before Boris uses his Pub",
            "\n".join(out).encode(),
            [err("illegal", "sp-pub-not-owned", first_pub, column=7)],
        )
    )
    # a tag given twice: reported at the second one
    dups = {  # the tags inserted after [Players]; the last one repeats an earlier tag
        "result-twice": ('[Result "Anna"]', '[Result "Boris"]'),
        "result-twice-same": ('[Result "Anna"]', '[Result "Anna"]'),
        "result-twice-case": ('[Result "Anna"]', '[result "Boris"]'),
        "game-twice": ('[Game "San Juan"]',),
        "game-twice-same": ('[Game "Saint Petersburg"]',),
        "players-twice": ('[Players "Boris, Anna"]',),
        "ruleset-twice": ('[Ruleset "1st edition"]', '[Ruleset "2nd edition"]'),
        "variant-twice": ('[Variant "sp-rich-start"]', '[Variant "sp-no-minimum"]'),
        "expect-twice": ('[Expect "unfinished"]', '[Expect "valid"]'),
    }
    for name, tags in dups.items():
        text = sp_opening(*tags)
        line = max(n for n, row in enumerate(lines(text), 1) if tags[-1] in row)  # the repeat
        cases.append(
            Case(
                f"silent/{name}.rec",
                "silent",
                7,
                f"{' then '.join(tags)} after [Players]: a tag given twice is reported at the repeat (line {line})",
                text.encode(),
                [err("malformed", None, line, ok=False)],
            )
        )
    # a tag the referee never judges may repeat (record format §1: kept and reported, never judged); the first counts
    text = sp_opening('[Event "A"]', '[Event "B"]')
    cases.append(
        Case(
            "silent/event-twice.rec",
            "silent",
            7,
            '[Event "A"] then [Event "B"] after [Players]: a tag without meaning may repeat, never judged',
            text.encode(),
            [err("unfinished", None, None, ok=True)],
        )
    )
    # a Result tag twice on a complete game, the second one false
    full = source(SP_FULL)
    text = with_tags(full, '[Result "Boris"]', after="[Result")
    cases.append(
        Case(
            "silent/result-twice-full-game.rec",
            "silent",
            7,
            'a complete game won by Anna with [Result "Anna"] then [Result "Boris"]',
            text.encode(),
            [err("malformed", None, line_of(text, '[Result "Boris"]'), ok=False)],
        )
    )
    for name, value in {
        "expect-bogus": "bogus",
        "expect-empty": "",
        "expect-number": "42",
        "expect-typo": "vaild",
        "expect-code-only": "price-mismatch",
    }.items():
        text = sp_opening(f'[Expect "{value}"]')
        cases.append(
            Case(
                f"silent/{name}.rec",
                "silent",
                7,
                f'[Expect "{value}"] states no verdict: reported, never "as expected"',
                text.encode(),
                [{"ok": False}],
            )
        )
    return cases


# ---------------------------------------------------------------------------------------------------------------
# 10. Messages


def message_cases() -> list[Case]:
    cases = []
    # sj-keep-count for an Archive owner: find a councillor turn of an Archive owner who keeps everything
    pattern = re.compile(r"^(\w+): draws ([^;]+); keeps (.+)$")
    found = None
    for path in SJ_SOURCES:
        text = source(path)
        rows = lines(text)
        for i, row in enumerate(rows[:-1]):
            match = pattern.match(row)
            if not match:
                continue
            player, drawn, kept = match.groups()
            drawn_cards = [c.strip() for c in drawn.split(",")]
            if (
                len(drawn_cards) >= 5
                and [c.strip() for c in kept.split(",")] == drawn_cards
                and rows[i + 1].startswith(f"{player}: discards")
            ):
                found = (path, rows, i, player, drawn_cards)
                break
        if found:
            break
    assert found, "no Archive councillor turn in the generated San Juan games"
    path, rows, i, player, drawn_cards = found
    keep = drawn_cards[:3]
    rows = [*rows[:i], f"{player}: draws {', '.join(drawn_cards)}; keeps {', '.join(keep)}"]
    text = "\n".join(rows) + "\n"
    cases.append(
        Case(
            "messages/sj-keep-count-archive.rec",
            "messages",
            10,
            f"an Archive owner ({player}) keeps 3 of {len(drawn_cards)} drawn cards (from {path}): the message must "
            "not say he keeps 1 and, in the same breath, that an Archive owner keeps all",
            text.encode(),
            [
                err(
                    "illegal",
                    "sj-keep-count",
                    len(rows),
                    message_excludes=[r"keeps \d+ of the \d+ drawn card\(s\) \(an Archive owner keeps all"],
                )
            ],
        )
    )
    # sj-no-good: the column is the good's, not the space before it
    sj = source(SJ_FULL)
    sell = line_of(sj, "Anna: sell indigo; draws Smithy")
    rows = [*lines(sj)[: sell - 1], "Anna: sell silver; draws Smithy"]
    text = "\n".join(rows) + "\n"
    cases.append(
        Case(
            "messages/sj-no-good-column.rec",
            "messages",
            10,
            "Anna sells silver she does not have: sj-no-good at the word 'silver'",
            text.encode(),
            [err("illegal", "sj-no-good", sell, column=col_of(text, sell, "silver"))],
        )
    )
    rows = [*lines(sj)[: sell - 1], "Anna: sell   silver ;   draws Smithy"]
    text = "\n".join(rows) + "\n"
    cases.append(
        Case(
            "messages/sj-no-good-column-spaces.rec",
            "messages",
            10,
            "the same with extra spaces: the column is still the good's",
            text.encode(),
            [err("illegal", "sj-no-good", sell, column=col_of(text, sell, "silver"))],
        )
    )
    return cases


# ---------------------------------------------------------------------------------------------------------------
# Attacker classes: text, numbers, repetition, structure


def text_cases() -> list[Case]:
    cases = []
    opening = sp_opening()

    def add(name: str, what: str, data: bytes, games: list[dict] | None) -> None:
        cases.append(Case(f"text/{name}.rec", "text", None, what, data, games))

    add(
        "nul-in-statement",
        "a NUL inside a statement",
        (opening + "Anna: pa\x00ss\n").encode(),
        [err("malformed", None, 10)],
    )
    add("nul-in-tag-value", "a NUL inside a tag value", sp_opening('[Event "a\x00b"]').encode(), [UNFINISHED])
    add(
        "nul-in-player",
        "a NUL inside a player name",
        sp_opening().replace("Anna, Boris", "An\x00na, Boris").encode(),
        [err("malformed", None)],
    )
    add("nul-only", "1000 NUL bytes", b"\x00" * 1000, [err("malformed", None, 1)])
    add("nul-lines", "NUL bytes on every line", (opening.replace("\n", "\x00\n")).encode(), None)
    add(
        "invalid-utf8-comment",
        "a 0xFF byte in a comment on line 5",
        opening.encode().replace(b"round 1", b"round 1 # \xff"),
        [err("malformed", "bad-encoding")],
    )
    add("invalid-utf8-first", "0xFF as the first byte", b"\xff" + opening.encode(), [err("malformed", "bad-encoding")])
    add(
        "invalid-utf8-truncated",
        "a two-byte sequence cut at the end",
        opening.encode() + b"# \xc3",
        [err("malformed", "bad-encoding")],
    )
    add(
        "overlong-utf8",
        "an overlong encoding of '/'",
        opening.encode() + b"# \xc0\xaf\n",
        [err("malformed", "bad-encoding")],
    )
    add(
        "surrogate-utf8",
        "an encoded surrogate",
        opening.encode() + b"# \xed\xa0\x80\n",
        [err("malformed", "bad-encoding")],
    )
    add(
        "lone-continuation",
        "a lone continuation byte",
        opening.encode() + b"\x80\n",
        [err("malformed", "bad-encoding")],
    )
    add(
        "latin1-name",
        "a Latin-1 file (Müller)",
        sp_opening().replace("Anna", "Müller").encode("latin-1"),
        [err("malformed", "bad-encoding")],
    )
    add("utf16-bom", "a UTF-16 file with its BOM", sp_opening().encode("utf-16"), [err("malformed", "bad-encoding")])
    add("utf16-no-bom", "UTF-16-LE without a BOM (ASCII and NULs)", sp_opening().encode("utf-16-le"), None)
    add(
        "bom",
        "a UTF-8 BOM first (ignored)",
        ("\ufeff" + opening + SP_BAD_PRICE + "\n").encode(),
        [err("illegal", "price-mismatch", 10, column=SP_BAD_COL)],
    )
    add("double-bom", "two BOMs first", ("\ufeff\ufeff" + opening).encode(), None)
    add(
        "bom-before-second-game",
        "a BOM in front of the second game's first tag",
        (opening + "\ufeff" + opening).encode(),
        None,
    )
    add(
        "bom-before-statement",
        "a BOM in front of a statement: ignored, as at the start of any line (files joined with cat); the line is read",
        (opening + "\ufeffAnna: pass\n").encode(),
        [err("illegal", "sp-must-buy", 10)],
    )
    add("bom-in-tag-value", "a BOM inside a tag value", sp_opening('[Event "a\ufeffb"]').encode(), [UNFINISHED])
    add(
        "unclosed-tag-quote",
        '[Event "abc] : a tag without its closing quote',
        sp_opening('[Event "abc]').encode(),
        [err("malformed", "bad-tag", 3)],
    )
    add(
        "unclosed-players-quote",
        '[Players "Anna, Boris] : no closing quote',
        sp_opening().replace('[Players "Anna, Boris"]', '[Players "Anna, Boris]').encode(),
        [err("malformed", "bad-tag", 2)],
    )
    add(
        "escaped-closing-quote",
        '[Event "abc\\"] : the closing quote is escaped',
        sp_opening('[Event "abc\\"]').encode(),
        [err("malformed", "bad-tag", 3)],
    )
    add(
        "unquoted-tag",
        "[Game Saint Petersburg]",
        b'[Game Saint Petersburg]\n[Players "Anna, Boris"]\n',
        [err("malformed", "bad-tag", 1)],
    )
    add(
        "two-values",
        '[Event "a" "b"]',
        sp_opening('[Event "a" "b"]').encode(),
        [err("malformed", "bad-tag", 3)],
    )
    add("tag-no-bracket", '[Event "a"', sp_opening('[Event "a"').encode(), [err("malformed", "bad-tag", 3)])
    add("bracket-only", "a line '['", sp_opening("[").encode(), [err("malformed", "bad-tag", 3)])
    add(
        "backslashes",
        "a tag of 5000 backslash pairs",
        sp_opening('[Event "' + "\\\\" * 5000 + '"]').encode(),
        [UNFINISHED],
    )
    add(
        "unbalanced-quote-statement",
        "an actor line with an opening quote only",
        (opening + '"Anna: pass\n').encode(),
        [err("malformed", None, 10)],
    )
    add(
        "unbalanced-quote-card",
        "a card name with an opening quote only",
        (opening + 'Anna: buy "Shepherd for 5\n').encode(),
        [err("malformed", None, 10)],
    )
    add(
        "zero-width-tag-name",
        "a zero-width space inside the tag name 'Game'",
        b'[Ga\xe2\x80\x8bme "Saint Petersburg"]\n[Players "Anna, Boris"]\n',
        [err("malformed", None, 1)],
    )
    add(
        "zero-width-game",
        "a zero-width space inside the game's name",
        sp_opening().replace("Saint Petersburg", "Saint\u200b Petersburg").encode(),
        [err("malformed", "unknown-game", 1)],
    )
    add(
        "ansi-in-game",
        "terminal escapes in the Game tag",
        sp_opening().replace("Saint Petersburg", "\x1b[2J\x1b]0;pwned\x07").encode(),
        [err("malformed", "unknown-game", 1)],
    )
    add(
        "rtl-in-card",
        "an RTL override inside a card name",
        (opening + "Anna: buy Lumber\u202ejack for 3\n").encode(),
        [err("malformed", None, 10)],
    )
    add(
        "control-chars",
        "every C0 control character but LF and CR in a statement",
        (opening + "Anna: " + "".join(chr(c) for c in range(32) if c not in (10, 13)) + "pass\n").encode(),
        [err("malformed", None, 10)],
    )
    add(
        "private-use",
        "private-use and unassigned characters in a statement",
        (opening + "Anna: buy \ue000\U0010fffd\u0378 for 3\n").encode(),
        [err("malformed", None, 10)],
    )
    add("nbsp", "no-break spaces for spaces", (opening + "Anna:\u00a0buy\u00a0Shepherd\n").encode(), None)
    return cases


def number_cases() -> list[Case]:
    cases = []
    opening = sp_opening()

    def add(name: str, what: str, text: str, games: list[dict] | None) -> None:
        cases.append(Case(f"numbers/{name}.rec", "numbers", None, what, text.encode(), games))

    buy = "Anna: buy Lumberjack for "
    at10 = [err(["illegal", "malformed"], None, 10)]
    add("price-10k-digits", "a price of 10,000 nines", opening + buy + "9" * 10_000 + "\n", at10)
    add("price-4301-digits", "a price one digit past Python's int limit", opening + buy + "9" * 4301 + "\n", at10)
    add("price-4300-digits", "a price at Python's int limit", opening + buy + "9" * 4300 + "\n", at10)
    add("price-leading-zeros", "a price of 10,000 zeros then 3", opening + buy + "0" * 10_000 + "3\n", None)
    add("price-superscript", "a price written '²'", opening + buy + "²\n", at10)
    add("price-arabic-indic", "a price written in Arabic-Indic digits", opening + buy + "٣\n", None)
    add("price-fullwidth", "a price written in full-width digits", opening + buy + "３\n", None)
    add("price-negative", "a negative price", opening + buy + "-3\n", at10)
    add("price-hex", "a price 0x3", opening + buy + "0x3\n", at10)
    add("price-exponent", "a price 3e0", opening + buy + "3e0\n", at10)
    add("price-float", "a price 3.0", opening + buy + "3.0\n", at10)
    head = SP_HEAD + "\ntokens: Anna worker aristocrat, Boris building upgrade\n"
    add(
        "round-20-digits",
        "round 99999999999999999999",
        head + "round 99999999999999999999\n",
        [err(["illegal", "malformed"], None, 5)],  # malformed: numbers have at most 9 digits
    )
    add(
        "round-10k-digits",
        "round of 10,000 nines",
        head + "round " + "9" * 10_000 + "\n",
        [err(["illegal", "malformed"], None, 5)],
    )
    add("round-zero", "round 0", head + "round 0\n", [err(["illegal", "malformed"], None, 5)])
    add("round-negative", "round -1", head + "round -1\n", [err("malformed", None, 5)])
    golden = source(SP_GOLDEN)
    pub = line_of(golden, "Boris: pub 2 for 4")
    for name, line in {
        "pub-10k-digits": "Boris: pub " + "9" * 10_000,
        "pub-price-10k-digits": "Boris: pub 2 for " + "9" * 10_000,
    }.items():
        rows = lines(golden)
        rows[pub - 1] = line
        add(name, f"'{line[:20]}…' in place of a pub line", "\n".join(rows), [err(["illegal", "malformed"], None, pub)])
    score = line_of(golden, "score: Anna +6R, Boris +6R")
    rows = lines(golden)
    rows[score - 1] = "score: Anna +" + "9" * 10_000 + "R, Boris +6R"
    add(
        "score-10k-digits",
        "a score claim of 10,000 nines",
        "\n".join(rows),
        [err(["illegal", "malformed"], None, score)],
    )
    full = source(SP_FULL)
    final = line_of(full, "final:")
    rows = lines(full)
    rows[final - 1] = "final: Anna " + "9" * 10_000 + ", Boris 83"
    add(
        "final-10k-digits",
        "a final claim of 10,000 nines",
        "\n".join(rows),
        [err(["illegal", "malformed"], None, final)],
    )
    sj = source(SJ_FULL)
    tile = line_of(sj, "tile:")
    rows = lines(sj)
    rows[tile - 1] = "tile: 1-1-2-2-" + "9" * 10_000
    add(
        "sj-tile-10k-digits",
        "a trading-house tile with a 10,000-digit price",
        "\n".join(rows),
        [err(["illegal", "malformed"], None, tile)],
    )
    rows = lines(sj)
    rows[tile - 1] = "tile: " + "-".join(["1"] * 10_000)
    add(
        "sj-tile-10k-prices",
        "a trading-house tile of 10,000 prices",
        "\n".join(rows),
        [err(["illegal", "malformed"], None, tile)],
    )
    add(
        "expect-10k-digits",
        "an Expect tag whose line is 5,000 digits",
        sp_opening(f'[Expect "illegal price-mismatch {"9" * 5000}"]'),
        [{"ok": False}],
    )
    add(
        "expect-superscript",
        "an Expect tag whose line is '²'",
        sp_opening('[Expect "illegal price-mismatch ²"]'),
        [{"ok": False}],
    )
    return cases


def repeat_cases() -> list[Case]:
    cases = []
    opening = sp_opening()

    def add(name: str, what: str, text: str, games: list[dict] | None) -> None:
        cases.append(Case(f"repeat/{name}.rec", "repeat", None, what, text.encode(), games))

    at10 = [err(["illegal", "malformed"], None, 10)]
    add("pass-x1000", "'Anna: pass pass pass …'", opening + "Anna: " + "pass " * 1000 + "\n", at10)
    add(
        "over-x1000",
        "'buy Lumberjack over Lumberjack over …'",
        opening + "Anna: buy Lumberjack" + " over Lumberjack" * 1000 + "\n",
        at10,
    )
    add("player-colon-x100", "'Anna: Anna: Anna: … pass'", opening + "Anna: " * 100 + "pass\n", at10)
    add("deal-deal", "'deal: deal: deal: Lumberjack'", opening + "deal: deal: deal: Lumberjack\n", at10)
    add("round-round", "'round round round 1'", opening + "round round round 1\n", at10)
    add("phase-phase", "'worker phase phase phase'", opening + "worker phase phase phase\n", at10)
    add("for-for", "'buy Lumberjack for for for 3'", opening + "Anna: buy Lumberjack for for for 3\n", at10)
    add("upper-upper", "'buy upper upper Lumberjack'", opening + "Anna: buy upper upper lower Lumberjack\n", at10)
    add("claim-twice", "a score claim naming Anna twice", opening + "score: Anna +6R, Anna +6R\n", at10)
    add(
        "tokens-x10",
        "the tokens line ten times",
        SP_HEAD + "\n" + "tokens: Anna worker aristocrat, Boris building upgrade\n" * 10,
        [err("illegal", None, 5)],
    )
    add("colons", "a line of 10,000 colons", opening + ":" * 10_000 + "\n", at10)
    add(
        "hashes",
        "a line of 10,000 '#' (a comment)",
        opening + "#" * 10_000 + "\n" + SP_BAD_PRICE + "\n",
        [err("illegal", "price-mismatch", 11)],
    )
    sj = source(SJ_FULL)
    rows = lines(sj)
    build = line_of(sj, "Anna: build Tower paying")
    rows = [*rows[: build - 1], "Anna: build Tower paying " + ", ".join(["Well"] * 1000)]
    add(
        "sj-paying-x1000",
        "a build paying with 1000 Wells",
        "\n".join(rows) + "\n",
        [err(["illegal", "malformed"], None, build)],
    )
    rows = lines(sj)
    sell = line_of(sj, "Anna: sell indigo; draws Smithy")
    rows = [*rows[: sell - 1], "Anna: sell " + ", ".join(["indigo"] * 1000) + "; draws Smithy"]
    add("sj-sell-x1000", "selling 1000 indigo", "\n".join(rows) + "\n", [err("illegal", None, sell)])
    rows = lines(sj)
    hand = line_of(sj, "hand Anna:")
    rows = [*rows[: hand - 1], "hand Anna: " + ", ".join(["Smithy"] * 1000)]
    add("sj-hand-x1000", "a hand of 1000 Smithies", "\n".join(rows) + "\n", [err(["illegal", "malformed"], None, hand)])
    return cases


def structure_cases() -> list[Case]:
    cases = []
    opening = sp_opening()

    def add(name: str, what: str, data: bytes, games: list[dict] | None) -> None:
        cases.append(Case(f"structure/{name}.rec", "structure", None, what, data, games))

    add("empty", "an empty file", b"", [err("malformed", None, 1)])
    add("blank-lines", "only blank lines", b"\n\n\n   \n\t\n", [err("malformed", None, 1)])
    add("comments-only", "only comments", b"# a\n# b\n", [err("malformed", None, 1)])
    add("bom-only", "only a BOM", b"\xef\xbb\xbf", [err("malformed", None, 1)])
    add("tags-only", "a tag section, no body", SP_HEAD.encode(), [UNFINISHED])
    add("body-only", "statements, no tags", SP_OPENING.encode(), [err("malformed", "body-before-tags", 1)])
    add("no-game-tag", "no Game tag", b'[Players "Anna, Boris"]\n\nAnna: pass\n', [err("malformed", "missing-tag", 1)])
    add(
        "no-players-tag",
        "no Players tag",
        b'[Game "Saint Petersburg"]\n\nAnna: pass\n',
        [err("malformed", "missing-tag", 1)],
    )
    # names that cannot be read are malformed; readable names in a count the game does not allow are illegal
    # (record format section 1); both at the tag's value (column 10)
    bad_names = ("malformed", "bad-players")
    bad_count = ("illegal", "player-count")
    for name, (value, (verdict, code)) in {
        "players-empty": ("", bad_names),
        "players-comma": (",", bad_names),
        "players-double-comma": ("Anna,,Boris", bad_names),
        "players-same": ("Anna, Anna", bad_names),
        "players-same-spaces": ("Anna, Anna ", bad_names),
        "players-one": ("Anna", bad_count),
        "players-six": ("A, B, C, D, E, F", bad_count),
        "players-1000": (", ".join(f"P{i}" for i in range(1000)), bad_count),
        "players-six-one-twice": ("A, B, C, D, E, A", bad_names),  # a name twice is read first, whatever the count
    }.items():
        text = opening.replace("Anna, Boris", value, 1)
        add(name, f'[Players "{value[:30]}"]', text.encode(), [err(verdict, code, 2, column=10)])
    add(
        "game-empty",
        '[Game ""]',
        opening.replace("Saint Petersburg", "", 1).encode(),
        [err("malformed", "unknown-game", 1)],
    )
    add(
        "game-upper",
        '[Game "SAINT PETERSBURG"]',
        opening.replace("Saint Petersburg", "SAINT PETERSBURG").encode(),
        [UNFINISHED],
    )
    add(
        "tag-mid-body",
        "a tag line in the middle of the body starts a new game (without Game and Players)",
        (opening + '[Event "x"]\nAnna: pass\n').encode(),
        [UNFINISHED, err("malformed", "missing-tag", 10)],
    )
    add("result-star", '[Result "*"]', sp_opening('[Result "*"]').encode(), [UNFINISHED])
    add("result-semicolon", '[Result "Anna;Boris"]', sp_opening('[Result "Anna;Boris"]').encode(), [UNFINISHED])
    text = (
        opening
        + "\n"
        + sp_opening('[Event "x]')
        + "\n"
        + opening.replace("Saint Petersburg", "Chess")
        + "\n"
        + opening
        + SP_BAD_PRICE
        + "\n\n"
        + opening
    )
    add(
        "many-games-mixed",
        "five games: valid opening, malformed tag, unknown game, illegal, valid opening",
        text.encode(),
        [
            UNFINISHED,
            err("malformed", "bad-tag", line_of(text, '[Event "x]')),
            err("malformed", "unknown-game", line_of(text, "Chess")),
            err("illegal", "price-mismatch", line_of(text, SP_BAD_PRICE), column=SP_BAD_COL),
            UNFINISHED,
        ],
    )
    return cases


BUILDERS: list[Callable[[], list[Case]]] = [
    variant_cases,
    path_cases,
    size_cases,
    line_cases,
    name_cases,
    silent_cases,
    message_cases,
    text_cases,
    number_cases,
    repeat_cases,
    structure_cases,
]


def all_cases() -> list[Case]:
    cases = [case for build in BUILDERS for case in build()]
    names = [case.file for case in cases]
    assert len(names) == len(set(names)), "two cases share a file name"
    return cases


# ---------------------------------------------------------------------------------------------------------------
# Inputs made at test time: too large to commit (the test writes them into tmp_path)


@dataclass
class Runtime:
    name: str
    cls: str
    issue: int | None
    what: str
    make: Callable[[], bytes]
    games: list[dict] | None
    memory: bool = False  # also measured in a subprocess: peak RSS bounded by the input size


MB5 = 5_000_000


def _many_games(count: int) -> bytes:
    game = SP_HEAD + "\ntokens: Anna worker aristocrat, Boris building upgrade\n"
    return ("\n".join([game] * count)).encode()


RUNTIME: list[Runtime] = [
    Runtime(
        "tag-5mb",
        "size",
        4,
        "one 5 MB tag value (was ~700 MB of memory)",
        lambda: sp_opening(f'[Event "{"x" * MB5}"]').encode(),
        [UNFINISHED],
        memory=True,
    ),
    Runtime(
        "token-5mb",
        "size",
        4,
        "one 5 MB card name: the message quotes a short excerpt",
        lambda: (sp_opening() + "Anna: buy " + "Q" * MB5 + " for 3\n").encode(),
        [err("malformed", "unknown-card", 10)],
        memory=True,
    ),
    Runtime(
        "player-5mb",
        "size",
        4,
        "a 5 MB player name, then a statement by someone else",
        lambda: f'[Game "Saint Petersburg"]\n[Players "{"A" * MB5}, Boris"]\n\nX: pass\n'.encode(),
        [err("malformed", "bad-players", 2)],
        memory=True,
    ),
    Runtime(
        "commas-1m",
        "size",
        4,
        "a deal line of a million commas",
        lambda: (
            SP_HEAD
            + "\ntokens: Anna worker aristocrat, Boris building upgrade\nround 1\nworker phase\ndeal: "
            + "," * 1_000_000
            + "\n"
        ).encode(),
        [err("malformed", None, 7)],
        memory=True,
    ),
    Runtime(
        "games-10k",
        "structure",
        None,
        "10,000 games in one file",
        lambda: _many_games(10_000),
        [UNFINISHED] * 10_000,
        memory=True,
    ),
    Runtime(
        "tags-10k",
        "structure",
        None,
        "10,000 distinct tags",
        lambda: sp_opening(*(f'[T{i} "v{i}"]' for i in range(10_000))).encode(),
        [UNFINISHED],
    ),
    Runtime(
        "same-tag-10k",
        "silent",
        7,
        "the Result tag 10,000 times: reported at the second",
        lambda: sp_opening(*('[Result "Anna"]' for _ in range(10_000))).encode(),
        [err("malformed", None, 4, ok=False)],
    ),
    Runtime(
        "event-tag-10k",
        "silent",
        7,
        "the Event tag 10,000 times: a tag without meaning may repeat",
        lambda: sp_opening(*(f'[Event "v{i}"]' for i in range(10_000))).encode(),
        [UNFINISHED],
    ),
    Runtime(
        "tag-100k",
        "size",
        4,
        "tags with 100k characters (Game, Ruleset, Event)",
        lambda: f'[Game "{"g" * 100_000}"]\n[Players "Anna, Boris"]\n[Event "{"e" * 100_000}"]\n'.encode(),
        [err("malformed", "unknown-game", 1)],
    ),
    Runtime(
        "line-1mb-pass",
        "repeat",
        None,
        "a 1 MB line 'Anna: pass pass …'",
        lambda: (sp_opening() + "Anna: " + "pass " * 200_000 + "\n").encode(),
        [err("malformed", None, 10)],
    ),
    Runtime(
        "pass-lines-100k",
        "repeat",
        None,
        "100,000 lines 'Anna: pass'",
        lambda: (sp_opening() + "Anna: pass\n" * 100_000).encode(),
        [err("illegal")],
    ),
    Runtime(
        "distinct-bad-lines-500",
        "repeat",
        None,
        "500 games, each ending in its own unreadable line (each described by example, never cached)",
        lambda: "\n".join(sp_opening() + f"Anna: buy {i} zz{i} :::\n" for i in range(500)).encode(),
        [err("malformed", None)] * 500,
    ),
    Runtime(
        "score-claim-10k",
        "repeat",
        None,
        "a score claim of 10,000 entries",
        lambda: (sp_opening() + "score: " + ", ".join(["Anna +1R"] * 10_000) + "\n").encode(),
        [err(["illegal", "malformed"], None, 10)],
    ),
    Runtime(
        "nul-1mb",
        "text",
        None,
        "a megabyte of NUL bytes after a valid opening",
        lambda: sp_opening().encode() + b"\x00" * 1_000_000,
        [err("malformed", None, 10)],
    ),
]


def write(target: Path = CORPUS, manifest: Path = MANIFEST) -> list[Case]:
    cases = all_cases()
    if target.exists():
        shutil.rmtree(target)
    for case in cases:
        path = target / case.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(case.data)
        for name, data in case.extra.items():
            (target / name).write_bytes(data)
    (target / "outside.toml").write_bytes(OUTSIDE_TOML)
    manifest.write_text(json.dumps([case.entry() for case in cases], indent=1, ensure_ascii=True) + "\n")
    return cases


def main(argv: list[str]) -> int:
    if "--check" in argv:
        import filecmp
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            write(Path(tmp) / "corpus", Path(tmp) / "manifest.json")
            same = filecmp.cmp(Path(tmp) / "manifest.json", MANIFEST, shallow=False)
            compare = filecmp.dircmp(Path(tmp) / "corpus", CORPUS)
            stale = _differs(compare)
        if not same or stale:
            print("the committed corpus is out of date: run tests/hostile/build_corpus.py", stale)
            return 1
        return 0
    cases = write()
    print(f"wrote {len(cases)} inputs to {CORPUS.relative_to(ROOT)} and {MANIFEST.relative_to(ROOT)}")
    return 0


def _differs(compare) -> list[str]:
    out = list(compare.left_only) + list(compare.right_only) + list(compare.diff_files)
    for sub in compare.subdirs.values():
        out += _differs(sub)
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
