"""Strict input over real sockets, on SQLite and PostgreSQL: no coercion, no non-finite numbers, no
control or bidi characters, bodies limited before they are read, table ids checked before the
database, names unique at a table and never posing as a bot. Every refusal is a located 4xx, never 500."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

import asyncio
import json
import random
import socket
import time
from pathlib import Path
from typing import Any

import websockets

from sushigo.server.testing import ServerProcess, create_table, http, join

TWO = [{"kind": "human"}, {"kind": "human"}]


def _post_raw(server: ServerProcess, path: str, raw: bytes) -> tuple[int, Any]:
    return http("POST", server.base + path, raw=raw)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"seats": TWO, "options": {"dummy": "yes"}}, "body.options.dummy"),
        ({"seats": TWO, "turn_timer": "10"}, "body.turn_timer"),
        ({"seats": TWO, "turn_timer": True}, "body.turn_timer"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "bot": 3}]}, "body.seats.1.bot"),
        ({"seats": TWO, "name": "A\u202eB"}, "body.name"),
        ({"seats": TWO, "name": "tab\tle"}, "body.name"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "name": "x\u0000"}]}, "body.seats.1.name"),
        ({"seats": TWO, "name": "   "}, "body.name"),
    ],
)
def test_table_bodies_are_not_coerced(server: ServerProcess, body: dict[str, Any], where: str) -> None:
    status, data = http("POST", server.base + "/api/tables", body)
    assert status == 422, data
    assert data["detail"].startswith(f"request/invalid: {where}:"), data
    assert data["errors"][0]["loc"] == where.split(".")[:1] + [
        int(p) if p.isdigit() else p for p in where.split(".")[1:]
    ]


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_are_a_located_422(server: ServerProcess, number: str) -> None:
    raw = (
        ('{"seats": [{"kind": "human"}, {"kind": "human"}], "turn_timer": NUMBER}')
        .replace("NUMBER", number)
        .encode()
    )
    status, data = _post_raw(server, "/api/tables", raw)
    assert status == 422, data
    assert data["detail"].startswith("request/invalid: body.turn_timer:")
    tid = create_table(server.base, {"seats": TWO})["id"]
    status, data = _post_raw(
        server, f"/api/tables/{tid}/join", '{"name": "A", "seat": NUMBER}'.replace("NUMBER", number).encode()
    )
    assert status == 422 and data["detail"].startswith("request/invalid: body.seat:"), data


def test_join_is_strict_and_names_are_unique_and_not_bots(server: ServerProcess) -> None:
    t = create_table(
        server.base, {"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
    )
    url = f"{server.base}/api/tables/{t['id']}/join"
    status, data = http("POST", url, {"name": "A", "seat": True})
    assert status == 422 and data["detail"].startswith("request/invalid: body.seat:"), data
    status, data = http("POST", url, {"name": "A", "seat": "0"})
    assert status == 422, data
    for bad in ("Eve\u202e", "\u2066Eve", "Z\u200bW", "line\nbreak", "nul\u0000"):
        status, data = http("POST", url, {"name": bad})
        assert status == 422 and data["detail"].startswith("request/invalid: body.name:"), (bad, data)
        assert "U+" in data["detail"]
    for posing in ("Greedy bot 3", "MCTS", "a BOT", "Greedy"):
        status, data = http("POST", url, {"name": posing})
        assert status == 422 and data["detail"].startswith("name/reserved: body.name:"), (posing, data)
    assert http("POST", url, {"name": "Ann"})[0] == 200
    for same in ("Ann", "ann", " ANN ", "\uff21nn"):  # fullwidth A normalises to A
        status, data = http("POST", url, {"name": same})
        assert status == 409 and data["detail"].startswith("name/taken:"), (same, data)
    assert http("POST", url, {"name": "Bob"})[0] == 200
    info = http("GET", f"{server.base}/api/tables/{t['id']}")[1]
    assert [s["name"] for s in info["seats"][:2]] == ["Ann", "Bob"]


def test_big_bodies_are_refused_before_they_are_read(server: ServerProcess) -> None:
    # Declared 100 MB, a few bytes sent: the answer comes at once, without waiting for the rest.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100000000\r\n\r\n{"seats": ['
        )
        start = time.monotonic()
        head = sock.recv(4096)
        assert head.startswith(b"HTTP/1.1 413"), head
        assert b"request/too_large" in head or b"request/too_large" in sock.recv(4096)
        assert time.monotonic() - start < 5
    # Chunked, no length: refused once past the limit; the server stops reading long before 100 MB.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
        sent = 0
        answer = b""
        sock.settimeout(0.05)
        try:
            while sent < 100_000_000:
                sock.sendall(chunk)
                sent += 65536
                try:
                    answer += sock.recv(4096)
                except TimeoutError:
                    continue
                if answer:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        sock.settimeout(5)
        if not answer:
            try:
                answer = sock.recv(4096)
            except (ConnectionResetError, TimeoutError):
                answer = b""
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert sent < 20_000_000


@pytest.mark.parametrize("bad", ["%00", "a%00b", "x" * 40, "%E2%80%AE", "a.b", "%20"])
def test_bad_table_ids_are_not_found_over_http_and_websocket(server: ServerProcess, bad: str) -> None:
    for suffix in ("", "/record", "/replay"):
        status, data = http("GET", f"{server.base}/api/tables/{bad}{suffix}")
        assert status == 404 and data["detail"].startswith("table/not_found:"), (bad, suffix, data)
    status, data = http("POST", f"{server.base}/api/tables/{bad}/join", {"name": "A"})
    assert status == 404, data

    async def ws_answer() -> dict[str, Any]:
        async with websockets.connect(f"{server.ws_base}/ws/tables/{bad}") as ws:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return msg

    msg = asyncio.run(ws_answer())
    assert msg["type"] == "error" and msg["code"] == "table/not_found"
    assert http("GET", f"{server.base}/healthz")[0] == 200


def test_query_parameters_are_strict(server: ServerProcess) -> None:
    for query in ("limit=abc", "limit=0", "limit=101", "status=closed", "cursor=!!", "limit=NaN"):
        status, data = http("GET", f"{server.base}/api/tables?{query}")
        assert status == 422, (query, data)
        assert data["detail"].startswith("request/invalid: query."), (query, data)


def test_actions_must_name_their_state_and_must_be_strings(server: ServerProcess) -> None:
    t = create_table(server.base, {"seats": TWO})
    tok = [join(server.base, t["id"], n)["token"] for n in ("P", "Q")]

    async def scenario() -> list[str]:
        codes = []
        async with websockets.connect(f"{server.ws_base}/ws/tables/{t['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tok[0]}))
            for payload in (
                {"type": "action", "action": "tempura"},
                {"type": "action", "action": "tempura", "state_id": "0"},
                {"type": "action", "action": "tempura", "state_id": True},
                {"type": "action", "action": "tempura", "state_id": -1},
                {"type": "action", "action": 3, "state_id": 0},
                {"type": "hello", "token": 5},
            ):
                await ws.send(json.dumps(payload))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "error":
                        codes.append(msg["code"])
                        break
            await ws.send('{"type": "action", "action": "tempura", "state_id": NaN}')
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "error":
                    codes.append(msg["code"])
                    break
        return codes

    assert asyncio.run(scenario()) == ["message/malformed"] * 7


def test_random_bad_bodies_never_get_a_server_error(database: str, tmp_path: Path) -> None:
    generous = [
        "--limit",
        "http-rate=100000",
        "--limit",
        "http-burst=100000",
        "--limit",
        "create-burst=100000",
    ]
    server = ServerProcess(
        tmp_path,
        database=database,
        extra_args=[*generous, "--create-per-minute", "1000000", "--max-tables-per-address", "100000"],
    ).start()
    try:
        rng = random.Random(7)
        t = create_table(server.base, {"seats": [{"kind": "human"}] * 3})
        values: list[Any] = [None, True, 0, -1, 10**100, 1.5, float("nan"), "x", "\x00", "\u202e", [], {}]
        values += [[1], {"a": 1}, "a" * 5000, "1e400", float("inf")]
        failures = []
        for _ in range(150):
            seat = {"kind": rng.choice(values), "bot": rng.choice(values), "name": rng.choice(values)}
            body: dict[str, Any] = {"seats": rng.choice([TWO, rng.choice(values), [seat, seat]])}
            for key in ("options", "turn_timer", "name", "game", "extra"):
                if rng.random() < 0.5:
                    body[key] = rng.choice([*values, {"dummy": rng.choice(values)}])
            raw = json.dumps(body, allow_nan=True).encode()
            status, _ = http("POST", server.base + "/api/tables", raw=raw)
            join_raw = json.dumps({"name": rng.choice(values), "seat": rng.choice(values)}, allow_nan=True)
            status2, _ = http("POST", f"{server.base}/api/tables/{t['id']}/join", raw=join_raw.encode())
            failures += [raw[:120] for s in (status, status2) if s >= 500]
        for raw in (b"[]", b'"x"', b"1", b"\xff\xfe", b"[" * 5000, b"{}", b'{"seats": null}'):
            if http("POST", server.base + "/api/tables", raw=raw)[0] >= 500:
                failures.append(raw[:40])
        assert failures == []
    finally:
        server.stop()
