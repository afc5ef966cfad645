"""Santorini: New York data: the shipped board and deck-list files (exactly as the record-format spec fixes them),
files a record names by path, and every way a board, deck list or deck can be wrong (an error at its tag: malformed,
but illegal for known professions that break the deck's mix)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import IllegalStatement, Verdict
from referee.record import split_games
from referee.replay import KeepState, Referee, check_file
from referee.santorini_new_york.board import DataError, load_board, shipped_board, shipped_boards
from referee.santorini_new_york.cards import check_deck, load_deck_list, shipped_deck_list, shipped_deck_lists

HEAD = '[Game "Santorini: New York"]\n[Players "Anna, Boris"]\n'


def judged(tags: str, body: str = "place: Anna b2 d4\n", folder: Path | None = None):
    """The report of a one-game record, with the state it ended in as ``report.state`` (reports keep no state)."""
    text = HEAD + tags + "\n" + body
    if folder is not None:
        (folder / "game.rec").write_text(text, encoding="utf-8")
    keep = KeepState()
    (record,) = split_games(text, str(folder / "game.rec") if folder else "<string>")
    report = Referee().judge(record, folder, keep)
    report.state = keep.state  # type: ignore[attr-defined]
    return report


def test_square_board_is_as_the_spec_fixes_it() -> None:
    board = shipped_board("square-5x5")
    assert (board.width, board.height, len(board.spaces)) == (5, 5, 25) and not board.provisional
    pairs = {n: {board.square(c) for c in cells} for n, cells in board.starts.items()}
    assert pairs == {1: {"b2", "d4"}, 2: {"d2", "b4"}, 3: {"a3", "e3"}, 4: {"c1", "c5"}, 5: {"a1", "e5"}}
    assert board.cell("a1") == 0 and board.square(board.cell("e5")) == "e5"
    assert board.cell("f1") is None and board.cell("a6") is None


def test_manhattan_is_the_provisional_default_with_void_cells() -> None:
    board = shipped_board("manhattan")
    assert board.provisional and "PROVISIONAL" in board.description
    assert len(board.spaces) < board.width * board.height
    assert len(board.starts) == 5
    assert not board.is_space(board.cell("a1"))
    assert set(shipped_boards()) == {"manhattan", "square-5x5"}


def test_provisional_deck_list_is_as_the_spec_fixes_it() -> None:
    numbers = shipped_deck_list("provisional").numbers
    assert numbers["Engineer"] == (1, 5, 9, 13, 17, 21, 25)
    for profession, kind_numbers in (("Iron Worker", 2), ("Foreman", 2), ("Reporter", 3), ("Taxi Driver", 4)):
        assert numbers[profession] == tuple(range(kind_numbers, 25, 4))
    assert len(numbers) == 14 and set(shipped_deck_lists()) == {"provisional"}


def test_the_default_tags_play_the_first_game_deck_on_manhattan() -> None:
    report = judged("", "place: Anna c2 d8\n")
    assert report.verdict is Verdict.UNFINISHED
    assert report.state.board.name == "manhattan"
    assert report.state.deck == ("Engineer", "Iron Worker", "NYPD Officer", "Subway Operator")


def test_a_deck_tag_in_any_order_and_with_aliases() -> None:
    report = judged('[Deck "tour bus, Engineer, fire fighter, night guard"]\n')
    assert report.state.deck == ("Engineer", "Firefighter", "Night Guard", "Tour Bus Driver")


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        ("Engineer, Iron Worker, Crane Operator, NYPD Officer", "exactly one Builder"),
        ("Iron Worker, NYPD Officer, Subway Operator, Taxi Driver", "the Engineer once"),
        ("Engineer, Engineer, Iron Worker, NYPD Officer, Subway Operator", "the Engineer once"),
        ("Engineer, Iron Worker, NYPD Officer", "exactly one Mover"),
        ("engineer, crane, vendor, designer", "exactly one Specialist"),
    ],
)
def test_known_professions_that_break_the_mix_are_illegal_at_the_deck_tag(deck: str, words: str) -> None:
    """Rules 1.3 and the record format's section 1: a Deck tag of known professions that is not the Engineer plus
    one Builder, one Specialist and one Mover breaks a rule: illegal at the tag's value."""
    report = judged(f'[Deck "{deck}"]\n')
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.ILLEGAL, "sny-deck-mix", 3)
    assert isinstance(report.error, IllegalStatement)
    assert words in report.error.message and report.error.column == len("[Deck ") + 1


@pytest.mark.parametrize(
    "deck",
    [
        "Engineer, Iron Worker, NYPD Oficer, Subway Operator",
        "Engineer, Iron Worker, Crane Operator, NYPD Oficer",  # unknown, and two Builders: the name is read first
    ],
)
def test_an_unknown_profession_in_the_deck_tag_is_malformed_at_it(deck: str) -> None:
    report = judged(f'[Deck "{deck}"]\n')
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, "sny-bad-deck", 3)
    assert "did you mean 'NYPD Officer'" in report.error.message
    assert report.error.column == len("[Deck ") + 1 + deck.index("NYPD Oficer") + 1


def test_a_variant_deck_that_breaks_the_mix_is_a_variant_the_game_cannot_use(tmp_path: Path) -> None:
    """Without a Deck tag the deck is the variant's: no rule of the record is broken, the house rule is unusable."""
    (tmp_path / "two.toml").write_text(
        'name = "two"\ngame = "santorini-new-york"\n[options]\ndeck = ["Engineer", "Iron Worker", "Foreman", '
        '"Taxi Driver"]\n',
        encoding="utf-8",
    )
    report = judged('[Board "square-5x5"]\n[Variant "two.toml"]\n', "place: Anna b2 d4\n", tmp_path)
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, "sny-bad-options", 4)
    assert "exactly one Builder" in report.error.message
    report = judged('[Variant "two.toml"]\n[Deck "Engineer, Foreman, Reporter, Taxi"]\n', "", tmp_path)
    assert report.verdict is Verdict.UNFINISHED, report.error  # the record's own Deck tag wins


def test_an_unknown_board_or_deck_list_name_is_malformed_at_its_tag() -> None:
    report = judged('[Board "brooklyn"]\n')
    assert (report.error.code, report.error.line) == ("sny-bad-board", 3)
    assert "manhattan" in report.error.message
    report = judged('[Board "square-5x5"]\n[DeckList "real"]\n')
    assert (report.error.code, report.error.line) == ("sny-bad-deck-list", 4)


BOARD_FILE = """
name = "tiny"
map = \"\"\"
#..
...
\"\"\"
[starts]
1 = ["a1", "c1"]
2 = ["b2", "c2"]
"""


def test_a_board_file_beside_the_record(tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(BOARD_FILE, encoding="utf-8")
    report = judged('[Board "tiny.toml"]\n', "place: Anna c1 a1\nplace: Boris c2 b2\n", tmp_path)
    assert report.verdict is Verdict.UNFINISHED, report.error
    board = report.state.board
    assert (board.name, board.width, board.height, board.provisional) == ("tiny", 3, 2, False)
    assert not board.is_space(board.cell("a2"))


def test_a_file_outside_the_records_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(BOARD_FILE, encoding="utf-8")
    inner = tmp_path / "games"
    inner.mkdir()
    report = judged('[Board "../tiny.toml"]\n', folder=inner)
    assert (report.verdict, report.error.code, report.error.line) == (Verdict.MALFORMED, "sny-bad-board", 3)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name = 'x'\nsize = 3\nmap = '..'\n[starts]\n1 = ['a1', 'b1']\n", "unknown key"),
        ("map = '..'\n[starts]\n1 = ['a1', 'b1']\n", "'name'"),
        ("name = 'x'\nmap = '.x'\n[starts]\n1 = ['a1', 'b1']\n", "map characters"),
        ("name = 'x'\nmap = '''\n..\n...\n'''\n[starts]\n1 = ['a1', 'b1']\n", "same length"),
        ("name = 'x'\nmap = '##'\n[starts]\n1 = ['a1', 'b1']\n", "no spaces"),
        ("name = 'x'\nmap = '#.'\n[starts]\n1 = ['a1', 'b1']\n", "'a1' is not a space"),
        ("name = 'x'\nmap = '...'\n[starts]\n1 = ['a1', 'b1']\n2 = ['b1', 'c1']\n", "already in pair 1"),
        ("name = 'x'\nmap = '...'\n[starts]\nx = ['a1', 'b1']\n", "numbered"),
        ("name = 'x'\nmap = '...'\n[starts]\n1 = ['a1']\n", "two squares"),
        ("name = 'x'\nmap = '...'\n", "[starts]"),
        ("name = 'x'\nnorth = 'left'\nmap = '...'\n[starts]\n1 = ['a1', 'b1']\n", "'north'"),
        ("name = 'x\nmap", "not valid TOML"),
    ],
)
def test_board_file_problems_are_explained(text: str, words: str) -> None:
    with pytest.raises(DataError) as caught:
        load_board(text)
    assert words in str(caught.value)


def test_a_board_drawn_south_first() -> None:
    up = load_board("name = 'x'\nmap = '''\n.#\n..\n'''\n[starts]\n1 = ['a1', 'b1']\n")
    down = load_board("name = 'x'\nnorth = 'down'\nmap = '''\n..\n.#\n'''\n[starts]\n1 = ['a1', 'b1']\n")
    assert up.spaces == down.spaces and not up.is_space(up.cell("b2"))


def test_a_board_with_too_few_starting_pairs_for_the_players(tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(BOARD_FILE, encoding="utf-8")
    text = '[Game "Santorini: New York"]\n[Players "Anna, Boris, Clara"]\n[Board "tiny.toml"]\n'
    path = tmp_path / "three.rec"
    path.write_text(text, encoding="utf-8")
    (report,) = check_file(path)
    assert (report.error.code, report.error.line) == ("sny-bad-board", 3)
    assert "3 players need 3" in report.error.message


DECK_LIST = """
name = "mine"
[cards]
Engineer = [10, 20, 30]
"Iron Worker" = [11, 21]
"NYPD Officer" = [12, 22]
"Subway Operator" = [13, 23]
"""


def test_a_deck_list_file_beside_the_record(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(DECK_LIST, encoding="utf-8")
    report = judged('[Board "square-5x5"]\n[DeckList "mine.toml"]\n', "hand Anna: Engineer 30, ?, ?, ?, ?\n", tmp_path)
    assert report.error is not None and report.error.code == "sny-bad-deck"  # 9 cards cannot deal 2 x 5
    bigger = DECK_LIST.replace("[10, 20, 30]", "[10, 20, 30, 40, 50, 60]")
    (tmp_path / "mine.toml").write_text(bigger, encoding="utf-8")
    report = judged('[Board "square-5x5"]\n[DeckList "mine.toml"]\n', "hand Anna: Engineer 30, ?, ?, ?, ?\n", tmp_path)
    assert report.verdict is Verdict.UNFINISHED, report.error


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name = 'x'\n[cards]\nEngineer = [1, 1]\n", "each number once"),
        ("name = 'x'\n[cards]\nEngineer = [0]\n", "positive whole numbers"),
        ("name = 'x'\n[cards]\nEnginer = [1]\n", "did you mean 'Engineer'"),
        ("name = 'x'\n[cards]\nEngineer = [1]\nengineer = [2]\n", "listed twice"),
        ("name = 'x'\n", "'[cards]'"),
        ("[cards]\nEngineer = [1]\n", "'name'"),
        ("name = 'x'\nextra = 1\n[cards]\nEngineer = [1]\n", "unknown key"),
    ],
)
def test_deck_list_problems_are_explained(text: str, words: str) -> None:
    with pytest.raises(DataError) as caught:
        load_deck_list(text)
    assert words in str(caught.value)


def test_a_deck_needs_the_deck_list_to_print_its_professions_with_unique_numbers() -> None:
    small = load_deck_list("name = 'x'\n[cards]\nEngineer = [1]\n'Iron Worker' = [2]\n'NYPD Officer' = [3]\n")
    with pytest.raises(DataError, match="prints no cards for Subway Operator"):
        check_deck(("Engineer", "Iron Worker", "NYPD Officer", "Subway Operator"), small, True)
    clash = load_deck_list(
        "name = 'x'\n[cards]\nEngineer = [1]\n'Iron Worker' = [2]\n'NYPD Officer' = [3]\n'Subway Operator' = [1]\n"
    )
    deck = ("Engineer", "Iron Worker", "NYPD Officer", "Subway Operator")
    with pytest.raises(DataError, match="share a number"):
        check_deck(deck, clash, True)
    assert check_deck(deck, clash, False) == deck  # [§2 D] the option allows equal numbers


def test_each_game_gets_the_board_its_own_tag_names(tmp_path: Path) -> None:
    """The options a game's tags set are kept for the next game naming the same values (an archive names one board
    thousands of times); a game naming another board, or a changed board file, gets its own."""
    for board in ("manhattan", "square-5x5", "manhattan"):
        report = judged(f'[Board "{board}"]\n')
        assert report.state.board.name.lower().startswith(board.split("-")[0]), (board, report.state.board.name)
    (tmp_path / "tiny.toml").write_text(BOARD_FILE, encoding="utf-8")
    first = judged('[Board "tiny.toml"]\n', "place: Anna c1 a1\nplace: Boris c2 b2\n", tmp_path)
    (tmp_path / "tiny.toml").write_text(BOARD_FILE.replace('name = "tiny"', 'name = "tiny, again"'), encoding="utf-8")
    second = judged('[Board "tiny.toml"]\n', "place: Anna c1 a1\nplace: Boris c2 b2\n", tmp_path)
    assert (first.state.board.name, second.state.board.name) == ("tiny", "tiny, again")
