"""Fixtures of the server tests: a real ``sushigo serve`` subprocess on SQLite, and PostgreSQL if possible."""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from sushigo.server.testing import PostgresUnavailable, ServerProcess, throwaway_postgres


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """Starts a throwaway PostgreSQL server (Debian's ``postgresql``) and yields its URL."""
    with ExitStack() as stack:
        try:
            base = stack.enter_context(throwaway_postgres("sushigo-pg-"))
        except PostgresUnavailable as exc:
            pytest.skip(str(exc))
        yield base + "/postgres"


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    # A fresh schema per test keeps tables apart.
    import sqlalchemy

    from sushigo.server.store import normalise_url

    name = f"t{int(time.time() * 1000) % 10**9}_{os.getpid()}"
    eng = sqlalchemy.create_engine(normalise_url(url), isolation_level="AUTOCOMMIT")
    with eng.connect() as conn:
        conn.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    eng.dispose()
    return url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def server(database: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A running ``sushigo serve`` on ``database`` with instant bots."""
    proc = ServerProcess(tmp_path, database=database, bot_delay=0.0)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


# ------------------------------------------------------------------------------------- the fast loop
#: The server tests that stay in the fast loop (`pytest -m "not slow"`): in-process app, no subprocess,
#: no PostgreSQL. Everything else here starts a real server and is marked slow (CI runs it all).
QUICK = {
    "test_api.py::test_every_endpoint_is_in_the_openapi_schema",
    "test_api.py::test_protocol_doc_matches_the_code",
    "test_api.py::test_static_pages_are_served",
    "test_api.py::test_bad_tables_are_refused",
    "test_deploy.py::test_nginx_accepts_the_config_with_each_shipped_upstream_file",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here) and f"{item.path.name}::{item.originalname}" not in QUICK:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def seating() -> Any:
    """tests/server/seating_helpers.py as a module (accounts made through the API, with their headers);
    tests import in importlib mode, where no test folder is on the path, so it is loaded here once."""
    module = sys.modules.get("seating_helpers")
    if module is None:
        spec = importlib.util.spec_from_file_location(
            "seating_helpers", Path(__file__).with_name("seating_helpers.py")
        )
        assert spec is not None and spec.loader is not None
        module = sys.modules["seating_helpers"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module
