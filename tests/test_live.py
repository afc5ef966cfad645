"""The live referee through a real server: ``referee serve`` on 127.0.0.1 in a child process, driven over HTTP with
httpx — every endpoint and refusal of the contract (/work/shared/spec/live-api.md, docs/live.md), each response
checked against the OpenAPI document the server serves; a server killed with SIGKILL in the middle of concurrent posts
keeps exactly the lines it acknowledged (and the one in flight at most); clients racing on one table lose no line;
50 tables with 4 clients each; a whole game of each game ends as ``check`` judges its record.

``REFEREE_LIVE=deep`` makes the load tests longer (more tables, lines and clients)."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import random
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_openapi

from referee.cli import main
from referee.errors import Verdict
from referee.live.access import line_player, token_hash
from referee.live.app import PAGE_FILES, ROUTES, openapi_document
from referee.live.spawn import ServerProcess
from referee.live.store import Conflict, SQLiteStore, StoreError, TableRow
from referee.record import excerpt, iter_games
from referee.registry import GAMES
from referee.replay import check_text
from referee.report.page import asset
from referee.table import NOT_TABLE_TAGS, Table, TableError
from referee.testkit import NAMES

DEEP = os.environ.get("REFEREE_LIVE") == "deep"
DOC = openapi_document()


# -- the contract, as the OpenAPI document states it ----------------------------------------------------------------
def conforms(response: httpx.Response, method: str, template: str) -> httpx.Response:
    """The response is one the document lists for this operation, and its JSON body fits the documented schema."""
    responses = DOC["paths"][template][method.lower()]["responses"]
    status = str(response.status_code)
    assert status in responses, f"{method} {template}: {status} is not documented ({response.text[:300]})"
    media = response.headers["content-type"].split(";")[0]
    content = responses[status].get("content", {})
    assert media in content, f"{method} {template} {status}: {media} is not documented"
    if media == "application/json":
        schema = content[media]["schema"]
        Draft202012Validator({**schema, "components": DOC["components"]}).validate(response.json())
    assert "Traceback" not in response.text
    return response


def script(game_id: str, players: int, seed: int) -> tuple[dict[str, str], list[str]]:
    """A generated game of ``game_id``: the tags a table takes, and its statement lines."""
    game = GAMES[game_id]
    text = game.play(NAMES[:players], random.Random(seed), game.ruleset(None), {})
    (record,) = iter_games(text)
    tags = {name: value for name, value in record.tag_values().items() if name.lower() not in NOT_TABLE_TAGS}
    lines = [line for _, line in record.body if isinstance(line, str) and line.strip() and line.lstrip()[0] != "#"]
    return tags, lines


def token_for(created: dict[str, Any], text: str) -> str:
    """The token a scorekeeper uses for a line of a generated game: the seat's for a player's line, else the host's."""
    head = text.partition(":")[0].strip()
    return created["seat_tokens"].get(head, created["host_token"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Api:
    """The contract's calls, each response checked against the document."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=20)

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()

    def create(self, game: str, players: list[str], tags: dict[str, str] | None = None) -> httpx.Response:
        body: dict[str, Any] = {"game": game, "players": players}
        if tags is not None:
            body["tags"] = tags
        return conforms(self.http.post("/tables", json=body), "POST", "/tables")

    def table(self, game: str, players: list[str], tags: dict[str, str] | None = None) -> dict[str, Any]:
        response = self.create(game, players, tags)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def post(self, table_id: str, token: str | None, text: str, expect: int | None = None) -> httpx.Response:
        body: dict[str, Any] = {"text": text} if expect is None else {"text": text, "expect": expect}
        headers = bearer(token) if token is not None else {}
        response = self.http.post(f"/tables/{table_id}/lines", json=body, headers=headers)
        return conforms(response, "POST", "/tables/{table_id}/lines")

    def get(self, table_id: str, token: str | None) -> httpx.Response:
        headers = bearer(token) if token is not None else {}
        return conforms(self.http.get(f"/tables/{table_id}", headers=headers), "GET", "/tables/{table_id}")

    def record(self, table_id: str, token: str) -> httpx.Response:
        response = self.http.get(f"/tables/{table_id}/record", headers=bearer(token))
        return conforms(response, "GET", "/tables/{table_id}/record")

    def legal(self, table_id: str, token: str | None, prefix: str | None = None) -> httpx.Response:
        headers = bearer(token) if token is not None else {}
        params = {"prefix": prefix} if prefix is not None else {}
        response = self.http.get(f"/tables/{table_id}/legal", headers=headers, params=params)
        return conforms(response, "GET", "/tables/{table_id}/legal")

    def undo(self, table_id: str, token: str, expect: int | None = None) -> httpx.Response:
        params = {"expect": str(expect)} if expect is not None else {}
        response = self.http.delete(f"/tables/{table_id}/lines/last", headers=bearer(token), params=params)
        return conforms(response, "DELETE", "/tables/{table_id}/lines/last")

    def play_all(self, created: dict[str, Any], lines: list[str]) -> None:
        self.play_all_from(created, 0, lines)

    def play_all_from(self, created: dict[str, Any], before: int, lines: list[str]) -> None:
        """Send ``lines`` to a table that has ``before`` lines: each must be accepted with its number."""
        for number, text in enumerate(lines, before + 1):
            response = self.post(created["id"], token_for(created, text), text, expect=number - 1)
            assert response.status_code == 201, (number, text, response.text)
            assert response.json()["number"] == number


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("live") / "tables.db", "--heartbeat", "0.2") as process:
        yield process


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[Api]:
    with Api(server.url) as client:
        yield client


def error_of(response: httpx.Response) -> dict[str, Any]:
    error: dict[str, Any] = response.json()["error"]
    return error


# -- the document ------------------------------------------------------------------------------------------------------
def test_the_openapi_document_is_valid_served_as_is_and_names_every_route(api: Api) -> None:
    validate_openapi(DOC)
    response = api.http.get("/openapi.json")
    assert response.status_code == 200 and response.json() == DOC
    documented = {
        (path, method.upper()) for path, item in DOC["paths"].items() for method in item if method != "parameters"
    }
    served = {
        (route.path.replace("{table_id}", "{table_id}"), method)
        for route in ROUTES
        for method in route.methods or ()
        if method != "HEAD"
    }
    assert documented == served


def test_the_page_is_served_with_a_policy_that_lets_it_run_only_its_own_files(api: Api) -> None:
    response = conforms(api.http.get("/"), "GET", "/")
    assert response.status_code == 200 and "<html" in response.text
    policy = dict(part.strip().split(" ", 1) for part in response.headers["content-security-policy"].split(";"))
    assert policy["default-src"] == "'none'" and policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'" and policy["base-uri"] == "'none'" and "unsafe" not in str(policy)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in response.text and " style=" not in response.text and "http" not in response.text
    names = re.findall(r'(?:src|href)="page/([^"]+)"', response.text)
    assert sorted(names) == sorted(PAGE_FILES)


@pytest.mark.parametrize("name", sorted(PAGE_FILES))
def test_the_page_files_are_served_with_their_types(api: Api, name: str) -> None:
    response = conforms(api.http.get(f"/page/{name}"), "GET", "/page/{name}")
    kind = "text/javascript" if name.endswith(".js") else "text/css"
    assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
    assert response.headers["x-content-type-options"] == "nosniff" and response.text.strip()


def test_the_picture_is_the_report_pages_own(api: Api) -> None:
    """One copy of the drawing code: the page is served the very file the report inlines."""
    for name in ("picture.js", "picture.css"):
        assert api.http.get(f"/page/{name}").text == asset(name)


@pytest.mark.parametrize("path", ["/page/app.py", "/page/..%2Fapp.py", "/page/index.html", "/page/%2Fetc%2Fpasswd"])
def test_nothing_else_is_served_as_a_page_file(api: Api, path: str) -> None:
    response = api.http.get(path)
    assert response.status_code == 404 and error_of(response)["code"] == "no-such-path"


def test_the_games_list_what_a_table_may_be_set_up_with(api: Api) -> None:
    response = conforms(api.http.get("/games"), "GET", "/games")
    games = {game["id"]: game for game in response.json()["games"]}
    assert set(games) == set(GAMES)
    for game_id, game in games.items():
        assert (game["min_players"], game["max_players"]) == (GAMES[game_id].min_players, GAMES[game_id].max_players)
        assert game["rulesets"] == list(GAMES[game_id].rulesets) and game["default_ruleset"] in game["rulesets"]
        assert game["variants"], game_id  # every game registers some
    sny = {tag["name"]: tag for tag in games["santorini-new-york"]["tags"]}
    assert sny["Board"]["parts"] == [{"label": "Board", "values": ["manhattan", "square-5x5"]}]
    assert sny["Board"]["default"] == "manhattan" and sny["DeckList"]["parts"][0]["values"] == ["provisional"]
    assert [part["label"] for part in sny["Deck"]["parts"]] == ["Engineer", "Builder", "Specialist", "Mover"]
    assert sny["Deck"]["default"] == "Engineer, Iron Worker, NYPD Officer, Subway Operator"
    assert "Taxi Driver" in sny["Deck"]["parts"][3]["values"] and "Taxi Driver" not in sny["Deck"]["parts"][1]["values"]


def test_every_choice_the_games_list_offers_sets_up_a_table(api: Api) -> None:
    """What the page's form offers, the server accepts: each ruleset, each variant, each registered name of a game's
    own tags (a deck: one of each part)."""
    for game in api.http.get("/games").json()["games"]:
        players = NAMES[: game["min_players"]]
        setups = [{"Ruleset": name} for name in game["rulesets"]] + [{"Variant": v["name"]} for v in game["variants"]]
        for tag in game["tags"]:
            parts = tag["parts"]
            for k in range(max(len(part["values"]) for part in parts)):
                setups.append({tag["name"]: ", ".join(part["values"][k % len(part["values"])] for part in parts)})
        for tags in setups:
            assert api.create(game["id"], players, tags).status_code == 201, (game["id"], tags)


def test_unknown_paths_and_methods_are_json_errors(api: Api) -> None:
    missing = api.http.get("/no/such/path")
    assert missing.status_code == 404 and error_of(missing)["code"] == "no-such-path"
    wrong = api.http.put("/tables")
    assert wrong.status_code == 405 and error_of(wrong)["kind"] == "bad-request"


# -- creating a table ----------------------------------------------------------------------------------------------
def test_a_table_is_created_with_a_host_token_and_a_token_per_seat(api: Api) -> None:
    response = api.create("Saint Petersburg", ["Anna", "Boris"], {"Event": "Club night"})
    assert response.status_code == 201
    created = response.json()
    assert created["game"] == "saint-petersburg" and created["players"] == ["Anna", "Boris"]
    assert set(created["seat_tokens"]) == {"Anna", "Boris"}
    tokens = [created["host_token"], *created["seat_tokens"].values()]
    assert len(set(tokens)) == 3 and all(len(token) >= 43 for token in tokens)  # 256 random bits, base64url
    assert response.headers["location"] == created["url"] == f"{api.url}/tables/{created['id']}"
    table = api.get(created["id"], created["host_token"]).json()
    assert table["tags"] == {"Event": "Club night"} and table["lines"] == [] and table["seat"] is None
    assert api.get(created["id"], created["seat_tokens"]["Boris"]).json()["seat"] == "Boris"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"not json", "not-json"),
        (b"[1, 2]", "not-json"),
        (b"\xff\xfe", "not-json"),
        (b"[" * 100_000, "body-too-large"),
        (json.dumps({"players": ["Anna", "Boris"]}).encode(), "missing-field"),
        (json.dumps({"game": "san-juan", "players": ["Anna", "Boris"], "colour": "red"}).encode(), "unknown-field"),
        (json.dumps({"game": "san-juan", "players": "Anna, Boris"}).encode(), "bad-field"),
        (json.dumps({"game": "san-juan", "players": ["Anna", 7]}).encode(), "bad-field"),
        (json.dumps({"game": "san-juan", "players": ["Anna", "Boris"], "tags": {"Event": 1}}).encode(), "bad-field"),
        (json.dumps({"game": "chess", "players": ["Anna", "Boris"]}).encode(), "unknown-game"),
        (json.dumps({"game": "san-juan", "players": ["Anna"]}).encode(), "player-count"),
        (json.dumps({"game": "san-juan", "players": ["Anna", "Anna"]}).encode(), "bad-players"),
        (json.dumps({"game": "san-juan", "players": ["Anna", "Boris, Clara"]}).encode(), "bad-table"),
        (json.dumps({"game": "san-juan", "players": ["Anna", "B" * 65]}).encode(), "bad-players"),
        (b'{"game": "san-juan", "players": ["Anna\\ud800", "Boris"]}', "bad-players"),  # a lone surrogate: 500
        (
            json.dumps({"game": "san-juan", "players": ["Anna", "Boris"], "tags": {"Result": "Anna"}}).encode(),
            "bad-table",
        ),
        (json.dumps({"game": "san-juan", "players": ["Anna", "Boris"], "tags": {"Ruleset": "9th"}}).encode(), None),
    ],
)
def test_a_bad_table_request_is_400_saying_why(api: Api, body: bytes, code: str | None) -> None:
    response = conforms(api.http.post("/tables", content=body), "POST", "/tables")
    assert response.status_code == 400
    error = error_of(response)
    assert error["kind"] == "bad-request" and error["message"]
    if code is not None:
        assert error["code"] == code, error


def test_a_json_body_opening_with_a_bom_is_read(api: Api) -> None:
    body = "\ufeff" + json.dumps({"game": "san-juan", "players": ["Anna", "Boris"]})
    response = conforms(api.http.post("/tables", content=body.encode()), "POST", "/tables")
    assert response.status_code == 201, response.text


def test_a_variant_board_or_deck_is_a_registered_name_never_a_path(api: Api, tmp_path: Path) -> None:
    """A table's tags name files as a record read from standard input does: by registered name only. A path — to a
    file that exists or not — gets one answer, so a request cannot probe for files."""
    assert api.create("saint-petersburg", ["Anna", "Boris"], {"Variant": "sp-no-pub"}).status_code == 201
    variant = tmp_path / "house.toml"
    variant.write_text('game = "saint-petersburg"\n[options]\npub = false\n', encoding="utf-8")
    messages = set()
    for reference in (str(variant), str(tmp_path / "missing.toml"), "/etc/passwd", "../../etc/passwd", "/dev/zero"):
        response = api.create("saint-petersburg", ["Anna", "Boris"], {"Variant": reference})
        assert response.status_code == 400 and error_of(response)["code"] == "unknown-variant", response.text
        messages.add(error_of(response)["message"].replace(excerpt(reference), "X"))
    assert len(messages) == 1, messages
    for tag, reference in (("Board", "/etc/passwd"), ("DeckList", str(variant))):
        response = api.create("santorini-new-york", ["Anna", "Boris"], {tag: reference})
        assert response.status_code == 400, response.text


# -- lines -------------------------------------------------------------------------------------------------------------
@pytest.fixture
def sj(api: Api) -> dict[str, Any]:
    """A San Juan table of Anna and Boris, set up: round 1, the governor, the hands dealt."""
    created = api.table("san-juan", ["Anna", "Boris"])
    for text in ("round 1", "governor: Anna", "hand Anna: Aqueduct, Well, Well, Crane", "hand Boris: ?, ?, ?, ?"):
        assert api.post(created["id"], created["host_token"], text).status_code == 201
    return created


def test_a_line_is_accepted_with_its_number_verdict_and_what_is_legal_next(api: Api, sj: dict[str, Any]) -> None:
    response = api.post(sj["id"], sj["seat_tokens"]["Anna"], "Anna: builder", expect=4)
    assert response.status_code == 201
    reply = response.json()
    assert reply["number"] == 5 and reply["verdict"] == "unfinished" and reply["outcome"] is None
    assert any(text.startswith("Anna: build") for text in reply["legal"]), reply["legal"]
    table = api.get(sj["id"], sj["host_token"]).json()
    assert table["lines"][-1] == "Anna: builder" and table["legal"] == reply["legal"]
    assert table["state"] and table["picture"]["blocks"] and table["ruleset"] == "1st edition"


def test_every_legal_statement_is_listed_where_legal_is_shortened(api: Api) -> None:
    """A Santorini turn has often hundreds of choices and ``legal`` lists 60 (as ``check -v`` does); ``GET legal``
    lists every one, for completion, and a prefix filters them."""
    tags, lines = script("santorini-new-york", 2, 1)
    created = api.table("santorini-new-york", ["Anna", "Boris"], tags)
    table_id, host = created["id"], created["host_token"]
    for number, text in enumerate(lines, 1):
        shown = api.get(table_id, host).json()["legal"]
        listed = api.legal(table_id, created["seat_tokens"]["Boris"]).json()
        assert listed["lines"] == number - 1 and listed["prefix"] == ""
        assert listed["legal"][: len(shown)] == shown  # (also where the reveals are shortened to 8)
        if len(shown) == 60 and len(listed["legal"]) > 60:
            break
        api.play_all_from(created, number - 1, [text])
    assert len(shown) == 60 and len(listed["legal"]) > 60
    head = listed["legal"][-1][:12]
    filtered = api.legal(table_id, host, head).json()
    assert filtered["prefix"] == head
    assert filtered["legal"] == [text for text in listed["legal"] if text.startswith(head)]
    assert api.legal(table_id, None).status_code == 401
    assert api.legal("no-such-table", host).status_code == 404
    assert api.legal(table_id, host, "Zeus: ").json()["legal"] == []


def test_an_illegal_or_malformed_line_is_422_exactly_as_check_reports_it(api: Api, sj: dict[str, Any]) -> None:
    for text, kind in (("Boris: builder", "illegal"), ("Anna: build Palace of Versailles", "malformed")):
        record = api.record(sj["id"], sj["host_token"]).text
        response = api.post(sj["id"], sj["host_token"], text)
        assert response.status_code == 422
        error = error_of(response)
        (report,) = check_text(record + text + "\n")
        expected = report.error
        assert expected is not None and error["kind"] == kind == report.verdict.value
        assert (error["code"], error["message"], error["column"], error["line"]) == (
            expected.code,
            expected.message,
            expected.column,
            expected.line,
        )
        assert (error["rule"], error["state"], error["legal"]) == (
            expected.kind.summary,
            expected.state,
            expected.alternatives,
        )
        assert api.record(sj["id"], sj["host_token"]).text == record, "a refused line is not kept"


def test_a_line_opening_with_a_bom_is_judged_as_check_reads_it_in_a_file(api: Api, sj: dict[str, Any]) -> None:
    """``check`` ignores a BOM opening a line (text pasted from a file saved with one); a table did not: it refused
    the line as malformed at the BOM, or sent a comment to the referee as a statement. The line is kept as read."""
    record = api.record(sj["id"], sj["host_token"]).text
    (report,) = check_text(record + "\ufeffAnna: builder\n")
    assert report.verdict is Verdict.UNFINISHED and report.error is None
    assert error_of(api.post(sj["id"], sj["host_token"], "\ufeff# a comment"))["code"] == "not-a-line"
    accepted = api.post(sj["id"], sj["seat_tokens"]["Anna"], "\ufeffAnna: builder", expect=4)
    assert accepted.status_code == 201 and accepted.json()["number"] == 5
    assert api.get(sj["id"], sj["host_token"]).json()["lines"][-1] == "Anna: builder"
    assert api.record(sj["id"], sj["host_token"]).text == record + "Anna: builder\n"
    table = Table("san-juan", ["Anna", "Boris"])
    table.play("\ufeffround 1")
    assert table.lines == ("round 1",)


def test_a_player_name_that_is_no_text_is_a_table_error() -> None:
    with pytest.raises(TableError, match="a player name is text"):
        Table("san-juan", [5, 6])  # type: ignore[list-item]


@pytest.mark.parametrize("text", ["", "   ", "# a comment", '[Event "x"]', "round 1\nround 2", "Anna: builder\r"])
def test_what_is_not_one_body_statement_is_400(api: Api, sj: dict[str, Any], text: str) -> None:
    response = api.post(sj["id"], sj["host_token"], text)
    assert response.status_code == 400 and error_of(response)["code"] == "not-a-line"


def test_a_line_holding_a_lone_surrogate_is_400_not_a_server_error(api: Api, sj: dict[str, Any]) -> None:
    """JSON may escape half a character (a lone surrogate), which no record file holds: it was a 500 (UTF-8 cannot
    encode it), from the host's token and from the seat's."""
    url = f"/tables/{sj['id']}/lines"
    for token, text in ((sj["host_token"], "round 1 "), (sj["seat_tokens"]["Anna"], "Anna: builder # ")):
        body = json.dumps({"text": text + "\ud800"}).encode()  # json.dumps escapes it: \\ud800
        response = conforms(api.http.post(url, content=body, headers=bearer(token)), "POST", "/tables/{table_id}/lines")
        assert response.status_code == 400, response.text
        assert error_of(response)["code"] == "not-a-line" and "is no character" in error_of(response)["message"]
    assert api.post(sj["id"], sj["seat_tokens"]["Anna"], "Anna: builder", expect=4).status_code == 201
    with pytest.raises(TableError, match="column 9 is no character"):
        Table("san-juan", ["Anna", "Boris"]).play("round 1 \ud800")


def test_a_line_body_must_be_right(api: Api, sj: dict[str, Any]) -> None:
    url = f"/tables/{sj['id']}/lines"
    for body in (
        b"{}",
        b'{"text": 5}',
        b'{"text": "Anna: builder", "expect": "4"}',
        b'{"text": "x", "expect": -1}',
        b'{"text": "x", "expect": true}',
        b'{"line": "Anna: builder"}',
        b"x" * (64 * 1024 + 1),
    ):
        response = conforms(
            api.http.post(url, content=body, headers=bearer(sj["host_token"])), "POST", "/tables/{table_id}/lines"
        )
        assert response.status_code == 400, body[:40]
    assert len(api.get(sj["id"], sj["host_token"]).json()["lines"]) == 4


def test_tokens_no_token_another_tables_token_and_a_seat_sending_what_is_not_its_own(
    api: Api, sj: dict[str, Any]
) -> None:
    other = api.table("san-juan", ["Anna", "Boris"])
    for token, status, code in (
        (None, 401, "no-token"),
        ("made-up", 401, "unknown-token"),
        (other["host_token"], 401, "unknown-token"),
        (other["seat_tokens"]["Anna"], 401, "unknown-token"),
        (sj["seat_tokens"]["Boris"], 403, "not-your-line"),  # Anna's line
    ):
        response = api.post(sj["id"], token, "Anna: builder")
        assert (response.status_code, error_of(response)["code"]) == (status, code)
    assert api.post(sj["id"], sj["seat_tokens"]["Anna"], "round 2").status_code == 403  # a game statement: host only
    said = {
        text: error_of(api.post(sj["id"], sj["seat_tokens"]["Boris"], text))["message"]
        for text in ("Anna: builder", "round 2", "Boris builder", "Zed: pass")
    }
    assert said["Anna: builder"].startswith("this is Anna's line: the seat token of Boris sends only Boris's own lines")
    assert said["round 2"].startswith("this is a game statement: ")
    assert said["Boris builder"].startswith("this line does not read as Boris's line (")  # not a game statement
    assert said["Zed: pass"].startswith("this line does not read as Boris's line ('Zed' is not a player of this table)")
    assert api.post(sj["id"], sj["seat_tokens"]["Anna"], '"Anna": builder').status_code == 201  # her line, quoted
    assert api.post("NoSuchTable", sj["host_token"], "Anna: builder").status_code == 404
    assert api.post("bad id!", sj["host_token"], "Anna: builder").status_code == 404
    assert api.get(sj["id"], None).status_code == 401
    assert api.get(sj["id"], other["host_token"]).status_code == 401
    assert api.http.get(f"/tables/{sj['id']}/record").status_code == 401


def test_whose_line_a_line_is() -> None:
    """A seat sends its player's actor lines only, also when its player is named like a statement keyword: a line
    that reads as the statement is the host's."""
    sp, sny = GAMES["saint-petersburg"], GAMES["santorini-new-york"]
    seats = {"Deal": 0, "Anna": 1}
    assert line_player(sp, seats, "Deal: pass") == "Deal"  # the player called Deal passes
    assert line_player(sp, seats, "Deal: Lumberjack, Shepherd") is None  # the deal
    assert line_player(sp, seats, '"Deal": pass') == "Deal"
    assert line_player(sp, seats, "  Anna  : buy Shepherd for 5 # cheap") == "Anna"
    assert line_player(sp, seats, "Anna: flies away") == "Anna"  # does not read: refused as hers (422)
    assert line_player(sp, seats, "Boris: pass") is None
    assert line_player(sp, seats, "worker phase") is None
    assert line_player(sp, seats, "Anna # note: pass") is None
    seats = {"Final": 0, "Anna": 1}
    assert line_player(sny, seats, "Final: move d8-c8") == "Final"  # ruling 17: Final is no keyword
    assert line_player(sny, seats, "final: Anna 3") is None


def test_a_seat_named_with_punctuation_is_told_how_its_lines_are_written(api: Api) -> None:
    table = api.table("san-juan", ["A#b", "Boris"])
    refused = api.post(table["id"], table["seat_tokens"]["A#b"], "Boris: pass")
    assert '("A#b": ...)' in error_of(refused)["message"]


def test_expect_given_as_null_is_expect_left_out(api: Api, sj: dict[str, Any]) -> None:
    response = api.http.post(
        f"/tables/{sj['id']}/lines",
        json={"text": "Anna: builder", "expect": None},
        headers=bearer(sj["host_token"]),
    )
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ([], "the list of players is empty"),
        (["Anna", "Boris", "Anna"], "lists 'Anna' twice"),
        (["Anna\nK", "Boris"], "no line break"),  # it broke the Players tag: 'a tag line must read [Name "value"]'
    ],
)
def test_a_bad_player_list_is_400_saying_what_is_wrong(api: Api, players: list[str], said: str) -> None:
    response = api.create("san-juan", players)
    assert response.status_code == 400 and said in error_of(response)["message"], response.text


def test_expect_refuses_a_line_sent_on_an_out_of_date_table(api: Api, sj: dict[str, Any]) -> None:
    first = api.post(sj["id"], sj["host_token"], "Anna: builder", expect=4)
    second = api.post(sj["id"], sj["host_token"], "Anna: builder", expect=4)  # the other client, also at 4 lines
    assert first.status_code == 201
    assert (
        second.status_code == 409 and error_of(second)["code"] == "expect-mismatch" and error_of(second)["lines"] == 5
    )
    assert api.get(sj["id"], sj["host_token"]).json()["lines"].count("Anna: builder") == 1


def test_the_last_line_is_withdrawn_by_the_host_only(api: Api, sj: dict[str, Any]) -> None:
    assert api.post(sj["id"], sj["host_token"], "Anna: builder").status_code == 201
    assert api.undo(sj["id"], sj["seat_tokens"]["Anna"]).status_code == 403
    assert api.undo(sj["id"], sj["host_token"], expect=4).status_code == 409
    response = api.undo(sj["id"], sj["host_token"], expect=5)
    assert response.status_code == 200
    assert response.json()["number"] == 5 and response.json()["text"] == "Anna: builder"
    assert response.json()["lines"] == 4
    assert api.get(sj["id"], sj["host_token"]).json()["lines"][-1] == "hand Boris: ?, ?, ?, ?"
    bad = api.http.delete(f"/tables/{sj['id']}/lines/last?expect=x", headers=bearer(sj["host_token"]))
    assert conforms(bad, "DELETE", "/tables/{table_id}/lines/last").status_code == 400
    for _ in range(4):
        assert api.undo(sj["id"], sj["host_token"]).status_code == 200
    empty = api.undo(sj["id"], sj["host_token"])
    assert empty.status_code == 409 and error_of(empty)["code"] == "no-lines"


def test_the_record_is_the_table_as_a_record_file(api: Api, sj: dict[str, Any]) -> None:
    response = api.record(sj["id"], sj["seat_tokens"]["Boris"])
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert text.startswith('[Game "San Juan"]\n[Players "Anna, Boris"]\n\nround 1\n')
    (report,) = check_text(text)
    assert report.verdict is Verdict.UNFINISHED and report.statements == 4


# -- spectators ------------------------------------------------------------------------------------------------------
class EventReader:
    """Reads a table's event stream on a thread of its own: (event, data) pairs, and ``": keep-alive"``."""

    def __init__(self, url: str, token: str | None) -> None:
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.status: int | None = None
        self.ready = threading.Event()
        headers = bearer(token) if token is not None else {}
        self.thread = threading.Thread(target=self._read, args=(url, headers), daemon=True)
        self.thread.start()
        self.ready.wait(10)

    def _read(self, url: str, headers: dict[str, str]) -> None:
        with httpx.Client(timeout=30) as client, client.stream("GET", url, headers=headers) as response:
            self.status = response.status_code
            self.content_type = response.headers["content-type"]
            self.ready.set()
            if response.status_code != 200:
                response.read()
                self.events.put(("refused", response.json()))
                return
            event = None
            for line in response.iter_lines():
                if line.startswith(":"):
                    self.events.put(("comment", line))
                elif line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    self.events.put((event or "message", json.loads(line[6:])))
            self.events.put(("end", None))

    def next(self, skip_comments: bool = True) -> tuple[str, Any]:
        while True:
            item = self.events.get(timeout=10)
            if not skip_comments or item[0] != "comment":
                return item


def test_spectators_get_an_event_per_line_and_undo_as_it_happens(api: Api, sj: dict[str, Any]) -> None:
    url = f"{api.url}/tables/{sj['id']}/events"
    assert EventReader(url, None).status == 401
    reader = EventReader(url, sj["seat_tokens"]["Boris"])
    assert reader.status == 200 and reader.content_type.startswith("text/event-stream")
    assert reader.next() == ("open", {"lines": 4, "verdict": "unfinished", "outcome": None})
    api.post(sj["id"], sj["host_token"], "Anna: builder")
    api.post(sj["id"], sj["host_token"], "Boris: builder")  # refused: not kept, no event
    api.undo(sj["id"], sj["host_token"])
    assert reader.next() == ("line", {"number": 5, "text": "Anna: builder", "verdict": "unfinished", "outcome": None})
    assert reader.next() == ("undo", {"number": 5, "text": "Anna: builder", "verdict": "unfinished", "outcome": None})
    assert reader.next(skip_comments=False) == ("comment", ": keep-alive")  # --heartbeat 0.2


def test_a_server_shutting_down_ends_its_event_streams(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "tables.db") as process, Api(process.url) as client:
        created = client.table("san-juan", ["Anna", "Boris"])
        reader = EventReader(f"{process.url}/tables/{created['id']}/events", created["host_token"])
        assert reader.next()[0] == "open"
        started = time.monotonic()
        assert process.stop() == 130  # Ctrl-C
        assert reader.next() == ("close", {"reason": "the server is shutting down"})
        assert reader.next() == ("end", None)
        assert time.monotonic() - started < 4, "the stream held the shutdown up"
        assert "Traceback" not in process.log()


# -- storage ---------------------------------------------------------------------------------------------------------
def test_tables_outlive_the_server_and_the_cache_and_the_size_limit_holds(tmp_path: Path) -> None:
    """With room for one table in memory, every other request rebuilds its table from the database; a restarted
    server has every table; a table's record stays within --max-size."""
    tags, lines = script("saint-petersburg", 2, 5)
    database = tmp_path / "tables.db"
    with ServerProcess(database, "--cache", "1", "--max-size", "2K") as process, Api(process.url) as client:
        first, second = client.table("saint-petersburg", NAMES[:2], tags), client.table("san-juan", NAMES[:2])
        refused = None
        for number, text in enumerate(lines, 1):
            response = client.post(first["id"], token_for(first, text), text)
            if response.status_code == 400:
                refused = number
                break
            assert response.status_code == 201 and response.json()["number"] == number, response.text
            assert client.get(second["id"], second["host_token"]).status_code == 200  # evicts the first table
        assert refused is not None and "2,048" in error_of(response)["message"]
        record = client.record(first["id"], first["host_token"]).text
        assert len(record.encode()) <= 2048
    with ServerProcess(database) as process, Api(process.url) as client:
        assert client.record(first["id"], first["host_token"]).text == record
        assert client.get(first["id"], first["seat_tokens"]["Anna"]).json()["lines"] == lines[: refused - 1]
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("tables.db*"))
    for created in (first, second):
        for token in (created["host_token"], *created["seat_tokens"].values()):
            assert token.encode() not in stored, "a token is stored only as its hash"
            assert token_hash(token).encode() in stored


def test_kill_9_under_concurrent_posts_keeps_every_acknowledged_line_and_no_other(tmp_path: Path) -> None:
    """Clients post the lines of generated games to their tables, with a malformed line now and then; the server is
    SIGKILLed in the middle. Started again on the same file, each table holds exactly the lines acknowledged, plus at
    most the one that was in flight at the kill (committed, its reply lost), never a refused line."""
    tables, kill_after = (16, 600) if DEEP else (8, 150)
    database = tmp_path / "tables.db"
    games = [script(game_id, 2 + i % 3, i) for i, game_id in zip(range(tables), list(GAMES) * tables, strict=False)]
    with ServerProcess(database) as process, Api(process.url) as client:
        created = [
            client.table(game_id, NAMES[: 2 + i % 3], games[i][0])
            for i, game_id in zip(range(tables), list(GAMES) * tables, strict=False)
        ]
        acked = [0] * tables
        in_flight: list[str | None] = [None] * tables
        total = threading.Semaphore(0)

        def post_lines(i: int) -> None:
            lines, table = games[i][1], created[i]
            with httpx.Client(base_url=process.url, timeout=10) as http:
                try:
                    for number, text in enumerate(lines, 1):
                        if number % 4 == 0:  # a line no table accepts
                            wrong = http.post(
                                f"/tables/{table['id']}/lines",
                                json={"text": "Anna: dances a jig"},
                                headers=bearer(table["host_token"]),
                            )
                            assert wrong.status_code == 422
                        in_flight[i] = text
                        response = http.post(
                            f"/tables/{table['id']}/lines", json={"text": text}, headers=bearer(token_for(table, text))
                        )
                        assert response.status_code == 201, response.text
                        acked[i] = number
                        in_flight[i] = None
                        total.release()
                except httpx.TransportError:
                    return  # the server is gone

        threads = [threading.Thread(target=post_lines, args=(i,)) for i in range(tables)]
        for thread in threads:
            thread.start()
        for _ in range(kill_after):
            assert total.acquire(timeout=30)
        process.kill()
        for thread in threads:
            thread.join(30)
        assert sum(acked) >= kill_after
    with ServerProcess(database) as process, Api(process.url) as client:
        extra = 0
        for i, table in enumerate(created):
            lines = client.get(table["id"], table["host_token"]).json()["lines"]
            script_lines = games[i][1]
            assert lines[: acked[i]] == script_lines[: acked[i]], f"table {i} lost an acknowledged line"
            assert len(lines) in (acked[i], acked[i] + 1), (i, len(lines), acked[i])
            if len(lines) == acked[i] + 1:
                assert lines[-1] == in_flight[i] == script_lines[acked[i]]
                extra += 1
            (report,) = check_text(client.record(table["id"], table["host_token"]).text)
            assert report.verdict.value == client.get(table["id"], table["host_token"]).json()["verdict"]
        assert extra <= tables
        nxt = len(client.get(created[0]["id"], created[0]["host_token"]).json()["lines"])
        text = games[0][1][nxt]
        assert client.post(created[0]["id"], token_for(created[0], text), text, expect=nxt).status_code == 201


# -- concurrency -----------------------------------------------------------------------------------------------------
async def _race(url: str, tables: list[tuple[dict[str, Any], list[str]]], clients: int) -> tuple[int, int]:
    """``clients`` clients per table, each on a connection of its own, sending the table's next line with ``expect``;
    a 409 tells it the count. Returns (lines accepted, conflicts)."""
    accepted = conflicts = 0

    async def client(created: dict[str, Any], lines: list[str]) -> None:
        nonlocal accepted, conflicts
        known = 0
        async with httpx.AsyncClient(base_url=url, timeout=30, verify=False) as http:  # plain HTTP: no TLS set-up
            while known < len(lines):
                text = lines[known]
                response = await http.post(
                    f"/tables/{created['id']}/lines",
                    json={"text": text, "expect": known},
                    headers=bearer(token_for(created, text)),
                )
                if response.status_code == 201:
                    accepted += 1
                    known = response.json()["number"]
                else:
                    assert response.status_code == 409, response.text
                    conflicts += 1
                    known = response.json()["error"]["lines"]

    await asyncio.gather(*(client(created, lines) for created, lines in tables for _ in range(clients)))
    return accepted, conflicts


def test_two_clients_on_one_table_lose_no_update(api: Api) -> None:
    tags, lines = script("san-juan", 3, 11)
    lines = lines[:60]
    created = api.table("san-juan", NAMES[:3], tags)
    accepted, conflicts = asyncio.run(_race(api.url, [(created, lines)], 2))
    assert accepted == len(lines) and conflicts > 0
    assert api.get(created["id"], created["host_token"]).json()["lines"] == lines


def test_fifty_tables_with_four_clients_each(api: Api) -> None:
    count, length = (50, 60) if DEEP else (50, 8)
    tables = []
    for i in range(count):
        game_id = list(GAMES)[i % len(GAMES)]
        tags, lines = script(game_id, 4, 100 + i)
        tables.append((api.table(game_id, NAMES[:4], tags), lines[:length]))
    accepted, _ = asyncio.run(_race(api.url, tables, 4))
    assert accepted == sum(len(lines) for _, lines in tables)
    for created, lines in tables:
        assert api.get(created["id"], created["host_token"]).json()["lines"] == lines


# -- whole games -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_whole_game_played_through_the_api_ends_as_check_judges_it(api: Api, game_id: str) -> None:
    players = GAMES[game_id].max_players if game_id != "saint-petersburg" else 3
    tags, lines = script(game_id, players, 42)
    created = api.table(game_id, NAMES[:players], tags)
    api.play_all(created, lines)
    table = api.get(created["id"], created["host_token"]).json()
    (expected,) = check_text(
        "".join(
            f'[{name} "{value}"]\n'
            for name, value in {"Game": GAMES[game_id].title, "Players": ", ".join(NAMES[:players]), **tags}.items()
        )
        + "\n"
        + "\n".join(lines)
        + "\n"
    )
    assert expected.verdict is Verdict.VALID and expected.outcome is not None
    assert table["verdict"] == "valid" and table["outcome"] == expected.outcome.as_dict()
    (again,) = check_text(api.record(created["id"], created["host_token"]).text)
    assert again.verdict is Verdict.VALID and again.outcome is not None
    assert again.outcome.as_dict() == table["outcome"]
    assert all(text.startswith(("final:", "win:")) for text in table["legal"]), table["legal"]  # claims only
    after = api.post(created["id"], created["host_token"], "round 1")
    assert after.status_code == 422 and error_of(after)["kind"] == "illegal"  # no play after the end


# -- the command -----------------------------------------------------------------------------------------------------
def test_serve_refuses_a_database_it_cannot_use_in_one_line(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE accounts (name TEXT)")
    text = tmp_path / "notes.txt"
    text.write_text("not a database " * 100, encoding="utf-8")
    for path, words in (
        (tmp_path, "folder"),
        (tmp_path / "missing" / "x.db", "cannot open"),
        (text, "not a referee table database"),
        (other, "another program's"),
    ):
        result = CliRunner().invoke(main, ["serve", "--port", "0", "--database", str(path)])
        assert result.exit_code == 1, result.output
        assert words in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_serve_refuses_a_database_in_use_and_an_address_in_use(tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    with ServerProcess(database) as process:
        result = CliRunner().invoke(main, ["serve", "--port", "0", "--database", str(database)])
        assert result.exit_code == 1 and "in use by another referee server" in result.output
        port = process.url.rsplit(":", 1)[1]
        result = CliRunner().invoke(main, ["serve", "--port", port, "--database", str(tmp_path / "b.db")])
        assert result.exit_code == 1 and f"cannot listen on 127.0.0.1 port {port}" in result.output


def test_the_store_refuses_a_change_judged_on_an_older_revision(tmp_path: Path) -> None:
    """What lets several server processes share a store: a change names the revision it was judged against."""

    async def run() -> None:
        store = SQLiteStore.open(tmp_path / "tables.db")
        row = TableRow("t1", "san-juan", ("Anna", "Boris"), {"Event": "x"}, "h", {"Anna": "a", "Boris": "b"}, 1.0)
        await store.create(row)
        await store.append("t1", 0, 1, "round 1")
        with pytest.raises(Conflict):
            await store.append("t1", 0, 1, "round 1")  # another process was first
        with pytest.raises(Conflict):
            await store.append("t1", 1, 3, "governor: Anna")  # not the next line
        await store.append("t1", 1, 2, "governor: Anna")
        with pytest.raises(Conflict):
            await store.remove_last("t1", 1, 2)
        await store.remove_last("t1", 2, 2)
        store.close()
        with pytest.raises(StoreError):
            await store.load("t1")
        again = SQLiteStore.open(tmp_path / "tables.db")
        stored = await again.load("t1")
        assert stored is not None and stored.row == row and stored.lines == ["round 1"] and stored.revision == 3
        assert await again.load("t2") is None
        again.close()

    asyncio.run(run())
    with sqlite3.connect(tmp_path / "tables.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_check_does_not_load_the_server() -> None:
    record = Path(__file__).parent.parent / "records" / "san-juan"
    code = (
        "import sys\nfrom click.testing import CliRunner\nfrom referee.cli import main\n"
        f"CliRunner().invoke(main, ['check', '--jobs', '1', {str(record)!r}])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'httpx')"
        " or m.startswith('referee.live')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_server_listens_on_localhost_unless_told_otherwise(server: ServerProcess) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    host, port = server.url[7:].split(":")
    with socket.create_connection((host, int(port)), timeout=5):
        pass


# -- the service behind the routes ------------------------------------------------------------------------------------
class FailingStore(SQLiteStore):
    """A store whose disk fails on demand."""

    fail = False

    async def append(self, table_id: str, revision: int, number: int, text: str) -> None:
        if self.fail:
            raise StoreError("disk I/O error")
        await super().append(table_id, revision, number, text)


def test_a_line_the_store_could_not_keep_is_refused_and_forgotten(tmp_path: Path) -> None:
    from referee.live.tables import ApiError, TableService
    from referee.resources import ReadPolicy

    async def run() -> None:
        store = FailingStore.open(tmp_path / "tables.db")
        tables = TableService(store, policy=ReadPolicy())
        created = await tables.create("san-juan", ["Anna", "Boris"], {})
        table_id, host = created.row.id, created.host_token
        await tables.play(table_id, host, "round 1", 0)
        store.fail = True
        with pytest.raises(ApiError) as refused:
            await tables.play(table_id, host, "governor: Anna", 1)
        assert (refused.value.status, refused.value.code) == (503, "store-failed")
        store.fail = False
        assert (await tables.view(table_id, host))["lines"] == ["round 1"]  # rebuilt from the store
        assert (await tables.play(table_id, host, "governor: Anna", 1))["number"] == 2
        tables.close()
        store.close()

    asyncio.run(run())


def test_a_stored_table_the_rules_refuse_is_a_500_naming_its_line(tmp_path: Path) -> None:
    from referee.live.tables import ApiError, TableService
    from referee.resources import ReadPolicy

    async def run() -> tuple[str, str]:
        store = SQLiteStore.open(tmp_path / "tables.db")
        tables = TableService(store, policy=ReadPolicy())
        created = await tables.create("san-juan", ["Anna", "Boris"], {})
        await tables.play(created.row.id, created.host_token, "round 1", 0)
        tables.close()
        store.close()
        return created.row.id, created.host_token

    table_id, host = asyncio.run(run())
    with sqlite3.connect(tmp_path / "tables.db") as db:  # as if the rules had changed since
        db.execute("UPDATE live_lines SET text = 'round 2' WHERE table_id = ?", (table_id,))

    async def again() -> None:
        store = SQLiteStore.open(tmp_path / "tables.db")
        tables = TableService(store, policy=ReadPolicy())
        with pytest.raises(ApiError) as refused:
            await tables.view(table_id, host)
        assert refused.value.status == 500 and refused.value.code == "stored-table-refused"
        assert "line 4 [" in refused.value.message
        tables.close()
        store.close()

    asyncio.run(again())


def test_a_spectator_too_far_behind_is_dropped() -> None:
    from referee.live.tables import Subscription

    async def run() -> None:
        subscription = Subscription(backlog=3)
        for number in range(5):
            subscription.push(f"{number}".encode())
        assert subscription.ended is not None and "fell more than 3 events behind" in subscription.ended
        assert [await subscription.next(1) for _ in range(4)] == [b"0", b"1", b"2", b""]  # then the stream ends
        quiet = Subscription()
        assert await quiet.next(0.01) is None  # a keep-alive is due

    asyncio.run(run())


def test_a_server_bug_is_a_json_500_without_a_traceback(tmp_path: Path) -> None:
    from referee.live.app import create_app
    from referee.live.tables import TableService
    from referee.resources import ReadPolicy

    class Broken(TableService):
        async def view(self, table_id: str, token: str | None) -> dict[str, Any]:
            raise RuntimeError("kaboom 42")

    async def run() -> httpx.Response:
        store = SQLiteStore.open(tmp_path / "tables.db")
        tables = Broken(store, policy=ReadPolicy())
        transport = httpx.ASGITransport(app=create_app(tables), raise_app_exceptions=False)
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                return await client.get("/tables/x", headers=bearer("t"))
        finally:
            tables.close()
            store.close()

    response = conforms(asyncio.run(run()), "GET", "/tables/{table_id}")
    assert response.status_code == 500 and error_of(response)["code"] == "internal-error"
    assert "kaboom" not in response.text
