"""The database's schema history (Alembic): every version of the server's tables, and the upgrade that
:class:`~sushigo.server.store.Store` runs when it opens a database.

Revisions (``versions/``): ``0001`` is the schema as the server made it before accounts existed (tables,
actions and chat with their indexes; commit 142b532), ``0002`` adds accounts (users, sessions, API
tokens, ratings, rating events, table players, analyses and four ``sushigo_tables`` columns), ``0003``
adds the cluster's table ownership (``sushigo_owners`` with its fencing epochs, ``sushigo_owner_log``).

:func:`upgrade` handles three kinds of database: a new one (every revision runs), one made by an
earlier server without Alembic (its tables are brought to exactly ``0001``'s shape, the version is
stamped ``0001``, then the rest runs), and one already under Alembic (only the missing revisions run).
On PostgreSQL the whole upgrade holds an advisory lock in one transaction, so several server processes
starting at once upgrade it once; a failed upgrade leaves the database as it was.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text

#: The newest revision (tests check it is the history's head): a database at it needs no Alembic at all.
HEAD = "0004"
#: Any constant: the PostgreSQL advisory lock that serialises concurrent upgrades.
_LOCK = 0x5005_1900

HERE = Path(__file__).parent


def alembic_config(connection: Connection | None) -> object:
    """Alembic's configuration for this package's history, running on ``connection``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = connection
    return config


def current(connection: Connection) -> str | None:
    """The revision a database is at, or ``None`` when it has no Alembic version table."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
    return None if row is None else str(row[0])


def _adopt(connection: Connection) -> None:
    """Brings a database made before Alembic to ``0001``'s exact shape (an older one lacks
    ``created_by`` and the lobby's indexes), so stamping it ``0001`` tells the truth."""
    insp = inspect(connection)
    columns = {c["name"] for c in insp.get_columns("sushigo_tables")}
    if "created_by" not in columns:
        connection.execute(text("ALTER TABLE sushigo_tables ADD COLUMN created_by VARCHAR(32)"))
    have = {i["name"] for i in insp.get_indexes("sushigo_tables")}
    for name, cols in (
        ("ix_sushigo_tables_status", "status"),
        ("ix_sushigo_tables_status_created", "status, created_at, id"),
        ("ix_sushigo_tables_status_finished", "status, finished_at, id"),
        ("ix_sushigo_tables_created", "created_at, id"),
    ):
        if name not in have:
            connection.execute(text(f"CREATE INDEX {name} ON sushigo_tables ({cols})"))
    for table in ("sushigo_actions", "sushigo_chat"):
        if not insp.has_table(table):
            raise RuntimeError(f"the database has sushigo_tables but no {table}: not a sushigo database")


def upgrade(engine: Engine) -> None:
    """Brings the database at ``engine`` to :data:`HEAD` (see the module docstring)."""
    from alembic import command

    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK})
        at = current(connection)
        if at == HEAD:
            return
        config = alembic_config(connection)
        if at is None and inspect(connection).has_table("sushigo_tables"):
            _adopt(connection)
            command.stamp(config, "0001")  # type: ignore[arg-type]
        command.upgrade(config, "head")  # type: ignore[arg-type]
