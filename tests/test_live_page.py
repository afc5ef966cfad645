"""The scorekeeper page of ``referee serve`` in a real browser: a real server (``referee.live.spawn``) and the system's
headless Chromium driven by Playwright (``referee.report.browser``). A scorekeeper creates a table of each game through
the form and enters the start of a generated game, mostly through the completion; the page shows the lines, the
picture of the position (compared with the referee's own) and the verdict. A refused line shows its code, rule and
alternatives and stays in the input; a seat's link follows the table live (and has no undo); undo, the record's
download, a dropped event stream, the phone width and the Content-Security-Policy.

Every tab fails its test on a request to anywhere but the server, an uncaught exception, or a console error other
than the browser's note of an HTTP refusal the test provoked. Skipped, with the reason, only when no Chromium binary is
found — an error instead when ``REFEREE_REQUIRE_BROWSER`` is set, as ``.ci/run`` sets it."""

from __future__ import annotations

import random
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from referee.live.spawn import ServerProcess
from referee.record import iter_games
from referee.registry import GAMES
from referee.report.browser import MISSING, browser_for_tests, launch
from referee.report.collect import picture_of
from referee.table import NOT_TABLE_TAGS, Table
from referee.testkit import NAMES

CHROMIUM = browser_for_tests()  # CI (.ci/run): a missing browser is a failure
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=MISSING)

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
WIDE = {"width": 1360, "height": 900}
PHONE = {"width": 390, "height": 844}
HTTP_REFUSAL = re.compile(r"Failed to load resource: the server responded with a status of 4\d\d")
TEMPLATE = re.compile(r"\.\.\.|\b\d+\.\.\d+\b|\b\d+ cards?\b|\b\d+ card\(s\)|\b[A-Z]{2,}\b(?! [A-Z][a-z])|\w\|\w")


# ----------------------------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("live-page") / "tables.db", "--heartbeat", "0.5") as process:
        yield process


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None
    with sync_playwright() as playwright:
        context = launch(playwright, tmp_path_factory.mktemp("chromium-profile"), CHROMIUM, viewport=WIDE)
        yield context
        context.close()


class Tabs:
    """New tabs on one server, each watched: only the server is asked for anything, and nothing goes wrong in the
    console (an HTTP refusal a test provokes aside, and, where ``dropped``, the refused reconnections)."""

    def __init__(self, browser: Any, origin: str) -> None:
        self.browser, self.origin = browser, origin
        self.pages: list[Any] = []
        self.elsewhere: list[str] = []
        self.problems: list[str] = []
        self.dropped = False

    def open(self, viewport: dict[str, int] = WIDE) -> Any:
        page = self.browser.new_page()
        page.set_viewport_size(viewport)

        def route(route: Any) -> None:
            url = route.request.url
            if url.startswith((self.origin + "/", "data:", "blob:")):
                route.continue_()
            else:
                self.elsewhere.append(url)
                route.abort()

        page.route("**/*", route)
        page.on("console", lambda message: self._console(message.type, message.text))
        page.on("pageerror", lambda error: self.problems.append(f"uncaught: {error}"))
        self.pages.append(page)
        return page

    def _console(self, kind: str, text: str) -> None:
        if kind not in ("error", "warning") or HTTP_REFUSAL.search(text):
            return
        if self.dropped and ("ERR_CONNECTION_REFUSED" in text or "ERR_FAILED" in text):
            return
        self.problems.append(text)

    def close(self) -> None:
        for page in self.pages:
            page.close()


@pytest.fixture
def tabs(browser: Any, server: ServerProcess) -> Iterator[Tabs]:
    watched = Tabs(browser, server.url)
    yield watched
    watched.close()
    assert not watched.elsewhere, f"the page asked for {watched.elsewhere}"
    assert not watched.problems, watched.problems


# ------------------------------------------------------------------------------------------------------ helpers
@dataclass
class Game:
    """A generated game: its tags (as a table takes them) and its statement lines."""

    game_id: str
    players: list[str]
    tags: dict[str, str]
    lines: list[str]


def generated(game_id: str, players: int, seed: int) -> Game:
    game = GAMES[game_id]
    names = NAMES[:players]
    (record,) = iter_games(game.play(names, random.Random(seed), game.ruleset(None), {}))
    tags = {name: value for name, value in record.tag_values().items() if name.lower() not in NOT_TABLE_TAGS}
    lines = [line for _, line in record.body if isinstance(line, str) and line.strip() and line.lstrip()[0] != "#"]
    return Game(game_id, names, tags, lines)


def open_form(tab: Any, server: ServerProcess) -> None:
    tab.goto(server.url + "/")
    tab.wait_for_selector("body[data-ready=create]")


def create(tab: Any, game_id: str, players: list[str], choose: dict[str, str] | None = None) -> dict[str, str]:
    """Fill the open form (``choose``: a select -> the value to pick) and create the table: its id and token, as the
    page's address holds them."""
    tab.select_option("#game", game_id)
    while tab.locator("#players .player-name").count() < len(players):
        tab.click("#add-player")
    for k, name in enumerate(players):
        tab.locator("#players .player-name").nth(k).fill(name)
    for field, value in (choose or {}).items():
        tab.select_option(field, value)
    tab.click("#create")
    tab.wait_for_selector("body[data-ready=table]")
    return where(tab)


def where(tab: Any) -> dict[str, str]:
    address = urlsplit(tab.url)
    assert not address.query, "a token in the query string"
    return {key: value[0] for key, value in parse_qs(address.fragment).items()}


def line_count(tab: Any) -> int:
    return int(tab.locator("#lines li").count())


def wait_lines(tab: Any, count: int) -> None:
    tab.bring_to_front()  # a tab behind another polls once a second (the browser throttles it)
    tab.wait_for_function("(n) => document.querySelectorAll('#lines li').length === n", arg=count)


def template_prefix(text: str, players: list[str]) -> str | None:
    masked = text
    for name in players:
        masked = masked.replace(name, "x" * len(name))
    found = TEMPLATE.search(masked)
    return text[: found.start()] if found else None


def unknown_cards(statement: str, text: str) -> list[str] | None:
    """What ``text`` writes for each unknown card ``?`` of a legal ``statement`` (None: it is not that statement)."""
    if statement == text:
        return []
    match = re.fullmatch(re.escape(statement).replace(r"\?", "(.+?)"), text)
    return list(match.groups()) if match else None


def enter(tab: Any, table: Table, text: str, how: int) -> bool:
    """Enter one line as a scorekeeper would, through the completion where it offers the line (``how``: pick it by
    mouse or by keyboard) or a template of it (then type the rest), else by typing it: whether the completion was
    used. The line is sent with Enter and must be accepted."""
    legal = [statement for statement in table.legal("") if template_prefix(statement, table.players) is None]
    templates = [
        t for t in table.legal() if (p := template_prefix(t, table.players)) and text.startswith(p) and p.strip()
    ]
    unknowns = [s for s in legal if "?" in s and unknown_cards(s, text) is not None]
    line = tab.locator("#line")
    used = True
    if text in legal or unknowns:
        statement = text if text in legal else unknowns[0]
        pattern = re.compile("^" + re.escape(statement) + "$")
        option = tab.locator("#suggestions [role=option]").filter(has_text=pattern)
        typed = max(1, len(statement) // 3)
        line.fill(statement[:typed])
        while not offered(option):  # the list shows the first 100 that match: type on to narrow it
            typed += 4
            assert typed < len(statement), f"{statement!r} is never offered"
            line.fill(statement[:typed])
        if how % 2:
            option.click()
        else:
            shown = tab.locator("#suggestions [role=option]").evaluate_all(
                "(items) => items.map((i) => i.dataset.text)"
            )
            for _ in range(shown.index(statement) + 1):
                line.press("ArrowDown")
            assert tab.locator("#suggestions [aria-selected=true]").get_attribute("data-text") == statement
            line.press("Enter")
        for k, card in enumerate(unknown_cards(statement, text) or []):  # each "?" selected in turn, typed over
            if k:
                line.press("Tab")
            line.press_sequentially(card)
        assert line.input_value() == text
    elif templates:
        prefix = template_prefix(templates[0], table.players)
        assert prefix is not None
        line.fill(prefix[: max(1, len(prefix) - 2)])
        tab.locator("#suggestions [role=option]", has_text=templates[0]).first.click()
        assert line.input_value() == prefix
        line.press("End")
        line.press_sequentially(text[len(prefix) :])
    else:
        line.fill(text)
        used = False
    assert line.input_value() == text
    before = line_count(tab)
    line.press("Enter")
    wait_lines(tab, before + 1)  # (the line may come by the event stream before the reply: wait for the reply too)
    tab.wait_for_function("() => { const i = document.getElementById('line'); return !i.readOnly && !i.value; }")
    table.play(text)
    assert tab.evaluate("() => document.activeElement.id") == "line"  # the focus stays in the input
    return used


def offered(option: Any) -> bool:
    """Whether the completion offers ``option`` (a locator) within a moment (it may read the full list first)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        option.wait_for(timeout=1500)
    except PlaywrightTimeout:
        return False
    return True


def no_horizontal_scroll(tab: Any) -> None:
    width = tab.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= PHONE["width"] and width[1] <= PHONE["width"], width


def shot(tab: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"live-{name}.png"), full_page=True)


def workers_drawn(tab: Any) -> dict[str, int]:
    squares = tab.locator("#picture [data-worker]").evaluate_all(
        "(cells) => cells.map((c) => [c.dataset.square, Number(c.dataset.worker)])"
    )
    return dict(squares)


# -------------------------------------------------------------------------------------------------------- tests
@pytest.mark.parametrize(
    ("game_id", "players", "count"), [("saint-petersburg", 2, 14), ("san-juan", 3, 14), ("santorini-new-york", 2, 12)]
)
def test_a_scorekeeper_enters_the_start_of_a_game_with_the_completion(
    tabs: Tabs, server: ServerProcess, game_id: str, players: int, count: int
) -> None:
    game = generated(game_id, players, seed=7)
    tab = tabs.open()
    choose: dict[str, str] = {}
    if game_id == "santorini-new-york":  # the game's own tags, through the form: the board and a deck by its parts
        deck = [name.strip() for name in game.tags["Deck"].split(",")]
        choose = {"[data-tag=Board] select": game.tags["Board"]}
        choose |= {f"[data-tag=Deck] select >> nth={k}": name for k, name in enumerate(deck)}
    open_form(tab, server)
    create(tab, game_id, game.players, choose)
    assert tab.inner_text("#table-title") == f"{GAMES[game_id].title}: {', '.join(game.players)}"
    if game_id == "santorini-new-york":
        assert f"Board: {game.tags['Board']}" in tab.inner_text("#table-about")
        assert f"Deck: {game.tags['Deck']}" in tab.inner_text("#table-about")
    table = Table(game_id, game.players, game.tags)
    used = past_the_short_list = 0
    for k, text in enumerate(game.lines[:count]):
        shortened = text not in table.legal() and text in table.legal("")
        came = enter(tab, table, text, k)
        used += came
        past_the_short_list += came and shortened
    assert used >= count // 3, f"only {used} of {count} lines came through the completion"
    if game_id == "santorini-new-york":  # a move past the 60 of a turn's choices that "legal" lists is offered too
        assert past_the_short_list >= 1
    assert tab.locator("#lines .src").all_inner_texts() == game.lines[:count]
    assert tab.get_attribute("#verdict", "data-verdict") == "unfinished"
    tab.wait_for_function("(n) => document.getElementById('state').textContent.length > 0")
    tab.wait_for_function(
        "(text) => document.getElementById('state').textContent === text", arg=table.summary(), timeout=5000
    )
    picture = picture_of(table.game)
    assert picture is not None
    snapshot = picture(table.state)
    assert tab.locator("#picture [data-block]").evaluate_all("(b) => b.map((x) => x.dataset.block)") == list(
        snapshot["blocks"]
    )
    assert tab.inner_text("#head") == snapshot["head"]
    if game_id == "santorini-new-york":
        board = snapshot["blocks"]["board"]
        expected = {
            cell["square"]: cell["worker"] for cell in board["cells"] if cell and cell.get("worker") is not None
        }
        assert expected and workers_drawn(tab) == expected
    shot(tab, game_id)


def test_a_refused_line_shows_its_error_and_stays_to_be_fixed(tabs: Tabs, server: ServerProcess) -> None:
    tab = tabs.open()
    open_form(tab, server)
    create(tab, "san-juan", ["Anna", "Boris"])
    table = Table("san-juan", ["Anna", "Boris"], {})
    for text in ("round 1", "governor: Anna", "hand Anna: Aqueduct, Well, Tower, Crane", "hand Boris: ?, ?, ?, ?"):
        enter(tab, table, text, 1)
    wrong = "Anna: build Well paying Tower"  # a builder phase nobody chose
    tab.fill("#line", wrong)
    tab.press("#line", "Enter")
    tab.wait_for_selector("#refusal:not([hidden])")
    try:
        table.play(wrong)
    except Exception as error:
        refused: Any = error
    refusal = tab.inner_text("#refusal")
    assert tab.get_attribute("#refusal", "data-code") == refused.code
    assert f"[{refused.code}]" in refusal and refused.message in refusal and f"Rule: {refused.kind.summary}" in refusal
    assert f"column {refused.column}" in refusal
    assert tab.locator("#refusal .alternative").all_inner_texts() == list(refused.alternatives)
    assert tab.input_value("#line") == wrong and line_count(tab) == 4
    marked = tab.evaluate(
        "() => { const i = document.getElementById('line'); return [i.selectionStart, i.selectionEnd]; }"
    )
    assert marked[0] == refused.column - 1 and marked[1] > marked[0]

    tab.locator("#refusal .alternative", has_text="Anna: builder").click()  # an alternative, one click away
    assert tab.input_value("#line") == "Anna: builder"
    tab.press("#line", "Enter")
    wait_lines(tab, 5)
    tab.wait_for_selector("#refusal", state="hidden")

    tab.fill("#line", '[Event "x"]')  # not a line at all: the server's 400 in words
    tab.press("#line", "Enter")
    tab.wait_for_selector("#refusal:not([hidden])")
    assert "not-a-line" in tab.inner_text("#refusal") and tab.input_value("#line") == '[Event "x"]'


def test_a_template_taken_by_keyboard_and_completed_by_typing_is_sent_by_enter(
    tabs: Tabs, server: ServerProcess
) -> None:
    """↓ and Enter take a template; the rest typed, Enter sends the line (it re-took the template, still highlighted,
    and wiped what was typed). A choice highlighted before typing on is not taken by Enter either."""
    tab = tabs.open()
    open_form(tab, server)
    create(tab, "san-juan", ["Anna", "Boris"])
    line = tab.locator("#line")
    line.press_sequentially("gov")
    tab.wait_for_selector("#suggestions:not([hidden])")
    line.press("ArrowDown")
    assert tab.get_attribute("#suggestions [aria-selected=true]", "data-text") == "governor: PLAYER"
    line.press("Enter")
    assert line.input_value() == "governor: "
    line.press_sequentially("Anna")
    line.press("Enter")
    wait_lines(tab, 1)
    assert tab.locator("#lines .src").all_inner_texts() == ["governor: Anna"]

    line.press_sequentially("hand A")  # a highlighted choice, then typing on: Enter sends what is typed
    tab.wait_for_selector("#suggestions:not([hidden])")
    line.press("ArrowDown")
    line.press_sequentially("nna: Aqueduct, Well, Tower, Crane")
    line.press("Enter")
    wait_lines(tab, 2)
    assert tab.locator("#lines .src").all_inner_texts()[-1] == "hand Anna: Aqueduct, Well, Tower, Crane"


def test_a_seat_link_follows_the_table_live_and_has_no_undo(tabs: Tabs, server: ServerProcess) -> None:
    host = tabs.open()
    open_form(host, server)
    create(host, "san-juan", ["Anna", "Boris"])
    host.click("#links summary")
    links = host.locator("#link-list input.link")
    assert links.count() == 3
    seat_link = host.locator("[data-link=Boris] input.link").input_value()
    assert "?" not in seat_link and "#table=" in seat_link and "&token=" in seat_link

    seat = tabs.open()
    seat.goto(seat_link)
    seat.wait_for_selector("body[data-ready=table]")
    seat.wait_for_selector("#connection[data-state=live]")
    assert seat.is_hidden("#undo") and seat.is_hidden("#links") and "Boris" in seat.inner_text("#role")
    assert host.is_visible("#undo")

    table = Table("san-juan", ["Anna", "Boris"], {})
    for k, text in enumerate(("round 1", "governor: Anna", "hand Anna: Aqueduct, Well, Tower, Crane")):
        enter(host, table, text, k)
        wait_lines(seat, k + 1)  # arrived by the event stream, without a reload
    assert seat.locator("#lines .src").all_inner_texts() == list(table.lines)
    seat.wait_for_function("(text) => document.getElementById('state').textContent === text", arg=table.summary())

    seat.fill("#line", "hand Boris: ?, ?, ?, ?")  # the host's line: the seat is told why not
    seat.press("#line", "Enter")
    seat.wait_for_selector("#refusal:not([hidden])")
    assert "not-your-line" in seat.inner_text("#refusal") and seat.input_value("#line") == "hand Boris: ?, ?, ?, ?"

    host.click("#undo")  # the host withdraws the last line; it comes back into the input, and the seat sees it go
    wait_lines(host, 2)
    wait_lines(seat, 2)
    host.wait_for_function(
        "(text) => document.getElementById('line').value === text", arg="hand Anna: Aqueduct, Well, Tower, Crane"
    )
    assert host.locator("#lines .src").all_inner_texts() == ["round 1", "governor: Anna"]


def test_a_line_sent_on_an_out_of_date_table_stays_and_the_table_is_read_again(
    tabs: Tabs, server: ServerProcess
) -> None:
    """Another scorekeeper was first (and this page did not hear of it: its event stream is cut): the page's line is
    refused with 409 as it names the count it believed, stays in the input, and the table is read again."""
    tab = tabs.open()
    tabs.dropped = True
    tab.route("**/events", lambda route: route.abort())
    open_form(tab, server)
    ids = create(tab, "san-juan", ["Anna", "Boris"])
    enter(tab, Table("san-juan", ["Anna", "Boris"], {}), "round 1", 0)
    other = httpx.post(
        f"{server.url}/tables/{ids['table']}/lines",
        json={"text": "governor: Anna", "expect": 1},
        headers={"Authorization": f"Bearer {ids['token']}"},
    )
    assert other.status_code == 201 and line_count(tab) == 1
    tab.fill("#line", "governor: Boris")
    tab.press("#line", "Enter")
    wait_lines(tab, 2)
    assert "expect-mismatch" in tab.inner_text("#refusal") and tab.input_value("#line") == "governor: Boris"
    assert tab.locator("#lines .src").all_inner_texts() == ["round 1", "governor: Anna"]


def test_the_record_is_downloaded_with_its_tags_and_lines(tabs: Tabs, server: ServerProcess) -> None:
    tab = tabs.open()
    open_form(tab, server)
    tab.click(".more-tags summary")
    tab.fill("#tag-event", "Club night")
    ids = create(tab, "saint-petersburg", ["Anna", "Boris"], {"#variant": "sp-no-pub"})
    table = Table("saint-petersburg", ["Anna", "Boris"], {"Variant": "sp-no-pub"})
    game = generated("saint-petersburg", 2, seed=3)
    for k, text in enumerate(game.lines[:4]):
        enter(tab, table, text, k)
    with tab.expect_download() as download:
        tab.click("#download")
    assert download.value.suggested_filename == f"saint-petersburg-{ids['table']}.rec"
    text = Path(download.value.path()).read_text(encoding="utf-8")
    head, _, body = text.partition("\n\n")
    assert '[Game "Saint Petersburg"]' in head and '[Players "Anna, Boris"]' in head
    assert '[Variant "sp-no-pub"]' in head and '[Event "Club night"]' in head
    assert body.split("\n")[:4] == game.lines[:4]


def test_the_form_is_refused_in_words_and_tables_are_created_with_its_choices(
    tabs: Tabs, server: ServerProcess
) -> None:
    tab = tabs.open()
    open_form(tab, server)
    tab.select_option("#game", "saint-petersburg")
    names = tab.locator("#players .player-name")
    names.nth(0).fill("Anna")
    names.nth(1).fill("Anna")
    tab.click("#create")
    tab.wait_for_selector("#create-problem:not([hidden])")
    assert "bad-players" in tab.inner_text("#create-problem")  # the referee's code, as check reports it
    assert tab.is_visible("#create-view")
    for _ in range(2):
        tab.click("#add-player")
    assert tab.locator("#players .player-name").count() == 4 and tab.is_disabled("#add-player")
    tab.select_option("#game", "santorini-new-york")
    tab.select_option("[data-tag=Deck] select >> nth=1", "Foreman")  # one part chosen: the others start as usual
    deck = tab.locator("[data-tag=Deck] select").evaluate_all("(s) => s.map((x) => x.value)")
    assert deck == ["Engineer", "Foreman", "NYPD Officer", "Subway Operator"]


def test_a_dropped_stream_is_reconnected_and_the_table_read_again(browser: Any, tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    database = tmp_path / "tables.db"
    first = ServerProcess(database, "--port", str(port), "--heartbeat", "0.5")
    tabs = Tabs(browser, first.url)
    tabs.dropped = True
    try:
        tab = tabs.open()
        open_form(tab, first)
        ids = create(tab, "san-juan", ["Anna", "Boris"])
        tab.wait_for_selector("#connection[data-state=live]")
        first.stop()
        tab.wait_for_selector("#connection[data-state=waiting]")
        with ServerProcess(database, "--port", str(port)) as second:
            reply = httpx.post(
                f"{second.url}/tables/{ids['table']}/lines",
                json={"text": "round 1", "expect": 0},
                headers={"Authorization": f"Bearer {ids['token']}"},
            )
            assert reply.status_code == 201, reply.text
            tab.wait_for_selector("#connection[data-state=live]", timeout=15000)
            wait_lines(tab, 1)
    finally:
        tabs.close()
        first.__exit__(None, None, None)
    assert not tabs.elsewhere and not tabs.problems, (tabs.elsewhere, tabs.problems)


SHOW = """(hidden) => {  // what a browser does when another tab comes in front, or this one again
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    const state = hidden ? 'hidden' : 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_hidden_tabs_let_their_stream_go_so_that_a_seventh_tab_still_works(tabs: Tabs, server: ServerProcess) -> None:
    """A browser keeps six HTTP/1.1 connections to a server and each tab's event stream holds one: with six tabs
    following, a seventh tab of the server never loaded and no tab could send a line. A hidden tab lets its stream go
    and, shown again, follows and reads the table (a line sent meanwhile appears)."""
    created = httpx.post(f"{server.url}/tables", json={"game": "san-juan", "players": ["Anna", "Boris"]}).json()
    link = f"{server.url}/#table={created['id']}&token={created['host_token']}"
    opened = []
    for _ in range(7):
        tab = tabs.open()
        tab.goto(link, timeout=10000)
        tab.wait_for_selector("body[data-ready=table]", timeout=10000)
        tab.wait_for_selector("#connection[data-state=live]", timeout=10000)
        tab.evaluate(SHOW, True)  # the next tab comes in front
        tab.wait_for_selector("#connection[data-state=paused]", timeout=5000)
        opened.append(tab)
    reply = httpx.post(
        f"{server.url}/tables/{created['id']}/lines",
        json={"text": "round 1", "expect": 0},
        headers={"Authorization": f"Bearer {created['host_token']}"},
    )
    assert reply.status_code == 201, reply.text
    first = opened[0]
    assert first.locator("#lines li").count() == 0  # hidden: not following
    first.evaluate(SHOW, False)
    first.wait_for_selector("#connection[data-state=live]")
    wait_lines(first, 1)
    first.fill("#line", "governor: Anna")
    first.press("#line", "Enter")
    wait_lines(first, 2)


def test_at_phone_width_nothing_scrolls_sideways(tabs: Tabs, server: ServerProcess) -> None:
    tab = tabs.open(PHONE)
    open_form(tab, server)
    tab.select_option("#game", "santorini-new-york")
    tab.click(".more-tags summary")
    no_horizontal_scroll(tab)
    shot(tab, "phone-form")

    game = generated("santorini-new-york", 2, seed=7)
    create(tab, "santorini-new-york", game.players)
    table = Table("santorini-new-york", game.players, game.tags)
    for k, text in enumerate(game.lines[:8]):
        enter(tab, table, text, k)
    tab.wait_for_selector("#picture [data-block=board] svg")
    assert workers_drawn(tab)
    tab.fill("#line", game.players[0][:2])  # the suggestions open over the page
    assert tab.is_visible("#suggestions")
    no_horizontal_scroll(tab)
    box = tab.locator("#picture [data-block=board] svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    tab.fill("#line", "Anna: fly a2-z9")  # a long refusal, wrapped
    tab.press("#line", "Enter")
    tab.wait_for_selector("#refusal:not([hidden])")
    no_horizontal_scroll(tab)
    shot(tab, "phone-table")


def test_the_page_runs_only_its_own_files_and_talks_only_to_its_server(tabs: Tabs, server: ServerProcess) -> None:
    tab = tabs.open()
    response = tab.goto(server.url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy and "default-src 'none'" in policy
    tab.wait_for_selector("body[data-ready=create]")
    refusals: list[str] = []
    tab.on("console", lambda message: refusals.append(message.text))
    outcome = tab.evaluate(
        """() => { const script = document.createElement('script');
        script.textContent = 'window.injected = true;';
        document.body.appendChild(script);
        return fetch('https://example.invalid/data').then(() => 'fetched', () => 'refused')
          .then((fetched) => [fetched, window.injected === true]); }"""
    )
    tab.wait_for_timeout(200)
    assert outcome == ["refused", False]
    assert sum("Content Security Policy" in text for text in refusals) >= 2, refusals
    tabs.problems = [text for text in tabs.problems if "Content Security Policy" not in text]
    assert tabs.elsewhere == []  # refused by the policy before any request was made
