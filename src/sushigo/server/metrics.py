"""Operating a server: ``GET /metrics`` (Prometheus text format), ``GET /livez`` and ``GET /readyz``.

Each app's hub has its own :class:`HubMetrics` with its own ``CollectorRegistry``, so two apps in one
process (the tests, a future cluster run in one interpreter) never share or clash over a series, and a
process's figures are its own: in a cluster each process is scraped on its own (docs/deploy.md).

What the hub *is* (tables by status, the rooms it holds, who is connected, the bot queue) is read from
its state when the page is scraped, so none of it needs a hook on the hot path. What *happens* (actions,
their latency, database calls, bot waits) is counted where it happens, through three calls:
:meth:`HubMetrics.acted` at the acknowledgement in ``Room.submit``, :meth:`HubMetrics.timed` in
``Hub.db``, and the bot pool's ``on_start``. A scrape's text is kept for ``cache_seconds``, so a flood
of scrapes costs one rendering per interval; none of it names an address, a table or a player.

``/livez`` answers as long as the process serves requests (no database: a database outage must not make
an orchestrator restart every process). ``/readyz`` answers 200 only while the database answers within
:data:`READY_TIMEOUT` and the process is not draining (``HubMetrics.draining``, set by whatever stops the
process taking tables: the cluster work of issue 23), so a proxy or an orchestrator stops sending it
new work.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from pydantic import BaseModel

from .botpool import Started

if TYPE_CHECKING:
    from .rooms import Hub

T = TypeVar("T")

#: What ``generate_latest`` writes: the classic text format, which every Prometheus version reads
#: (prometheus-client's own ``CONTENT_TYPE`` names a newer version in its recent releases).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: Seconds ``/readyz`` waits for the database's answer before it calls the process not ready.
READY_TIMEOUT = 2.0
#: Seconds a database check's answer is reused: a flood of ``/readyz`` (it is not under ``/api``, so
#: no rate limit applies) costs the database thread one ping per interval, never a queue of them.
READY_CACHE = 1.0
#: Every status a table can have; each is reported, at zero when no room has it.
STATUSES = ("open", "playing", "finished", "abandoned")
#: Latency buckets (seconds) of actions and database calls: a commit is about a millisecond on SQLite,
#: the load benchmark's p99 target is 100 ms, and anything past a second is an incident.
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: Bot waits: a move takes up to ``--bot-move-ms`` (1 s), and a fair wait is a few of them.
BOT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)


class HubMetrics:
    """The counters and histograms of one hub, and the registry ``/metrics`` renders."""

    def __init__(self, hub: Hub) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter(
            "sushigo_actions",
            "Actions accepted and stored, by who made them (human, bot, standin, timer).",
            ["by"],
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "sushigo_action_seconds",
            "Seconds from an action reaching its table to its acknowledgement: the table's lock, the rules "
            "engine and the database commit.",
            buckets=FAST_BUCKETS,
            registry=self.registry,
        )
        self.database_seconds = Histogram(
            "sushigo_database_seconds",
            "Seconds one store call ran on the database thread, by the store method.",
            ["operation"],
            buckets=FAST_BUCKETS,
            registry=self.registry,
        )
        self.database_queue_seconds = Histogram(
            "sushigo_database_queue_seconds",
            "Seconds a store call waited for the single database thread before it ran.",
            buckets=FAST_BUCKETS,
            registry=self.registry,
        )
        self.bot_wait_seconds = Histogram(
            "sushigo_bot_wait_seconds",
            "Seconds a search-bot move waited in the fair queue before a worker took it.",
            buckets=BOT_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_HubState(hub, self))
        hub.bot_pool.on_start.append(self._bot_started)
        #: True once the process stops taking tables: ``/readyz`` answers 503 and ``sushigo_draining`` is 1.
        self.draining = False
        #: Seconds a rendered page is reused (a flood of scrapes renders once per interval).
        self.cache_seconds = 1.0
        self._page: tuple[float, bytes] | None = None
        self._ready: tuple[float, bool] | None = None
        self._pinging: asyncio.Future[bool] | None = None

    def acted(self, by: str, started: float) -> None:
        """Counts one accepted action made by ``by`` whose handling began at ``started``
        (``time.perf_counter()``)."""
        self.actions.labels(by).inc()
        self.action_seconds.observe(time.perf_counter() - started)

    def timed(
        self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: Mapping[str, Any]
    ) -> Callable[[], T]:
        """Returns ``fn(*args, **kwargs)`` as a call for the database thread that times its wait and its run."""
        queued = time.perf_counter()
        operation = getattr(fn, "__name__", "other")

        def call() -> T:
            start = time.perf_counter()
            self.database_queue_seconds.observe(start - queued)
            try:
                return fn(*args, **kwargs)
            finally:
                self.database_seconds.labels(operation).observe(time.perf_counter() - start)

        return call

    async def database_ready(self, hub: Hub) -> bool:
        """Whether the database answers a trivial query within :data:`READY_TIMEOUT`; concurrent callers
        share one check, and its answer is reused for :data:`READY_CACHE` seconds."""
        now = time.monotonic()
        if self._ready is not None and now - self._ready[0] < READY_CACHE:
            return self._ready[1]
        if self._pinging is None or self._pinging.done():
            self._pinging = asyncio.ensure_future(self._ping(hub))
        return await asyncio.shield(self._pinging)

    async def _ping(self, hub: Hub) -> bool:
        try:
            ok = bool(await asyncio.wait_for(hub.db(hub.store.ping), READY_TIMEOUT))
        except Exception:  # a timeout, a lost connection: either way not ready
            ok = False
        self._ready = (time.monotonic(), ok)
        return ok

    def _bot_started(self, started: Started) -> None:
        self.bot_wait_seconds.observe(started.waited)

    def render(self) -> bytes:
        """The Prometheus text page (at most ``cache_seconds`` old)."""
        now = time.monotonic()
        if self._page is None or now - self._page[0] >= self.cache_seconds:
            self._page = (now, generate_latest(self.registry))
        return self._page[1]


class _HubState(Collector):
    """Reads the hub's state at scrape time: no hook on any hot path."""

    def __init__(self, hub: Hub, metrics: HubMetrics) -> None:
        self.hub = hub
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        hub = self.hub
        rooms = list(hub.rooms.values())
        tables = GaugeMetricFamily(
            "sushigo_tables",
            "Tables whose room this process holds, by status (every open or playing table has one; "
            "finished ones stay a while after their last watcher left).",
            labels=["status"],
        )
        counts = dict.fromkeys(STATUSES, 0)
        players = spectators = 0
        for room in rooms:
            counts[room.status] = counts.get(room.status, 0) + 1
            for client in room.clients:
                if client.seat is None:
                    spectators += 1
                else:
                    players += 1
        for status, count in counts.items():
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily(
            "sushigo_owned_tables",
            "Tables this process drives now (rooms in memory); in a cluster, the tables it owns.",
            value=len(rooms),
        )
        connections = GaugeMetricFamily(
            "sushigo_connections",
            "Table WebSocket connections that said hello, by role (player: holds a seat; spectator).",
            labels=["role"],
        )
        connections.add_metric(["player"], players)
        connections.add_metric(["spectator"], spectators)
        yield connections
        pool = hub.bot_pool
        yield GaugeMetricFamily(
            "sushigo_bot_queue", "Search-bot moves waiting for a worker.", value=pool.waiting
        )
        yield GaugeMetricFamily(
            "sushigo_bot_queue_addresses",
            "Addresses with search-bot moves waiting (each is served in turn: the fairness bound's k + 1).",
            value=pool.addresses_waiting,
        )
        yield GaugeMetricFamily(
            "sushigo_bot_running", "Search-bot moves being thought now.", value=pool.running
        )
        yield GaugeMetricFamily(
            "sushigo_bot_workers", "Worker processes for search bots.", value=pool.workers
        )
        yield CounterMetricFamily(
            "sushigo_bot_refused",
            "Search-bot moves refused because their address had its cap of waiting moves (played by the "
            "fallback instead).",
            value=pool.refused,
        )
        yield GaugeMetricFamily(
            "sushigo_draining",
            "1 while the process stops taking tables (/readyz answers 503).",
            value=1 if self.metrics.draining else 0,
        )


class LiveResponse(BaseModel):
    """``GET /livez``: the process is alive."""

    status: Literal["ok"]


class ReadyResponse(BaseModel):
    """``GET /readyz``: whether this process should get new work."""

    status: Literal["ready", "unavailable", "draining"]
    #: The database answered a trivial query within the timeout.
    database: bool
    #: The process is stopping to take tables.
    draining: bool


router = APIRouter(tags=["ops"])


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.get("/metrics", response_class=Response, responses={200: {"content": {CONTENT_TYPE: {}}}})
async def metrics_page(request: Request) -> Response:
    """The server's metrics in the Prometheus text format (docs/deploy.md says what to watch)."""
    return Response(_hub(request).metrics.render(), media_type=CONTENT_TYPE)


@router.get("/livez", response_model=LiveResponse)
async def livez() -> LiveResponse:
    """Tells that the process serves requests (no database check: restart it only when this fails)."""
    return LiveResponse(status="ok")


@router.get("/readyz", response_model=ReadyResponse, responses={503: {"model": ReadyResponse}})
async def readyz(request: Request) -> JSONResponse:
    """Tells whether the process should get new work: 503 while its database does not answer or it drains."""
    hub = _hub(request)
    ok = await hub.metrics.database_ready(hub)
    draining = hub.metrics.draining
    status: Literal["ready", "unavailable", "draining"] = (
        "draining" if draining else "ready" if ok else "unavailable"
    )
    body = ReadyResponse(status=status, database=ok, draining=draining)
    return JSONResponse(body.model_dump(), status_code=200 if status == "ready" else 503)
