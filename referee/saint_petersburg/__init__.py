"""Saint Petersburg (2nd edition by default, 1st edition as a second ruleset)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from referee.game import Game, SetupContext
from referee.record import LineParser
from referee.saint_petersburg import notation
from referee.saint_petersburg.options import RULESET_ALIASES, RULESETS, SPOptions
from referee.saint_petersburg.play import play_record
from referee.saint_petersburg.state import SPCode, SPState


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
    doc_page: ClassVar[str | None] = "docs/saint-petersburg.md"
    default_ruleset: ClassVar[str] = "2nd edition"

    @classmethod
    def make_parser(cls) -> LineParser:
        return notation.make_parser()

    @classmethod
    def new_state(cls, players: list[str], options: SPOptions, context: SetupContext | None = None) -> SPState:
        return SPState(players, options)

    @classmethod
    def play(cls, players: list[str], rng: random.Random, options: SPOptions, tags: dict[str, str]) -> str:
        return play_record(players, rng, options, tags)


__all__ = ["SPCode", "SPOptions", "SPState", "SaintPetersburg"]
