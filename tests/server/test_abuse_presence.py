"""Presence is cheap and right, and actions are idempotent: real servers over real sockets, on SQLite
and PostgreSQL.

* Spectators coming and going send no ``state`` (its ``state_id`` would not change), only a few small
  coalesced ``presence`` messages, and the last one has the right counts.
* A spectator that stops reading is dropped, and the count goes down at once, while its socket is open:
  over loopback (a raw socket that completes the handshake and never reads again, against a server
  whose per-socket send buffer is small, as ``socket-send-buffer`` bounds it), and in process (the
  room itself, to check the count between states).
* ``state_id`` is required on every action and a resent action is refused as stale: a resent Sushi Roll
  re-roll spends one menu token, not two.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

import asyncio
import base64
import json
import os
import socket
import time
from pathlib import Path
from typing import Any

import websockets

from sushigo.server.testing import ServerProcess, create_table, http, join


async def _until(ws: Any, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            msg: dict[str, Any] = json.loads(await ws.recv())
            if msg["type"] == kind:
                return msg


async def _drain(ws: Any, seconds: float) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return out
        try:
            out.append(json.loads(await asyncio.wait_for(ws.recv(), left)))
        except TimeoutError:
            return out


def test_spectator_churn_sends_few_small_presence_messages_and_no_state(server: ServerProcess) -> None:
    t = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "human"}]})
    tok = join(server.base, t["id"], "Seated", 0)["token"]
    url = f"{server.ws_base}/ws/tables/{t['id']}"

    async def scenario() -> tuple[list[dict[str, Any]], float]:
        async with websockets.connect(url) as player:
            await player.send(json.dumps({"type": "hello", "token": tok}))
            await _until(player, "state")

            async def churn(i: int) -> None:
                async with websockets.connect(url) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    await _until(ws, "state")
                    await asyncio.sleep(0.05 * (i % 3))

            start = time.monotonic()
            for wave in range(4):
                await asyncio.gather(*(churn(wave * 10 + i) for i in range(10)))
            elapsed = time.monotonic() - start
            # Two watchers stay: the last presence must count them.
            async with websockets.connect(url) as w1, websockets.connect(url) as w2:
                for w in (w1, w2):
                    await w.send(json.dumps({"type": "hello"}))
                    await _until(w, "state")
                got = await _drain(player, 1.0)
                status = http("GET", f"{server.base}/api/tables/{t['id']}")[1]
                assert status["spectators"] == 2
            got += await _drain(player, 1.0)
            return got, elapsed

    got, elapsed = asyncio.run(scenario())
    assert [m for m in got if m["type"] == "state"] == []
    presence = [m for m in got if m["type"] == "presence"]
    assert presence, got
    for m in presence:
        assert set(m) == {"type", "connected", "standin", "spectators"}
        assert m["connected"][0] is True and m["standin"] == [False, False]
        assert len(json.dumps(m)) < 120
    # 42 connects and 42 disconnects within a few seconds coalesce into a handful of messages.
    assert len(presence) <= (elapsed + 2.0) / 0.2 + 4, len(presence)
    assert presence[-1]["spectators"] == 0


def _silent_spectator(port: int, table_id: str) -> socket.socket:
    """Opens a WebSocket by hand, says hello as a spectator and then never reads again."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    data, mask = json.dumps({"type": "hello"}).encode(), os.urandom(4)
    sock.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
    return sock


def test_a_silent_spectator_over_loopback_is_dropped_while_its_socket_stays_open(
    database: str, tmp_path: Path
) -> None:
    limits = ["--limit", "client-queue=8", "--limit", "socket-send-buffer=4096"]
    with ServerProcess(tmp_path, database=database, bot_delay=0.02, extra_args=limits) as server:
        seats = [{"kind": "bot", "bot": "random"}] * 5
        table = create_table(server.base, {"game": "sushi-roll", "seats": seats})
        silent = _silent_spectator(server.port, table["id"])

        async def watch() -> list[int]:
            counts: list[int] = []
            async with websockets.connect(f"{server.ws_base}/ws/tables/{table['id']}") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                async with asyncio.timeout(30):
                    while True:
                        msg = json.loads(await ws.recv())
                        if msg["type"] == "presence":
                            counts.append(msg["spectators"])
                        elif msg["type"] == "state":
                            counts.append(msg["table"]["spectators"])
                            if msg["view"]["is_over"]:
                                return counts

        try:
            counts = asyncio.run(watch())
            # Both watched at first; the silent one was dropped while its socket was still open.
            assert 2 in counts and counts[-1] == 1, counts
            silent.settimeout(0)
            assert silent.fileno() != -1
        finally:
            silent.close()
        assert "Traceback" not in server.log_text()


def test_a_slow_reader_is_dropped_at_once_and_the_others_hear_the_new_count(tmp_path: Path) -> None:
    # In process, so that the reader can really stop reading: the kernel would buffer megabytes first.
    from sushigo.server.limits import Limits
    from sushigo.server.rooms import Client, Hub
    from sushigo.server.schemas import TableCreate
    from sushigo.server.store import Store

    async def scenario() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'slow.sqlite3'}"), limits=Limits(presence_interval=0.05))
        room = await hub.create(TableCreate.model_validate({"seats": [{"kind": "human"}, {"kind": "human"}]}))
        reader, slow = Client(None), Client(None, max_queue=4)
        await room.attach(reader)
        await room.attach(slow)
        await asyncio.sleep(0.2)
        assert room.spectators() == 2 and room.public().spectators == 2
        while not reader.queue.empty():
            reader.queue.get_nowait()
        for _ in range(6):  # six states the slow one never reads
            async with room.lock:
                room.broadcast()
        assert slow.closed and slow not in room.clients
        assert room.spectators() == 1
        await asyncio.sleep(0.2)
        seen = []
        while not reader.queue.empty():
            text = reader.queue.get_nowait()
            assert text is not None
            seen.append(json.loads(text))
        # The newest count the reader heard (a presence, or the table of a later state) is right.
        counts = [m["spectators"] if m["type"] == "presence" else m["table"]["spectators"] for m in seen]
        assert counts and counts[-1] == 1
        # Drop it between states: only a presence message can tell, and it does.
        another = Client(None, max_queue=8)
        await room.attach(another)
        await asyncio.sleep(0.2)
        assert room.spectators() == 2
        while not reader.queue.empty():
            reader.queue.get_nowait()
        for _ in range(8):
            another.send({"type": "pong"})  # it never reads: over its limit, dropped
        assert another.closed and room.spectators() == 1
        await asyncio.sleep(0.2)
        texts = []
        while not reader.queue.empty():
            texts.append(reader.queue.get_nowait())
        presence = [json.loads(t) for t in texts if t and '"presence"' in t]
        assert presence and presence[-1]["spectators"] == 1
        assert not reader.closed
        await hub.close()

    asyncio.run(scenario())


def test_the_cached_public_table_follows_presence_and_seats(tmp_path: Path) -> None:
    """``public_json`` patches presence onto a cached table: it must always equal the full model."""
    from sushigo.server.rooms import Client, Hub
    from sushigo.server.schemas import TableCreate
    from sushigo.server.store import Store

    async def scenario() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'public.sqlite3'}"))
        room = await hub.create(
            TableCreate.model_validate({"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]})
        )

        def check() -> None:
            assert room.public_json() == room.public().model_dump()

        check()
        watchers = [Client(None) for _ in range(3)]
        for w in watchers:
            await room.attach(w)
            check()
        _seat, token = await room.join("Ann", 0)
        check()
        player = Client(room.authenticate(token))
        await room.attach(player)
        check()
        assert room.public_json()["seats"][0]["connected"] and room.public_json()["spectators"] == 3
        await room.detach(watchers[0])
        await room.detach(player)
        check()
        assert not room.public_json()["seats"][0]["connected"] and room.public_json()["spectators"] == 2
        await hub.close()

    asyncio.run(scenario())


def test_a_resent_action_is_stale_and_a_reroll_spends_one_token(server: ServerProcess) -> None:
    t = create_table(server.base, {"game": "sushi-roll", "seats": [{"kind": "human"}, {"kind": "human"}]})
    toks = [join(server.base, t["id"], n, s)["token"] for s, n in enumerate(("R0", "R1"))]
    url = f"{server.ws_base}/ws/tables/{t['id']}"

    async def scenario() -> None:
        async with websockets.connect(url) as a, websockets.connect(url) as b:
            await a.send(json.dumps({"type": "hello", "token": toks[0]}))
            await b.send(json.dumps({"type": "hello", "token": toks[1]}))
            first = await _until(a, "state")
            seat = first["view"]["to_act"][0]
            ws = a if seat == 0 else b
            state = first if seat == 0 else await _until(b, "state")
            tokens_before = state["view"]["menu"][seat]
            reroll = next(x for x in state["legal"] if x.startswith("reroll"))
            message = json.dumps({"type": "action", "action": reroll, "state_id": state["state_id"]})
            await ws.send(message)
            await ws.send(message)  # a resend, e.g. after a reconnect
            ack: dict[str, Any] | None = None
            err: dict[str, Any] | None = None
            after: dict[str, Any] | None = None
            async with asyncio.timeout(10):
                while ack is None or err is None or after is None or after["state_id"] != ack["state_id"]:
                    msg = json.loads(await ws.recv())
                    if msg["type"] == "ack":
                        ack = msg
                    elif msg["type"] == "error":
                        err = msg
                    elif msg["type"] == "state":
                        after = msg
            assert ack["state_id"] == state["state_id"] + 1
            assert err["code"] == "action/stale"
            assert after["view"]["menu"][seat] == tokens_before - 1
            # Without a state_id nothing is applied either.
            await ws.send(json.dumps({"type": "action", "action": after["legal"][0]}))
            assert (await _until(ws, "error"))["code"] == "message/malformed"

    asyncio.run(scenario())
    row = http("GET", f"{server.base}/api/tables/{t['id']}")[1]
    assert row["status"] == "playing"


def test_a_resent_sushi_go_pick_is_stale(server: ServerProcess) -> None:
    t = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "human"}]})
    tok = join(server.base, t["id"], "A", 0)["token"]
    join(server.base, t["id"], "B", 1)

    async def scenario() -> None:
        async with websockets.connect(f"{server.ws_base}/ws/tables/{t['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tok}))
            state = await _until(ws, "state")
            message = json.dumps(
                {"type": "action", "action": state["legal"][0], "state_id": state["state_id"]}
            )
            await ws.send(message)
            await _until(ws, "ack")
            await ws.send(message)
            assert (await _until(ws, "error"))["code"] == "action/stale"

    asyncio.run(scenario())


def test_a_stuck_socket_is_dropped_through_the_websocket_handler(tmp_path: Path) -> None:
    # The real app and WebSocket handler, with a socket whose sends never complete (a peer that stopped
    # reading, once the kernel buffers are full): the spectator must stop counting while it hangs.
    from fastapi.testclient import TestClient

    from sushigo.server.app import create_app
    from sushigo.server.limits import Limits

    app = create_app(f"sqlite:///{tmp_path / 'stuck.sqlite3'}", bot_delay=0.0, limits=Limits(client_queue=3))
    with TestClient(app) as client:
        t = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        tok = [client.post(f"/api/tables/{t['id']}/join", json={"name": n}).json()["token"] for n in "AB"]
        sends = 0

        async def stuck() -> None:
            nonlocal sends
            inbox: list[dict[str, Any]] = [
                {"type": "websocket.connect"},
                {"type": "websocket.receive", "text": json.dumps({"type": "hello"})},
            ]
            forever = asyncio.Event()

            async def receive() -> dict[str, Any]:
                if inbox:
                    return inbox.pop(0)
                await forever.wait()
                return {"type": "websocket.disconnect", "code": 1006}

            async def send(message: dict[str, Any]) -> None:
                nonlocal sends
                if message["type"] == "websocket.send":
                    sends += 1
                    await forever.wait()  # never written

            scope = {
                "type": "websocket",
                "path": f"/ws/tables/{t['id']}",
                "raw_path": f"/ws/tables/{t['id']}".encode(),
                "query_string": b"",
                "headers": [],
                "client": ("192.0.2.1", 5000),
                "server": ("testserver", 80),
                "scheme": "ws",
                "subprotocols": [],
                "app": app,
            }
            await app(scope, receive, send)

        assert client.portal is not None
        handler = client.portal.start_task_soon(stuck)
        deadline = time.monotonic() + 10
        while client.get(f"/api/tables/{t['id']}").json()["spectators"] != 1:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        # The players' moves make states for the stuck spectator; its first send never returns.
        with (
            client.websocket_connect(f"/ws/tables/{t['id']}") as a,
            client.websocket_connect(f"/ws/tables/{t['id']}") as b,
        ):
            a.send_json({"type": "hello", "token": tok[0]})
            b.send_json({"type": "hello", "token": tok[1]})
            for _ in range(4):
                for ws in (a, b):
                    state = ws.receive_json()
                    while state["type"] != "state" or not state["legal"]:
                        state = ws.receive_json()
                    ws.send_json(
                        {"type": "action", "action": state["legal"][0], "state_id": state["state_id"]}
                    )
                if client.get(f"/api/tables/{t['id']}").json()["spectators"] == 0:
                    break
            assert client.get(f"/api/tables/{t['id']}").json()["spectators"] == 0
            assert sends == 1  # it never got past its first message
            # The handler gave up on it: its task ends although the peer never closed.
            deadline = time.monotonic() + 10
            while not handler.done():
                assert time.monotonic() < deadline, "the handler kept serving a dropped client"
                time.sleep(0.05)
