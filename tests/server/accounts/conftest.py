"""Fixtures of the accounts tests: an in-process app with cheap password hashing, and helpers that sign
in the way a page does (Origin of this site and the X-CSRF-Token header).

``tests/server/conftest.py`` marks every test of ``tests/server`` slow; the tests here run in process
in well under a second each, so they stay in the fast loop unless they carry ``pytest.mark.slow``
themselves (the PostgreSQL and migration ones do).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from fastapi.testclient import TestClient

from sushigo.server.accounts.service import AccountSettings
from sushigo.server.app import create_app

HERE = Path(__file__).parent
ORIGIN = "http://testserver"
#: Argon2id at its cheapest: the tests check the rules, not the cost.
CHEAP = AccountSettings(argon2_time_cost=1, argon2_memory_cost=8, argon2_parallelism=1)


def _explicitly_slow(item: pytest.Item) -> bool:
    marks: list[Any] = []
    for owner in (getattr(item, "module", None), getattr(item, "function", None)):
        found = getattr(owner, "pytestmark", [])
        marks += found if isinstance(found, list) else [found]
    return any(getattr(m, "name", None) == "slow" for m in marks)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Runs before the parent folder's hook: tells it which of these tests stay in the fast loop.

    That hook marks slow every test not named in its ``QUICK`` set, so the fast ones here are added
    to that set (the parent's module, found among the loaded conftests).
    """
    parent = HERE.parent / "conftest.py"
    quick: set[str] | None = None
    for plugin in config.pluginmanager.get_plugins():
        if Path(getattr(plugin, "__file__", "") or "") == parent:
            quick = getattr(plugin, "QUICK", None)
    if quick is None:
        return
    for item in items:
        if item.path.is_relative_to(HERE) and not _explicitly_slow(item):
            quick.add(f"{item.path.name}::{item.originalname}")  # type: ignore[attr-defined]


@pytest.fixture
def pg_database(postgres_url: str) -> Iterator[str]:
    """A fresh PostgreSQL database (the server fixture's throwaway cluster; skips without PostgreSQL)."""
    import os
    import time

    import sqlalchemy

    from sushigo.server.store import normalise_url

    name = f"acc{int(time.time() * 1000) % 10**9}_{os.getpid()}"
    eng = sqlalchemy.create_engine(normalise_url(postgres_url), isolation_level="AUTOCOMMIT")
    with eng.connect() as conn:
        conn.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    eng.dispose()
    yield postgres_url.rsplit("/", 1)[0] + "/" + name


def make_client(
    tmp_path: Path, settings: AccountSettings = CHEAP, database: str | None = None, **kwargs: Any
) -> TestClient:
    url = database or f"sqlite:///{tmp_path / 'accounts.sqlite3'}"
    app = create_app(url, grace=0.2, bot_delay=0.0, data_dir=tmp_path, **kwargs)
    app.state.account_settings = settings
    return TestClient(app)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def create(
    client: TestClient, name: str = "alice", password: str = "correct horse battery"
) -> dict[str, Any]:
    """Creates an account as a page does; returns its ``Me`` (the client now holds its cookie)."""
    r = client.post("/api/account", json={"name": name, "password": password}, headers={"Origin": ORIGIN})
    assert r.status_code == 201, r.text
    me: dict[str, Any] = r.json()
    return me


def page_headers(me: dict[str, Any]) -> dict[str, str]:
    """The headers a page of this site sends with a state-changing request."""
    return {"Origin": ORIGIN, "X-CSRF-Token": me["csrf"]}
