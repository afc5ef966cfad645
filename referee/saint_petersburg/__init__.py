"""Saint Petersburg (2nd edition by default, 1st edition as a second ruleset)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

from referee.game import Game, SetupContext
from referee.record import LineParser
from referee.saint_petersburg import notation, parser
from referee.saint_petersburg.cards import CARD_ATTRIBUTES, DECKS, NAME_TABLE, card_table
from referee.saint_petersburg.options import RULESET_ALIASES, RULESETS, SPOptions
from referee.saint_petersburg.state import SPCode, SPState
from referee.statements import WinClaim


class SaintPetersburg(Game[SPState, SPOptions]):
    id: ClassVar[str] = "saint-petersburg"
    title: ClassVar[str] = "Saint Petersburg"
    aliases: ClassVar[tuple[str, ...]] = ("St Petersburg", "St. Petersburg", "Sankt Petersburg")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_type: ClassVar[type] = SPOptions
    rulesets: ClassVar[dict[str, Any]] = RULESETS
    ruleset_aliases: ClassVar[dict[str, str]] = RULESET_ALIASES
    proofs_module: ClassVar[str | None] = "referee.saint_petersburg.proofs"
    property_adapter: ClassVar[str | None] = "referee.saint_petersburg.adapter:SaintPetersburgAdapter"
    picture_module: ClassVar[str | None] = "referee.saint_petersburg.picture"
    doc_page: ClassVar[str | None] = "docs/saint-petersburg.md"
    default_ruleset: ClassVar[str] = "2nd edition"

    card_attributes: ClassVar[dict[str, str]] = CARD_ATTRIBUTES

    @classmethod
    def card_names(cls, options: SPOptions) -> dict[str, str]:
        return NAME_TABLE

    @classmethod
    def check_options(cls, options: SPOptions) -> str | None:
        table = card_table(options.edition, options.cards)
        empty = [deck for deck in DECKS if not any(card.copies for card in table.values() if card.deck == deck)]
        if empty:
            return f"the card changes leave the {' and '.join(empty)} deck empty"
        return None

    @classmethod
    def stats(cls, statements: list[Any], state: SPState) -> dict[str, Counter[str]]:
        """Cards bought (from the display, played from hand or drawn with an Observatory) and cards taken into
        hand, by name; the VP bought with Pubs."""
        bought: Counter[str] = Counter()
        taken: Counter[str] = Counter()
        for statement in statements:
            action = getattr(statement, "action", None)
            if isinstance(action, (notation.Buy, notation.Play)) or (
                isinstance(action, notation.Observe) and action.choice == "buy"
            ):
                bought[action.card.name] += 1
            elif isinstance(action, notation.Take) or (
                isinstance(action, notation.Observe) and action.choice == "take"
            ):
                taken[action.card.name] += 1
        pubs = Counter({"Pub": sum(player.pub_vp for player in state.p)})
        return {"bought": bought, "taken into hand": taken, "VP bought": +pubs}

    @classmethod
    def make_parser(cls) -> LineParser:
        return parser.make_parser()

    @classmethod
    def new_state(cls, players: list[str], options: SPOptions, context: SetupContext | None = None) -> SPState:
        return SPState(players, options)

    @classmethod
    def statement_text(cls, statement: Any) -> str:
        if isinstance(statement, WinClaim):  # the notation's writer leaves the shared claim to the core
            return super().statement_text(statement)
        return notation.statement_text(statement)

    @classmethod
    def play(cls, players: list[str], rng: random.Random, options: SPOptions, tags: dict[str, str]) -> str:
        from referee.saint_petersburg.play import play_record  # the generator: never loaded to check a record

        return play_record(players, rng, options, tags)


__all__ = ["SPCode", "SPOptions", "SPState", "SaintPetersburg"]
