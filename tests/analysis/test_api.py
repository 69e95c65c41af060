"""The analysis and hint endpoints: only finished games are analysed, whatever the request says; the
answer is 202 while it runs, then the cached document; hints only at unrated tables against bots."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sushigo.server.analysis import Analyses, AnalysisLimits
from sushigo.server.app import create_app

pytestmark = pytest.mark.slow


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'analysis.sqlite3'}", grace=30.0, bot_delay=0.0)
    with TestClient(app) as c:
        app.state.analysis = Analyses(AnalysisLimits(budget=1, hint_budget=1, running=2))
        yield c


def _table(client: TestClient, seats: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "sushi-go", "seats": seats, **more})
    assert r.status_code in (200, 201), r.text
    t: dict[str, Any] = r.json()
    return t


def _wait(client: TestClient, tid: str, status: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.get(f"/api/tables/{tid}").json()["status"] == status:
            return
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not reach {status}")


def _code(r: Any) -> str:
    return str(r.json()["detail"]).split(":")[0]


#: everything a request might try in order to get an analysis of a game that is not over
TRICKS = [
    "",
    "?seat=0",
    "?seat=1",
    "?seat=0&status=finished",
    "?seat=0&force=1&budget=1",
    "?seat=0&finished=true&engine=v1",
    "?seat=0&seat=1",
]


def test_an_open_or_running_game_is_never_analysed(client: TestClient) -> None:
    t = _table(client, [{"kind": "human"}, {"kind": "bot"}])
    tid = t["id"]
    for trick in TRICKS:  # open
        r = client.get(f"/api/tables/{tid}/analysis{trick}")
        assert r.status_code == 409 and _code(r) == "analysis/not_finished", (trick, r.text)
    client.post(f"/api/tables/{tid}/join", json={"name": "Ann"})
    _wait(client, tid, "playing")
    for trick in TRICKS:  # playing
        r = client.get(f"/api/tables/{tid}/analysis{trick}")
        assert r.status_code == 409 and _code(r) == "analysis/not_finished", (trick, r.text)
    assert client.get("/api/tables/nope/analysis").status_code == 404


@pytest.mark.parametrize("status", ["abandoned", "cancelled", "playing", "open"])
def test_a_table_that_did_not_finish_is_never_analysed(client: TestClient, status: str) -> None:
    """Whatever status a table ends in, only ``finished`` opens its analysis (the row is the server's
    own: a finished game's status is set back to stand for each one)."""
    t = _table(client, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}])
    _wait(client, t["id"], "finished")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room = hub.rooms.get(t["id"])
    row = room.row if room is not None else None
    if row is None:
        pytest.skip("the finished room left the hub's memory")
    row.status = status
    for trick in TRICKS:
        r = client.get(f"/api/tables/{t['id']}/analysis{trick}")
        assert r.status_code == 409 and _code(r) == "analysis/not_finished", (trick, r.text)


def test_a_finished_game_is_analysed_then_served_from_the_cache(client: TestClient) -> None:
    t = _table(client, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}])
    tid = t["id"]
    _wait(client, tid, "finished")
    assert client.get(f"/api/tables/{tid}/analysis?seat=2").status_code == 422
    first = client.get(f"/api/tables/{tid}/analysis?seat=1")
    assert first.status_code == 202 and first.json()["status"] == "running"
    # the same address may not start a second analysis while one runs
    busy = client.get(f"/api/tables/{tid}/analysis?seat=0")
    assert busy.status_code == 429 and _code(busy) == "analysis/busy"
    deadline = time.monotonic() + 120
    while True:
        r = client.get(f"/api/tables/{tid}/analysis?seat=1")
        if r.status_code == 200:
            break
        assert r.status_code == 202 and 0.0 <= r.json()["progress"] <= 1.0
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.2)
    doc = r.json()
    assert doc["format"] == "sushigo-analysis/1" and doc["seat"] == 1 and doc["table"] == tid
    assert doc["summary"]["decisions"] == len(doc["decisions"]) > 20 and doc["budget"] == 1
    again = client.get(f"/api/tables/{tid}/analysis?seat=1")
    assert again.status_code == 200 and again.json() == doc


def test_the_global_cap_refuses_other_addresses(client: TestClient) -> None:
    registry: Analyses = client.app.state.analysis  # type: ignore[attr-defined]
    registry.limits.running = 0
    t = _table(client, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}])
    _wait(client, t["id"], "finished")
    r = client.get(f"/api/tables/{t['id']}/analysis?seat=0")
    assert r.status_code == 429 and _code(r) == "analysis/limit"


def test_hints_only_at_unrated_tables_against_bots(client: TestClient) -> None:
    # against a bot: the seat gets a hint for its current decision
    t = _table(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], turn_timer=None)
    tid = t["id"]
    token = client.post(f"/api/tables/{tid}/join", json={"name": "Ann"}).json()["token"]
    _wait(client, tid, "playing")
    r = client.get(f"/api/tables/{tid}/hint", headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["seat"] == 0 and hint["preferred"] in {c["action"] for c in hint["choices"]}
    # no token, a wrong token, a token in the address: refused
    for headers, query in (({}, ""), ({"X-Seat-Token": "x" * 40}, ""), ({}, f"?token={token}")):
        r = client.get(f"/api/tables/{tid}/hint{query}", headers=headers)
        assert r.status_code == 403 and _code(r) == "hint/not_allowed"
    # the same table, rated: refused (a rated table is created by an account; its flag is set directly)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.rooms[tid].row.rated = True
    r = client.get(f"/api/tables/{tid}/hint", headers={"X-Seat-Token": token})
    assert r.status_code == 403 and _code(r) == "hint/not_allowed"
    hub.rooms[tid].row.rated = False
    # another human at the table: refused, for both of them
    t2 = _table(client, [{"kind": "human"}, {"kind": "human"}])
    a = client.post(f"/api/tables/{t2['id']}/join", json={"name": "A"}).json()["token"]
    b = client.post(f"/api/tables/{t2['id']}/join", json={"name": "B"}).json()["token"]
    _wait(client, t2["id"], "playing")
    for tok in (a, b):
        r = client.get(f"/api/tables/{t2['id']}/hint", headers={"X-Seat-Token": tok})
        assert r.status_code == 403 and _code(r) == "hint/not_allowed"
    # a finished game has no hint (its analysis is the place to look)
    t3 = _table(client, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}])
    _wait(client, t3["id"], "finished")
    assert client.get(f"/api/tables/{t3['id']}/hint", headers={"X-Seat-Token": token}).status_code == 409


def test_a_failed_analysis_is_refused_for_a_while(client: TestClient) -> None:
    t = _table(client, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}])
    _wait(client, t["id"], "finished")
    hub = client.app.state.hub  # type: ignore[attr-defined]

    async def broken(*args: Any) -> Any:
        raise RuntimeError("a worker died")

    hub.bot_pool.run = broken
    assert client.get(f"/api/tables/{t['id']}/analysis?seat=0").status_code == 202
    deadline = time.monotonic() + 10
    while True:
        r = client.get(f"/api/tables/{t['id']}/analysis?seat=0")
        if r.status_code == 503:
            break
        assert r.status_code == 202 and time.monotonic() < deadline
        time.sleep(0.05)
    assert _code(r) == "analysis/failed" and r.headers["retry-after"] == "60"


def test_a_signed_in_players_seat_gets_a_hint_without_a_token(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat held by an account is found by the account (the session), not by a seat token; another
    account gets nothing."""
    import sushigo.server.analysis as analysis_routes
    from sushigo.server.accounts.identity import Identity

    t = _table(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    tid = t["id"]
    client.post(f"/api/tables/{tid}/join", json={"name": "Ann"})
    _wait(client, tid, "playing")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.rooms[tid].row.seats[0].user_id = 42
    who: dict[str, int] = {"id": 42}

    async def identify(request: Any) -> Identity:
        return Identity(user_id=who["id"], name="Ann", program=False, session="x")

    monkeypatch.setattr(analysis_routes, "identify", identify)
    r = client.get(f"/api/tables/{tid}/hint")
    assert r.status_code == 200 and r.json()["seat"] == 0, r.text
    who["id"] = 43
    r = client.get(f"/api/tables/{tid}/hint")
    assert r.status_code == 403 and _code(r) == "hint/not_allowed"
