"""A new game: the board and deck list a record's tags name, read safely, checked, and fitted to the players.

Every problem is an error at the tag that caused it (``SetupContext.error_at_tag``): malformed, but for a Deck tag
whose known professions break the rules' mix, which is illegal (record-format.md section 1). Without a context (the
generator, the property suites) only the shipped files are read and a problem is a ``ValueError``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from referee.errors import ErrorKind
from referee.game import SetupContext
from referee.santorini_new_york.board import BoardMap, DataError, parse_board_text, shipped_boards
from referee.santorini_new_york.cards import (
    DeckList,
    DeckMixError,
    check_deck,
    deck_cards,
    deck_professions,
    parse_deck_list_text,
    shipped_deck_lists,
)
from referee.santorini_new_york.codes import SNYCode
from referee.santorini_new_york.options import SCOPES, SNYOptions
from referee.santorini_new_york.state import SNYState

Data = TypeVar("Data")


def make_state(players: list[str], options: SNYOptions, context: SetupContext | None = None) -> SNYState:
    """The state before the first statement, with the board, deck list and deck the options (tags) name."""
    board, deck_list = load_data(options, context, deck=True)
    try:
        deck = check_deck(options.deck, deck_list, options.unique_numbers)
    except DataError as problem:
        raise deck_error(context, problem) from None
    check_fit(players, options, board, deck_list, deck, context)
    return SNYState(players, options, board, deck_list, deck)


SETUP_TAGS = ("Board", "DeckList", "Deck")


def load_data(
    options: SNYOptions, context: SetupContext | None = None, deck: bool = False
) -> tuple[BoardMap, DeckList]:
    """The board and the deck list the options (the Board and DeckList tags) name, read as ``load`` reads them —
    in the order the tags stand in the record, so the first tag's problem is the one reported (record format
    section 1); with ``deck`` the Deck tag's professions and mix (``deck_professions``) are judged in that order too."""
    board: BoardMap | None = None
    deck_list: DeckList | None = None
    for tag in sorted(SETUP_TAGS, key=lambda name: _line_of(context, name)):
        if tag == "Board":
            board = load(options.board, shipped_boards(), SNYCode.BAD_BOARD, "board", tag, parse_board_text, context)
        elif tag == "DeckList":
            deck_list = load(
                options.deck_list,
                shipped_deck_lists(),
                SNYCode.BAD_DECK_LIST,
                "deck list",
                tag,
                parse_deck_list_text,
                context,
            )
        elif deck:
            try:
                deck_professions(options.deck)
            except DataError as problem:
                raise deck_error(context, problem) from None
    assert board is not None and deck_list is not None
    return board, deck_list


def _line_of(context: SetupContext | None, name: str) -> int:
    """The line of a tag, for file order; a tag not written (a default or a variant's) after every written one."""
    tag = context.tag(name) if context is not None else None
    return tag.line if tag is not None else sys.maxsize


def setup_error(
    context: SetupContext | None, tag: str, kind: ErrorKind, message: str, within: str | None = None
) -> Exception:
    if context is None:
        return ValueError(f"{tag}: {message}")
    return context.error_at_tag(tag, kind, message, within)


def deck_error(context: SetupContext | None, problem: DataError) -> Exception:
    """The Deck tag's problem: known professions that break the mix are illegal at the tag, anything else (an
    unknown profession, one the deck list does not print, clashing numbers) is malformed. Without a Deck tag the
    deck is a variant's, and a variant whose deck breaks the mix is one the game cannot use."""
    if not isinstance(problem, DeckMixError):
        return setup_error(context, "Deck", SNYCode.BAD_DECK, f"the Deck tag: {problem}", problem.item)
    if context is None or context.tag("Deck") is not None:
        return setup_error(context, "Deck", SNYCode.DECK_MIX, f"the Deck tag: {problem}")
    return setup_error(context, "Variant", SNYCode.BAD_OPTIONS, f"the variant's deck: {problem}")


def load(
    reference: str,
    registered: Mapping[str, Path],
    kind: ErrorKind,
    what: str,
    tag: str,
    parse: Callable[[str], Data],
    context: SetupContext | None,
) -> Data:
    """A board or deck list by name or path: read through the record's setup context (safe file access), parsed
    once per distinct text, and checked."""
    try:
        if context is None:
            path = registered.get(reference.strip().lower())
            if path is None:
                raise DataError(f"no shipped {what} {reference!r} (shipped: {', '.join(registered)})")
            text = path.read_text(encoding="utf-8")
        else:
            text, _ = context.read_resource(reference, registered, kind, what, tag)
        return parse(text)
    except DataError as problem:
        raise setup_error(context, tag, kind, f"the {what} {reference!r}: {problem}") from None


def check_fit(
    players: list[str],
    options: SNYOptions,
    board: BoardMap,
    deck_list: DeckList,
    deck: tuple[str, ...],
    context: SetupContext | None,
) -> None:
    """Board, deck and options must be able to hold a game of this many players."""
    n = len(players)
    if len(board.starts) < n:
        message = f"the board {board.name!r} has {len(board.starts)} starting pairs; {n} players need {n}"
        raise setup_error(context, "Board", SNYCode.BAD_BOARD, message)
    cards = len(deck_cards(deck, deck_list))
    if cards < n * options.hand_size:
        message = f"the deck has {cards} cards; {n} players are dealt {options.hand_size} each"
        raise setup_error(context, "Deck", SNYCode.BAD_DECK, message)
    problems = []
    if options.if_possible_scope not in SCOPES:
        problems.append(f"if_possible_scope is one of {', '.join(SCOPES)}, not {options.if_possible_scope!r}")
    if not 1 <= options.refill_period <= options.hand_size:
        problems.append("refill_period is between 1 and hand_size (a hand must last until the refill)")
    if options.refill_size < 1 or options.hand_size < 1:
        problems.append("hand_size and refill_size are at least 1 (a deal names its cards)")
    if problems:
        raise setup_error(context, "Variant", SNYCode.BAD_OPTIONS, "; ".join(problems))
