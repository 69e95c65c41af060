"""The web application: HTTP routes (lobby, tables, records, replays), the table WebSocket and the UI.

:func:`create_app` wires a :class:`~.store.Store` (SQLite file by default, PostgreSQL by URL) and a
:class:`~.rooms.Hub` into a FastAPI app. Every HTTP endpoint appears in ``/openapi.json``; the
WebSocket messages are documented in ``docs/protocol.md`` from :mod:`.schemas`.

Anything an anonymous client can make the server do is bounded (:mod:`.limits`): bodies are limited
before they are read, every API request and every table creation is rate-limited per client address,
requests are validated strictly (a 422 names the bad value's location and never echoes it), and a
finished game's record and replay are computed once and then served from a cache with an ETag.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import html
import json
import string
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..bots import bot_names
from ..game import games, spec
from ..i18n import LANGUAGES, N_, translator
from ..i18n.cards import error_text
from ..i18n.negotiate import canonical
from . import analysis, i18n_routes, lifecycle, metrics, pages, players, ratings, routes_tables
from .accounts import identity
from .accounts import routes as account_routes
from .accounts.csrf import CsrfMiddleware
from .client import token_seat
from .cluster import Cluster, ClusterStore, open_store
from .limits import BodyLimit, Limits, RateLimiter, RequestRate, client_address
from .party_menus import PartyMenus, party_menus
from .rooms import Hub, Room, RoomError, replay_state, table_public
from .schemas import (
    ErrorBody,
    GameInfo,
    GamesResponse,
    HealthResponse,
    JoinRequest,
    JoinResponse,
    ReplayResponse,
    TableCreate,
    TableCreated,
    TableList,
    TablePublic,
    TokenCheck,
    TokenSeat,
    ValidationErrorBody,
    valid_table_id,
)
from .store import Store, TableRow, default_url
from .ws import TableSockets, watch_accounts

STATIC = Path(__file__).parent / "static"
#: Seconds a lobby page is served from memory, and how many distinct pages are kept.
LOBBY_TTL = 1.0
LOBBY_PAGES = 64

_ERRORS: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}, 409: {"model": ErrorBody}}
_STATUS = {
    "table/full": 409,
    "table/closed": 409,
    "seat/taken": 409,
    "seat/invalid": 400,
    "seat/account_required": 403,
    "auth/invalid": 403,
    "table/invalid": 400,
    "name/taken": 409,
    "name/reserved": 422,
    "name/invalid": 422,
    "table/limit": 429,
    "rate/limited": 429,
    "server/busy": 503,
    "table/moving": 503,
    "table/account_required": 403,
    "rated/limit": 429,
}


def _fail(exc: RoomError) -> HTTPException:
    # A table moving between cluster processes is back within a second (docs/deploy.md, "Cluster").
    wait = "1" if exc.code == "table/moving" else "60"
    headers = {"Retry-After": wait} if _STATUS.get(exc.code) in (429, 503) else None
    return HTTPException(_STATUS.get(exc.code, 400), detail=f"{exc.code}: {exc.message}", headers=headers)


def _not_found(table_id: str) -> HTTPException:
    return HTTPException(404, detail=f"table/not_found: there is no table {table_id[:40]!r}")


def address_key(address: str) -> str:
    """The stored form of a client address: enough to count its tables, not the address itself."""
    return hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:24]


class Guard:
    """The per-address limits of the HTTP API (one per app)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.creates = RateLimiter(limits.create_per_minute / 60.0, limits.create_burst)

    def address(self, request: Request) -> str:
        client = (request.client.host, request.client.port) if request.client else None
        return client_address(client, request.headers.raw, self.limits.forwarded_header)


def _guard(request: Request) -> Guard:
    guard: Guard = request.app.state.guard
    return guard


#: Every route here is rate-limited per address by :class:`~.limits.RequestRate`, before routing.
api = APIRouter(prefix="/api", tags=["api"])


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@api.get("/health")
async def health() -> dict[str, str]:
    """Tells that the server is up (``/healthz`` also checks the database)."""
    return {"status": "ok"}


def _translate_spec(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    """A spec's JSON with its names, rules and option texts in ``lang``."""
    # imported here, not at the top: a test puts a stand-in catalogue module in its place
    from ..i18n.cards import translate_spec_json

    translated: dict[str, Any] = translate_spec_json(doc, lang)
    return translated


def _game_info(name: str, lang: str) -> dict[str, Any]:
    """One game of ``GET /api/games`` in ``lang``: the documented model, plus where each card's name
    in that language comes from (``name_source``) when the catalogue says it."""
    doc = _translate_spec(spec(name).to_json(), lang)
    info = GameInfo.of(doc, bot_names(name)).model_dump(mode="json")
    for field in ("cards", "tiles"):
        for entry, source in zip(info.get(field, []), doc.get(field, [])):
            if isinstance(source, dict) and "name_source" in source:
                entry["name_source"] = source["name_source"]
    return info


@lru_cache(maxsize=16)
def _games_json(lang: str) -> bytes:
    """``GET /api/games?lang=`` once per language (the specs never change while the server runs)."""
    return _dumps({"games": [_game_info(g.name, lang) for g in games()]})


#: The languages whose ``/api/games`` is ready (the first answer, a few hundred ms, is built off the loop).
_GAMES_READY: set[str] = set()


def forget_translated_games() -> None:
    """Drops the cached ``/api/games?lang=`` answers (after the card catalogue or a .po file changed)."""
    _games_json.cache_clear()
    _GAMES_READY.clear()


@api.get("/games", response_model=GamesResponse, responses={422: {"model": ValidationErrorBody}})
async def games_list(
    lang: str | None = Query(
        None, max_length=40, description="A language code (en, ru, fr, es, zh-Hans): the texts in it."
    ),
) -> Response:
    """Lists every game as its spec describes it (title, players, options, capabilities, cards) and its bots.

    Names, rules and option texts are in ``lang`` (English by default).
    """
    code = canonical(lang, pseudo=True) if lang else "en"
    if code is None:
        raise HTTPException(422, detail=f"request/invalid: query.lang: must be one of {', '.join(LANGUAGES)}")
    if code in _GAMES_READY:
        body = _games_json(code)
    else:
        body = await asyncio.to_thread(_games_json, code)
        _GAMES_READY.add(code)
    return Response(body, media_type="application/json")


@api.get("/party/menus", response_model=PartyMenus)
async def party_menu_list() -> PartyMenus:
    """Lists Sushi Go Party!'s suggested menus and the tiles a custom menu is built from."""
    return party_menus()


def _cursor(row: TableRow, status: str | None) -> str:
    key = row.finished_at if status in ("finished", "abandoned") else row.created_at
    raw = json.dumps([key or 0.0, row.id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _parse_cursor(cursor: str) -> tuple[float, str]:
    try:
        data = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        key, table_id = data
        if isinstance(key, bool) or not isinstance(key, int | float) or not isinstance(table_id, str):
            raise ValueError
        if not valid_table_id(table_id) or key != key or key in (float("inf"), float("-inf")):
            raise ValueError
        return float(key), table_id
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise HTTPException(
            422, detail="request/invalid: query.cursor: not a cursor this server gave out"
        ) from None


@api.get("/tables", response_model=TableList, responses={422: {"model": ValidationErrorBody}})
async def list_tables(
    request: Request,
    status: Literal["open", "playing", "finished", "abandoned"] | None = Query(
        None, description="Only tables with this status (all statuses if absent)."
    ),
    limit: int = Query(20, ge=1, le=100, description="Tables per page."),
    cursor: str | None = Query(None, max_length=200, description="The ``next`` of the previous page."),
) -> Response:
    """Lists tables newest first (finished games: most recently finished first), one page at a time."""
    hub = _hub(request)
    after = _parse_cursor(cursor) if cursor else None
    # Every lobby page open in a browser asks every few seconds: the same page within LOBBY_TTL is
    # answered from memory, so a flood of lobby requests costs one query a second per distinct page.
    # The page is kept as its JSON text: validating and serialising fifty tables again for every
    # hit cost more than the query it saved.
    cache: OrderedDict[tuple[Any, ...], tuple[float, bytes]] = request.app.state.lobby
    key = (status, limit, after)
    now = time.monotonic()
    hit = cache.get(key)
    if hit is None or now - hit[0] >= LOBBY_TTL:
        rows = await hub.db(hub.store.list_page, status, limit + 1, after)
        more = len(rows) > limit
        rows = rows[:limit]
        await hub.refresh_accounts(rows)
        page = TableList(
            tables=[_public(hub, row) for row in rows],
            next=_cursor(rows[-1], status) if more and rows else None,
        )
        hit = cache[key] = (now, page.model_dump_json().encode())
        cache.move_to_end(key)
        while len(cache) > LOBBY_PAGES:
            cache.popitem(last=False)
    return Response(hit[1], media_type="application/json")


def _public(hub: Hub, row: TableRow) -> TablePublic:
    room = hub.rooms.get(row.id)
    return room.public() if room is not None else table_public(row, deleted=hub.deleted_users)


@api.post(
    "/tables",
    response_model=TableCreated,
    status_code=201,
    responses={
        400: {"model": ErrorBody},
        403: {"model": ErrorBody},
        413: {"model": ErrorBody},
        422: {"model": ValidationErrorBody},
        429: {"model": ErrorBody},
        503: {"model": ErrorBody},
    },
)
async def create_table(body: TableCreate, request: Request) -> TableCreated:
    """Creates a table; human seats are then taken with ``POST /api/tables/{table_id}/join``.

    ``manage`` (keep it) cancels the table while it is open; a rated table needs a signed-in creator.
    """
    guard = _guard(request)
    address = guard.address(request)
    if not guard.creates.take(address):
        wait = max(1, round(guard.creates.retry_after(address)))
        raise HTTPException(
            429,
            detail=f"rate/limited: at most {guard.limits.create_per_minute:g} new tables a minute; "
            f"try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )
    try:
        who = await identity.identify(request)
        room = await _hub(request).create(body, creator=address_key(address), identity=who)
    except RoomError as exc:
        raise _fail(exc) from None
    return TableCreated(**room.public().model_dump(), manage=lifecycle.manage_token(room.row))


@api.get("/tables/{table_id}", response_model=TablePublic, responses=_ERRORS)
async def get_table(table_id: str, request: Request) -> TablePublic:
    """Describes one table (seats, status, result)."""
    hub = _hub(request)
    row = await hub.load_row(table_id)
    if row is None:
        raise _not_found(table_id)
    await hub.refresh_accounts([row])
    return _public(hub, row)


@api.post(
    "/tables/{table_id}/join",
    response_model=JoinResponse,
    responses={**_ERRORS, 400: {"model": ErrorBody}, 422: {"model": ValidationErrorBody}},
)
async def join_table(table_id: str, body: JoinRequest, request: Request) -> JoinResponse:
    """Takes a free human seat with a name; the answer's ``token`` is the seat's secret key.

    A signed-in player or a program sits under its account's name, and gets its own seat back (with a
    fresh token) when it holds one here already; a rated table seats nobody else.
    """
    who = await identity.identify(request)
    hub = _hub(request)
    room: Room | None = hub.rooms.get(table_id)
    if room is None and hub.cluster is not None:
        # In a cluster the open table may be owned elsewhere: take it over, or 503 table/moving.
        try:
            room = await hub.get(table_id)
        except RoomError as exc:
            raise _fail(exc) from None
    if room is None:
        # Every open table has a room; any other stored table has no free seat.
        if await hub.load_row(table_id) is None:
            raise _not_found(table_id)
        raise HTTPException(409, detail="table/full: this table takes no more players")
    try:
        seat, token = await room.join(body.name, body.seat, who)
    except RoomError as exc:
        raise _fail(exc) from None
    return JoinResponse(table_id=table_id, seat=seat, token=token, url=f"/t/{table_id}")


@api.post(
    "/tables/{table_id}/token",
    response_model=TokenSeat,
    responses={**_ERRORS, 403: {"model": ErrorBody}, 422: {"model": ValidationErrorBody}},
)
async def check_token(table_id: str, body: TokenCheck, request: Request) -> TokenSeat:
    """Tells which seat a seat token opens, changing nothing (only the WebSocket's hello takes a seat).

    The table page asks before it lets a seat link replace the seat this device already holds.
    """
    row = await _hub(request).load_row(table_id)
    if row is None:
        raise _not_found(table_id)
    found = token_seat(row.seats, body.token)
    if found is None:
        raise HTTPException(403, detail="auth/invalid: this token opens no seat at this table")
    return TokenSeat(seat=found)


# ------------------------------------------------------------------------ finished games


class FinishedCache:
    """Records and replays of finished games, computed once (off the event loop) and kept in an LRU.

    A finished game never changes, so each document is serialized once with a strong ETag; concurrent
    first requests share one computation.
    """

    def __init__(self, entries: int) -> None:
        self.entries = max(1, entries)
        self._done: OrderedDict[tuple[str, str], tuple[str, bytes]] = OrderedDict()
        self._pending: dict[tuple[str, str], asyncio.Future[tuple[str, bytes]]] = {}

    def peek(self, key: tuple[str, str]) -> tuple[str, bytes] | None:
        """The cached document, if it is ready (then the game is finished: no database look-up)."""
        hit = self._done.get(key)
        if hit is not None:
            self._done.move_to_end(key)
        return hit

    async def get(self, key: tuple[str, str], build: Callable[[], bytes]) -> tuple[str, bytes]:
        hit = self._done.get(key)
        if hit is not None:
            self._done.move_to_end(key)
            return hit
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[tuple[str, bytes]] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            body = await asyncio.to_thread(build)
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            value = (etag, body)
            self._done[key] = value
            while len(self._done) > self.entries:
                self._done.popitem(last=False)
            future.set_result(value)
            return value
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a lone request must not log "never retrieved"
            raise
        finally:
            del self._pending[key]


async def _finished_row(request: Request, table_id: str) -> TableRow:
    row = await _hub(request).load_row(table_id)
    if row is None:
        raise _not_found(table_id)
    if row.status != "finished":
        raise HTTPException(409, detail="table/not_finished: records and replays open when the game is over")
    return row


def _matches(request: Request, etag: str) -> bool:
    wanted = request.headers.get("if-none-match")
    if not wanted:
        return False
    tags = {t.strip().removeprefix("W/") for t in wanted.split(",")}
    return "*" in tags or etag in tags


def _answer(request: Request, etag: str, body: bytes, headers: dict[str, str]) -> Response:
    common = {"ETag": etag, "Cache-Control": "public, max-age=86400", **headers}
    if _matches(request, etag):
        return Response(status_code=304, headers=common)
    return Response(body, media_type="application/json", headers=common)


def _from_cache(request: Request, table_id: str, kind: str, headers: dict[str, str]) -> Response | None:
    """A finished game's document straight from the cache: a replay flood never reaches the database."""
    cache: FinishedCache = request.app.state.finished
    hit = cache.peek((table_id, kind))
    return None if hit is None else _answer(request, hit[0], hit[1], headers)


async def _cached(
    request: Request, row: TableRow, kind: str, build: Callable[[], bytes], headers: dict[str, str]
) -> Response:
    cache: FinishedCache = request.app.state.finished
    etag, body = await cache.get((row.id, kind), build)
    return _answer(request, etag, body, headers)


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode("utf-8")


def record_document(row: TableRow) -> dict[str, Any]:
    """The finished game ``row`` as a ``sushigo-record/1`` document (without the seed)."""
    state = replay_state(row)
    names = [s.name or f"Seat {i}" for i, s in enumerate(row.seats)]
    record: dict[str, Any] = state.to_record(names=names)  # type: ignore[call-arg]
    return record


def replay_document(row: TableRow, chat: list[dict[str, Any]]) -> dict[str, Any]:
    """The replay of the finished game ``row``: its table and the frames of :mod:`.replay`."""
    from .replay import build_replay

    return {"table": table_public(row).model_dump(), **build_replay(row, chat)}


@api.get(
    "/tables/{table_id}/record",
    responses={
        **_ERRORS,
        200: {"description": "A sushigo-record/1 document."},
        304: {"description": "Not modified (If-None-Match matched the ETag)."},
    },
)
async def get_record(table_id: str, request: Request) -> Response:
    """Downloads a finished game as a ``sushigo-record/1`` JSON document (without the seed)."""
    headers = {"Content-Disposition": f'attachment; filename="sushigo-{table_id}.json"'}
    ready = _from_cache(request, table_id, "record", headers)
    if ready is not None:
        return ready
    row = await _finished_row(request, table_id)
    return await _cached(request, row, "record", lambda: _dumps(record_document(row)), headers)


@api.get(
    "/tables/{table_id}/replay",
    response_model=ReplayResponse,
    responses={**_ERRORS, 304: {"description": "Not modified (If-None-Match matched the ETag)."}},
)
async def get_replay(table_id: str, request: Request) -> Response:
    """Steps through a finished game: the table after each turn (Sushi Go!) or action (Sushi Roll)."""
    ready = _from_cache(request, table_id, "replay", {})
    if ready is not None:
        return ready
    row = await _finished_row(request, table_id)
    hub = _hub(request)
    loader = getattr(hub.store, "load_chat", None)
    chat: list[dict[str, Any]] = await hub.db(loader, row.id) if loader is not None else []
    return await _cached(request, row, "replay", lambda: _dumps(replay_document(row, chat)), {})


# --------------------------------------------------------------------------------- errors


def _location(loc: Any) -> str:
    return ".".join(str(p) for p in loc) or "request"


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    """A located 422 that never echoes the refused value (NaN or a 100 KB string would break it)."""
    assert isinstance(exc, RequestValidationError)
    lang = i18n_routes.request_lang(request)
    errors = []
    for e in exc.errors():
        error: dict[str, Any] = {
            "loc": [p if isinstance(p, int) else str(p) for p in e.get("loc", ())],
            "msg": str(e.get("msg", "invalid"))
            .replace("Value error, ", "")
            .replace("Input should be", "must be"),
        }
        text = (e.get("ctx") or {}).get("text")
        if isinstance(text, dict) and isinstance(text.get("msgid"), str):
            # a game's option error: language-free for programs, and worded for this reader
            error.update(text)
            error["text"] = error_text(error, lang)
        errors.append(error)
    first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
    detail = f"request/invalid: {_location(first['loc'])}: {first['msg']}"
    return JSONResponse({"detail": detail, "errors": errors}, status_code=422)


# ------------------------------------------------------------------------ error pages

#: Addresses whose errors stay JSON (``{"detail": ...}``, as docs/protocol.md documents them); every
#: other address is a browser's, and its errors are pages in the site's style with a way back.
_JSON_PATHS = ("/api", "/ws", "/healthz", "/livez", "/readyz", "/metrics", "/openapi.json")

_PAGE = string.Template((STATIC / "error.html").read_text(encoding="utf-8"))

#: Plain words for each status a page may answer (the fallback names the status).
_WORDS: dict[int, tuple[str, str]] = {
    404: (
        N_("Page not found"),
        N_("There is no page at this address. The link may be mistyped or out of date."),
    ),
    405: (N_("Not available"), N_("This address cannot be opened this way.")),
    500: (
        N_("Something went wrong"),
        N_("The server could not show this page. Please try again in a moment."),
    ),
}
_OTHER = N_("The server answered with error {status}.")

_LOBBY = (("/", N_("Back to the lobby")),)


def _wants_json(path: str) -> bool:
    return any(path == p or path.startswith(p + "/") for p in _JSON_PATHS)


def error_page(
    status: int,
    title: str | None = None,
    message: str | None = None,
    links: tuple[tuple[str, str], ...] = _LOBBY,
    headers: Mapping[str, str] | None = None,
    lang: str = "en",
) -> HTMLResponse:
    """An HTML error page (static/error.html) in ``lang``: a title, a sentence in plain words and links
    back. ``title``, ``message`` and the links' labels are English msgids (marked with ``N_``)."""
    tr = translator(lang)
    words = _WORDS.get(status, (N_("Something went wrong"), _OTHER))
    buttons = " ".join(
        f'<a class="btn{"" if i == 0 else " secondary"}" href="{html.escape(href)}">'
        f"{html.escape(tr.gettext(label))}</a>"
        for i, (href, label) in enumerate(links)
    )
    body = _PAGE.substitute(
        title=html.escape(tr.gettext(title or words[0])),
        message=html.escape(tr.gettext(message or words[1], status=status)),
        links=buttons,
        status=status,
    )
    return HTMLResponse(
        i18n_routes.set_lang(body, lang),
        status_code=status,
        headers={**(headers or {}), **i18n_routes.language_headers(lang)},
    )


async def _http_error(request: Request, exc: Exception) -> Response:
    """An HTTP error: JSON under the API's addresses (FastAPI's own answer), a page everywhere else."""
    assert isinstance(exc, StarletteHTTPException)
    if _wants_json(request.url.path):
        return await http_exception_handler(request, exc)
    return error_page(exc.status_code, headers=exc.headers, lang=i18n_routes.request_lang(request))


async def _server_error(request: Request, exc: Exception) -> Response:
    """An unexpected failure (the exception is still logged): a page for a browser, text for the API."""
    if _wants_json(request.url.path):
        return PlainTextResponse("Internal Server Error", status_code=500)
    try:
        lang = i18n_routes.request_lang(request)
    except Exception:  # the failure page itself must not fail
        lang = "en"
    return error_page(500, lang=lang)


def _table_link(table_id: str) -> str:
    return "/t/" + quote(table_id, safe="")


def create_app(
    database_url: str | None = None,
    *,
    data_dir: str | Path = "data",
    grace: float = 30.0,
    bot_delay: float = 0.4,
    limits: Limits | None = None,
    store: Store | None = None,
) -> FastAPI:
    """Builds the app. ``database_url`` defaults to a SQLite file in ``data_dir``; ``store``, when given,
    is an already opened store (``sushigo serve`` opens it first, to report a bad database in one line).

    ``grace``: seconds before a disconnected player's seat is played by a stand-in bot;
    ``bot_delay``: seconds a bot waits before acting (so people can follow the table);
    ``limits``: every bound on what clients may cost (:class:`~.limits.Limits`).
    """
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = store if store is not None else open_store(database_url or default_url(data_dir))
        hub = Hub(opened, grace=grace, bot_delay=bot_delay, limits=limits)
        if isinstance(opened, ClusterStore):  # PostgreSQL: any number of processes share the site
            hub.cluster = Cluster(opened)
        app.state.hub = hub
        account_routes.install(app, hub)
        watch_accounts(app.state, hub)
        ratings.install(app, hub)
        app.state.guard = Guard(limits)
        app.state.finished = FinishedCache(limits.cache_entries)
        app.state.lobby = OrderedDict()
        app.state.started = time.time()
        await hub.resume_all()
        try:
            yield
        finally:
            await hub.close()

    app = FastAPI(
        title="sushigo",
        summary="Play Sushi Go! and Sushi Roll in the browser, against people and bots.",
        version="1",
        lifespan=lifespan,
    )
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _server_error)
    app.add_middleware(CsrfMiddleware)  # innermost: after the rate limit, before any route
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    # Added last, so it runs first: a refused request costs no body check, routing or dependency.
    app.add_middleware(RequestRate, limits=limits)
    # The table WebSocket (/ws/tables/{id}, docs/protocol.md) is served there, ahead of the routes.
    app.add_middleware(TableSockets)
    app.include_router(api)
    app.include_router(i18n_routes.router)
    # Issue 21 (accounts, players, table life cycle, their pages), 25 (analysis), 23 (metrics).
    for extension in (account_routes, players, routes_tables, pages, analysis, metrics):
        app.include_router(extension.router)

    @app.get(
        "/healthz", response_model=HealthResponse, tags=["ops"], responses={503: {"model": HealthResponse}}
    )
    async def healthz(request: Request) -> JSONResponse:
        """Tells a load balancer whether the server and its database answer (503 when the database does not)."""
        hub = _hub(request)
        try:
            ok = await asyncio.wait_for(hub.db(hub.store.ping), 5.0)
        except (TimeoutError, Exception):
            ok = False
        body = HealthResponse(
            status="ok" if ok else "unavailable",
            database=ok,
            rooms=len(hub.rooms),
            thinking_bots=hub.bot_pool.running,
        )
        return JSONResponse(body.model_dump(), status_code=200 if ok else 503)

    @app.get("/", include_in_schema=True, response_class=HTMLResponse, tags=["pages"])
    async def lobby_page(request: Request) -> HTMLResponse:
        """The lobby: create a table, join one, watch, or open a finished game."""
        return i18n_routes.page(request, STATIC / "index.html")

    @app.get("/t/{table_id}", response_class=HTMLResponse, tags=["pages"])
    async def table_page(table_id: str, request: Request) -> Response:
        """The table page (also the invite link)."""
        lang = i18n_routes.request_lang(request)
        if await _hub(request).load_row(table_id) is None:
            return error_page(
                404,
                N_("No such table"),
                N_("There is no table at this address. The link may be mistyped or out of date."),
                lang=lang,
            )
        return i18n_routes.page(request, STATIC / "table.html")

    @app.get("/replay/{table_id}", response_class=HTMLResponse, tags=["pages"])
    async def replay_page(table_id: str, request: Request) -> Response:
        """The replay viewer of a finished game."""
        lang = i18n_routes.request_lang(request)
        row = await _hub(request).load_row(table_id)
        if row is None:
            return error_page(
                404,
                N_("No such game"),
                N_("There is no game at this address to replay. The link may be mistyped or out of date."),
                lang=lang,
            )
        if row.status in ("abandoned", "cancelled"):
            return error_page(
                409,
                N_("No replay"),
                N_("This game was abandoned before its end, so it has no replay."),
                lang=lang,
            )
        if row.status != "finished":
            return error_page(
                409,
                N_("This game is not over yet"),
                N_("Its replay opens when the game ends. Meanwhile you can watch it live at its table."),
                ((_table_link(row.id), N_("Watch the table")), *_LOBBY),
                lang=lang,
            )
        return i18n_routes.page(request, STATIC / "replay.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def dumps(obj: Any) -> str:
    """JSON text as the server writes it."""
    return json.dumps(obj, separators=(",", ":"))
