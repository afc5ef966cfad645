"""The games under test: every registered game that names a property adapter (``Game.property_adapter``) joins
every generic suite — no edit here when a game is added."""

from __future__ import annotations

import importlib
from functools import cache

from referee.registry import GAMES
from referee.testkit import Config, GameAdapter


@cache
def adapters() -> list[GameAdapter]:
    found = []
    for game in GAMES.values():
        if game.property_adapter:
            module, _, name = game.property_adapter.partition(":")
            found.append(getattr(importlib.import_module(module), name)())
    return found


def cases(prop: str | None = None) -> list[tuple[GameAdapter, Config]]:
    """(adapter, config) for every game and every ruleset/variant, minus the pairs known to break ``prop``."""
    found = []
    for adapter in adapters():
        broken = adapter.known_broken.get(prop, ()) if prop else ()
        for config in adapter.configs():
            if config.variant not in broken:
                found.append((adapter, config))
    return found


def case_id(case: tuple[GameAdapter, Config]) -> str:
    return case[1].label


def adapter_for(game_id: str) -> GameAdapter:
    return next(a for a in adapters() if a.game.id == game_id)
