"""Alembic's entry point: runs the revisions on the connection :func:`sushigo.server.migrations.upgrade`
hands over (there is no alembic.ini: the server is its only user)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only reached by running alembic by hand
    raise SystemExit("run migrations through sushigo (opening the database upgrades it)")
context.configure(connection=connection, transactional_ddl=True)
with context.begin_transaction():
    context.run_migrations()
