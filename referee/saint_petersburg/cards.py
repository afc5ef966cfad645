"""Saint Petersburg card data: the 116 cards of the 2nd edition, read from ``cards.csv``, and the 1st-edition deltas."""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

DECKS = ("workers", "buildings", "aristocrats", "upgrades")
PHASES = ("worker", "building", "aristocrat", "upgrade")
COLOUR_OF_DECK = {"worker": "green", "building": "blue", "aristocrat": "red"}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card of a ruleset's table; each is a single shared object, so identity is equality (fast `in`)."""

    name: str
    deck: str  # one of DECKS: the deck it is dealt from
    colour: str  # green (worker), blue (building), red (aristocrat): where it scores
    upgrade: bool
    copies: int
    cost: int
    rubles: int
    vp: int
    symbol: str  # worker symbol ("any" for Czar & Carpenter), "" otherwise
    special: str


def _load() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    with open(Path(__file__).with_name("cards.csv"), newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            kind = row["deck"]
            upgrade = kind.startswith("upgrade-")
            colour = kind.split("-")[1] if upgrade else COLOUR_OF_DECK[kind]
            cards[row["name"]] = Card(
                name=row["name"],
                deck="upgrades" if upgrade else kind + "s",
                colour=colour,
                upgrade=upgrade,
                copies=int(row["copies"]),
                cost=int(row["cost"]),
                rubles=int(row["rubles"]),
                vp=int(row["vp"]),
                symbol=row["symbol"],
                special=row["special"],
            )
    return cards


SECOND_EDITION: dict[str, Card] = _load()

# 1st edition (2004): different costs, and the Mariinsky pays rubles (see the option mariinsky_rubles).
FIRST_EDITION_COSTS = {"Observatory": 6, "Judge": 16, "Mistress of Ceremonies": 18, "Mariinsky Theater": 10}
FIRST_EDITION_SPECIALS = {"Mariinsky Theater": "+1 ruble per red card of its owner at building scoring"}
FIRST_EDITION: dict[str, Card] = {
    name: replace(
        card,
        cost=FIRST_EDITION_COSTS.get(name, card.cost),
        special=FIRST_EDITION_SPECIALS.get(name, card.special),
    )
    for name, card in SECOND_EDITION.items()
}

# Accepted spellings (lower case) -> canonical name; the 1st-edition names are accepted in every ruleset.
ALIASES = {
    "czar and carpenter": "Czar & Carpenter",
    "tsar & carpenter": "Czar & Carpenter",
    "tsar and carpenter": "Czar & Carpenter",
    "potjomkin's village": "Potemkin Village",
    "potjomkin village": "Potemkin Village",
    "potemkin's village": "Potemkin Village",
    "st. isaac's cathedral": "St Isaac's Cathedral",
    "saint isaac's cathedral": "St Isaac's Cathedral",
    "st isaacs cathedral": "St Isaac's Cathedral",
    "mariinsky theatre": "Mariinsky Theater",
    "mariinsky": "Mariinsky Theater",
    "theatre": "Theater",
    "harbour": "Harbor",
    "pope": "Abbot",
    "czar": "Czarina",
    "tsarina": "Czarina",
    "chambermaid": "Chamber Maid",
    "church of the resurrection": "Church of the Resurrection of Jesus Christ",
    "catherine palace": "Catherine the Great Palace",
    "shipbuilder": "Ship Builder",
    "goldminer": "Gold Miner",
    "mistress of ceremony": "Mistress of Ceremonies",
}

NAME_TABLE: dict[str, str] = {name.lower(): name for name in SECOND_EDITION}
NAME_TABLE.update(ALIASES)

# What a house rule's [cards] table may change (docs/variants.md).
CARD_ATTRIBUTES = {
    "copies": "copies of the card in its deck (0 removes it)",
    "cost": "printed cost in rubles",
    "rubles": "rubles it pays at its phase scoring",
    "vp": "VP it scores at its phase scoring",
}


@cache
def card_table(edition: int, changes: tuple[tuple[str, str, int], ...] = ()) -> dict[str, Card]:
    """The card table of an edition with a house rule's card changes: one shared object per card, as identity is
    equality (cached, so every state of the same rules shares it)."""
    base = FIRST_EDITION if edition == 1 else SECOND_EDITION
    if not changes:
        return base
    table = dict(base)
    for name, attribute, value in changes:
        changed: dict[str, Any] = {attribute: value}
        table[name] = replace(table[name], **changed)
    return table


VARIETY_TABLE = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55)
