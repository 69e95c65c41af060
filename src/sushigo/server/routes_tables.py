"""The table life cycle over HTTP (issue 21): cancel, leave, concede, play again (rematch, accept,
decline), quick play and the caller's own tables. docs/protocol.md, "Around a game", describes them.

Each route identifies the caller (:func:`~.accounts.identity.identify`: an account, or a guest with a
token in the body), lets the room or hub make the change under the table's lock, and answers a refusal
with :func:`.lifecycle.refusal` (``detail``, ``code``, ``params``), having changed nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from . import lifecycle
from .accounts import identity as accounts_identity
from .accounts.identity import Identity
from .client import RoomError
from .rooms import Hub, Room
from .schemas import (
    CodedError,
    InviteProof,
    JoinResponse,
    MyTable,
    MyTables,
    QuickPlayRequest,
    QuickPlayResponse,
    RematchResponse,
    SeatProof,
    TableCreate,
    ValidationErrorBody,
)

router = APIRouter(prefix="/api", tags=["tables"])

#: Optional bodies: a signed-in caller may send none.
_Proof = Annotated[SeatProof | None, Body()]
_Invite = Annotated[InviteProof | None, Body()]

_REFUSALS: dict[int | str, dict[str, Any]] = {
    **{code: {"model": CodedError} for code in (400, 401, 403, 404, 409, 429, 503)},
    422: {"model": ValidationErrorBody},
}


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _address(request: Request) -> str:
    address: str = request.app.state.guard.address(request)
    return address


async def _who(request: Request) -> Identity | None:
    # through the module, so the accounts work's implementation (or a test's) is the one asked
    return await accounts_identity.identify(request)


def _not_found(table_id: str) -> RoomError:
    return RoomError("table/not_found", f"there is no table {table_id[:40]!r}")


async def _live_room(hub: Hub, table_id: str) -> Room:
    """The room of an open or playing table (each has one in memory); refusals for any other."""
    room = hub.rooms.get(table_id)
    if room is None and hub.cluster is not None:
        room = await hub.get(table_id)  # takes it over, or RoomError table/moving (503, Retry-After 1)
    if room is not None and room.status in ("open", "playing"):
        return room
    row = await hub.load_row(table_id)
    if row is None:
        raise _not_found(table_id)
    if row.status == "finished":
        raise RoomError("table/finished", "the game is over")
    raise RoomError("table/closed", f"this table is {row.status}")


def _token(body: SeatProof | None) -> str | None:
    return body.token if body is not None else None


@router.post("/tables/{table_id}/cancel", status_code=204, responses=_REFUSALS)
async def cancel_table(table_id: str, request: Request, body: _Proof = None) -> Response:
    """Cancels an open table: its creator's account, or ``{"token": manage}`` from its creation."""
    hub = _hub(request)
    try:
        room = await _live_room(hub, table_id)
        await hub.cancel(room, _token(body), await _who(request))
    except RoomError as exc:
        return lifecycle.refusal(exc)
    return Response(status_code=204)


@router.post("/tables/{table_id}/leave", status_code=204, responses=_REFUSALS)
async def leave_table(table_id: str, request: Request, body: _Proof = None) -> Response:
    """Leaves an open table: the seat is free again and its token stops working."""
    hub = _hub(request)
    identity = await _who(request)
    try:
        room = await _live_room(hub, table_id)
        await room.leave(_token(body), identity)
    except RoomError as exc:
        return lifecycle.refusal(exc)
    await hub.left_quick(room, identity, _address(request))
    return Response(status_code=204)


@router.post("/tables/{table_id}/concede", status_code=204, responses=_REFUSALS)
async def concede_game(table_id: str, request: Request, body: _Proof = None) -> Response:
    """Concedes a running game: a bot plays the seat to the end and the seat finishes last."""
    hub = _hub(request)
    try:
        room = await _live_room(hub, table_id)
        await room.concede(_token(body), await _who(request))
    except RoomError as exc:
        return lifecycle.refusal(exc)
    return Response(status_code=204)


@router.post(
    "/tables/{table_id}/rematch", status_code=201, response_model=RematchResponse, responses=_REFUSALS
)
async def rematch_table(table_id: str, request: Request, body: _Proof = None) -> Response:
    """Play again: makes (once) the next table of a finished game and invites its players."""
    hub = _hub(request)
    identity = await _who(request)
    try:
        row = await hub.load_row(table_id)
        if row is None:
            raise _not_found(table_id)
        if row.status != "finished":
            raise RoomError("table/not_finished", "play again once the game is over")
        lifecycle.seat_in(row, _token(body), identity)  # before the finished game is replayed
        room = await hub.get(table_id)
        if room is None:
            raise _not_found(table_id)
        made, invites, manage = await hub.rematch(
            room, _token(body), identity, lifecycle.address_hash(_address(request))
        )
    except RoomError as exc:
        return lifecycle.refusal(exc)
    answer = RematchResponse(table=made.public(), invites=invites, manage=manage)
    return Response(answer.model_dump_json(), status_code=201, media_type="application/json")


def _invite_keys(identity: Identity | None, body: InviteProof | None) -> list[str]:
    from_token = body.from_token if body is not None else None
    if identity is None and from_token is None:
        raise RoomError("auth/required", "give your previous seat token, or sign in")
    return lifecycle.invite_keys(identity, from_token)


@router.post("/tables/{table_id}/accept", response_model=JoinResponse, responses=_REFUSALS)
async def accept_invite(table_id: str, request: Request, body: _Invite = None) -> JoinResponse | Response:
    """Takes the play-again seat reserved for the caller (guests prove it with their old seat token)."""
    hub = _hub(request)
    identity = await _who(request)
    try:
        keys = _invite_keys(identity, body)
        room = await _live_room(hub, table_id)
        seat, token = await room.claim(keys, identity)
    except RoomError as exc:
        return lifecycle.refusal(exc)
    return JoinResponse(table_id=table_id, seat=seat, token=token, url=f"/t/{table_id}")


@router.post("/tables/{table_id}/decline", status_code=204, responses=_REFUSALS)
async def decline_invite(table_id: str, request: Request, body: _Invite = None) -> Response:
    """Declines a play-again seat: it opens for anyone."""
    hub = _hub(request)
    try:
        keys = _invite_keys(await _who(request), body)
        room = await _live_room(hub, table_id)
        await room.decline(keys)
    except RoomError as exc:
        return lifecycle.refusal(exc)
    return Response(status_code=204)


@router.post("/quickplay", response_model=QuickPlayResponse, responses=_REFUSALS)
async def quick_play(body: QuickPlayRequest, request: Request) -> QuickPlayResponse | Response:
    """Seats the caller at an open quick-play table of that game and size, or opens one; bots fill the
    seats still free after ``wait_seconds``."""
    try:
        table = TableCreate.model_validate(
            {
                "game": body.game,
                "seats": [{"kind": "human"}] * body.players,
                "options": body.options,
                "menu": body.menu,
            }
        )
    except ValidationError as exc:
        raise RequestValidationError(
            [
                {**e, "loc": ("body", *(("players",) if e["loc"][:1] == ("seats",) else e["loc"]))}
                for e in exc.errors()
            ]
        ) from None
    hub = _hub(request)
    try:
        room, seat, token, fill_at = await hub.quickplay(
            table, body.wait_seconds, body.name, await _who(request), _address(request)
        )
    except RoomError as exc:
        return lifecycle.refusal(exc)
    return QuickPlayResponse(
        table_id=room.id, seat=seat, token=token, url=f"/t/{room.id}", table=room.public(), fill_at=fill_at
    )


@router.get("/me/tables", response_model=MyTables, responses=_REFUSALS)
async def my_tables(request: Request) -> MyTables | Response:
    """The signed-in caller's open and playing tables (seated, created or invited), newest first."""
    identity = await _who(request)
    if identity is None:
        return lifecycle.refusal(RoomError("auth/required", "sign in to list your tables"))
    return MyTables(
        tables=[
            MyTable(table=table, seat=seat, creator=created, invited=invited)
            for table, seat, created, invited in await _hub(request).tables_of(identity.user_id)
        ]
    )
