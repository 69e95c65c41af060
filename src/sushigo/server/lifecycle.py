"""A table's life around its game (issue 21): rated tables, cancel, leave, concede, play again and quick
play; the parts that need no room: error statuses, proofs, the rated-games count, quick play's key and
the timers of open tables.

The rooms do the changes (``rooms.py``, section "life cycle") and :mod:`.routes_tables` serves them.
Every refusal is a :class:`~.client.RoomError` with a stable code, raised before anything changes, and
answered as ``{"detail": "<code>: <words>", "code", "params"}`` by :func:`refusal`.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi.responses import JSONResponse

from .client import RoomError, hash_token, token_seat
from .store import SeatRow

if TYPE_CHECKING:
    from .accounts.identity import Identity
    from .store import TableRow

#: The token hash of a conceded seat: it stays taken (nobody joins it) and no token's SHA-256 is this.
CONCEDED = "conceded"

#: The HTTP status of each life-cycle refusal (any other code: 400).
STATUS: dict[str, int] = {
    "auth/required": 401,
    "auth/invalid": 403,
    "table/account_required": 403,
    "table/not_creator": 403,
    "rematch/not_invited": 403,
    "table/not_found": 404,
    "table/started": 409,
    "table/not_started": 409,
    "table/finished": 409,
    "table/not_finished": 409,
    "table/closed": 409,
    "table/full": 409,
    "seat/taken": 409,
    "seat/conceded": 409,
    "name/taken": 409,
    "quickplay/waiting": 409,
    "name/invalid": 422,
    "name/reserved": 422,
    "rated/limit": 429,
    "table/limit": 429,
    "server/busy": 503,
}


def refusal(exc: RoomError) -> JSONResponse:
    """The JSON answer to a refused request (``Retry-After`` on 429 and 503)."""
    status = STATUS.get(exc.code, 400)
    headers = {"Retry-After": "60"} if status in (429, 503) else None
    body = {"detail": f"{exc.code}: {exc.message}", "code": exc.code, "params": exc.params}
    return JSONResponse(body, status_code=status, headers=headers)


def manage_token(row: TableRow) -> str:
    """The creator's key to cancel ``row`` (``POST /api/tables`` answers it once).

    An HMAC of the table id keyed by the table's secret seed: nothing more is stored, it survives a
    restart, and nobody without the seed can compute it.
    """
    mac = hmac.new(str(row.seed).encode(), b"manage:" + row.id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def is_manage_token(row: TableRow, token: str | None) -> bool:
    return token is not None and hmac.compare_digest(manage_token(row), token)


def reservation(seat: SeatRow) -> str | None:
    """Whom a play-again seat waits for: the account, or the holder of the old seat's token; ``None``
    for a seat nobody can prove (a bot, an empty seat, a guest who conceded and lost the token)."""
    if seat.kind != "human":
        return None
    if seat.user_id is not None:
        return f"user:{seat.user_id}"
    if seat.token_hash is not None and not seat.conceded:
        return f"token:{seat.token_hash}"
    return None


def invite_keys(identity: Identity | None, from_token: str | None) -> list[str]:
    """The reservations the caller may claim: their account's, and the one their old seat token proves."""
    keys = []
    if identity is not None:
        keys.append(f"user:{identity.user_id}")
    if from_token is not None:
        keys.append(f"token:{hash_token(from_token)}")
    return keys


def has_bots(row: TableRow) -> bool:
    return any(s.kind == "bot" for s in row.seats)


# ------------------------------------------------------------------------------------ quick play


@dataclass
class LifeState:
    """This process's timers of the open tables it owns, and the tasks they start.

    The book itself (which tables are quick-play ones, when their timers fire, who waits where) is in
    the database (:mod:`.sitebook`, ``sushigo_tables.quick`` / ``wake_at``), so any process of a site
    sees it and the owner of a table sets its timer again after a restart or a takeover.
    """

    timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    def spawn(self, coro: Any) -> None:
        """Runs ``coro`` as a task kept until it ends (timers call it)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def cancel(self, table_id: str) -> None:
        """Stops the table's timer here (the table closed, or another process owns it now)."""
        timer = self.timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()


def quick_key(game: str, players: int, options: dict[str, Any]) -> str:
    """What two quick-play requests must share to sit at one table: game, size and stored options
    (hashed to fit its indexed column)."""
    text = json.dumps([game, players, options], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def caller_key(identity: Identity | None, address: str) -> str:
    return f"user:{identity.user_id}" if identity is not None else f"address:{address}"


def address_hash(address: str) -> str:
    """The stored form of a client address (as ``app.address_key``): enough to count its tables."""
    return hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:24]


def seat_in(row: TableRow, token: str | None, identity: Identity | None) -> int:
    """The caller's seat at ``row``: the one ``token`` opens, else the one of the caller's account.

    :raises RoomError: ``auth/required`` with neither; ``auth/invalid`` when they open no seat there.
    """
    if token is not None:
        seat = token_seat(row.seats, token)
        if seat is None:
            raise RoomError("auth/invalid", "this token opens no seat at this table")
        return seat
    if identity is None:
        raise RoomError("auth/required", "give your seat token, or sign in")
    for seat, seat_row in enumerate(row.seats):
        if seat_row.kind == "human" and seat_row.user_id == identity.user_id:
            return seat
    raise RoomError("auth/invalid", "your account has no seat at this table")
