"""Limits per client address (creation rate, tables per address, WebSocket budget kept across reconnects,
the forwarded header only when configured), open tables abandoned and evicted, the paged lobby, cached
finished games with ETag, /healthz, and the fair bot pool. Real servers on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

import asyncio
import contextlib
import json
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import websockets

from sushigo.server.testing import ServerProcess, create_table, http, http_full, join

TWO = [{"kind": "human"}, {"kind": "human"}]


def _start(database: str, tmp_path: Path, *args: str) -> ServerProcess:
    return ServerProcess(tmp_path, database=database, extra_args=list(args)).start()


def test_creation_is_rate_limited_and_capped_per_address(database: str, tmp_path: Path) -> None:
    server = _start(
        database,
        tmp_path,
        "--max-tables-per-address",
        "3",
        "--limit",
        "create-burst=5",
        "--forwarded-header",
        "X-Forwarded-For",
    )
    try:
        url = server.base + "/api/tables"
        me = {"X-Forwarded-For": "203.0.113.7"}
        for _ in range(3):
            assert http("POST", url, {"seats": TWO}, headers=me)[0] == 201
        status, data = http("POST", url, {"seats": TWO}, headers=me)
        assert status == 429 and data["detail"].startswith("table/limit:"), data
        # Another address is not affected; the proxy's last entry is the one trusted.
        other = {"X-Forwarded-For": "203.0.113.7, 198.51.100.2"}
        assert http("POST", url, {"seats": TWO}, headers=other)[0] == 201
        # The creation rate: the burst is spent, then 429 with Retry-After.
        statuses = []
        for i in range(6):
            st, headers, _ = http_full(
                "POST", url, {"seats": TWO}, headers={"X-Forwarded-For": f"192.0.2.{i % 2}"}
            )
            statuses.append(st)
        assert statuses.count(201) >= 4
        st, headers, body = http_full("POST", url, {"seats": TWO}, headers={"X-Forwarded-For": "192.0.2.9"})
        for _ in range(6):
            st, headers, body = http_full(
                "POST", url, {"seats": TWO}, headers={"X-Forwarded-For": "192.0.2.9"}
            )
        assert st == 429 and int(headers["retry-after"]) >= 1
        assert json.loads(body)["detail"].startswith("rate/limited:")
    finally:
        server.stop()


def test_the_forwarded_header_is_ignored_unless_configured(database: str, tmp_path: Path) -> None:
    server = _start(database, tmp_path, "--max-tables-per-address", "2")
    try:
        url = server.base + "/api/tables"
        for i in range(2):
            assert http("POST", url, {"seats": TWO}, headers={"X-Forwarded-For": f"10.0.0.{i}"})[0] == 201
        status, data = http("POST", url, {"seats": TWO}, headers={"X-Forwarded-For": "10.0.0.99"})
        assert status == 429 and data["detail"].startswith("table/limit:")
    finally:
        server.stop()


def test_the_websocket_budget_is_per_address_and_survives_reconnects(database: str, tmp_path: Path) -> None:
    server = _start(database, tmp_path, "--limit", "address-ws-burst=20", "--limit", "address-ws-rate=1")
    try:
        t = create_table(server.base, {"seats": TWO})
        url = f"{server.ws_base}/ws/tables/{t['id']}"

        async def pings(n: int) -> list[str]:
            kinds = []
            async with websockets.connect(url) as ws:
                for _ in range(n):
                    await ws.send(json.dumps({"type": "ping"}))
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    kinds.append(msg["type"] if msg["type"] == "pong" else msg["code"])
            return kinds

        async def scenario() -> list[str]:
            out: list[str] = []
            for _ in range(4):  # four reconnects, eight pings each: the address's 20 run out
                out += await pings(8)
            return out

        kinds = asyncio.run(scenario())
        assert kinds.count("pong") <= 22 and "rate/limited" in kinds[20:], kinds
    finally:
        server.stop()


def test_open_tables_are_abandoned_and_evicted(database: str, tmp_path: Path) -> None:
    server = _start(database, tmp_path, "--open-table-timeout", "1")
    try:
        t = create_table(server.base, {"seats": TWO})
        join(server.base, t["id"], "Lonely", 0)
        assert http("GET", f"{server.base}/healthz")[1]["rooms"] == 1
        deadline = time.monotonic() + 10
        while http("GET", f"{server.base}/api/tables/{t['id']}")[1]["status"] != "abandoned":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        info = http("GET", f"{server.base}/api/tables/{t['id']}")[1]
        assert info["finished_at"] is not None
        assert http("GET", f"{server.base}/healthz")[1]["rooms"] == 0
        status, _ = http("POST", f"{server.base}/api/tables/{t['id']}/join", {"name": "Late"})
        assert status == 409
        listed = http("GET", f"{server.base}/api/tables?status=abandoned")[1]["tables"]
        assert [x["id"] for x in listed] == [t["id"]]
        assert http("GET", f"{server.base}/api/tables/{t['id']}/record")[0] == 409
    finally:
        server.stop()


def test_the_lobby_pages_newest_first_and_finished_games_are_cached(database: str, tmp_path: Path) -> None:
    server = _start(database, tmp_path, "--limit", "create-burst=20", "--max-tables-per-address", "20")
    try:
        ids = [create_table(server.base, {"seats": TWO, "name": f"T{i}"})["id"] for i in range(5)]
        bots = create_table(server.base, {"seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot"}]})
        deadline = time.monotonic() + 30
        while http("GET", f"{server.base}/api/tables/{bots['id']}")[1]["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        seen: list[str] = []
        cursor = None
        while True:
            q = "status=open&limit=2" + (f"&cursor={cursor}" if cursor else "")
            page = http("GET", f"{server.base}/api/tables?{q}")[1]
            assert len(page["tables"]) <= 2
            seen += [x["id"] for x in page["tables"]]
            cursor = page["next"]
            if cursor is None:
                break
        assert seen == ids[::-1]
        everything = http("GET", f"{server.base}/api/tables?limit=100")[1]["tables"]
        assert {x["id"] for x in everything} == {*ids, bots["id"]}
        done = http("GET", f"{server.base}/api/tables?status=finished")[1]["tables"]
        assert [x["id"] for x in done] == [bots["id"]]
        assert done[0]["winner_names"] and done[0]["finished_at"] > done[0]["created_at"]
        for kind in ("record", "replay"):
            url = f"{server.base}/api/tables/{bots['id']}/{kind}"
            st, headers, body = http_full("GET", url)
            assert st == 200 and headers["etag"]
            _, headers2, body2 = http_full("GET", url)
            assert body2 == body and headers2["etag"] == headers["etag"]
            st3, _, body3 = http_full("GET", url, headers={"If-None-Match": headers["etag"]})
            assert st3 == 304 and body3 == b""
            assert http_full("GET", url, headers={"If-None-Match": '"other"'})[0] == 200
        health = http("GET", f"{server.base}/healthz")[1]
        assert health["status"] == "ok" and health["database"] is True
    finally:
        server.stop()


def test_the_lobby_query_uses_an_index(database: str) -> None:
    import sqlalchemy

    from sushigo.server.store import Store, normalise_url

    Store(database).close()
    engine = sqlalchemy.create_engine(normalise_url(database))
    names = {ix["name"] for ix in sqlalchemy.inspect(engine).get_indexes("sushigo_tables")}
    assert {"ix_sushigo_tables_status_created", "ix_sushigo_tables_status_finished"} <= names
    if database.startswith("sqlite"):
        with engine.connect() as conn:
            plan = conn.execute(
                sqlalchemy.text(
                    "EXPLAIN QUERY PLAN SELECT * FROM sushigo_tables WHERE status = 'open' "
                    "ORDER BY created_at DESC, id DESC LIMIT 21"
                )
            ).all()
        assert "ix_sushigo_tables_status_created" in " ".join(str(r) for r in plan)
    engine.dispose()


def test_the_bot_pool_serves_tables_round_robin() -> None:
    from sushigo.server.botpool import BotPool

    order: list[str] = []

    def job(name: str) -> str:
        time.sleep(0.01)
        order.append(name)
        return name

    async def scenario() -> list[Any]:
        pool = BotPool(1, executor=ThreadPoolExecutor(1))
        jobs = [("A", "a1"), ("A", "a2"), ("A", "a3"), ("A", "a4"), ("B", "b1"), ("C", "c1"), ("B", "b2")]
        results = await asyncio.gather(*(pool.run(table, job, name) for table, name in jobs))
        pool.close()
        return list(results)

    results = asyncio.run(scenario())
    assert results == ["a1", "a2", "a3", "a4", "b1", "c1", "b2"]
    assert order == ["a1", "b1", "c1", "a2", "b2", "a3", "a4"]


def test_search_budgets_are_capped_and_bots_think_in_another_process(database: str, tmp_path: Path) -> None:
    from sushigo.bots import make_bot
    from sushigo.server.botpool import cap_budget

    bot = make_bot("mcts", seed=1, game="sushi-go")
    bot.reset(0, "sushi-go", 2)
    capped = cap_budget(bot, 25.0)
    budgets = [getattr(p, "budget", None) for p in (capped, getattr(capped, "inner", None)) if p is not None]
    assert any(b is not None and b.time_ms == 25.0 for b in budgets)

    server = _start(database, tmp_path, "--bot-workers", "1", "--bot-move-ms", "20")
    try:
        start = time.monotonic()
        t = create_table(server.base, {"seats": [{"kind": "bot", "bot": "mcts"} for _ in range(4)]})
        deadline = time.monotonic() + 60
        while http("GET", f"{server.base}/api/tables/{t['id']}")[1]["status"] != "finished":
            assert time.monotonic() < deadline
            assert http("GET", f"{server.base}/healthz")[1]["thinking_bots"] <= 1
            time.sleep(0.2)
        # 4 seats x 3 rounds x 8 turns at about 20 ms each (plus start-up), not 400 iterations each.
        assert time.monotonic() - start < 40
    finally:
        server.stop()


def test_http_requests_connections_and_total_tables_are_bounded(database: str, tmp_path: Path) -> None:
    server = _start(
        database,
        tmp_path,
        "--max-tables",
        "2",
        "--limit",
        "http-rate=0.05",
        "--limit",
        "http-burst=12",
        "--limit",
        "max-connections-per-address=2",
        "--limit",
        "refusal-hold=1.0",
        "--limit",
        "refusal-holds-per-address=2",
    )
    try:
        url = server.base + "/api/tables"
        assert http("POST", url, {"seats": TWO})[0] == 201
        t = http("POST", url, {"seats": TWO})[1]
        status, data = http("POST", url, {"seats": TWO})
        assert status == 503 and data["detail"].startswith("server/busy:"), data

        async def third_connection() -> dict[str, Any]:
            ws_url = f"{server.ws_base}/ws/tables/{t['id']}"
            async with (
                websockets.connect(ws_url),
                websockets.connect(ws_url),
                websockets.connect(ws_url) as third,
            ):
                msg: dict[str, Any] = json.loads(await asyncio.wait_for(third.recv(), 10))
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(third.recv(), 10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
                return msg

        msg = asyncio.run(third_connection())
        assert msg["type"] == "error" and msg["code"] == "rate/limited"
        statuses: list[int] = []
        while 429 not in statuses and len(statuses) < 13:
            statuses.append(http_full("GET", url)[0])
        assert statuses[-1] == 429, statuses

        def timed_get(_: int) -> tuple[float, int, dict[str, str], bytes]:
            started = time.monotonic()
            st, headers, body = http_full("GET", url)
            return time.monotonic() - started, st, headers, body

        took, st, headers, body = timed_get(0)
        assert st == 429 and int(headers["retry-after"]) >= 1
        # Refused before routing, in the same shape as every other API error, and held first.
        assert json.loads(body) == {"detail": "rate/limited: too many requests; slow down"}
        assert headers["content-type"] == "application/json"
        assert took >= 1.0, took
        # At most two refusals of one address are held at once: of three together, one is not.
        with ThreadPoolExecutor(3) as pool:
            answers = sorted(pool.map(timed_get, range(3)), key=lambda a: a[0])
        assert [a[1] for a in answers] == [429, 429, 429]
        assert answers[0][0] < 0.9 <= 1.0 <= answers[1][0], [a[0] for a in answers]
    finally:
        server.stop()


def _finished_rooms_server(database: str, tmp_path: Path, *limits: str) -> ServerProcess:
    """A server whose rebuilds of finished rooms are budgeted at two per address (no refill)."""
    extra = ["--limit", "room-load-burst=2", "--limit", "room-loads-per-second=0.01"]
    for limit in limits:
        extra += ["--limit", limit]
    return _start(database, tmp_path, "--open-table-timeout", "1", *extra)


def _finished_bot_tables(server: ServerProcess, n: int) -> list[str]:
    tables = [
        create_table(server.base, {"seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot"}]})["id"]
        for _ in range(n)
    ]
    deadline = time.monotonic() + 60
    for t in tables:
        while http("GET", f"{server.base}/api/tables/{t}")[1]["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.1)
    return tables


def _rooms(server: ServerProcess) -> int:
    return int(http("GET", f"{server.base}/healthz")[1]["rooms"])


def _until_rooms(server: ServerProcess, n: int, seconds: float, why: str) -> None:
    """Waits for ``n`` rooms in memory: a spectator's leaving reaches the server a moment later."""
    deadline = time.monotonic() + seconds
    while _rooms(server) != n:
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


def _watch(server: ServerProcess, table_id: str) -> str:
    """Watches a table once: ``welcome``, or the error code it was refused with."""

    async def watch() -> str:
        async with websockets.connect(f"{server.ws_base}/ws/tables/{table_id}") as ws:
            with contextlib.suppress(websockets.ConnectionClosed):  # a refusal closes at once
                await ws.send(json.dumps({"type": "hello"}))
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return str(msg["type"] if msg["type"] == "welcome" else msg["code"])

    return asyncio.run(watch())


def test_finished_rooms_leave_memory(database: str, tmp_path: Path) -> None:
    server = _finished_rooms_server(database, tmp_path, "finished-room-seconds=0")
    try:
        (t,) = _finished_bot_tables(server, 1)
        _until_rooms(server, 0, 30, "the finished room stayed in memory")
        # Reading it again (table, record, replay) does not bring its room back.
        for suffix in ("", "/record", "/replay"):
            assert http("GET", f"{server.base}/api/tables/{t}{suffix}")[0] == 200
        assert _rooms(server) == 0

        # Watching it rebuilds the room, under a per-address budget (each rebuild replays the game).
        answers = []
        for _ in range(3):
            answers.append(_watch(server, t))
            _until_rooms(server, 0, 10, "not evicted on leaving")
        assert answers == ["welcome", "welcome", "rate/limited"]
    finally:
        server.stop()


def test_watched_finished_rooms_linger_a_while_and_are_capped(database: str, tmp_path: Path) -> None:
    """A stream of spectators of a finished game rebuilds its room once, not on every connect."""
    server = _finished_rooms_server(database, tmp_path, "finished-room-seconds=2", "finished-rooms=1")
    try:
        first, second = _finished_bot_tables(server, 2)
        # Finished unwatched: parked, then gone after the linger.
        _until_rooms(server, 0, 30, "finished rooms stayed in memory past their linger")
        # Five spectators in a row cost one rebuild: the budget of two loads would refuse a third.
        assert [_watch(server, first) for _ in range(5)] == ["welcome"] * 5
        assert _rooms(server) == 1
        # A second finished table pushes the first out (at most one parked room), so watching the first
        # again is a rebuild: the second and last of the load budget; a third rebuild is refused.
        assert _watch(server, second) == "welcome"
        _until_rooms(server, 1, 10, "the cap of one parked room did not evict the first")
        assert _watch(server, first) == "rate/limited"
    finally:
        server.stop()


def test_a_finished_game_is_rendered_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from sushigo.server import app as app_module

    calls: Counter[str] = Counter()
    real_record, real_replay = app_module.record_document, app_module.replay_document

    def counted_record(row: Any) -> Any:
        calls["record"] += 1
        return real_record(row)

    def counted_replay(row: Any, chat: Any) -> Any:
        calls["replay"] += 1
        return real_replay(row, chat)

    monkeypatch.setattr(app_module, "record_document", counted_record)
    monkeypatch.setattr(app_module, "replay_document", counted_replay)
    app = app_module.create_app(f"sqlite:///{tmp_path / 'once.sqlite3'}", bot_delay=0.0)
    with TestClient(app) as client:
        t = client.post(
            "/api/tables", json={"seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot"}]}
        ).json()
        deadline = time.monotonic() + 30
        while client.get(f"/api/tables/{t['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        for _ in range(5):
            assert client.get(f"/api/tables/{t['id']}/record").status_code == 200
            assert client.get(f"/api/tables/{t['id']}/replay").status_code == 200
    assert calls == {"record": 1, "replay": 1}


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                out.add(int(entry.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("how", ["stop", "kill"])
def test_bot_workers_end_with_the_server(tmp_path: Path, how: str) -> None:
    server = ServerProcess(tmp_path, database=f"sqlite:///{tmp_path / 'w.sqlite3'}").start()
    assert server.proc is not None
    pid = server.proc.pid
    try:
        create_table(server.base, {"seats": [{"kind": "bot", "bot": "mcts"}] * 2})
        deadline = time.monotonic() + 30
        workers: set[int] = set()
        while len(workers) < 1:
            assert time.monotonic() < deadline, "no bot worker started"
            time.sleep(0.2)
            workers = {c for c in _children(pid) if "spawn_main" in _cmdline(c)}
    finally:
        server.kill() if how == "kill" else server.stop()
    deadline = time.monotonic() + 15
    while any(Path(f"/proc/{w}").exists() and "spawn_main" in _cmdline(w) for w in workers):
        assert time.monotonic() < deadline, f"bot workers outlived the server ({how})"
        time.sleep(0.2)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


def test_bot_workers_leave_a_core_to_the_tables() -> None:
    from sushigo.server.limits import DEFAULT_BOT_WORKERS, Limits, default_bot_workers

    assert [default_bot_workers(n) for n in (None, 1, 2, 3, 4, 64)] == [1, 1, 1, 2, 2, 2]
    assert Limits().bot_workers == DEFAULT_BOT_WORKERS
