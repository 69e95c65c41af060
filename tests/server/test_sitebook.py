"""The site's shared books (issue 23): quick play's waits and the site-wide rate limits live in the
database, so two processes (here: two stores on one database) see one book.

Each test runs on SQLite and on PostgreSQL; the concurrent ones matter on PostgreSQL, where separate
processes really write at once.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from sushigo.server import sitebook
from sushigo.server.store import SeatRow, Store
from sushigo.server.testing import table_row


def _table(store: Store, table_id: str, status: str = "open") -> None:
    seats = [SeatRow("human"), SeatRow("human")]
    store.create_table(table_row(table_id, seats, status=status, quick="k" * 32, wake_at=time.time() + 60))


def test_one_wait_per_caller_on_the_whole_site(database: str) -> None:
    one, two = Store(database), Store(database)  # two processes' stores on one database
    try:
        _table(one, "T1")
        assert sitebook.claim_wait(one.engine, "address:a") is None
        assert sitebook.claim_wait(two.engine, "address:a") == ""  # its first request is being seated
        sitebook.set_wait(one.engine, "address:a", "T1")
        assert sitebook.claim_wait(two.engine, "address:a") == "T1"  # it waits at an open table
        assert sitebook.waits_at(two.engine, "T1") == ["address:a"]
        assert sitebook.claim_wait(two.engine, "address:b") is None  # another caller is not held up
        # the table started: the wait is over, a new claim succeeds (and holds again)
        one.update_table("T1", status="playing")
        assert sitebook.claim_wait(two.engine, "address:a") is None
        assert sitebook.claim_wait(one.engine, "address:a") == ""
        # a claim whose process died is given up after PENDING_SECONDS
        later = time.time() + sitebook.PENDING_SECONDS + 1
        assert sitebook.claim_wait(one.engine, "address:a", later) is None
        # leaving ends only the wait at that table
        _table(one, "T2")
        sitebook.set_wait(one.engine, "address:a", "T2")
        sitebook.end_wait(one.engine, "address:a", "T1")
        assert sitebook.claim_wait(two.engine, "address:a") == "T2"
        sitebook.end_wait(two.engine, "address:a", "T2")
        assert sitebook.claim_wait(two.engine, "address:a") is None
        assert one.quick_candidates("k" * 32) == ["T2"]  # T1 is playing
    finally:
        one.close()
        two.close()


def test_rate_limits_hold_across_processes(database: str) -> None:
    one, two = Store(database), Store(database)
    limit = sitebook.SiteLimit(rate=1 / 60, burst=3)
    try:
        spent = [limit.take(store.engine, "signin:x") for store in (one, two, one)]
        assert spent == [0.0, 0.0, 0.0]
        wait = limit.take(two.engine, "signin:x")
        assert 55 < wait <= 60  # one token a minute: the next in about a minute, on either process
        assert limit.take(one.engine, "signin:x", 1.0, False) > 0  # asking spends nothing
        assert limit.take(one.engine, "signin:y") == 0.0  # buckets are per key
        # a full bucket's row is dropped by the janitor; a spent one stays
        assert sitebook.prune(one.engine, time.time() + 3600) >= 2
        assert limit.take(two.engine, "signin:x") == 0.0
    finally:
        one.close()
        two.close()


def test_concurrent_spending_counts_every_take(database: str) -> None:
    stores = [Store(database) for _ in range(4)]
    limit = sitebook.SiteLimit(rate=1e-6, burst=10)
    results: list[float] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def spend(store: Store) -> None:
        try:
            for _ in range(5):
                got = limit.take(store.engine, "failed:z")
                with lock:
                    results.append(got)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads: list[Any] = [threading.Thread(target=spend, args=(s,)) for s in stores]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        assert len(results) == 20 and sum(1 for r in results if r == 0.0) == 10
    finally:
        for s in stores:
            s.close()
