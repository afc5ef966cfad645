"""San Juan's line parser: the grammar (``san_juan.lark``), the transformer that builds ``notation``'s statements, the
words a syntax error names, worked examples of common mistakes, and the fast action reader (``reader.py``).

The package reads top-down: ``notation`` (the statements and their writer), ``reader`` (the hand-written reading of
action texts, built on ``notation``), then this module, which puts them together for ``LineParser``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import cast

from referee.errors import RecordCode
from referee.record import LineParser, Pieces, SyntaxExample
from referee.san_juan.notation import Action, Actor, FinalClaim, HandDeal, StatementBuilder, WinClaim
from referee.san_juan.reader import ActionReader

TERMINAL_WORDS = {
    "PLAYER_NAME": "a player name",
    "QUOTED": "a quoted player name",
    "WORD": "a card name",
    "INT": "a number",
    "SIGNED_INT": "a number",
    "COLON": "':'",
    "COMMA": "','",
    "SEMICOLON": "';'",
    "LPAR": "'('",
    "RPAR": "')'",
    "GOVERNOR": "'governor'",
    "HAND": "'hand'",
    "ROUND": "'round'",
    "TILE": "'tile'",
    "FINAL": "'final'",
    "ROLE": "a role (builder, producer, trader, councillor, prospector)",
    "BUILD": "'build'",
    "OVER": "'over'",
    "PAYING": "'paying'",
    "GOODS": "'goods'",
    "PRODUCE": "'produce'",
    "SELL": "'sell'",
    "GOOD": "a good (indigo, sugar, tobacco, coffee, silver)",
    "DRAWS": "'draws'",
    "KEEPS": "'keeps'",
    "NONE": "'none'",
    "GOLD_MINE": "'gold mine'",
    "TUCKS": "'tucks'",
    "DISCARDS": "'discards'",
    "PASS": "'pass'",
    "SOURCE": "a draw source (prospector, carpenter, poor house, well, market stand, market hall)",
    "TILE_VALUE": "a tile like 1-1-2-2-3",
    "UNKNOWN": "'?'",
}

SYNTAX_EXAMPLES = (
    SyntaxExample(
        RecordCode.MISSING_COLON,
        "a ':' is missing after the player name or statement keyword",
        ("Anna builder", "Anna pass", "governor Anna", "hand Anna Smithy", "tile 1-1-2-2-3", "final Anna 3"),
    ),
    SyntaxExample(
        RecordCode.UNKNOWN_ACTION,
        "unknown action; a turn is a role, build, produce, sell, draws, gold mine, tucks, discards or pass",
        ("Anna: purchase Smithy", "Anna: steal Smithy", "Anna: mayor", "Anna: captain"),
    ),
    SyntaxExample(RecordCode.MISSING_NUMBER, "a number is missing", ("round", "final: Anna")),
)


def _action_reader(parser: LineParser) -> Callable[[str, int], object | None]:
    return ActionReader(parser)


PIECES = Pieces(
    lists={
        "final": ("final_entry", lambda column, items: FinalClaim(tuple(items), column)),
        "win": ("player", lambda column, items: WinClaim(tuple(items), column)),
    },
    actor=("action", lambda player, action: Actor(player, cast(Action, action))),
    keywords=frozenset({"governor", "tile", "final", "win"}),
    reader=_action_reader,
    items=frozenset({"card", "unknown", "good_kind"}),
    flat_items={"final_entry": ("SIGNED_INT", "3", False)},
    headed={"HAND": ("player", "some_card", lambda column, player, cards: HandDeal(player, tuple(cards), column))},
)


def make_parser() -> LineParser:
    return LineParser(
        Path(__file__).with_name("san_juan.lark"), StatementBuilder, TERMINAL_WORDS, SYNTAX_EXAMPLES, PIECES
    )
