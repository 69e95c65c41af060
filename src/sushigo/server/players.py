"""Players' public pages as JSON (issue 21): profiles, game histories, rating plots and leaderboards.

Everything here reads the rows :mod:`.ratings` writes when a game finishes (``sushigo_table_players``,
``sushigo_ratings``, ``sushigo_rating_events``) on the hub's database thread, never on the event loop.
Every answer is bounded: pages of at most :data:`MAX_PAGE` rows behind an opaque cursor, a plot of
the last :data:`MAX_POINTS` games. A player is found by the case-folded form of the name
(:func:`player_key`), as accounts store it, so ``/api/players/Alice`` and ``/api/players/alice`` agree.
Deleted accounts show no name (``null``, "deleted player"), disabled and deleted accounts are left off
the leaderboards, and nothing answered carries a user id beyond the player's own pages.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.engine import Connection

from ..game import games
from .accounts.models import rating_events_t, ratings_t, table_players_t, users_t
from .names import name_key
from .ratings import POOLS, bots_table, display
from .rooms import Hub
from .schemas import valid_table_id
from .store import Store, tables_t

router = APIRouter(prefix="/api", tags=["players"])

#: The most rows one page may ask for (games and leaderboard), and the rating plot's length.
MAX_PAGE = 100
MAX_POINTS = 500
#: The longest name looked up (account names are at most 24 characters).
MAX_NAME = 64

T = TypeVar("T")


def player_key(name: str) -> str:
    """The form accounts are looked up in: NFKC, case-folded (the ``name_key`` column)."""
    return name_key(name)


def _error(status: int, code: str, words: str, **params: Any) -> JSONResponse:
    return JSONResponse({"detail": f"{code}: {words}", "code": code, "params": params}, status_code=status)


def _unknown(name: str) -> JSONResponse:
    return _error(404, "player/unknown", f"there is no player {name[:40]!r}", name=name[:40])


def _invalid(where: str, words: str) -> JSONResponse:
    return _error(422, "request/invalid", f"{where}: {words}", loc=where)


def _game_names() -> list[str]:
    return [g.name for g in games()]


def _check_game(game: str | None, *, required: bool) -> JSONResponse | None:
    if game is None:
        return _invalid("query.game", "required") if required else None
    if game not in _game_names():
        return _invalid("query.game", f"must be one of {', '.join(_game_names())}")
    return None


async def _read(request: Request, fn: Callable[..., T], *args: Any) -> T:
    """Runs ``fn(connection, *args)`` on the hub's database thread."""
    hub: Hub = request.app.state.hub
    store: Store = hub.store

    def run() -> T:
        with store.engine.connect() as conn:
            return fn(conn, *args)

    return await hub.db(run)


def _encode(parts: list[Any]) -> str:
    raw = json.dumps(parts, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str, kinds: tuple[type, ...]) -> list[Any] | None:
    """The parts of a cursor this module gave out, or ``None`` for anything else."""
    try:
        parts = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        return None
    if not isinstance(parts, list) or len(parts) != len(kinds):
        return None
    out: list[Any] = []
    for part, kind in zip(parts, kinds):
        if isinstance(part, bool):
            return None
        if kind is float and isinstance(part, int | float) and math.isfinite(part):
            out.append(float(part))
        elif (kind is int and isinstance(part, int)) or (
            kind is str and isinstance(part, str) and valid_table_id(part)
        ):
            out.append(part)
        else:
            return None
    return out


def _bad_cursor() -> JSONResponse:
    return _invalid("query.cursor", "not a cursor this server gave out")


# ------------------------------------------------------------------------------------ queries


def _user(conn: Connection, name: str) -> dict[str, Any] | None:
    row = (
        conn.execute(
            select(
                users_t.c.id,
                users_t.c.name,
                users_t.c.created_at,
                users_t.c.deleted_at,
                users_t.c.disabled,
            ).where(users_t.c.name_key == player_key(name))
        )
        .mappings()
        .first()
    )
    return dict(row) if row is not None else None


def _rating_doc(r: Any) -> dict[str, Any]:
    mu, sigma = float(r.mu), float(r.sigma)
    return {
        "rating": display(mu, sigma),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "games": int(r.games),
        "wins": int(r.wins),
    }


def _profile(conn: Connection, name: str) -> dict[str, Any] | None:
    user = _user(conn, name)
    if user is None:
        return None
    uid = user["id"]
    ratings: dict[str, dict[str, Any]] = {g: dict.fromkeys(POOLS) for g in _game_names()}
    for r in conn.execute(select(ratings_t).where(ratings_t.c.user_id == uid)):
        if r.game in ratings and r.pool in POOLS:
            ratings[r.game][r.pool] = _rating_doc(r)
    tp = table_players_t.c
    stats = [
        {
            "game": r.game,
            "players": int(r.players),
            "played": int(r.played),
            "won": int(r.won or 0),
            "avg_score": round(float(r.avg_score), 2) if r.avg_score is not None else None,
        }
        for r in conn.execute(
            select(
                tp.game,
                tp.players,
                func.count().label("played"),
                func.sum(case((tp.place == 1, 1), else_=0)).label("won"),
                func.avg(tp.score).label("avg_score"),
            )
            .where(tp.user_id == uid)
            .group_by(tp.game, tp.players)
            .order_by(tp.game, tp.players)
        )
    ]
    kinds = conn.execute(select(tp.program, func.count()).where(tp.user_id == uid).group_by(tp.program)).all()
    played_as = {bool(k): int(n) for k, n in kinds}
    deleted = user["deleted_at"] is not None
    return {
        "name": None if deleted else user["name"],
        "deleted": deleted,
        "created_at": float(user["created_at"]),
        # A program account: it has played, and only ever through an API token.
        "program": played_as.get(True, 0) > 0 and played_as.get(False, 0) == 0,
        "ratings": ratings,
        "stats": stats,
    }


def _seat_names(conn: Connection, seats_json: str) -> list[str | None]:
    """The names of a table's seats: an account's current name (``None`` once deleted), else the seat's."""
    try:
        seats = [s for s in json.loads(seats_json) if isinstance(s, dict)]
    except ValueError:
        return []
    ids = {int(s["user_id"]) for s in seats if isinstance(s.get("user_id"), int)}
    names: dict[int, str | None] = {}
    if ids:
        for r in conn.execute(
            select(users_t.c.id, users_t.c.name, users_t.c.deleted_at).where(users_t.c.id.in_(ids))
        ):
            names[int(r.id)] = None if r.deleted_at is not None else r.name
    return [
        names.get(int(s["user_id"])) if isinstance(s.get("user_id"), int) else s.get("name") for s in seats
    ]


def _games(
    conn: Connection, name: str, game: str | None, limit: int, after: list[Any] | None
) -> dict[str, Any] | None:
    user = _user(conn, name)
    if user is None:
        return None
    tp = table_players_t.c
    query = (
        select(tp.table_id, tp.game, tp.players, tp.seat, tp.place, tp.score, tp.rated, tp.conceded)
        .add_columns(tp.program, tp.finished_at, tables_t.c.seats)
        .select_from(table_players_t.join(tables_t, tables_t.c.id == tp.table_id))
        .where(tp.user_id == user["id"])
    )
    if game is not None:
        query = query.where(tp.game == game)
    if after is not None:
        at, table_id = after
        query = query.where(or_(tp.finished_at < at, and_(tp.finished_at == at, tp.table_id < table_id)))
    rows = conn.execute(query.order_by(tp.finished_at.desc(), tp.table_id.desc()).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    out = [
        {
            "table_id": r.table_id,
            "game": r.game,
            "players": int(r.players),
            "seat": int(r.seat),
            "place": r.place,
            "score": r.score,
            "rated": bool(r.rated),
            "conceded": bool(r.conceded),
            "program": bool(r.program),
            "finished_at": float(r.finished_at),
            "names": _seat_names(conn, r.seats),
        }
        for r in rows
    ]
    last = rows[-1] if rows else None
    return {
        "games": out,
        "next": _encode([float(last.finished_at), last.table_id]) if more and last is not None else None,
    }


def _points(conn: Connection, name: str, game: str, pool: str) -> dict[str, Any] | None:
    user = _user(conn, name)
    if user is None:
        return None
    ev = rating_events_t.c
    rows = conn.execute(
        select(ev.created_at, ev.mu, ev.sigma, ev.table_id, ev.place)
        .where(and_(ev.user_id == user["id"], ev.game == game, ev.pool == pool))
        .order_by(ev.id.desc())
        .limit(MAX_POINTS)
    ).all()
    return {
        "game": game,
        "pool": pool,
        "points": [
            {
                "t": float(r.created_at),
                "rating": display(float(r.mu), float(r.sigma)),
                "table_id": r.table_id,
                "place": int(r.place),
            }
            for r in reversed(rows)
        ],
    }


def _board(
    conn: Connection, game: str, pool: str, players: int | None, limit: int, after: list[Any] | None
) -> dict[str, Any]:
    rt = ratings_t.c
    score = (rt.mu - 3.0 * rt.sigma).label("ordinal")
    query = (
        select(users_t.c.id, users_t.c.name, rt.mu, rt.sigma, rt.games, rt.wins, score)
        .select_from(ratings_t.join(users_t, users_t.c.id == rt.user_id))
        .where(
            and_(
                rt.game == game,
                rt.pool == pool,
                users_t.c.deleted_at.is_(None),
                users_t.c.disabled.is_(False),
            )
        )
    )
    if players is not None:
        tp = table_players_t.c
        sized = (
            select(
                tp.user_id,
                func.count().label("n"),
                func.sum(case((tp.place == 1, 1), else_=0)).label("w"),
            )
            .where(
                and_(
                    tp.game == game,
                    tp.players == players,
                    tp.rated.is_(True),
                    tp.program.is_(pool == "programs"),
                )
            )
            .group_by(tp.user_id)
            .subquery()
        )
        query = query.join(sized, sized.c.user_id == rt.user_id).add_columns(sized.c.n, sized.c.w)
    rank = 0
    if after is not None:
        at, user_id, rank = after
        query = query.where(
            or_(rt.mu - 3.0 * rt.sigma < at, and_(rt.mu - 3.0 * rt.sigma == at, rt.user_id > user_id))
        )
    rows = conn.execute(query.order_by(score.desc(), rt.user_id).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    out = []
    for i, r in enumerate(rows, start=rank + 1):
        games_n, wins_n = (int(r.n), int(r.w or 0)) if players is not None else (int(r.games), int(r.wins))
        out.append(
            {
                "rank": i,
                "name": r.name,
                "rating": display(float(r.mu), float(r.sigma)),
                "games": games_n,
                "wins": wins_n,
            }
        )
    last = rows[-1] if rows else None
    return {
        "game": game,
        "pool": pool,
        "players": players,
        "rows": out,
        "next": _encode([float(last.ordinal), int(last.id), rank + len(out)])
        if more and last is not None
        else None,
    }


# ------------------------------------------------------------------------------------- routes


@router.get("/players/{name}")
async def player_profile(name: str, request: Request) -> JSONResponse:
    """A player's profile: ratings per game and pool, games played and won and average score per game
    and table size, and whether the account is deleted or a program (404 ``player/unknown``)."""
    if len(name) > MAX_NAME:
        return _unknown(name)
    doc = await _read(request, _profile, name)
    return _unknown(name) if doc is None else JSONResponse(doc)


@router.get("/players/{name}/games")
async def player_games(
    name: str,
    request: Request,
    game: str | None = Query(None, max_length=40, description="Only games of this game."),
    limit: int = Query(20, ge=1, le=MAX_PAGE, description="Games per page."),
    cursor: str | None = Query(None, max_length=200, description="The ``next`` of the previous page."),
) -> JSONResponse:
    """A player's finished games, newest first, one page at a time (each opens at ``/replay/{table_id}``)."""
    refused = _check_game(game, required=False)
    if refused is not None:
        return refused
    after = None
    if cursor is not None:
        after = _decode(cursor, (float, str))
        if after is None:
            return _bad_cursor()
    if len(name) > MAX_NAME:
        return _unknown(name)
    doc = await _read(request, _games, name, game, limit, after)
    return _unknown(name) if doc is None else JSONResponse(doc)


@router.get("/players/{name}/rating")
async def player_rating(
    name: str,
    request: Request,
    game: str = Query(..., max_length=40, description="The game whose rating history to plot."),
    pool: Literal["players", "programs"] = Query(
        "players", description="``players``, or ``programs`` (API token play)."
    ),
) -> JSONResponse:
    """A player's rating after each of their last 500 rated games of ``game``, oldest first."""
    refused = _check_game(game, required=True)
    if refused is not None:
        return refused
    if len(name) > MAX_NAME:
        return _unknown(name)
    doc = await _read(request, _points, name, game, pool)
    return _unknown(name) if doc is None else JSONResponse(doc)


@router.get("/leaderboard")
async def leaderboard(
    request: Request,
    game: str = Query("sushi-go", max_length=40, description="The game."),
    pool: Literal["players", "programs"] = Query(
        "players", description="``players``, or ``programs`` (API token play)."
    ),
    players: int | None = Query(
        None,
        ge=2,
        le=8,
        description="Only accounts with a rated game at this table size (their counts at it).",
    ),
    limit: int = Query(50, ge=1, le=MAX_PAGE, description="Rows per page."),
    cursor: str | None = Query(None, max_length=200, description="The ``next`` of the previous page."),
) -> JSONResponse:
    """The rated accounts of a game and pool, best rating (``mu - 3 sigma``) first, one page at a time."""
    refused = _check_game(game, required=True)
    if refused is not None:
        return refused
    after = None
    if cursor is not None:
        after = _decode(cursor, (float, int, int))
        if after is None or after[2] < 0:
            return _bad_cursor()
    return JSONResponse(await _read(request, _board, game, pool, players, limit, after))


@router.get("/ratings/bots")
async def rating_bots() -> JSONResponse:
    """Every built-in bot's fixed rating per game: bots take part in rated games at these and never change."""
    return JSONResponse({"bots": bots_table()})
