"""Santorini: New York (Roxley, 2020; 2-5 players): the board and the card numbers are data files the record's tags
name (``Board``, ``DeckList``), the four professions in play a tag too (``Deck``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

from referee.game import Game, SetupContext, TagPart
from referee.record import LineParser
from referee.santorini_new_york import notation
from referee.santorini_new_york.board import shipped_boards
from referee.santorini_new_york.cards import KINDS, PROFESSIONS, shipped_deck_lists
from referee.santorini_new_york.codes import SNYCode, SNYTermination
from referee.santorini_new_york.options import RULESET_ALIASES, RULESETS, TAG_OPTIONS, SNYOptions
from referee.santorini_new_york.setup import make_state
from referee.santorini_new_york.state import SNYState


class SantoriniNewYork(Game[SNYState, SNYOptions]):
    id: ClassVar[str] = "santorini-new-york"
    title: ClassVar[str] = "Santorini: New York"
    aliases: ClassVar[tuple[str, ...]] = ("Santorini New York", "Santorini NY", "Santorini: NY", "SantoriniNY")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options_type: ClassVar[type] = SNYOptions
    rulesets: ClassVar[dict[str, Any]] = RULESETS
    ruleset_aliases: ClassVar[dict[str, str]] = RULESET_ALIASES
    default_ruleset: ClassVar[str] = "standard"
    proofs_module: ClassVar[str | None] = "referee.santorini_new_york.proofs"
    property_adapter: ClassVar[str | None] = "referee.santorini_new_york.adapter:SantoriniNewYorkAdapter"
    picture_module: ClassVar[str | None] = "referee.santorini_new_york.picture"
    doc_page: ClassVar[str | None] = "docs/santorini-new-york.md"
    tag_options: ClassVar[dict[str, str]] = TAG_OPTIONS
    reserved_words: ClassVar[frozenset[str]] = notation.RESERVED_WORDS

    @classmethod
    def stats(cls, statements: list[Any], state: SNYState) -> dict[str, Counter[str]]:
        """Professions played (from the reveals) and workers lost, by profession or by player count."""
        played: Counter[str] = Counter()
        lost: Counter[str] = Counter()
        for statement in statements:
            if isinstance(statement, notation.Reveal):
                played.update(entry.card.profession for entry in statement.entries if entry.card.profession)
            elif isinstance(statement, notation.LossLine):
                lost["worker"] += 1
        return {"played": played, "lost": lost}

    @classmethod
    def tag_choices(cls) -> dict[str, tuple[TagPart, ...]]:
        """The shipped boards and deck lists, and the professions of a deck by kind (the Engineer, then one of each
        other kind)."""
        by_kind = tuple(TagPart(kind, tuple(name for name, of in PROFESSIONS.items() if of == kind)) for kind in KINDS)
        return {
            "Board": (TagPart("Board", tuple(shipped_boards())),),
            "DeckList": (TagPart("DeckList", tuple(shipped_deck_lists())),),
            "Deck": by_kind,
        }

    @classmethod
    def make_parser(cls) -> LineParser:
        return notation.make_parser()

    @classmethod
    def new_state(cls, players: list[str], options: SNYOptions, context: SetupContext | None = None) -> SNYState:
        return make_state(players, options, context)

    @classmethod
    def statement_text(cls, statement: Any) -> str:
        return notation.statement_text(statement)

    @classmethod
    def play(cls, players: list[str], rng: random.Random, options: SNYOptions, tags: dict[str, str]) -> str:
        from referee.santorini_new_york.play import play_record  # the generator: not loaded to check records

        return play_record(players, rng, options, tags)


__all__ = ["SNYCode", "SNYOptions", "SNYState", "SNYTermination", "SantoriniNewYork"]
