"""Cluster (issue 23): the books every process of a site shares, moved out of each process's memory.

- ``sushigo_tables.quick`` (quick play's match key) and ``wake_at`` (when an open table's own timer
  fires: quick play's bot fill, play again's reservations), with an index for quick play's search;
- ``sushigo_quick_waits``: the quick-play table each caller waits at (one wait per caller per site);
- ``sushigo_buckets``: rate-limit buckets that hold per site (sign-ins, failed sign-ins per name,
  exports).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sushigo.server.migrations.steps import add_missing_columns, ensure_indexes, ensure_table

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

NEW_COLUMNS = (
    sa.Column("quick", sa.String(32), nullable=True),
    sa.Column("wake_at", sa.Float, nullable=True),
)


def upgrade() -> None:
    add_missing_columns("sushigo_tables", NEW_COLUMNS)
    ensure_indexes("sushigo_tables", [("ix_sushigo_tables_quick", ["status", "quick", "created_at"])])
    ensure_table(
        "sushigo_quick_waits",
        [
            sa.Column("caller", sa.String(80), primary_key=True),
            sa.Column("table_id", sa.String(32), nullable=True),
            sa.Column("since", sa.Float, nullable=False),
        ],
        [("ix_sushigo_quick_waits_table", ["table_id"])],
    )
    ensure_table(
        "sushigo_buckets",
        [
            sa.Column("key", sa.String(120), primary_key=True),
            sa.Column("tokens", sa.Float, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.Column("full_at", sa.Float, nullable=False),
        ],
        [("ix_sushigo_buckets_full_at", ["full_at"])],
    )


def downgrade() -> None:
    op.drop_table("sushigo_buckets")
    op.drop_table("sushigo_quick_waits")
    op.drop_index("ix_sushigo_tables_quick", "sushigo_tables")
    with op.batch_alter_table("sushigo_tables") as batch:
        for column in NEW_COLUMNS:
            batch.drop_column(column.name)
