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
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError

from .accounts import identity
from .accounts.identity import Identity
from .cluster import UNFINISHED, session_tag
from .limits import Limits, RateLimiter, client_address
from .rooms import Client, Hub, Room, RoomError
from .schemas import (
    CLIENT_MESSAGES,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ActionMessage,
    ChatMessage,
    HelloMessage,
    PingMessage,
    message_type,
    valid_table_id,
)

#: Dropped messages within ``FLOOD_WINDOW`` seconds after which a flooding connection is closed.
FLOOD_CLOSE_AFTER = 200
FLOOD_WINDOW = 10.0
HELLO_TIMEOUT = 30.0
#: Seconds an account's connection acts without asking the accounts whether it is still signed in
#: (revocations and sign-outs close it at once anyway: :func:`watch_accounts`).
IDENTITY_RECHECK = 60.0

#: Each client message's model by its ``type`` (schemas.CLIENT_MESSAGES is the only list of them).
MODELS: dict[str, type[BaseModel]] = {message_type(model): model for model in CLIENT_MESSAGES}


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


def error(code: str, message: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """Returns an ``error`` message; ``params`` (when any) fill the code's text in the reader's language."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if params:
        out["params"] = params
    return out


def parse_message(text: str) -> BaseModel:
    """Parses one client message into its model (one of ``schemas.CLIENT_MESSAGES``).

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
    model = MODELS.get(data["type"])
    if model is None:
        raise RoomError("message/unknown_type", f"unknown message type {data['type'][:40]!r}")
    try:
        parsed = model.model_validate(data)
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


def sign_off(client: Client) -> None:
    """Tells a connection that acted for an account that it no longer may, and closes it."""
    client.send(error("auth/ended", "signed out, or the API token was revoked; sign in again"))
    client.identity = None
    client.close()


def watch_accounts(state: Any, hub: Hub) -> None:
    """Listens (once per app) for revoked API tokens and ended sessions: every connection that acts for
    an account through one of them is signed off at once, not at its next action, on every process of
    a cluster (called when the app starts, so a process that serves no socket still announces)."""
    accounts = getattr(state, "accounts", None)
    if accounts is None or getattr(state, "seating_watches", False):
        return
    state.seating_watches = True
    state.seating_revocations = 0

    def off(match: Callable[[Identity], bool]) -> None:
        # A connection between its handshake's look-up and joining its room is not in any room yet:
        # it sees the count move and asks again (:meth:`Connection.on_hello`).
        state.seating_revocations += 1
        for room in list(hub.rooms.values()):
            for client in list(room.clients):
                if client.identity is not None and match(client.identity):
                    sign_off(client)

    accounts.revoked.append(lambda token_id: off(lambda who: who.token_id == token_id))
    accounts.ended.append(lambda session: off(lambda who: who.session == session))
    cluster = hub.cluster
    if cluster is None:
        return

    # In a cluster the connections that act through the session or token may be on other processes:
    # each announces what ended here and signs off its own connections when another announces.
    def remote(kind: str, value: str) -> None:
        if kind == "t" and value.isdigit():
            off(lambda who: who.token_id == int(value))
        elif kind == "s":
            off(lambda who: who.session is not None and session_tag(who.session) == value)

    def announce(kind: str, value: str) -> None:
        hub.life.spawn(hub.db(cluster.announce, kind, value))

    cluster.on_accounts = remote
    accounts.revoked.append(lambda token_id: announce("t", str(token_id)))
    accounts.ended.append(lambda session: announce("s", session_tag(session)))


async def table_socket(ws: WebSocket, table_id: str) -> None:
    """Serves one WebSocket connection to table ``table_id``."""
    hub: Hub = ws.app.state.hub
    watch_accounts(ws.app.state, hub)
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


class Connection:
    """One table WebSocket after its room was found: its rate limits, its :class:`Client` once it said
    ``hello``, and one handler per client message.

    The handler of a message whose ``type`` is ``t`` is the method ``on_t`` (``on_hello``, ``on_chat``);
    :data:`HANDLERS` finds them from ``schemas.CLIENT_MESSAGES`` when the module loads, so a message
    without a handler fails at import. A handler raises :class:`RoomError` to answer with an ``error``.
    """

    def __init__(self, ws: WebSocket, hub: Hub, room: Room, shared: AddressLimits, address: str) -> None:
        self.ws = ws
        self.hub = hub
        self.room = room
        self.shared = shared
        self.address = address
        # One bucket for this connection alone (the address's shared one is ``shared.messages``).
        self.bucket = RateLimiter(hub.limits.ws_rate, hub.limits.ws_burst, max_keys=1)
        self.rejected = 0
        self.window_start = time.monotonic()
        #: ``None`` until ``hello``; replies go out directly until then.
        self.client: Client | None = None
        self.writer: asyncio.Task[None] | None = None
        # Set when the room drops this client as a slow reader: the loop stops waiting for input then
        # (only there, so an action being applied is never interrupted).
        self.dropped: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def _on_drop(self, _client: Client) -> None:
        if not self.dropped.done():
            self.dropped.set_result(None)

    async def reply(self, message: dict[str, Any]) -> None:
        """Sends ``message`` to this connection (through its client's queue once there is one)."""
        if self.client is not None:
            self.client.send(message)
        else:
            await self.ws.send_text(json.dumps(message))

    def within_rate(self) -> bool:
        """Spends one message of this connection's and its address's budgets; false when either is out."""
        return self.bucket.take() and self.shared.messages.take(self.address)

    async def refuse_flood(self) -> bool:
        """Answers a message over the rate; true when the flood went on so long the connection closes."""
        now = time.monotonic()
        if now - self.window_start > FLOOD_WINDOW:
            self.window_start, self.rejected = now, 0
        self.rejected += 1
        if self.rejected > FLOOD_CLOSE_AFTER:
            await self.reply(error("rate/limited", "too many messages; closing the connection"))
            return True
        # Every dropped message is answered, so a client never waits for a lost action; the connection
        # is closed if the flood goes on.
        await self.reply(error("rate/limited", "too many messages; slow down"))
        return False

    async def handle(self, text: str) -> None:
        """Parses one message and runs its handler; a refusal is answered with an ``error``."""
        try:
            msg = parse_message(text)
            await HANDLERS[message_type(type(msg))](self, msg)
        except RoomError as exc:
            await self.reply(error(exc.code, exc.message, exc.params))

    # ------------------------------------------------------------ one handler per client message

    async def on_ping(self, msg: PingMessage) -> None:
        await self.reply({"type": "pong"})

    async def on_hello(self, msg: HelloMessage) -> None:
        if self.client is not None:
            raise RoomError("message/malformed", "hello was already said on this connection")
        room = self.room
        seat = room.authenticate(msg.token)
        # The handshake's account (a same-origin session cookie or a bearer API token), if any: with no
        # token it opens the account's own seat; either way, a connection that acts for an account's
        # seat as that account is signed off when the account signs out or its token is revoked.
        revocations = getattr(self.ws.app.state, "seating_revocations", 0)
        who = await identity.identify_socket(self.ws)
        if msg.token is None and who is not None:
            seat = room.seat_of(who.user_id)
        bound = (
            who
            if who is not None and seat is not None and room.row.seats[seat].user_id == who.user_id
            else None
        )
        if bound is not None and bound.program and seat is not None:
            await room.mark_program(seat)
        client = self.client = Client(seat, max_queue=self.hub.limits.client_queue, address=self.address)
        client.identity = bound
        client.identity_checked_at = time.monotonic()
        client.on_drop.append(self._on_drop)
        self.writer = asyncio.get_running_loop().create_task(_writer(self.ws, client))
        async with room.lock:
            client.send(
                {"type": "welcome", "protocol": PROTOCOL_VERSION, "seat": seat, "table": room.public_json()}
            )
        await room.attach(client)
        if bound is not None and getattr(self.ws.app.state, "seating_revocations", 0) != revocations:
            client.identity_checked_at = -IDENTITY_RECHECK  # something was revoked meanwhile: ask now
            with contextlib.suppress(RoomError):
                await self.still_signed_in(client)

    async def still_signed_in(self, client: Client) -> None:
        """Refuses to act for an account whose session ended or whose API token was revoked since the
        connection opened, and closes the connection.

        Revoking a token, signing out, changing the password, disabling or deleting an account close
        such connections at once (:func:`watch_accounts`); this catches what no hook announces (a
        session that expired), asking the accounts again at most every :data:`IDENTITY_RECHECK` s.

        :raises RoomError: ``auth/ended``.
        """
        if client.closed:  # signed off (or dropped) while this message waited
            raise RoomError("auth/ended", "this connection was closed")
        bound = client.identity
        if bound is None:
            return
        now = time.monotonic()
        if now - client.identity_checked_at < IDENTITY_RECHECK:
            return
        again = await identity.identify_socket(self.ws)
        if again is not None and again.user_id == bound.user_id:
            client.identity_checked_at = now
            return
        sign_off(client)
        raise RoomError("auth/ended", "signed out, or the API token was revoked")

    async def on_action(self, msg: ActionMessage) -> None:
        client = self.client
        if client is None:
            raise RoomError("auth/required", "say hello with your seat token first")
        await self.still_signed_in(client)
        await self.room.submit(client.seat, msg.action, state_id=msg.state_id, by="human", client=client)

    async def on_chat(self, msg: ChatMessage) -> None:
        if self.client is None:
            raise RoomError("auth/required", "say hello first")
        await self.still_signed_in(self.client)
        await self.room.say(self.client, msg.text)

    # ------------------------------------------------------------------------------- the loop

    async def serve(self) -> None:
        """Reads messages until the peer leaves, the client is dropped, or ``hello`` does not come."""
        ws = self.ws
        try:
            while True:
                receiving: asyncio.Future[Any] = asyncio.ensure_future(ws.receive())
                waits: set[asyncio.Future[Any]] = {receiving, self.dropped}
                done, _ = await asyncio.wait(
                    waits,
                    timeout=HELLO_TIMEOUT if self.client is None else None,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if receiving not in done:
                    receiving.cancel()
                    if not self.dropped.done():
                        await self.reply(error("auth/required", "say hello first"))
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
                if not self.within_rate():
                    if await self.refuse_flood():
                        break
                    continue
                await self.handle(text)
                if self.client is not None and self.client.closed:
                    break
        except WebSocketDisconnect:
            pass
        except Exception:  # pragma: no cover - never let one socket take the server down
            with contextlib.suppress(Exception):
                await self.reply(error("server/error", "internal error"))
        finally:
            await _finish(self.room, self.client, self.writer, ws)


Handler = Callable[[Connection, Any], Awaitable[None]]


def _handlers() -> dict[str, Handler]:
    """``type`` → the :class:`Connection` method that handles that client message (``on_<type>``)."""
    table: dict[str, Handler] = {}
    for kind, model in MODELS.items():
        handler = getattr(Connection, "on_" + kind, None)
        if handler is None:
            raise TypeError(f"client message {model.__name__} has no handler Connection.on_{kind}")
        table[kind] = handler
    return table


HANDLERS = _handlers()


async def _serve(ws: WebSocket, hub: Hub, shared: AddressLimits, address: str, table_id: str) -> None:
    if (
        valid_table_id(table_id)
        and table_id not in hub.rooms
        and await hub.db(hub.store.table_status, table_id) not in UNFINISHED
        and not shared.loads.take(address)
    ):
        # Opening a finished table that is not in memory replays its whole game: a budget of its own.
        # An unfinished one is not counted: it must be live anyway (every process's ``max_tables``
        # bounds those), and after a failover every player of a dead process's tables reconnects at
        # once, many of them behind one address (a school, a NAT), each possibly more than once while
        # the table moves.
        await ws.send_text(json.dumps(error("rate/limited", "too many tables opened; slow down")))
        await ws.close(code=1013)
        return
    try:
        room = await hub.get(table_id) if valid_table_id(table_id) else None
    except RoomError as exc:
        # Cluster: another process owns the table and was asked for it; the page reconnects shortly.
        await ws.send_text(json.dumps(error(exc.code, exc.message)))
        await ws.close(code=1013)
        return
    if room is None:
        shown = table_id[:40].encode("ascii", "backslashreplace").decode()
        await ws.send_text(json.dumps(error("table/not_found", f"there is no table {shown!r}")))
        await ws.close(code=4404)
        return
    await Connection(ws, hub, room, shared, address).serve()


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
