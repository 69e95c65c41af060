"""The books a whole site must share and no table owns: quick play's waits, and the rate limits that
hold per site (sign-in attempts per address, failed sign-ins per account name, data exports).

One process could keep them in memory. In a cluster (issue 23) nginx spreads every request that names
no table over all the processes, so a book in one process's memory would let a caller wait at two
quick-play tables at once, or guess one account's password N times as fast on N processes. The
database is the one place every process sees, so these books live there, on SQLite as well (one code
path for one process and for many). Each call is one short transaction; the rows a caller can make are
bounded by the edge's and the process's own per-address limits and are pruned by the hub's janitor.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Column, Engine, Float, Index, String, Table, case, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .store import metadata, tables_t

quick_waits_t = Table(
    "sushigo_quick_waits",
    metadata,
    # ``user:<id>`` for an account, ``address:<client address>`` for a guest (lifecycle.caller_key).
    Column("caller", String(80), primary_key=True),
    # The table the caller waits at; ``None`` while a request of the caller is being seated.
    Column("table_id", String(32), nullable=True),
    Column("since", Float, nullable=False),
)
Index("ix_sushigo_quick_waits_table", quick_waits_t.c.table_id)

buckets_t = Table(
    "sushigo_buckets",
    metadata,
    Column("key", String(120), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("at", Float, nullable=False),
    # When the bucket is full again: a full bucket is the same as no row, so the janitor drops it.
    Column("full_at", Float, nullable=False),
)
Index("ix_sushigo_buckets_full_at", buckets_t.c.full_at)

#: Seconds a quick-play request of one caller holds its claim while it is being seated; after that
#: (its process died meanwhile) a new request of the caller may go ahead.
PENDING_SECONDS = 60.0
#: ``full_at`` of a bucket that never refills (a rate of zero): kept until the limit changes.
FOREVER = 1e18


# ------------------------------------------------------------------------------------ quick play


def claim_wait(engine: Engine, caller: str, now: float | None = None) -> str | None:
    """Claims quick play for ``caller``: ``None`` when claimed, else the table it already waits at
    (``""`` while another request of the caller is being seated).

    A wait at a table that is no longer open (it started, or closed) has ended: it is claimed anew.
    """
    now = time.time() if now is None else now
    for attempt in (0, 1):
        try:
            with engine.begin() as conn:
                row = conn.execute(
                    select(quick_waits_t.c.table_id, quick_waits_t.c.since)
                    .where(quick_waits_t.c.caller == caller)
                    .with_for_update()
                ).first()
                if row is None:
                    conn.execute(insert(quick_waits_t).values(caller=caller, table_id=None, since=now))
                    return None
                table_id, since = row
                if table_id is None and since > now - PENDING_SECONDS:
                    return ""
                if table_id is not None:
                    status = conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id)).scalar()
                    if status == "open":
                        return str(table_id)
                conn.execute(
                    update(quick_waits_t)
                    .where(quick_waits_t.c.caller == caller)
                    .values(table_id=None, since=now)
                )
                return None
        except IntegrityError:  # another process inserted the caller's row first: read it
            if attempt:
                raise
    return None  # pragma: no cover  (the loop returns or raises)


def set_wait(engine: Engine, caller: str, table_id: str) -> None:
    """The caller's claim was seated: it waits at ``table_id`` now."""
    with engine.begin() as conn:
        conn.execute(update(quick_waits_t).where(quick_waits_t.c.caller == caller).values(table_id=table_id))


def end_wait(engine: Engine, caller: str, table_id: str | None) -> None:
    """Ends the caller's wait at ``table_id`` (``None``: its claim still being seated)."""
    where = quick_waits_t.c.table_id.is_(None) if table_id is None else quick_waits_t.c.table_id == table_id
    with engine.begin() as conn:
        conn.execute(delete(quick_waits_t).where(quick_waits_t.c.caller == caller, where))


def end_waits_at(engine: Engine, table_id: str) -> None:
    """Every wait at ``table_id`` is over (it started, or closed)."""
    with engine.begin() as conn:
        conn.execute(delete(quick_waits_t).where(quick_waits_t.c.table_id == table_id))


def waits_at(engine: Engine, table_id: str) -> list[str]:
    """The callers waiting at ``table_id``."""
    with engine.begin() as conn:
        return [
            str(r[0])
            for r in conn.execute(select(quick_waits_t.c.caller).where(quick_waits_t.c.table_id == table_id))
        ]


# ------------------------------------------------------------------------------------ rate limits


@dataclass(frozen=True)
class SiteLimit:
    """A token bucket per key, kept in the database so it holds across every process of a site.

    The arithmetic is :class:`~.limits.RateLimiter`'s, done by the database.
    """

    #: Tokens a second, and the most a bucket holds.
    rate: float
    burst: float

    def take(self, engine: Engine, key: str, cost: float = 1.0, spend: bool = True) -> float:
        """Spends ``cost`` tokens of ``key``'s bucket: ``0.0``, or (nothing spent) the seconds until it
        could. With ``spend=False`` it only answers.

        The spending is one conditional ``UPDATE`` (refill, check and spend in the database), so
        concurrent takes from any number of processes, or threads on SQLite, each count.
        """
        now = time.time()
        rate, burst = self.rate, self.burst
        b = buckets_t.c
        refilled = b.tokens + (now - b.at) * rate
        level = case((refilled > burst, burst), else_=refilled)
        for attempt in (0, 1):
            if spend:
                with engine.begin() as conn:
                    done = conn.execute(
                        update(buckets_t)
                        .where(b.key == key, level >= cost)
                        .values(
                            tokens=level - cost,
                            at=now,
                            full_at=now + (burst - (level - cost)) / rate if rate > 0 else FOREVER,
                        )
                    ).rowcount
                if done:
                    return 0.0
            with engine.begin() as conn:
                row = conn.execute(select(b.tokens, b.at).where(b.key == key)).first()
            if row is not None:
                tokens = min(burst, row[0] + (now - row[1]) * rate)
                if tokens >= cost and spend:
                    continue  # refilled in between: spend again
                if tokens >= cost:
                    return 0.0
                return (cost - tokens) / rate if rate > 0 else float("inf")
            if burst < cost:
                return float("inf")
            if not spend:
                return 0.0
            left = burst - cost
            try:
                with engine.begin() as conn:
                    conn.execute(
                        insert(buckets_t).values(
                            key=key,
                            tokens=left,
                            at=now,
                            full_at=now + (burst - left) / rate if rate > 0 else FOREVER,
                        )
                    )
                return 0.0
            except IntegrityError:  # another process made the key's row first: spend from it
                if attempt:
                    raise
        return (cost / rate) if rate > 0 else float("inf")


# ------------------------------------------------------------------------------------ janitor


def prune(engine: Engine, now: float | None = None) -> int:
    """Drops full buckets, waits at tables no longer open and claims nobody finished; returns how many."""
    now = time.time() if now is None else now
    open_tables = select(tables_t.c.id).where(tables_t.c.status == "open")
    with engine.begin() as conn:
        gone = conn.execute(delete(buckets_t).where(buckets_t.c.full_at < now)).rowcount or 0
        gone += (
            conn.execute(
                delete(quick_waits_t).where(
                    (quick_waits_t.c.table_id.is_(None) & (quick_waits_t.c.since < now - PENDING_SECONDS))
                    | (quick_waits_t.c.table_id.is_not(None) & quick_waits_t.c.table_id.not_in(open_tables))
                )
            ).rowcount
            or 0
        )
    return int(gone)
