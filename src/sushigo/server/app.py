"""The web application: HTTP routes (lobby, tables, records, replays), the table WebSocket and the UI.

:func:`create_app` wires a :class:`~.store.Store` (SQLite file by default, PostgreSQL by URL) and a
:class:`~.rooms.Hub` into a FastAPI app. Every HTTP endpoint appears in ``/openapi.json``; the
WebSocket messages are documented in ``docs/protocol.md`` from :mod:`.schemas`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..bots import bot_names
from .replay import build_replay
from .rooms import GAME_TITLES, SUSHI_GO_OPTIONS, Hub, RoomError, table_public
from .schemas import (
    ErrorBody,
    GameInfo,
    GamesResponse,
    JoinRequest,
    JoinResponse,
    ReplayResponse,
    TableCreate,
    TableList,
    TablePublic,
)
from .store import Store, TableRow, default_url
from .ws import table_socket

STATIC = Path(__file__).parent / "static"

_ERRORS: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}, 409: {"model": ErrorBody}}
_STATUS = {
    "table/full": 409,
    "seat/taken": 409,
    "seat/invalid": 400,
    "table/invalid": 400,
}


def _fail(exc: RoomError) -> HTTPException:
    return HTTPException(_STATUS.get(exc.code, 400), detail=f"{exc.code}: {exc.message}")


api = APIRouter(prefix="/api", tags=["api"])


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@api.get("/health")
async def health() -> dict[str, str]:
    """Tells that the server is up."""
    return {"status": "ok"}


@api.get("/games", response_model=GamesResponse)
async def games() -> GamesResponse:
    """Lists the games, their variants and the bots that can take a seat."""
    return GamesResponse(
        games=[
            GameInfo(
                game="sushi-go",
                title=GAME_TITLES["sushi-go"],
                options=list(SUSHI_GO_OPTIONS),
                bots=bot_names("sushi-go"),
            ),
            GameInfo(
                game="sushi-roll", title=GAME_TITLES["sushi-roll"], options=[], bots=bot_names("sushi-roll")
            ),
        ]
    )


@api.get("/tables", response_model=TableList)
async def list_tables(request: Request) -> TableList:
    """Lists open tables (seats free), games being played and finished games, newest first."""
    hub = _hub(request)
    out: dict[str, list[TablePublic]] = {}
    for status in ("open", "playing", "finished"):
        rows = await hub.db(hub.store.list_tables, status, 50)
        out[status] = [_public(hub, row) for row in rows]
    return TableList(**out)


def _public(hub: Hub, row: TableRow) -> TablePublic:
    room = hub.rooms.get(row.id)
    return room.public() if room is not None else table_public(row)


@api.post("/tables", response_model=TablePublic, status_code=201, responses={400: {"model": ErrorBody}})
async def create_table(body: TableCreate, request: Request) -> TablePublic:
    """Creates a table; human seats are then taken with ``POST /api/tables/{table_id}/join``."""
    try:
        room = await _hub(request).create(body)
    except RoomError as exc:
        raise _fail(exc) from None
    return room.public()


async def _room(request: Request, table_id: str) -> Any:
    room = await _hub(request).get(table_id)
    if room is None:
        raise HTTPException(404, detail=f"table/not_found: there is no table {table_id[:40]!r}")
    return room


@api.get("/tables/{table_id}", response_model=TablePublic, responses=_ERRORS)
async def get_table(table_id: str, request: Request) -> TablePublic:
    """Describes one table (seats, status, result)."""
    room = await _room(request, table_id)
    public: TablePublic = room.public()
    return public


@api.post(
    "/tables/{table_id}/join", response_model=JoinResponse, responses={**_ERRORS, 400: {"model": ErrorBody}}
)
async def join_table(table_id: str, body: JoinRequest, request: Request) -> JoinResponse:
    """Takes a free human seat with a name; the answer's ``token`` is the seat's secret key."""
    room = await _room(request, table_id)
    try:
        seat, token = await room.join(body.name, body.seat)
    except RoomError as exc:
        raise _fail(exc) from None
    return JoinResponse(table_id=table_id, seat=seat, token=token, url=f"/t/{table_id}")


def _finished_row(room: Any) -> TableRow:
    if room.status != "finished":
        raise HTTPException(409, detail="table/not_finished: records and replays open when the game is over")
    row: TableRow = room.row
    return row


@api.get(
    "/tables/{table_id}/record", responses={**_ERRORS, 200: {"description": "A sushigo-record/1 document."}}
)
async def get_record(table_id: str, request: Request) -> Response:
    """Downloads a finished game as a ``sushigo-record/1`` JSON document (without the seed)."""
    room = await _room(request, table_id)
    row = _finished_row(room)
    names = [s.name or f"Seat {i}" for i, s in enumerate(row.seats)]
    record = room.state.to_record(names=names)
    return JSONResponse(
        record,
        headers={"Content-Disposition": f'attachment; filename="sushigo-{table_id}.json"'},
    )


@api.get("/tables/{table_id}/replay", response_model=ReplayResponse, responses=_ERRORS)
async def get_replay(table_id: str, request: Request) -> ReplayResponse:
    """Steps through a finished game: the table after each turn (Sushi Go!) or action (Sushi Roll)."""
    room = await _room(request, table_id)
    row = _finished_row(room)
    return ReplayResponse(table=room.public(), **build_replay(row, await room.chat_lines()))


def create_app(
    database_url: str | None = None,
    *,
    data_dir: str | Path = "data",
    grace: float = 30.0,
    bot_delay: float = 0.4,
) -> FastAPI:
    """Builds the app. ``database_url`` defaults to a SQLite file in ``data_dir``.

    ``grace``: seconds before a disconnected player's seat is played by a stand-in bot;
    ``bot_delay``: seconds a bot waits before acting (so people can follow the table).
    """
    url = database_url or default_url(data_dir)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(Store(url), grace=grace, bot_delay=bot_delay)
        app.state.hub = hub
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
    app.include_router(api)

    @app.get("/", include_in_schema=True, response_class=FileResponse, tags=["pages"])
    async def lobby_page() -> FileResponse:
        """The lobby: create a table, join one, watch, or open a finished game."""
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", response_class=FileResponse, tags=["pages"])
    async def table_page(table_id: str) -> FileResponse:
        """The table page (also the invite link)."""
        return FileResponse(STATIC / "table.html")

    @app.get("/replay/{table_id}", response_class=FileResponse, tags=["pages"])
    async def replay_page(table_id: str) -> FileResponse:
        """The replay viewer of a finished game."""
        return FileResponse(STATIC / "replay.html")

    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        await table_socket(websocket, table_id)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def dumps(obj: Any) -> str:
    """JSON text as the server writes it."""
    return json.dumps(obj, separators=(",", ":"))
