"""Persistence of tables and games through SQLAlchemy: SQLite by default, PostgreSQL by URL.

A table is stored as one ``tables`` row (game, options, seats with *hashes* of their tokens, the secret
seed, status, result) plus one ``actions`` row per accepted action, in order. A game is rebuilt exactly
by ``new_game(game, players, seed, **options)`` followed by re-submitting every stored action: both
games draw all chance from the seed, so a reloaded game deals and rolls exactly as before. Every
accepted action is committed here before the server acknowledges it.

The seed and the token hashes never leave this module's callers on the server side.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

metadata = MetaData()

tables_t = Table(
    "sushigo_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", String(40), nullable=False),
    Column("seats", Text, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("turn_timer", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("result", Text, nullable=True),
    # A hash of the address that created the table, so its per-address limit holds across restarts.
    Column("created_by", String(32), nullable=True),
    # Accounts (issue 21): a rated table, the account that created it, and the play-again chain.
    Column("rated", Boolean, nullable=False, default=False, server_default=text("false")),
    Column("created_user", Integer, nullable=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
    # Quick play (issue 23 moved its book here from each process's memory): the key of what the table
    # matches (``lifecycle.quick_key``), and when an open table's own timer fires (quick play fills the
    # free seats with bots; play again opens the seats still reserved). Whichever process owns the
    # table sets its timer from this when it loads it, so a takeover loses no timer.
    Column("quick", String(32), nullable=True),
    Column("wake_at", Float, nullable=True),
)
# The lobby pages through tables newest first, by status: these indexes serve those queries.
Index("ix_sushigo_tables_status_created", tables_t.c.status, tables_t.c.created_at, tables_t.c.id)
Index("ix_sushigo_tables_status_finished", tables_t.c.status, tables_t.c.finished_at, tables_t.c.id)
Index("ix_sushigo_tables_created", tables_t.c.created_at, tables_t.c.id)
# Quick play looks for the oldest open table of one key, from any process.
Index("ix_sushigo_tables_quick", tables_t.c.status, tables_t.c.quick, tables_t.c.created_at)

actions_t = Table(
    "sushigo_actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
    Column("by", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
)

#: Table chat (WEB9): one row per line, plain text as typed (pages escape it when they show it).
chat_t = Table(
    "sushigo_chat",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)


@dataclass
class SeatRow:
    """A stored seat: ``token_hash`` is the SHA-256 of the seat token (the token itself is never stored)."""

    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    #: The account seated here (``None``: a guest, a bot, or nobody yet).
    user_id: int | None = None
    #: The account plays through an API token: a program, marked as one in every view.
    program: bool = False
    #: The player conceded the running game: a bot plays the seat to the end, ratings count it last.
    conceded: bool = False
    #: Play again: the seat waits for its old occupant, ``"user:<id>"`` for an account or
    #: ``"token:<sha256 of the old seat token>"`` for a guest; cleared on accept or decline.
    reserved_for: str | None = None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
        }
        # Written only when set, so the seats of guest tables read exactly as before.
        if self.user_id is not None:
            doc["user_id"] = self.user_id
        if self.program:
            doc["program"] = True
        if self.conceded:
            doc["conceded"] = True
        if self.reserved_for is not None:
            doc["reserved_for"] = self.reserved_for
        return doc


@dataclass
class TableRow:
    """A stored table, with its accepted actions as ``(seat, action text)`` in order."""

    id: str
    name: str
    game: str
    players: int
    options: dict[str, bool]
    seed: int
    seats: list[SeatRow]
    status: str
    turn_timer: float | None
    created_at: float
    finished_at: float | None = None
    result: dict[str, Any] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    created_by: str | None = None
    rated: bool = False
    created_user: int | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    #: Quick play's match key (``None``: not a quick-play table).
    quick: str | None = None
    #: When the open table's own timer fires (quick play's bot fill, play again's reservations).
    wake_at: float | None = None


class StoreError(Exception):
    """The database cannot be opened or used: the message says which and why, in one line."""


def normalise_url(url: str) -> str:
    """Returns a SQLAlchemy URL: ``postgresql://`` and ``postgres://`` use the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def default_url(data_dir: str | Path = "data") -> str:
    """Returns the embedded default: a SQLite file ``sushigo.sqlite3`` in ``data_dir`` (created)."""
    path = Path(data_dir)
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(path / 'sushigo.sqlite3').resolve()}"


class Store:
    """The SQLAlchemy store. Methods are synchronous; the server calls them from one worker thread."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            kwargs["pool_pre_ping"] = True
            if self.url.startswith("postgresql"):
                # An unreachable server must fail in seconds, not hang the start-up.
                kwargs["connect_args"] = {"connect_timeout": 5}
        try:
            self.engine: Engine = create_engine(self.url, **kwargs)
        except Exception as exc:
            raise StoreError(f"cannot use database URL {_safe_url(url)!r}: {_first_line(exc)}") from None
        if self.is_sqlite:

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                # WAL + NORMAL survives a killed process (not a power cut) and keeps commits cheap.
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()

        from . import sitebook as _sitebook  # noqa: F401  (registers its tables on metadata)
        from .accounts import models as _accounts  # noqa: F401  (registers its tables on metadata)
        from .migrations import upgrade

        try:
            # The Alembic history (sushigo/server/migrations) makes a new database and upgrades an
            # older one, stamping a database from before Alembic at its baseline first.
            upgrade(self.engine)
        except Exception as exc:
            self.engine.dispose()
            raise StoreError(f"cannot open database {_safe_url(url)!r}: {_first_line(exc)}") from None
        self._lock = threading.Lock()

    def ping(self) -> bool:
        """Tells whether the database answers a trivial query."""
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self._lock, self.engine.begin() as conn:
            yield conn

    def close(self) -> None:
        """Releases the connection pool."""
        self.engine.dispose()

    # ------------------------------------------------------------------------------- writes

    def create_table(self, row: TableRow) -> None:
        """Inserts a new table (committed on return)."""
        with self._tx() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=row.id,
                    name=row.name,
                    game=row.game,
                    players=row.players,
                    options=json.dumps(row.options),
                    seed=str(row.seed),
                    seats=json.dumps([s.to_json() for s in row.seats]),
                    status=row.status,
                    turn_timer=row.turn_timer,
                    created_at=row.created_at,
                    created_by=row.created_by,
                    rated=row.rated,
                    created_user=row.created_user,
                    rematch_of=row.rematch_of,
                    quick=row.quick,
                    wake_at=row.wake_at,
                )
            )

    def update_table(
        self,
        table_id: str,
        *,
        seats: Sequence[SeatRow] | None = None,
        status: str | None = None,
        result: dict[str, Any] | None = None,
        rematch: str | None = None,
        wake_at: float | None = None,
    ) -> None:
        """Updates a table's seats, status, result, play-again table or timer (committed on return)."""
        values: dict[str, Any] = {}
        if wake_at is not None:
            values["wake_at"] = wake_at
        if rematch is not None:
            values["rematch"] = rematch
        if seats is not None:
            values["seats"] = json.dumps([s.to_json() for s in seats])
        if status is not None:
            values["status"] = status
            if status in ("finished", "abandoned", "cancelled"):
                values["finished_at"] = time.time()
        if result is not None:
            values["result"] = json.dumps(result)
        with self._tx() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    def append_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        by: str,
        *,
        status: str | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Stores accepted action number ``seq`` (and, when it ends the game, the result) in one commit."""
        with self._tx() as conn:
            conn.execute(
                insert(actions_t).values(
                    table_id=table_id, seq=seq, seat=seat, action=action, by=by, created_at=time.time()
                )
            )
            if status is not None:
                values: dict[str, Any] = {"status": status}
                if status == "finished":
                    values["finished_at"] = time.time()
                if result is not None:
                    values["result"] = json.dumps(result)
                conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    def append_actions(self, items: Sequence[dict[str, Any]]) -> None:
        """Stores many accepted actions in one commit (group commit); each item holds the arguments of
        :meth:`append_action` by name."""
        now = time.time()
        with self._tx() as conn:
            conn.execute(
                insert(actions_t),
                [
                    {
                        "table_id": i["table_id"],
                        "seq": i["seq"],
                        "seat": i["seat"],
                        "action": i["action"],
                        "by": i["by"],
                        "created_at": now,
                    }
                    for i in items
                ],
            )
            for i in items:
                if i.get("status") is not None:
                    values: dict[str, Any] = {"status": i["status"]}
                    if i["status"] == "finished":
                        values["finished_at"] = now
                    if i.get("result") is not None:
                        values["result"] = json.dumps(i["result"])
                    conn.execute(update(tables_t).where(tables_t.c.id == i["table_id"]).values(**values))

    # -------------------------------------------------------------------------------- reads

    def load_table(self, table_id: str) -> TableRow | None:
        """Returns the table with its actions, or ``None``."""
        with self._tx() as conn:
            r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if r is None:
                return None
            acts = conn.execute(
                select(actions_t.c.seat, actions_t.c.action)
                .where(actions_t.c.table_id == table_id)
                .order_by(actions_t.c.seq)
            ).all()
        row = _row(r)
        row.actions = [(int(a.seat), str(a.action)) for a in acts]
        return row

    def table_status(self, table_id: str) -> str | None:
        """The table's status (``None``: no such table), without loading it."""
        with self._tx() as conn:
            found = conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id)).scalar()
        return None if found is None else str(found)

    def list_tables(self, status: str, limit: int = 50) -> list[TableRow]:
        """Returns the newest tables with ``status`` (without their actions)."""
        order = tables_t.c.finished_at.desc() if status == "finished" else tables_t.c.created_at.desc()
        with self._tx() as conn:
            rows = (
                conn.execute(select(tables_t).where(tables_t.c.status == status).order_by(order).limit(limit))
                .mappings()
                .all()
            )
        return [_row(r) for r in rows]

    # --------------------------------------------------------------------------------- chat (WEB9)

    def append_chat(self, table_id: str, line: dict[str, Any]) -> int:
        """Stores one chat line (``seat``, ``name``, ``text``, ``at``) after the table's others.

        Returns how many lines the table has now.
        """
        with self._tx() as conn:
            last = conn.execute(select(func.max(chat_t.c.seq)).where(chat_t.c.table_id == table_id)).scalar()
            conn.execute(
                insert(chat_t).values(
                    table_id=table_id,
                    seq=0 if last is None else int(last) + 1,
                    seat=line["seat"],
                    name=line["name"],
                    text=line["text"],
                    created_at=line["at"],
                )
            )
        return 1 if last is None else int(last) + 2

    def count_chat(self, table_id: str) -> int:
        """Returns how many chat lines a table has."""
        with self._tx() as conn:
            last = conn.execute(select(func.max(chat_t.c.seq)).where(chat_t.c.table_id == table_id)).scalar()
        return 0 if last is None else int(last) + 1

    def load_chat(self, table_id: str, limit: int = 100) -> list[dict[str, Any]]:
        """Returns a table's last ``limit`` chat lines, oldest first."""
        with self._tx() as conn:
            rows = (
                conn.execute(
                    select(chat_t)
                    .where(chat_t.c.table_id == table_id)
                    .order_by(chat_t.c.seq.desc())
                    .limit(limit)
                )
                .mappings()
                .all()
            )
        return [
            {"seat": r["seat"], "name": r["name"], "text": r["text"], "at": float(r["created_at"])}
            for r in reversed(rows)
        ]

    def live_tables_of(self, user_id: int, limit: int = 50) -> list[TableRow]:
        """The open and playing tables the account created, sits at or is invited to, newest first
        (without their actions): "my tables" when other processes own some of them."""
        seated = f'"user_id": {int(user_id)}'
        invited = f'"reserved_for": "user:{int(user_id)}"'
        query = (
            select(tables_t)
            .where(
                tables_t.c.status.in_(("open", "playing")),
                or_(
                    tables_t.c.created_user == user_id,
                    tables_t.c.seats.contains(seated),
                    tables_t.c.seats.contains(invited),
                ),
            )
            .order_by(tables_t.c.created_at.desc(), tables_t.c.id.desc())
            .limit(limit)
        )
        with self._tx() as conn:
            rows = [_row(r) for r in conn.execute(query).mappings().all()]
        # The text match is confirmed on the parsed seats (user 5 must not match "user_id": 55).
        key = f"user:{user_id}"
        return [
            row
            for row in rows
            if row.created_user == user_id
            or any(s.user_id == user_id or s.reserved_for == key for s in row.seats)
        ]

    def quick_candidates(self, key: str, limit: int = 20) -> list[str]:
        """The open quick-play tables of ``key``, oldest first: where quick play seats its next caller,
        whichever process owns them."""
        query = (
            select(tables_t.c.id)
            .where(tables_t.c.status == "open", tables_t.c.quick == key)
            .order_by(tables_t.c.created_at, tables_t.c.id)
            .limit(limit)
        )
        with self._tx() as conn:
            return [str(r[0]) for r in conn.execute(query)]

    def list_page(
        self, status: str | None, limit: int, after: tuple[float, str] | None = None
    ) -> list[TableRow]:
        """Returns up to ``limit`` tables newest first (finished ones by when they ended), starting after
        the ``(key, id)`` cursor ``after``; one indexed range scan, whatever the number of tables."""
        key = tables_t.c.finished_at if status in ("finished", "abandoned") else tables_t.c.created_at
        query = select(tables_t)
        if status is not None:
            query = query.where(tables_t.c.status == status)
        else:  # a cancelled table was never played: the lobby does not list it
            query = query.where(tables_t.c.status != "cancelled")
        if after is not None:
            query = query.where(or_(key < after[0], and_(key == after[0], tables_t.c.id < after[1])))
        query = query.order_by(key.desc(), tables_t.c.id.desc()).limit(limit)
        with self._tx() as conn:
            rows = conn.execute(query).mappings().all()
        return [_row(r) for r in rows]


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1] if "@" in url else url


def _row(r: Any) -> TableRow:
    return TableRow(
        id=r["id"],
        name=r["name"],
        game=r["game"],
        players=int(r["players"]),
        options=json.loads(r["options"]),
        seed=int(r["seed"]),
        seats=[SeatRow(**s) for s in json.loads(r["seats"])],
        status=r["status"],
        turn_timer=r["turn_timer"],
        created_at=float(r["created_at"]),
        finished_at=r["finished_at"],
        result=json.loads(r["result"]) if r["result"] else None,
        created_by=r.get("created_by"),
        rated=bool(r.get("rated") or False),
        created_user=r.get("created_user"),
        rematch_of=r.get("rematch_of"),
        rematch=r.get("rematch"),
        quick=r.get("quick"),
        wake_at=r.get("wake_at"),
    )
