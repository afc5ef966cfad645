"""Professions, deck lists and the deck in play.

The 14 professions and their kinds are the game's; the numbers printed on the cards are data (a deck-list file,
because the real numbers are not publicly known). A card is ``(profession, number)``, written ``Iron Worker 6``.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from referee.record import made_once, normalise_name
from referee.santorini_new_york.board import DATA, DataError

DECK_LIST_DIR = DATA / "decklists"
DECK_LIST_KEYS = {"name", "provisional", "description", "source", "cards"}

ENGINEER, BUILDER, SPECIALIST, MOVER = "Engineer", "Builder", "Specialist", "Mover"
KINDS = (ENGINEER, BUILDER, SPECIALIST, MOVER)
PROFESSIONS: dict[str, str] = {
    "Engineer": ENGINEER,
    "Iron Worker": BUILDER,
    "Crane Operator": BUILDER,
    "Broadway Actor": BUILDER,
    "Firefighter": BUILDER,
    "Foreman": BUILDER,
    "NYPD Officer": SPECIALIST,
    "Night Guard": SPECIALIST,
    "Street Vendor": SPECIALIST,
    "Fashion Designer": SPECIALIST,
    "Reporter": SPECIALIST,
    "Subway Operator": MOVER,
    "Taxi Driver": MOVER,
    "Tour Bus Driver": MOVER,
}
FIRST_GAME_DECK = ("Engineer", "Iron Worker", "NYPD Officer", "Subway Operator")
ALIASES = {
    "ironworker": "Iron Worker",
    "crane": "Crane Operator",
    "actor": "Broadway Actor",
    "fire fighter": "Firefighter",
    "fire-fighter": "Firefighter",
    "nypd": "NYPD Officer",
    "police officer": "NYPD Officer",
    "nightguard": "Night Guard",
    "vendor": "Street Vendor",
    "designer": "Fashion Designer",
    "subway": "Subway Operator",
    "taxi": "Taxi Driver",
    "tour bus": "Tour Bus Driver",
    "tourbus driver": "Tour Bus Driver",
    "bus driver": "Tour Bus Driver",
}
# Lower-case name or alias -> profession (what card_lookup reads).
NAME_TABLE: dict[str, str] = {normalise_name(name.split()): name for name in PROFESSIONS} | ALIASES

Card = tuple[str, int]


def card_text(card: Card) -> str:
    return f"{card[0]} {card[1]}"


def card_order(card: Card) -> tuple[int, str]:
    return (card[1], card[0])


class DeckMixError(DataError):
    """Known professions that break the rules' mix (two Builders, no Mover, …): a broken rule, not bad data."""


def profession_named(text: str) -> str:
    """The profession a name or alias stands for; DataError with a did-you-mean otherwise."""
    key = normalise_name(text.split())
    found = NAME_TABLE.get(key)
    if found is None:
        close = difflib.get_close_matches(key, list(NAME_TABLE), n=1, cutoff=0.6)
        hint = f"; did you mean '{NAME_TABLE[close[0]]}'?" if close else ""
        raise DataError(f"no profession called {text.strip()!r}{hint}", item=text.strip())
    return found


@dataclass(frozen=True)
class DeckList:
    """The numbers printed on the cards of each profession."""

    name: str
    provisional: bool
    description: str
    numbers: dict[str, tuple[int, ...]]


def load_deck_list(text: str) -> DeckList:
    """Read and check a deck-list file; raise DataError saying what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"not valid TOML: {exc}") from None
    unknown = sorted(set(data) - DECK_LIST_KEYS)
    if unknown:
        raise DataError(f"unknown key(s) {', '.join(unknown)} (a deck list has: {', '.join(sorted(DECK_LIST_KEYS))})")
    name, provisional, description = data.get("name"), data.get("provisional", False), data.get("description", "")
    if not isinstance(name, str) or not name.strip():
        raise DataError("'name' (a non-empty string) is missing")
    if not isinstance(provisional, bool) or not isinstance(description, str):
        raise DataError("'provisional' is true or false and 'description' a string")
    table = data.get("cards")
    if not isinstance(table, dict) or not table:
        raise DataError("'[cards]' (profession = [numbers]) is missing")
    numbers: dict[str, tuple[int, ...]] = {}
    for key, value in table.items():
        profession = profession_named(key)
        if profession in numbers:
            raise DataError(f"{profession} is listed twice")
        if not isinstance(value, list) or not value or not all(type(v) is int and v > 0 for v in value):
            raise DataError(f"{profession}: a list of positive whole numbers, like [2, 6, 10]")
        if len(set(value)) != len(value):
            raise DataError(f"{profession}: each number once (each card is unique)")
        numbers[profession] = tuple(sorted(value))
    return DeckList(name.strip(), provisional, description, numbers)


# Checked decks and their cards, per deck list by identity (a deck list is read once per distinct file text, and the
# games of a file name the same few decks): every game's setup asks. Each entry holds its deck list, so the id stays
# its own; a deck that fails is checked again each time.
# (names, id(deck list), ...) -> ((the deck list,), what is made of them): see ``made_once``
_DECKS: dict[tuple[tuple[str, ...], int, bool], tuple[tuple[object, ...], tuple[str, ...]]] = {}
_CARDS: dict[tuple[tuple[str, ...], int], tuple[tuple[object, ...], tuple[Card, ...]]] = {}
DECKS_KEPT = 64


def check_deck(names: tuple[str, ...], deck_list: DeckList, unique_numbers: bool) -> tuple[str, ...]:
    """The professions of a Deck tag, canonical and in kind order; DataError unless it is the Engineer plus exactly
    one Builder, one Specialist and one Mover (DeckMixError when not), each printed in the deck list (and, by
    default, with unique numbers)."""
    key = (names, id(deck_list), unique_numbers)
    return made_once(_DECKS, key, (deck_list,), lambda: _check_deck(names, deck_list, unique_numbers), DECKS_KEPT)


def deck_professions(names: tuple[str, ...]) -> tuple[str, ...]:
    """The professions of a Deck tag, canonical and in kind order — what needs no deck list: DataError for an
    unknown one, DeckMixError unless they are the Engineer plus exactly one Builder, one Specialist and one Mover."""
    found = [profession_named(name) for name in names]
    by_kind: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for profession in found:
        by_kind[PROFESSIONS[profession]].append(profession)
    for kind, members in by_kind.items():
        if len(members) != 1:
            what = "the Engineer once" if kind == ENGINEER else f"exactly one {kind}"
            got = ", ".join(members) or "none"
            raise DeckMixError(f"a deck holds {what} (got {got}); e.g. {', '.join(FIRST_GAME_DECK)}")
    return tuple(by_kind[kind][0] for kind in KINDS)


def _check_deck(names: tuple[str, ...], deck_list: DeckList, unique_numbers: bool) -> tuple[str, ...]:
    deck = deck_professions(names)
    missing = [profession for profession in deck if profession not in deck_list.numbers]
    if missing:
        raise DataError(f"the deck list {deck_list.name!r} prints no cards for {', '.join(missing)}")
    if unique_numbers:
        seen: dict[int, str] = {}
        for profession in deck:
            for number in deck_list.numbers[profession]:
                if number in seen:
                    raise DataError(
                        f"{seen[number]} {number} and {profession} {number} share a number; card numbers are unique "
                        "within a deck (a tie would be a record error)"
                    )
                seen[number] = profession
    return deck


def deck_cards(deck: tuple[str, ...], deck_list: DeckList) -> tuple[Card, ...]:
    """Every card of the deck in play, lowest number first."""
    return made_once(
        _CARDS,
        (deck, id(deck_list)),
        (deck_list,),
        lambda: tuple(sorted(((p, n) for p in deck for n in deck_list.numbers[p]), key=card_order)),
        DECKS_KEPT,
    )


@cache
def shipped_deck_lists() -> dict[str, Path]:
    """The deck lists shipped with the game, by lower-case name; listed once per process (do not change the dict)."""
    return {path.stem.lower(): path for path in sorted(DECK_LIST_DIR.glob("*.toml"))}


@cache
def parse_deck_list_text(text: str) -> DeckList:
    return load_deck_list(text)


def shipped_deck_list(name: str) -> DeckList:
    path = shipped_deck_lists().get(name.strip().lower())
    if path is None:
        raise DataError(f"no shipped deck list {name!r} (shipped: {', '.join(shipped_deck_lists())})")
    return parse_deck_list_text(path.read_text(encoding="utf-8"))
