"""Ratings and game histories of accounts (issue 21): what a finished table leaves behind.

When a game finishes, :func:`record_finished` (a :attr:`Hub.on_finish <.rooms.Hub.on_finish>` listener
registered by :func:`install`) writes one ``sushigo_table_players`` row per account seat, rated or not,
so a profile's history and statistics never read every table's seats. At a rated table it also moves
each account's OpenSkill rating (Plackett–Luce) in that game and pool, and logs a rating event per
account for the profile's plot. Both happen in one transaction, and a table whose rows exist already is
skipped, so a listener run twice (or by two processes) counts a table once.

Why these choices:

* **Places, not scores.** A rating measures finishing order: ties on the total share a place, the
  game's tie-break (its ``winners``) decides the first place, and a seat that conceded is last whatever
  the bot that finished for it scored, so leaving a losing game never saves rating.
* **Bots at fixed strengths.** A built-in bot takes part in every update at the published strength of
  :data:`BOT_STRENGTH` and never changes: beating ``random`` a hundred times teaches the system little
  and cannot inflate it, and bot farming cannot move a bot.
* **Two pools.** An account playing through an API token is a program; programs have their own
  ratings (``pool`` "programs"), so a tuned program never crowds people off their leaderboard. At a
  table mixing both, each account is updated in its own pool against the others' current ratings.
* **A conservative display.** :func:`display` shows the ordinal ``mu − 3σ`` (the rating the system is
  fairly sure the player has reached), scaled: ``1000 + 20 × (mu − 3σ)``, rounded. A new account shows
  1000 and climbs as it wins and as its uncertainty shrinks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError

from ..bots import bot_names
from ..game import games
from .accounts.models import rating_events_t, ratings_t, table_players_t
from .store import Store, TableRow, tables_t

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .rooms import Hub

log = logging.getLogger(__name__)

#: The two leaderboards: people, and accounts playing through an API token.
POOLS = ("players", "programs")

#: Display rating: ``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``, rounded.
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 20.0

#: The uncertainty of every bot's fixed rating: the spread of its measured rating between table sizes
#: and runs (docs/ratings.md). A bot with a smaller sigma would move players more per game against it.
BOT_SIGMA = 2.0

#: An OpenSkill default prior (mu 25, sigma 25/3): a new account, or a guest at a table (never stored).
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

#: How long :func:`rated_games_last_hour` looks back, and the most rows it reads.
HOUR = 3600.0
_LAST_HOUR_ROWS = 1000


@dataclass(frozen=True)
class BotStrength:
    """A built-in bot's fixed rating in one game. ``measured``: fitted from the benchmark tournaments;
    otherwise carried over from the same bot in another game (no tournament of that game measured it:
    every built-in bot of the three games is measured today, a new one may not be)."""

    mu: float
    sigma: float
    measured: bool


def _bots(table: dict[str, float], measured: bool) -> dict[str, BotStrength]:
    return {bot: BotStrength(mu, BOT_SIGMA, measured) for bot, mu in table.items()}


#: One OpenSkill fit per game over its benchmark tournaments (``python benchmarks/bot_ratings.py GAME``,
#: which lists the result files: Sushi Go!'s ladder at 2-5 players with the current networks and
#: alpha, its greedy/random and heuristic/greedy runs; Sushi Roll's ladder at 2-5 players; Party's
#: ladder at 2-8 players and alpha's held-out menus), mu rounded to the half; docs/ratings.md gives the
#: fitted values. On each scale the default prior of a new account (mu 25) sits near ``heuristic``.
_SUSHI_GO = {"random": 7.0, "greedy": 16.5, "heuristic": 26.5, "mcts": 31.0, "neural": 34.5, "alpha": 38.0}
_SUSHI_ROLL = {
    "random": -10.5,
    "greedy": 18.5,
    "heuristic": 20.5,
    "neural": 36.0,
    "mcts": 38.0,
    "alpha": 41.0,
}
# Party's network is a clone of the heuristic and weaker than it at most sizes; alpha (prior_mix 0.5)
# is first at every size and on every held-out menu
_PARTY = {"random": 7.0, "neural": 21.5, "greedy": 19.5, "heuristic": 25.0, "alpha": 42.0, "mcts": 32.5}

#: The published table: one fixed strength per game and bot (GET /api/ratings/bots).
BOT_STRENGTH: dict[str, dict[str, BotStrength]] = {
    "sushi-go": _bots(_SUSHI_GO, True),
    "sushi-go-party": _bots(_PARTY, True),
    # ``roll-greedy`` and ``roll-mcts`` are older names of ``greedy`` and ``mcts``
    "sushi-roll": _bots(
        {**_SUSHI_ROLL, "roll-greedy": _SUSHI_ROLL["greedy"], "roll-mcts": _SUSHI_ROLL["mcts"]}, True
    ),
}
#: A bot missing from the table (a new bot not yet measured): the default prior's mu, a bot's sigma.
UNKNOWN_BOT = BotStrength(DEFAULT_MU, BOT_SIGMA, False)


def bot_strength(game: str, bot: str) -> BotStrength:
    """The fixed strength a built-in bot plays at in ``game``'s ratings."""
    return BOT_STRENGTH.get(game, {}).get(bot, UNKNOWN_BOT)


def display(mu: float, sigma: float) -> int:
    """The rating people see: the conservative ordinal ``mu - 3 sigma``, scaled and rounded."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma))


def bots_table() -> list[dict[str, Any]]:
    """Every game's bots with their fixed ratings, in the registry's order (``GET /api/ratings/bots``)."""
    out = []
    for g in games():
        for bot in bot_names(g.name):
            s = bot_strength(g.name, bot)
            out.append(
                {
                    "game": g.name,
                    "bot": bot,
                    "rating": display(s.mu, s.sigma),
                    "mu": s.mu,
                    "sigma": s.sigma,
                    "measured": s.measured,
                }
            )
    return out


def bots_markdown() -> str:
    """The bots' table of docs/ratings.md (a test keeps the page equal to :data:`BOT_STRENGTH`)."""
    lines = ["| game | bot | mu | sigma | rating | measured |", "|---|---|---|---|---|---|"]
    for b in bots_table():
        measured = "yes" if b["measured"] else "no"
        lines.append(
            f"| {b['game']} | `{b['bot']}` | {b['mu']:g} | {b['sigma']:g} | {b['rating']} | {measured} |"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------------------------ places


def places(totals: Sequence[float], winners: Sequence[int], conceded: set[int] | frozenset[int]) -> list[int]:
    """1-based finishing places: higher total first, equal totals share a place, the game's winners
    (its tie-break) ahead of others tied on the top total, and every conceded seat last (sharing it).

    Places are competition ranks (1, 1, 3): two seats tied for first leave no second.
    """
    playing = [i for i in range(len(totals)) if i not in conceded]
    won = [w for w in winners if w in playing]
    out = [len(playing) + 1] * len(totals)
    for i in playing:
        place = 1 + sum(1 for j in playing if totals[j] > totals[i])
        if place == 1 and won and i not in won:
            place = 2
        out[i] = place
    return out


def conceded_seats(row: TableRow) -> set[int]:
    """The seats that conceded: listed in the result (``lifecycle`` writes it) or marked on the seat."""
    result = row.result or {}
    listed = {int(s) for s in result.get("conceded", []) if isinstance(s, int) and not isinstance(s, bool)}
    return listed | {i for i, s in enumerate(row.seats) if s.conceded}


def row_places(row: TableRow) -> list[int]:
    """The finishing place of each seat of a finished table (see :func:`places`)."""
    result = row.result or {}
    # The seats' totals come first; a game may add more after them (Sushi Go!'s two-player dummy
    # variant scores the dummy's tableau third), which place nobody.
    totals = [float(t) for t in result.get("totals", [])][: row.players]
    totals += [0.0] * (row.players - len(totals))
    return places(totals, list(result.get("winners") or []), conceded_seats(row))


# ------------------------------------------------------------------------------- rating math


@lru_cache(maxsize=1)
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


@dataclass(frozen=True)
class Entrant:
    """One seat in a rating update: ``key`` ``(user_id, pool)`` for a rated account, ``None`` for a
    fixed participant (a bot at its published strength, a guest at the default prior)."""

    mu: float
    sigma: float
    place: int
    key: tuple[int, str] | None = None


def rate(entrants: Sequence[Entrant]) -> dict[tuple[int, str], tuple[float, float]]:
    """One Plackett–Luce update over a table: the new ``(mu, sigma)`` of each account entrant.

    Fixed entrants take part with their ratings and are left as they were. An account appearing at two
    seats is updated from its first; the second plays as a fixed copy.
    """
    if len(entrants) < 2 or all(e.key is None for e in entrants):
        return {}
    model = _model()
    teams = [[model.rating(mu=e.mu, sigma=e.sigma)] for e in entrants]
    new = model.rate(teams, ranks=[e.place for e in entrants])
    out: dict[tuple[int, str], tuple[float, float]] = {}
    for e, team in zip(entrants, new):
        if e.key is not None and e.key not in out:
            out[e.key] = (float(team[0].mu), float(team[0].sigma))
    return out


def pool_of(program: bool) -> str:
    """The pool of a seat: ``programs`` when its account plays through an API token."""
    return "programs" if program else "players"


# ----------------------------------------------------------------------------- the listener


def record_finished(store: Store, row: TableRow) -> bool:
    """Writes a finished table's history rows and, when it is rated, its rating updates, in one
    transaction. Returns ``False`` when there was nothing to do: the table is counted already (rows
    exist, or another process wrote them first), it has no account seat, or it is not finished."""
    if row.status != "finished" or not row.result:
        return False
    seats = [(i, s) for i, s in enumerate(row.seats) if s.user_id is not None]
    if not seats:
        return False
    where = row_places(row)
    totals = (row.result or {}).get("totals", [])
    conceded = conceded_seats(row)
    finished_at = float(row.finished_at or time.time())
    history = [
        {
            "table_id": row.id,
            "seat": i,
            "user_id": int(s.user_id or 0),
            "program": bool(s.program),
            "game": row.game,
            "players": row.players,
            "rated": bool(row.rated),
            "place": where[i],
            "score": int(totals[i]) if i < len(totals) else None,
            "conceded": i in conceded,
            "finished_at": finished_at,
        }
        for i, s in seats
    ]
    # A unique key may clash with another process's transaction: this table's history rows (it
    # counted the table first: the retry finds them and stops) or an account's first rating in this
    # game (the retry finds the row and updates it).
    for attempt in range(3):
        try:
            with store.engine.begin() as conn:
                counted = conn.execute(
                    select(table_players_t.c.seat).where(table_players_t.c.table_id == row.id).limit(1)
                ).first()
                if counted is not None:
                    return False
                conn.execute(insert(table_players_t), history)
                if row.rated:
                    _rate_table(conn, row, where, finished_at)
            return True
        except (IntegrityError, OperationalError):  # a clash, or PostgreSQL ended a deadlock
            if attempt == 2:
                raise
    return False  # pragma: no cover  (the loop returns or raises)


def _rate_table(conn: Connection, row: TableRow, where: list[int], now: float) -> None:
    ids = sorted({int(s.user_id) for s in row.seats if s.user_id is not None})
    current = {
        (int(r.user_id), str(r.pool)): (float(r.mu), float(r.sigma), int(r.games), int(r.wins))
        for r in conn.execute(
            # locked until the commit (PostgreSQL): two tables of one account finishing at once in two
            # processes update its rating one after the other, neither losing the other's game
            select(ratings_t)
            .where(and_(ratings_t.c.game == row.game, ratings_t.c.user_id.in_(ids)))
            .order_by(ratings_t.c.user_id, ratings_t.c.pool)  # one lock order: no deadlock
            .with_for_update()
        )
    }
    entrants: list[Entrant] = []
    for i, s in enumerate(row.seats):
        if s.user_id is not None:
            key = (int(s.user_id), pool_of(s.program))
            mu, sigma = current.get(key, (DEFAULT_MU, DEFAULT_SIGMA, 0, 0))[:2]
            entrants.append(Entrant(mu, sigma, where[i], key))
        elif s.kind == "bot" and s.bot:
            strength = bot_strength(row.game, s.bot)
            entrants.append(Entrant(strength.mu, strength.sigma, where[i]))
        else:  # a guest (a rated table admits none): a fixed, unknown player
            entrants.append(Entrant(DEFAULT_MU, DEFAULT_SIGMA, where[i]))
    new = rate(entrants)
    place_of = {e.key: e.place for e in reversed(entrants) if e.key is not None}
    for key, (mu, sigma) in new.items():
        user_id, pool = key
        won = 1 if place_of[key] == 1 else 0
        if key in current:
            _, _, played, wins = current[key]
            conn.execute(
                update(ratings_t)
                .where(
                    and_(
                        ratings_t.c.user_id == user_id,
                        ratings_t.c.game == row.game,
                        ratings_t.c.pool == pool,
                    )
                )
                .values(mu=mu, sigma=sigma, games=played + 1, wins=wins + won, updated_at=now)
            )
        else:
            conn.execute(
                insert(ratings_t).values(
                    user_id=user_id,
                    game=row.game,
                    pool=pool,
                    mu=mu,
                    sigma=sigma,
                    games=1,
                    wins=won,
                    updated_at=now,
                )
            )
        conn.execute(
            insert(rating_events_t).values(
                user_id=user_id,
                game=row.game,
                pool=pool,
                table_id=row.id,
                mu=mu,
                sigma=sigma,
                place=place_of[key],
                created_at=now,
            )
        )


def listener(hub: Hub) -> Callable[[TableRow], Coroutine[Any, Any, None]]:
    """The :attr:`Hub.on_finish <.rooms.Hub.on_finish>` listener: :func:`record_finished` on the
    hub's database thread (the event loop never waits on the database)."""

    async def on_finish(row: TableRow) -> None:
        await hub.db(record_finished, hub.store, row)

    on_finish.ratings = True  # type: ignore[attr-defined]  # (install is idempotent)
    return on_finish


#: How far back, and how many tables at most, :func:`catch_up` looks at start-up.
CATCH_UP_SECONDS = 7 * 86400.0
CATCH_UP_TABLES = 200


def catch_up(store: Store, *, now: float | None = None, limit: int = CATCH_UP_TABLES) -> int:
    """Counts the finished tables with account seats that have no history rows yet: games that ended
    while the server stopped between storing the last action and running the listener. Looks back
    :data:`CATCH_UP_SECONDS` at most ``limit`` tables; returns how many it counted."""
    since = (time.time() if now is None else now) - CATCH_UP_SECONDS
    tp = table_players_t.c
    query = (
        select(tables_t.c.id)
        .select_from(tables_t.outerjoin(table_players_t, tp.table_id == tables_t.c.id))
        .where(
            and_(
                tables_t.c.status == "finished",
                tables_t.c.finished_at >= since,
                # an account seat writes "user_id" into the seats' JSON; guest tables never do
                tables_t.c.seats.contains('"user_id"'),
                tp.table_id.is_(None),
            )
        )
        .order_by(tables_t.c.finished_at)
        .limit(limit)
    )
    with store.engine.connect() as conn:
        ids = [str(r.id) for r in conn.execute(query)]
    counted = 0
    for table_id in ids:
        row = store.load_table(table_id)
        if row is not None and record_finished(store, row):
            counted += 1
    return counted


def install(app: FastAPI | None, hub: Hub) -> None:
    """Registers the listener on ``hub`` (called from ``create_app``'s lifespan), and counts in the
    background the games that finished while the server was down (:func:`catch_up`). Installing
    twice changes nothing (a test may install it on an app whose start-up already did)."""
    if any(getattr(f, "ratings", False) for f in hub.on_finish):
        return
    hub.on_finish.append(listener(hub))
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return  # no loop (a test wiring a hub by hand): nothing to catch up on

    async def later() -> None:
        try:
            counted = await hub.db(catch_up, hub.store)
        except Exception:
            log.exception("cannot count the games that finished while the server was down")
            return
        if counted:
            log.info("counted %d finished games for ratings and histories", counted)

    task = loop.create_task(later())
    _STARTUP.add(task)
    task.add_done_callback(_STARTUP.discard)


#: The start-up catch-up tasks (a task must be referenced until it is done).
_STARTUP: set[asyncio.Task[None]] = set()


# ---------------------------------------------------------------------------------- limits


def _with_bots(seats_json: str) -> list[dict[str, Any]] | None:
    """A table's seats when one of them is a built-in bot (not an account's conceded seat), else ``None``."""
    try:
        seats = json.loads(seats_json)
    except ValueError:
        return None
    if not isinstance(seats, list):
        return None
    seats = [s for s in seats if isinstance(s, dict)]
    return seats if any(s.get("kind") == "bot" and s.get("user_id") is None for s in seats) else None


def rated_games_last_hour(
    store_or_conn: Store | Connection, user_id: int, *, now: float | None = None
) -> int:
    """How many rated games against bots ``user_id`` played in the last hour: those that finished in
    it, and the rated tables made in it that are still open or playing with the account seated or as
    their creator (``Limits.rated_per_hour`` is checked against it when a rated table is created or
    joined, so starting many at once counts too). A rated table of people only does not count: its
    opponents are not a farm."""
    since = (time.time() if now is None else now) - HOUR
    tp = table_players_t.c
    finished = (
        select(tables_t.c.id, tables_t.c.seats)
        .select_from(table_players_t.join(tables_t, tables_t.c.id == tp.table_id))
        .where(and_(tp.user_id == user_id, tp.rated.is_(True), tp.finished_at >= since))
        .limit(_LAST_HOUR_ROWS)
    )
    # The seats' JSON names an account as "user_id": N (json.dumps' separators); the match is
    # confirmed on the parsed seats, so N=5 matching "user_id": 55 costs a parse, never a count.
    running = (
        select(tables_t.c.id, tables_t.c.seats, tables_t.c.created_user)
        .where(
            and_(
                tables_t.c.rated.is_(True),
                tables_t.c.created_at >= since,
                tables_t.c.status.in_(("open", "playing")),
                or_(
                    tables_t.c.created_user == user_id,
                    tables_t.c.seats.contains(f'"user_id": {int(user_id)}'),
                ),
            )
        )
        .limit(_LAST_HOUR_ROWS)
    )

    def count(conn: Connection) -> int:
        counted: set[str] = set()
        for table_id, seats_json in conn.execute(finished):
            if _with_bots(seats_json) is not None:
                counted.add(table_id)
        for table_id, seats_json, creator in conn.execute(running):
            seats = _with_bots(seats_json)
            if seats is not None and (creator == user_id or any(s.get("user_id") == user_id for s in seats)):
                counted.add(table_id)
        return len(counted)

    if isinstance(store_or_conn, Connection):
        return count(store_or_conn)
    with store_or_conn.engine.connect() as conn:
        return count(conn)


__all__ = [
    "BOT_STRENGTH",
    "POOLS",
    "BotStrength",
    "Entrant",
    "bot_strength",
    "bots_markdown",
    "bots_table",
    "catch_up",
    "display",
    "install",
    "listener",
    "places",
    "rate",
    "rated_games_last_hour",
    "record_finished",
    "row_places",
]
