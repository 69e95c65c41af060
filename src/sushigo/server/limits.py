"""What an anonymous client may cost the server: the configurable limits, per-address rate limits, the
client address behind an optional reverse proxy, and a request body limit applied before parsing.

Every limit holds per client *address*, not only per connection, so reconnecting does not reset it. The
address is the TCP peer's unless ``forwarded_header`` names the header a trusted reverse proxy sets
(``X-Forwarded-For``: its last entry, the one the proxy appended; ``X-Real-IP``: the whole value). That
option is off by default, because without a proxy in front anyone can write that header.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def default_bot_workers(cores: int | None) -> int:
    """``Limits.bot_workers``' default on a machine of ``cores`` CPUs: one fewer, between one and two."""
    return min(2, max(1, (cores or 2) - 1))


DEFAULT_BOT_WORKERS = default_bot_workers(os.cpu_count())


@dataclass(frozen=True)
class Limits:
    """Every bound of one server; ``sushigo serve`` sets them from its options (docs/server.md)."""

    #: Largest HTTP request body (bytes); a longer one is refused with 413 before it is read.
    max_body_bytes: int = 16_384
    #: Tables one address may create: on average per minute, and at once.
    create_per_minute: float = 10.0
    create_burst: float = 5.0
    #: Tables not yet finished (open or playing) created by one address, and on the whole server.
    max_tables_per_address: int = 10
    max_tables: int = 500
    #: Seconds an open table waits for its players before it is closed and stored as abandoned.
    open_table_seconds: float = 1800.0
    #: Bots thinking at once on the whole server (each in its own worker process): one core fewer than
    #: the machine has, at most two. On two cores, with five-``mcts`` tables thinking, a human table's
    #: p99 was 7.2 ms with one worker and 7.9-8.0 ms with two, both at the lowest priority
    #: (benchmarks/server_abuse.py): one leaves a core to the tables.
    bot_workers: int = DEFAULT_BOT_WORKERS
    #: Wall-clock budget of one search-bot move on the server (milliseconds).
    bot_move_ms: float = 1000.0
    #: WebSocket messages per second one connection may send on average, and at once.
    ws_rate: float = 10.0
    ws_burst: float = 30.0
    #: The same for all connections of one address together.
    address_ws_rate: float = 40.0
    address_ws_burst: float = 120.0
    #: WebSocket connections one address may open per second on average, at once, and hold open.
    connects_per_second: float = 20.0
    connect_burst: float = 60.0
    max_connections_per_address: int = 64
    #: Tables not in memory (finished ones) whose room one address may have rebuilt, per second and at
    #: once: rebuilding replays the whole game.
    room_loads_per_second: float = 2.0
    room_load_burst: float = 10.0
    #: HTTP API requests per second of one address, and at once.
    http_rate: float = 50.0
    http_burst: float = 100.0
    #: Seconds a refused API request is held before its 429 goes out, and how many refusals of one
    #: address (and of the whole server) are held at once; beyond that they are answered at once. A
    #: client that sends its next request only once the last one is answered — one connection
    #: flooding as fast as it can — is slowed to one refusal a hold, instead of costing the server a
    #: refusal every few dozen microseconds (445 a second, a sixth of a core, in the abuse benchmark).
    refusal_hold: float = 1.0
    refusal_holds_per_address: int = 8
    refusal_holds: int = 512
    #: Chat lines one table stores at most, and how many of them spectators may store together: the rest
    #: (``chat_lines - chat_spectator_lines``) is the seated players' reserve, so watchers can never
    #: leave the players without a chat (``chat/full``).
    chat_lines: int = 2000
    chat_spectator_lines: int = 1000
    #: Chat lines per second on average and at once: of one seat (all its connections together), and of
    #: all spectators of one address at one table together (sixty connections share one budget).
    chat_rate: float = 0.5
    chat_burst: float = 5.0
    #: Messages waiting for a client before it is dropped as a slow reader.
    client_queue: int = 256
    #: Kernel send buffer of each connection (bytes; the kernel doubles it), set on the listening
    #: socket so every accepted one inherits it. Left to autotuning, Linux lets a peer that never
    #: reads pin 4 MB per socket, and the queue above would only start filling after that; 0 keeps
    #: the kernel's autotuning. 256 KiB still carries a few MB/s at a 100 ms round trip.
    socket_send_buffer: int = 262_144
    #: Seconds between two presence messages of one table (changes in between are merged).
    presence_interval: float = 0.2
    #: Seconds a finished table's room stays in memory after its last client left, and how many such
    #: rooms are kept (the least recently watched go first). Watching a finished game rebuilds its room
    #: by replaying the whole game on the event loop; a stream of spectators would pay that on every
    #: connect. 0 evicts at once.
    finished_room_seconds: float = 60.0
    finished_rooms: int = 64
    #: Finished games whose record and replay are kept ready to serve.
    cache_entries: int = 256
    #: Header set by a trusted reverse proxy that carries the client address; ``None`` trusts none.
    forwarded_header: str | None = None
    # ---- life cycle (issue 21)
    #: Rated games against bots one account may start in an hour: a bot seat counts at its published
    #: strength, so without a bound an account could farm rating points from tireless opponents.
    rated_per_hour: int = 20
    #: The turn timer of a rated table created without one (seconds): a rated game must end, so no
    #: seat may stall it forever.
    rated_turn_timer: float = 60.0
    #: Seconds a "play again" seat stays reserved for its previous player; then it opens for anyone
    #: (and the table itself is closed after ``open_table_seconds`` like any open table).
    rematch_reserve_seconds: float = 300.0


class RateLimiter:
    """Token buckets keyed by client address, for as many addresses as ``max_keys`` (least recent go).

    Forgetting an idle address loses nothing: a bucket left alone refills to its burst anyway. It is the
    server's one rate limiter: a limit of one connection (its message rate, its chat lines) is a
    ``RateLimiter(rate, burst, max_keys=1)`` used with the default key.
    """

    def __init__(self, rate: float, burst: float, *, max_keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str = "", cost: float = 1.0) -> bool:
        """Spends ``cost`` tokens of ``key``'s bucket; false (nothing spent) when there are too few."""
        now = time.monotonic()
        tokens, at = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        ok = tokens >= cost
        if ok:
            tokens -= cost
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return ok

    def retry_after(self, key: str = "", cost: float = 1.0) -> float:
        """Seconds until ``key`` may spend ``cost`` again."""
        tokens, at = self._buckets.get(key, (self.burst, time.monotonic()))
        tokens = min(self.burst, tokens + (time.monotonic() - at) * self.rate)
        return max(0.0, (cost - tokens) / self.rate) if self.rate > 0 else float("inf")


def client_address(
    client: tuple[str, int] | None, headers: Iterable[tuple[bytes, bytes]], forwarded_header: str | None
) -> str:
    """Returns the address limits are counted against (see the module docstring)."""
    peer = client[0] if client else "unknown"
    if not forwarded_header:
        return peer
    wanted = forwarded_header.lower().encode("latin-1")
    values = [v.decode("latin-1") for k, v in headers if k.lower() == wanted]
    if not values:
        return peer
    # Several header lines count as one comma-separated list; the proxy appends the peer it saw last.
    entries = [e.strip() for e in ",".join(values).split(",") if e.strip()]
    return entries[-1][:64] if entries else peer


class RequestRate:
    """ASGI middleware: every ``/api`` request spends from its address's bucket; an empty one gets 429.

    It answers before routing, dependencies and exception handlers run: a client flooding the API as
    fast as it can is refused at a few microseconds a request, where a refusal through FastAPI cost
    about as much as the cheapest answer (a third of the server's CPU under a replay flood).
    """

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.requests = RateLimiter(limits.http_rate, limits.http_burst)
        #: refusals being held, per address (an address leaves the map when its last one is answered)
        self.held: dict[str, int] = {}
        self.held_total = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and (scope["path"] == "/api" or scope["path"].startswith("/api/")):
            address = client_address(
                scope.get("client"), scope.get("headers", ()), self.limits.forwarded_header
            )
            if not self.requests.take(address):
                await self._hold(address)
                wait = max(1, round(self.requests.retry_after(address)))
                await _refuse(send, 429, b"rate/limited: too many requests; slow down", wait)
                return
        await self.app(scope, receive, send)

    async def _hold(self, address: str) -> None:
        """Waits ``refusal_hold`` seconds unless that address (or the server) already holds its most."""
        limits = self.limits
        mine = self.held.get(address, 0)
        if (
            limits.refusal_hold <= 0
            or mine >= limits.refusal_holds_per_address
            or self.held_total >= limits.refusal_holds
        ):
            return
        self.held[address] = mine + 1
        self.held_total += 1
        try:
            await asyncio.sleep(limits.refusal_hold)
        finally:
            self.held_total -= 1
            left = self.held[address] - 1
            if left:
                self.held[address] = left
            else:
                del self.held[address]


class BodyLimit:
    """ASGI middleware: refuses an HTTP request body over ``max_bytes`` with 413, before it is read.

    A declared ``Content-Length`` over the limit is answered at once; a chunked body is counted as it
    arrives and refused as soon as it passes the limit, so a 100 MB body is never held in memory.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = None
        for key, value in scope.get("headers", ()):
            if key.lower() == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
        if declared is not None and (declared < 0 or declared > self.max_bytes):
            await _too_large(send, self.max_bytes)
            return
        seen = 0
        started = False
        refused = False

        async def counted_receive() -> Message:
            nonlocal seen, started, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # Answer now: the app may turn the exception below into its own error response,
                    # which ``tracking_send`` then drops.
                    if not started:
                        started = refused = True
                        await _too_large(send, self.max_bytes)
                    raise _BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        with contextlib.suppress(_BodyTooLarge):
            await self.app(scope, counted_receive, tracking_send)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Send, max_bytes: int) -> None:
    detail = b"request/too_large: request bodies are limited to " + str(max_bytes).encode() + b" bytes"
    await _refuse(send, 413, detail, close=True)


async def _refuse(
    send: Send, status: int, detail: bytes, retry_after: int | None = None, *, close: bool = False
) -> None:
    """Sends the JSON error body the API's own errors have (``{"detail": "code: message"}``)."""
    body = b'{"detail":"' + detail + b'"}'
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
