"""Santorini: New York (Roxley, 2020; 2-5 players): the board and the card numbers are data files the record's tags
name (``Board``, ``DeckList``), the four professions in play a tag too (``Deck``)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from referee.errors import ErrorKind, RefereeError
from referee.game import Game, SetupContext
from referee.record import LineParser
from referee.santorini_new_york import notation
from referee.santorini_new_york.board import BoardMap, DataError, parse_board_text, shipped_boards
from referee.santorini_new_york.cards import (
    DeckList,
    check_deck,
    deck_cards,
    parse_deck_list_text,
    shipped_deck_lists,
)
from referee.santorini_new_york.codes import SNYCode, SNYTermination
from referee.santorini_new_york.options import RULESET_ALIASES, RULESETS, SCOPES, SNYOptions
from referee.santorini_new_york.state import SNYState


class SantoriniNewYork(Game):
    id: ClassVar[str] = "santorini-new-york"
    title: ClassVar[str] = "Santorini: New York"
    aliases: ClassVar[tuple[str, ...]] = ("Santorini New York", "Santorini NY", "Santorini: NY", "SantoriniNY")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options_type: ClassVar[type] = SNYOptions
    rulesets: ClassVar[dict[str, Any]] = RULESETS
    ruleset_aliases: ClassVar[dict[str, str]] = RULESET_ALIASES
    default_ruleset: ClassVar[str] = "standard"
    tag_options: ClassVar[dict[str, str]] = {"Board": "board", "DeckList": "deck_list", "Deck": "deck"}
    reserved_words: ClassVar[frozenset[str]] = frozenset(
        {"place", "skyscraper", "hand", "round", "play", "win", "final"}
    )

    @classmethod
    def make_parser(cls) -> LineParser:
        return notation.make_parser()

    @classmethod
    def new_state(cls, players: list[str], options: SNYOptions, context: SetupContext | None = None) -> SNYState:
        board = _load(options.board, shipped_boards(), SNYCode.BAD_BOARD, "board", "Board", parse_board_text, context)
        deck_list = _load(
            options.deck_list,
            shipped_deck_lists(),
            SNYCode.BAD_DECK_LIST,
            "deck list",
            "DeckList",
            parse_deck_list_text,
            context,
        )
        try:
            deck = check_deck(options.deck, deck_list, options.unique_numbers)
        except DataError as problem:
            raise _setup_error(context, "Deck", SNYCode.BAD_DECK, f"the Deck tag: {problem}") from None
        _check_fit(players, options, board, deck_list, deck, context)
        return SNYState(players, options, board, deck_list, deck)

    @classmethod
    def play(cls, players: list[str], rng: random.Random, options: SNYOptions, tags: dict[str, str]) -> str:
        from referee.santorini_new_york.play import play_record

        return play_record(players, rng, options, tags)


def _setup_error(context: SetupContext | None, tag: str, kind: ErrorKind, message: str) -> Exception:
    if context is None:
        return ValueError(f"{tag}: {message}")
    return context.error_at_tag(tag, kind, message)


def _load(reference, registered, kind, what, tag, parse, context):  # type: ignore[no-untyped-def]
    """A board or deck list by name or path: read through the record's setup context (safe file access), parsed
    once per distinct text, and checked; every problem is a located error at the tag."""
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
        raise _setup_error(context, tag, kind, f"the {what} {reference!r}: {problem}") from None


def _check_fit(
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
        raise _setup_error(
            context,
            "Board",
            SNYCode.BAD_BOARD,
            f"the board {board.name!r} has {len(board.starts)} starting pairs; {n} players need {n}",
        )
    cards = len(deck_cards(deck, deck_list))
    if cards < n * options.hand_size:
        raise _setup_error(
            context,
            "Deck",
            SNYCode.BAD_DECK,
            f"the deck has {cards} cards; {n} players are dealt {options.hand_size} each",
        )
    problems = []
    if options.if_possible_scope not in SCOPES:
        problems.append(f"if_possible_scope is one of {', '.join(SCOPES)}, not {options.if_possible_scope!r}")
    if not 1 <= options.refill_period <= options.hand_size:
        problems.append("refill_period is between 1 and hand_size (a hand must last until the refill)")
    if options.refill_size < 0 or options.hand_size < 1:
        problems.append("hand_size is at least 1 and refill_size not negative")
    if problems:
        raise _setup_error(context, "Variant", SNYCode.BAD_OPTIONS, "; ".join(problems))


__all__ = ["RefereeError", "SNYCode", "SNYOptions", "SNYState", "SNYTermination", "SantoriniNewYork"]
