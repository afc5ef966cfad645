"""The games a server offers, with what a table of each may be set up with: ``GET /games``, which the scorekeeper page
builds its form from. Made once, when the server starts, from the registry (the core names no game): each game's
player range, rulesets, registered variants and its own tags (``tag_options``) with the registered names they may take
(``Game.tag_choices``) and their default."""

from __future__ import annotations

from typing import Any

from referee.errors import RefereeError
from referee.game import GameType
from referee.registry import GAMES, find_game
from referee.variant import load_variant, registered_paths


def catalogue() -> dict[str, Any]:
    """Every game, by title: ``{"games": [{"id", "title", "min_players", "max_players", "rulesets",
    "default_ruleset", "variants", "tags"}, ...]}``."""
    variants: dict[str, list[dict[str, Any]]] = {}
    for name, path in registered_paths().items():
        try:
            variant = load_variant(path)
        except RefereeError:  # a variant that does not load cannot set up a table either
            continue
        game = find_game(variant.game)
        if game is not None:
            entry = {"name": name, "ruleset": variant.ruleset, "description": variant.description}
            variants.setdefault(game.id, []).append(entry)
    return {
        "games": [
            {
                "id": game.id,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "rulesets": list(game.rulesets),
                "default_ruleset": game.default_ruleset,
                "variants": variants.get(game.id, []),
                "tags": own_tags(game),
            }
            for game in sorted(GAMES.values(), key=lambda game: game.title)
        ]
    }


def own_tags(game: GameType) -> list[dict[str, Any]]:
    """The game's own tags: name, the default ruleset's value as a tag writes it, and the parts a form offers (none:
    free text)."""
    defaults = game.ruleset(None)
    choices = game.tag_choices()
    return [
        {
            "name": tag,
            "default": tag_text(getattr(defaults, option, "")),
            "parts": [{"label": part.label, "values": list(part.values)} for part in choices.get(tag, ())],
        }
        for tag, option in game.tag_options.items()
    ]


def tag_text(value: Any) -> str:
    """An option's value as its tag writes it (a list comma-separated)."""
    if isinstance(value, tuple | list):
        return ", ".join(str(item) for item in value)
    return str(value)
