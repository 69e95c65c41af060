"""The table WebSocket: parses and checks each client message, then hands it to its :class:`Room`.

Every message is checked for size, JSON shape and rate before anything else; a bad one gets an ``error``
message with a stable code and changes nothing. The first message must be ``hello`` (with a seat token
to play, without one to watch). A flood from one connection is slowed by a token bucket and, if it goes
on, the connection is closed; other connections and tables are not affected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from .rooms import Client, Hub, Room, RoomError
from .schemas import MAX_MESSAGE_BYTES, ActionMessage, HelloMessage, PingMessage
from .tablelog import ChatMessage

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


async def table_socket(ws: WebSocket, table_id: str) -> None:
    """Serves one WebSocket connection to table ``table_id``."""
    hub: Hub = ws.app.state.hub
    await ws.accept()
    room = await hub.get(table_id)
    if room is None:
        await ws.send_text(json.dumps(error("table/not_found", f"there is no table {table_id[:40]!r}")))
        await ws.close(code=4404)
        return
    # Before ``hello`` the connection has no client object; replies go out directly.
    bucket = TokenBucket()
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
            try:
                if client is None:
                    raw = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
                else:
                    raw = await ws.receive()
            except TimeoutError:
                await reply(error("auth/required", "say hello first"))
                break
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
            if not bucket.take():
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
                    client = Client(seat)
                    writer = asyncio.get_running_loop().create_task(_writer(ws, client))
                    async with room.lock:
                        client.send({"type": "welcome", "seat": seat, "table": room.public().model_dump()})
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
    else:
        with contextlib.suppress(Exception):
            await ws.close()
