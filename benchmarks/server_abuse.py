"""Does a reference table stay fast while the server is abused? Printed as ratios against idle rounds.

A reference four-player human Sushi Go! table (four random clients, think time ``--think``) plays its
games on one server in alternating rounds: an idle round, then an abused round during which, at once:

* spectator churn: about ``--churn`` WebSocket connects per second to the reference table, each saying
  hello, reading its welcome and leaving;
* a lobby flood: about ``--lobby`` ``GET /api/tables?limit=50`` per second;
* a replay flood: ``GET /api/tables/<finished>/replay`` of a finished game, as fast as one client can;
* four tables of five ``mcts`` bots, created at once when the round starts.

The abuse runs in a process of its own (in the reference players' process it would slow their clients,
not the server) and from other loopback addresses than the reference players, as attackers would: the
churn from 127.0.0.2–9, the lobby flood from 127.0.0.20, the replay flood from 127.0.0.30, the
``mcts`` tables from 127.0.0.40 and up. The server runs with its default limits; requests it refused
are counted and printed. Everything is on loopback and bounded (``--rounds`` ≤ 5, ``--games`` ≤ 5).
Idle and abused rounds alternate so that other load on the machine hits both alike. Each pair of
rounds has a fresh server, idle round first: after an abused round the ``mcts`` tables play on for
minutes, so the same server would not be idle again. Run it under ``nice``::

    nice -n 10 python benchmarks/server_abuse.py --rounds 3 --games 3
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import http.client
import json
import multiprocessing
import os
import statistics
import tempfile
import time
import urllib.parse
from collections import Counter
from typing import Any

import websockets

from sushigo.server.testing import ServerProcess, create_table, join, play_seat


@dataclasses.dataclass(frozen=True)
class Endpoints:
    """Where the server under test answers (what the abuser process needs of it)."""

    base: str
    ws_base: str


def cpu_seconds(pid: int) -> float | None:
    """CPU time used so far by process ``pid`` (Linux ``/proc``; ``None`` elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def reference(server: ServerProcess, think: float, games: int, seed: int) -> list[float]:
    latencies: list[float] = []
    for g in range(games):
        t = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}] * 4})
        toks = [join(server.base, t["id"], f"P{s}", s)["token"] for s in range(4)]
        await asyncio.gather(
            *(
                play_seat(
                    server.ws_base, t["id"], tok, latencies=latencies, seed=seed + g * 10 + i, think=think
                )
                for i, tok in enumerate(toks)
            )
        )
    return latencies


def _request(method: str, url: str, source: str, body: Any = None) -> tuple[int, Any]:
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(
        parts.hostname or "", parts.port, timeout=10, source_address=(source, 0)
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(
            method,
            parts.path + ("?" + parts.query if parts.query else ""),
            body=data,
            headers={"Content-Type": "application/json"},
        )
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, json.loads(raw) if raw else None
    finally:
        conn.close()


async def abuse(
    server: Endpoints, active: Any, stop: Any, ready: Any, args: argparse.Namespace, stats: Counter[str]
) -> None:
    """Abuses the server while ``active`` is set, until ``stop`` is set (multiprocessing events); sets
    ``ready`` once its finished game to replay exists."""
    loop = asyncio.get_running_loop()
    kinds = set(args.only.split(","))
    pending: set[asyncio.Task[None]] = set()
    target: dict[str, str] = {}

    async def wait_active() -> bool:
        while not active.is_set():
            if stop.is_set():
                return False
            await asyncio.sleep(0.05)
        return True

    async def churn() -> None:
        n = 0
        while await wait_active():
            tid = target.get("id")
            if tid is None:
                await asyncio.sleep(0.05)
                continue
            n += 1

            async def one(tid: str = tid, source: str = f"127.0.0.{2 + n % 8}") -> None:
                try:
                    async with websockets.connect(
                        f"{server.ws_base}/ws/tables/{tid}",
                        open_timeout=5,
                        max_size=2**22,
                        local_addr=(source, 0),
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
        while await wait_active():
            status, _ = await asyncio.to_thread(
                _request, "GET", server.base + "/api/tables?limit=50", "127.0.0.20"
            )
            stats[f"lobby {status}"] += 1
            await asyncio.sleep(1.0 / args.lobby)

    async def replays(finished: str) -> None:
        while await wait_active():
            status, _ = await asyncio.to_thread(
                _request, "GET", f"{server.base}/api/tables/{finished}/replay", "127.0.0.30"
            )
            stats[f"replay {status}"] += 1

    async def mcts() -> None:
        rounds = 0
        while await wait_active():
            for _ in range(4):
                status, _ = await asyncio.to_thread(
                    _request,
                    "POST",
                    server.base + "/api/tables",
                    f"127.0.0.{40 + rounds}",
                    {"game": "sushi-go", "seats": [{"kind": "bot", "bot": "mcts"}] * 5},
                )
                stats[f"mcts tables {status}"] += 1
            rounds += 1
            while active.is_set() and not stop.is_set():
                await asyncio.sleep(0.05)

    async def follow() -> None:
        # The churn watches whichever table the reference plays (the newest table of four humans).
        while not stop.is_set():
            _, page = await asyncio.to_thread(
                _request, "GET", f"{server.base}/api/tables?status=playing&limit=40", "127.0.0.50"
            )
            humans = [t for t in page["tables"] if all(s["kind"] == "human" for s in t["seats"])]
            if humans:
                target["id"] = humans[0]["id"]
            await asyncio.sleep(0.5)

    # A finished game to replay.
    _, done = _request(
        "POST", server.base + "/api/tables", "127.0.0.30", {"seats": [{"kind": "bot", "bot": "greedy"}] * 4}
    )
    while _request("GET", f"{server.base}/api/tables/{done['id']}", "127.0.0.30")[1]["status"] != "finished":
        await asyncio.sleep(0.2)
    # Warm the server's bot workers, as on a server that has been running: the first search-bot move
    # of a fresh server spawns them and they import the bots, a cold start rather than abuse. One
    # mcts move at a table whose other seat is held here, connected, and never plays.
    _, warm = _request(
        "POST",
        server.base + "/api/tables",
        "127.0.0.31",
        {"seats": [{"kind": "bot", "bot": "mcts"}, {"kind": "human"}]},
    )
    _, seat = _request(
        "POST", f"{server.base}/api/tables/{warm['id']}/join", "127.0.0.31", {"name": "Idle", "seat": 1}
    )
    holder = await websockets.connect(
        f"{server.ws_base}/ws/tables/{warm['id']}", local_addr=("127.0.0.31", 0)
    )
    await holder.send(json.dumps({"type": "hello", "token": seat["token"]}))
    async with asyncio.timeout(60):
        while True:
            msg = json.loads(await holder.recv())
            to_act = msg.get("to_act") if msg["type"] == "picked" else msg.get("view", {}).get("to_act")
            if to_act == [1]:  # the bot has picked; only the held seat owes a pick now
                break
    holding = loop.create_task(_drain(holder))
    ready.set()
    jobs = {"churn": churn, "lobby": lobby, "replay": lambda: replays(done["id"]), "mcts": mcts}
    tasks = [loop.create_task(job()) for kind, job in jobs.items() if kind in kinds]
    tasks.append(loop.create_task(follow()))
    while not stop.is_set():
        await asyncio.sleep(0.1)
    tasks.append(holding)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, *pending, return_exceptions=True)


async def _drain(ws: Any) -> None:
    async for _ in ws:
        pass


def _abuser(
    endpoints: Endpoints, args: argparse.Namespace, active: Any, stop: Any, ready: Any, out: Any
) -> None:
    # The attacker would run on machines of its own: here its clients yield the CPU to the server and to
    # the reference players (the rates it reached are printed, so a starved abuser shows).
    os.nice(args.abuser_nice)
    if args.abuser_idle:
        # Stronger than nice on Linux's EEVDF scheduler: the abuser's own client work (TLS-free but
        # Python-heavy WebSocket handshakes) runs only on CPU the server and the players leave idle.
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

    async def run() -> Counter[str]:
        stats: Counter[str] = Counter()
        await abuse(endpoints, active, stop, ready, args, stats)
        return stats

    out.put(dict(asyncio.run(run())))


@dataclasses.dataclass
class Side:
    """One side (idle or abused) of all rounds: latencies, wall time, and the server's CPU time."""

    latencies: list[float] = dataclasses.field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0

    async def play(self, server: ServerProcess, args: argparse.Namespace, seed: int) -> list[float]:
        """Plays one round of reference games and adds it; returns the round's latencies."""
        assert server.proc is not None
        start, used = time.monotonic(), cpu_seconds(server.proc.pid)
        got = await reference(server, args.think, args.games, seed=seed)
        self.seconds += time.monotonic() - start
        self.cpu += (cpu_seconds(server.proc.pid) or 0.0) - (used or 0.0)
        self.latencies += got
        return got


async def pair(args: argparse.Namespace, r: int, idle: Side, busy: Side, stats: Counter[str]) -> float:
    """One idle round then one abused round, on a fresh server; returns their p99 ratio.

    A server is not idle again soon after an abused round: its five-``mcts`` tables play on for
    minutes (four tables of 105 moves at up to a second each, one or two bots thinking at a time), so
    each pair gets a new server and a new attacker, and the idle round always comes first.
    """
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(tmp, bot_delay=0.4) as server:
        active, stop, ready, out = ctx.Event(), ctx.Event(), ctx.Event(), ctx.Queue()
        proc = ctx.Process(
            target=_abuser, args=(Endpoints(server.base, server.ws_base), args, active, stop, ready, out)
        )
        proc.start()
        # Set once the attacker's finished game (the one it replays) exists.
        assert await asyncio.to_thread(ready.wait, 120), "the attacker did not get ready"
        calm = await idle.play(server, args, seed=100 * r)
        active.set()
        await asyncio.sleep(2.0)  # the floods and the mcts tables get going
        hot = await busy.play(server, args, seed=100 * r + 50)
        active.clear()
        stop.set()
        stats.update(out.get(timeout=60))
        proc.join(30)
    print(f"round {r + 1}: p99 idle {p99(calm) * 1000:6.1f} ms, abused {p99(hot) * 1000:6.1f} ms")
    return p99(hot) / p99(calm)


async def measure(args: argparse.Namespace) -> None:
    idle_side, busy_side = Side(), Side()
    stats: Counter[str] = Counter()
    ratios = [await pair(args, r, idle_side, busy_side, stats) for r in range(args.rounds)]
    idle, busy = idle_side.latencies, busy_side.latencies
    busy_time, idle_time = busy_side.seconds, idle_side.seconds
    cpu_idle, cpu_busy = idle_side.cpu, busy_side.cpu
    ms = 1000.0
    print(
        f"reference: {args.rounds} rounds x {args.games} four-player games, {len(idle)} / {len(busy)} actions"
    )
    print(f"idle    p50 {statistics.median(idle) * ms:6.1f} ms   p99 {p99(idle) * ms:6.1f} ms")
    print(f"abused  p50 {statistics.median(busy) * ms:6.1f} ms   p99 {p99(busy) * ms:6.1f} ms")
    print(
        f"ratio   p50 {statistics.median(busy) / statistics.median(idle):5.2f}x   "
        f"p99 {p99(busy) / p99(idle):5.2f}x (pooled), {statistics.median(ratios):5.2f}x (median of rounds)"
        "   goal: p99 within 2x"
    )
    print(
        f"server process (event loop, without its bot workers): {cpu_idle / idle_time:.2f} cores idle, "
        f"{cpu_busy / busy_time:.2f} cores abused"
    )
    print(
        f"abuse during {busy_time:.1f} s: "
        + ", ".join(f"{k} {v} ({v / busy_time:.0f}/s)" for k, v in sorted(stats.items()))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="idle/abused round pairs (at most 5)")
    parser.add_argument(
        "--games",
        type=int,
        default=3,
        help="reference games per round (at most 5); with 1 a round's p99 is nearly its slowest of 84 actions",
    )
    parser.add_argument(
        "--think", type=float, default=0.3, help="mean think time of the reference players (s)"
    )
    parser.add_argument("--churn", type=float, default=100.0, help="spectator connects per second")
    parser.add_argument("--lobby", type=float, default=50.0, help="lobby requests per second")
    parser.add_argument(
        "--abuser-nice", type=int, default=5, help="how much nicer than the server the abuser process runs"
    )
    parser.add_argument(
        "--abuser-idle",
        action=argparse.BooleanOptionalAction,
        default=hasattr(os, "SCHED_IDLE"),
        help="run the abuser under SCHED_IDLE (Linux); its achieved rates are printed either way",
    )
    parser.add_argument("--only", default="churn,lobby,replay,mcts", help="abuses to run (default: all four)")
    args = parser.parse_args()
    args.rounds = max(1, min(5, args.rounds))
    args.games = max(1, min(5, args.games))
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
