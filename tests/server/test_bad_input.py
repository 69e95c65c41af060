"""Malformed, oversized, unauthenticated, out-of-turn, illegal, stale and flooding messages get an error
with a stable code and change nothing; a flood on one connection does not slow down another table."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

import asyncio
import json
import time
from typing import Any

import websockets

from sushigo.server.testing import ServerProcess, create_table, http, join


async def _recv_until(ws: Any, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == kind:
                return msg  # type: ignore[no-any-return]


async def _error(ws: Any, payload: str) -> str:
    await ws.send(payload)
    return str((await _recv_until(ws, "error"))["code"])


async def _latest_state(ws: Any) -> dict[str, Any]:
    """Returns the newest state message already received (waits briefly for stragglers)."""
    state = await _recv_until(ws, "state")
    while True:
        try:
            async with asyncio.timeout(0.3):
                msg = json.loads(await ws.recv())
        except TimeoutError:
            return state
        if msg["type"] == "state":
            state = msg


async def _scenario(server: ServerProcess) -> None:
    table = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "human"}]})
    tid = table["id"]
    tok = [join(server.base, tid, f"P{s}", s)["token"] for s in (0, 1)]
    url = f"{server.ws_base}/ws/tables/{tid}"
    async with websockets.connect(url) as a, websockets.connect(url) as b, websockets.connect(url) as spy:
        # Before hello nothing may act; a wrong token opens nothing.
        assert (
            await _error(spy, json.dumps({"type": "action", "action": "tempura", "state_id": 0}))
            == "auth/required"
        )
        assert await _error(spy, json.dumps({"type": "hello", "token": "not-a-token"})) == "auth/invalid"
        await spy.send(json.dumps({"type": "hello"}))
        assert (await _recv_until(spy, "welcome"))["seat"] is None
        assert (
            await _error(spy, json.dumps({"type": "action", "action": "tempura", "state_id": 0}))
            == "auth/required"
        )

        await a.send(json.dumps({"type": "hello", "token": tok[0]}))
        await b.send(json.dumps({"type": "hello", "token": tok[1]}))
        state = await _latest_state(a)
        b_state = await _latest_state(b)
        hand = state["view"]["hand"]
        missing = "soy_sauce"  # never dealt without the soy sauce variant
        assert await _error(a, "{not json") == "message/malformed"
        assert await _error(a, "[1, 2]") == "message/malformed"
        assert await _error(a, json.dumps({"type": "launch"})) == "message/unknown_type"
        assert await _error(a, json.dumps({"type": "action"})) == "message/malformed"
        assert (
            await _error(a, json.dumps({"type": "action", "action": "tempura", "x": 1}))
            == "message/malformed"
        )
        assert await _error(a, json.dumps({"type": "action", "action": "x" * 5000})) == "message/too_large"
        assert (
            await _error(a, json.dumps({"type": "action", "action": "caviar", "state_id": 0}))
            == "action/invalid"
        )
        assert (
            await _error(a, json.dumps({"type": "action", "action": missing, "state_id": 0}))
            == "action/illegal"
        )
        assert (
            await _error(a, json.dumps({"type": "action", "action": f"{hand[0]}+{hand[1]}", "state_id": 0}))
            == "action/illegal"
        )
        assert (
            await _error(a, json.dumps({"type": "action", "action": hand[0], "state_id": 99}))
            == "action/stale"
        )
        assert await _error(a, json.dumps({"type": "hello", "token": tok[0]})) == "message/malformed"
        # Nothing changed.
        status, _info = http("GET", f"{server.base}/api/tables/{tid}")
        assert status == 200
        async with websockets.connect(url) as watcher:
            await watcher.send(json.dumps({"type": "hello"}))
            fresh = await _recv_until(watcher, "state")
            assert fresh["state_id"] == 0 and fresh["view"]["to_act"] == [0, 1]

        # A legal pick is acknowledged; a second one the same turn is out of turn.
        await a.send(json.dumps({"type": "action", "action": hand[0], "state_id": 0}))
        assert (await _recv_until(a, "ack"))["state_id"] == 1
        assert (
            await _error(a, json.dumps({"type": "action", "action": hand[1], "state_id": 1}))
            == "action/not_your_turn"
        )
        # B only hears that A picked; its state of the turn's start stays the one to act on.
        assert await _recv_until(b, "picked") == {"type": "picked", "state_id": 1, "to_act": [1]}
        await b.send(
            json.dumps({"type": "action", "action": b_state["legal"][0], "state_id": b_state["state_id"]})
        )
        await _recv_until(b, "ack")
        # The turn resolved: a pick made against state 0 is stale now.
        new_state = await _latest_state(a)
        assert new_state["view"]["turn"] == 1
        assert (
            await _error(a, json.dumps({"type": "action", "action": new_state["legal"][0], "state_id": 0}))
            == "action/stale"
        )

    # Out of turn in Sushi Roll (sequential turns).
    roll = create_table(server.base, {"game": "sushi-roll", "seats": [{"kind": "human"}, {"kind": "human"}]})
    rt = [join(server.base, roll["id"], f"R{s}", s)["token"] for s in (0, 1)]
    async with websockets.connect(f"{server.ws_base}/ws/tables/{roll['id']}") as r:
        await r.send(json.dumps({"type": "hello", "token": rt[0]}))
        st = await _recv_until(r, "state")
        if st["view"]["to_act"] == [0]:
            async with websockets.connect(f"{server.ws_base}/ws/tables/{roll['id']}") as r1:
                await r1.send(json.dumps({"type": "hello", "token": rt[1]}))
                await _recv_until(r1, "state")
                assert (
                    await _error(r1, json.dumps({"type": "action", "action": "take 0", "state_id": 0}))
                    == "action/not_your_turn"
                )
        else:
            assert (
                await _error(r, json.dumps({"type": "action", "action": "take 0", "state_id": 0}))
                == "action/not_your_turn"
            )


def test_bad_messages_get_errors_and_change_nothing(server: ServerProcess) -> None:
    asyncio.run(_scenario(server))


async def _flood(server: ServerProcess) -> tuple[int, float, bool]:
    t1 = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    t2 = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    tok1 = join(server.base, t1["id"], "Flood")["token"]
    tok2 = join(server.base, t2["id"], "Calm")["token"]
    async with (
        websockets.connect(f"{server.ws_base}/ws/tables/{t1['id']}") as flood,
        websockets.connect(f"{server.ws_base}/ws/tables/{t2['id']}") as calm,
    ):
        await flood.send(json.dumps({"type": "hello", "token": tok1}))
        await calm.send(json.dumps({"type": "hello", "token": tok2}))
        await _recv_until(calm, "state")

        async def spam() -> None:
            for _ in range(400):
                await flood.send(json.dumps({"type": "ping"}))

        limited = 0
        closed = False

        async def count() -> None:
            nonlocal limited, closed
            try:
                async with asyncio.timeout(10):
                    async for raw in flood:
                        if json.loads(raw).get("code") == "rate/limited":
                            limited += 1
            except websockets.ConnectionClosed:
                pass
            closed = True

        counter = asyncio.create_task(count())
        await spam()
        # The other table still answers promptly.
        start = time.perf_counter()
        await calm.send(json.dumps({"type": "ping"}))
        await _recv_until(calm, "pong")
        latency = time.perf_counter() - start
        await counter
        return limited, latency, closed


def test_a_flood_is_rate_limited_without_hurting_other_tables(server: ServerProcess) -> None:
    limited, latency, closed = asyncio.run(_flood(server))
    assert limited >= 1
    assert closed
    assert latency < 0.5
