"""Many ``sushigo serve`` processes, one site: PostgreSQL decides which process owns each table.

Why this design (docs/deploy.md, "Cluster"): the database already holds the truth of every table, so it
also decides who may change one; no other coordinator (no home-made scheduler, no consensus service) is
needed, and nginx only routes.

- **Liveness by connection.** Each process keeps one dedicated PostgreSQL connection and takes a
  session-level advisory lock ``pg_try_advisory_lock(hashtextextended(table_id, 0))`` per table it owns.
  A killed process's connection drops and PostgreSQL frees its locks at once: no lease to wait out.
- **Fencing by epoch.** ``sushigo_owners`` (revision 0003) holds each unfinished table's owner and an
  epoch incremented at every takeover. Every write of a table (actions, seats, status, chat) first locks
  its owners row ``FOR SHARE`` where owner and epoch are still this process's, in the same transaction:
  a process that lost the table (its lock connection dropped, a takeover happened) writes nothing, and a
  takeover's epoch increment waits for a write in flight to commit, so the new owner loads every
  acknowledged action. The ``(table_id, seq)`` key of actions stays the last line of defence.
- **Ownership follows routing.** nginx sends every request of a table to one process (consistent hash).
  A process asked for a table it does not own takes it when its lock is free, or asks the owner over
  ``NOTIFY sushigo_handover`` and answers "moving, reconnect shortly" (``table/moving``: HTTP 503 with
  ``Retry-After: 1``; on the WebSocket an error message, then the socket closes and the page reconnects).
  The owner finishes the action in progress, tells its clients, records the asker as the next owner
  (reserved for :data:`RESERVE` seconds) and unlocks.
- **Orphans.** Every :data:`SCAN` seconds each process looks for unfinished tables whose lock nobody
  holds (``pg_locks``) and takes them, so a killed process's bot tables, timers and stand-ins resume
  elsewhere within seconds even when no client comes back.

On SQLite none of this runs: one process owns everything, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy import BigInteger, Column, Float, Integer, String, Table, func, select, text
from sqlalchemy.engine import Connection

from .client import RoomError
from .store import Store, TableRow, metadata, tables_t

if TYPE_CHECKING:
    from .rooms import Hub

log = logging.getLogger("sushigo.server.cluster")

#: Seconds between two looks for orphaned tables (and the lock connection's health check).
SCAN = 1.0
#: Seconds a table handed over on request waits for the process that asked for it.
RESERVE = 3.0
#: The notification channel of handover requests (payload: ``table_id asker``).
CHANNEL = "sushigo_handover"
#: The notification channel of ended sessions and revoked API tokens (payload: ``node kind value``,
#: kind ``t`` with a token's id or ``s`` with :func:`session_tag` of a session), so the processes whose
#: connections act through one sign them off at once, like the process that ended it.
ACCOUNTS_CHANNEL = "sushigo_accounts"
#: Tables taken over per scan at most (each one replays its game).
TAKE_PER_SCAN = 50

owners_t = Table(
    "sushigo_owners",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("since", Float, nullable=False),
)

owner_log_t = Table(
    "sushigo_owner_log",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("epoch", BigInteger, primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("actions", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

#: The lock key of a table, computed by PostgreSQL itself (so ``pg_locks`` can be matched in SQL).
_KEY = "hashtextextended(%s, 0)"
_ORPHANS = text(
    """
    SELECT o.table_id FROM sushigo_owners o JOIN sushigo_tables t ON t.id = o.table_id
    WHERE t.status IN ('open', 'playing')
      AND (o.owner = :me OR o.since < :cutoff)
      AND NOT EXISTS (
        SELECT 1 FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.objsubid = 1
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid::text::bigint = ((hashtextextended(o.table_id, 0) >> 32) & 4294967295)
          AND l.objid::text::bigint = (hashtextextended(o.table_id, 0) & 4294967295))
    ORDER BY o.since
    LIMIT :limit
    """
)

UNFINISHED = ("open", "playing")


def session_tag(session_hash: str) -> str:
    """What a notification says of an ended session: a hash of its stored hash, so that nothing that
    could open it (not even the stored form) travels through the database's notifications or logs."""
    return hashlib.sha256(("sushigo-session:" + session_hash).encode()).hexdigest()[:32]


def moving(table_id: str) -> RoomError:
    """The answer for a table that another process owns now: come back in a moment."""
    return RoomError("table/moving", f"table {table_id[:40]!r} is moving to this server; reconnect shortly")


def node_id() -> str:
    """A process id unique across machines and restarts: host, pid and a random part."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"


class Fenced(Exception):
    """A write of a table this process no longer owns (another took it over): nothing was written."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is owned by another process now")
        self.table_id = table_id


class ClusterStore(Store):
    """The store of a cluster process: every write of a table is fenced by its ownership epoch."""

    def __init__(self, url: str, node: str | None = None) -> None:
        super().__init__(url)
        self.node = node or node_id()
        #: The tables this process owns, with their epoch (touched only on the database thread).
        self.epochs: dict[str, int] = {}
        #: Called (on the database thread) with a table id whose write was refused.
        self.on_fenced: Callable[[str], None] | None = None
        #: The lock connection's owner, for tables created here (:meth:`create_table` locks them).
        self.cluster: Cluster | None = None
        self._local = threading.local()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        conn = getattr(self._local, "conn", None)
        if conn is not None:  # inside a fenced write: the same transaction
            yield conn
            return
        with super()._tx() as conn:
            yield conn

    @contextmanager
    def _fenced(self, table_ids: Sequence[str]) -> Iterator[Connection]:
        with super()._tx() as conn:
            self._check(conn, sorted(set(table_ids)))
            self._local.conn = conn
            try:
                yield conn
            finally:
                self._local.conn = None

    def _check(self, conn: Connection, table_ids: list[str]) -> None:
        """Refuses the write unless every one of ``table_ids`` is still this process's at its epoch
        (one round trip for a whole group commit)."""
        if not table_ids:
            return
        mine = {t: e for t in table_ids if (e := self.epochs.get(t)) is not None}
        if mine:
            held = {
                str(r[0])
                for r in conn.execute(
                    select(owners_t.c.table_id, owners_t.c.epoch)
                    .where(owners_t.c.table_id.in_(sorted(mine)), owners_t.c.owner == self.node)
                    .with_for_update(read=True)
                )
                if int(r[1]) == mine[str(r[0])]
            }
            for table_id in mine:
                if table_id not in held:
                    self._refused(table_id)
        others = [t for t in table_ids if t not in mine]
        if others:
            # Not ours: only a table nobody drives any more (finished, abandoned, cancelled) may be
            # written by whoever serves it (a chat line, its play-again link).
            for table_id, status in conn.execute(
                select(tables_t.c.id, tables_t.c.status).where(tables_t.c.id.in_(others))
            ):
                if status in UNFINISHED:
                    self._refused(str(table_id))

    def _refused(self, table_id: str) -> None:
        self.epochs.pop(table_id, None)
        if self.on_fenced is not None:
            self.on_fenced(table_id)
        raise Fenced(table_id)

    # ------------------------------------------------------------------------------ fenced writes

    def create_table(self, row: TableRow) -> None:
        """Inserts the table and its ownership (epoch 1, this process), holding its lock first."""
        if self.cluster is not None:
            self.cluster.lock(row.id)
        with self._fenced([]) as conn:
            super().create_table(row)
            now = time.time()
            conn.execute(owners_t.insert().values(table_id=row.id, owner=self.node, epoch=1, since=now))
            conn.execute(
                owner_log_t.insert().values(table_id=row.id, epoch=1, owner=self.node, actions=0, at=now)
            )
        self.epochs[row.id] = 1

    def update_table(self, table_id: str, **kwargs: Any) -> None:
        with self._fenced([table_id]):
            super().update_table(table_id, **kwargs)

    def append_action(self, table_id: str, *args: Any, **kwargs: Any) -> None:
        with self._fenced([table_id]):
            super().append_action(table_id, *args, **kwargs)

    def append_actions(self, items: Sequence[dict[str, Any]]) -> None:
        with self._fenced([i["table_id"] for i in items]):
            super().append_actions(items)

    def append_chat(self, table_id: str, line: dict[str, Any]) -> int:
        with self._fenced([table_id]):
            return super().append_chat(table_id, line)

    # ------------------------------------------------------------------------------ ownership

    def take(self, table_id: str) -> TableRow | None:
        """Becomes the table's owner (its lock is held): a new epoch, then its row as stored now."""
        now = time.time()
        with super()._tx() as conn:
            epoch = conn.execute(
                text(
                    "INSERT INTO sushigo_owners (table_id, owner, epoch, since) VALUES (:t, :me, 1, :now) "
                    "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
                    "epoch = sushigo_owners.epoch + 1, since = EXCLUDED.since RETURNING epoch"
                ),
                {"t": table_id, "me": self.node, "now": now},
            ).scalar_one()
            count = conn.execute(
                text("SELECT count(*) FROM sushigo_actions WHERE table_id = :t"), {"t": table_id}
            ).scalar_one()
            conn.execute(
                owner_log_t.insert().values(
                    table_id=table_id, epoch=int(epoch), owner=self.node, actions=int(count), at=now
                )
            )
        self.epochs[table_id] = int(epoch)
        return self.load_table(table_id)

    def give(self, table_id: str, to: str, since: float) -> None:
        """Records that this process gave the table up, to ``to`` ("" for anyone) from ``since``."""
        epoch = self.epochs.pop(table_id, None)
        if epoch is None:
            return
        with super()._tx() as conn:
            conn.execute(
                owners_t.update()
                .where(
                    owners_t.c.table_id == table_id, owners_t.c.owner == self.node, owners_t.c.epoch == epoch
                )
                .values(owner=to, since=since)
            )

    def orphans(self, limit: int) -> list[str]:
        """Unfinished tables whose lock nobody holds and that wait for nobody else (or for us)."""
        with super()._tx() as conn:
            rows = conn.execute(_ORPHANS, {"me": self.node, "cutoff": time.time() - RESERVE, "limit": limit})
            return [str(r[0]) for r in rows]

    def count_unfinished(self, creator: str | None) -> int:
        """Tables open or playing on the whole site (those ``creator`` made, when given)."""
        query = select(func.count()).select_from(tables_t).where(tables_t.c.status.in_(UNFINISHED))
        if creator is not None:
            query = query.where(tables_t.c.created_by == creator)
        with super()._tx() as conn:
            return int(conn.execute(query).scalar_one())


class Cluster:
    """This process's membership: the lock connection, the handover listener and the orphan scan.

    Lock calls run on the hub's database thread (one at a time, like every store call); the listener
    runs on a thread of its own and hands requests to the event loop.
    """

    def __init__(self, store: ClusterStore) -> None:
        import psycopg

        self.store = store
        self.node = store.node
        self._url = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._psycopg = psycopg
        self.conn = psycopg.connect(self._url, autocommit=True, connect_timeout=5)
        self.held: set[str] = set()
        self.draining = False
        self.hub: Hub | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self._scanner: asyncio.Task[None] | None = None
        self.takeovers = 0
        #: Called on the event loop with ``(kind, value)`` of another process's ended session or
        #: revoked token (:data:`ACCOUNTS_CHANNEL`).
        self.on_accounts: Callable[[str, str], None] | None = None
        store.cluster = self

    # ------------------------------------------------------------------ on the database thread

    def lock(self, table_id: str) -> bool:
        """Takes the table's advisory lock (``False``: a live process holds it)."""
        if table_id in self.held:
            return True
        got = bool(self.conn.execute(f"SELECT pg_try_advisory_lock({_KEY})", (table_id,)).fetchone()[0])  # type: ignore[index]
        if got:
            self.held.add(table_id)
        return got

    def unlock(self, table_id: str) -> None:
        if table_id in self.held:
            self.held.discard(table_id)
            self.conn.execute(f"SELECT pg_advisory_unlock({_KEY})", (table_id,))

    def ask(self, table_id: str) -> None:
        """Asks whoever owns the table to hand it over to this process."""
        self.conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {self.node}"))

    def announce(self, kind: str, value: str) -> None:
        """Tells the other processes that a session ended (``s``) or an API token was revoked (``t``)."""
        self.conn.execute("SELECT pg_notify(%s, %s)", (ACCOUNTS_CHANNEL, f"{self.node} {kind} {value}"))

    def acquire(self, table_id: str) -> TableRow | None:
        """The table's row, owned by this process when it is unfinished (a takeover when needed).

        :raises RoomError: ``table/moving`` while another live process owns it (it was asked for it).
        """
        row = self.store.load_table(table_id)
        if row is None or row.status not in UNFINISHED:
            return row
        if self.draining:
            raise moving(table_id)
        if not self.lock(table_id):
            self.ask(table_id)
            raise moving(table_id)
        try:
            taken = self.store.take(table_id)
        except Exception:
            self.unlock(table_id)
            raise
        self.takeovers += 1
        log.info("took table %s over", table_id)
        return taken

    def release(self, table_id: str, to: str) -> None:
        """Gives the table up: ownership to ``to`` ("" for anyone), then the lock."""
        try:
            self.store.give(table_id, to, time.time() if to else 0.0)
        finally:
            self.unlock(table_id)

    def healthy(self) -> bool:
        try:
            self.conn.execute("SELECT 1")
            return True
        except Exception:
            return False

    def reconnect(self) -> None:
        """The lock connection died (and every lock with it): a new one, no tables held."""
        with contextlib.suppress(Exception):
            self.conn.close()
        self.held.clear()
        self.store.epochs.clear()
        self.conn = self._psycopg.connect(self._url, autocommit=True, connect_timeout=5)

    def close_connections(self) -> None:
        self._stop.set()
        with contextlib.suppress(Exception):
            self.conn.close()

    # --------------------------------------------------------------------- on the event loop

    def start(self, hub: Hub) -> None:
        """Starts listening for handover requests and scanning for orphans (inside the event loop)."""
        self.hub = hub
        self._loop = asyncio.get_running_loop()
        loop = self._loop

        def fenced(table_id: str) -> None:
            loop.call_soon_threadsafe(hub.lost, table_id)

        self.store.on_fenced = fenced
        self._listener = threading.Thread(target=self._listen, name="sushigo-handover", daemon=True)
        self._listener.start()
        self._scanner = loop.create_task(self._scan_forever())

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with self._psycopg.connect(self._url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    conn.execute(f"LISTEN {ACCOUNTS_CHANNEL}")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            if self._loop is None or self.hub is None:
                                continue
                            if note.channel == ACCOUNTS_CHANNEL:
                                node, _, rest = note.payload.partition(" ")
                                kind, _, value = rest.partition(" ")
                                if node != self.node and self.on_accounts is not None:
                                    self._loop.call_soon_threadsafe(self.on_accounts, kind, value)
                                continue
                            table_id, _, asker = note.payload.partition(" ")
                            if asker != self.node:
                                self._loop.call_soon_threadsafe(self.hub.asked_for, table_id, asker)
            except Exception:
                if not self._stop.is_set():
                    log.warning("the handover listener lost its connection; reconnecting")
                    time.sleep(1.0)

    async def _scan_forever(self) -> None:
        while True:
            await asyncio.sleep(SCAN)
            try:
                await self.scan()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the cluster scan failed")

    async def scan(self) -> None:
        """Checks the lock connection, lets go of tables no longer in memory, takes orphans over."""
        hub = self.hub
        assert hub is not None
        if not await hub.db(self.healthy):
            log.error("the lock connection died: every table is given up")
            for table_id in list(hub.rooms):
                hub.lost(table_id)
            await hub.db(self.reconnect)
            return
        for table_id in list(self.held):
            # A table being loaded is held before its room is in memory: not a leftover.
            if table_id not in hub.rooms and not hub.loading(table_id):
                await hub.db(self.release, table_id, "")
        if self.draining:
            return
        room_for = max(0, hub.limits.max_tables - hub.unfinished())
        if not room_for:
            return
        for table_id in await hub.db(self.store.orphans, min(TAKE_PER_SCAN, room_for)):
            if table_id in hub.rooms:
                continue
            with contextlib.suppress(RoomError):
                await hub.get(table_id)

    async def stop(self) -> None:
        if self._scanner is not None:
            self._scanner.cancel()
            with contextlib.suppress(BaseException):
                await self._scanner
        self._stop.set()


def open_store(url: str, node: str | None = None) -> Store:
    """The store for ``url``: on PostgreSQL a :class:`ClusterStore` (any number of processes may share
    it), elsewhere the plain single-process :class:`Store`."""
    from .store import normalise_url

    if normalise_url(url).startswith("postgresql"):
        return ClusterStore(url, node)
    return Store(url)
