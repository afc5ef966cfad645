"""House-rule variants: card changes and the new rule options in the rules, the generator and the proofs; records
legal only under a house rule; validation errors located at the Variant tag; the registered variants."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from referee.errors import RefereeError, Verdict
from referee.registry import find_game
from referee.replay import check_file, check_text
from referee.saint_petersburg import SaintPetersburg
from referee.san_juan import SanJuan
from referee.santorini_new_york import SantoriniNewYork
from referee.variant import apply_variant, parse_variant, registered_variants

HEAD = '[Game "Saint Petersburg"]\n[Players "Anna, Boris"]\n'
OPENING = """tokens: Anna worker aristocrat, Boris building upgrade
round 1
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
Anna: buy Shepherd for 5
Boris: buy Gold Miner for 4
"""


def options_of(game, text: str):
    return apply_variant(game, game.ruleset(None), parse_variant(text, "test"))


def sp(text: str):
    return options_of(SaintPetersburg, 'game = "saint-petersburg"\n' + text)


def sj(text: str):
    return options_of(SanJuan, 'game = "san-juan"\n' + text)


# ------------------------------------------------------------------------- legal only under the house rule
def without_variant(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("[Variant "))


def line_text(text: str, number: int) -> str:
    return text.splitlines()[number - 1]


@pytest.mark.parametrize(
    ("game", "variant", "seed", "code", "pattern"),
    [
        # the Market costs 4: the first Market bought is priced one ruble below the printed cost
        (SaintPetersburg, "sp-cheap-market", 1, "sp-price-mismatch", r": buy (upper |lower )?Market "),
        # the game ends at 10 buildings: under the printed rules the game goes on, and the final claim is misplaced
        (SanJuan, "sj-ten-buildings", 2, "final-misplaced", r"^final: "),
        # a refill every 3 rounds: under the printed rules it is due after round 4, not 3
        (SantoriniNewYork, "sny-fast-refill", 3, "sny-misplaced-hand", r"^hand "),
    ],
)
def test_a_record_legal_only_under_a_house_rule(game, variant, seed, code, pattern) -> None:
    options = apply_variant(game, game.ruleset(None), registered_variants()[variant])
    text = game.play(["Anna", "Boris", "Clara"], random.Random(seed), options, {"Variant": variant})
    assert f'[Variant "{variant}"]' in text
    (report,) = check_text(text)
    assert report.verdict is Verdict.VALID, report.error
    (plain,) = check_text(without_variant(text))
    assert plain.verdict is Verdict.ILLEGAL, plain.verdict
    assert plain.error.code == code, plain.error
    # the line where the rules differ: the first line of its kind that the house rule changes
    offending = line_text(without_variant(text), plain.error.line)
    assert re.search(pattern, offending), offending


def test_sp_record_illegal_at_the_line_where_the_rules_differ() -> None:
    """A hand-written record: Market at 4 rubles is accepted under the house rule, a price claim error without."""
    body = (
        OPENING
        + "Anna: buy Lumberjack for 3\nBoris: buy Lumberjack for 3\nbuilding phase\n"
        + "deal: Market, Market, Customs House, Firehouse, Hospital, Library, Theater, Academy\n"
        + "Boris: buy Market for 4\n"
    )
    (house,) = check_text(HEAD + '[Variant "sp-cheap-market"]\n' + body)
    assert house.verdict is Verdict.UNFINISHED, house.error
    (plain,) = check_text(HEAD + body)
    assert (plain.verdict, plain.error.code, plain.error.line) == (Verdict.ILLEGAL, "sp-price-mismatch", 13)


# -------------------------------------------------------------------------------------- card changes
def test_card_changes_are_options_the_rules_read() -> None:
    options = sp('[cards."pub"]\ncopies = 0\n[cards.Market]\ncost = 4\nvp = 2\n[cards."Lumberjack"]\nrubles = 4\n')
    assert options.cards == (
        ("Lumberjack", "rubles", 4),
        ("Market", "cost", 4),
        ("Market", "vp", 2),
        ("Pub", "copies", 0),
    )
    state = SaintPetersburg.new_state(["Anna", "Boris"], options)
    assert state.decks["buildings"]["Pub"] == 0 and state.deck_size["buildings"] == 28 - 2
    assert state.price(0, state.cards["Market"], False, None) == 4
    assert state.cards["Market"].vp == 2 and state.cards["Lumberjack"].rubles == 4
    # the same changes give the same (cached, shared) card table
    assert SaintPetersburg.new_state(["Anna", "Boris"], options).cards is state.cards


def test_a_removed_card_cannot_be_dealt() -> None:
    text = HEAD + '[Variant "sp-no-pub"]\n' + OPENING.replace("Lumberjack, Gold Miner", "Lumberjack, Gold Miner")
    text += "Anna: buy Lumberjack for 3\nBoris: buy Lumberjack for 3\nbuilding phase\n"
    text += "deal: Pub, Market, Customs House, Firehouse, Hospital, Library, Theater, Academy\n"
    (report,) = check_text(text)
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.ILLEGAL, "sp-deal-exhausted", 13)
    assert "0 in the game" in report.error.message


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_generator_plays_the_changed_deck(seed: int) -> None:
    options = registered_variants()["sp-no-pub"]
    sp_options = apply_variant(SaintPetersburg, SaintPetersburg.ruleset(None), options)
    text = SaintPetersburg.play(["Anna", "Boris", "Clara"], random.Random(seed), sp_options, {})
    assert "Pub" not in text
    cheap = sp("[cards.Market]\ncost = 4\n")
    text = SaintPetersburg.play(["Anna", "Boris"], random.Random(seed), cheap, {})
    assert "Market for 5" not in text
    no_chapel = apply_variant(SanJuan, SanJuan.ruleset(None), registered_variants()["sj-no-chapel"])
    text = SanJuan.play(["Anna", "Boris"], random.Random(seed), no_chapel, {"Variant": "sj-no-chapel"})
    assert "Chapel" not in text and check_text(text)[0].verdict is Verdict.VALID


def test_sj_card_changes_and_tiles_in_the_rules() -> None:
    options = sj('[cards."Smithy"]\ncost = 0\nvp = 3\n[options]\ntrading_tiles = ["1-1-2-2-3", "2-2-2-2-2"]\n')
    state = SanJuan.new_state(["Anna", "Boris"], options)
    assert state.cards["Smithy"].cost == 0 and state.cards["Smithy"].vp == 3
    assert state.tiles == {"1-1-2-2-3": (1, 1, 2, 2, 3), "2-2-2-2-2": (2, 2, 2, 2, 2)}
    assert "tile: 2-2-2-2-2" in "\n".join(
        SanJuan.play(["Anna", "Boris"], random.Random(s), options, {}) for s in range(3)
    )
    less = sj('[cards."Indigo Plant"]\ncopies = 6\n')
    assert SanJuan.new_state(["Anna", "Boris"], less).supply == 110 - 4 - 2


def test_sj_a_tile_not_in_play_is_refused(tmp_path: Path) -> None:
    text = SanJuan.play(["Anna", "Boris"], random.Random(4), SanJuan.ruleset(None), {})
    first = next(line for line in text.splitlines() if line.startswith("tile: "))
    others = [tile for tile in SanJuan.ruleset(None).trading_tiles if tile != first[6:]]
    (tmp_path / "tiles.toml").write_text(f'game = "san-juan"\n[options]\ntrading_tiles = ["{others[0]}"]\n')
    head, body = text.split("\n\n", 1)
    (report,) = check_text(head + '\n[Variant "tiles.toml"]\n\n' + body, "g.rec", tmp_path)
    assert (report.verdict, report.error.code) == (Verdict.ILLEGAL, "sj-bad-tile")
    assert line_text(head + "\n[Variant]\n\n" + body, report.error.line) == first


def test_proofs_read_the_changed_cards(tmp_path: Path) -> None:
    from referee.proofs import prove

    options = sp('[cards."Lumberjack"]\ncost = 0\n')
    results = {r.name: r for r in prove(SaintPetersburg, options, {}, tmp_path)}
    broken = results["price <= printed cost (every card except upgrades)"]
    assert not broken.proved and broken.values["card"] == "Lumberjack" and broken.values["price"] == 1
    assert all(r.proved for name, r in results.items() if name != broken.name)


def test_sp_lower_row_kept_joins_the_upper_row() -> None:
    options = sp("[options]\ndiscard_lower_row = false\n")
    state = SaintPetersburg.new_state(["Anna", "Boris"], options)
    state.lower, state.upper = [state.cards["Market"]], [state.cards["Author"]]
    state._end_round()
    assert [c.name for c in state.lower] == ["Market", "Author"] and state.upper == [] and state.discards == []
    plain = SaintPetersburg.new_state(["Anna", "Boris"], SaintPetersburg.ruleset(None))
    plain.lower, plain.upper = [plain.cards["Market"]], [plain.cards["Author"]]
    plain._end_round()
    assert [c.name for c in plain.lower] == ["Author"] and [c.name for c in plain.discards] == ["Market"]


# ------------------------------------------------------------------------------------------- validation
BAD = [
    ('[cards."Beer Hall"]\ncopies = 0\n', "[cards] names no card of Saint Petersburg: 'Beer Hall'"),
    ('[cards."Pub"]\ncolour = 3\n', "'colour' cannot be changed (copies, cost, rubles, vp)"),
    ('[cards."Pub"]\ncopies = -1\n', "copies takes a whole number from 0 to 999, not -1"),
    ('[cards."Pub"]\ncost = true\n', "cost takes a whole number from 0 to 999, not true"),
    ('[cards."Pub"]\ncost = 2.5\n', "not 2.5"),
    ("[cards]\nPub = 0\n", "is a table of changes (copies, cost, rubles, vp)"),
    ('[cards."Pub"]\n', "is a table of changes"),
    ('[options]\ncards = [["Pub", "copies", 0]]\n', "'cards' is set by the [cards] table"),
    (
        "".join(
            f'[cards."{n}"]\ncopies = 0\n'
            for n in ("Lumberjack", "Gold Miner", "Shepherd", "Fur Trapper", "Ship Builder", "Czar & Carpenter")
        ),
        "leave the workers deck empty",
    ),
    ("cards = 3\n", "'cards' must be a table"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_card_changes_are_bad_variants_at_the_variant_tag(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "house.toml").write_text('name = "house"\ngame = "saint-petersburg"\n' + text)
    record = tmp_path / "g.rec"
    record.write_text(HEAD + '[Variant "house.toml"]\n' + OPENING)
    (report,) = check_text(record.read_text(), str(record), tmp_path)
    assert (report.verdict, report.error.code, report.error.line, report.error.column) == (
        Verdict.MALFORMED,
        "bad-variant",
        3,
        10,
    )
    assert message in report.error.message, report.error.message


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        ("san-juan", '[options]\ntrading_tiles = ["1-1-2"]\n', "'1-1-2' is not a tile"),
        ("san-juan", '[options]\ntrading_tiles = ["1-1-2-2-3", "1-1-2-2-3"]\n', "each tile once"),
        ("san-juan", "[options]\ntrading_tiles = []\n", "takes at least 1 item"),
        ("san-juan", '[cards."Indigo Plant"]\ncopies = 2\n', "fewer than 4 Indigo Plant"),
        ("santorini-new-york", '[cards."Engineer"]\ncopies = 0\n', "takes no [cards] table"),
        ("san-juan", '[cards."Statue of Liberty"]\nvp = 4\n', None),  # an alias: accepted
        # a wrong value is quoted as the variant file writes it (TOML), not as Python's repr
        ("saint-petersburg", '[options]\nstart_rubles = "forty"\n', "takes a whole number, not 'forty'"),
        ("saint-petersburg", "[options]\nstart_rubles = true\n", "takes a whole number, not true"),
        ("saint-petersburg", "[options]\nedition = 3\n", "is one of 1, 2, not 3"),
        ("saint-petersburg", "[options]\ndiscard_lower_row = 1\n", "takes true or false, not 1"),
        ("san-juan", "[options]\ntrading_tiles = [3]\n", "takes a list of texts, not an item 3"),
    ],
)
def test_game_specific_validation(game: str, text: str, message: str | None) -> None:
    found = find_game(game)
    variant = parse_variant(f'game = "{game}"\n' + text, "house")
    if message is None:
        assert apply_variant(found, found.ruleset(None), variant).cards == (("Statue", "vp", 4),)
        return
    with pytest.raises(RefereeError) as caught:
        apply_variant(found, found.ruleset(None), variant)
    assert caught.value.code == "bad-variant" and message in caught.value.message


# ----------------------------------------------------------------------------------------- registered
EXPECTED = {
    "saint-petersburg": {
        "sp-no-minimum",
        "sp-pub-per-player",
        "sp-rich-start",
        "sp-no-pub",
        "sp-no-observatory",
        "sp-cheap-market",
    },
    "san-juan": {"sj-ten-buildings", "sj-hand-limit-8", "sj-no-chapel", "sj-generous-trade"},
    "santorini-new-york": {"sny-statue-last-player", "sny-fast-refill", "sny-builders-deck"},
}


def test_every_game_ships_house_rules_and_the_docs_list_them() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "variants.md").read_text(encoding="utf-8")
    found: dict[str, set[str]] = {}
    for name, variant in registered_variants().items():
        game = find_game(variant.game)
        assert game is not None and variant.description, name
        apply_variant(game, game.ruleset(variant.ruleset), variant)  # valid
        found.setdefault(game.id, set()).add(name)
        assert f"`{name}`" in doc, f"{name} is not in docs/variants.md"
    assert found == EXPECTED


def test_the_stats_hooks_count_from_the_statements() -> None:
    from referee.testkit import parse_record_body

    for game in (SaintPetersburg, SanJuan, SantoriniNewYork):
        players = ["Anna", "Boris", "Clara"]
        text = game.play(players, random.Random(5), game.ruleset(None), {})
        statements = parse_record_body(game, text)
        state = game.new_state(players, game.ruleset(None))
        for statement in statements:
            state.apply(statement)
        counts = game.stats(statements, state)
        assert counts and all(sum(c.values()) >= 0 for c in counts.values())
        key = {"saint-petersburg": "bought", "san-juan": "built", "santorini-new-york": "played"}[game.id]
        assert sum(counts[key].values()) > 0


def test_an_unknown_variant_lists_the_games_own_and_says_where_files_may_be(tmp_path: Path) -> None:
    """The message a scorekeeper or an organiser reads: San Juan's variants, not every game's; "inside the record's
    folder" only where there is one (standard input and a live table read no file)."""
    text = '[Game "San Juan"]\n[Players "Anna, Boris"]\n[Variant "nope"]\n'
    (from_stdin,) = check_text(text)
    (path := tmp_path / "game.rec").write_text(text, encoding="utf-8")
    (from_file,) = check_file(path)
    for report in (from_stdin, from_file):
        assert report.error is not None and report.error.code == "unknown-variant"
        listed = report.error.message.split("registered: ", 1)[1].split(";", 1)[0].split(", ")
        assert listed and all(name.startswith("sj-") for name in listed)
        assert "sj-no-chapel" in listed
    assert "no file is read for a record without a folder" in from_stdin.error.message
    assert "inside the record's folder" in from_file.error.message
