"""Seats that follow accounts: join as an account, the seat back on another device, the newest connection
wins, a revoked token or ended session stops acting at once, deleted accounts in public views."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import delete, select, update
from starlette.websockets import WebSocketDisconnect

from sushigo.server import rooms
from sushigo.server import ws as ws_module
from sushigo.server.accounts import identity
from sushigo.server.accounts.models import api_tokens_t, sessions_t
from sushigo.server.app import create_app
from sushigo.server.store import actions_t


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'seating.sqlite3'}", grace=0.2, bot_delay=0.0)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def accounts(client: TestClient, seating: Any) -> Any:
    return seating.Accounts(client)


def table(client: TestClient, seats: list[dict[str, Any]], game: str = "sushi-go") -> str:
    answer = client.post("/api/tables", json={"game": game, "seats": seats})
    assert answer.status_code == 201, answer.text
    tid: str = answer.json()["id"]
    return tid


def until(ws: Any, kind: str, also: tuple[str, ...] = ()) -> dict[str, Any]:
    """The next message of ``kind`` or of a kind in ``also`` (presence and chat in between are
    skipped)."""
    for _ in range(50):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind or msg["type"] in also:
            return msg
        assert msg["type"] in ("presence", "chat", "picked", "state", "ack"), msg
    raise AssertionError(f"no {kind} message")


def test_an_account_sits_under_its_name_and_gets_its_own_seat_back(client: TestClient, accounts: Any) -> None:
    tid = table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    alice = accounts.make("alice_w", program=False)
    first = client.post(f"/api/tables/{tid}/join", json={"name": "Someone"}, headers=alice.headers)
    assert first.status_code == 200, first.text
    assert first.json()["seat"] == 0
    seat = client.get(f"/api/tables/{tid}").json()["seats"][0]
    assert (seat["name"], seat["account"], seat["program"], seat["deleted"]) == (
        "alice_w",
        "alice_w",
        False,
        False,
    )
    # A second device: the same seat with a fresh token, never a second seat; the old token is dead.
    again = client.post(f"/api/tables/{tid}/join", json={}, headers=alice.headers)
    assert again.status_code == 200, again.text
    assert again.json()["seat"] == 0 and again.json()["token"] != first.json()["token"]
    assert client.post(f"/api/tables/{tid}/token", json={"token": first.json()["token"]}).status_code == 403
    assert client.post(f"/api/tables/{tid}/token", json={"token": again.json()["token"]}).json() == {
        "seat": 0
    }
    assert client.post(f"/api/tables/{tid}/join", json={"seat": 1}, headers=alice.headers).status_code == 409
    # A guest still needs a name; a program is marked as one.
    assert client.post(f"/api/tables/{tid}/join", json={}).status_code == 422
    bot = accounts.make("prog_b", program=True)
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=bot.headers).json()["seat"] == 1
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert seats[1]["account"] == "prog_b" and seats[1]["program"] and seats[2]["account"] is None
    room = client.app.state.hub.rooms[tid]  # type: ignore[attr-defined]
    assert room.row.status == "playing"
    assert [(s.user_id, s.program) for s in room.row.seats[:2]] == [
        (alice.user_id, False),
        (bot.user_id, True),
    ]


def test_a_rated_table_refuses_guests(client: TestClient, accounts: Any) -> None:
    tid = table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    client.app.state.hub.rooms[tid].row.rated = True  # type: ignore[attr-defined]
    refused = client.post(f"/api/tables/{tid}/join", json={"name": "Guest"})
    assert refused.status_code == 403, refused.text
    assert refused.json()["detail"].startswith("seat/account_required:")
    who = accounts.make("rated_one", program=False)
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=who.headers).status_code == 200


def test_hello_without_a_token_seats_the_account_and_the_newest_connection_wins(
    client: TestClient, accounts: Any
) -> None:
    tid = table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    who = accounts.make("mover", program=False)
    stranger = accounts.make("stranger", program=False)
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=who.headers).status_code == 200
    url = f"/ws/tables/{tid}"
    with client.websocket_connect(url, headers=stranger.ws_headers) as other:
        other.send_json({"type": "hello"})
        assert other.receive_json()["seat"] is None  # an account without a seat here watches
    with client.websocket_connect(url, headers=who.ws_headers) as old:
        old.send_json({"type": "hello"})
        assert old.receive_json()["seat"] == 0
        state = until(old, "state")
        assert state["view"]["seat"] == 0 and state["legal"]
        with client.websocket_connect(url, headers=who.ws_headers) as new:
            new.send_json({"type": "hello"})
            assert new.receive_json()["seat"] == 0
            moved = until(old, "error")
            assert moved["code"] == "seat/moved"
            assert old.receive_json() == {"type": "moved"}
            watching = until(old, "state")
            assert watching["view"]["seat"] is None and watching["legal"] == []
            # The old connection cannot act for the seat any more; the new one can.
            old.send_json({"type": "action", "action": state["legal"][0], "state_id": state["state_id"]})
            assert until(old, "error")["code"] == "auth/required"
            fresh = until(new, "state")
            new.send_json({"type": "action", "action": fresh["legal"][0], "state_id": fresh["state_id"]})
            assert until(new, "ack")["state_id"] > fresh["state_id"]


def test_a_guest_seat_token_also_moves_to_the_newest_connection(client: TestClient) -> None:
    tid = table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    token = client.post(f"/api/tables/{tid}/join", json={"name": "Guest"}).json()["token"]
    with client.websocket_connect(f"/ws/tables/{tid}") as old:
        old.send_json({"type": "hello", "token": token})
        assert old.receive_json()["seat"] == 0
        with client.websocket_connect(f"/ws/tables/{tid}") as new:
            new.send_json({"type": "hello", "token": token})
            assert new.receive_json()["seat"] == 0
            assert until(old, "error")["code"] == "seat/moved"
            assert old.receive_json()["type"] == "moved"


@pytest.mark.parametrize("program", [True, False])
def test_a_revoked_token_or_ended_session_stops_acting_at_once(
    client: TestClient, accounts: Any, program: bool
) -> None:
    tid = table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    who = accounts.make("revoked_p" if program else "signed_out", program=program)
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=who.headers).status_code == 200
    with client.websocket_connect(f"/ws/tables/{tid}", headers=who.ws_headers) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["seat"] == 0
        state = until(ws, "state")
        who.revoke()
        # Told at once, before it tries anything (before the pong), and the connection ends; its
        # action never counts.
        ws.send_json({"type": "ping"})
        told = until(ws, "error", also=("pong",))
        assert told["code"] == "auth/ended", told
        ws.send_json({"type": "action", "action": state["legal"][0], "state_id": state["state_id"]})
        with pytest.raises(WebSocketDisconnect):
            for _ in range(20):
                ws.receive_json()
        # No action of seat 0 was the player's (a stand-in may play the seat once it is absent).
        store = client.app.state.hub.store  # type: ignore[attr-defined]
        with store.engine.connect() as conn:
            bys = conn.execute(
                select(actions_t.c.by).where(actions_t.c.table_id == tid, actions_t.c.seat == 0)
            ).scalars()
            assert "human" not in set(bys)
    # The account's new connection is a guest's now: it watches.
    with client.websocket_connect(f"/ws/tables/{tid}", headers=who.ws_headers) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["seat"] is None


def test_a_session_gone_without_a_hook_is_refused_at_the_next_action(
    client: TestClient, accounts: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session that expires announces nothing: the action asks the accounts again."""
    monkeypatch.setattr(ws_module, "IDENTITY_RECHECK", 0.0)
    tid = table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    who = accounts.make("expiring", program=False)
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=who.headers).status_code == 200
    with client.websocket_connect(f"/ws/tables/{tid}", headers=who.ws_headers) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["seat"] == 0
        state = until(ws, "state")
        hub = client.app.state.hub  # type: ignore[attr-defined]
        with hub.store.engine.begin() as conn:
            conn.execute(delete(sessions_t).where(sessions_t.c.user_id == who.user_id))
        ws.send_json({"type": "action", "action": state["legal"][0], "state_id": state["state_id"]})
        assert until(ws, "error")["code"] == "auth/ended"
        with pytest.raises(WebSocketDisconnect):
            for _ in range(20):
                ws.receive_json()
        assert all(seat != 0 for seat, _ in hub.rooms[tid].row.actions)


def test_a_deleted_account_shows_as_deleted_without_its_name(
    client: TestClient, accounts: Any, seating: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rooms, "ACCOUNT_RECHECK", 0.0)
    tid = table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    who = accounts.make("leaving", program=False)
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=who.headers).status_code == 200
    gone = client.request("DELETE", "/api/me", json={"password": seating.PASSWORD}, headers=who.headers)
    assert gone.status_code == 204, gone.text
    seat = client.get(f"/api/tables/{tid}").json()["seats"][0]
    assert (seat["name"], seat["account"], seat["deleted"]) == (None, None, True)
    lobby = client.get("/api/tables").json()["tables"]
    assert [t["seats"][0]["deleted"] for t in lobby if t["id"] == tid] == [True]


def test_a_seat_a_program_opened_is_a_programs_for_good(client: TestClient, accounts: Any) -> None:
    tid = table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    who = accounts.make("two_faced", program=False)
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=who.headers).status_code == 200
    assert not client.get(f"/api/tables/{tid}").json()["seats"][0]["program"]
    made = client.post("/api/me/tokens", json={"label": "bot"}, headers=who.headers)
    assert made.status_code == 201, made.text
    client.cookies.clear()
    bearer = {"Authorization": f"Bearer {made.json()['token']}"}
    with client.websocket_connect(f"/ws/tables/{tid}", headers=bearer) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["seat"] == 0
        assert until(ws, "state")["table"]["seats"][0]["program"]
    # The person comes back: the seat stays marked (a program played it), on the server and in storage.
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=who.headers).status_code == 200
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["program"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.store.load_table(tid).seats[0].program


def test_a_token_revoked_while_its_socket_says_hello_is_still_refused(
    client: TestClient, accounts: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The revocation lands after the handshake's look-up and before the connection is in its room."""
    tid = table(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    who = accounts.make("racing", program=True)
    assert client.post(f"/api/tables/{tid}/join", json={}, headers=who.headers).status_code == 200
    real = identity.identify_socket
    app_state = client.app.state  # type: ignore[attr-defined]

    async def look_up_then_revoke(websocket: Any) -> Any:
        found = await real(websocket)
        with app_state.hub.store.engine.begin() as conn:
            conn.execute(
                update(api_tokens_t).where(api_tokens_t.c.user_id == who.user_id).values(revoked_at=1.0)
            )
        for hook in app_state.accounts.revoked:
            hook(found.token_id)
        monkeypatch.setattr(identity, "identify_socket", real)
        return found

    monkeypatch.setattr(identity, "identify_socket", look_up_then_revoke)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=who.ws_headers) as ws:
        ws.send_json({"type": "hello"})
        ws.send_json({"type": "ping"})  # its pong would come first if the socket were still seated
        assert ws.receive_json()["seat"] == 0
        kinds = []
        with pytest.raises(WebSocketDisconnect):
            for _ in range(20):
                kinds.append(ws.receive_json()["type"])
                assert kinds[-1] != "pong", kinds
    assert "error" in kinds
