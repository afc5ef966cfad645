"""The games under test. A game joins every generic suite by adding its adapter to ``ADAPTERS``."""

from __future__ import annotations

from properties.harness import Config, GameAdapter
from properties.sj import SanJuanAdapter
from properties.sny import SantoriniNewYorkAdapter
from properties.sp import SaintPetersburgAdapter

ADAPTERS: list[GameAdapter] = [SaintPetersburgAdapter(), SanJuanAdapter(), SantoriniNewYorkAdapter()]


def cases(prop: str | None = None) -> list[tuple[GameAdapter, Config]]:
    """(adapter, config) for every game and every ruleset/variant, minus the pairs known to break ``prop``."""
    found = []
    for adapter in ADAPTERS:
        broken = adapter.known_broken.get(prop, ()) if prop else ()
        for config in adapter.configs():
            if config.variant not in broken:
                found.append((adapter, config))
    return found


def case_id(case: tuple[GameAdapter, Config]) -> str:
    return case[1].label


def adapter_for(game_id: str) -> GameAdapter:
    return next(a for a in ADAPTERS if a.game.id == game_id)
