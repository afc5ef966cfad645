"""The registry of games, found by any of their names (like python-chess variants)."""

from __future__ import annotations

from referee.game import Game
from referee.saint_petersburg import SaintPetersburg
from referee.san_juan import SanJuan

GAMES: dict[str, type[Game]] = {game.id: game for game in (SaintPetersburg, SanJuan)}


def _key(name: str) -> str:
    return " ".join(name.lower().replace(".", "").replace(":", "").replace("-", " ").split())


_BY_NAME = {_key(name): game for game in GAMES.values() for name in game.names()}


def find_game(name: str) -> type[Game] | None:
    """The game a ``Game`` tag (or a CLI argument) names: title or id, case-insensitive."""
    return _BY_NAME.get(_key(name))
