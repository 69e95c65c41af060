"""A table created without a name is named by the server in English (records and older clients read
that name), and flagged ``default_name`` so every page words it in its own reader's language."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from collections.abc import Iterator
from pathlib import Path

from fastapi.testclient import TestClient

from sushigo.server.app import create_app

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", grace=0.2, bot_delay=0.0)) as c:
        yield c


def test_a_default_name_is_flagged_and_a_given_name_is_not(client: TestClient) -> None:
    unnamed = client.post("/api/tables", json={"game": "sushi-go", "seats": SEATS}).json()
    named = client.post("/api/tables", json={"game": "sushi-go", "seats": SEATS, "name": "Суши у Ани"}).json()
    assert unnamed["name"] == "Sushi Go! for 2" and unnamed["default_name"] is True
    assert named["name"] == "Суши у Ани" and named["default_name"] is False
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[unnamed["id"]]["default_name"] and not listed[named["id"]]["default_name"]
