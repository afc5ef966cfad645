"""The registry of games, found through the ``referee.games`` entry-point group (the way pytest finds plugins).

A game package declares itself in its distribution's metadata::

    [project.entry-points."referee.games"]
    saint-petersburg = "referee.saint_petersburg:SaintPetersburg"

The core names no game: the built-in games are registered exactly as a third-party package would register one.
Games are looked up by any of their names (id, title, aliases), like python-chess variants.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.game import GameType

GROUP = "referee.games"


def _key(name: str) -> str:
    return " ".join(name.lower().replace(".", "").replace(":", "").replace("-", " ").split())


class GameRegistry(Mapping[str, "GameType"]):
    """Games by id, loaded on first use from the entry points (``reload`` looks again, e.g. after a test adds one)."""

    def __init__(self) -> None:
        self._games: dict[str, GameType] | None = None
        self._by_name: dict[str, GameType] = {}
        self._single: dict[str, GameType] = {}  # games loaded one by one, before the whole registry is needed
        self._found: dict[str, GameType | None] = {}  # name key -> game, as looked up
        self._entry_list: list[EntryPoint] | None = None

    def _load(self) -> dict[str, GameType]:
        if self._games is None:
            games: dict[str, GameType] = {}
            for entry in self._entries():
                try:
                    game = entry.load()
                except Exception as exc:  # a broken third-party game must not take the referee down
                    warnings.warn(
                        f"referee: game plug-in {entry.name!r} ({entry.value}) failed to load: {exc}",
                        RuntimeWarning,
                        stacklevel=2,
                    )
                    continue
                if game.id in games:
                    continue  # the same game installed twice (e.g. an editable install beside a wheel)
                games[game.id] = game
            self._games = games
            self._by_name = {_key(name): game for game in games.values() for name in game.names()}
        return self._games

    def reload(self) -> None:
        self._games = None
        self._found = {}
        self._entry_list = None

    def find(self, name: str) -> GameType | None:
        """The game a ``Game`` tag (or a CLI argument) names: title, id or alias, case-insensitive. A name that is
        an entry point's own name (the game's id or its title, which keys the same) loads that game only: judging
        a Saint Petersburg file imports no other game."""
        key = _key(name)
        if key in self._found:
            return self._found[key]
        game: GameType | None = None
        if self._games is None:
            for entry in self._entries():
                if _key(entry.name) == key:
                    single = self._load_one(entry)
                    if single is not None and key in {_key(n) for n in single.names()}:
                        game = single
        if game is None:
            self._load()
            game = self._by_name.get(key)
        self._found[key] = game
        return game

    def _entries(self) -> list[EntryPoint]:
        if self._entry_list is None:
            self._entry_list = sorted(entry_points(group=GROUP), key=lambda e: e.name)
        return self._entry_list

    def each_loadable(self) -> list[GameType]:
        """Every game whose entry point loads, loaded one by one (one that does not load is not reported here: it is,
        as ever, when a record names it or the whole registry is needed)."""
        games = (self._load_one(entry) for entry in self._entries())
        return [game for game in games if game is not None]

    def _load_one(self, entry: EntryPoint) -> GameType | None:
        found = self._single.get(entry.value)
        if found is None:
            try:
                found = entry.load()
            except Exception:
                return None  # reported when the whole registry loads
            self._single[entry.value] = found
        return found

    def __getitem__(self, game_id: str) -> GameType:
        return self._load()[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


GAMES = GameRegistry()


def find_game(name: str) -> GameType | None:
    """The game a ``Game`` tag (or a CLI argument) names: title or id, case-insensitive."""
    return GAMES.find(name)
