"""The table life cycle with real accounts (sessions with their CSRF token, programs with API tokens):
a rated game against a bot played to the end from a signed-in socket, play again between a person and a
program, and a page's request without its CSRF token changing nothing."""

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

from sushigo.server.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'life-accounts.sqlite3'}", grace=0.2, bot_delay=0.0)
    with TestClient(app) as c:
        yield c


def wait_status(client: TestClient, tid: str, status: str, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        if t["status"] == status:
            return t
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not reach {status}")


def test_a_rated_game_then_play_again_between_a_person_and_a_program(
    client: TestClient, seating: Any
) -> None:
    accounts = seating.Accounts(client)
    ann = accounts.make("ann_life", program=False)
    bot = accounts.make("prog_life", program=True)
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random", "name": "Rando"}]
    made = client.post("/api/tables", json={"seats": seats, "rated": True}, headers=ann.headers)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert made.json()["rated"] and made.json()["turn_timer"] == 60.0
    for who in (ann, bot):
        r = client.post(f"/api/tables/{tid}/join", json={"name": "ignored"}, headers=who.headers)
        assert r.status_code == 200, r.text
    # the person plays from a signed-in socket (no token); the program's seat is played by its stand-in
    with client.websocket_connect(f"/ws/tables/{tid}", headers=ann.ws_headers) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["seat"] == 0
        while True:
            msg = ws.receive_json()
            if msg["type"] != "state":
                continue
            if msg["view"]["is_over"]:
                break
            if msg["legal"] and msg["pick"] is None:
                ws.send_json({"type": "action", "action": msg["legal"][0], "state_id": msg["state_id"]})
    done = wait_status(client, tid, "finished")
    assert done["rated"] and [s["account"] for s in done["seats"]] == ["ann_life", "prog_life", None]

    # a page's request without its CSRF token is refused and changes nothing
    no_csrf = {k: v for k, v in ann.headers.items() if k.lower() != "x-csrf-token"}
    r = client.post(f"/api/tables/{tid}/rematch", headers=no_csrf)
    assert r.status_code == 403 and r.json()["detail"].startswith("csrf/failed")
    assert client.get(f"/api/tables/{tid}").json()["rematch"] is None

    again = client.post(f"/api/tables/{tid}/rematch", headers=bot.headers)  # the program asks
    assert again.status_code == 201, again.text
    new = again.json()["table"]
    assert new["rated"] and new["rematch_of"] == tid and again.json()["invites"] == 2
    assert [(s["name"], s["reserved"]) for s in new["seats"]] == [
        ("ann_life", True),
        ("prog_life", True),
        ("Rando", False),
    ]
    mine = client.get("/api/me/tables", headers=ann.headers).json()["tables"]
    assert [(m["table"]["id"], m["invited"]) for m in mine] == [(new["id"], True)]
    # a guest cannot accept an account's seat; the accounts accept without any token
    r = client.post(f"/api/tables/{new['id']}/accept")
    assert r.status_code == 401 and r.json()["code"] == "auth/required"
    for i, who in enumerate((ann, bot)):
        r = client.post(f"/api/tables/{new['id']}/accept", headers=who.headers)
        assert r.status_code == 200 and r.json()["seat"] == i, r.text
    playing = wait_status(client, new["id"], "playing")
    assert [s["account"] for s in playing["seats"]] == ["ann_life", "prog_life", None]
    assert playing["seats"][1]["program"]
    # the person concedes: the stand-in finishes the seat, which is listed as conceded
    assert client.post(f"/api/tables/{new['id']}/concede", headers=ann.headers).status_code == 204
    finished = wait_status(client, new["id"], "finished")
    assert finished["seats"][0]["conceded"] and finished["seats"][0]["account"] == "ann_life"
    row = client.app.state.hub.store.load_table(new["id"])  # type: ignore[attr-defined]
    assert row.result["conceded"] == [0]


def test_joining_a_rated_table_with_bots_counts_towards_the_hourly_limit(
    tmp_path: Path, seating: Any
) -> None:
    """An account already at its limit of rated games against bots cannot take a seat at another such
    table either (only creating one was checked before), and the refusal changes no seat."""
    from sushigo.server.limits import Limits

    app = create_app(
        f"sqlite:///{tmp_path / 'rated-join.sqlite3'}",
        grace=0.2,
        bot_delay=5.0,
        limits=Limits(rated_per_hour=1, http_rate=1000, http_burst=1000),
    )
    with TestClient(app) as client:
        accounts = seating.Accounts(client)
        ann = accounts.make("ann_limit", program=False)
        bob = accounts.make("bob_limit", program=False)
        own = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
        mine = client.post("/api/tables", json={"seats": own, "rated": True}, headers=bob.headers)
        assert mine.status_code == 201, mine.text
        theirs = client.post("/api/tables", json={"seats": own, "rated": True}, headers=ann.headers)
        assert theirs.status_code == 201, theirs.text
        tid = theirs.json()["id"]
        refused = client.post(f"/api/tables/{tid}/join", json={}, headers=bob.headers)
        assert refused.status_code == 429 and refused.json()["detail"].startswith("rated/limit:"), (
            refused.text
        )
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert not any(s["taken"] for s in seats if s["kind"] == "human")
