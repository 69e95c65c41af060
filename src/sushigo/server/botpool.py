"""Bot thinking on the server: off the event loop, a bounded number at once, fairly across tables.

Search bots are pure Python, so a thread would keep the GIL from the event loop: measured on the
development machine, four ``mcts`` bots thinking in threads raised the loop's p99 wake-up delay from
0.3 ms to 46 ms, and in two worker processes it stayed at 0.4 ms. So bots think in a small process pool
(``workers`` processes, the server-wide limit on bots thinking at once). Each move ships the bot, its
observation and its legal actions to a worker and the bot (with what it remembered) back, about 13 KB
and half a millisecond for ``mcts``.

Waiting moves are queued per table and served round-robin across tables, so a table with five search
bots cannot make another table's single bot wait behind all five. Every search bot's budget is capped
at ``move_ms`` of wall-clock time per move (:func:`cap_budget`), and a move that takes far longer than
that is given up (the room then plays a legal fallback) while its worker finishes.

Cheap bots (``INLINE_BOTS``, well under a millisecond a move) are not worth the trip and act inline.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import dataclasses
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


@dataclasses.dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


class BotPool:
    """At most ``workers`` jobs run at once; waiting jobs are served round-robin by table."""

    def __init__(
        self,
        workers: int = 2,
        *,
        move_ms: float = 1000.0,
        processes: bool = True,
        executor: Executor | None = None,
    ) -> None:
        self.workers = max(1, workers)
        self.move_ms = move_ms
        self._processes = processes
        self._executor = executor
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._served: dict[str, int] = {}
        self._turn = 0
        self.running = 0

    @property
    def waiting(self) -> int:
        """Jobs queued and not yet started."""
        return sum(len(q) for q in self._queues.values())

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

    async def run(self, table_id: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Runs ``fn(*args)`` in the pool when ``table_id``'s turn comes; returns its result."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(table_id, deque()).append(_Job(fn, args, future))
        self._dispatch()
        return await future

    async def think(self, table_id: str, bot: Any, observation: Any, legal: Sequence[Any]) -> tuple[Any, Any]:
        """Asks ``bot`` for its move in a worker; gives up (``TimeoutError``) well past its budget."""
        limit = 3 * self.move_ms / 1000.0 + 10.0
        result: tuple[Any, Any] = await asyncio.wait_for(
            asyncio.shield(self.run(table_id, think, bot, observation, list(legal))), limit
        )
        return result

    def drop(self, table_id: str) -> None:
        """Forgets the waiting jobs of a table that closed (their awaiting tasks are cancelled)."""
        self._served.pop(table_id, None)
        for job in self._queues.pop(table_id, deque()):
            job.future.cancel()

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running < self.workers and self._queues:
            # Round-robin: the table served longest ago (or never) goes next, so a table that just
            # had a move started waits for every other waiting table.
            table_id = min(self._queues, key=lambda t: self._served.get(t, -1))
            queue = self._queues[table_id]
            job = queue.popleft()
            if not queue:
                del self._queues[table_id]
            if job.future.cancelled():
                continue
            self._turn += 1
            self._served[table_id] = self._turn
            if len(self._served) > 10_000:
                self._served = {t: n for t, n in self._served.items() if t in self._queues}
            self.running += 1
            try:
                done: Future[Any] = self._pool().submit(job.fn, *job.args)
            except Exception as exc:  # a broken pool: fail the job, keep serving
                self.running -= 1
                job.future.set_exception(exc)
                continue
            done.add_done_callback(lambda f, job=job: loop.call_soon_threadsafe(self._finished, job, f))  # type: ignore[misc]

    def _finished(self, job: _Job, done: Future[Any]) -> None:
        self.running -= 1
        if not job.future.done():
            exc = done.exception()
            if isinstance(exc, BrokenExecutor):
                self._executor = None  # a worker died (killed, out of memory): start a fresh pool
            if exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def close(self) -> None:
        """Stops the workers without waiting for moves in progress."""
        for table_id in list(self._queues):
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
