"""Fencing (issue 23): a process that lost a table writes nothing to it any more.

Two stores on one PostgreSQL database stand for two processes. The first creates a table (epoch 1);
its lock connection drops (as when the process is killed or cut off); the second takes the table over
(epoch 2). The first one's writes of that table, whatever they are, are then refused and nothing of
them is stored, while the new owner writes; asking for a table a live process holds is answered
``table/moving``."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select

from sushigo.server.client import RoomError
from sushigo.server.cluster import Cluster, ClusterStore, Fenced, owner_log_t, owners_t
from sushigo.server.store import TableRow, actions_t
from sushigo.server.testing import table_row


def _row(table_id: str) -> TableRow:
    row: TableRow = table_row(table_id, seed=7)
    return row


def test_a_stale_owner_cannot_write_a_table_taken_over(pg_database: str) -> None:
    old = ClusterStore(pg_database, "old")
    old_cluster = Cluster(old)
    new = ClusterStore(pg_database, "new")
    new_cluster = Cluster(new)
    fenced: list[str] = []
    old.on_fenced = fenced.append
    try:
        old.create_table(_row("tfenced"))
        old.append_action("tfenced", 0, 0, "1", "bot")
        with pytest.raises(RoomError) as refused:  # a live owner holds it: asked, and "moving"
            new_cluster.acquire("tfenced")
        assert refused.value.code == "table/moving"

        old_cluster.conn.close()  # the old process's lock connection is gone: so is its lock
        # PostgreSQL frees the lock once that connection's backend has exited, which can lag a little
        # on a loaded machine: "moving" until then.
        deadline = time.monotonic() + 5.0
        while True:
            try:
                taken = new_cluster.acquire("tfenced")
                break
            except RoomError as exc:
                if exc.code != "table/moving" or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert taken is not None and taken.actions == [(0, "1")]

        for write in (
            lambda: old.append_action("tfenced", 1, 1, "2", "bot"),
            lambda: old.append_actions(
                [{"table_id": "tfenced", "seq": 1, "seat": 1, "action": "2", "by": "bot"}]
            ),
            lambda: old.update_table("tfenced", status="abandoned"),
            lambda: old.append_chat("tfenced", {"seat": 0, "name": "A", "text": "hi", "at": time.time()}),
        ):
            old.epochs["tfenced"] = 1  # the stale process still believes it owns the table
            with pytest.raises(Fenced):
                write()
        assert fenced == ["tfenced"] * 4

        new.append_action("tfenced", 1, 1, "3", "bot")
        with new.engine.connect() as conn:
            stored = conn.execute(
                select(actions_t.c.seq, actions_t.c.action).where(actions_t.c.table_id == "tfenced")
            ).all()
            owner = conn.execute(select(owners_t).where(owners_t.c.table_id == "tfenced")).mappings().one()
            history = conn.execute(
                select(owner_log_t.c.epoch, owner_log_t.c.owner, owner_log_t.c.actions)
                .where(owner_log_t.c.table_id == "tfenced")
                .order_by(owner_log_t.c.epoch)
            ).all()
        assert [tuple(r) for r in stored] == [(0, "1"), (1, "3")]
        assert (owner["owner"], owner["epoch"]) == ("new", 2)
        assert [tuple(r) for r in history] == [(1, "old", 0), (2, "new", 1)]
        assert new.load_table("tfenced").status == "playing"  # type: ignore[union-attr]
    finally:
        new_cluster.close_connections()
        old.close()
        new.close()
