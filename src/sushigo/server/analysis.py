"""The analysis board's HTTP side: ``GET /api/tables/{id}/analysis?seat=N`` and the practice hint.

An analysis is only ever made of a *finished* game: whatever the request says (there is no parameter
but the seat), a table that is open, playing, abandoned or cancelled is refused with 409
``analysis/not_finished``, so it can never become a live hint. The work runs in the hub's bot workers
(:class:`~.botpool.BotPool`), one decision per job under the key ``analysis:<table>``, so the pool's
round-robin serves live tables' bots between an analysis's decisions and the event loop never computes.
Running analyses are bounded: one per address and :data:`AnalysisLimits.running` in all (429
``analysis/busy`` and ``analysis/limit``). A finished document is stored in ``sushigo_analyses`` under
its engine key (version, rollout bot, budget, seed) and served from there; while it runs, the answer is
202 ``{"status": "running", "progress": 0..1}``.

The hint (``GET /api/tables/{id}/hint`` with the seat token in the ``X-Seat-Token`` header, never in
the address, where logs would keep it, or for a seat held by the signed-in account) values the requesting seat's current decision with the same
engine and a small budget, only at a table that is not rated and where every other seat is a bot:
anywhere else it is 403 ``hint/not_allowed``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import and_, delete, insert, select

from ..analysis import (
    MAX_BUDGET,
    AnalysisError,
    Decision,
    action_text,
    analyse_decision,
    check_budget,
    document,
    engine_key,
)
from ..game import GameState, new_game, spec
from .accounts.identity import identify
from .accounts.models import analyses_t
from .client import token_seat
from .rooms import Hub
from .store import Store, TableRow
from .tablelog import WITHDRAW, GameLog, apply_stored

router = APIRouter(prefix="/api", tags=["analysis"])

#: the samples' seed of every server analysis (a fixed seed: one cached document per budget)
SEED = 0
log = logging.getLogger("sushigo.analysis")

#: seconds a failed analysis is refused before it may start again
RETRY_AFTER = 60.0


def _env_int(name: str, default: int, low: int, high: int) -> int:
    """An integer setting from the environment, kept within ``low..high`` (a bad value: the default)."""
    try:
        value = int(os.environ.get(name, default))
    except ValueError:
        return default
    return max(low, min(high, value))


@dataclass
class AnalysisLimits:
    """What analyses may cost: sampled deals per decision (``budget``; ``hint_budget`` for a hint),
    analyses running at once in the whole server (``running``; a hint counts as one), and how long a
    hint may take before it is given up (``hint_seconds``). An operator sets the first three with
    ``SUSHIGO_ANALYSIS_BUDGET``, ``SUSHIGO_HINT_BUDGET`` and ``SUSHIGO_ANALYSES`` (docs/analysis.md)."""

    budget: int = field(default_factory=lambda: _env_int("SUSHIGO_ANALYSIS_BUDGET", 16, 1, MAX_BUDGET))
    hint_budget: int = field(default_factory=lambda: _env_int("SUSHIGO_HINT_BUDGET", 6, 1, 64))
    running: int = field(default_factory=lambda: _env_int("SUSHIGO_ANALYSES", 2, 0, 64))
    hint_seconds: float = 30.0


@dataclass
class _Job:
    key: tuple[str, int, str]
    address: str
    total: int = 0
    done: int = 0
    task: asyncio.Task[None] | None = None
    error: str | None = None


@dataclass
class Analyses:
    """The server's running analyses and hints (one per app, ``app.state.analysis``)."""

    limits: AnalysisLimits = field(default_factory=AnalysisLimits)
    jobs: dict[tuple[str, int, str], _Job] = field(default_factory=dict)
    hints: dict[str, int] = field(default_factory=dict)
    #: analyses that failed (a worker died) and when: asked again within :data:`RETRY_AFTER` seconds
    #: they answer 503 rather than start over at once
    failed: dict[tuple[str, int, str], float] = field(default_factory=dict)

    def busy(self, address: str) -> bool:
        """Whether ``address`` already has an analysis or a hint running."""
        return any(j.address == address for j in self.jobs.values()) or address in self.hints

    def running(self) -> int:
        """Analyses and hints running now."""
        return len(self.jobs) + len(self.hints)


def install(app: FastAPI, hub: Hub) -> None:
    """Gives the app its analysis registry (optional: :func:`service` makes one on first use)."""
    _ = hub
    app.state.analysis = Analyses()


def service(request: Request) -> Analyses:
    """The app's :class:`Analyses`, made on first use."""
    found = getattr(request.app.state, "analysis", None)
    if not isinstance(found, Analyses):
        found = Analyses()
        request.app.state.analysis = found
    return found


def _fail(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> HTTPException:
    return HTTPException(status, detail=f"{code}: {message}", headers=headers)


# ------------------------------------------------------------------------------- worker side
# These run in the bot pool's worker processes: plain arguments in, plain JSON-able values out.


def _payload(row: TableRow) -> dict[str, Any]:
    return {
        "game": row.game,
        "players": row.players,
        "seed": row.seed,
        "options": dict(row.options),
        "actions": [list(a) for a in row.actions],
    }


def table_decisions(payload: dict[str, Any], seat: int) -> list[Decision]:
    """Replays a stored table's actions (as the server does, withdrawals included) and keeps ``seat``'s
    decisions: the state before each pick that stood, and the pick."""
    state = new_game(payload["game"], payload["players"], payload["seed"], **payload["options"])
    parse = spec(payload["game"]).parse_action
    log = GameLog(payload["game"])
    picks: dict[int, str] = {}
    out: list[Decision] = []
    for s, text in payload["actions"]:
        if s == seat and text == WITHDRAW:
            if out:
                out.pop()
        elif s == seat and s in state.to_act() and len(state.legal_actions(s)) > 1:
            obs = state.observe(s)
            r, t = getattr(obs, "round", None), getattr(obs, "turn", None)
            out.append(
                Decision(
                    state.clone(),
                    s,
                    parse(text),
                    r if isinstance(r, int) else None,
                    t if isinstance(t, int) else None,
                )
            )
        apply_stored(state, log, picks, s, text)
    return out


def count_decisions(payload: dict[str, Any], seat: int) -> int:
    """Worker job: how many decisions ``seat`` made."""
    return len(table_decisions(payload, seat))


def analyse_step(payload: dict[str, Any], seat: int, index: int, budget: int, seed: int) -> dict[str, Any]:
    """Worker job: the entry of ``seat``'s decision ``index`` (replaying the table is a few milliseconds,
    against the decision's thousands of playouts)."""
    decision = table_decisions(payload, seat)[index]
    return analyse_decision(decision, budget=budget, seed=seed, index=index)


def hint_step(state: GameState, seat: int, budget: int, seed: int) -> dict[str, Any]:
    """Worker job: the hint's valuation of ``seat``'s current choices (the state is only determinised:
    the hint knows what the seat knows)."""
    entry = analyse_decision(Decision(state, seat, None), budget=budget, seed=seed, index=0)
    keep = ("preferred", "choices", "legal", "bot", "bot_choice")
    return {k: entry[k] for k in keep}


# ------------------------------------------------------------------------------- storage


def _load(store: Store, table_id: str, seat: int, engine: str) -> str | None:
    with store.engine.connect() as conn:
        found = conn.execute(
            select(analyses_t.c.doc).where(
                and_(
                    analyses_t.c.table_id == table_id,
                    analyses_t.c.seat == seat,
                    analyses_t.c.engine == engine,
                )
            )
        ).scalar()
    return None if found is None else str(found)


def _save(store: Store, table_id: str, seat: int, engine: str, doc: str) -> None:
    where = and_(analyses_t.c.table_id == table_id, analyses_t.c.seat == seat, analyses_t.c.engine == engine)
    with store.engine.begin() as conn:
        conn.execute(delete(analyses_t).where(where))
        conn.execute(
            insert(analyses_t).values(
                table_id=table_id, seat=seat, engine=engine, doc=doc, created_at=time.time()
            )
        )


# ------------------------------------------------------------------------------- routes


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _address(request: Request) -> str:
    guard = getattr(request.app.state, "guard", None)
    if guard is not None:
        return str(guard.address(request))
    return request.client.host if request.client else "unknown"


async def _run(hub: Hub, registry: Analyses, job: _Job, row: TableRow, seat: int, budget: int) -> None:
    table_id = job.key[0]
    pool_key = f"analysis:{table_id}"
    payload = _payload(row)
    try:
        job.total = await hub.bot_pool.run(pool_key, count_decisions, payload, seat)
        entries = []
        for i in range(job.total):
            entries.append(await hub.bot_pool.run(pool_key, analyse_step, payload, seat, i, budget, SEED))
            job.done = i + 1
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(row.seats)]
        doc = document(row.game, row.players, seat, budget, SEED, entries, names)
        doc["table"] = table_id
        await hub.db(_save, hub.store, table_id, seat, job.key[2], json.dumps(doc, separators=(",", ":")))
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a worker that died: refused for a minute, then tried again
        job.error = f"{type(exc).__name__}"
        log.warning("analysis of table %s seat %d failed: %s: %s", table_id, seat, job.error, exc)
        registry.failed[job.key] = time.monotonic()
        while len(registry.failed) > 1000:
            registry.failed.pop(next(iter(registry.failed)))
    finally:
        registry.jobs.pop(job.key, None)


@router.get("/tables/{table_id}/analysis", response_model=None)
async def get_analysis(table_id: str, request: Request, seat: int = Query(0, ge=0, le=7)) -> JSONResponse:
    """A seat's analysis of a finished game (docs/analysis.md): 202 while it runs, then the document.

    200 with the document when it is ready, 202 ``{"status": "running", "progress"}`` while it is
    computed (ask again), 409 ``analysis/not_finished`` for any table whose game is not over."""
    hub = _hub(request)
    row = await hub.load_row(table_id)
    if row is None:
        raise _fail(404, "table/not_found", f"there is no table {table_id[:40]!r}")
    if row.status != "finished":
        raise _fail(409, "analysis/not_finished", "a game is analysed only once it has finished")
    if seat >= row.players:
        raise _fail(
            422,
            "analysis/seat",
            f"the table has seats 0 to {row.players - 1}",
        )
    registry = service(request)
    budget = check_budget(registry.limits.budget)
    engine = engine_key(budget, SEED, row.game)
    cached = await hub.db(_load, hub.store, table_id, seat, engine)
    if cached is not None:
        return JSONResponse(json.loads(cached), headers={"Cache-Control": "public, max-age=86400"})
    key = (table_id, seat, engine)
    job = registry.jobs.get(key)
    failed_at = registry.failed.get(key)
    if job is None and failed_at is not None and time.monotonic() - failed_at < RETRY_AFTER:
        raise _fail(
            503, "analysis/failed", "the analysis failed; try again in a minute", {"Retry-After": "60"}
        )
    if job is None:
        address = _address(request)
        if registry.busy(address):
            raise _fail(
                429,
                "analysis/busy",
                "one analysis at a time: wait for the running one",
                {"Retry-After": "10"},
            )
        if registry.running() >= registry.limits.running:
            raise _fail(
                429,
                "analysis/limit",
                "the server is analysing other games: try again soon",
                {"Retry-After": "30"},
            )
        job = _Job(key, address)
        registry.jobs[key] = job
        job.task = asyncio.get_running_loop().create_task(_run(hub, registry, job, row, seat, budget))
    progress = job.done / job.total if job.total else 0.0
    return JSONResponse(
        {"status": "running", "progress": round(progress, 3), "done": job.done, "total": job.total},
        status_code=202,
        headers={"Retry-After": "2", "Cache-Control": "no-store"},
    )


@router.get("/tables/{table_id}/hint", response_model=None)
async def get_hint(
    table_id: str, request: Request, x_seat_token: str | None = Header(None, max_length=200)
) -> JSONResponse:
    """A hint for the requesting seat's current decision, at unrated tables against bots only.

    The seat is the ``X-Seat-Token`` header's (or the signed-in account's); anywhere but a table that is
    not rated and where every other seat is a bot, 403 ``hint/not_allowed`` (docs/analysis.md)."""
    hub = _hub(request)
    row = await hub.load_row(table_id)
    if row is None:
        raise _fail(404, "table/not_found", f"there is no table {table_id[:40]!r}")
    if row.status != "playing":
        raise _fail(409, "hint/not_playing", "hints are for a game being played")
    seat = None
    if x_seat_token:
        seat = token_seat(row.seats, x_seat_token)
    if seat is None and not x_seat_token:
        # a signed-in player (or a program) holds its seat by its account, without a seat token
        who = await identify(request)
        if who is not None:
            seat = next(
                (i for i, s in enumerate(row.seats) if s.user_id is not None and s.user_id == who.user_id),
                None,
            )
    if seat is None:
        raise _fail(403, "hint/not_allowed", "a hint is for a seated player, with the seat's token")
    if row.rated or any(s.kind != "bot" for i, s in enumerate(row.seats) if i != seat):
        raise _fail(
            403, "hint/not_allowed", "hints are only for unrated tables where every other seat is a bot"
        )
    room = await hub.get(table_id)
    if room is None:
        raise _fail(404, "table/not_found", f"there is no table {table_id[:40]!r}")
    state = room.state
    if seat not in state.to_act() or len(state.legal_actions(seat)) < 2 or seat in room.picks:
        raise _fail(409, "hint/no_decision", "there is no choice to make now")
    registry = service(request)
    address = _address(request)
    if registry.busy(address):
        raise _fail(
            429, "analysis/busy", "one analysis at a time: wait for the running one", {"Retry-After": "10"}
        )
    if registry.running() >= registry.limits.running:
        raise _fail(
            429,
            "analysis/limit",
            "the server is analysing other games: try again soon",
            {"Retry-After": "30"},
        )
    registry.hints[address] = registry.hints.get(address, 0) + 1
    step = room.state_id
    # A fresh secret seed: with a seed anyone could repeat, the sampled worlds would be a fixed function
    # of the real hidden cards (``determinize`` draws from them in their real order), which a player
    # could try to read back; with a secret one they are only a sample of what the seat may believe.
    seed = secrets.randbelow(2**31)
    try:
        budget = check_budget(registry.limits.hint_budget)
        result = await asyncio.wait_for(
            hub.bot_pool.run(f"hint:{table_id}", hint_step, state.clone(), seat, budget, seed),
            registry.limits.hint_seconds,
        )
    except (TimeoutError, AnalysisError):
        raise _fail(503, "hint/busy", "the hint took too long: try again") from None
    finally:
        left = registry.hints.get(address, 1) - 1
        if left > 0:
            registry.hints[address] = left
        else:
            registry.hints.pop(address, None)
    return JSONResponse({"seat": seat, "step": step, **result}, headers={"Cache-Control": "no-store"})


__all__ = ["Analyses", "AnalysisLimits", "action_text", "install", "router", "service"]
