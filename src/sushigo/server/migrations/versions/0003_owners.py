"""Cluster (issue 23): which process owns each unfinished table, with a fencing epoch, and the history
of ownership changes.

``sushigo_owners`` holds one row per table: the owning process's id, the epoch (incremented at every
takeover; every write of the table checks it in the same transaction) and when it last changed.
``sushigo_owner_log`` keeps one row per (table, epoch): who took it and how many actions the table had
then, so an operator (and the cluster test) can tell that ownership intervals never overlapped.
Both exist on SQLite too, where one process owns everything and they stay empty.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sushigo.server.migrations.steps import ensure_table

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    ensure_table(
        "sushigo_owners",
        [
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("owner", sa.String(64), nullable=False),
            sa.Column("epoch", sa.BigInteger, nullable=False),
            sa.Column("since", sa.Float, nullable=False),
        ],
    )
    ensure_table(
        "sushigo_owner_log",
        [
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("epoch", sa.BigInteger, primary_key=True),
            sa.Column("owner", sa.String(64), nullable=False),
            sa.Column("actions", sa.Integer, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        ],
    )


def downgrade() -> None:
    op.drop_table("sushigo_owner_log")
    op.drop_table("sushigo_owners")
