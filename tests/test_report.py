"""The report page without a browser: the pictures each game takes of the referee's own state, the steps and their
deltas, the record text beside them, the standings, the page's escaping of hostile record text, and the command.
(The page in a real browser: ``test_report_browser.py``.)"""

from __future__ import annotations

import html.parser
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.errors import Verdict
from referee.game import GameState, GameType
from referee.record import GameRecord, iter_games
from referee.registry import GAMES
from referee.replay import GameReport, RecordSource, Referee, ReplayVisitor, check_text
from referee.report import collect
from referee.report.build import write_report
from referee.report.collect import judge_with_details
from referee.report.page import MARK, Standings, csp_hash, script_json, unpack

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
SP_GOLDEN = RECORDS / "saint-petersburg" / "golden" / "golden-2p-2nd-edition.rec"
SJ_GAME = RECORDS / "san-juan" / "generated" / "sj-3p-seed01.rec"
SNY_GAME = RECORDS / "santorini-new-york" / "generated" / "sny-2p-manhattan-seed00.rec"
SJ_ILLEGAL = RECORDS / "san-juan" / "illegal" / "sj-well-not-owned.rec"


# ----------------------------------------------------------------------------------------------------- helpers
class States(ReplayVisitor):
    """What a test reads of the state after setup and after every statement (the state changes as it goes)."""

    def __init__(self, read: Callable[[GameState], Any]) -> None:
        self.read = read
        self.seen: list[tuple[int | None, Any]] = []

    def begin(self, record: GameRecord, game: GameType, state: GameState) -> None:
        self.seen.append((None, self.read(state)))

    def statement(self, number: int, text: str, statement: Any, state: GameState) -> None:
        self.seen.append((number, self.read(state)))


def replay(path: Path, read: Callable[[GameState], Any]) -> list[tuple[int | None, Any]]:
    visitor = States(read)
    (record,) = list(iter_games(path.read_text(encoding="utf-8"), str(path)))
    Referee().judge(record, path.parent, visitor)
    return visitor.seen


def details(path: Path) -> list[tuple[GameReport, dict[str, Any]]]:
    source = RecordSource(path, str(path), path.name)
    return [(report, detail.as_dict()) for report, detail in judge_with_details(source, Referee())]


def expand(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the page's script does with the steps: each position from the one before and its delta."""
    current: dict[str, Any] = {}
    out = []
    for step in steps:
        current = {**current, **step["d"]}
        for key in step.get("x", []):
            current.pop(key, None)
        out.append(current)
    return out


def lines_of(text: str) -> list[str]:
    """A file's lines as the referee numbers them (a last line end starts no line)."""
    return text.removesuffix("\n").split("\n")


def block(position: dict[str, Any], key: str) -> dict[str, Any]:
    found: dict[str, Any] = position[f"b:{key}"]
    return found


def page_parts(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The overview and every game's details, read back from a page."""
    overview = json.loads(re.search(r'<script type="application/json" id="referee-overview">(.*?)</script>', text)[1])
    games = re.findall(r'<script type="application/x-referee-game" id="game-(\d+)">([A-Za-z0-9+/=]*)</script>', text)
    assert [int(number) for number, _ in games] == list(range(len(games)))
    return overview, [unpack(packed) for _, packed in games]


def write_page(paths: list[Path | str], tmp_path: Path) -> str:
    out = tmp_path / "page.html"
    with open(out, "w", encoding="utf-8") as handle:
        from referee.replay import find_records

        write_report(find_records(paths), Referee(), handle, arguments=[str(p) for p in paths])
    return out.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------------- pictures
def test_every_built_in_game_names_a_picture_module() -> None:
    for game in GAMES.values():
        assert game.picture_module and collect.picture_of(game) is not None, game.id


def test_saint_petersburg_pictures_are_the_referees_state() -> None:
    def read(state: Any) -> Any:
        scores = state.outcome().scores if state.is_terminal() else {}
        return [(p.rubles, scores.get(p.name, p.vp), [c.name for c in p.area]) for p in state.p]

    seen = replay(SP_GOLDEN, read)
    ((report, detail),) = details(SP_GOLDEN)
    positions = expand(detail["steps"])
    assert len(positions) == len(seen) == report.statements + 1
    for k, (line, players) in enumerate(seen):  # once over, the VP shown are the final scores
        assert detail["steps"][k]["line"] == line
        for seat, (rubles, vp, area) in enumerate(players):
            player = block(positions[k], f"p{seat}")
            assert player["stats"]["rubles"] == rubles and player["stats"]["VP"] == vp
            drawn = [card["name"] for group in player["groups"] if group["key"] != "hand" for card in group["cards"]]
            assert sorted(drawn) == sorted(area)
    assert block(positions[-1], "p1")["stats"]["VP"] == report.outcome.scores["Boris"] == 53  # type: ignore[union-attr]


def test_saint_petersburg_display_rows_and_colours() -> None:
    seen = replay(SP_GOLDEN, lambda s: ([c.name for c in s.upper], [c.name for c in s.lower]))  # type: ignore[attr-defined]
    ((_, detail),) = details(SP_GOLDEN)
    for position, (_, (upper, lower)) in zip(expand(detail["steps"]), seen, strict=True):
        groups = {group["key"]: group for group in block(position, "display")["groups"]}
        assert [card["name"] for card in groups["upper"]["cards"]] == upper
        assert [card["name"] for card in groups["lower"]["cards"]] == lower
    anna = block(expand(detail["steps"])[20], "p0")
    for group in anna["groups"]:
        if group["key"] in ("green", "blue", "red"):
            assert all(card["colour"] == group["key"] for card in group["cards"])


def test_san_juan_pictures_show_cities_goods_hands_and_the_tile() -> None:
    def read(state: Any) -> Any:
        return (state.tile, [(list(p.city), p.goods_total, p.hand_size, p.hand_unknown) for p in state.p])

    seen = replay(SJ_GAME, read)
    ((_, detail),) = details(SJ_GAME)
    tiles = 0
    for position, (_, (tile, players)) in zip(expand(detail["steps"]), seen, strict=True):
        assert block(position, "tile")["items"]["tile"] == (tile or "none turned up yet")
        tiles += tile is not None
        for seat, (city, goods, hand, unknown) in enumerate(players):
            player = block(position, f"p{seat}")
            groups = {group["key"]: group["cards"] for group in player["groups"]}
            assert [card["name"] for card in groups["city"]] == city
            assert sum("good" in card.get("badge", "") for card in groups["city"]) == goods == player["stats"]["goods"]
            assert len(groups["hand"]) == hand == player["stats"]["hand"]
            assert sum(card["name"] == "?" for card in groups["hand"]) >= unknown
    assert tiles > 0


def test_santorini_pictures_draw_the_board_the_referee_judges() -> None:
    def read(state: Any) -> Any:
        board, pos = state.board, state.pos
        return {
            board.square(cell): (pos.height[cell], cell in pos.roof, cell in pos.sky, pos.workers.get(cell))
            for cell in board.spaces
        }

    seen = replay(SNY_GAME, read)
    ((_, detail),) = details(SNY_GAME)
    for position, (_, squares) in zip(expand(detail["steps"]), seen, strict=True):
        grid = block(position, "board")
        cells = {cell["square"]: cell for cell in grid["cells"] if cell is not None}
        assert set(cells) == set(squares)
        for square, (height, roof, sky, worker) in squares.items():
            cell = cells[square]
            assert (cell["level"], cell.get("roof", False), cell.get("sky", False), cell.get("worker")) == (
                height,
                roof,
                sky,
                worker,
            )
        assert len(grid["cells"]) == grid["width"] * grid["height"]


def test_pictures_are_plain_json_data() -> None:
    for path in (SP_GOLDEN, SJ_GAME, SNY_GAME):
        ((_, detail),) = details(path)
        assert json.loads(json.dumps(detail)) == detail


def test_score_charts_follow_the_rounds() -> None:
    ((_, detail),) = details(SP_GOLDEN)
    charts = {chart["label"]: chart for chart in detail["charts"]}
    assert set(charts) == {"VP", "rubles"}
    vp = charts["VP"]
    assert vp["x"][0] == "1" and vp["x"][-1] == "end"
    assert [series[-1] for series in vp["series"]] == [28, 53]  # the final scores
    assert all(len(series) == len(vp["x"]) for series in vp["series"])
    ((_, sny),) = details(SNY_GAME)
    assert [chart["label"] for chart in sny["charts"]] == ["top worker level"]


# ------------------------------------------------------------------------------------------- steps and errors
def test_an_illegal_game_ends_with_the_error_and_the_state_before_it() -> None:
    ((report, detail),) = details(SJ_ILLEGAL)
    error = report.error
    assert report.verdict is Verdict.ILLEGAL and error is not None and error.line == 16
    last = detail["steps"][-1]
    assert last["error"] is True and last["line"] == 16
    assert detail["error"]["code"] == error.code and detail["error"]["rule"] == error.kind.summary
    assert detail["error"]["alternatives"] == error.alternatives and detail["error"]["alternatives"]
    assert detail["error"]["state"] == error.state
    positions = expand(detail["steps"])
    assert positions[-1] == positions[-2]  # the state before the offending statement: the last legal one
    assert sum(bool(step.get("error")) for step in detail["steps"]) == 1


@pytest.mark.parametrize(
    ("players", "verdict", "code"),
    [("Anna, Anna", Verdict.MALFORMED, "bad-players"), ("Anna", Verdict.ILLEGAL, "player-count")],
)
def test_a_game_broken_in_its_tags_has_only_the_error_step(
    tmp_path: Path, players: str, verdict: Verdict, code: str
) -> None:
    """A tag that cannot be read (malformed) or breaks a rule (illegal): the page shows the error at the tag."""
    path = tmp_path / "bad.rec"
    text = f'[Game "Saint Petersburg"]\n[Players "{players}"]\n\ntokens: Anna worker\n'
    path.write_text(text, encoding="utf-8")
    ((report, detail),) = details(path)
    assert report.verdict is verdict
    assert detail["steps"] == [{"line": 2, "d": {}, "error": True}]
    assert (detail["error"]["verdict"], detail["error"]["code"], detail["error"]["column"]) == (verdict, code, 10)
    assert detail["text"] == {"first": 1, "lines": text.splitlines()}


def test_each_game_gets_its_own_lines_of_a_file(tmp_path: Path) -> None:
    one = SP_GOLDEN.read_text(encoding="utf-8")
    two = SNY_GAME.read_text(encoding="utf-8")
    path = tmp_path / "two.rec"
    path.write_text("# leading comment\n\n" + one + "\n# between\n" + two, encoding="utf-8")
    lines = lines_of(path.read_text(encoding="utf-8"))
    (first, a), (second, b) = details(path)
    assert a["text"]["first"] == 1 and b["text"]["first"] == second.line
    assert a["text"]["lines"] + b["text"]["lines"] == lines
    assert b["text"]["lines"][0].startswith('[Game "Santorini')
    for report, detail in ((first, a), (second, b)):  # every step's line is in the game's own text
        text = detail["text"]
        for step in detail["steps"][1:]:
            assert text["first"] <= step["line"] < text["first"] + len(text["lines"])
        assert report.verdict is Verdict.VALID


def test_deltas_rebuild_every_picture() -> None:
    class Pictures(ReplayVisitor):
        def __init__(self) -> None:
            self.flat: list[dict[str, Any]] = []

        def begin(self, record: GameRecord, game: GameType, state: GameState) -> None:
            self.picture = collect.picture_of(game)
            self.statement(0, "", None, state)

        def statement(self, number: int, text: str, statement: Any, state: GameState) -> None:
            assert self.picture is not None
            self.flat.append(json.loads(json.dumps(collect.flatten(self.picture(state)))))

    for path in (SP_GOLDEN, SJ_GAME, SNY_GAME):
        visitor = Pictures()
        (record,) = list(iter_games(path.read_text(encoding="utf-8"), str(path)))
        Referee().judge(record, path.parent, visitor)
        ((_, detail),) = details(path)
        assert expand(detail["steps"]) == visitor.flat
        changed = sum(len(step["d"]) for step in detail["steps"][1:]) / (len(detail["steps"]) - 1)
        assert changed < len(visitor.flat[-1]) / 2  # a step carries what changed, not the whole picture


def test_a_failing_picture_falls_back_to_the_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    game = GAMES["saint-petersburg"]
    calls = []

    def broken(state: GameState) -> dict[str, Any]:
        calls.append(1)
        if len(calls) > 3:
            raise KeyError("boom")
        return {"head": "fine", "blocks": {}}

    monkeypatch.setitem(collect._PICTURES, game.picture_module or "", broken)
    ((report, detail),) = details(SP_GOLDEN)
    assert report.verdict is Verdict.VALID
    assert "KeyError" in detail["picture_problem"] and "boom" in detail["picture_problem"]
    positions = expand(detail["steps"])
    assert positions[2]["head"] == "fine" and "text" not in positions[2]
    assert positions[-1]["text"].startswith("game over") and len(calls) == 4


def test_a_game_without_a_picture_module_gets_the_summary_text(tmp_path: Path) -> None:
    record = tmp_path / "nim.rec"
    record.write_text('[Game "Nim"]\n[Players "Anna, Boris"]\n\npile: 21\nAnna: take 3\nBoris: take 1\n', "utf-8")
    out = tmp_path / "nim.html"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "toy"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "report", str(record), "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    overview, (detail,) = page_parts(out.read_text(encoding="utf-8"))
    assert overview["games"][0]["game"] == "Nim" and overview["games"][0]["verdict"] == "unfinished"
    assert detail["picture"] is None
    positions = expand(detail["steps"])
    assert len(positions) == 4 and all(position["text"] and position["head"] for position in positions)
    assert positions[0]["order"] == []  # no blocks


# --------------------------------------------------------------------------------------------------- standings
def report_of(game: str, players: list[str], verdict: Verdict, winners: list[str], scores: dict[str, int] | None):  # type: ignore[no-untyped-def]
    from referee.game import Outcome, Termination

    class Ended(Termination):
        OVER = ("over", "the game is over")

    report = GameReport("f.rec", 1, 1, game, verdict, players=players)
    if verdict is Verdict.VALID:
        report.outcome = Outcome(winners, Ended.OVER, scores)
    return report


def test_standings_count_games_wins_and_points_per_game() -> None:
    standings = Standings()
    sp, sny = "saint-petersburg", "santorini-new-york"
    standings.add(report_of(sp, ["Anna", "Boris"], Verdict.VALID, ["Anna"], {"Anna": 60, "Boris": 50}))
    standings.add(
        report_of(
            sp, ["Anna", "Boris", "Clara"], Verdict.VALID, ["Boris", "Clara"], {"Anna": 40, "Boris": 55, "Clara": 55}
        )
    )
    standings.add(report_of(sp, ["Anna", "Boris"], Verdict.ILLEGAL, [], None))
    standings.add(report_of(sny, ["Anna", "Boris"], Verdict.VALID, ["Boris"], None))
    standings.add(GameReport("x.rec", 1, 1, None, Verdict.MALFORMED))  # never set up: no players
    rows = {(row["game"], row["player"]): row for row in standings.rows()}
    assert rows[("Saint Petersburg", "Anna")] == {
        "game": "Saint Petersburg",
        "player": "Anna",
        "games": 3,
        "finished": 2,
        "wins": 1,
        "shared": 0,
        "points": 100,
    }
    assert rows[("Saint Petersburg", "Boris")]["wins"] == 1 and rows[("Saint Petersburg", "Boris")]["shared"] == 1
    assert rows[("Saint Petersburg", "Clara")]["games"] == 1 and rows[("Saint Petersburg", "Clara")]["points"] == 55
    assert (
        rows[("Santorini: New York", "Boris")]["wins"] == 1 and rows[("Santorini: New York", "Boris")]["points"] is None
    )
    by_wins_then_points = ["Boris", "Anna", "Clara"]  # 1 win 105 VP, 1 win 100 VP, 1 win 55 VP
    assert [row["player"] for row in standings.rows() if row["game"] == "Saint Petersburg"] == by_wins_then_points


# ------------------------------------------------------------------------------------------------------- page
HOSTILE = """# </script><script>alert('comment')</script><!--
[Game "Saint Petersburg"]
[Players "Anna, </script><img src=x onerror=alert(1)>"]
[Event "</script><script>alert('event')</script> & &amp; \u2028"]

tokens: Anna worker aristocrat, "</script><img src=x onerror=alert(1)>" building upgrade
round 1   # <b onmouseover=alert(2)>bold</b> ]]> {{script}} {{overview}} \\u003c/script>
worker phase
deal: Lumberjack, Gold Miner, Shepherd, Lumberjack
Anna: buy Shepherd for 99   # </SCRIPT >
"""


class Elements(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_hostile_record_text_stays_text(tmp_path: Path) -> None:
    folder = tmp_path / "<b>&amp;\"'"
    folder.mkdir()
    (folder / "x<script>.rec").write_text(HOSTILE, encoding="utf-8")
    text = write_page([folder], tmp_path)
    parser = Elements()
    parser.feed(text)
    tags = [tag for tag, _ in parser.tags]
    assert "img" not in tags and "b" not in tags
    scripts = [attrs.get("type") for tag, attrs in parser.tags if tag == "script"]
    assert scripts == ["application/x-referee-game", "application/json", None]
    assert text.count("</script>") == 3
    overview, (detail,) = page_parts(text)
    (row,) = overview["games"]
    assert row["players"] == ["Anna", "</script><img src=x onerror=alert(1)>"]
    assert row["event"] == "</script><script>alert('event')</script> & &amp; \u2028"
    assert row["file"].endswith("/<b>&amp;\"'/x<script>.rec")
    assert row["verdict"] == "illegal" and row["line"] == 10
    assert detail["text"]["lines"] == lines_of(HOSTILE)
    assert block(expand(detail["steps"])[0], "p1")["name"] == "</script><img src=x onerror=alert(1)>"
    assert re.search(r"<title>referee report</title>", text)


def test_script_json_cannot_close_its_element() -> None:
    value = {"a": "</script><!-- & \u2028 \ud800", "b": ["<", ">"]}
    text = script_json(value)
    assert "<" not in text and ">" not in text and "&" not in text and text.isascii()
    assert json.loads(text) == value


def test_the_page_runs_only_its_own_script(tmp_path: Path) -> None:
    text = write_page([SP_GOLDEN], tmp_path)
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text)[1].replace("&#x27;", "'")
    script = re.search(r"<script>(.*)</script>\s*</body>", text, re.S)[1]
    style = re.search(r"<style>(.*)</style>", text, re.S)[1]
    assert f"script-src {csp_hash(script)};" in csp and f"style-src {csp_hash(style)};" in csp
    assert "default-src 'none'" in csp and "connect-src" not in csp
    assert not re.search(r"(src|href)=\"(https?:|//)", text) and "@import" not in text
    assert MARK in text[:400]


def test_a_title_is_escaped(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    result = CliRunner().invoke(
        main, ["report", str(SP_GOLDEN), "-o", str(out), "--title", "</title><script>x</script>{{style}}"]
    )
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;{{style}}</title>" in text


# ---------------------------------------------------------------------------------------------------- command
def test_report_command_writes_a_page_and_says_what_it_holds(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "report.html"
    result = CliRunner().invoke(main, ["report", str(SP_GOLDEN), str(SJ_ILLEGAL), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {out}: 2 game(s): 1 valid, 1 illegal\n"
    overview, games = page_parts(out.read_text(encoding="utf-8"))
    assert [row["verdict"] for row in overview["games"]] == ["valid", "illegal"] and len(games) == 2
    assert [p.name for p in out.parent.iterdir()] == ["report.html"]  # no temporary file left behind


def test_report_never_overwrites_a_file_it_did_not_write(tmp_path: Path) -> None:
    out = tmp_path / "notes.html"
    out.write_text("<p>my notes</p>", encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(SP_GOLDEN), "-o", str(out)])
    assert result.exit_code == 2 and "never overwrites" in result.output
    assert out.read_text(encoding="utf-8") == "<p>my notes</p>"
    mine = tmp_path / "report.html"
    assert CliRunner().invoke(main, ["report", str(SP_GOLDEN), "-o", str(mine)]).exit_code == 0
    result = CliRunner().invoke(main, ["report", str(SJ_ILLEGAL), "-o", str(mine)])  # its own page: replaced
    assert result.exit_code == 0, result.output
    overview, _ = page_parts(mine.read_text(encoding="utf-8"))
    assert [row["file"] for row in overview["games"]] == [str(SJ_ILLEGAL)]


def test_report_reads_like_check(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["report", str(empty), "-o", str(out)])
    assert result.exit_code == 1 and "no record files" in result.output and not out.exists()
    assert list(tmp_path.iterdir()) == [empty]
    text = SP_GOLDEN.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["report", "-", "-o", str(out), "--max-size", "1M"], input=text)
    assert result.exit_code == 0, result.output
    overview, (detail,) = page_parts(out.read_text(encoding="utf-8"))
    assert overview["games"][0]["file"] == "<stdin>" and detail["text"]["lines"] == lines_of(text)
    small = tmp_path / "small.html"
    result = CliRunner().invoke(main, ["report", str(SP_GOLDEN), "-o", str(small), "--max-size", "100"])
    overview, (detail,) = page_parts(small.read_text(encoding="utf-8"))
    assert overview["games"][0]["code"] == "unreadable-file" and detail["steps"] == [] and detail["text"]["lines"] == []


def test_jobs_give_the_same_page(tmp_path: Path) -> None:
    paths = [str(SP_GOLDEN), str(SJ_ILLEGAL), str(SNY_GAME)]
    one, two = tmp_path / "one.html", tmp_path / "two.html"
    assert CliRunner().invoke(main, ["report", *paths, "-o", str(one)]).exit_code == 0
    assert CliRunner().invoke(main, ["report", *paths, "-o", str(two), "-j", "2"]).exit_code == 0
    assert one.read_bytes() == two.read_bytes()


def test_the_overview_agrees_with_check(tmp_path: Path) -> None:
    folder = RECORDS / "saint-petersburg" / "golden"
    text = write_page([folder], tmp_path)
    overview, games = page_parts(text)
    reports = [r for path in sorted(folder.glob("*.rec")) for r in check_text(path.read_text("utf-8"), str(path))]
    assert [(row["verdict"], row["winners"], row["scores"]) for row in overview["games"]] == [
        (r.verdict.value, r.outcome.winners, r.outcome.scores)
        for r in reports  # type: ignore[union-attr]
    ]
    assert len(games) == len(reports) == 5
    assert {row["player"] for row in overview["standings"]} == {p for r in reports for p in r.players}


def test_the_report_package_imports_no_game() -> None:
    from test_architecture import game_of, imported_modules

    for path in sorted((ROOT / "referee" / "report").glob("*.py")):
        assert not {game for module in imported_modules(path) if (game := game_of(module))}, path.name
