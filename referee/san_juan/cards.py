"""San Juan card data (1st edition, base game): the 29 buildings / 110 cards read from ``cards.csv``, the goods and
the five trading-house tiles. Data only: the rules that use it live in ``state.py``."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

GOODS = ("indigo", "sugar", "tobacco", "coffee", "silver")
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
