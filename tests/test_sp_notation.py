"""Saint Petersburg record notation (record-format spec §1, §2, §5): every statement form, names and aliases, syntax
errors, round trips, files with many games, file-order verdicts, unfinished records, and generated games."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from sp_helpers import ROUND1_WORKERS, final_state, illegal, judge, malformed, marked_line, parse, record, unfinished

from referee.errors import RefereeError, Verdict
from referee.record import NameRef
from referee.replay import check_file, check_text
from referee.saint_petersburg.notation import (
    Actor,
    Buy,
    Deal,
    FinalClaim,
    Observe,
    Pass,
    PhaseHeader,
    Play,
    Pub,
    RoundMark,
    ScoreClaim,
    Take,
    Tokens,
    statement_text,
)
from referee.saint_petersburg.options import FIRST_EDITION, SECOND_EDITION
from referee.saint_petersburg.play import random_game


def plain(obj):
    """A parsed statement without its columns: names as strings, dataclasses as (type name, fields)."""
    if isinstance(obj, NameRef):
        return obj.name
    if dataclasses.is_dataclass(obj):
        return (
            type(obj).__name__,
            {
                f.name: plain(getattr(obj, f.name))
                for f in dataclasses.fields(obj)
                if f.name != "column" and not f.name.endswith("_column")
            },
        )
    if isinstance(obj, (tuple, list)):
        return tuple(plain(x) for x in obj)
    return obj


# ------------------------------------------------------------------------------------------- statement forms
FORMS = [
    (
        "tokens: Anna worker, Boris building, Clara aristocrat, Dmitri upgrade",
        Tokens,
        {
            "grants": (
                ("Grant", {"player": "Anna", "phases": ("worker",)}),
                ("Grant", {"player": "Boris", "phases": ("building",)}),
                ("Grant", {"player": "Clara", "phases": ("aristocrat",)}),
                ("Grant", {"player": "Dmitri", "phases": ("upgrade",)}),
            )
        },
    ),
    (
        "tokens: Anna worker aristocrat, Boris building upgrade",
        Tokens,
        {
            "grants": (
                ("Grant", {"player": "Anna", "phases": ("worker", "aristocrat")}),
                ("Grant", {"player": "Boris", "phases": ("building", "upgrade")}),
            )
        },
    ),
    ("round 3", RoundMark, {"number": 3}),
    ("worker phase", PhaseHeader, {"phase": "worker"}),
    ("building phase", PhaseHeader, {"phase": "building"}),
    ("aristocrat phase", PhaseHeader, {"phase": "aristocrat"}),
    ("upgrade phase", PhaseHeader, {"phase": "upgrade"}),
    ("deal: Market, Pub, Customs House", Deal, {"cards": ("Market", "Pub", "Customs House")}),
    ("deal: none", Deal, {"cards": ()}),
    (
        "score: Anna +6R +1VP, Boris +6R",
        ScoreClaim,
        {
            "entries": (
                ("ScoreEntry", {"player": "Anna", "rubles": 6, "vp": 1}),
                ("ScoreEntry", {"player": "Boris", "rubles": 6, "vp": 0}),
            )
        },
    ),
    (
        "final: Anna 71, Boris 64",
        FinalClaim,
        {"entries": (("FinalEntry", {"player": "Anna", "vp": 71}), ("FinalEntry", {"player": "Boris", "vp": 64}))},
    ),
]
ACTIONS = [
    ("Anna: buy Market", Buy, {"card": "Market", "row": None, "over": None, "price": None}),
    ("Anna: buy lower Market for 4", Buy, {"card": "Market", "row": "lower", "over": None, "price": 4}),
    ("Anna: buy upper Bank over Market for 8", Buy, {"card": "Bank", "row": "upper", "over": "Market", "price": 8}),
    ("Anna: buy Bank over Market", Buy, {"card": "Bank", "row": None, "over": "Market", "price": None}),
    ("Anna: take Pub", Take, {"card": "Pub", "row": None}),
    ("Anna: take upper Pub", Take, {"card": "Pub", "row": "upper"}),
    ("Anna: play Market", Play, {"card": "Market", "over": None, "price": None}),
    ("Anna: play Bank over Market for 8", Play, {"card": "Bank", "over": "Market", "price": 8}),
    ("Anna: pass", Pass, {}),
    (
        "Anna: observe workers: Lumberjack, buy",
        Observe,
        {"deck": "workers", "card": "Lumberjack", "choice": "buy", "over": None, "price": None},
    ),
    (
        "Anna: observe upgrades: Bank, buy over Market for 8",
        Observe,
        {"deck": "upgrades", "card": "Bank", "choice": "buy", "over": "Market", "price": 8},
    ),
    (
        "Anna: observe buildings: Pub, take",
        Observe,
        {"deck": "buildings", "card": "Pub", "choice": "take", "over": None, "price": None},
    ),
    (
        "Anna: observe aristocrats: Author, discard",
        Observe,
        {"deck": "aristocrats", "card": "Author", "choice": "discard", "over": None, "price": None},
    ),
    ("Anna: pub 2 for 4", Pub, {"count": 2, "price": 4}),
    ("Anna: pub 0", Pub, {"count": 0, "price": None}),
]


@pytest.mark.parametrize("line,kind,fields", FORMS, ids=[f[0] for f in FORMS])
def test_game_statement_forms(line, kind, fields):
    statement = parse(line)
    assert plain(statement) == (kind.__name__, fields)
    assert statement_text(statement) == line


@pytest.mark.parametrize("line,kind,fields", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_actor_statement_forms(line, kind, fields):
    statement = parse(line)
    assert isinstance(statement, Actor) and statement.player.name == "Anna"
    assert plain(statement.action) == (kind.__name__, fields)
    assert statement_text(statement) == line


@pytest.mark.parametrize(
    "line,columns",
    [
        (
            "Anna: buy upper Bank over Market for 8",
            {"column": 7, "row_column": 11, "card": 17, "over": 27, "price_column": 38},
        ),
        ("Anna: take lower Pub", {"column": 7, "row_column": 12, "card": 18}),
        ("Anna: play Bank over Market for 8", {"column": 7, "card": 12, "over": 22, "price_column": 33}),
        (
            "Anna: observe upgrades: Bank, buy over Market for 8",
            {"column": 7, "deck_column": 15, "card": 25, "choice_column": 31, "over": 40, "price_column": 51},
        ),
        ("Anna: observe buildings: Pub, discard", {"column": 7, "deck_column": 15, "card": 26, "choice_column": 31}),
        ("Anna: pub 2 for 4", {"column": 7, "count_column": 11, "price_column": 17}),
        ("Anna:  pass", {"column": 8}),
        ('"Anna K.": buy lower Market for 4', {"column": 12, "row_column": 16, "card": 22, "price_column": 33}),
    ],
)
def test_every_part_of_an_action_carries_its_column(line, columns):
    """The rules point at the part they refuse (the price, the row, the count) from the statement alone."""
    action = parse(line).action
    for part, column in columns.items():
        value = getattr(action, part)
        assert (value.column if isinstance(value, NameRef) else value) == column, part


def test_score_entries_carry_the_columns_of_their_amounts():
    claim = parse("score: Anna +6R +1VP, Boris +6R")
    anna, boris = claim.entries
    assert (anna.player.column, anna.rubles_column, anna.vp_column) == (8, 13, 17)
    assert (boris.player.column, boris.rubles_column, boris.vp_column) == (23, 29, 0)


@pytest.mark.parametrize(
    "line,canonical",
    [
        ("ANNA: BUY market FOR 5", None),  # player names keep their case
        ("Anna: BUY market FOR 5", "Anna: buy Market for 5"),
        ("BUILDING PHASE", "building phase"),
        ("Deal: MARKET, customs house", "deal: Market, Customs House"),
        ("  Anna:   buy   lower   Market  ", "Anna: buy lower Market"),
        ("Anna: buys Czar and Carpenter", "Anna: buy Czar & Carpenter"),
        ("Anna: takes St. Isaac's Cathedral", "Anna: take St Isaac's Cathedral"),
        ("Anna: take St Isaac’s Cathedral", "Anna: take St Isaac's Cathedral"),
        ("deal: Pope, Czar, Potjomkin's Village", "deal: Abbot, Czarina, Potemkin Village"),
        ("Anna: passes", "Anna: pass"),
        ("Anna: pass   # thinking about it", "Anna: pass"),
        ('"Anna K.": buy Market', '"Anna K.": buy Market'),
        ('"Anna #1": pass # the # in quotes is part of the name', '"Anna #1": pass'),
        ('"Big \\"B\\"": pass', '"Big \\"B\\"": pass'),
        ("score: Anna +1VP", "score: Anna +0R +1VP"),
        ("score: Anna +1vp +6r", "score: Anna +6R +1VP"),
        ("final: Anna -3", "final: Anna -3"),
    ],
)
def test_spellings_case_aliases_and_quotes(line, canonical):
    statement = parse(line)
    if canonical is None:
        assert statement.player.name == "ANNA" and statement.action.card.name == "Market"
        return
    assert statement_text(statement) == canonical
    assert statement_text(parse(canonical)) == canonical


def test_quoted_player_names():
    assert parse('"Anna K.": pass').player.name == "Anna K."
    assert parse('"Big \\"B\\"": pass').player.name == 'Big "B"'
    assert parse('"Anna #1": pass # comment').player.name == "Anna #1"


def test_blank_lines_comments_and_indentation_in_a_record():
    body = (
        "# a record with comments\n\n"
        + "\n".join(f"    {line}   # comment {i}" for i, line in enumerate(ROUND1_WORKERS.splitlines()))
        + "\n   # indented comment\n\n"
    )
    report = unfinished(body)
    assert report.statements == 9


# --------------------------------------------------------------------------------------------- syntax errors
@pytest.mark.parametrize(
    "line,code,column",
    [
        ("Anna buy Market", "missing-colon", 6),
        ("deal Market", "missing-colon", 6),
        ("Anna: purchase Market", "unknown-action", 7),
        ("Anna: buy Market for", "missing-number", 21),
        ("Anna: buy Market for five", "missing-number", 22),
        ("round", "missing-number", 6),
        ("Anna: pub", "missing-number", 10),
        ("final: Anna", "missing-number", 12),
        ("tokens: Anna worker,", "syntax", 21),
        ("score: Anna 6", "syntax", 13),
        ("Anna: observe workers: Lumberjack, take for 3", "syntax", 41),
        ("Anna: buy Markt", "unknown-card", 11),
        # two numbers too large: the first in reading order, the pub count (it reported the price)
        ("Anna: pub 1234567890 for 2469135780", "number-too-large", 11),
        ("Anna: pub 1 for 1234567890", "number-too-large", 17),
    ],
)
def test_syntax_errors_code_and_column(line, code, column):
    with pytest.raises(RefereeError) as caught:
        parse(line)
    assert (caught.value.verdict, caught.value.code, caught.value.column) == (Verdict.MALFORMED, code, column)


def test_unknown_card_did_you_mean():
    with pytest.raises(RefereeError) as caught:
        parse("Anna: buy Custom House")
    assert "did you mean 'Customs House'" in caught.value.message
    report = malformed(ROUND1_WORKERS.replace("Anna: buy Shepherd for 5", "Anna: buy Shepard for 5 #!"), "unknown-card")
    assert "did you mean 'Shepherd'" in report.error.message and report.error.column == 11


def test_syntax_error_in_a_record_has_line_and_column():
    report = malformed(
        ROUND1_WORKERS.replace("Boris: buy Gold Miner for 4", "Boris: buy Gold Miner for 4 5 #!"), "syntax"
    )
    assert report.error.column == 29


def test_end_of_line_syntax_error_column_ignores_a_trailing_comment():
    # The missing number is reported right after the last token, not after the comment.
    with pytest.raises(RefereeError) as caught:
        parse("Boris: buy Gold Miner for   # forgot the price")
    assert (caught.value.code, caught.value.column) == ("missing-number", 26)


def test_unknown_player_is_malformed():
    malformed(ROUND1_WORKERS.replace("Boris: buy Gold Miner", "Zoe: buy Gold Miner #!"), "unknown-player")
    malformed("tokens: Anna worker aristocrat, Zoe building upgrade #!\n", "unknown-player")


def test_players_are_written_as_in_the_players_tag():
    unfinished(
        'tokens: "Anna K." worker aristocrat, Boris building upgrade\nworker phase\n'
        'deal: Lumberjack, Gold Miner, Shepherd, Lumberjack\n"Anna K.": buy Shepherd for 5\n',
        players="Anna K., Boris",
    )
    malformed("tokens: Anna worker aristocrat, Boris building upgrade #!\n", "unknown-player", players="Anna K., Boris")


def test_reserved_word_player_names_are_quoted():
    unfinished(
        'tokens: "Deal" worker aristocrat, "Round" building upgrade\nworker phase\n'
        'deal: Lumberjack, Gold Miner, Shepherd, Lumberjack\n"Deal": buy Shepherd for 5\n'
        '"Round": buy Lumberjack\n',
        players="Deal, Round",
    )


# ----------------------------------------------------------------------------------------------- round trips
def generated(n, opts, seed):
    names = ["Anna", "Boris K.", "Clara", "Dmitri"][:n]
    return random_game(names, random.Random(seed), opts)


def test_statement_text_round_trips_every_generated_statement():
    for n, opts, seed in ((2, SECOND_EDITION, 1), (3, FIRST_EDITION, 2), (4, SECOND_EDITION, 3)):
        _, statements = generated(n, opts, seed)
        for statement in statements:
            text = statement_text(statement)
            assert plain(parse(text)) == plain(statement), text
            assert statement_text(parse(text)) == text


# --------------------------------------------------------------------------------------------- files and games
GAME_A = ROUND1_WORKERS
GAME_B = "tokens: Anna worker aristocrat, Boris building upgrade\nworker phase\nBoris: pass\n"


def test_many_games_per_file():
    text = (
        record(GAME_A)
        + "\n"
        + record(GAME_B, Event="second")
        + "\n"
        + record("tokens Anna worker\n", players="Anna, Boris, Clara")
    )
    reports = check_text(text)
    assert [r.index for r in reports] == [1, 2, 3]
    assert [r.verdict for r in reports] == [Verdict.UNFINISHED, Verdict.ILLEGAL, Verdict.MALFORMED]
    lines = text.splitlines()
    assert reports[1].error.code == "sp-deal-missing"
    assert lines[reports[1].error.line - 1] == "Boris: pass"
    assert reports[2].error.code == "missing-colon"
    assert lines[reports[2].error.line - 1] == "tokens Anna worker"
    assert reports[1].tags["Event"] == "second"
    assert reports[2].players == ["Anna", "Boris", "Clara"]


def test_file_order_illegal_line_beats_later_syntax_error():
    body = ROUND1_WORKERS + "building phase\nBoris: pass #!\n" + "\n" * 15 + "Anna buy Market\n"
    report = illegal(body, "sp-deal-missing")
    text = record(body)
    assert report.error.line == 14 and text.splitlines()[-1] == "Anna buy Market"
    assert len(text.splitlines()) == 30


def test_file_order_syntax_error_beats_later_illegal_line():
    body = (
        ROUND1_WORKERS.replace("Anna: buy Lumberjack for 3", "Anna: buy Lumberjack for #!")
        + "building phase\nBoris: pass\n"
    )
    malformed(body, "missing-number")


def test_later_errors_are_not_reported():
    report = illegal(
        ROUND1_WORKERS.replace("Boris: buy Gold Miner for 4", "Anna: buy Gold Miner for 4 #!"), "sp-not-your-turn"
    )
    assert report.statements == 5


def test_crlf_line_ends():
    text = record(ROUND1_WORKERS).replace("\n", "\r\n")
    [report] = check_text(text)
    assert report.verdict == Verdict.UNFINISHED and report.statements == 9
    bad = record(ROUND1_WORKERS.replace("Boris: buy Gold Miner for 4", "Boris: buy Gold Miner for 3 #!"))
    [report] = check_text(bad.replace("\n", "\r\n"))
    assert (report.error.code, report.error.line) == ("sp-price-mismatch", marked_line(bad))


def test_bom_is_ignored(tmp_path: Path):
    path = tmp_path / "bom.rec"
    path.write_bytes(b"\xef\xbb\xbf" + record(ROUND1_WORKERS).replace("\n", "\r\n").encode("utf-8"))
    [report] = check_file(path)
    assert report.verdict == Verdict.UNFINISHED and report.game == "saint-petersburg"


def test_non_utf8_file_is_malformed(tmp_path: Path):
    path = tmp_path / "latin.rec"
    path.write_bytes(record(ROUND1_WORKERS).encode("utf-8") + b"Anna: pass # caf\xe9\n")
    [report] = check_file(path)
    assert (report.verdict, report.error.code) == (Verdict.MALFORMED, "bad-encoding")


@pytest.mark.parametrize("game", ["Saint Petersburg", "saint-petersburg", "SAINT PETERSBURG", "St. Petersburg"])
def test_game_tag_spellings(game):
    text = f'[Game "{game}"]\n[Players "Anna, Boris"]\n\n' + ROUND1_WORKERS
    assert check_text(text)[0].verdict == Verdict.UNFINISHED


@pytest.mark.parametrize(
    "ruleset,edition", [("2nd edition", 2), ("1st edition", 1), ("1st", 1), ("2004", 1), ("second edition", 2)]
)
def test_ruleset_tag(ruleset, edition):
    assert final_state(ROUND1_WORKERS, Ruleset=ruleset).options.edition == edition


def test_envelope_errors():
    assert judge(ROUND1_WORKERS, Ruleset="3rd edition").error.code == "unknown-ruleset"
    assert judge(ROUND1_WORKERS, players="Anna, Boris, Clara, Dmitri, Emil").error.code == "player-count"
    assert judge(ROUND1_WORKERS, players="Anna").error.code == "player-count"
    assert judge(ROUND1_WORKERS, players="Anna, Boris, Anna").error.code == "bad-players"
    [report] = check_text('[Game "Saint Petersburg"]\n\ntokens: Anna worker\n')
    assert (report.verdict, report.error.code) == (Verdict.MALFORMED, "missing-tag")


# ------------------------------------------------------------------------------------------ unfinished records
@pytest.mark.parametrize("cut", [1, 3, 6, 9])
def test_truncated_records_are_unfinished(cut):
    body = "\n".join(ROUND1_WORKERS.splitlines()[:cut]) + "\n"
    report = unfinished(body)
    assert report.outcome is None and report.statements == cut


def test_truncated_generated_game_is_unfinished():
    _state, statements = generated(3, SECOND_EDITION, 5)
    text = '[Game "Saint Petersburg"]\n[Players "Anna, Boris K., Clara"]\n\n' + "\n".join(
        statement_text(s) for s in statements[: len(statements) // 2]
    )
    assert check_text(text)[0].verdict == Verdict.UNFINISHED


# ------------------------------------------------------------------------------------------- generated games
@pytest.mark.parametrize("ruleset,opts", [("2nd edition", SECOND_EDITION), ("1st edition", FIRST_EDITION)])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_generated_games_replay_with_identical_scores(n, ruleset, opts):
    for seed in range(3):
        state, statements = generated(n, opts, seed)
        outcome = state.outcome()
        text = (
            f'[Game "Saint Petersburg"]\n[Ruleset "{ruleset}"]\n[Players "{", ".join(state.players)}"]\n'
            f'[Result "{", ".join(outcome.winners)}"]\n\n' + "\n".join(statement_text(s) for s in statements) + "\n"
        )
        [report] = check_text(text)
        assert report.verdict == Verdict.VALID, report.error and report.error.message
        assert report.outcome.scores == outcome.scores
        assert report.outcome.winners == outcome.winners
        assert report.outcome.breakdown == outcome.breakdown


@pytest.mark.parametrize("n,ruleset", [(2, "2nd edition"), (3, "1st edition"), (4, "2nd edition")])
def test_referee_play_cli_records_are_valid(n, ruleset):
    from referee.cli import main

    result = CliRunner().invoke(
        main, ["play", "saint-petersburg", "-n", str(n), "-s", "11", "-r", ruleset, "--games", "2"]
    )
    assert result.exit_code == 0, result.output
    reports = check_text(result.output)
    assert len(reports) == 2
    assert all(r.verdict == Verdict.VALID and len(r.players) == n for r in reports)
    assert all(r.ruleset == ruleset for r in reports)
