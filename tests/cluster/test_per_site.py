"""Per-site state in a cluster (issue 23): two processes on one PostgreSQL answer as one site.

The tables-per-address limit counts the address's tables on every process (created on either, the
next is refused on both), and each process's lobby lists the tables the other one owns. A process
asked to join a table the other one owns answers 503 ``table/moving`` with ``Retry-After: 1`` and then
seats the player once the table has moved to it; SIGTERM leaves no table behind on the stopped process.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .conftest import start_site, stop_site
from .test_failover import owned_by

OPTIONS = "--max-tables-per-address 3 --create-per-minute 1000 --limit create-burst=100"


def _http(
    method: str, url: str, body: dict[str, Any] | None = None, address: str | None = None
) -> tuple[int, Any, dict[str, str]]:
    """One request; ``address`` is the client address nginx would pass on (``X-Real-IP``)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if address is not None:
        headers["X-Real-IP"] = address
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return (
                response.status,
                json.loads(response.read()),
                {k.lower(): v for k, v in response.headers.items()},
            )
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), {k.lower(): v for k, v in exc.headers.items()}


def test_two_processes_answer_as_one_site(pg_database: str, tmp_path: Path) -> None:
    site = start_site(tmp_path, 2, pg_database, OPTIONS)
    try:
        (pid_a, a), (_, b) = [(pid, f"http://127.0.0.1:{port}") for pid, port in site.apps]
        body = {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
        made = []
        for base in (a, b, a):
            status, data, _ = _http("POST", base + "/api/tables", body)
            assert status == 201, data
            made.append(data["id"])
        for base in (a, b):  # the address has three tables on the site: refused on either process
            status, data, _ = _http("POST", base + "/api/tables", body)
            assert status == 429 and str(data["detail"]).startswith("table/limit"), data
        for base in (a, b):
            status, data, _ = _http("GET", base + "/api/tables?status=open")
            assert status == 200 and set(made) <= {t["id"] for t in data["tables"]}

        # B joins a table A owns: "moving", then seated once the table is B's.
        status, data, headers = _http("POST", f"{b}/api/tables/{made[0]}/join", {"name": "Ann"})
        assert status == 503 and str(data["detail"]).startswith("table/moving"), data
        assert headers.get("retry-after") == "1"
        for _ in range(50):
            status, data, _ = _http("POST", f"{b}/api/tables/{made[0]}/join", {"name": "Ann"})
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200 and data["seat"] == 0, data

        # SIGTERM of A: it exits by itself and B takes A's tables (its orphan scan) within seconds.
        os.kill(pid_a, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                os.kill(pid_a, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the SIGTERMed process did not exit")
        for table_id in made:
            for _ in range(50):
                status, data, _ = _http("POST", f"{b}/api/tables/{table_id}/join", {"name": "Bo"})
                if status != 503:
                    break
                time.sleep(0.1)
            assert status in (200, 409), (table_id, status, data)  # B owns it: seated, or the seat is taken
        assert "Traceback" not in site.log(0) + site.log(1)
    finally:
        stop_site(site)


def test_quick_play_is_one_book_for_the_site(pg_database: str, tmp_path: Path) -> None:
    """Quick play's requests land on any process (nginx spreads them): callers on two processes sit at
    one table, a caller waits once on the whole site, and the bot fill happens at its time even after
    the table's owner is killed (the survivor sets the timer again from the database)."""
    site = start_site(tmp_path, 2, pg_database, OPTIONS)
    try:
        (pid_a, a), (pid_b, b) = [(pid, f"http://127.0.0.1:{port}") for pid, port in site.apps]
        quick = {"game": "sushi-go", "players": 3}
        status, ann, _ = _http(
            "POST", a + "/api/quickplay", {**quick, "wait_seconds": 8, "name": "Ann"}, "10.1.0.1"
        )
        assert status == 200, ann
        table = ann["table_id"]
        # One wait per caller on the whole site: Ann asking the other process is refused.
        status, data, _ = _http(
            "POST", b + "/api/quickplay", {**quick, "wait_seconds": 8, "name": "Ann"}, "10.1.0.1"
        )
        assert status == 409 and str(data["detail"]).startswith("quickplay/waiting"), data
        # Bob asks the other process: he sits at Ann's table (it takes the table over from A).
        status, bob, _ = _http(
            "POST", b + "/api/quickplay", {**quick, "wait_seconds": 90, "name": "Bob"}, "10.1.0.2"
        )
        assert status == 200, bob
        assert bob["table_id"] == table and bob["seat"] == 1, (ann, bob)
        assert abs(bob["fill_at"] - ann["fill_at"]) < 0.01  # Ann's shorter wait holds for the table
        assert owned_by(pg_database, pid_b) == 1 and owned_by(pg_database, pid_a) == 0

        # The owner dies before the wait is over: A takes the table (its orphan scan) and fills it.
        os.kill(pid_b, signal.SIGKILL)
        deadline = ann["fill_at"] + 20
        while time.time() < deadline:
            status, data, _ = _http("GET", f"{a}/api/tables/{table}")
            if status == 200 and data["status"] == "playing":
                break
            time.sleep(0.3)
        assert data["status"] == "playing", data
        assert time.time() >= ann["fill_at"] - 0.5  # not before its time
        kinds = [s["kind"] for s in data["seats"]]
        assert kinds == ["human", "human", "bot"], data["seats"]
        # The wait ended with the start: Ann may quick-play again (a new table, on A).
        status, again, _ = _http(
            "POST", a + "/api/quickplay", {**quick, "wait_seconds": 60, "name": "Ann"}, "10.1.0.1"
        )
        assert status == 200 and again["table_id"] != table, again
        assert "Traceback" not in site.log(0)
    finally:
        stop_site(site)


def test_reconnecting_to_unfinished_tables_spends_no_room_load_budget(
    pg_database: str, tmp_path: Path
) -> None:
    """After a failover every player of the dead process's tables reconnects at once, many behind one
    address, and each may be told "moving" first: only finished tables (a replay each) spend the
    per-address room-load budget, so a budget of one does not lock an address out of its live games."""
    import asyncio

    import websockets

    site = start_site(
        tmp_path, 2, pg_database, OPTIONS + " --limit room-load-burst=1 --limit room-loads-per-second=0.001"
    )
    try:
        (_, a), (_, b) = [(pid, f"127.0.0.1:{port}") for pid, port in site.apps]
        body = {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
        made = [_http("POST", f"http://{a}/api/tables", body)[1]["id"] for _ in range(3)]

        async def watch(table_id: str) -> str:
            for _ in range(40):  # "moving" closes the socket: the page reconnects, so do we
                async with websockets.connect(f"ws://{b}/ws/tables/{table_id}") as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "welcome" or msg.get("code") != "table/moving":
                    return str(msg["type"] if msg["type"] == "welcome" else msg["code"])
                await asyncio.sleep(0.1)
            return "still moving"

        assert [asyncio.run(watch(t)) for t in made] == ["welcome"] * 3
    finally:
        stop_site(site)


def test_signing_out_on_one_process_stops_play_on_another_at_once(pg_database: str, tmp_path: Path) -> None:
    """A program plays through process B with an API token, and a browser session plays another table
    there; the token is revoked and the session signed out through process A: B's connections are told
    ``auth/ended`` within a moment, before they send anything (the processes announce it to each other
    over PostgreSQL), not at their next action a minute later."""
    import asyncio

    import websockets

    from sushigo.server.testing import http, http_full

    site = start_site(tmp_path, 2, pg_database, OPTIONS)
    try:
        (_, a), (_, b) = [(pid, f"http://127.0.0.1:{port}") for pid, port in site.apps]
        status, headers, raw = http_full(
            "POST", a + "/api/account", {"name": "far_chef", "password": "a long passphrase"}
        )
        assert status == 201, raw
        cookie = headers["set-cookie"].split(";")[0]
        session = {"Cookie": cookie, "Origin": a, "X-CSRF-Token": json.loads(raw)["csrf"]}
        status, made = http("POST", a + "/api/me/tokens", {"label": "bot"}, headers=session)
        assert status == 201, made
        bearer = {"Authorization": f"Bearer {made['token']}"}
        body = {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
        tables = [http("POST", b + "/api/tables", body)[1]["id"] for _ in range(2)]
        on_b = {**session, "Origin": b}  # nginx would give both processes one origin
        for table_id, who in zip(tables, (bearer, on_b)):
            status, joined = http("POST", f"{b}/api/tables/{table_id}/join", {}, headers=who)
            assert status == 200 and joined["seat"] == 0, joined

        async def seated_then_told(table_id: str, who: dict[str, str], end: Any) -> tuple[str, float]:
            ws_url = "ws" + b[len("http") :] + f"/ws/tables/{table_id}"
            async with websockets.connect(ws_url, additional_headers=who) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert first["type"] == "welcome" and first["seat"] == 0, first
                await asyncio.to_thread(end)
                ended = time.monotonic()
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "error":
                        return str(msg["code"]), time.monotonic() - ended

        revoke = lambda: http("DELETE", f"{a}/api/me/tokens/{made['id']}", headers=session)  # noqa: E731
        sign_out = lambda: http("DELETE", f"{a}/api/session", headers=session)  # noqa: E731
        code, after = asyncio.run(seated_then_told(tables[0], bearer, revoke))
        assert code == "auth/ended" and after < 5, (code, after)
        code, after = asyncio.run(seated_then_told(tables[1], {"Cookie": cookie, "Origin": b}, sign_out))
        assert code == "auth/ended" and after < 5, (code, after)
    finally:
        stop_site(site)
