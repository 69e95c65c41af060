"""The table life cycle over HTTP and WebSocket (issue 21): rated tables, cancel, leave, concede, play
again (accept and decline, for an account and for a guest), quick play and its bot fill, my tables.

Every refusal is checked to answer a JSON error with its code and to change nothing. Accounts come from a
stand-in for ``identify`` (header ``X-Test-User: <id>:<name>``), so these tests need no accounts module;
each caller gets its own address through ``X-Forwarded-For`` (quick play keeps one wait per address).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from sushigo.server.accounts import identity as accounts_identity
from sushigo.server.accounts.identity import Identity
from sushigo.server.app import create_app
from sushigo.server.limits import Limits


async def _fake_identify(request: Any) -> Identity | None:
    who = request.headers.get("x-test-user")
    if not who:
        return None
    uid, name = who.split(":", 1)
    return Identity(int(uid), name)


def make_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: str | None = None, **limits: Any
) -> Iterator[TestClient]:
    monkeypatch.setattr(accounts_identity, "identify", _fake_identify)
    app = create_app(
        database or f"sqlite:///{tmp_path / 'life.sqlite3'}",
        grace=0.2,
        bot_delay=0.0,
        limits=Limits(forwarded_header="X-Forwarded-For", http_rate=1000, http_burst=1000, **limits),
    )
    with TestClient(app) as c:
        yield c


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    yield from make_client(tmp_path, monkeypatch)


def user(uid: int, name: str) -> dict[str, str]:
    return {"X-Test-User": f"{uid}:{name}", "X-Forwarded-For": f"10.0.0.{uid}"}


def at(n: int) -> dict[str, str]:
    """A guest at address 10.1.0.n."""
    return {"X-Forwarded-For": f"10.1.0.{n}"}


def table(client: TestClient, tid: str) -> dict[str, Any]:
    t: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
    return t


def wait_status(client: TestClient, tid: str, status: str, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t = table(client, tid)
        if t["status"] == status:
            return t
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not reach {status}: {table(client, tid)['status']}")


def refused(client: TestClient, tid: str, call: Callable[[], Any], status: int, code: str) -> dict[str, Any]:
    """``call`` is refused with ``status`` and ``code``, and the table is exactly as before."""
    before = table(client, tid)
    r = call()
    assert r.status_code == status, r.text
    body = r.json()
    assert body["detail"].startswith(code + ":"), body
    assert body.get("code", code) == code, body  # the older endpoints (join) answer the detail only
    after = table(client, tid)
    assert kept(after) == kept(before)
    return dict(body)


#: what a table's listing says about who is here right now, not what is stored: a stand-in bot takes an
#: absent player's seat on its own timer, which a loaded machine can reach between two reads
PRESENCE = ("connected", "standin")


def kept(t: dict[str, Any]) -> dict[str, Any]:
    """A table's listing without its live presence (spectators, connected and stand-in seats)."""
    out = {k: v for k, v in t.items() if k != "spectators"}
    out["seats"] = [{k: v for k, v in seat.items() if k not in PRESENCE} for seat in t["seats"]]
    return out


def stored(client: TestClient) -> int:
    """How many tables the database holds (the lobby's list is cached for a second)."""
    return len(client.app.state.hub.store.list_page(None, 100))  # type: ignore[attr-defined]


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    headers = extra.pop("headers", at(99))
    r = client.post("/api/tables", json={"game": "sushi-go", "seats": seats, **extra}, headers=headers)
    assert r.status_code == 201, r.text
    t: dict[str, Any] = r.json()
    return t


def join(client: TestClient, tid: str, name: str, headers: dict[str, str] | None = None) -> str:
    r = client.post(f"/api/tables/{tid}/join", json={"name": name}, headers=headers)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def hello(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    welcome: dict[str, Any] = ws.receive_json()
    assert welcome["type"] == "welcome"
    return welcome


def next_state(ws: WebSocketTestSession, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state" and pred(msg):
            return msg


def play_to_end(ws: WebSocketTestSession) -> dict[str, Any]:
    """Plays the connected seat's first legal action at every decision until the game is over."""
    while True:
        msg = ws.receive_json()
        if msg["type"] != "state":
            continue
        if msg["view"]["is_over"]:
            return dict(msg)
        if msg["legal"] and msg["pick"] is None:
            ws.send_json({"type": "action", "action": msg["legal"][0], "state_id": msg["state_id"]})


def finished_by_standins(
    client: TestClient, seats: list[dict[str, Any]], names: list[str]
) -> tuple[str, list[str]]:
    """A finished table whose guests joined and never connected: stand-ins played their seats."""
    t = create(client, seats)
    tokens = [join(client, t["id"], n) for n in names]
    wait_status(client, t["id"], "finished")
    return t["id"], tokens


# ------------------------------------------------------------------------------------------ rated


def test_rated_tables_need_an_account_a_timer_and_a_bound_on_bot_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for client in make_client(tmp_path, monkeypatch, rated_per_hour=1):
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        r = client.post("/api/tables", json={"seats": seats, "rated": True})
        assert r.status_code == 403 and r.json()["detail"].startswith("table/account_required:")
        assert stored(client) == 0  # nothing was made
        t = create(client, seats, rated=True, headers=user(1, "Ann"))
        assert t["rated"] and t["turn_timer"] == 60.0 and t["manage"]
        assert client.app.state.hub.rooms[t["id"]].row.created_user == 1  # type: ignore[attr-defined]
        # a second rated game against bots within the hour is refused, and nothing is made
        r = client.post("/api/tables", json={"seats": seats, "rated": True}, headers=user(1, "Ann"))
        assert r.status_code == 429 and r.json()["detail"].startswith("rated/limit:")
        assert stored(client) == 1
        # another account, or a rated table of people only, or an unrated one, is not bounded
        assert create(client, seats, rated=True, headers=user(2, "Bob"))["rated"]
        people = create(client, [{"kind": "human"}] * 2, rated=True, turn_timer=30, headers=user(1, "Ann"))
        assert people["turn_timer"] == 30
        assert not create(client, seats, headers=user(1, "Ann"))["rated"]


def test_a_rated_game_against_bots_is_played_to_the_end(client: TestClient) -> None:
    t = create(
        client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], rated=True, headers=user(3, "Cy")
    )
    refused(
        client,
        t["id"],
        lambda: client.post(f"/api/tables/{t['id']}/join", json={"name": "Cy"}),
        403,
        "seat/account_required",
    )
    token = join(client, t["id"], "Cy", user(3, "Cy"))
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, token)
        last = play_to_end(ws)
    assert last["table"]["status"] == "finished" and last["table"]["rated"]
    done = table(client, t["id"])
    assert done["status"] == "finished" and done["rated"] and done["totals"] is not None
    row = client.app.state.hub.store.load_table(t["id"])  # type: ignore[attr-defined]
    assert row.rated and row.created_user == 3 and "conceded" not in row.result


# ----------------------------------------------------------------------------------------- cancel


def test_the_creator_cancels_an_open_table_and_others_cannot(client: TestClient) -> None:
    t = create(client, [{"kind": "human"}] * 2, headers=at(1))
    tid = t["id"]
    seat_token = join(client, tid, "Ann")
    cancel = f"/api/tables/{tid}/cancel"
    refused(client, tid, lambda: client.post(cancel, headers=at(2)), 401, "auth/required")
    refused(client, tid, lambda: client.post(cancel, json={"token": seat_token}), 403, "table/not_creator")
    refused(client, tid, lambda: client.post(cancel, headers=user(5, "Eve")), 403, "table/not_creator")
    r = client.post(cancel, json={"token": "x"})
    assert r.status_code == 422  # not a token's form: refused before anything
    assert (
        client.post("/api/tables/nope/cancel", json={"token": t["manage"]}).json()["code"]
        == "table/not_found"
    )
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws, seat_token)
        next_state(ws, lambda m: True)
        assert client.post(cancel, json={"token": t["manage"]}).status_code == 204
        told = next_state(ws, lambda m: m["table"]["status"] != "open")
        assert told["table"]["status"] == "cancelled"
    assert table(client, tid)["status"] == "cancelled"
    listed = [x["id"] for x in client.get("/api/tables").json()["tables"]]
    assert tid not in listed
    assert client.get(f"/replay/{tid}").status_code == 409  # no replay page pretends it is still on
    assert "abandoned" in client.get(f"/replay/{tid}").text
    assert client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).status_code == 409
    r = client.post(cancel, json={"token": t["manage"]})
    assert r.status_code == 409 and r.json()["code"] == "table/closed"


def test_an_account_cancels_its_table_but_not_a_started_one(client: TestClient) -> None:
    mine = create(client, [{"kind": "human"}] * 2, headers=user(4, "Dee"))
    assert client.post(f"/api/tables/{mine['id']}/cancel", headers=user(4, "Dee")).status_code == 204
    assert table(client, mine["id"])["status"] == "cancelled"
    started = create(client, [{"kind": "human"}, {"kind": "bot"}], turn_timer=600, headers=user(4, "Dee"))
    join(client, started["id"], "Dee")
    refused(
        client,
        started["id"],
        lambda: client.post(f"/api/tables/{started['id']}/cancel", headers=user(4, "Dee")),
        409,
        "table/started",
    )


# ------------------------------------------------------------------------------------------ leave


def test_a_player_leaves_an_open_table(client: TestClient) -> None:
    t = create(client, [{"kind": "human"}] * 3)
    tid = t["id"]
    ann, bob = join(client, tid, "Ann"), join(client, tid, "Bob")
    leave = f"/api/tables/{tid}/leave"
    refused(client, tid, lambda: client.post(leave), 401, "auth/required")
    refused(client, tid, lambda: client.post(leave, json={"token": "z" * 32}), 403, "auth/invalid")
    refused(client, tid, lambda: client.post(leave, headers=user(6, "Fay")), 403, "auth/invalid")
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert hello(ws, bob)["seat"] == 1
        next_state(ws, lambda m: True)
        assert client.post(leave, json={"token": bob}).status_code == 204
        after = next_state(ws, lambda m: not m["table"]["seats"][1]["taken"])
        assert after["view"]["seat"] is None  # the old connection now watches
    seats = table(client, tid)["seats"]
    assert [s["taken"] for s in seats] == [True, False, False] and seats[1]["name"] is None
    assert client.post(f"/api/tables/{tid}/token", json={"token": bob}).status_code == 403
    # the freed seat is anyone's; a full table that started cannot be left
    join(client, tid, "Cal")
    join(client, tid, "Dan")
    assert table(client, tid)["status"] == "playing"
    refused(client, tid, lambda: client.post(leave, json={"token": ann}), 409, "table/started")


# ---------------------------------------------------------------------------------------- concede


def test_a_player_concedes_and_a_bot_plays_the_seat_to_the_end(client: TestClient) -> None:
    t = create(client, [{"kind": "human"}] * 2)
    tid = t["id"]
    ann = join(client, tid, "Ann")
    concede = f"/api/tables/{tid}/concede"
    refused(client, tid, lambda: client.post(concede, json={"token": ann}), 409, "table/not_started")
    bob = join(client, tid, "Bob")
    refused(client, tid, lambda: client.post(concede), 401, "auth/required")
    refused(client, tid, lambda: client.post(concede, json={"token": "q" * 32}), 403, "auth/invalid")
    with (
        client.websocket_connect(f"/ws/tables/{tid}") as a,
        client.websocket_connect(f"/ws/tables/{tid}") as b,
    ):
        assert hello(a, ann)["seat"] == 0
        assert hello(b, bob)["seat"] == 1
        next_state(a, lambda m: True)  # attached
        assert client.post(concede, json={"token": ann}).status_code == 204
        spectating = next_state(a, lambda m: m["table"]["seats"][0]["conceded"])
        assert spectating["view"]["seat"] is None and spectating["legal"] == []
        last = play_to_end(b)  # seat 0 is played by the stand-in meanwhile
    assert last["table"]["seats"][0]["conceded"] and last["table"]["seats"][0]["name"] == "Ann"
    done = wait_status(client, tid, "finished")
    assert done["seats"][0]["conceded"] and not done["seats"][1]["conceded"]
    assert done["seats"][0]["taken"]  # a conceded seat is nobody's to join
    row = client.app.state.hub.store.load_table(tid)  # type: ignore[attr-defined]
    assert row.result["conceded"] == [0]
    assert client.post(f"/api/tables/{tid}/token", json={"token": ann}).status_code == 403
    r = client.post(concede, json={"token": bob})
    assert r.status_code == 409 and r.json()["code"] == "table/finished"


def test_a_second_concede_is_refused_while_the_game_runs(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.grace = 3600.0  # nobody connects, and no stand-in plays for them: the game stays running
    r = client.post("/api/quickplay", json={"players": 2, "wait_seconds": 120}, headers=user(8, "Hal"))
    tid = r.json()["table_id"]
    assert (
        client.post(
            "/api/quickplay", json={"players": 2, "wait_seconds": 120}, headers=user(9, "Ida")
        ).json()["table_id"]
        == tid
    )
    assert wait_status(client, tid, "playing")
    concede = f"/api/tables/{tid}/concede"
    assert client.post(concede, headers=user(8, "Hal")).status_code == 204
    refused(client, tid, lambda: client.post(concede, headers=user(8, "Hal")), 409, "seat/conceded")
    # joining again does not take the seat back from the bot (the table is full), nor does a socket
    refused(
        client,
        tid,
        lambda: client.post(f"/api/tables/{tid}/join", json={"name": "x"}, headers=user(8, "Hal")),
        409,
        "table/full",
    )
    seats = table(client, tid)["seats"]
    assert [(s["name"], s["conceded"]) for s in seats] == [("Hal", True), ("Ida", False)]


# ----------------------------------------------------------------------------------- play again


def test_play_again_for_guests_accept_and_decline(client: TestClient) -> None:
    old, (ann, bob) = finished_by_standins(
        client,
        [{"kind": "human"}, {"kind": "bot", "bot": "greedy", "name": "Robo"}, {"kind": "human"}],
        ["Ann", "Bob"],
    )
    rematch = f"/api/tables/{old}/rematch"
    refused(client, old, lambda: client.post(rematch), 401, "auth/required")
    refused(client, old, lambda: client.post(rematch, json={"token": "s" * 32}), 403, "auth/invalid")
    with client.websocket_connect(f"/ws/tables/{old}") as watcher:
        hello(watcher, None)
        r = client.post(rematch, json={"token": ann}, headers=at(5))
        assert r.status_code == 201, r.text
        made = r.json()
        new = made["table"]["id"]
        while (msg := watcher.receive_json())["type"] != "rematch":
            pass
        assert msg == {"type": "rematch", "table": new, "from": "Ann"}
    assert made["invites"] == 2 and made["table"]["rematch_of"] == old and made["manage"]
    assert table(client, old)["rematch"] == new
    seats = made["table"]["seats"]
    assert [(s["name"], s["reserved"], s["taken"]) for s in seats] == [
        ("Ann", True, False),
        ("Robo", False, True),
        ("Bob", True, False),
    ]
    assert seats[1]["bot"] == "greedy"
    again = client.post(rematch, json={"token": bob}, headers=at(6)).json()  # the same table, once
    assert again["table"]["id"] == new and again["manage"] is None
    # reserved seats are nobody else's
    refused(
        client, new, lambda: client.post(f"/api/tables/{new}/join", json={"name": "Zed"}), 409, "table/full"
    )
    refused(
        client,
        new,
        lambda: client.post(f"/api/tables/{new}/join", json={"name": "Zed", "seat": 0}),
        409,
        "seat/taken",
    )
    accept, decline = f"/api/tables/{new}/accept", f"/api/tables/{new}/decline"
    refused(client, new, lambda: client.post(accept), 401, "auth/required")
    refused(
        client, new, lambda: client.post(accept, json={"from_token": "w" * 32}), 403, "rematch/not_invited"
    )
    r = client.post(accept, json={"from_token": ann})
    assert r.status_code == 200 and r.json()["seat"] == 0
    new_ann = r.json()["token"]
    refused(client, new, lambda: client.post(accept, json={"from_token": ann}), 403, "rematch/not_invited")
    assert client.post(f"/api/tables/{new}/token", json={"token": new_ann}).json() == {"seat": 0}
    assert client.post(decline, json={"from_token": bob}).status_code == 204
    seats = table(client, new)["seats"]
    assert [(s["name"], s["reserved"], s["taken"]) for s in seats] == [
        ("Ann", False, True),
        ("Robo", False, True),
        (None, False, False),
    ]
    refused(client, new, lambda: client.post(decline, json={"from_token": bob}), 403, "rematch/not_invited")
    join(client, new, "Zed")
    assert table(client, new)["status"] == "playing"
    refused(
        client,
        old,
        lambda: client.post(f"/api/tables/{new}/rematch", json={"token": new_ann}),
        409,
        "table/not_finished",
    )


def test_play_again_for_accounts(client: TestClient) -> None:
    first = client.post("/api/quickplay", json={"players": 2, "wait_seconds": 120}, headers=user(11, "Kim"))
    tid = first.json()["table_id"]
    second = client.post("/api/quickplay", json={"players": 2, "wait_seconds": 120}, headers=user(12, "Lou"))
    assert second.json()["table_id"] == tid
    wait_status(client, tid, "finished")  # neither connects: stand-ins play
    made = client.post(f"/api/tables/{tid}/rematch", headers=user(11, "Kim"))
    assert made.status_code == 201, made.text
    new = made.json()["table"]["id"]
    assert made.json()["invites"] == 2
    mine = client.get("/api/me/tables", headers=user(12, "Lou")).json()["tables"]
    assert [(m["table"]["id"], m["seat"], m["invited"]) for m in mine] == [(new, None, True)]
    # a guest cannot take an account's seat with some other token
    refused(
        client,
        new,
        lambda: client.post(f"/api/tables/{new}/accept", headers=user(13, "Max")),
        403,
        "rematch/not_invited",
    )
    r = client.post(f"/api/tables/{new}/accept", headers=user(12, "Lou"))
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert client.post(f"/api/tables/{new}/decline", headers=user(11, "Kim")).status_code == 204
    seats = table(client, new)["seats"]
    assert [(s["name"], s["reserved"], s["taken"]) for s in seats] == [
        (None, False, False),
        ("Lou", False, True),
    ]
    mine = client.get("/api/me/tables", headers=user(12, "Lou")).json()["tables"]
    assert [(m["table"]["id"], m["seat"], m["invited"]) for m in mine] == [(new, 1, False)]


def test_unanswered_invites_open_after_their_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for client in make_client(tmp_path, monkeypatch, rematch_reserve_seconds=0.3):
        old, (ann,) = finished_by_standins(client, [{"kind": "human"}, {"kind": "bot"}], ["Ann"])
        new = client.post(f"/api/tables/{old}/rematch", json={"token": ann}).json()["table"]["id"]
        assert table(client, new)["seats"][0]["reserved"]
        deadline = time.monotonic() + 10
        while table(client, new)["seats"][0]["reserved"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        join(client, new, "Zoe")
        assert table(client, new)["status"] == "playing"


# ------------------------------------------------------------------------------------ quick play


def test_quick_play_joins_the_oldest_waiting_table_and_fills_it_with_bots(client: TestClient) -> None:
    quick = "/api/quickplay"
    r = client.post(quick, json={"players": 3, "wait_seconds": 120})
    assert r.status_code == 422 and r.json()["detail"].startswith("name/invalid:")
    r = client.post(quick, json={"players": 3, "wait_seconds": 121, "name": "Ann"})
    assert r.status_code == 422
    r = client.post(quick, json={"players": 9, "wait_seconds": 1, "name": "Ann"})
    assert r.status_code == 422
    assert stored(client) == 0  # refusals made nothing
    a = client.post(quick, json={"players": 3, "wait_seconds": 120, "name": "Ann"}, headers=at(1)).json()
    tid = a["table_id"]
    assert a["seat"] == 0 and a["table"]["status"] == "open"
    b = client.post(quick, json={"players": 3, "wait_seconds": 120, "name": "Bob"}, headers=at(2)).json()
    assert b["table_id"] == tid and b["seat"] == 1
    # one wait per caller
    refused(
        client,
        tid,
        lambda: client.post(quick, json={"players": 3, "wait_seconds": 5, "name": "Ann2"}, headers=at(1)),
        409,
        "quickplay/waiting",
    )
    # other sizes, options or games wait elsewhere; a table made by hand is not a quick-play table
    hand = create(client, [{"kind": "human"}] * 3)
    c = client.post(quick, json={"players": 2, "wait_seconds": 120, "name": "Cal"}, headers=at(3)).json()
    assert c["table_id"] not in (tid, hand["id"])
    d = client.post(
        quick,
        json={"players": 3, "wait_seconds": 120, "name": "Dan", "options": {"soy_sauce": True}},
        headers=at(4),
    ).json()
    assert d["table_id"] not in (tid, hand["id"]) and d["table"]["options"] == {"soy_sauce": True}
    # a third player takes the last seat and the game starts at once
    e = client.post(quick, json={"players": 3, "wait_seconds": 0.3, "name": "Eve"}, headers=at(5)).json()
    assert e["table_id"] == tid and e["seat"] == 2
    full = wait_status(client, tid, "playing")
    assert [s["kind"] for s in full["seats"]] == ["human", "human", "human"]
    # the game started, so Ann's wait is over: she may quick-play again; the new table fills with bots after its wait
    f = client.post(quick, json={"players": 4, "wait_seconds": 0.2, "name": "Ann"}, headers=at(1)).json()
    filled = wait_status(client, f["table_id"], "playing")
    assert [s["kind"] for s in filled["seats"]] == ["human", "bot", "bot", "bot"]
    assert all(s["bot"] == "heuristic" for s in filled["seats"][1:])
    # the earliest wait decides: a patient player and then a hasty one get bots after the hasty one's wait
    g = client.post(quick, json={"players": 5, "wait_seconds": 120, "name": "Gus"}, headers=at(6)).json()
    h = client.post(quick, json={"players": 5, "wait_seconds": 0.3, "name": "Hal"}, headers=at(7)).json()
    assert h["table_id"] == g["table_id"] and h["fill_at"] < g["fill_at"]
    filled = wait_status(client, g["table_id"], "playing", timeout=20)
    assert [s["kind"] for s in filled["seats"]] == ["human", "human", "bot", "bot", "bot"]


def test_a_quick_play_table_everyone_left_is_cancelled_not_played_by_bots(client: TestClient) -> None:
    a = client.post("/api/quickplay", json={"players": 2, "wait_seconds": 0.5, "name": "Ann"}, headers=at(1))
    tid, token = a.json()["table_id"], a.json()["token"]
    assert client.post(f"/api/tables/{tid}/leave", json={"token": token}, headers=at(1)).status_code == 204
    wait_status(client, tid, "cancelled")
    # having left, Ann may wait again at once
    again = client.post(
        "/api/quickplay", json={"players": 2, "wait_seconds": 60, "name": "Ann"}, headers=at(1)
    )
    assert again.status_code == 200 and again.json()["table_id"] != tid


# -------------------------------------------------------------------------------------- my tables


def test_my_tables_lists_an_accounts_open_and_playing_tables(client: TestClient) -> None:
    r = client.get("/api/me/tables")
    assert r.status_code == 401 and r.json()["code"] == "auth/required"
    made = create(client, [{"kind": "human"}] * 2, headers=user(21, "Uma"))
    seated = client.post(
        "/api/quickplay", json={"players": 3, "wait_seconds": 60}, headers=user(21, "Uma")
    ).json()
    mine = client.get("/api/me/tables", headers=user(21, "Uma")).json()["tables"]
    assert [(m["table"]["id"], m["seat"], m["creator"]) for m in mine] == [
        (seated["table_id"], 0, False),
        (made["id"], None, True),
    ]
    assert client.get("/api/me/tables", headers=user(22, "Vic")).json() == {"tables": []}


def test_a_connection_whose_seat_was_conceded_before_it_attached_only_watches(client: TestClient) -> None:
    from sushigo.server.client import Client

    t = create(client, [{"kind": "human"}, {"kind": "bot"}], turn_timer=600)
    ann = join(client, t["id"], "Ann")
    room = client.app.state.hub.rooms[t["id"]]  # type: ignore[attr-defined]
    late = Client(room.authenticate(ann))  # said hello with a valid token ...
    assert late.seat == 0
    assert client.post(f"/api/tables/{t['id']}/concede", json={"token": ann}).status_code == 204
    client.portal.call(room.attach, late)  # type: ignore[union-attr]  # ... and attaches after the concede
    assert late.seat is None
    client.portal.call(room.detach, late)  # type: ignore[union-attr]


def test_play_again_keeps_the_party_menu_the_options_and_the_timer(client: TestClient) -> None:
    t = create(
        client,
        [{"kind": "human"}, {"kind": "bot", "bot": "random", "name": "Dice"}],
        game="sushi-go-party",
        menu="my_first_meal",
        turn_timer=42,
    )
    token = join(client, t["id"], "Ann")
    wait_status(client, t["id"], "finished")
    made = client.post(f"/api/tables/{t['id']}/rematch", json={"token": token}).json()["table"]
    old = table(client, t["id"])
    for key in ("game", "players", "options", "menu", "turn_timer", "rated", "name"):
        assert made[key] == old[key], key
    assert made["menu"] == [
        "nigiri",
        "maki",
        "tempura",
        "sashimi",
        "miso_soup",
        "wasabi",
        "tea",
        "green_tea_ice_cream",
    ]
    assert [(s["kind"], s["bot"], s["name"]) for s in made["seats"]] == [
        ("human", None, "Ann"),
        ("bot", "random", "Dice"),
    ]


def test_the_rated_bound_counts_the_accounts_live_rated_tables_with_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables made in the hour and still open or playing count (finished ones too: tests/server/ratings);
    a cancelled one does not."""
    for client in make_client(tmp_path, monkeypatch, rated_per_hour=2):
        seats = [{"kind": "human"}, {"kind": "bot"}]
        first = create(client, seats, rated=True, headers=user(31, "Ola"))
        create(client, seats, rated=True, headers=user(31, "Ola"))
        r = client.post("/api/tables", json={"seats": seats, "rated": True}, headers=user(31, "Ola"))
        assert r.status_code == 429 and r.json()["detail"].startswith("rated/limit:")
        assert client.post(f"/api/tables/{first['id']}/cancel", headers=user(31, "Ola")).status_code == 204
        assert create(client, seats, rated=True, headers=user(31, "Ola"))["rated"]  # a cancelled one is not


def test_two_quick_play_requests_of_one_caller_at_once_wait_once(client: TestClient) -> None:
    import asyncio

    from sushigo.server.client import RoomError
    from sushigo.server.schemas import TableCreate

    hub = client.app.state.hub  # type: ignore[attr-defined]
    body = TableCreate.model_validate({"seats": [{"kind": "human"}] * 3})

    async def both() -> list[Any]:
        return list(
            await asyncio.gather(
                hub.quickplay(body, 60.0, "Ann", None, "10.9.9.9"),
                hub.quickplay(body, 60.0, "Ann", None, "10.9.9.9"),
                return_exceptions=True,
            )
        )

    first, second = client.portal.call(both)  # type: ignore[union-attr]
    assert isinstance(second, RoomError) and second.code == "quickplay/waiting"
    assert not isinstance(first, BaseException) and stored(client) == 1


def test_the_stored_side_on_both_databases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: str
) -> None:
    """The rated count, a cancelled table left out of the lobby, play again and a concede in the
    stored result: SQLite and PostgreSQL."""
    for client in make_client(tmp_path, monkeypatch, database, rated_per_hour=1):
        seats = [{"kind": "human"}, {"kind": "bot"}]
        rated = create(client, seats, rated=True, headers=user(41, "Pia"))
        r = client.post("/api/tables", json={"seats": seats, "rated": True}, headers=user(41, "Pia"))
        assert r.status_code == 429 and r.json()["detail"].startswith("rated/limit:")
        assert (
            client.post(f"/api/tables/{rated['id']}/cancel", json={"token": rated["manage"]}).status_code
            == 204
        )
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == []
        # a cancelled table was not a game: it no longer counts
        again = client.post("/api/tables", json={"seats": seats, "rated": True}, headers=user(41, "Pia"))
        assert again.status_code == 201, again.text
        old, (ann,) = finished_by_standins(client, [{"kind": "human"}, {"kind": "bot"}], ["Ann"])
        new = client.post(f"/api/tables/{old}/rematch", json={"token": ann}).json()["table"]["id"]
        token = client.post(f"/api/tables/{new}/accept", json={"from_token": ann}).json()["token"]
        wait_status(client, new, "playing")
        assert client.post(f"/api/tables/{new}/concede", json={"token": token}).status_code == 204
        wait_status(client, new, "finished")
        hub = client.app.state.hub  # type: ignore[attr-defined]
        row = hub.store.load_table(new)
        assert row.result["conceded"] == [0] and row.rematch_of == old and row.seats[0].conceded
        assert hub.store.load_table(old).rematch == new


def test_my_tables_from_the_database_as_a_cluster_reads_them(tmp_path: Path) -> None:
    """In a cluster "my tables" come from the stored rows: the account's open and playing tables it
    created, sits at or is invited to, newest first; user 5 is not user 55; finished ones are left out."""
    from sushigo.server.store import SeatRow, Store
    from sushigo.server.testing import table_row

    store = Store(f"sqlite:///{tmp_path / 'mine.sqlite3'}")

    def table(
        tid: str, at: float, seats: list[SeatRow], status: str = "open", creator: int | None = None
    ) -> None:
        store.create_table(table_row(tid, seats, status=status, created_at=at, created_user=creator))

    bot = SeatRow("bot", "Bot", "random")
    table("seated", 1.0, [SeatRow("human", "Ann", None, "h", user_id=5), bot], status="playing")
    table("other", 2.0, [SeatRow("human", "Bob", None, "h", user_id=55), bot])
    table("made", 3.0, [SeatRow("human"), bot], creator=5)
    table("invited", 4.0, [SeatRow("human", reserved_for="user:5"), bot])
    table("done", 5.0, [SeatRow("human", "Ann", None, "h", user_id=5), bot], status="finished")
    try:
        assert [row.id for row in store.live_tables_of(5)] == ["invited", "made", "seated"]
        assert [row.id for row in store.live_tables_of(55)] == ["other"]
    finally:
        store.close()
