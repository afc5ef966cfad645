"""House-rule variants: a ruleset plus named option overrides, kept in small TOML files.

A variant file::

    name = "no-minimum"
    game = "saint-petersburg"
    ruleset = "2nd edition"          # the base; default: the game's default ruleset
    description = "Cards can become free."
    [options]
    min_price = 0

Registered variants are the ``*.toml`` files shipped in ``referee/variants/``; a record's ``Variant`` tag names one of
them or gives a path relative to the record file.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RecordCode, RefereeError, malformed
from referee.game import Game

VARIANT_DIR = Path(__file__).parent / "variants"


@dataclass(frozen=True)
class Variant:
    name: str
    game: str
    ruleset: str | None
    description: str
    options: dict[str, Any]
    path: Path


def load_variant(path: Path) -> Variant:
    """Read a variant file; raise ``bad-variant`` (with the reason) when it is not one."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise malformed(RecordCode.UNKNOWN_VARIANT, f"cannot read variant file {path}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise malformed(RecordCode.BAD_VARIANT, f"variant file {path} is not valid TOML: {exc}") from exc
    options = data.get("options", {})
    if not isinstance(options, dict) or "game" not in data:
        raise malformed(RecordCode.BAD_VARIANT, f"variant file {path} needs 'game' and an [options] table")
    return Variant(
        str(data.get("name", path.stem)),
        str(data["game"]),
        data.get("ruleset"),
        str(data.get("description", "")),
        options,
        path,
    )


def registered_variants() -> dict[str, Variant]:
    found = {}
    for path in sorted(VARIANT_DIR.glob("*.toml")):
        variant = load_variant(path)
        found[variant.name.lower()] = variant
    return found


def find_variant(reference: str, base_dir: Path | None = None) -> Variant:
    """A variant by registered name, or by path (relative to ``base_dir``, the record's folder)."""
    registered = registered_variants().get(reference.lower())
    if registered is not None:
        return registered
    candidate = Path(reference)
    if not candidate.is_absolute() and base_dir is not None:
        candidate = base_dir / candidate
    if candidate.is_file():
        return load_variant(candidate)
    known = ", ".join(sorted(registered_variants())) or "none"
    raise malformed(
        RecordCode.UNKNOWN_VARIANT,
        f"no variant '{reference}' (registered: {known}; or give a path relative to the record file)",
    )


def apply_variant(game: type[Game], base: Any, variant: Variant, keep_ruleset: bool = False) -> Any:
    """The base options with the variant's overrides, each checked against the option's name and type
    (``keep_ruleset``: the variant's own ``ruleset`` does not replace the base, as when a house rule is laid over
    records of several rulesets)."""
    from referee.registry import find_game

    if find_game(variant.game) is not game:
        raise malformed(RecordCode.BAD_VARIANT, f"variant '{variant.name}' is for {variant.game}, not {game.title}")
    if variant.ruleset is not None and not keep_ruleset:
        ruleset = game.ruleset(variant.ruleset)
        if ruleset is None:
            raise malformed(
                RecordCode.BAD_VARIANT, f"variant '{variant.name}' names unknown ruleset '{variant.ruleset}'"
            )
        base = ruleset
    fields = {f.name: f for f in dataclasses.fields(game.options_type)}
    changes: dict[str, Any] = {}
    for name, value in variant.options.items():
        if name not in fields:
            raise malformed(
                RecordCode.BAD_VARIANT,
                f"variant '{variant.name}': no rule option '{name}' in {game.title} (see 'referee options {game.id}')",
            )
        default = getattr(base, name)
        if isinstance(default, tuple) and isinstance(value, list):
            value = tuple(value)
        if type(value) is not type(default):
            raise malformed(
                RecordCode.BAD_VARIANT,
                f"variant '{variant.name}': option '{name}' takes {type(default).__name__}, got {value!r}",
            )
        changes[name] = value
    return dataclasses.replace(base, **changes)


def resolve_options(
    game: type[Game], ruleset: str | None, variant: str | None, base_dir: Path | None = None
) -> tuple[Any, str]:
    """Options for a game from its Ruleset and Variant tags, and a label naming them."""
    options = game.ruleset(ruleset)
    if options is None:
        raise malformed(
            RecordCode.UNKNOWN_RULESET,
            f"{game.title} has no ruleset '{ruleset}' (rulesets: {', '.join(game.rulesets)})",
        )
    label = ruleset or game.default_ruleset
    if variant:
        found = find_variant(variant, base_dir)
        options = apply_variant(game, options, found)
        label += f" + {found.name}"
    return options, label


__all__ = [
    "RefereeError",
    "Variant",
    "apply_variant",
    "find_variant",
    "load_variant",
    "registered_variants",
    "resolve_options",
]
