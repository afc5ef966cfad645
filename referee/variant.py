"""House-rule variants: a ruleset plus named option overrides, kept in small TOML files.

A variant file::

    name = "no-minimum"
    game = "saint-petersburg"
    ruleset = "2nd edition"          # the base; default: the game's default ruleset
    description = "Cards can become free."
    [options]
    min_price = 0
    [cards."Pub"]                    # card changes (games that take them: Game.card_attributes)
    copies = 0

Registered variants are the ``*.toml`` files a game ships in its package's ``variants/`` folder; a record's
``Variant`` tag names one of them or gives a path relative to the record file (confined to the record's folder, see
``referee.resources``). Every value is checked on load — its type, the type of each list element, its range — so a
bad file is one located ``bad-variant`` error for the games that use it, never a failure later in the replay.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RecordCode, RefereeError, malformed
from referee.game import GameType, check_option
from referee.record import excerpt, shown_value
from referee.resources import DEFAULT_POLICY, ReadPolicy, ReadRefused, read_limited

TOP_LEVEL = {"name": str, "game": str, "ruleset": str, "description": str, "options": dict, "cards": dict}
CARD_OPTION = "cards"  # the rule option that keeps a variant's card changes (see ``Game.card_attributes``)
MAX_CARD_VALUE = 999  # copies, costs, VP and income of a changed card stay below this


@dataclass(frozen=True)
class Variant:
    name: str
    game: str
    ruleset: str | None
    description: str
    options: dict[str, Any]
    path: Path | None
    cards: dict[str, Any] = dataclasses.field(default_factory=dict)  # card name -> {attribute: value}


def _bad(source: str, why: str) -> RefereeError:
    return malformed(RecordCode.BAD_VARIANT, f"variant {source}: {why}")


def parse_variant(text: str, source: str, path: Path | None = None) -> Variant:
    """A variant from TOML text, with every top-level key of its type (``bad-variant`` otherwise). The options are
    checked against the game when the variant is applied (``apply_variant``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _bad(source, f"not valid TOML ({excerpt(str(exc), 120)})") from None
    except RecursionError:
        raise _bad(source, "not valid TOML (nested too deeply)") from None
    for key, value in data.items():
        wanted = TOP_LEVEL.get(key)
        if wanted is None:
            raise _bad(source, f"unknown key {excerpt(key)} (keys: {', '.join(TOP_LEVEL)})")
        if not isinstance(value, wanted):
            raise _bad(source, f"'{key}' must be a {'table' if wanted is dict else 'string'}, not {shown_value(value)}")
    if "game" not in data:
        raise _bad(source, "needs 'game' (the game's title or id)")
    name = data.get("name", path.stem if path else source)
    return Variant(
        name,
        data["game"],
        data.get("ruleset"),
        data.get("description", ""),
        data.get("options", {}),
        path,
        data.get("cards", {}),
    )


def load_variant(path: Path, policy: ReadPolicy = DEFAULT_POLICY) -> Variant:
    """Read a variant file (a regular file of bounded size); ``bad-variant`` when it is not one."""
    try:
        text = read_limited(path, policy.max_resource_bytes).decode("utf-8-sig")
    except ReadRefused as refused:
        raise _bad(path.name, f"cannot be read: {refused.reason}") from None
    except UnicodeDecodeError:
        raise _bad(path.name, "is not UTF-8 text") from None
    return parse_variant(text, path.name, path)


def registered_paths() -> dict[str, Path]:
    """Lower-case name -> file of every registered variant (the ``variants/`` folder of every game package)."""
    from referee.registry import GAMES

    found: dict[str, Path] = {}
    for game in GAMES.values():
        folder = game.variants_dir()
        if folder is not None and folder.is_dir():
            for path in sorted(folder.glob("*.toml")):
                found[path.stem.lower()] = path
    return found


def registered_variants() -> dict[str, Variant]:
    return {name: load_variant(path) for name, path in registered_paths().items()}


def record_tag(variant: Variant, reference: str) -> tuple[str, Path | None]:
    """How a record that a command writes (a counterexample) names a variant the user gave on the command line: a
    registered variant by its name; a file by its file name, with the file to copy beside the record
    (``resources.copy_beside``), since the record's folder is where the referee looks for it."""
    registered = variant.path is not None and registered_paths().get(variant.path.stem.lower()) == variant.path
    if registered or variant.path is None:
        return (variant.name if registered else reference), None
    return variant.path.name, variant.path


def find_variant(
    reference: str, base_dir: Path | None = None, policy: ReadPolicy = DEFAULT_POLICY, game: GameType | None = None
) -> Variant:
    """A variant by registered name, or a file inside ``base_dir`` (the record's folder) or a folder the user
    allowed. Anything else — a path outside, a missing file, a folder, a device — is the same ``unknown-variant``,
    which lists the registered variants (``game``'s only, when given)."""
    registered = registered_paths()
    path = policy.locate(reference, registered, base_dir)
    if path is None:
        folder = game.variants_dir() if game is not None else None
        names = [name for name, path in registered.items() if folder is None or path.parent == folder]
        known = ", ".join(sorted(names)) or "none"
        raise malformed(
            RecordCode.UNKNOWN_VARIANT,
            f"no variant {excerpt(reference)} (registered: {known}; {policy.where_files_may_be(base_dir)})",
        )
    return load_variant(path, policy)


def apply_variant(game: GameType, base: Any, variant: Variant, keep_ruleset: bool = False) -> Any:
    """The base options with the variant's overrides, each checked against the option's name, type and range
    (``keep_ruleset``: the variant's own ``ruleset`` does not replace the base, as when a house rule is laid over
    records of several rulesets)."""
    from referee.registry import find_game

    if find_game(variant.game) is not game:
        raise _bad(variant.name, f"is for {excerpt(variant.game)}, not {game.title}")
    if variant.ruleset is not None and not keep_ruleset:
        ruleset = game.ruleset(variant.ruleset)
        if ruleset is None:
            raise _bad(variant.name, f"names unknown ruleset {excerpt(variant.ruleset)}")
        base = ruleset
    fields = {f.name: f for f in dataclasses.fields(game.options_type)}
    changes: dict[str, Any] = {}
    for name, value in variant.options.items():
        if name not in fields:
            raise _bad(
                variant.name, f"no rule option {excerpt(name)} in {game.title} (see 'referee options {game.id}')"
            )
        if name == CARD_OPTION and game.card_attributes:
            raise _bad(variant.name, f"option '{name}' is set by the [cards] table, e.g. [cards.\"NAME\"] copies = 0")
        problem, checked = check_option(fields[name], getattr(base, name), value)
        if problem:
            raise _bad(variant.name, f"option '{name}' {problem}")
        changes[name] = checked
    options = dataclasses.replace(base, **changes)
    if variant.cards:
        options = dataclasses.replace(options, **{CARD_OPTION: card_changes(game, options, variant)})
    problem = game.check_options(options)
    if problem:
        raise _bad(variant.name, problem)
    return options


def variant_rules(variant: Variant) -> tuple[GameType, Any]:
    """The game a variant is for and the options it makes there (its own ruleset, or the game's default), every
    option and card change checked as a record naming it would check them — so a command given a bad file refuses
    it at once, rather than judging every game ``bad-variant``."""
    from referee.registry import find_game

    game = find_game(variant.game)
    if game is None:
        raise _bad(variant.name, f"names unknown game {excerpt(variant.game)}")
    return game, apply_variant(game, game.ruleset(None), variant)


def card_changes(game: GameType, options: Any, variant: Variant) -> tuple[tuple[str, str, int], ...]:
    """The options' card changes with the variant's ``[cards]`` table laid over them: each card named as the game
    knows it (aliases allowed), each attribute one the game lets a variant change, each value a whole number from 0
    to ``MAX_CARD_VALUE``; sorted (card, attribute, value) triples, so equal changes give equal options."""
    if not game.card_attributes:
        raise _bad(variant.name, f"{game.title} takes no [cards] table (its rule options say what may change)")
    names = game.card_names(options)
    attributes = ", ".join(game.card_attributes)
    merged = {(card, attribute): value for card, attribute, value in getattr(options, CARD_OPTION)}
    for written, table in variant.cards.items():
        card = names.get(" ".join(written.lower().split()))
        if card is None:
            raise _bad(variant.name, f"[cards] names no card of {game.title}: {excerpt(written)}")
        if not isinstance(table, dict) or not table:
            raise _bad(variant.name, f'[cards."{card}"] is a table of changes ({attributes}), e.g. copies = 0')
        for attribute, value in table.items():
            if attribute not in game.card_attributes:
                raise _bad(variant.name, f'[cards."{card}"] {excerpt(attribute)} cannot be changed ({attributes})')
            if type(value) is not int or not 0 <= value <= MAX_CARD_VALUE:
                raise _bad(
                    variant.name,
                    f'[cards."{card}"] {attribute} takes a whole number from 0 to {MAX_CARD_VALUE}, not '
                    f"{shown_value(value)}",
                )
            merged[(card, attribute)] = value
    return tuple(sorted((card, attribute, value) for (card, attribute), value in merged.items()))


def resolve_options(
    game: GameType,
    ruleset: str | None,
    variant: str | None,
    base_dir: Path | None = None,
    policy: ReadPolicy = DEFAULT_POLICY,
) -> tuple[Any, str]:
    """Options for a game from its Ruleset and Variant tags, and a label naming them."""
    options = game.ruleset(ruleset)
    if options is None:
        raise malformed(
            RecordCode.UNKNOWN_RULESET,
            f"{game.title} has no ruleset {excerpt(ruleset or '')} (rulesets: {', '.join(game.rulesets)})",
        )
    label = ruleset or game.default_ruleset
    if variant:
        found = find_variant(variant, base_dir, policy, game)
        options = apply_variant(game, options, found)
        label += f" + {found.name}"
    return options, label


__all__ = [
    "RefereeError",
    "Variant",
    "apply_variant",
    "card_changes",
    "find_variant",
    "load_variant",
    "parse_variant",
    "record_tag",
    "registered_paths",
    "registered_variants",
    "resolve_options",
    "variant_rules",
]
