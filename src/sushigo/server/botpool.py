"""Bot thinking on the server: off the event loop, a bounded number at once, fairly across addresses
and tables.

Search bots are pure Python, so a thread would keep the GIL from the event loop: measured on the
development machine, four ``mcts`` bots thinking in threads raised the loop's p99 wake-up delay from
0.3 ms to 46 ms, and in two worker processes it stayed at 0.4 ms. So bots think in a small process pool
(``workers`` processes, the server-wide limit on bots thinking at once). Each move ships the bot, its
observation and its legal actions to a worker and the bot (with what it remembered) back, about 13 KB
and half a millisecond for ``mcts``.

**Fairness.** One address may hold ten tables of eight ``mcts`` bots; served first come first served, a
human playing one ``mcts`` bot elsewhere waited 5.6 s a move instead of 0.48 s. So waiting moves are
queued per table, tables are grouped by the address that created them, and a free worker takes the
next move of the address served longest ago (one that was never served goes first), and within it of
the table served longest ago. A table's moves wait in its own queue one behind the other, so each table
offers at most one move to the workers at a time, and one address at most ``per_address`` waiting moves
(beyond that a move is refused at once and played by the cheap fallback: :class:`BotQueueFull`).

The bound this gives: every move holds a worker at most ``T`` (``move_ms`` of search, capped by
:func:`cap_budget`, plus its last iteration and the transfer, a few milliseconds). A move waits only for
the moves running when it arrived and at most one move of each *other* address with moves waiting, so
it starts within ``ceil((k + 1) / workers) * T``, where ``k`` is the number of those addresses, however
many tables and bots each of them has. One address with ten tables of eight ``mcts`` bots makes another
address's bot wait at most ``T`` for one worker (``k = 1``: its next move goes first, behind the one
running). Within one address the same holds across its tables. docs/deploy.md ("Bots") has the figures.

A move that runs far past its budget (``3 * move_ms + 10 s``) is given up (the room then plays a legal
fallback) while its worker finishes; waiting in the queue does not count towards that.

Cheap bots (``INLINE_BOTS``, well under a millisecond a move) are not worth the trip and act inline.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import dataclasses
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from ..bots.budget import SearchBudget

#: How much nicer (lower priority) than the server the worker processes run.
WORKER_NICENESS = 10
#: Moves of one address that may wait at once: ten tables (``Limits.max_tables_per_address``) of eight
#: search-bot seats each (Sushi Go Party!'s largest table) never reach it.
PER_ADDRESS_QUEUE = 80
#: Bots whose moves cost well under a millisecond (measured): they act on the event loop.
INLINE_BOTS = frozenset({"random", "greedy", "heuristic", "roll-greedy"})


def think(bot: Any, observation: Any, legal: Sequence[Any]) -> tuple[Any, Any]:
    """Runs in a worker: returns the bot's action and the bot itself (its memory changed)."""
    return bot.act(observation, legal), bot


def _warm(parent: int) -> None:
    _die_with(parent)
    # A lower CPU priority lets the server's event loop (tables, sockets, the lobby) run first whenever
    # it has work, even on a machine with fewer cores than workers; bots use the time left over.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    # On Linux (EEVDF) a niced process still delays a waking server by up to its time slice; under
    # SCHED_IDLE the worker runs only on otherwise idle CPU and yields at once. Bots' budgets are
    # wall-clock, so a starved worker plays a shallower move rather than a late one.
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    # Importing every built-in bot once per worker keeps the first move from paying for it.
    from ..bots import bot_names

    bot_names()


def _die_with(parent: int) -> None:
    """Ends this worker when the server process ends, even by SIGKILL (no orphaned bot workers)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:  # elsewhere (and as a second guard): notice being adopted by init
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="sushigo-parent-watch", daemon=True).start()


def cap_budget(bot: Any, move_ms: float) -> Any:
    """Limits ``bot``'s search budget, if it has one, to ``move_ms`` per move."""
    budget = getattr(bot, "budget", None)
    if isinstance(budget, SearchBudget):
        limit = move_ms if budget.time_ms is None else min(budget.time_ms, move_ms)
        bot.budget = dataclasses.replace(budget, time_ms=limit)
    return bot


class BotQueueFull(RuntimeError):
    """An address already has ``per_address`` moves waiting: the move is refused instead of queued."""


@dataclasses.dataclass(frozen=True)
class Started:
    """What :attr:`BotPool.on_start` hears when a worker takes a job."""

    address: str
    table: str
    #: Seconds the job waited in the queue.
    waited: float
    #: Jobs that started between this one's arrival and its start: at most one per other address with
    #: jobs waiting (the fairness bound), however many tables and jobs those addresses have.
    overtaken: int


@dataclasses.dataclass(eq=False)
class _Job:
    table: str
    address: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    limit: float | None
    queued_at: float
    queued_turn: int
    timer: asyncio.TimerHandle | None = None


class _Address:
    """One address's tables with moves waiting, each table's moves in order, and when each was served."""

    def __init__(self) -> None:
        self.tables: OrderedDict[str, deque[_Job]] = OrderedDict()
        self.waiting = 0


class BotPool:
    """At most ``workers`` jobs run at once; waiting jobs are served round-robin by address, then by
    table (see the module docstring for the bound it gives)."""

    def __init__(
        self,
        workers: int = 2,
        *,
        move_ms: float = 1000.0,
        per_address: int = PER_ADDRESS_QUEUE,
        processes: bool = True,
        executor: Executor | None = None,
    ) -> None:
        self.workers = max(1, workers)
        self.move_ms = move_ms
        self.per_address = max(1, per_address)
        self._processes = processes
        self._executor = executor
        self._addresses: OrderedDict[str, _Address] = OrderedDict()
        #: When each address and each table was last served (a turn number; absent: never, or forgotten).
        self._address_served: dict[str, int] = {}
        self._table_served: dict[str, int] = {}
        self._turn = 0
        self.running = 0
        #: Moves refused because their address had ``per_address`` waiting (played by the fallback).
        self.refused = 0
        #: Each is told about every job a worker takes (the metrics' wait histogram, the fairness test).
        self.on_start: list[Callable[[Started], None]] = []

    @property
    def waiting(self) -> int:
        """Jobs queued and not yet started."""
        return sum(a.waiting for a in self._addresses.values())

    @property
    def addresses_waiting(self) -> int:
        """Addresses with at least one job queued (``k + 1`` in the module docstring's bound)."""
        return len(self._addresses)

    def wait_bound(self, others: int = 1) -> float:
        """Seconds a move waits at most for a worker while ``others`` other addresses have moves waiting,
        counting each move at its full ``move_ms`` budget (the module docstring's bound)."""
        return math.ceil((others + 1) / self.workers) * self.move_ms / 1000.0

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._processes:
                # ``spawn``: forking a process that runs threads (the database worker) is unsafe.
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm,
                    initargs=(os.getpid(),),
                )
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="sushigo-bot")
        return self._executor

    async def run(
        self,
        table_id: str,
        fn: Callable[..., Any],
        *args: Any,
        address: str | None = None,
        limit: float | None = None,
    ) -> Any:
        """Runs ``fn(*args)`` in the pool when its turn comes; returns its result.

        ``address`` is the key of whoever the work is for (a table's ``created_by``); without one the
        table counts as an address of its own. ``limit``: seconds it may run once started before
        ``TimeoutError`` (its worker still finishes it).

        :raises BotQueueFull: that address already has ``per_address`` jobs waiting.
        """
        key = address if address is not None else "table:" + table_id
        group = self._addresses.get(key)
        if group is not None and group.waiting >= self.per_address:
            self.refused += 1
            raise BotQueueFull(f"{group.waiting} bot moves of this address are waiting already")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        job = _Job(table_id, key, fn, args, future, limit, time.monotonic(), self._turn)
        if group is None:
            group = self._addresses[key] = _Address()
        group.tables.setdefault(table_id, deque()).append(job)
        group.waiting += 1
        self._dispatch()
        try:
            return await future
        except asyncio.CancelledError:
            self._withdraw(job)  # still queued: it leaves the queue (a running one just finishes)
            raise

    async def think(
        self, table_id: str, bot: Any, observation: Any, legal: Sequence[Any], *, address: str | None = None
    ) -> tuple[Any, Any]:
        """Asks ``bot`` for its move in a worker; gives up (``TimeoutError``) well past its budget.

        A move its address may not queue (:class:`BotQueueFull`) is the first legal action, at once:
        only that address's own tables play weaker, and nobody waits.
        """
        limit = 3 * self.move_ms / 1000.0 + 10.0
        try:
            result: tuple[Any, Any] = await self.run(
                table_id, think, bot, observation, list(legal), address=address, limit=limit
            )
        except BotQueueFull:
            return legal[0], bot
        return result

    def drop(self, table_id: str) -> None:
        """Forgets the waiting jobs of a table that closed (their awaiting tasks are cancelled)."""
        self._table_served.pop(table_id, None)
        for key, group in list(self._addresses.items()):
            jobs = group.tables.pop(table_id, None)
            if jobs is None:
                continue
            group.waiting -= len(jobs)
            if not group.tables:
                del self._addresses[key]
            for job in jobs:
                job.future.cancel()

    def _withdraw(self, job: _Job) -> None:
        group = self._addresses.get(job.address)
        jobs = group.tables.get(job.table) if group is not None else None
        if group is None or jobs is None or job not in jobs:
            return
        jobs.remove(job)
        group.waiting -= 1
        if not jobs:
            del group.tables[job.table]
            if not group.tables:
                del self._addresses[job.address]

    def _next(self) -> _Job:
        """Takes the next job: the address served longest ago, then its table served longest ago."""
        key = min(self._addresses, key=lambda a: self._address_served.get(a, -1))
        group = self._addresses[key]
        table = min(group.tables, key=lambda t: self._table_served.get(t, -1))
        jobs = group.tables[table]
        job = jobs.popleft()
        group.waiting -= 1
        if not jobs:
            del group.tables[table]
            if not group.tables:
                del self._addresses[key]
        self._turn += 1
        self._address_served[key] = self._turn
        self._table_served[table] = self._turn
        if len(self._table_served) > 10_000 or len(self._address_served) > 10_000:
            # Forgetting an idle one only lets it go first next time, as a new one would.
            busy = {j.table for g in self._addresses.values() for q in g.tables.values() for j in q}
            self._table_served = {t: n for t, n in self._table_served.items() if t in busy}
            self._address_served = {a: n for a, n in self._address_served.items() if a in self._addresses}
        return job

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running < self.workers and self._addresses:
            job = self._next()
            if job.future.done():  # cancelled while waiting
                continue
            if self.on_start:
                waited = time.monotonic() - job.queued_at
                started = Started(job.address, job.table, waited, self._turn - job.queued_turn - 1)
                for listener in self.on_start:
                    listener(started)
            self.running += 1
            try:
                done: Future[Any] = self._pool().submit(job.fn, *job.args)
            except Exception as exc:  # a broken pool: fail the job, keep serving
                self.running -= 1
                job.future.set_exception(exc)
                continue
            if job.limit is not None:
                job.timer = loop.call_later(job.limit, self._give_up, job)
            done.add_done_callback(lambda f, job=job: loop.call_soon_threadsafe(self._finished, job, f))  # type: ignore[misc]

    def _give_up(self, job: _Job) -> None:
        if not job.future.done():
            job.future.set_exception(TimeoutError(f"the move ran past {job.limit:.0f} s"))

    def _finished(self, job: _Job, done: Future[Any]) -> None:
        self.running -= 1
        if job.timer is not None:
            job.timer.cancel()
        exc = done.exception() if not done.cancelled() else None
        if isinstance(exc, BrokenExecutor):
            self._executor = None  # a worker died (killed, out of memory): start a fresh pool
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def close(self) -> None:
        """Stops the workers without waiting for moves in progress."""
        for group in list(self._addresses.values()):
            for table_id in list(group.tables):
                self.drop(table_id)
        executor, self._executor = self._executor, None
        if executor is not None:
            # Moves in progress are not waited for: their workers are ended (they hold no state).
            processes = list(getattr(executor, "_processes", {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()
            for process in processes:
                with contextlib.suppress(Exception):
                    process.join(2.0)
