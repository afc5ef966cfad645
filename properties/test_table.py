"""The live table judges a game exactly as ``referee check`` judges the record: fed one line at a time, a generated
game of every game and rule configuration — and its mutants — gives the verdict, line, code, column, message and
legal alternatives that ``check`` gives on the whole record, and a refused line changes nothing."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties.profiles import PROPS
from referee.errors import RefereeError
from referee.record import iter_games, write_record
from referee.registry import GAMES
from referee.replay import check_text
from referee.table import NOT_TABLE_TAGS, Table, TableError
from referee.testkit import NAMES, configs_of

GAME_IDS = sorted(GAMES)
TOKEN = re.compile(r"[^\s,;:]+|[,;:]|\s+")


def _statement_lines(text: str) -> tuple[dict[str, str], list[str]]:
    (record,) = iter_games(text)
    lines = [line for _, line in record.body if isinstance(line, str) and line.strip() and line.lstrip()[0] != "#"]
    return record.tag_values(), lines


def _mutant(lines: list[str], rng: random.Random) -> list[str]:
    """One change a person typing a log might make: a line dropped, doubled or moved, a word changed or lost."""
    lines = list(lines)
    i = rng.randrange(len(lines))
    kind = rng.randrange(5)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        lines.insert(rng.randrange(len(lines) + 1), lines.pop(i))
    else:
        tokens = TOKEN.findall(lines[i])
        j = rng.randrange(len(tokens))
        if kind == 3:
            del tokens[j]
        else:
            words = [w for line in lines for w in TOKEN.findall(line) if not w.isspace()]
            tokens[j] = rng.choice(words)
        lines[i] = "".join(tokens)
    keep = [line for line in lines if line.strip() and line.lstrip()[0] not in "#["]
    return keep or lines[:1]


def _error_view(error: RefereeError) -> tuple[object, ...]:
    return (error.verdict, error.line, error.code, error.column, error.message, error.alternatives)


@pytest.mark.parametrize("game_id", GAME_IDS)
@PROPS
@given(data=st.data())
def test_a_table_fed_line_by_line_judges_as_check_does(game_id: str, data: st.DataObject) -> None:
    game = GAMES[game_id]
    config = data.draw(st.sampled_from(configs_of(game)), label="config")
    players = NAMES[: data.draw(st.integers(game.min_players, min(game.max_players, len(NAMES))), label="players")]
    seed = data.draw(st.integers(0, 2**31), label="seed")
    tags, lines = _statement_lines(game.play(players, random.Random(seed), config.options, config.tags()))
    if data.draw(st.booleans(), label="mutant"):
        lines = _mutant(lines, random.Random(seed))
    table_tags = {name: value for name, value in tags.items() if name.lower() not in NOT_TABLE_TAGS}
    (expected,) = check_text(write_record({"Game": tags["Game"], "Players": tags["Players"], **table_tags}, lines))

    table = Table(game_id, players, table_tags)
    refused: RefereeError | None = None
    for text in lines:
        before, record_before = table.state.fingerprint(), table.record()
        try:
            table.play(text)
        except RefereeError as error:
            refused = error
            assert table.state.fingerprint() == before, "a refused line changed the state"
            assert table.record() == record_before
            break
    if expected.error is None:
        assert refused is None
        assert table.verdict == expected.verdict
        got, want = table.outcome, expected.outcome
        assert (got and (got.winners, got.scores)) == (want and (want.winners, want.scores))
    else:
        assert refused is not None, f"check found {expected.error.code} at line {expected.error.line}"
        assert _error_view(refused) == _error_view(expected.error)


def test_a_refused_line_leaves_the_table_able_to_go_on() -> None:
    _, lines = _statement_lines(
        GAMES["san-juan"].play(NAMES[:2], random.Random(3), GAMES["san-juan"].ruleset(None), {})
    )
    table = Table("san-juan", NAMES[:2])
    for text in lines[:10]:
        table.play(text)
    with pytest.raises(RefereeError):
        table.play(lines[5])
    for text in lines[10:]:
        table.play(text)
    (report,) = check_text(table.record())
    assert report.verdict == table.verdict
    assert report.outcome is not None and table.outcome is not None
    assert report.outcome.winners == table.outcome.winners


def test_table_refuses_what_is_not_one_statement() -> None:
    table = Table("saint-petersburg", ["Anna", "Boris"])
    for text in ("", "   ", "# a comment", '[Event "x"]', "round 1\nround 2", "tokens: x\r"):
        with pytest.raises(TableError):
            table.play(text)
    assert len(table) == 0


def test_legal_with_a_prefix_is_every_statement_where_the_list_is_shortened() -> None:
    """Santorini lists 60 of a turn's choices (often hundreds) as ``legal()``; ``legal(prefix)`` is every one — the
    short list first, then the rest, each accepted — and a prefix only filters."""
    from referee.santorini_new_york.base import TURNS

    game = GAMES["santorini-new-york"]
    players = list(NAMES[:2])
    tags, lines = _statement_lines(game.play(players, random.Random(1), game.ruleset(None), {}))
    table = Table(game.id, players, {k: v for k, v in tags.items() if k.lower() not in NOT_TABLE_TAGS})
    rng = random.Random(3)
    longest = beyond = 0
    for text in lines:
        short, every = table.legal(), table.legal("")
        assert len(short) <= 60 and every[: len(short)] == short and len(set(every)) == len(every)
        head = text[: len(text) // 2]
        assert table.legal(head) == [statement for statement in every if statement.startswith(head)]
        if table.state.stage == TURNS:
            assert len(every) == len(table.state.legal_turns())  # one statement a turn (the record may spell it
            # otherwise: "build b4, c4" or "build b4; build c4", the level reached "=1" written or not)
            for pick in rng.sample(every[len(short) :], min(2, len(every) - len(short))):
                table.play(pick)  # accepted: it is legal
                assert table.undo() == pick
                beyond += 1
        longest = max(longest, len(every))
        table.play(text)
    assert longest > 60 and beyond > 0


@pytest.mark.parametrize("game_id", ["saint-petersburg", "san-juan"])
def test_legal_with_no_prefix_is_legal_where_nothing_is_shortened(game_id: str) -> None:
    game = GAMES[game_id]
    players = list(NAMES[:3])
    tags, lines = _statement_lines(game.play(players, random.Random(2), game.ruleset(None), {}))
    table = Table(game.id, players, {k: v for k, v in tags.items() if k.lower() not in NOT_TABLE_TAGS})
    for text in lines[:80]:
        assert table.legal("") == table.legal()
        table.play(text)
