"""The HTTP API in process: validation, lobby lists, OpenAPI, docs/protocol.md, bots, timers, stand-ins."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from sushigo.server import schemas, ws
from sushigo.server.app import create_app
from sushigo.server.protocol_doc import ARROWS, render

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'api.sqlite3'}", grace=0.2, bot_delay=0.0)
    with TestClient(app) as c:
        yield c


def wait_status(client: TestClient, tid: str, status: str, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        if t["status"] == status:
            return t
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not reach {status}")


def test_every_endpoint_is_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {
        "/api/games",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/record",
        "/api/tables/{table_id}/replay",
        "/",
        "/t/{table_id}",
        "/replay/{table_id}",
        "/api/health",
        "/healthz",
    } <= set(paths)


def test_protocol_doc_matches_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert render(text) == text, "run: python -m sushigo.server.protocol_doc docs/protocol.md"
    for direction, models in schemas.DIRECTIONS:
        for model in models:
            assert f"### `{schemas.message_type(model)}` ({ARROWS[direction]})" in text, model.__name__


def test_every_client_message_is_parsed_and_handled() -> None:
    """schemas.CLIENT_MESSAGES is the one list: ws parses and dispatches exactly those types."""
    kinds = [schemas.message_type(m) for m in schemas.CLIENT_MESSAGES]
    assert len(set(kinds)) == len(kinds)
    assert set(ws.MODELS) == set(ws.HANDLERS) == set(kinds)
    for model in schemas.CLIENT_MESSAGES:
        kind = schemas.message_type(model)
        assert ws.MODELS[kind] is model and ws.HANDLERS[kind] is getattr(ws.Connection, f"on_{kind}")


def test_a_reply_may_share_its_requests_type_but_one_direction_may_not_repeat_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = schemas.ws_message_schemas()
    assert found["client", "chat"]["title"] == "ChatMessage"
    assert found["server", "chat"]["title"] == "ChatOut"
    monkeypatch.setattr(schemas, "DIRECTIONS", (("client", (schemas.PingMessage, schemas.PingMessage)),))
    with pytest.raises(ValueError, match="two client messages have the type 'ping'"):
        schemas.ws_message_schemas()


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "nobody"}]}, 400),
        ({"game": "sushi-roll", "seats": [{"kind": "human"}] * 2, "options": {"dummy": True}}, 422),
        ({"game": "sushi-go", "seats": [{"kind": "human"}] * 3, "options": {"dummy": True}}, 422),
        ({"game": "sushi-go", "seats": [{"kind": "human"}] * 6}, 422),
        ({"game": "chess", "seats": [{"kind": "human"}] * 2}, 422),
        ({"game": "sushi-go", "seats": [{"kind": "human"}] * 2, "turn_timer": 1}, 422),
    ],
)
def test_bad_tables_are_refused(client: TestClient, body: dict[str, Any], status: int) -> None:
    assert client.post("/api/tables", json=body).status_code == status


def test_seats_are_taken_once_and_bot_seats_never(client: TestClient) -> None:
    t = client.post(
        "/api/tables", json={"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    ).json()
    assert t["status"] == "open"
    assert client.post(f"/api/tables/{t['id']}/join", json={"name": "A", "seat": 1}).status_code == 400
    assert t["id"] in [x["id"] for x in client.get("/api/tables?status=open").json()["tables"]]
    assert client.get(f"/api/tables/{t['id']}/record").status_code == 409
    j = client.post(f"/api/tables/{t['id']}/join", json={"name": "A"}).json()
    assert j["seat"] == 0 and len(j["token"]) >= 32
    assert client.post(f"/api/tables/{t['id']}/join", json={"name": "B"}).status_code == 409
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get(f"/api/tables/{t['id']}").json()["status"] == "playing"


def test_an_absent_player_is_replaced_by_a_bot_and_the_game_can_be_replayed(client: TestClient) -> None:
    t = client.post(
        "/api/tables", json={"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    ).json()
    client.post(f"/api/tables/{t['id']}/join", json={"name": "Away"})
    done = wait_status(client, t["id"], "finished")
    assert done["winners"] is not None and len(done["totals"]) == 2
    record = client.get(f"/api/tables/{t['id']}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    assert "seed" not in record.json()
    replay = client.get(f"/api/tables/{t['id']}/replay").json()
    # One frame per turn at least (server/replay.py adds the forced last turns and round ends).
    assert len(replay["frames"]) >= 1 + 3 * 9 and replay["frames"][-1]["view"]["is_over"]
    assert t["id"] in [x["id"] for x in client.get("/api/tables?status=finished").json()["tables"]]


def test_the_turn_timer_lets_a_bot_pick_for_a_connected_but_idle_player(client: TestClient) -> None:
    t = client.post(
        "/api/tables",
        json={"game": "sushi-roll", "seats": [{"kind": "human"}, {"kind": "bot"}], "turn_timer": 5},
    ).json()
    j = client.post(f"/api/tables/{t['id']}/join", json={"name": "Idle"}).json()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.rooms[t["id"]].row.turn_timer = 0.02
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": j["token"]})
        assert ws.receive_json()["type"] == "welcome"
        seen_deadline = False
        timer_acks = 0
        while True:
            msg = ws.receive_json()
            if msg["type"] == "presence":
                assert msg["connected"][0] and not msg["standin"][0]
                continue
            if msg["type"] == "ack":  # the timer tells the seat what it played for it, in words
                assert msg["by"] == "timer" and msg["label"] and "_" not in msg["label"], msg
                timer_acks += 1
                continue
            assert msg["type"] == "state"
            assert not msg["table"]["seats"][0]["standin"]
            seen_deadline |= msg["deadline"] is not None
            if msg["view"]["is_over"]:
                break
    assert seen_deadline and timer_acks > 0


def test_static_pages_are_served(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "sushi-go", "seats": [{"kind": "human"}] * 2}).json()
    # An unknown table's or replay's page is an error page (tests/server/test_error_pages.py).
    assert client.get("/t/x").status_code == client.get("/replay/x").status_code == 404
    for path in (
        "/",
        f"/t/{t['id']}",
        "/static/table/main.js",
        "/static/games/index.js",
        "/static/art.js",
        "/static/style.css",
    ):
        assert client.get(path).status_code == 200


def test_a_disconnected_player_gets_a_stand_in_and_takes_the_seat_back(client: TestClient) -> None:
    t = client.post(
        "/api/tables", json={"game": "sushi-roll", "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    tok = [client.post(f"/api/tables/{t['id']}/join", json={"name": n}).json()["token"] for n in "AB"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room = hub.rooms[t["id"]]
    # Seat 1 never connects: after the grace period a bot plays for it whenever it is its turn.
    with client.websocket_connect(f"/ws/tables/{t['id']}") as a:
        a.send_json({"type": "hello", "token": tok[0]})
        deadline = time.monotonic() + 10
        while not room.is_standin(1):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert client.get(f"/api/tables/{t['id']}").json()["seats"][1]["standin"]
        with client.websocket_connect(f"/ws/tables/{t['id']}") as b:
            b.send_json({"type": "hello", "token": tok[1]})
            assert b.receive_json()["type"] == "welcome"
            assert not room.is_standin(1)
            seats = client.get(f"/api/tables/{t['id']}").json()["seats"]
            assert seats[1]["connected"] and not seats[1]["standin"]
