"""Schema steps the revisions share, each of which first checks whether its object exists: a database
made by an interim server (``create_all`` without Alembic) is completed instead of failing on what it
already has. The DDL stays written out in each revision; only the checking is shared."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


def add_missing_columns(table: str, columns: Sequence[sa.Column]) -> None:
    """Adds each of ``columns`` to ``table`` unless it has it."""
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}
    for column in columns:
        if column.name not in have:
            op.add_column(table, column)


def ensure_table(
    name: str,
    columns: Sequence[sa.Column],
    indexes: Sequence[tuple[str, list[str]]] = (),
) -> None:
    """Creates table ``name`` unless it exists, then each ``(index name, columns)`` it lacks."""
    if not sa.inspect(op.get_bind()).has_table(name):
        op.create_table(name, *columns)
    ensure_indexes(name, indexes)


def ensure_indexes(table: str, indexes: Sequence[tuple[str, list[str]]]) -> None:
    """Creates each ``(index name, columns)`` of ``table`` it lacks."""
    existing = {i["name"] for i in sa.inspect(op.get_bind()).get_indexes(table)}
    for index, cols in indexes:
        if index not in existing:
            op.create_index(index, table, cols)
