"""The data the code holds against the rules references beside the project (the team's checkout,
/work/shared/rules): Saint Petersburg's card table of both editions and its numbers, San Juan's card table,
Santorini: New York's professions, deck composition, deck lists and boards. Each table is parsed from the
reference's own text, so a change on either side shows here; every test skips when its reference is absent.

Santorini's ability texts are not compared word for word: the reference paraphrases the cards, and the code keeps
no copy of that text (``Profession.clauses`` are the referee's rulings in its own words). What the reference states
as data about them — kind, first-game deck, "must" cards, the Broadway Actor's whole-turn "if possible" — is.
"""

from __future__ import annotations

import difflib
import itertools
import re
from pathlib import Path

import pytest

from referee.record import normalise_name
from referee.saint_petersburg import cards as sp_cards
from referee.saint_petersburg.cards import Card, card_table
from referee.saint_petersburg.options import FIRST_EDITION as SP_FIRST_EDITION
from referee.saint_petersburg.options import SECOND_EDITION as SP_SECOND_EDITION
from referee.saint_petersburg.options import SPOptions
from referee.san_juan.cards import CARDS as SJ_CARDS
from referee.santorini_new_york import cards as sny_cards
from referee.santorini_new_york.board import shipped_board, shipped_boards
from referee.santorini_new_york.options import SNYOptions
from referee.santorini_new_york.professions import PROFESSIONS as SNY_RULES

SP_TABLE_HEADER = "`deck,name,copies,cost,rubles,vp,symbol,special`\n```\n"


# ------------------------------------------------------------------------------------------------ helpers
def reference(name: str) -> str:
    """The text of a rules reference; the test skips when it is not beside this checkout."""
    path = Path(__file__).resolve().parent.parent.parent / "shared" / "rules" / name
    if not path.is_file():
        pytest.skip("the rules reference is not beside this checkout")
    return path.read_text(encoding="utf-8")


def section(text: str, number: int) -> str:
    """The body of section ``## N.`` of a reference (without its heading) up to the next one, its lines kept."""
    return text.split(f"\n## {number}. ")[1].split("\n## ")[0].split("\n", 1)[1]


def flat(text: str) -> str:
    """Text with every run of whitespace (line breaks included) made one space, for phrases that wrap."""
    return " ".join(text.split())


def found(pattern: str, text: str) -> re.Match[str]:
    """The first match of ``pattern`` in ``text``; fails the test when the reference no longer says it."""
    match = re.search(pattern, text)
    assert match is not None, f"the reference no longer matches {pattern!r}"
    return match


def sp_reference_rows(text: str) -> list[list[str]]:
    """The reference's Saint Petersburg card table (section 2), one list of fields per line."""
    table = text.split(SP_TABLE_HEADER)[1].split("```")[0]
    return [line.split(",", 7) for line in table.splitlines()]


def sp_row(card: Card) -> list[str]:
    """A card of the code's table in the reference's columns (deck kind, name, copies, cost, rubles, VP, symbol,
    special)."""
    kind = f"upgrade-{card.colour}" if card.upgrade else card.deck.removesuffix("s")
    fields = (card.copies, card.cost, card.rubles, card.vp)
    return [kind, card.name, *(str(value) for value in fields), card.symbol, card.special]


def sp_first_edition_costs(text: str) -> dict[str, int]:
    """Section 6's cost deltas: 'Observatory cost 6; Judge 16; ...' up to the renamed cards."""
    deltas = flat(section(text, 6)).split("; names ")[0]
    costs: dict[str, int] = {}
    for part in deltas.split("; "):
        match = found(r"^([A-Z][\w ]+?)(?: cost)? (\d+)\b", part)
        costs[match.group(1)] = int(match.group(2))
    return costs


# ------------------------------------------------------------------------------------------------ Saint Petersburg
def test_sp_second_edition_cards_are_the_reference_table() -> None:
    """The 2nd-edition card table (cards.csv as loaded) against section 2, row by row: deck kind, name, copies,
    cost, rubles, VP, symbol and special text."""
    rows = sp_reference_rows(reference("saint-petersburg.md"))
    assert [sp_row(card) for card in card_table(2).values()] == rows
    assert card_table(2) is sp_cards.SECOND_EDITION


def test_sp_first_edition_cards_are_the_reference_table_with_its_deltas() -> None:
    """The 1st-edition table is section 2's with section 6's costs (every other number the same), and the 1st
    edition's Mariinsky pays rubles and its first worker phase is an ordinary one (section 6)."""
    text = reference("saint-petersburg.md")
    rows = sp_reference_rows(text)
    costs = sp_first_edition_costs(text)
    assert set(costs) <= {row[1] for row in rows}
    assert costs == sp_cards.FIRST_EDITION_COSTS
    expected = [[*row[:3], str(costs.get(row[1], row[3])), *row[4:7]] for row in rows]
    assert [sp_row(card)[:7] for card in card_table(1).values()] == expected
    assert card_table(1) is sp_cards.FIRST_EDITION
    deltas = flat(section(text, 6))
    found(
        r"Mariinsky Theater cost \d+ and \+1 \*\*ruble\*\* per aristocrat \(at building scoring\) instead of VP", deltas
    )
    assert (SP_FIRST_EDITION.mariinsky_rubles, SP_SECOND_EDITION.mariinsky_rubles) == (True, False)
    assert "ruble" in card_table(1)["Mariinsky Theater"].special and "VP" in card_table(2)["Mariinsky Theater"].special
    found(r"Round-1 worker phase: normal actions \(passing and taking are allowed\)", deltas)
    assert not SP_FIRST_EDITION.first_worker_phase_buy_only and SP_SECOND_EDITION.first_worker_phase_buy_only


def test_sp_first_edition_names_are_read_as_their_cards() -> None:
    """Section 6's 1st-edition names ('Pope (= Abbot)', or a spelling of a 2nd-edition name) name their cards."""
    text = reference("saint-petersburg.md")
    names = [row[1] for row in sp_reference_rows(text)]
    listed = found(r"; names (.+?)\. ", flat(section(text, 6))).group(1).split(", ")
    assert len(listed) == 4
    for entry in listed:
        alias = re.fullmatch(r"(.+?) \(= (.+)\)", entry)
        old, new = alias.groups() if alias else (entry, difflib.get_close_matches(entry, names, n=1, cutoff=0.6)[0])
        assert sp_cards.NAME_TABLE.get(normalise_name(old.split())) == new, entry


def test_sp_decks_are_the_reference_components() -> None:
    """Section 1: the four decks in order, each deck's colour and card count, the upgrades' faces and the total."""
    components = flat(section(reference("saint-petersburg.md"), 1))
    decks = re.findall(r"\*\*(\w+)\*\* \(([\w ]+?), (\d+)", components)
    assert tuple(deck for deck, _, _ in decks) == sp_cards.DECKS
    cards = list(card_table(2).values())
    sizes = {deck: sum(c.copies for c in cards if c.deck == deck) for deck in sp_cards.DECKS}
    assert sizes == {deck: int(count) for deck, _, count in decks}
    colours = {deck: {c.colour for c in cards if c.deck == deck} for deck in sp_cards.DECKS if deck != "upgrades"}
    assert colours == {deck: {colour} for deck, colour, _ in decks if deck != "upgrades"}
    faces = found(r"(\d+) green, (\d+) blue, (\d+) red faces", components).groups()
    upgrades = {
        colour: sum(c.copies for c in cards if c.upgrade and c.colour == colour)
        for colour in sp_cards.COLOUR_OF_DECK.values()
    }
    assert upgrades == {"green": int(faces[0]), "blue": int(faces[1]), "red": int(faces[2])}
    assert all(c.upgrade == (c.deck == "upgrades") for c in cards)
    assert sum(sizes.values()) == int(found(r"(\d+) cards\.", components).group(1))


def test_sp_variety_table_is_the_reference_scale() -> None:
    """Section 5's aristocrat-variety scale (1, 3, 6, ... for 1..10+ distinct aristocrats, capped) is the table of
    cards.py and the variety_table of both editions (index 0: no aristocrat, 0 VP)."""
    end = flat(section(reference("saint-petersburg.md"), 5))
    match = found(r"([\d,]+) for 1\.\.(\d+)\+, capped at (\d+)", end)
    scale = (0, *(int(vp) for vp in match.group(1).split(",")))
    assert len(scale) == int(match.group(2)) + 1 and scale[-1] == int(match.group(3))
    assert scale == sp_cards.VARIETY_TABLE
    assert SP_SECOND_EDITION.variety_table == SP_FIRST_EDITION.variety_table == scale


def test_sp_rule_numbers_are_the_reference_numbers() -> None:
    """The numbers sections 1, 3, 4 and 5 print (start money, display, first deal, minimum price, hand limits,
    Potemkin value, Pub price and cap, final conversion and hand penalty) are the options of both editions."""
    text = flat(reference("saint-petersburg.md"))
    pub = found(r"buy VP \((\d+) rubles each, up to (\d+) per Pub", text)
    hand = found(r"Hand limit (\d+), (\d+) with the Warehouse", text)
    expected = {
        "start_rubles": found(r"Money: (\d+) rubles per player at the start", text).group(1),
        "display_size": found(r"(\d+) cards in total at the start of every phase", text).group(1),
        "first_deal_per_player": found(r"the round-1 worker phase deals (\d+) × players cards", text).group(1),
        "min_price": found(r"never below (\d+) ruble", text).group(1),
        "hand_limit": hand.group(1),
        "warehouse_hand_limit": hand.group(2),
        "potemkin_value": found(r"Potemkin Village counts (\d+)\)", text).group(1),
        "pub_vp_price": pub.group(1),
        "pub_max_vp": pub.group(2),
        "rubles_per_vp": found(r"\+ 1 VP per full (\d+) rubles", text).group(1),
        "hand_penalty": found(r"− (\d+) VP per card in hand", text).group(1),
    }
    for options in (SP_SECOND_EDITION, SP_FIRST_EDITION):
        assert {name: str(getattr(options, name)) for name in expected} == expected
    assert SPOptions() == SP_SECOND_EDITION


# ------------------------------------------------------------------------------------------------ Santorini: New York
def sny_professions(text: str) -> tuple[dict[str, list[str]], set[str]]:
    """Section 5's professions by kind ('Builders (one set):' -> 'Builder'), in the reference's order, and those
    marked '(first game)'."""
    by_kind: dict[str, list[str]] = {}
    first_game: set[str] = set()
    kind = ""
    for line in section(text, 5).splitlines():
        heading = re.fullmatch(r"(\w+) \(.*\):", line)
        if heading:
            kind = heading.group(1).removesuffix("s")
            by_kind[kind] = []
        bullet = re.match(r"- \*\*(.+?)\*\*( \(first game\))? — ", line)
        if bullet:
            by_kind[kind].append(bullet.group(1))
            if bullet.group(2):
                first_game.add(bullet.group(1))
    return by_kind, first_game


def sny_counts(text: str) -> dict[str, int]:
    """Section 1's deck: how many cards of each kind's profession it holds (7 Engineers, 6 of the others)."""
    deck = flat(section(text, 1))
    match = found(
        r"all (\d+) \*\*Engineer\*\* cards \+ all (\d+) cards of \*\*one\*\* Builder profession \+ (\d+) of one "
        r"Specialist \+ (\d+) of one Mover",
        deck,
    )
    kinds = (sny_cards.ENGINEER, sny_cards.BUILDER, sny_cards.SPECIALIST, sny_cards.MOVER)
    return {kind: int(count) for kind, count in zip(kinds, match.groups(), strict=True)}


def test_sny_professions_are_the_reference_professions_by_kind() -> None:
    """Section 5's 14 professions and their kinds (Engineer, Builders, Specialists, Movers) are cards.PROFESSIONS
    (in the reference's order within a kind) and the professions' rule table."""
    by_kind, _ = sny_professions(reference("santorini-new-york.md"))
    assert set(by_kind) == set(sny_cards.KINDS)
    ours = {kind: [p for p, k in sny_cards.PROFESSIONS.items() if k == kind] for kind in by_kind}
    assert ours == by_kind
    assert {name: rule.name for name, rule in SNY_RULES.items()} == {p: p for p in itertools.chain(*by_kind.values())}


def test_sny_first_game_deck_is_the_reference_one() -> None:
    """The first-game deck of section 1 ('First games: ...') and of section 5's '(first game)' marks is
    FIRST_GAME_DECK and the default Deck option."""
    text = reference("santorini-new-york.md")
    listed = set(found(r"First games: (.+?)\.", flat(section(text, 1))).group(1).split(", "))
    _, marked = sny_professions(text)
    assert listed == marked | {sny_cards.ENGINEER}
    assert set(sny_cards.FIRST_GAME_DECK) == listed and len(sny_cards.FIRST_GAME_DECK) == len(listed)
    assert SNYOptions().deck == sny_cards.FIRST_GAME_DECK


def test_sny_deck_lists_print_the_reference_card_counts() -> None:
    """Every shipped deck list prints section 1's number of cards for every profession (7 Engineers, 6 of each other
    profession), numbers unique within every legal deck (section 2), a whole deck dealing 5 cards to each of the most
    players (ruling 14); the shipped default numbering is 'provisional' and marked so (section 6)."""
    text = reference("santorini-new-york.md")
    counts = sny_counts(text)
    players = int(found(r"(\d)–(\d) players", text).group(2))
    hand = int(found(r"deal (\d+) cards to each player", flat(section(text, 1))).group(1))
    found(r"Ship a provisional numbering \(unique numbers\)", flat(section(text, 6)))
    assert SNYOptions().deck_list == "provisional" and sny_cards.shipped_deck_list("provisional").provisional
    by_kind, _ = sny_professions(text)
    for name in sny_cards.shipped_deck_lists():
        deck_list = sny_cards.shipped_deck_list(name)
        printed = {p: len(deck_list.numbers.get(p, ())) for kinds in by_kind.values() for p in kinds}
        assert printed == {p: counts[kind] for kind, kinds in by_kind.items() for p in kinds}, name
        for deck in itertools.product(*(by_kind[kind] for kind in sny_cards.KINDS)):
            assert sny_cards.check_deck(deck, deck_list, unique_numbers=True) == deck
            numbers = [number for _, number in sny_cards.deck_cards(deck, deck_list)]
            assert len(numbers) == len(set(numbers)) == sum(counts.values()) == players * hand, (name, deck)


def test_sny_shipped_boards_are_the_reference_ones() -> None:
    """Section 6's boards: a provisional 'manhattan' map (the default Board) and a plain w×h map are shipped; every
    shipped board has a starting pair (two different spaces) for each of the most players (section 1)."""
    text = reference("santorini-new-york.md")
    match = found(r"provisional `(\w+)` map plus a plain (\d+)×(\d+) map", flat(section(text, 6)))
    default, width, height = match.group(1), int(match.group(2)), int(match.group(3))
    assert SNYOptions().board == default and shipped_board(default).provisional
    boards = [shipped_board(name) for name in shipped_boards()]
    plain = [b for b in boards if (b.width, b.height, len(b.spaces)) == (width, height, width * height)]
    assert plain, f"no plain {width}×{height} board is shipped"
    players = int(found(r"(\d)–(\d) players", text).group(2))
    for board in boards:
        assert set(range(1, players + 1)) <= set(board.starts), board.name
        cells = [cell for pair in board.starts.values() for cell in pair]
        assert len(cells) == len(set(cells)) and set(cells) <= board.spaces, board.name


def test_sny_must_cards_and_whole_turn_effects_are_the_reference_ones() -> None:
    """Ruling 11's 'must' cards (Iron Worker, Crane Operator, Foreman, the Movers) are the professions whose unmet
    card costs a worker, and [D2]'s exception (the Broadway Actor) is the only one whose 'if possible' covers the whole
    turn."""
    text = reference("santorini-new-york.md")
    by_kind, _ = sny_professions(text)
    listed = found(r'\*\*"Must" cards\*\* \((.+?)\)', flat(section(text, 8))).group(1).split(", ")
    must: set[str] = set()
    for entry in listed:
        kind = entry.removeprefix("the ").removesuffix("s")
        must |= set(by_kind[kind]) if entry.startswith("the ") else {entry}
    assert {name for name, rule in SNY_RULES.items() if rule.must} == must
    whole = found(r'except the (.+?), whose "if possible" covers the whole turn', flat(section(text, 7))).group(1)
    assert {name for name, rule in SNY_RULES.items() if rule.whole_turn} == {whole}


def test_sny_hand_numbers_are_the_reference_numbers() -> None:
    """Section 1 deals 5 cards to each player; section 2 refills every 4 rounds with 4 cards (hands back to 5)."""
    text = reference("santorini-new-york.md")
    hand = int(found(r"deal (\d+) cards to each player", flat(section(text, 1))).group(1))
    refill = found(
        r"Every (\d+) rounds, when every hand is down to (\d+) card: shuffle the discard pile and deal (\d+) to each "
        r"player \(hands back to (\d+)\)",
        flat(section(text, 2)),
    )
    period, left, dealt, back = (int(n) for n in refill.groups())
    options = SNYOptions()
    assert (options.hand_size, options.refill_period, options.refill_size) == (hand, period, dealt)
    assert back == hand and left + dealt == back and hand - period == left


# ------------------------------------------------------------------------------------------------ San Juan
def test_sj_cards_are_the_reference_table() -> None:
    """cards.csv against section 2's table: name, kind, cost, VP, copies and ability, row by row."""
    text = reference("san-juan.md")
    table = text.split("`name,kind,cost,vp,copies,ability`\n```\n")[1].split("```")[0]
    rows = [line.split(",", 5) for line in table.splitlines()]
    ours = [
        [c.name, "production" if c.production else "violet", str(c.cost), str(c.vp), str(c.copies), c.ability]
        for c in SJ_CARDS.values()
    ]
    assert ours == rows
