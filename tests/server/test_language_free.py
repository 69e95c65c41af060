"""What the server tells a table's players is language-free: each page writes it in its own reader's words.

An ``error`` carries a stable code and, where its text needs them, numeric ``params`` (never words); a
turn timer's ``ack`` carries the action it played as structured data (``choice``), which the page names
from its own card catalogue; the stored log is ids and numbers. The table page has a text for every code
the server can send, so a new code without one fails here.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

import re
from collections.abc import Iterator
from pathlib import Path

from fastapi.testclient import TestClient

from sushigo.server import ws
from sushigo.server.app import create_app
from sushigo.server.client import RoomError

SRC = Path(__file__).resolve().parents[2] / "src" / "sushigo" / "server"
ERRORS_JS = SRC / "static" / "table" / "errors.js"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'lf.sqlite3'}", grace=0.2, bot_delay=0.0)
    with TestClient(app) as c:
        yield c


def test_an_error_carries_its_numbers_as_params_and_only_numbers() -> None:
    exc = RoomError("chat/full", "this table's chat is full (500 lines)", lines=500)
    msg = ws.error(exc.code, exc.message, exc.params)
    assert msg == {"type": "error", "code": "chat/full", "message": exc.message, "params": {"lines": 500}}
    assert "params" not in ws.error("table/finished", "the game is over")


def test_every_code_the_server_raises_has_a_text_on_the_table_page() -> None:
    raised = set()
    for path in SRC.glob("*.py"):
        raised |= set(re.findall(r'RoomError\(\s*"([a-z_]+/[a-z_]+)"', path.read_text(encoding="utf-8")))
        raised |= set(re.findall(r'error\("([a-z_]+/[a-z_]+)"', path.read_text(encoding="utf-8")))
    page = set(re.findall(r'"([a-z_]+/[a-z_]+)":', ERRORS_JS.read_text(encoding="utf-8")))
    # table/limit and table/invalid come from creating a table: the lobby's (web's) texts, not the table's.
    missing = raised - page - {"table/limit", "table/invalid"}
    assert not missing, f"codes the table page cannot say in its reader's language: {sorted(missing)}"


def test_a_chat_over_its_rate_is_refused_with_numbers(client: TestClient) -> None:
    t = client.post(
        "/api/tables", json={"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    ).json()
    j = client.post(f"/api/tables/{t['id']}/join", json={"name": "Ann"}).json()
    with client.websocket_connect(f"/ws/tables/{t['id']}") as conn:
        conn.send_json({"type": "hello", "token": j["token"]})
        assert conn.receive_json()["type"] == "welcome"
        for i in range(8):
            conn.send_json({"type": "chat", "text": f"hi {i}"})
        error = None
        for _ in range(60):
            msg = conn.receive_json()
            if msg["type"] == "error":
                error = msg
                break
        assert error is not None and error["code"] == "rate/limited", error
        params = error["params"]
        assert set(params) == {"burst", "seconds"}
        assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in params.values()), params


def test_the_timer_ack_names_its_action_by_structure(client: TestClient) -> None:
    t = client.post(
        "/api/tables",
        json={"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}], "turn_timer": 5},
    ).json()
    j = client.post(f"/api/tables/{t['id']}/join", json={"name": "Idle"}).json()
    client.app.state.hub.rooms[t["id"]].row.turn_timer = 0.02  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as conn:
        conn.send_json({"type": "hello", "token": j["token"]})
        assert conn.receive_json()["type"] == "welcome"
        for _ in range(200):
            msg = conn.receive_json()
            if msg["type"] == "ack" and msg.get("by") == "timer":
                choice = msg["choice"]
                assert choice["text"] == msg["action"]
                assert choice["cards"] and all(isinstance(c, str) for c in choice["cards"]), choice
                return
    raise AssertionError("the timer never played for the idle seat")
