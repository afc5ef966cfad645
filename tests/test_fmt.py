"""``referee fmt``: one canonical form, idempotent, comments and line numbers kept, never a changed verdict."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.errors import RefereeError
from referee.fmt import (
    FormatRefused,
    Formatted,
    canonical_statement,
    format_text,
    format_verified,
    split_comment,
    verify,
)
from referee.record import iter_games
from referee.registry import find_game
from referee.replay import Referee
from referee.resources import DEFAULT_POLICY

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"

MESSY = """\
# a club night
[expect "illegal result-mismatch 5"]
[Event  "Club night"]   # where
[Game "st. petersburg"]
[Result "Anna"]
[Players "Anna,Boris"]
[Ruleset "2nd"]
[Table "3"]
[Custom "kept"]

   tokens:Anna worker aristocrat ,  Boris building upgrade
round   1
  WORKER PHASE
deal: lumberjack, gold  miner, Shepherd, Lumberjack     # the opening deal
Anna:buy SHEPHERD for 5   # A 20

Boris: buy Gold Miner for 4
"""

CANONICAL = """\
# a club night
[Game "Saint Petersburg"]
[Players "Anna, Boris"]
[Event "Club night"]    # where
[Table "3"]
[Ruleset "2nd edition"]
[Result "Anna"]
[Expect "illegal result-mismatch 7"]
[Custom "kept"]

tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack      # the opening deal
Anna: buy Shepherd for 5  # A 20

Boris: buy Gold Miner for 4
"""


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_the_canonical_form() -> None:
    formatted = format_text(MESSY)
    assert formatted.text == CANONICAL
    # tags moved inside their section (lines 2-9), the Expect tag's line number with them; body lines stay put
    assert formatted.moved[2] == 8 and formatted.moved[5] == 7 and 11 not in formatted.moved


def test_fmt_is_idempotent_and_keeps_every_body_line_number() -> None:
    once = format_text(MESSY).text
    assert format_text(once).text == once and not format_text(once).changed
    before = [len(game.body) for game in iter_games(MESSY)]
    after = [len(game.body) for game in iter_games(once)]
    assert before == after
    assert [n for n, _ in next(iter(iter_games(MESSY))).body] == [n for n, _ in next(iter(iter_games(once))).body]


def test_the_formatted_game_is_judged_as_the_original() -> None:
    formatted = format_text(MESSY)
    verify(formatted, "<string>", None, DEFAULT_POLICY)
    (before,) = Referee().judge_text(MESSY)
    (after,) = Referee().judge_text(formatted.text)
    assert (before.verdict, after.verdict) == (after.verdict, before.verdict)
    assert after.expectation_met is before.expectation_met


def test_line_ends_bom_and_trailing_white_space() -> None:
    text = "\ufeff" + CANONICAL.replace("\n", "  \r\n") + "\r\n\r\n"
    assert format_text(text.encode("utf-8")).text == CANONICAL


def test_comments_keep_their_column_when_there_is_room() -> None:
    head = '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n\n'
    text = head + "tokens: Anna worker aristocrat, Boris building upgrade\nround 1\nworker phase\n"
    line = "deal: Lumberjack,Gold Miner,Shepherd,Lumberjack    # aligned\n"
    out = format_text(text + line).text.splitlines()[-1]
    assert out == "deal: Lumberjack, Gold Miner, Shepherd, Lumberjack  # aligned"
    line = "deal: lumberjack, gold miner, shepherd, lumberjack                # far\n"
    assert format_text(text + line).text.splitlines()[-1].index("#") == line.index("#")


def test_a_hash_inside_a_quoted_name_is_no_comment() -> None:
    assert split_comment('"A#1": pass  # note') == ('"A#1": pass  ', "# note", 14)
    assert split_comment('[Event "a \\\\"]  # x') == ('[Event "a \\\\"]  ', "# x", 17)


def test_a_line_that_cannot_be_read_is_refused_with_its_place(tmp_path: Path) -> None:
    with pytest.raises(FormatRefused) as refused:
        format_text(CANONICAL.replace("Boris: buy Gold Miner", "Boris: buy Gold Minor").replace("Expect", "Site"))
    assert (refused.value.line, refused.value.column) == (17, 12)
    assert "Gold Minor" in refused.value.message
    record = tmp_path / "bad.rec"
    text = CANONICAL.replace("round 1", "round one").replace("Expect", "Site")
    record.write_text(text)
    result = run("fmt", str(record))
    assert result.exit_code == 1
    assert f"{record}:12:" in result.stderr and "cannot format" in result.stderr
    assert record.read_text() == text


def test_a_broken_fixture_keeps_its_unreadable_lines() -> None:
    text = MESSY.replace("illegal result-mismatch 5", "malformed") + "Anna: fly away   \n"
    formatted = format_text(text)
    assert formatted.text.endswith("Anna: fly away   \n")
    assert "tokens: Anna worker aristocrat, Boris building upgrade" in formatted.text
    broken = '[Game "Nowhere"]\n[Expect "malformed unknown-game 1"]\n\n  whatever  \n'
    assert format_text(broken).text == broken


def test_a_file_may_ask_to_be_left_as_written() -> None:
    text = MESSY.replace("# a club night", "# a club night  # referee fmt: off")
    assert not format_text(text).changed and format_text(text).off


def test_the_safety_net_refuses_a_change_in_judgement() -> None:
    changed = CANONICAL.replace("for 5", "for 6")
    with pytest.raises(FormatRefused, match=r"price-mismatch|scores|verdict"):
        verify(Formatted(changed, CANONICAL), "<string>", None, DEFAULT_POLICY)


def test_several_wrong_tags_keep_the_order_written() -> None:
    """Tags are judged in file order: with a broken Deck tag above an unknown Board, the canonical order (Board
    first) would report the other tag, so fmt keeps the order written and still tidies each tag (it refused the file,
    asking for a bug report)."""
    text = (
        '[Game "Santorini: New York"]\n[Players  "Anna, Boris"]\n'
        '[Deck "Engineer, Iron Worker, Crane Operator, Subway Operator"]\n[Board "nope"]\n\nplace: Anna b2 d4\n'
    )
    formatted = format_verified(text, "<string>", None, DEFAULT_POLICY)
    assert formatted.text == text.replace("[Players  ", "[Players ")
    assert format_text(text).text.index("[Board") < format_text(text).text.index("[Deck")  # the canonical order


def test_fmt_rewrites_in_place_keeping_permissions(tmp_path: Path) -> None:
    record = tmp_path / "club.rec"
    record.write_text(MESSY)
    os.chmod(record, 0o640)
    result = run("fmt", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert record.read_text() == CANONICAL
    assert stat.S_IMODE(record.stat().st_mode) == 0o640
    assert f"reformatted {record}" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["club.rec"]  # no temporary file left behind
    again = run("fmt", "--check", str(record))
    assert again.exit_code == 0 and "0 would be reformatted, 1 already canonical" in again.stderr


def test_check_and_diff_write_nothing(tmp_path: Path) -> None:
    record = tmp_path / "club.rec"
    record.write_text(MESSY)
    result = run("fmt", "--check", str(record))
    assert result.exit_code == 1 and f"would reformat {record}" in result.stderr
    assert record.read_text() == MESSY
    result = run("fmt", "--diff", str(record))
    assert result.exit_code == 0
    assert f"--- a/{record}" in result.stdout and '+[Players "Anna, Boris"]' in result.stdout
    assert record.read_text() == MESSY
    assert run("fmt", "--check", "--diff", str(record)).exit_code == 1


def test_standard_input_goes_to_standard_output() -> None:
    result = run("fmt", "-", input=MESSY)
    assert result.exit_code == 0
    assert result.stdout == CANONICAL


def test_a_symbolic_link_is_never_written_through(tmp_path: Path) -> None:
    target = tmp_path / "real.rec"
    target.write_text(MESSY)
    link = tmp_path / "link.rec"
    link.symlink_to(target)
    result = run("fmt", str(link))
    assert result.exit_code == 1 and "symbolic link" in result.stderr
    assert link.is_symlink() and target.read_text() == MESSY


def test_every_known_game_writes_what_it_reads() -> None:
    """A game without a writer for a statement keeps the line as written: fmt never loses a statement."""
    text = '[Game "San Juan"]\n[Players "Anna, Boris"]\n\nwin:  Anna\n'
    assert format_text(text).text.endswith("\nwin: Anna\n")


# ---------------------------------------------------------------------------------------------------------------
# The corpus


def _corpus() -> list[Path]:
    return sorted(RECORDS.rglob("*.rec"))


def _messed_up(text: str) -> str:
    """The same records written carelessly: tags in reverse order, indented statements, CRLF, trailing spaces."""
    lines = text.split("\n")
    out = list(lines)
    index = 0
    while index < len(lines):
        if lines[index].startswith("["):
            end = index
            while end < len(lines) and lines[end].startswith("["):
                end += 1
            out[index:end] = reversed(lines[index:end])
            index = end
        else:
            code, comment, _ = split_comment(lines[index])
            if code.strip() and comment is None:  # (a trailing comment keeps its column: it would move)
                out[index] = "  " + code.replace(": ", ":  ") + " "
            index += 1
    return "\r\n".join(out)


def _comes_back_as_written(text: str) -> bool:
    """Whether fmt turns the careless copy back into the record: not when a game's Expect tag names one of its tag
    lines (the careless copy's tags moved, its Expect tag did not), nor for lines kept as written (a fixture's tags
    or lines that cannot be read)."""
    for game in iter_games(text):
        kind = find_game(game.tag("Game") or "")
        if game.envelope_error is not None or kind is None:
            return False
        for _, line in game.body:
            try:
                canonical_statement(kind, split_comment(str(line))[0], {})
            except RefereeError:
                return False
        tag = game.tag_entry("Expect")
        words = tag.value.split() if tag is not None else []
        if any(word.isdigit() and int(word) in {t.line for t in game.tags.values()} for word in words):
            return False
    return True


def test_fmt_on_the_whole_corpus_is_idempotent_and_changes_no_verdict() -> None:
    """Every record of ``records/``, written carelessly, comes back canonical and judged exactly as written."""
    for path in _corpus():
        text = path.read_text(encoding="utf-8-sig")
        if "referee fmt: off" in text:
            continue
        messy = _messed_up(text)
        formatted = format_verified(messy, str(path), path.parent, DEFAULT_POLICY)  # judged as the careless copy
        assert format_text(formatted.text, str(path)).text == formatted.text, path
        if _comes_back_as_written(text):
            assert formatted.text == text, path
