"""The game-agnostic core: files, games, tags, verdicts, expectations, error catalogue, variants."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.errors import CATALOGUE, IllegalStatement, RecordCode, RefereeError, Verdict
from referee.record import split_games
from referee.registry import find_game
from referee.replay import Expectation, check_file, check_text
from referee.saint_petersburg import SaintPetersburg

HEAD = '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n'
OPENING = """tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
Anna: buy Shepherd for 5
Boris: buy Gold Miner for 4
Anna: buy Lumberjack for 3
Boris: buy Lumberjack for 3
score: Anna +6R, Boris +6R
"""


def one(text: str):
    reports = check_text(text)
    assert len(reports) == 1
    return reports[0]


def test_spec_example_opening_is_unfinished_not_illegal() -> None:
    report = one(HEAD + OPENING)
    assert report.verdict is Verdict.UNFINISHED
    assert report.statements == 9


def test_many_games_per_file_each_judged_on_its_own() -> None:
    broken = HEAD + OPENING.replace("Boris: buy Gold Miner for 4", "Anna: buy Gold Miner for 4")
    reports = check_text(HEAD + OPENING + "\n" + broken + "\n" + HEAD + OPENING)
    assert [r.verdict for r in reports] == [Verdict.UNFINISHED, Verdict.ILLEGAL, Verdict.UNFINISHED]
    assert [r.index for r in reports] == [1, 2, 3]
    assert reports[1].error.code == "sp-not-your-turn"
    assert reports[1].error.line == 2 + 9 + 1 + 2 + 6  # second game's Boris line


def test_bom_crlf_comments_and_indentation_are_accepted() -> None:
    text = "\ufeff" + (
        HEAD + "# a comment\n" + "\n".join("   " + line + "  # note" for line in OPENING.splitlines())
    ).replace("\n", "\r\n")
    path_free = check_text(text)
    assert path_free[0].verdict is Verdict.UNFINISHED


def test_bom_file_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "bom.rec"
    path.write_bytes(b"\xef\xbb\xbf" + (HEAD + OPENING).encode())
    assert check_file(path)[0].verdict is Verdict.UNFINISHED


def test_files_joined_each_with_its_bom_are_judged_game_by_game(tmp_path: Path) -> None:
    """``cat a.rec b.rec``, each saved with a BOM (Windows Notepad): the BOM opening the second game is ignored too."""
    one_file = (HEAD + OPENING).encode()
    path = tmp_path / "joined.rec"
    path.write_bytes(b"\xef\xbb\xbf" + one_file + b"\n\xef\xbb\xbf" + one_file)
    from_file = check_file(path)
    from_text = check_text(path.read_bytes().decode("utf-8"))
    for reports in (from_file, from_text):
        assert [r.verdict for r in reports] == [Verdict.UNFINISHED, Verdict.UNFINISHED]


def test_no_break_spaces_pasted_from_a_web_page_are_spaces() -> None:
    pasted = OPENING.replace("Boris: buy Gold Miner for 4", "\xa0\xa0Boris:\xa0buy Gold\xa0Miner for 4")
    report = one(HEAD + pasted)
    assert report.verdict is Verdict.UNFINISHED and report.statements == one(HEAD + OPENING).statements


def test_a_stray_character_after_a_statement_expects_the_end_of_the_line() -> None:
    report = one(HEAD + OPENING.replace("Boris: buy Gold Miner for 4", "Boris: buy Gold Miner for 4;"))
    assert report.verdict is Verdict.MALFORMED
    assert report.error.message.endswith("found ';', expected the end of the line"), report.error.message


def test_non_utf8_file_is_malformed_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "latin1.rec"
    path.write_bytes((HEAD + "Anna: buy Caf\xe9\n").encode("latin-1"))
    report = check_file(path)[0]
    assert report.verdict is Verdict.MALFORMED and report.error.code == "bad-encoding"


def test_file_order_illegal_line_beats_later_syntax_error() -> None:
    text = HEAD + OPENING.replace("Anna: buy Lumberjack for 3", "Anna: buy Lumberjack for 2") + "Boris buy\n"
    report = one(text)
    assert report.verdict is Verdict.ILLEGAL
    assert (report.error.code, report.error.line) == ("sp-price-mismatch", 9)


def test_file_order_syntax_error_before_illegal_line() -> None:
    text = HEAD + OPENING.replace("Boris: buy Gold Miner for 4", "Boris buy Gold Miner").replace(
        "Anna: buy Lumberjack for 3", "Anna: buy Lumberjack for 2"
    )
    report = one(text)
    assert report.verdict is Verdict.MALFORMED
    assert (report.error.code, report.error.line, report.error.column) == ("missing-colon", 8, 7)
    assert "expected ':'" in report.error.message


def test_unknown_card_is_malformed_with_did_you_mean() -> None:
    report = one(HEAD + OPENING.replace("buy Shepherd", "buy Shepperd"))
    assert report.verdict is Verdict.MALFORMED
    assert report.error.code == "unknown-card"
    assert "did you mean 'Shepherd'" in report.error.message
    assert (report.error.line, report.error.column) == (7, 11)


def test_unknown_player_is_malformed() -> None:
    report = one(HEAD + OPENING.replace("Boris: buy Gold Miner", "Borys: buy Gold Miner"))
    assert report.verdict is Verdict.MALFORMED and report.error.code == "unknown-player"


def test_quoted_player_names_with_spaces() -> None:
    text = '[Game "saint-petersburg"]\n[Players "Anna K., Boris"]\n' + OPENING.replace("Anna:", '"Anna K.":').replace(
        "tokens: Anna", 'tokens: "Anna K."'
    ).replace("score: Anna", 'score: "Anna K."')
    assert one(text).verdict is Verdict.UNFINISHED


@pytest.mark.parametrize(
    "tags, code",
    [
        ('[Players "Anna, Boris"]\n', "missing-tag"),
        ('[Game "Chess"]\n[Players "Anna, Boris"]\n', "unknown-game"),
        ('[Game "Saint Petersburg"]\n[Players "Anna, Anna"]\n', "bad-players"),
        ('[Game "Saint Petersburg"]\n[Players "Anna, , Boris"]\n', "bad-players"),
        ('[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n[Ruleset "3rd edition"]\n', "unknown-ruleset"),
        ('[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n[Variant "no-such-variant"]\n', "unknown-variant"),
        ('[Game "Saint Petersburg"]\n[Players Anna]\n', "bad-tag"),
    ],
)
def test_envelope_errors_are_malformed(tags: str, code: str) -> None:
    report = one(tags + OPENING)
    assert report.verdict is Verdict.MALFORMED
    assert report.error.code == code


@pytest.mark.parametrize(
    "game, players",
    [
        ("Saint Petersburg", "Anna"),
        ("Saint Petersburg", "Anna, Boris, Clara, Dmitri, Elena"),
        ("San Juan", "Anna"),
        ("San Juan", "Anna, Boris, Clara, Dmitri, Elena"),
        ("Santorini: New York", "Anna"),
        ("Santorini: New York", "Anna, Boris, Clara, Dmitri, Elena, Fyodor"),
    ],
)
def test_a_player_count_the_game_does_not_allow_is_illegal_at_the_tag(game: str, players: str) -> None:
    """Record format section 1: readable names in a count the game does not allow break a rule: illegal, at the
    Players tag's value."""
    report = one(f'[Event "club"]\n[Game "{game}"]\n[Players "{players}"]\n' + OPENING)
    assert (report.verdict, report.error.code) == (Verdict.ILLEGAL, "player-count")
    assert isinstance(report.error, IllegalStatement)  # what the API's users catch
    assert (report.error.line, report.error.column) == (3, len("[Players ") + 1)


def test_unreadable_names_are_read_before_the_player_count() -> None:
    report = one('[Game "Saint Petersburg"]\n[Players "Anna, Boris, Clara, Dmitri, Anna"]\n' + OPENING)
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, "bad-players", 2)


def test_body_before_any_tag_is_reported() -> None:
    reports = check_text("Anna: pass\n" + HEAD + OPENING)
    assert reports[0].verdict is Verdict.MALFORMED and reports[0].error.code == "body-before-tags"
    assert reports[1].verdict is Verdict.UNFINISHED


def test_game_names_and_ids_are_case_insensitive() -> None:
    for name in ("Saint Petersburg", "saint-petersburg", "SAINT PETERSBURG", "St. Petersburg"):
        assert find_game(name) is SaintPetersburg


def test_other_tags_are_kept_not_judged() -> None:
    report = one('[Event "Club night"]\n[Date "2026.11.30"]\n' + HEAD + OPENING)
    assert report.tags["Event"] == "Club night"
    assert report.verdict is Verdict.UNFINISHED


def test_a_tag_without_meaning_may_repeat_the_first_value_is_reported() -> None:
    report = one(HEAD + '[Event "Club night"]\n[event "Round 2"]\n' + OPENING)
    assert report.verdict is Verdict.UNFINISHED
    assert report.tags["Event"] == "Club night"


@pytest.mark.parametrize("tag", ["Game", "Players", "Ruleset", "Variant", "Result", "Expect"])
def test_a_tag_with_meaning_given_twice_is_malformed_at_the_repeat(tag: str) -> None:
    value = {
        "Game": "Saint Petersburg",
        "Players": "Anna, Boris",
        "Ruleset": "2nd edition",
        "Variant": "sp-no-pub",
        "Result": "Anna",
        "Expect": "unfinished",
    }[tag]
    report = one(HEAD + f'[{tag} "{value}"]\n[{tag.upper()} "{value}"]\n' + OPENING)
    repeat = 3 if tag in ("Game", "Players") else 4  # HEAD gives these two already
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, "duplicate-tag", repeat)


def test_a_games_own_tag_given_twice_is_malformed_at_the_repeat() -> None:
    text = '[Game "Santorini: New York"]\n[Players "Anna, Boris"]\n[Board "square-5x5"]\n[board "square-5x5"]\n'
    report = one(text)
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, "duplicate-tag", 4)
    assert report.game == "santorini-new-york"


def test_tag_values_unescape() -> None:
    record = split_games('[Event "a \\"quoted\\" \\\\ value"]\n' + HEAD)[0]
    assert record.tag("event") == 'a "quoted" \\ value'


def test_expectation_tag_is_parsed_and_compared() -> None:
    assert Expectation.parse("illegal not-your-turn 14") == Expectation(Verdict.ILLEGAL, "not-your-turn", 14)
    assert Expectation.parse("valid") == Expectation(Verdict.VALID)
    broken = HEAD.replace("]\n", ']\n[Expect "illegal not-your-turn 9"]\n', 1) + OPENING.replace(
        "Boris: buy Gold Miner", "Anna: buy Gold Miner"
    )
    report = one(broken)
    assert report.verdict is Verdict.ILLEGAL and report.expectation_met and report.ok
    wrong_line = broken.replace("not-your-turn 9", "not-your-turn 10")
    assert one(wrong_line).expectation_met is False and not one(wrong_line).ok


def test_result_tag_is_checked_at_its_own_line() -> None:
    text = SaintPetersburg.play(["Anna", "Boris"], random.Random(5), SaintPetersburg.ruleset(None), {})
    report = one(text)
    assert report.verdict is Verdict.VALID
    loser = next(p for p in report.players if p not in report.outcome.winners)
    lines = text.splitlines()
    result_line = next(i for i, line in enumerate(lines, 1) if line.startswith("[Result"))
    lines[result_line - 1] = f'[Result "{loser}"]'
    bad = one("\n".join(lines))
    assert bad.verdict is Verdict.ILLEGAL
    assert (bad.error.code, bad.error.line) == ("result-mismatch", result_line)


def test_every_error_code_is_documented() -> None:
    errors_doc = (Path(__file__).parent.parent / "docs" / "errors.md").read_text(encoding="utf-8")
    missing = [code for code in CATALOGUE if f"`{code}`" not in errors_doc]
    assert not missing, f"undocumented error codes: {missing}"


def test_error_codes_are_unique_and_kebab_case() -> None:
    for code in CATALOGUE:
        assert code == code.lower() and " " not in code


def test_illegal_error_carries_rule_state_and_alternatives() -> None:
    report = one(HEAD + OPENING.replace("Boris: buy Gold Miner for 4", "Anna: buy Gold Miner for 4"))
    error = report.error
    assert error.kind.summary
    assert "Boris to act" in error.state
    assert "Boris: buy Gold Miner for 4" in error.alternatives


def test_result_tag_naming_a_non_player_is_malformed_at_the_tag() -> None:
    report = one(HEAD + '[Result "Zed"]\n' + OPENING)
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, "unknown-player", 3)


@pytest.mark.parametrize(
    "result, code",
    [("Zed", "unknown-player"), ("Anna, Anna", "claim-names-player-twice")],
)
def test_a_result_tag_that_cannot_be_read_comes_before_a_player_count_below_it(result: str, code: str) -> None:
    """Record format section 1, file order across the tags: a Result tag (line 2) naming a non-player or a player
    twice is malformed there, before the illegal count of a Players tag below it (line 3) — its names read well, so
    the Result tag is read against them. It reported the count at line 3."""
    for players in ("Anna", "Anna, Boris, Clara, Dmitri, Elena"):
        report = one(f'[Game "Saint Petersburg"]\n[Result "{result}"]\n[Players "{players}"]\n' + OPENING)
        assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, code, 2), report.error
    below = one(f'[Game "Saint Petersburg"]\n[Players "Anna"]\n[Result "{result}"]\n' + OPENING)
    assert (below.verdict, below.error.code, below.error.line) == (Verdict.ILLEGAL, "player-count", 2)


def test_a_player_named_like_a_statement_keyword_needs_no_quotes() -> None:
    text = '[Game "Saint Petersburg"]\n[Players "Deal, Final"]\n' + OPENING.replace("Anna", "Deal").replace(
        "Boris", "Final"
    )
    report = one(text)
    assert report.verdict is Verdict.UNFINISHED, report.error


def test_a_referee_bug_is_reported_for_its_game_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.saint_petersburg.state import SPState

    def broken(self, statement):
        raise KeyError("boom")

    monkeypatch.setattr(SPState, "_apply_deal", broken)
    reports = check_text(HEAD + OPENING + "\n" + HEAD + OPENING)
    assert [(r.verdict, r.error.code, r.error.line) for r in reports] == [
        (Verdict.MALFORMED, "internal-error", 6),
        (Verdict.MALFORMED, "internal-error", 18),
    ]


def test_an_unreadable_path_is_reported_not_raised(tmp_path: Path) -> None:
    report = check_file(tmp_path)  # a folder where a file was expected
    assert report[0].verdict is Verdict.MALFORMED and report[0].error.code == "unreadable-file"


@pytest.mark.parametrize("game_id", ["saint-petersburg", "san-juan"])
def test_every_rule_option_is_documented(game_id: str) -> None:
    from referee.game import option_docs

    game = find_game(game_id)
    doc = (Path(__file__).parent.parent / "docs" / f"{game_id}.md").read_text(encoding="utf-8")
    missing = [name for name, _, text in option_docs(game.options_type) if f"`{name}`" not in doc or not text]
    assert not missing, f"undocumented rule options of {game_id}: {missing}"


def test_every_cli_command_and_option_is_documented() -> None:
    import click

    from referee.cli import main

    docs = Path(__file__).parent.parent / "docs"
    doc = "\n".join(path.read_text(encoding="utf-8") for path in docs.glob("*.md"))
    ctx = click.Context(main)
    for name in main.list_commands(ctx):  # lazy commands too
        command = main.get_command(ctx, name)
        assert command is not None
        commands = [(name, command)]
        if isinstance(command, click.Group):  # sub-commands: referee variant check ...
            commands += [(f"{name} {sub}", command.get_command(ctx, sub)) for sub in command.list_commands(ctx)]
        for full, each in commands:
            assert each is not None and f"`referee {full}" in doc, full
            for param in each.params:
                if isinstance(param, click.Option):
                    assert any(f"`{opt}" in doc for opt in param.opts), f"{full} {param.opts}"


def test_tag_values_written_by_the_tool_round_trip() -> None:
    from referee.record import parse_tag, tag_line

    value = 'Club "Ruble" night \\ final'
    assert parse_tag(tag_line("Event", value), 1).value == value


# ------------------------------------------------------------------------------------------------ reading fast


def _lines_by_definition(text: str) -> list[tuple[int, str]]:
    """Lines as the spec defines them: split at LF, one CR before it dropped, no line after a final LF."""
    pieces = text.split("\n")
    lines = [piece[:-1] if piece.endswith("\r") else piece for piece in pieces]
    if lines and lines[-1] == "":
        lines.pop()
    return list(enumerate(lines, 1))


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_lines_read_a_chunk_at_a_time_are_the_lines_of_the_text(chunk: int) -> None:
    from referee.record import iter_lines

    rng = random.Random(chunk)
    alphabet = ["a", "b", " ", "\n", "\r", "\r\n", "\u2028", "\x0c", "é"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        assert list(iter_lines(text, chunk)) == _lines_by_definition(text), repr(text)


def test_a_resource_file_changed_between_games_is_read_again(tmp_path: Path) -> None:
    from referee.game import SetupContext
    from referee.resources import DEFAULT_POLICY

    board = tmp_path / "board.toml"
    board.write_text("first", encoding="utf-8")
    context = SetupContext({}, tmp_path, DEFAULT_POLICY)
    read = lambda: context.read_resource("board.toml", {}, RecordCode.UNREADABLE, "board", "Board")[0]  # noqa: E731
    assert read() == "first"
    board.write_text("second, longer", encoding="utf-8")
    assert read() == "second, longer"
    board.unlink()
    board.mkdir()  # no longer a regular file: refused, not served from memory
    with pytest.raises(RefereeError):
        read()


def test_a_file_copied_beside_a_record_never_overwrites_another(tmp_path: Path) -> None:
    """What a command's counterexample record names (a variant, a deck list) is copied into its folder: reused when
    the same bytes are there, and named by its content when another file holds the name."""
    from referee.resources import copy_beside

    source, out = tmp_path / "house.toml", tmp_path / "out"
    source.write_text("one", encoding="utf-8")
    assert copy_beside(source, out) == "house.toml" and (out / "house.toml").read_text() == "one"
    assert copy_beside(source, out) == "house.toml"
    assert copy_beside(source, tmp_path) == "house.toml" and source.read_text() == "one"  # itself
    source.write_text("two", encoding="utf-8")
    name = copy_beside(source, out)
    assert name.startswith("house-") and name.endswith(".toml") and (out / name).read_text() == "two"
    assert (out / "house.toml").read_text() == "one"  # never overwritten


def test_the_grammar_cache_lives_only_in_a_folder_of_the_users_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.cachedir import cache_dir, grammar_cache

    monkeypatch.setenv("REFEREE_CACHE_DIR", "")
    assert cache_dir() is None and grammar_cache(Path("x.lark"), ["start"]) is False
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(shared))
    assert cache_dir() is None  # others could put a pickle there
    own = tmp_path / "own" / "referee"
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(own))
    assert cache_dir() == own and own.stat().st_mode & 0o077 == 0
    a, b = grammar_cache(Path("g.lark"), ["start"]), grammar_cache(Path("g.lark"), ["start", "action"])
    assert isinstance(a, str) and isinstance(b, str) and a != b and Path(a).parent == own


def test_a_parser_loaded_from_the_grammar_cache_reads_as_a_fresh_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path))
    text = (Path(__file__).parent.parent / "records" / "saint-petersburg").rglob("*.rec")
    sample = next(iter(sorted(text))).read_text(encoding="utf-8")
    lines = [line for record in split_games(sample) for _, line in record.body][:400]
    assert len(lines) > 20
    readings = []
    for _ in range(2):  # the first build writes the tables, the second loads them
        parser = SaintPetersburg.make_parser()
        readings.append([_reading(parser, line) for line in lines])
    assert list(tmp_path.glob("lark-*.pickle")), "the tables were not stored"
    assert readings[0] == readings[1]


def _reading(parser: object, line: str) -> object:
    try:
        return parser.parse(line)  # type: ignore[attr-defined]
    except RefereeError as error:
        return (error.code, error.column, error.message)


def test_a_full_cache_drops_its_oldest_quarter() -> None:
    from referee.record import remember

    cache: dict[int, int] = {}
    for key in range(8):
        remember(cache, key, key * 10, 8)
    remember(cache, 8, 80, 8)
    assert list(cache) == [2, 3, 4, 5, 6, 7, 8] and cache[8] == 80


def test_made_once_makes_a_value_once_per_set_of_source_objects() -> None:
    from referee.record import made_once

    cache: dict = {}
    made: list[int] = []

    def make() -> list[int]:
        made.append(1)
        return [len(made)]

    first, second = object(), object()
    value = made_once(cache, id(first), (first,), make, limit=2)
    assert made_once(cache, id(first), (first,), make, limit=2) is value and len(made) == 1
    assert made_once(cache, id(second), (second,), make, limit=2) == [2]
    # a key whose entry was made from other objects is made again (an id can only repeat once its object is gone);
    # the cache was full: emptied first
    assert made_once(cache, id(first), (second,), make, limit=2) == [3]
    assert list(cache) == [id(first)]
    made_once(cache, "third", (first,), make, limit=2)
    assert list(cache) == [id(first), "third"] and len(made) == 4
