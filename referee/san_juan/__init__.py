"""San Juan (1st edition, base game: 110 cards, 2-4 players)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

from referee.game import Game, SetupContext
from referee.record import LineParser
from referee.san_juan import notation, parser
from referee.san_juan.cards import CARD_ATTRIBUTES, NAME_TABLE, card_table, tile_prices
from referee.san_juan.options import RULESET_ALIASES, RULESETS, SJOptions
from referee.san_juan.state import SJCode, SJState
from referee.statements import WinClaim


class SanJuan(Game[SJState, SJOptions]):
    id: ClassVar[str] = "san-juan"
    title: ClassVar[str] = "San Juan"
    aliases: ClassVar[tuple[str, ...]] = ("SanJuan",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_type: ClassVar[type] = SJOptions
    rulesets: ClassVar[dict[str, Any]] = RULESETS
    ruleset_aliases: ClassVar[dict[str, str]] = RULESET_ALIASES
    proofs_module: ClassVar[str | None] = "referee.san_juan.proofs"
    property_adapter: ClassVar[str | None] = "referee.san_juan.adapter:SanJuanAdapter"
    picture_module: ClassVar[str | None] = "referee.san_juan.picture"
    doc_page: ClassVar[str | None] = "docs/san-juan.md"
    default_ruleset: ClassVar[str] = "1st edition"

    card_attributes: ClassVar[dict[str, str]] = CARD_ATTRIBUTES

    @classmethod
    def card_names(cls, options: SJOptions) -> dict[str, str]:
        return NAME_TABLE

    @classmethod
    def check_options(cls, options: SJOptions) -> str | None:
        cards = card_table(options.cards)
        if options.start_building not in cards:
            return f"start_building names no card of San Juan: {options.start_building!r}"
        bad = next((tile for tile in options.trading_tiles if tile_prices(tile) is None), None)
        if bad is not None:
            return f"trading_tiles: {bad!r} is not a tile (five whole numbers, one per good: '1-1-2-2-3')"
        if len(set(options.trading_tiles)) != len(options.trading_tiles):
            return "trading_tiles: each tile once"
        if cards[options.start_building].copies < cls.max_players:
            return f"the card changes leave fewer than {cls.max_players} {options.start_building} cards to start with"
        return None

    @classmethod
    def stats(cls, statements: list[Any], state: SJState) -> dict[str, Counter[str]]:
        """Buildings built, by name, and roles chosen."""
        built: Counter[str] = Counter()
        roles: Counter[str] = Counter()
        for statement in statements:
            action = getattr(statement, "action", None)
            if isinstance(action, notation.Build):
                built[action.card.name] += 1
            elif isinstance(action, notation.RoleChoice):
                roles[action.role] += 1
        return {"built": built, "roles chosen": roles}

    @classmethod
    def make_parser(cls) -> LineParser:
        return parser.make_parser()

    @classmethod
    def new_state(cls, players: list[str], options: SJOptions, context: SetupContext | None = None) -> SJState:
        return SJState(players, options)

    @classmethod
    def statement_text(cls, statement: Any) -> str:
        if isinstance(statement, WinClaim):  # the notation's writer leaves the shared claim to the core
            return super().statement_text(statement)
        return notation.statement_text(statement)

    @classmethod
    def play(cls, players: list[str], rng: random.Random, options: SJOptions, tags: dict[str, str]) -> str:
        from referee.san_juan.play import play_record  # the generator: not loaded for checking records

        return play_record(players, rng, options, tags)


__all__ = ["SJCode", "SJOptions", "SJState", "SanJuan"]
