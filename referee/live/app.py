"""The live referee's HTTP API: a Starlette (ASGI) app over a ``TableService``, as the contract says
(``/work/shared/spec/live-api.md``; docs/live.md). JSON in and out; every refusal is a JSON error, never a traceback;
the OpenAPI document (``openapi.json``, data beside this module) is served as it is.

Nothing a request says is opened as a path: a table's tags name variants, boards and deck lists by registered name
only (the service's reading policy); the page, its scripts and styles, the games' catalogue and the OpenAPI document
are read from the package once, at start.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from .games import catalogue
from .tables import ApiError, TableService, bad_request

MAX_BODY = 64 * 1024  # bytes of a request body
LOG = logging.getLogger("referee.live")

# The scorekeeper page: static files read from the package at start (name -> package, file, media type); the picture
# is the report page's own drawing code (one copy). The page runs only these scripts and styles and talks only to
# this server.
PAGE_FILES = {
    "live.js": ("referee.live", "page/live.js", "text/javascript; charset=utf-8"),
    "live.css": ("referee.live", "page/live.css", "text/css; charset=utf-8"),
    "picture.js": ("referee.report", "assets/picture.js", "text/javascript; charset=utf-8"),
    "picture.css": ("referee.report", "assets/picture.css", "text/css; charset=utf-8"),
}
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
PAGE_HEADERS = {
    "Content-Security-Policy": PAGE_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _package_text(name: str, package: str = "referee.live") -> str:
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def openapi_document() -> dict[str, Any]:
    """The API's OpenAPI 3.1 document."""
    document: dict[str, Any] = json.loads(_package_text("openapi.json"))
    return document


class JSON(JSONResponse):
    """JSON as UTF-8 text (names and cards as written, not escaped)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def error_response(error: ApiError) -> Response:
    headers = {"WWW-Authenticate": "Bearer"} if error.status == 401 else None
    return JSON(error.body(), status_code=error.status, headers=headers)


# -- reading requests --------------------------------------------------------------------------------------------------
def bearer_token(request: Request) -> str:
    """The token of ``Authorization: Bearer TOKEN``; 401 without one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(
            401, "unauthorized", "no-token", "send the table's host or seat token: Authorization: Bearer TOKEN"
        )
    return token.strip()


async def json_body(request: Request, fields: Mapping[str, tuple[type, bool]]) -> dict[str, Any]:
    """The request's JSON object, at most ``MAX_BODY`` bytes, with only the ``fields`` named (name -> (type,
    required)); 400 saying what is wrong otherwise."""
    length = request.headers.get("content-length", "")
    if length and (not length.isdigit() or int(length) > MAX_BODY):
        raise bad_request("body-too-large", f"the request body is larger than {MAX_BODY // 1024} KB")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise bad_request("body-too-large", f"the request body is larger than {MAX_BODY // 1024} KB")
    try:
        data = json.loads(body.decode("utf-8-sig"))  # a BOM in front is ignored, as RFC 8259 allows
    except UnicodeDecodeError:
        raise bad_request("not-json", "the request body is not UTF-8 text") from None
    except (ValueError, RecursionError):
        raise bad_request("not-json", "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise bad_request(
            "not-json", "the request body is a JSON object: {" + ", ".join(f'"{f}": ...' for f in fields) + "}"
        )
    unknown = [name for name in data if name not in fields]
    if unknown:
        raise bad_request("unknown-field", f"unknown field {json.dumps(unknown[0])[:60]} (fields: {', '.join(fields)})")
    for name, (kind, required) in fields.items():
        if name not in data or (data[name] is None and not required):  # an optional field left out, or null
            if required:
                raise bad_request("missing-field", f'the field "{name}" is missing')
            data.pop(name, None)
            continue
        value = data[name]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise bad_request("bad-field", f'the field "{name}" is {_kind_name(kind)}')
    return data


def _kind_name(kind: type) -> str:
    return {str: "a string", int: "a whole number", list: "a list", dict: "an object"}.get(kind, kind.__name__)


def _expect(data: Mapping[str, Any]) -> int | None:
    expect = data.get("expect")
    if expect is not None and expect < 0:
        raise bad_request("bad-field", 'the field "expect" is a number of lines (0 or more)')
    return expect


def _strings(value: Any, what: str) -> None:
    if isinstance(value, list) and not all(isinstance(item, str) for item in value):
        raise bad_request("bad-field", f"{what} are strings")
    if isinstance(value, dict) and not all(isinstance(item, str) for item in value.values()):
        raise bad_request("bad-field", f"{what} are strings")


# -- the routes --------------------------------------------------------------------------------------------------------
def service(request: Request) -> TableService:
    tables: TableService = request.app.state.tables
    return tables


async def create_table(request: Request) -> Response:
    data = await json_body(request, {"game": (str, True), "players": (list, True), "tags": (dict, False)})
    _strings(data["players"], 'the "players"')
    tags = data.get("tags") or {}
    _strings(tags, 'the values of "tags"')
    created = await service(request).create(data["game"], data["players"], tags)
    url = str(request.url_for("table", table_id=created.row.id))
    body = {
        "id": created.row.id,
        "game": created.row.game,
        "players": list(created.row.players),
        "host_token": created.host_token,
        "seat_tokens": created.seat_tokens,
        "url": url,
    }
    return JSON(body, status_code=201, headers={"Location": url})


async def table(request: Request) -> Response:
    token = bearer_token(request)
    return JSON(await service(request).view(request.path_params["table_id"], token))


async def post_line(request: Request) -> Response:
    token = bearer_token(request)
    data = await json_body(request, {"text": (str, True), "expect": (int, False)})
    reply = await service(request).play(request.path_params["table_id"], token, data["text"], _expect(data))
    return JSON(reply, status_code=201)


async def withdraw_line(request: Request) -> Response:
    token = bearer_token(request)
    expect = request.query_params.get("expect")
    if expect is not None and not expect.isdigit():
        raise bad_request("bad-field", 'the query parameter "expect" is a number of lines (0 or more)')
    reply = await service(request).undo(request.path_params["table_id"], token, int(expect) if expect else None)
    return JSON(reply)


async def legal(request: Request) -> Response:
    token = bearer_token(request)
    prefix = request.query_params.get("prefix", "")
    return JSON(await service(request).legal(request.path_params["table_id"], token, prefix))


async def record(request: Request) -> Response:
    token = bearer_token(request)
    text = await service(request).record(request.path_params["table_id"], token)
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8")


async def events(request: Request) -> Response:
    token = bearer_token(request)
    stream = await service(request).stream(request.path_params["table_id"], token)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream, media_type="text/event-stream; charset=utf-8", headers=headers)


async def page(request: Request) -> Response:
    html: str = request.app.state.page
    return HTMLResponse(html, headers=PAGE_HEADERS)


async def page_file(request: Request) -> Response:
    """One of the page's scripts or styles (a fixed set, read at start: nothing a request names is opened)."""
    found: tuple[str, str] | None = request.app.state.page_files.get(request.path_params["name"])
    if found is None:
        raise ApiError(404, "not-found", "no-such-path", f"no such path: {request.url.path[:100]}")
    text, media_type = found
    return Response(text, media_type=media_type, headers=PAGE_HEADERS)


async def games(request: Request) -> Response:
    return JSON(request.app.state.games)


async def openapi(request: Request) -> Response:
    return JSON(request.app.state.openapi)


# -- refusals as JSON --------------------------------------------------------------------------------------------------
async def on_api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc)


async def on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        error = ApiError(404, "not-found", "no-such-path", f"no such path: {request.url.path[:100]}")
    elif exc.status_code == 405:
        error = ApiError(405, "bad-request", "method-not-allowed", f"{request.method} is not allowed here")
        return JSON(error.body(), status_code=405, headers=exc.headers)
    else:
        error = ApiError(exc.status_code, "bad-request", "http-error", str(exc.detail))
    return error_response(error)


async def on_crash(request: Request, exc: Exception) -> Response:
    """A server bug: a JSON error for the client, the traceback for the server's log only."""
    return error_response(
        ApiError(500, "internal", "internal-error", "the server failed on this request (a bug: see the server's log)")
    )


ROUTES = [
    Route("/", page, methods=["GET"], name="page"),
    Route("/page/{name}", page_file, methods=["GET"], name="page_file"),
    Route("/openapi.json", openapi, methods=["GET"], name="openapi"),
    Route("/games", games, methods=["GET"], name="games"),
    Route("/tables", create_table, methods=["POST"], name="tables"),
    Route("/tables/{table_id}", table, methods=["GET"], name="table"),
    Route("/tables/{table_id}/lines", post_line, methods=["POST"], name="lines"),
    Route("/tables/{table_id}/lines/last", withdraw_line, methods=["DELETE"], name="last_line"),
    Route("/tables/{table_id}/legal", legal, methods=["GET"], name="legal"),
    Route("/tables/{table_id}/record", record, methods=["GET"], name="record"),
    Route("/tables/{table_id}/events", events, methods=["GET"], name="events"),
]


def create_app(tables: TableService, *, close_store: bool = True) -> Starlette:
    """The ASGI app serving ``tables``. When it shuts down (its lifespan ends) the event streams end, the judging
    thread stops and, with ``close_store``, the store is closed."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        tables.close()
        if close_store:
            tables.store.close()

    app = Starlette(
        routes=ROUTES,
        lifespan=lifespan,
        exception_handlers={ApiError: on_api_error, HTTPException: on_http_error, Exception: on_crash},
    )
    app.state.tables = tables
    app.state.page = _package_text("page/index.html")
    app.state.page_files = {
        name: (_package_text(file, package), media_type) for name, (package, file, media_type) in PAGE_FILES.items()
    }
    app.state.games = catalogue()
    app.state.openapi = openapi_document()
    return app
