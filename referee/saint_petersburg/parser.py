"""The Saint Petersburg line parser, put together: the grammar with its statement builder, terminal words and syntax
examples (``notation``), the fast paths of the core's ``LineParser`` (``Pieces``) and the hand-written action reader
(``reader``). Both build on ``notation``'s statements; this module is the one that needs them both."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from referee.record import LineParser, Pieces
from referee.saint_petersburg.notation import (
    SYNTAX_EXAMPLES,
    TERMINAL_WORDS,
    Action,
    Actor,
    Deal,
    FinalClaim,
    ScoreClaim,
    StatementBuilder,
    Tokens,
    WinClaim,
)
from referee.saint_petersburg.reader import ActionReader

PIECES = Pieces(
    lists={
        "deal": ("card", lambda column, items: Deal(tuple(items), column)),
        "score": ("score_entry", lambda column, items: ScoreClaim(tuple(items), column)),
        "final": ("final_entry", lambda column, items: FinalClaim(tuple(items), column)),
        "win": ("player", lambda column, items: WinClaim(tuple(items), column)),
        "tokens": ("grant", lambda column, items: Tokens(tuple(items), column)),
    },
    actor=("action", lambda player, action: Actor(player, cast(Action, action))),
    keywords=frozenset({"tokens", "deal", "score", "final", "win"}),
    reader=ActionReader,
    items=frozenset({"card"}),
    flat_items={"score_entry": ("AMOUNT", "+1R", True), "final_entry": ("SIGNED_INT", "3", False)},
)


def make_parser() -> LineParser:
    return LineParser(
        Path(__file__).with_name("saint_petersburg.lark"), StatementBuilder, TERMINAL_WORDS, SYNTAX_EXAMPLES, PIECES
    )
