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

import json
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..bots import bot_names
from ..game import games
from .accounts.models import rating_events_t, ratings_t, table_players_t
from .store import Store, TableRow, tables_t

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .rooms import Hub

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
    otherwise carried over from the same bot in Sushi Go! (no tournament of that game measured it)."""

    mu: float
    sigma: float
    measured: bool


def _bots(table: dict[str, float], measured: bool) -> dict[str, BotStrength]:
    return {bot: BotStrength(mu, BOT_SIGMA, measured) for bot, mu in table.items()}


#: Sushi Go!: a joint OpenSkill fit of the mixed tables at 2–5 players, the four-bot ladder and the
#: greedy/random and heuristic/greedy runs under benchmarks/strength_results/ (mu rounded to 0.5; see
#: docs/ratings.md for the command and the fitted values). On that scale the default prior of a new
#: account (mu 25) sits between ``greedy`` and ``heuristic``.
_SUSHI_GO = {"random": 6.0, "greedy": 18.0, "heuristic": 27.0, "neural": 30.0, "mcts": 32.5, "alpha": 33.0}

#: The published table: one fixed strength per game and bot (GET /api/ratings/bots).
BOT_STRENGTH: dict[str, dict[str, BotStrength]] = {
    "sushi-go": _bots(_SUSHI_GO, True),
    # Sushi Go Party!: no benchmark tournament yet; the same bots' Sushi Go! strengths.
    "sushi-go-party": _bots({b: _SUSHI_GO[b] for b in ("random", "greedy", "heuristic", "mcts")}, False),
    # Sushi Roll: two small runs (mcts against random and against greedy) agree with the Sushi Go!
    # order; ``roll-greedy`` and ``roll-mcts`` are older names of ``greedy`` and ``mcts``.
    "sushi-roll": _bots(
        {
            "random": 6.0,
            "greedy": 18.0,
            "roll-greedy": 18.0,
            "heuristic": 27.0,
            "mcts": 32.5,
            "roll-mcts": 32.5,
        },
        False,
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
    totals = [float(t) for t in result.get("totals", [0] * row.players)]
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
    try:
        with store.engine.begin() as conn:
            counted = conn.execute(
                select(table_players_t.c.seat).where(table_players_t.c.table_id == row.id).limit(1)
            ).first()
            if counted is not None:
                return False
            conn.execute(
                insert(table_players_t),
                [
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
                ],
            )
            if row.rated:
                _rate_table(conn, row, where, finished_at)
    except IntegrityError:
        return False  # another process counted it between the check and the insert
    return True


def _rate_table(conn: Connection, row: TableRow, where: list[int], now: float) -> None:
    ids = sorted({int(s.user_id) for s in row.seats if s.user_id is not None})
    current = {
        (int(r.user_id), str(r.pool)): (float(r.mu), float(r.sigma), int(r.games), int(r.wins))
        for r in conn.execute(
            select(ratings_t).where(and_(ratings_t.c.game == row.game, ratings_t.c.user_id.in_(ids)))
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

    return on_finish


def install(app: FastAPI | None, hub: Hub) -> None:
    """Registers the listener on ``hub`` (called from ``create_app``'s lifespan)."""
    hub.on_finish.append(listener(hub))


# ---------------------------------------------------------------------------------- limits


def rated_games_last_hour(
    store_or_conn: Store | Connection, user_id: int, *, now: float | None = None
) -> int:
    """How many rated games against bots ``user_id`` finished in the last hour (``Limits.rated_per_hour``
    is checked against it when a rated table is created or joined). A rated table without a bot seat
    (people only) does not count: its opponents are not a farm."""
    since = (time.time() if now is None else now) - HOUR
    query = (
        select(tables_t.c.seats)
        .select_from(table_players_t.join(tables_t, tables_t.c.id == table_players_t.c.table_id))
        .where(
            and_(
                table_players_t.c.user_id == user_id,
                table_players_t.c.rated.is_(True),
                table_players_t.c.finished_at >= since,
            )
        )
        .limit(_LAST_HOUR_ROWS)
    )

    def count(conn: Connection) -> int:
        n = 0
        for (seats,) in conn.execute(query):
            try:
                parsed = json.loads(seats)
            except ValueError:
                continue
            if any(
                s.get("kind") == "bot" and s.get("user_id") is None for s in parsed if isinstance(s, dict)
            ):
                n += 1
        return n

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
    "bots_table",
    "display",
    "install",
    "listener",
    "places",
    "rate",
    "rated_games_last_hour",
    "record_finished",
    "row_places",
]
