"""The table WebSocket: parses and checks each client message, then hands it to its :class:`Room`.

Every message is checked for size, JSON shape and rate before anything else; a bad one gets an ``error``
message with a stable code and changes nothing. The first message must be ``hello`` (with a seat token
to play, without one to watch). A flood from one connection is slowed by a token bucket and, if it goes
on, the connection is closed; other connections and tables are not affected.

Limits hold per client address as well (:mod:`.limits`): all connections of one address share a
message budget, and an address may open only so many connections per second and hold so many at once,
so reconnecting resets nothing. A table id that cannot be one is answered ``table/not_found`` without a
database look-up. A client that stops reading is dropped at once (see :meth:`.rooms.Client.drop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from .limits import Limits, RateLimiter, client_address
from .rooms import Client, Hub, Room, RoomError
from .schemas import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ActionMessage,
    ChatMessage,
    HelloMessage,
    PingMessage,
    valid_table_id,
)

#: Messages per second a connection may send on average, and the burst it may send at once.
RATE = 10.0
BURST = 30.0
#: Dropped messages within ``FLOOD_WINDOW`` seconds after which a flooding connection is closed.
FLOOD_CLOSE_AFTER = 200
FLOOD_WINDOW = 10.0
HELLO_TIMEOUT = 30.0

_MODELS: dict[str, Any] = {
    "hello": HelloMessage,
    "action": ActionMessage,
    "ping": PingMessage,
    "chat": ChatMessage,
}


class TokenBucket:
    """A token bucket: :meth:`take` is true while the connection stays within its rate."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class AddressLimits:
    """What all WebSocket connections of one client address share (one per app)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.messages = RateLimiter(limits.address_ws_rate, limits.address_ws_burst)
        self.connects = RateLimiter(limits.connects_per_second, limits.connect_burst)
        self.loads = RateLimiter(limits.room_loads_per_second, limits.room_load_burst)
        self.open: dict[str, int] = {}

    def address(self, ws: WebSocket) -> str:
        client = (ws.client.host, ws.client.port) if ws.client else None
        return client_address(client, ws.scope.get("headers", ()), self.limits.forwarded_header)

    def admit(self, address: str) -> str | None:
        """Counts a new connection of ``address``; returns why it is refused, if it is."""
        if self.open.get(address, 0) >= self.limits.max_connections_per_address:
            return f"at most {self.limits.max_connections_per_address} connections per address"
        if not self.connects.take(address):
            return "too many new connections; slow down"
        self.open[address] = self.open.get(address, 0) + 1
        return None

    def release(self, address: str) -> None:
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


def _address_limits(ws: WebSocket) -> AddressLimits:
    state = ws.app.state
    if getattr(state, "ws_limits", None) is None:
        hub: Hub = state.hub
        state.ws_limits = AddressLimits(hub.limits)
    limits: AddressLimits = state.ws_limits
    return limits


def error(code: str, message: str) -> dict[str, Any]:
    """Returns an ``error`` message."""
    return {"type": "error", "code": code, "message": message}


def parse_message(text: str) -> ActionMessage | HelloMessage | PingMessage | ChatMessage:
    """Parses one client message.

    :raises RoomError: ``message/too_large``, ``message/malformed`` or ``message/unknown_type``.
    """
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise RoomError("message/too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise RoomError("message/malformed", "a message must be one JSON object") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RoomError("message/malformed", "a message must be a JSON object with a 'type'")
    model = _MODELS.get(data["type"])
    if model is None:
        raise RoomError("message/unknown_type", f"unknown message type {data['type'][:40]!r}")
    try:
        parsed: ActionMessage | HelloMessage | PingMessage | ChatMessage = model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise RoomError("message/malformed", f"{where or 'message'}: {first.get('msg', 'invalid')}") from None
    return parsed


async def _writer(ws: WebSocket, client: Client) -> None:
    try:
        while True:
            text = await client.queue.get()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:
        pass
    finally:
        client.closed = True
        with contextlib.suppress(Exception):
            await ws.close()


class TableSockets:
    """ASGI middleware: serves ``/ws/tables/{id}`` before FastAPI's routing.

    Every spectator connect went through the router's scan of the routes and FastAPI's WebSocket
    session wrapper, about a quarter of what a connect cost the server; under a spectator churn that
    is CPU the tables' own messages wait behind. Everything else passes through.
    """

    PREFIX = "/ws/tables/"

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path: str = scope.get("path", "")
        if (
            scope["type"] == "websocket"
            and path.startswith(self.PREFIX)
            and "/" not in path[len(self.PREFIX) :]
        ):
            await table_socket(WebSocket(scope, receive, send), path[len(self.PREFIX) :])
            return
        await self.app(scope, receive, send)


async def table_socket(ws: WebSocket, table_id: str) -> None:
    """Serves one WebSocket connection to table ``table_id``."""
    hub: Hub = ws.app.state.hub
    shared = _address_limits(ws)
    address = shared.address(ws)
    await ws.accept()
    refused = shared.admit(address)
    if refused is not None:
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(error("rate/limited", refused)))
            await ws.close(code=1013)
        return
    try:
        await _serve(ws, hub, shared, address, table_id)
    finally:
        shared.release(address)


async def _serve(ws: WebSocket, hub: Hub, shared: AddressLimits, address: str, table_id: str) -> None:
    if valid_table_id(table_id) and table_id not in hub.rooms and not shared.loads.take(address):
        # Opening a table that is not in memory replays its whole game: a budget of its own.
        await ws.send_text(json.dumps(error("rate/limited", "too many tables opened; slow down")))
        await ws.close(code=1013)
        return
    room = await hub.get(table_id) if valid_table_id(table_id) else None
    if room is None:
        shown = table_id[:40].encode("ascii", "backslashreplace").decode()
        await ws.send_text(json.dumps(error("table/not_found", f"there is no table {shown!r}")))
        await ws.close(code=4404)
        return
    # Before ``hello`` the connection has no client object; replies go out directly.
    bucket = TokenBucket(hub.limits.ws_rate, hub.limits.ws_burst)
    # Set when the room drops this client as a slow reader: the loop below stops waiting for input then
    # (only there, so an action being applied is never interrupted).
    dropped: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_drop(_client: Client) -> None:
        if not dropped.done():
            dropped.set_result(None)

    rejected = 0
    window_start = time.monotonic()
    client: Client | None = None
    writer: asyncio.Task[None] | None = None

    async def reply(message: dict[str, Any]) -> None:
        if client is not None:
            client.send(message)
        else:
            await ws.send_text(json.dumps(message))

    try:
        while True:
            receiving: asyncio.Future[Any] = asyncio.ensure_future(ws.receive())
            waits: set[asyncio.Future[Any]] = {receiving, dropped}
            done, _ = await asyncio.wait(
                waits,
                timeout=HELLO_TIMEOUT if client is None else None,
                return_when=asyncio.FIRST_COMPLETED,
            )
            if receiving not in done:
                receiving.cancel()
                if not dropped.done():
                    await reply(error("auth/required", "say hello first"))
                break
            raw = receiving.result()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                data = raw.get("bytes") or b""
                text = (
                    data.decode("utf-8", "replace")
                    if len(data) <= MAX_MESSAGE_BYTES
                    else "x" * (MAX_MESSAGE_BYTES + 1)
                )
            if not bucket.take() or not shared.messages.take(address):
                now = time.monotonic()
                if now - window_start > FLOOD_WINDOW:
                    window_start, rejected = now, 0
                rejected += 1
                if rejected > FLOOD_CLOSE_AFTER:
                    await reply(error("rate/limited", "too many messages; closing the connection"))
                    break
                # Every dropped message is answered, so a client never waits for a lost action; the
                # connection is closed above if the flood goes on.
                await reply(error("rate/limited", "too many messages; slow down"))
                continue
            try:
                msg = parse_message(text)
                if isinstance(msg, PingMessage):
                    await reply({"type": "pong"})
                elif isinstance(msg, HelloMessage):
                    if client is not None:
                        raise RoomError("message/malformed", "hello was already said on this connection")
                    seat = room.authenticate(msg.token)
                    client = Client(seat, max_queue=hub.limits.client_queue)
                    client.on_drop.append(on_drop)
                    writer = asyncio.get_running_loop().create_task(_writer(ws, client))
                    async with room.lock:
                        client.send(
                            {
                                "type": "welcome",
                                "protocol": PROTOCOL_VERSION,
                                "seat": seat,
                                "table": room.public_json(),
                            }
                        )
                    await room.attach(client)
                elif isinstance(msg, ChatMessage):
                    if client is None:
                        raise RoomError("auth/required", "say hello first")
                    await room.say(client, msg.text)
                else:
                    if client is None:
                        raise RoomError("auth/required", "say hello with your seat token first")
                    await room.submit(
                        client.seat, msg.action, state_id=msg.state_id, by="human", client=client
                    )
            except RoomError as exc:
                await reply(error(exc.code, exc.message))
            if client is not None and client.closed:
                break
    except WebSocketDisconnect:
        pass
    except Exception:  # pragma: no cover - never let one socket take the server down
        with contextlib.suppress(Exception):
            await reply(error("server/error", "internal error"))
    finally:
        await _finish(room, client, writer, ws)


async def _finish(
    room: Room, client: Client | None, writer: asyncio.Task[None] | None, ws: WebSocket
) -> None:
    if client is not None:
        await room.detach(client)
    if writer is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2.0)
        if not writer.done():
            writer.cancel()
    else:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2.0)
