"""The Alembic history: a new database gets exactly the models' schema, and a database made by the server
before accounts (the DDL below, as commit 142b532 created it) is upgraded in place and keeps every
finished game, which opens as before under its players' names, on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from sushigo.server import migrations
from sushigo.server.app import create_app
from sushigo.server.store import Store, metadata, normalise_url

#: The schema as the server before accounts created it (SQLAlchemy's DDL for SQLite at 142b532; the
#: same text is valid PostgreSQL).
OLD_DDL = [
    """CREATE TABLE sushigo_actions (
        table_id VARCHAR(32) NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL,
        action VARCHAR(200) NOT NULL, "by" VARCHAR(16) NOT NULL, created_at FLOAT NOT NULL,
        PRIMARY KEY (table_id, seq))""",
    """CREATE TABLE sushigo_chat (
        table_id VARCHAR(32) NOT NULL, seq INTEGER NOT NULL, seat INTEGER, name VARCHAR(64) NOT NULL,
        text TEXT NOT NULL, created_at FLOAT NOT NULL, PRIMARY KEY (table_id, seq))""",
    """CREATE TABLE sushigo_tables (
        id VARCHAR(32) NOT NULL, name VARCHAR(64) NOT NULL, game VARCHAR(16) NOT NULL,
        players INTEGER NOT NULL, options TEXT NOT NULL, seed VARCHAR(40) NOT NULL, seats TEXT NOT NULL,
        status VARCHAR(16) NOT NULL, turn_timer FLOAT, created_at FLOAT NOT NULL, finished_at FLOAT,
        result TEXT, created_by VARCHAR(32), PRIMARY KEY (id))""",
    "CREATE INDEX ix_sushigo_tables_status ON sushigo_tables (status)",
    "CREATE INDEX ix_sushigo_tables_status_finished ON sushigo_tables (status, finished_at, id)",
    "CREATE INDEX ix_sushigo_tables_created ON sushigo_tables (created_at, id)",
    "CREATE INDEX ix_sushigo_tables_status_created ON sushigo_tables (status, created_at, id)",
]
#: An even older server: no created_by column and none of the lobby's composite indexes.
OLDER_DDL = [OLD_DDL[0], OLD_DDL[1], OLD_DDL[2].replace(", created_by VARCHAR(32)", ""), OLD_DDL[3]]
OLD_TABLE_COLUMNS = [
    "id",
    "name",
    "game",
    "players",
    "options",
    "seed",
    "seats",
    "status",
    "turn_timer",
    "created_at",
    "finished_at",
    "result",
    "created_by",
]


def schema_differences(url: str) -> list[Any]:
    """What Alembic's comparison finds between the database at ``url`` and the models."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from sushigo.server.accounts import models  # noqa: F401  (its tables are on the metadata)

    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            ctx = MigrationContext.configure(
                conn, opts={"compare_type": True, "compare_server_default": False}
            )
            diffs = compare_metadata(ctx, metadata)
    finally:
        engine.dispose()
    return [
        d
        for d in diffs
        if not (isinstance(d, tuple) and d[0] == "remove_table" and d[1].name == "alembic_version")
    ]


def test_head_is_the_historys_head() -> None:
    from alembic.script import ScriptDirectory

    config: Any = migrations.alembic_config(None)
    assert ScriptDirectory.from_config(config).get_heads() == [migrations.HEAD]


def test_a_new_sqlite_database_has_the_models_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    Store(url).close()
    assert schema_differences(url) == []
    Store(url).close()  # opening again changes nothing


def _finished_game(tmp_path: Path) -> dict[str, Any]:
    """Plays a game between two bots on today's server; returns its stored rows and its documents."""
    url = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    with TestClient(create_app(url, bot_delay=0.0)) as client:
        body = {"seats": [{"kind": "bot", "bot": "greedy", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{tid}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)
        table = client.get(f"/api/tables/{tid}").json()
        record = client.get(f"/api/tables/{tid}/record").json()
    engine = create_engine(url)
    with engine.connect() as conn:
        row = dict(
            conn.execute(text("SELECT * FROM sushigo_tables WHERE id = :i"), {"i": tid}).mappings().one()
        )
        actions = [
            dict(a)
            for a in conn.execute(
                text("SELECT * FROM sushigo_actions WHERE table_id = :i"), {"i": tid}
            ).mappings()
        ]
    engine.dispose()
    return {
        "id": tid,
        "row": {k: row[k] for k in OLD_TABLE_COLUMNS},
        "actions": actions,
        "table": table,
        "record": record,
    }


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _finished_game(tmp_path_factory.mktemp("game"))


def _old_database(url: str, game: dict[str, Any], ddl: list[str]) -> None:
    """Builds a database as the old server left it, holding ``game`` and an open table."""
    engine = create_engine(normalise_url(url))
    row = dict(game["row"])
    if ddl is OLDER_DDL:
        row.pop("created_by")
    with engine.begin() as conn:
        for statement in ddl:
            conn.execute(text(statement))
        cols = ", ".join(row)
        conn.execute(
            text(f"INSERT INTO sushigo_tables ({cols}) VALUES ({', '.join(':' + c for c in row)})"), row
        )
        for action in game["actions"]:
            conn.execute(
                text(
                    'INSERT INTO sushigo_actions (table_id, seq, seat, action, "by", created_at) '
                    "VALUES (:table_id, :seq, :seat, :action, :by, :created_at)"
                ),
                action,
            )
        conn.execute(
            text(
                "INSERT INTO sushigo_chat (table_id, seq, seat, name, text, created_at) VALUES (:t, 0, 0, 'Ann', 'gg', 1.0)"
            ),
            {"t": game["id"]},
        )
    engine.dispose()


def _check_upgraded(url: str, game: dict[str, Any], tmp_path: Path) -> None:
    store = Store(url)
    try:
        row = store.load_table(game["id"])
        assert row is not None and row.status == "finished"
        assert len(row.actions) == len(game["actions"]) and row.rated is False and row.rematch is None
        assert store.load_chat(game["id"])[0]["text"] == "gg"
        with store.engine.connect() as conn:
            assert migrations.current(conn) == migrations.HEAD
    finally:
        store.close()
    assert schema_differences(url) == []
    with TestClient(create_app(url, bot_delay=0.0, data_dir=tmp_path)) as client:
        table = client.get(f"/api/tables/{game['id']}").json()
        assert [s["name"] for s in table["seats"]] == [s["name"] for s in game["table"]["seats"]]
        assert (table["totals"], table["winner_names"]) == (
            game["table"]["totals"],
            game["table"]["winner_names"],
        )
        assert client.get(f"/api/tables/{game['id']}/record").json() == game["record"]
        assert client.get(f"/api/tables/{game['id']}/replay").status_code == 200
        assert client.get("/api/tables?status=finished").json()["tables"][0]["id"] == game["id"]
        # Accounts work on the upgraded database.
        r = client.post("/api/account", json={"name": "upgraded", "password": "a long password"})
        assert r.status_code == 201, r.text


@pytest.mark.parametrize("ddl", [OLD_DDL, OLDER_DDL], ids=["142b532", "before-created_by"])
def test_an_old_sqlite_database_is_upgraded_and_keeps_its_games(
    tmp_path: Path, finished: dict[str, Any], ddl: list[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    _old_database(url, finished, ddl)
    _check_upgraded(url, finished, tmp_path)


def test_an_interim_database_without_alembic_is_completed(tmp_path: Path) -> None:
    """The accounts skeleton's server made every table with create_all and no version: it is adopted."""
    url = f"sqlite:///{tmp_path / 'interim.sqlite3'}"
    from sushigo.server.accounts import models  # noqa: F401

    engine = create_engine(url)
    metadata.create_all(engine)
    with engine.begin() as conn:  # the interim schema had account names NOT NULL
        conn.execute(text("DROP TABLE sushigo_users"))
        conn.execute(
            text(
                "CREATE TABLE sushigo_users (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(32) NOT NULL, "
                "name_key VARCHAR(96) NOT NULL UNIQUE, skeleton VARCHAR(192) NOT NULL UNIQUE, "
                "password_hash VARCHAR(200), created_at FLOAT NOT NULL, created_by VARCHAR(32), "
                "disabled BOOLEAN NOT NULL, deleted_at FLOAT)"
            )
        )
        conn.execute(
            text("CREATE INDEX ix_sushigo_users_created_by ON sushigo_users (created_by, created_at)")
        )
        conn.execute(
            text("INSERT INTO sushigo_users VALUES (1, 'early', 'early', 'early', NULL, 1.0, NULL, 0, NULL)")
        )
    engine.dispose()
    Store(url).close()
    assert schema_differences(url) == []


# ------------------------------------------------------------------------------------ PostgreSQL


@pytest.mark.slow
def test_a_new_postgresql_database_has_the_models_schema(pg_database: str) -> None:
    Store(pg_database).close()
    assert schema_differences(pg_database) == []
    Store(pg_database).close()


@pytest.mark.slow
def test_an_old_postgresql_database_is_upgraded_and_keeps_its_games(
    pg_database: str, finished: dict[str, Any], tmp_path: Path
) -> None:
    _old_database(pg_database, finished, OLD_DDL)
    _check_upgraded(pg_database, finished, tmp_path)


@pytest.mark.slow
def test_concurrent_upgrades_on_postgresql_run_once(pg_database: str) -> None:
    """Three server processes starting together: the advisory lock lets one upgrade, the others wait."""
    import threading

    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            Store(pg_database).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    engine = create_engine(normalise_url(pg_database))
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    engine.dispose()
