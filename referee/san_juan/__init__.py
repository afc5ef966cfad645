"""San Juan (1st edition, base game: 110 cards, 2-4 players)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from referee.game import Game, SetupContext
from referee.record import LineParser
from referee.san_juan import notation
from referee.san_juan.cards import CARDS
from referee.san_juan.options import RULESET_ALIASES, RULESETS, SJOptions
from referee.san_juan.play import play_record
from referee.san_juan.state import SJCode, SJState


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
    doc_page: ClassVar[str | None] = "docs/san-juan.md"
    default_ruleset: ClassVar[str] = "1st edition"

    @classmethod
    def check_options(cls, options: SJOptions) -> str | None:
        if options.start_building not in CARDS:
            return f"start_building names no card of San Juan: {options.start_building!r}"
        return None

    @classmethod
    def make_parser(cls) -> LineParser:
        return notation.make_parser()

    @classmethod
    def new_state(cls, players: list[str], options: SJOptions, context: SetupContext | None = None) -> SJState:
        return SJState(players, options)

    @classmethod
    def play(cls, players: list[str], rng: random.Random, options: SJOptions, tags: dict[str, str]) -> str:
        return play_record(players, rng, options, tags)


__all__ = ["SJCode", "SJOptions", "SJState", "SanJuan"]
