"""Accounts (issue 21): users, sessions, API tokens, ratings, rating events, table players, analyses,
and ``sushigo_tables``' rated / created_user / rematch_of / rematch columns.

Each step checks first whether its object exists: a database made by the interim server of the
accounts skeleton (``create_all`` of these tables, no Alembic) is stamped ``0001`` and then completed
here instead of failing on tables it already has. The DDL is written out, not taken from the models.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sushigo.server.migrations.steps import add_missing_columns, ensure_table

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

NEW_COLUMNS = (
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_user", sa.Integer, nullable=True),
    sa.Column("rematch_of", sa.String(32), nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
)


def _tables() -> list[tuple[str, list[sa.Column], list[tuple[str, list[str]]]]]:
    """Each new table: its columns and its (name, columns) indexes."""
    return [
        (
            "sushigo_users",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("name", sa.String(32), nullable=True),
                sa.Column("name_key", sa.String(96), nullable=False, unique=True),
                sa.Column("skeleton", sa.String(192), nullable=False, unique=True),
                sa.Column("password_hash", sa.String(200), nullable=True),
                sa.Column("created_at", sa.Float, nullable=False),
                sa.Column("created_by", sa.String(32), nullable=True),
                sa.Column("disabled", sa.Boolean, nullable=False),
                sa.Column("deleted_at", sa.Float, nullable=True),
            ],
            [("ix_sushigo_users_created_by", ["created_by", "created_at"])],
        ),
        (
            "sushigo_sessions",
            [
                sa.Column("id_hash", sa.String(64), primary_key=True),
                sa.Column("user_id", sa.Integer, nullable=False),
                sa.Column("csrf", sa.String(64), nullable=False),
                sa.Column("created_at", sa.Float, nullable=False),
                sa.Column("last_seen", sa.Float, nullable=False),
                sa.Column("expires_at", sa.Float, nullable=False),
            ],
            [("ix_sushigo_sessions_user_id", ["user_id"])],
        ),
        (
            "sushigo_api_tokens",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("user_id", sa.Integer, nullable=False),
                sa.Column("label", sa.String(40), nullable=False),
                sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
                sa.Column("prefix", sa.String(12), nullable=False),
                sa.Column("created_at", sa.Float, nullable=False),
                sa.Column("last_used", sa.Float, nullable=True),
                sa.Column("revoked_at", sa.Float, nullable=True),
            ],
            [("ix_sushigo_api_tokens_user_id", ["user_id"])],
        ),
        (
            "sushigo_ratings",
            [
                sa.Column("user_id", sa.Integer, primary_key=True),
                sa.Column("game", sa.String(16), primary_key=True),
                sa.Column("pool", sa.String(12), primary_key=True),
                sa.Column("mu", sa.Float, nullable=False),
                sa.Column("sigma", sa.Float, nullable=False),
                sa.Column("games", sa.Integer, nullable=False),
                sa.Column("wins", sa.Integer, nullable=False),
                sa.Column("updated_at", sa.Float, nullable=False),
            ],
            [("ix_sushigo_ratings_board", ["game", "pool", "mu"])],
        ),
        (
            "sushigo_rating_events",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("user_id", sa.Integer, nullable=False),
                sa.Column("game", sa.String(16), nullable=False),
                sa.Column("pool", sa.String(12), nullable=False),
                sa.Column("table_id", sa.String(32), nullable=False),
                sa.Column("mu", sa.Float, nullable=False),
                sa.Column("sigma", sa.Float, nullable=False),
                sa.Column("place", sa.Integer, nullable=False),
                sa.Column("created_at", sa.Float, nullable=False),
            ],
            [("ix_sushigo_rating_events_user", ["user_id", "game", "id"])],
        ),
        (
            "sushigo_table_players",
            [
                sa.Column("table_id", sa.String(32), primary_key=True),
                sa.Column("seat", sa.Integer, primary_key=True),
                sa.Column("user_id", sa.Integer, nullable=False),
                sa.Column("program", sa.Boolean, nullable=False),
                sa.Column("game", sa.String(16), nullable=False),
                sa.Column("players", sa.Integer, nullable=False),
                sa.Column("rated", sa.Boolean, nullable=False),
                sa.Column("place", sa.Integer, nullable=True),
                sa.Column("score", sa.Integer, nullable=True),
                sa.Column("conceded", sa.Boolean, nullable=False),
                sa.Column("finished_at", sa.Float, nullable=False),
            ],
            [("ix_sushigo_table_players_user", ["user_id", "finished_at"])],
        ),
        (
            "sushigo_analyses",
            [
                sa.Column("table_id", sa.String(32), primary_key=True),
                sa.Column("seat", sa.Integer, primary_key=True),
                sa.Column("engine", sa.String(40), primary_key=True),
                sa.Column("doc", sa.Text, nullable=False),
                sa.Column("created_at", sa.Float, nullable=False),
            ],
            [],
        ),
    ]


def upgrade() -> None:
    insp = sa.inspect(op.get_bind())
    add_missing_columns("sushigo_tables", NEW_COLUMNS)
    for name, columns, indexes in _tables():
        if (
            name == "sushigo_users"
            and insp.has_table(name)
            and not next(c for c in insp.get_columns(name) if c["name"] == "name")["nullable"]
        ):
            # The interim schema had names NOT NULL (a deleted account's name is NULL). SQLite alters a
            # column by copying the table: from this full definition, so its unique keys are kept.
            full = sa.Table(name, sa.MetaData(), *columns)
            with op.batch_alter_table(name, copy_from=full, recreate="auto") as batch:
                batch.alter_column("name", existing_type=sa.String(32), nullable=True)
        ensure_table(name, columns, indexes)


def downgrade() -> None:
    for name, _columns, _indexes in reversed(_tables()):
        op.drop_table(name)
    with op.batch_alter_table("sushigo_tables") as batch:
        for column in reversed(NEW_COLUMNS):
            batch.drop_column(column.name)
