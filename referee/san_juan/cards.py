"""San Juan card data (1st edition, base game): the 29 buildings / 110 cards read from ``cards.csv``, the goods and
the five trading-house tiles. Data only: the rules that use it live in ``state.py``."""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

GOODS = ("indigo", "sugar", "tobacco", "coffee", "silver")
GOOD_INDEX = {good: k for k, good in enumerate(GOODS)}  # GOODS.index as a table (a tile's price of each good)
MONUMENTS = ("Statue", "Victory Column", "Hero")

# Cards drawn per good sold (indigo, sugar, tobacco, coffee, silver), written as in the record: "1-1-2-2-3".
TILES: dict[str, tuple[int, ...]] = {
    "1-1-1-2-2": (1, 1, 1, 2, 2),
    "1-1-2-2-2": (1, 1, 2, 2, 2),
    "1-1-2-2-3": (1, 1, 2, 2, 3),
    "1-2-2-2-3": (1, 2, 2, 2, 3),
    "1-2-2-3-3": (1, 2, 2, 3, 3),
}


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    production: bool  # production building (holds one good) or violet building
    cost: int
    vp: int  # printed VP (the cost-6 cards print "?": 0 here, see options.palace_vp)
    copies: int
    good: str  # the good a production building holds, "" for violet buildings
    ability: str

    @property
    def violet(self) -> bool:
        return not self.production


def _load() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    with open(Path(__file__).with_name("cards.csv"), newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            cards[row["name"]] = Card(
                row["name"],
                row["kind"] == "production",
                int(row["cost"]),
                int(row["vp"]),
                int(row["copies"]),
                row["good"],
                row["ability"],
            )
    return cards


CARDS: dict[str, Card] = _load()
TOTAL_CARDS = sum(card.copies for card in CARDS.values())
BUILDING_OF_GOOD: dict[str, str] = {card.good: card.name for card in CARDS.values() if card.production}

# Accepted spellings (lower case) -> canonical name.
ALIASES = {
    "indigo dye works": "Indigo Plant",
    "indigo": "Indigo Plant",
    "indigo plantation": "Indigo Plant",
    "sugar refinery": "Sugar Mill",
    "tobacco store": "Tobacco Storage",
    "tobacco storehouse": "Tobacco Storage",
    "coffee roastery": "Coffee Roaster",
    "silver smeltery": "Silver Smelter",
    "silver mine": "Silver Smelter",
    "goldmine": "Gold Mine",
    "poorhouse": "Poor House",
    "blackmarket": "Black Market",
    "tradingpost": "Trading Post",
    "marketstand": "Market Stand",
    "markethall": "Market Hall",
    "guildhall": "Guild Hall",
    "guild house": "Guild Hall",
    "cityhall": "City Hall",
    "town hall": "City Hall",
    "triumph arch": "Triumphal Arch",
    "arch of triumph": "Triumphal Arch",
    "triumphal arc": "Triumphal Arch",
    "victory column": "Victory Column",
    "column": "Victory Column",
    "smithy's": "Smithy",
    "blacksmith": "Smithy",
    "statue of liberty": "Statue",
    "hero statue": "Hero",
}

NAME_TABLE: dict[str, str] = {name.lower(): name for name in CARDS}
NAME_TABLE.update(ALIASES)

# What a house rule's [cards] table may change (docs/variants.md).
CARD_ATTRIBUTES = {
    "copies": "copies of the building among the cards (0 removes it)",
    "cost": "printed building cost",
    "vp": "printed VP",
}


@cache
def card_table(changes: tuple[tuple[str, str, int], ...] = ()) -> dict[str, Card]:
    """The card table with a house rule's card changes (cached: every state of the same rules shares it)."""
    if not changes:
        return CARDS
    table = dict(CARDS)
    for name, attribute, value in changes:
        changed: dict[str, Any] = {attribute: value}
        table[name] = replace(table[name], **changed)
    return table


def tile_prices(tile: str) -> tuple[int, ...] | None:
    """The cards per good sold of a trading-house tile written "1-1-2-2-3" (one whole number per good), or None."""
    parts = tile.split("-")
    if len(parts) != len(GOODS) or not all(part.isdigit() and len(part) <= 2 for part in parts):
        return None
    return tuple(int(part) for part in parts)


@cache
def tile_table(tiles: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """The trading-house tiles in play (``SJOptions.trading_tiles``), each with its cards per good sold."""
    return {tile: prices for tile in tiles if (prices := tile_prices(tile)) is not None}
