"""Baseline: the schema as the server made it before accounts (commit 142b532).

Tables, their accepted actions and their chat, with the lobby's indexes. A database made by that
server is stamped at this revision instead of running it (:func:`sushigo.server.migrations.upgrade`).
The DDL is written out here, not taken from the models, so later model changes never rewrite history.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sushigo_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("turn_timer", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("created_by", sa.String(32), nullable=True),
    )
    op.create_index("ix_sushigo_tables_status", "sushigo_tables", ["status"])
    op.create_index("ix_sushigo_tables_status_created", "sushigo_tables", ["status", "created_at", "id"])
    op.create_index("ix_sushigo_tables_status_finished", "sushigo_tables", ["status", "finished_at", "id"])
    op.create_index("ix_sushigo_tables_created", "sushigo_tables", ["created_at", "id"])
    op.create_table(
        "sushigo_actions",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sushigo_chat",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sushigo_chat")
    op.drop_table("sushigo_actions")
    op.drop_table("sushigo_tables")
