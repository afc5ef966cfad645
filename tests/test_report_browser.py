"""The report page in a real browser: headless Chromium (the system's, see ``referee.report.browser``) driven by
Playwright opens a report of the whole records corpus from disk, steps through games with the keyboard and checks
that what it draws is the state the referee's own replay reaches at that line — rubles and VP, the cards of a row, a
city, a worker's square and height — that an illegal game shows its error at the right line with the rule, the state
before it and the legal alternatives, that no request leaves the page and that no console error occurs.

Screenshots go to ``tests/artifacts/`` (git-ignored; CI keeps the folder as an artefact). Skipped, with the reason,
only when no Chromium binary is found (``apt-get install chromium``, or ``REFEREE_CHROMIUM=/path/to/chrome``) —
and then an error instead when ``REFEREE_REQUIRE_BROWSER`` is set, as ``.ci/run`` sets it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.errors import Verdict
from referee.game import GameState, GameType
from referee.parallel import default_jobs
from referee.record import GameRecord, iter_games
from referee.replay import GameReport, Referee, ReplayVisitor, find_records
from referee.report.browser import MISSING, browser_for_tests, launch
from referee.report.build import write_report

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = browser_for_tests()  # CI (.ci/run): a missing browser is a failure

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=MISSING)

SP_GAME = "records/saint-petersburg/golden/golden-2p-2nd-edition.rec"
SJ_GAME = "records/san-juan/generated/sj-3p-seed01.rec"
SNY_GAME = "records/santorini-new-york/generated/sny-2p-manhattan-seed00.rec"
SJ_ILLEGAL = "records/san-juan/illegal/sj-well-not-owned.rec"
BROKEN_TAGS = {  # a tag that cannot be read (malformed) and tags that break a rule (illegal), all at the tag
    "malformed": "records/saint-petersburg/illegal/bad-players-duplicate.rec",
    "illegal": "records/saint-petersburg/illegal/player-count-one.rec",
    "illegal-deck": "records/santorini-new-york/illegal/deck-mix-two-builders.rec",
}


# ----------------------------------------------------------------------------------------------------- fixtures
class Corpus:
    """The corpus report and what Python knows of it."""

    def __init__(self, page: Path, counts: Counter[Verdict], rows: list[dict[str, Any]]) -> None:
        self.page, self.counts, self.rows = page, counts, rows

    def id_of(self, file: str) -> int:
        return next(row["id"] for row in self.rows if row["file"].endswith(file))

    def url(self, fragment: str = "") -> str:
        return self.page.as_uri() + fragment


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    page = tmp_path_factory.mktemp("report") / "corpus.html"
    with open(page, "w", encoding="utf-8") as out:
        counts = write_report(find_records([RECORDS]), Referee(), out, arguments=["records"], jobs=default_jobs())
    text = page.read_text(encoding="utf-8")
    start = text.index('<script type="application/json" id="referee-overview">')
    rows = json.loads(text[text.index(">", start) + 1 : text.index("</script>", start)])["games"]
    for row in rows:  # the rows name files as judged (absolute); the tests name them from the project root
        row["file"] = Path(row["file"]).relative_to(ROOT).as_posix()
    return Corpus(page, counts, rows)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None
    with sync_playwright() as playwright:
        context = launch(
            playwright, tmp_path_factory.mktemp("chromium-profile"), CHROMIUM, viewport={"width": 1400, "height": 1000}
        )
        yield context
        context.close()


@pytest.fixture
def tab(browser: Any, corpus: Corpus) -> Iterator[Any]:
    """A new tab on the corpus page in which every request but the page itself (and data: URLs) fails the test,
    as does any console error or uncaught exception."""
    page = browser.new_page()
    allowed = corpus.page.as_uri()
    requests: list[str] = []
    blocked: list[str] = []
    problems: list[str] = []

    def route(route: Any) -> None:
        url = route.request.url
        if url.split("#")[0] == allowed or url.startswith("data:"):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    page.route("**/*", route)
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: problems.append(message.text) if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    yield page
    page.close()
    assert not blocked, f"the page asked for {blocked}"
    assert all(url.split("#")[0] == allowed or url.startswith("data:") for url in requests), requests
    assert not problems, problems


def open_page(tab: Any, corpus: Corpus, fragment: str = "") -> None:
    tab.goto(corpus.url(fragment))
    tab.wait_for_selector("body[data-ready=true]")


def open_game(tab: Any, corpus: Corpus, file: str) -> None:
    """From the overview: search for the file, click its row, wait for the first position."""
    open_page(tab, corpus)
    tab.fill("#filter-text", Path(file).name)
    rows = tab.locator("#game-rows tr:not([hidden])")
    assert rows.count() == 1
    rows.first.locator("td").nth(2).click()
    label_starts(tab, "step 0 ")


def step_to(tab: Any, current: int, target: int) -> int:
    """Step with the keyboard: arrow keys, ten at a time with Shift."""
    while target - current >= 10:
        tab.keyboard.press("Shift+ArrowRight")
        current += 10
    while current < target:
        tab.keyboard.press("ArrowRight")
        current += 1
    while current > target:
        tab.keyboard.press("ArrowLeft")
        current -= 1
    label_starts(tab, f"step {target} ")
    return current


def label_starts(tab: Any, prefix: str) -> None:
    """Wait until the step label starts so. (A function, not an expression: the page's policy forbids eval.)"""
    tab.wait_for_function("(p) => document.getElementById('step-label').textContent.startsWith(p)", arg=prefix)


def shot(tab: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"report-{name}.png"), full_page=True)


class Seen(ReplayVisitor):
    """What a test reads of the referee's state after setup and after each statement: (line, value)."""

    def __init__(self, read: Callable[[Any], Any]) -> None:
        self.read = read
        self.steps: list[tuple[int | None, Any]] = []

    def begin(self, record: GameRecord, game: GameType, state: GameState) -> None:
        self.steps.append((None, self.read(state)))

    def statement(self, number: int, text: str, statement: Any, state: GameState) -> None:
        self.steps.append((number, self.read(state)))


def replay(file: str, read: Callable[[Any], Any]) -> tuple[GameReport, list[tuple[int | None, Any]]]:
    path = ROOT / file
    visitor = Seen(read)
    (record,) = list(iter_games(path.read_text(encoding="utf-8"), file))
    return Referee().judge(record, path.parent, visitor), visitor.steps


def current_line(tab: Any) -> int:
    return int(tab.locator("#record .line.current").get_attribute("data-line"))


def texts(tab: Any, selector: str, attribute: str | None = None) -> list[str]:
    locator = tab.locator(selector)
    if attribute:
        return [locator.nth(k).get_attribute(attribute) for k in range(locator.count())]
    return locator.all_inner_texts()  # type: ignore[no-any-return]


# -------------------------------------------------------------------------------------------------------- tests
def test_the_overview_lists_sorts_and_filters_the_corpus(tab: Any, corpus: Corpus) -> None:
    open_page(tab, corpus)
    total = sum(corpus.counts.values())
    assert tab.inner_text("#shown").startswith(f"{total} of {total} shown")
    chips = dict(chip.split(" ", 1)[::-1] for chip in texts(tab, "#totals .chip"))
    assert chips == {verdict.value: str(count) for verdict, count in corpus.counts.items()}
    assert tab.locator("#game-rows tr").count() == min(100, total)
    shot(tab, "overview")

    tab.select_option("#filter-verdict", "illegal")
    illegal = corpus.counts[Verdict.ILLEGAL]
    assert tab.inner_text("#shown").startswith(f"{illegal} of {total} shown")
    assert set(texts(tab, "#game-rows tr", "data-verdict")) == {"illegal"}
    tab.select_option("#filter-verdict", "")
    tab.fill("#filter-text", "golden")
    assert len(texts(tab, "#game-rows tr")) == 5 and all("golden" in t for t in texts(tab, "#game-rows td.file-cell"))
    tab.fill("#filter-text", "sj-not-owed")  # an error code
    assert all("sj-not-owed" in t for t in texts(tab, "#game-rows td.problem")) and texts(tab, "#game-rows tr")
    tab.fill("#filter-text", "")
    tab.click("#games th[data-sort=verdict]")
    assert texts(tab, "#game-rows tr", "data-verdict")[0] == "valid"
    tab.click("#games th[data-sort=verdict]")
    assert texts(tab, "#game-rows tr", "data-verdict")[0] == "malformed"
    tab.click("#page-next")
    assert tab.inner_text("#page-label").startswith("page 2 of")
    assert tab.locator("#standings table[data-game='Saint Petersburg'] tr[data-player=Anna]").count() == 1


def test_a_large_page_opens_and_filters_quickly(tab: Any, corpus: Corpus) -> None:
    """Generous bounds (the figures for 1,000 games are in docs/report.md): they catch a quadratic slip."""
    open_page(tab, corpus)
    tab.wait_for_function("() => performance.getEntriesByName('referee-painted').length > 0")
    painted = tab.evaluate("performance.getEntriesByName('referee-painted')[0].startTime")
    filtered = tab.evaluate(
        """() => { const t = performance.now(); const i = document.getElementById('filter-text');
        i.value = 'anna'; i.dispatchEvent(new Event('input')); document.body.offsetHeight;
        return performance.now() - t; }"""
    )
    assert painted < 10_000 and filtered < 2_000, (painted, filtered)


def test_saint_petersburg_steps_show_the_referees_state(tab: Any, corpus: Corpus) -> None:
    def read(state: Any) -> Any:
        return {
            "upper": [c.name for c in state.upper],
            "lower": [c.name for c in state.lower],
            "players": [(p.name, p.rubles, p.vp, len(p.hand), sorted(c.name for c in p.area)) for p in state.p],
            "over": state.is_terminal(),
        }

    _, steps = replay(SP_GAME, read)
    open_game(tab, corpus, SP_GAME)
    at = 0
    for target in (1, 9, 40, 41, 120, len(steps) - 10):
        at = step_to(tab, at, target)
        line, state = steps[target]
        assert current_line(tab) == line
        assert not state["over"]
        assert texts(tab, "[data-block=display] [data-group=upper] [data-card]", "data-card") == state["upper"]
        assert texts(tab, "[data-block=display] [data-group=lower] [data-card]", "data-card") == state["lower"]
        for name, rubles, vp, hand, area in state["players"]:
            player = tab.locator(f"[data-block][data-player='{name}']")
            assert player.locator("[data-stat=rubles]").inner_text() == str(rubles)
            assert player.locator("[data-stat=VP]").inner_text() == str(vp)
            assert player.locator("[data-stat=hand]").inner_text() == str(hand)
            drawn = texts(player, "[data-group=green] [data-card], [data-group=blue] [data-card], "
                                  "[data-group=red] [data-card]", "data-card")  # fmt: skip
            assert sorted(drawn) == area
    shot(tab, "saint-petersburg")
    tab.keyboard.press("Home")
    label_starts(tab, "step 0 ")
    assert tab.locator("#record .line.current").count() == 0
    tab.keyboard.press("End")
    assert "game over" in tab.inner_text("#head")
    assert tab.locator("#charts figure[data-chart=VP] polyline").count() == 2
    assert tab.locator("#charts figure[data-chart=VP] figcaption").inner_text().endswith("Boris 53")


def test_san_juan_steps_show_cities_hands_and_the_tile(tab: Any, corpus: Corpus) -> None:
    def read(state: Any) -> Any:
        return (state.tile, [(p.name, list(p.city), p.hand_size, p.goods_total) for p in state.p])

    _, steps = replay(SJ_GAME, read)
    target = len(steps) // 2
    open_page(tab, corpus, f"#game={corpus.id_of(SJ_GAME)}&step={target}")  # a deep link to a step
    label_starts(tab, f"step {target} ")
    at = target
    for goal in (target, target + 3, target - 2, len(steps) - 1):
        at = step_to(tab, at, goal)
        line, (tile, players) = steps[goal]
        assert current_line(tab) == line
        assert tab.locator("[data-block=tile] [data-fact=tile]").inner_text() == (tile or "none turned up yet")
        for name, city, hand, goods in players:
            player = tab.locator(f"[data-block][data-player='{name}']")
            assert texts(player, "[data-group=city] [data-card]", "data-card") == city
            assert player.locator("[data-stat=hand]").inner_text() == str(hand)
            assert player.locator("[data-group=hand] [data-card]").count() == hand
            assert player.locator("[data-stat=goods]").inner_text() == str(goods)
    shot(tab, "san-juan")


def test_santorini_board_shows_heights_and_workers(tab: Any, corpus: Corpus) -> None:
    def read(state: Any) -> Any:
        board, pos = state.board, state.pos
        return {
            "squares": {board.square(c): (pos.height[c], c in pos.roof, c in pos.sky) for c in board.spaces},
            "workers": {board.square(c): seat for c, seat in pos.workers.items()},
            "holder": state.players[state.holder] if state.holder is not None else None,
        }

    _, steps = replay(SNY_GAME, read)
    open_game(tab, corpus, SNY_GAME)
    at = 0
    for target in (3, 12, 30, len(steps) - 1):
        at = step_to(tab, at, target)
        line, state = steps[target]
        assert current_line(tab) == line
        assert tab.locator("[data-block=board] [data-worker]").count() == len(state["workers"])
        for square, seat in state["workers"].items():
            cell = tab.locator(f"[data-block=board] [data-square={square}]")
            assert cell.get_attribute("data-worker") == str(seat)
            assert cell.get_attribute("data-level") == str(state["squares"][square][0])
        levels = dict(
            zip(texts(tab, "[data-square]", "data-square"), texts(tab, "[data-square]", "data-level"), strict=True)
        )
        assert levels == {square: str(height) for square, (height, _, _) in state["squares"].items()}
        assert set(texts(tab, "[data-square][data-sky]", "data-square")) == {
            s for s, v in state["squares"].items() if v[2]
        }
        assert set(texts(tab, "[data-square][data-roof]", "data-square")) == {
            s for s, v in state["squares"].items() if v[1]
        }
        holder = tab.locator("[data-block=table] [data-fact='Statue of Liberty']").inner_text()
        assert holder == (state["holder"] or "-")
    shot(tab, "santorini-new-york")


def test_an_illegal_game_shows_its_error_at_the_right_line(tab: Any, corpus: Corpus) -> None:
    report, steps = replay(SJ_ILLEGAL, lambda state: state.summary())
    error = report.error
    assert error is not None and error.line == 16
    open_game(tab, corpus, SJ_ILLEGAL)
    assert "illegal at line 16" in tab.inner_text("#game-verdict")
    error_line = tab.locator("#record .line.error-line")
    assert error_line.get_attribute("data-line") == "16"
    assert error_line.evaluate("e => getComputedStyle(e).color") == "rgb(179, 38, 30)"  # red
    assert tab.locator("#error-detail").is_hidden()
    tab.keyboard.press("e")
    tab.wait_for_function("() => document.getElementById('step-label').textContent.includes('the error, at line 16')")
    assert current_line(tab) == 16
    detail = tab.locator("#error-detail")
    assert detail.is_visible()
    assert detail.locator(".error-head").inner_text() == f"Line 16, column {error.column}: illegal [{error.code}]"
    assert detail.locator(".error-message").inner_text() == error.message
    assert detail.locator(".error-rule").inner_text() == f"Rule: {error.kind.summary}"
    assert detail.locator("pre.state-text").inner_text() == error.state == steps[-1][1]  # the state before it
    assert texts(tab, "#error-detail .alternatives li") == error.alternatives and error.alternatives
    shot(tab, "illegal")
    tab.keyboard.press("ArrowLeft")
    assert tab.locator("#error-detail").is_hidden() and current_line(tab) == steps[-1][0]


@pytest.mark.parametrize("broken", sorted(BROKEN_TAGS))
def test_a_game_broken_in_its_tags_shows_the_tag_line(tab: Any, corpus: Corpus, broken: str) -> None:
    row = next(row for row in corpus.rows if row["file"] == BROKEN_TAGS[broken])
    assert row["verdict"] == broken.split("-")[0]
    open_page(tab, corpus, f"#game={row['id']}")
    tab.wait_for_selector("#error-detail:not([hidden])")
    assert tab.locator("#record .line.error-line").get_attribute("data-line") == str(row["line"])
    head = tab.inner_text("#error-detail .error-head")
    assert f"column {row['column']}: {row['verdict']} [{row['code']}]" in head


def test_every_kind_of_game_and_verdict_draws_without_errors(tab: Any, corpus: Corpus) -> None:
    """A sample of every game and verdict, opened from the overview, at the start, the middle and the end."""
    sample: dict[tuple[str, str], list[int]] = {}
    for row in corpus.rows:
        sample.setdefault((row["game"], row["verdict"]), []).append(row["id"])
    open_page(tab, corpus)
    opened = 0
    for ids in sample.values():
        for game_id in ids[:: max(1, len(ids) // 3)][:3]:
            tab.evaluate(f"location.hash = '#game={game_id}'")
            tab.wait_for_function(
                "() => /^step \\d+ of|^no position/.test(document.getElementById('step-label').textContent)"
            )
            tab.keyboard.press("End")
            tab.keyboard.press("Shift+ArrowLeft")
            tab.keyboard.press("Escape")
            tab.wait_for_selector("#overview-view:not([hidden])")
            opened += 1
    assert opened >= len(sample) >= 8


def test_the_page_cannot_reach_the_network_even_when_asked(browser: Any, corpus: Corpus) -> None:
    """Its Content-Security-Policy lets the page load nothing: a script that tried (injected, say) is refused before
    any request is made."""
    page = browser.new_page()
    reached: list[str] = []
    refusals: list[str] = []

    def route(route: Any) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            reached.append(route.request.url)
            route.abort()

    page.route("**/*", route)
    page.on("console", lambda message: refusals.append(message.text))
    try:
        open_page(page, corpus)
        outcome = page.evaluate(
            """() => { const image = new Image(); image.src = 'https://example.invalid/x.png';
            document.body.appendChild(image);
            return fetch('https://example.invalid/data').then(() => 'fetched', () => 'refused'); }"""
        )
        page.wait_for_timeout(200)
    finally:
        page.close()
    assert outcome == "refused" and reached == []
    assert sum("Content Security Policy" in text for text in refusals) >= 2, refusals
