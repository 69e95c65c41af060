"""Does a reference table stay fast while the server is abused? Printed as ratios against an idle run.

A reference four-player human Sushi Go! table (four random clients, think time ``--think``) is played
on an idle server, then again while, at the same time:

* spectator churn: about ``--churn`` WebSocket connects per second to the reference table, each saying
  hello, reading its state and leaving;
* a lobby flood: about ``--lobby`` ``GET /api/tables`` per second;
* a replay flood: ``GET /api/tables/<finished>/replay`` of a finished game, as fast as one client can;
* four tables of five ``mcts`` bots, created at once.

The lobby and replay floods come from other loopback addresses (127.0.0.20, 127.0.0.30) than the
reference players; the spectator churn shares their address (127.0.0.1). The server runs with its
default limits, so refused requests are counted and printed too.
Everything runs on loopback and is bounded in count and time. Run it under ``nice``::

    nice -n 10 python benchmarks/server_abuse.py --games 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import urllib.request
from collections import Counter

import websockets

from sushigo.server.testing import ServerProcess, create_table, join, play_seat


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def reference(server: ServerProcess, think: float, games: int) -> list[float]:
    latencies: list[float] = []
    for g in range(games):
        t = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}] * 4})
        toks = [join(server.base, t["id"], f"P{s}", s)["token"] for s in range(4)]
        await asyncio.gather(
            *(
                play_seat(server.ws_base, t["id"], tok, latencies=latencies, seed=g * 10 + i, think=think)
                for i, tok in enumerate(toks)
            )
        )
    return latencies


def _get(url: str, source: str) -> int:
    import http.client
    import urllib.parse

    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(
        parts.hostname or "", parts.port, timeout=10, source_address=(source, 0)
    )
    try:
        conn.request("GET", parts.path + ("?" + parts.query if parts.query else ""))
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


async def abuse(
    server: ServerProcess, stop: asyncio.Event, args: argparse.Namespace, stats: Counter[str]
) -> None:
    loop = asyncio.get_running_loop()
    target: dict[str, str] = {}
    pending: set[asyncio.Task[None]] = set()

    async def churn() -> None:
        n = 0
        while not stop.is_set():
            tid = target.get("id")
            if tid is None:
                await asyncio.sleep(0.05)
                continue
            n += 1

            async def one(tid: str = tid) -> None:
                try:
                    async with websockets.connect(
                        f"{server.ws_base}/ws/tables/{tid}", open_timeout=5, max_size=2**22
                    ) as ws:
                        await ws.send(json.dumps({"type": "hello"}))
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                        stats["churn " + ("ok" if msg["type"] == "welcome" else msg.get("code", "?"))] += 1
                except Exception:
                    stats["churn failed"] += 1

            pending.add(loop.create_task(one()))
            pending.difference_update([t for t in pending if t.done()])
            await asyncio.sleep(1.0 / args.churn)

    async def lobby() -> None:
        while not stop.is_set():
            status = await asyncio.to_thread(_get, server.base + "/api/tables?limit=50", "127.0.0.20")
            stats[f"lobby {status}"] += 1
            await asyncio.sleep(1.0 / args.lobby)

    async def replays(finished: str) -> None:
        while not stop.is_set():
            status = await asyncio.to_thread(
                _get, f"{server.base}/api/tables/{finished}/replay", "127.0.0.30"
            )
            stats[f"replay {status}"] += 1

    # A finished game to replay, and the reference table id for the churn.
    done = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "bot", "bot": "greedy"}] * 4})
    while (
        json.loads(urllib.request.urlopen(f"{server.base}/api/tables/{done['id']}").read())["status"]
        != "finished"
    ):
        await asyncio.sleep(0.1)
    for i in range(4):
        body = json.dumps({"game": "sushi-go", "seats": [{"kind": "bot", "bot": "mcts"}] * 5}).encode()
        req = urllib.request.Request(
            server.base + "/api/tables",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        try:
            urllib.request.urlopen(req).read()
            stats["mcts tables"] += 1
        except Exception:
            stats["mcts tables refused"] += 1
    server_tasks = [
        loop.create_task(churn()),
        loop.create_task(lobby()),
        loop.create_task(replays(done["id"])),
    ]
    target["watch"] = "1"

    async def follow() -> None:
        # The churn watches whichever table the reference is playing (the newest human table).
        while not stop.is_set():
            page = json.loads(
                urllib.request.urlopen(f"{server.base}/api/tables?status=playing&limit=20").read()
            )
            humans = [t for t in page["tables"] if all(s["kind"] == "human" for s in t["seats"])]
            if humans:
                target["id"] = humans[0]["id"]
            await asyncio.sleep(0.5)

    server_tasks.append(loop.create_task(follow()))
    await stop.wait()
    for task in server_tasks:
        task.cancel()


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        with ServerProcess(tmp, bot_delay=0.4) as server:
            idle = await reference(server, args.think, args.games)
        with tempfile.TemporaryDirectory() as tmp2, ServerProcess(tmp2, bot_delay=0.4) as server:
            stats: Counter[str] = Counter()
            stop = asyncio.Event()
            abuser = asyncio.create_task(abuse(server, stop, args, stats))
            await asyncio.sleep(2.0)  # let the mcts tables and the floods start
            start = time.monotonic()
            busy = await reference(server, args.think, args.games)
            elapsed = time.monotonic() - start
            stop.set()
            await abuser
    ms = 1000.0
    print(f"reference: {args.games} four-player games, {len(idle)} / {len(busy)} actions (idle / abused)")
    print(f"idle    p50 {statistics.median(idle) * ms:6.1f} ms   p99 {p99(idle) * ms:6.1f} ms")
    print(f"abused  p50 {statistics.median(busy) * ms:6.1f} ms   p99 {p99(busy) * ms:6.1f} ms")
    print(
        f"ratio   p50 {statistics.median(busy) / statistics.median(idle):5.2f}x   p99 {p99(busy) / p99(idle):5.2f}x"
        "   (goal: p99 within 2x)"
    )
    print(
        f"abuse during {elapsed:.1f} s: "
        + ", ".join(f"{k} {v} ({v / elapsed:.0f}/s)" for k, v in sorted(stats.items()))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="reference games per run (bounded: at most 10)")
    parser.add_argument(
        "--think", type=float, default=0.3, help="mean think time of the reference players (s)"
    )
    parser.add_argument("--churn", type=float, default=100.0, help="spectator connects per second")
    parser.add_argument("--lobby", type=float, default=50.0, help="lobby requests per second")
    args = parser.parse_args()
    args.games = max(1, min(10, args.games))
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
