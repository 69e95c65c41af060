"""Load benchmark: many four-player bot-vs-bot tables played over real WebSockets on loopback.

Starts ``sushigo serve`` as a subprocess (SQLite in a temporary folder unless ``--database``), creates
``--tables`` tables whose seats are all "human" seats played by random clients in this process, connects
every client (``connect_all_s``: how long the 4 × tables sockets took to open and get their first state),
then plays all tables at once (each starting at its own offset within ``--stagger`` seconds) and reports tables per second, action latency (send → ack, which includes
the database commit) p50/p99, the server's CPU per action, message sizes and the server's memory per
table (peak RSS growth / tables).

    python benchmarks/load_tables.py --tables 200 --think 0.5

``--through-nginx N`` (PostgreSQL ``--database`` needed) plays the same load through Debian's nginx with
deploy/nginx.conf twice: in front of one process, then of N processes on the same database (each table
owned by one of them, docs/deploy.md "Cluster"), and prints both reports and their ratios, with the
database's commits and row writes per second (``pg_stat_database``). nginx's per-address edge limits are
lifted like the processes' own (every client here is one loopback address).

    python benchmarks/load_tables.py --tables 40 --through-nginx 2 --database postgresql://...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from sushigo.server.testing import ServerProcess, create_table, free_port, http, play_seat

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"

#: Every client here comes from one loopback address: lift the per-address limits meant for the open web.
UNLIMITED = [
    "--create-per-minute=1000000",
    "--max-tables-per-address=100000",
    "--max-tables=100000",
    *(
        f"--limit={name}=1000000"
        for name in (
            "create-burst",
            "address-ws-rate",
            "address-ws-burst",
            "connects-per-second",
            "connect-burst",
            "max-connections-per-address",
            "http-rate",
            "http-burst",
        )
    ),
]


def cpu_s(pid: int) -> float:
    """Returns the user + system CPU seconds a process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Target:
    """Where the clients go (one process, or nginx in front of several) and the server processes."""

    base: str
    ws_base: str
    pids: list[int]


def join_seat(base: str, table_id: str, name: str, seat: int) -> str:
    """Joins a seat; behind nginx the table may first move to the process nginx routes it to (503)."""
    for _ in range(100):
        status, data = http("POST", f"{base}/api/tables/{table_id}/join", {"name": name, "seat": seat})
        if status == 200:
            return str(data["token"])
        if status != 503:
            raise RuntimeError(f"join: {status} {data}")
        time.sleep(0.1)
    raise RuntimeError(f"join: table {table_id} did not settle")


async def run(args: argparse.Namespace, server: Target) -> dict[str, object]:
    pids = server.pids

    def cpu() -> float:
        return sum(cpu_s(p) for p in pids)

    def rss() -> int:
        return sum(rss_kib(p) for p in pids)

    base_rss = rss()
    tables = []
    for _ in range(args.tables):
        t = create_table(server.base, {"game": args.game, "seats": [{"kind": "human"}] * args.players})
        tokens = [join_seat(server.base, t["id"], f"P{s}", s) for s in range(args.players)]
        tables.append((t["id"], tokens))
    latencies: list[float] = []
    # Every message of the first few tables' seats is kept to measure message sizes.
    logs: dict[int, list[dict[str, object]]] = {i: [] for i in range(min(args.size_tables, len(tables)))}
    peak = base_rss
    done = False
    usage0 = resource.getrusage(resource.RUSAGE_SELF)

    async def sample() -> None:
        nonlocal peak
        while not done:
            peak = max(peak, rss())
            await asyncio.sleep(0.2)

    sampler = asyncio.create_task(sample())
    clients = len(tables) * args.players
    connected = 0
    go = asyncio.Event()
    marks: dict[str, float] = {}

    # Independent tables are at independent moments of their games: each starts at its own offset, so
    # that 200 tables do not all end a turn, a round and the game in the same instant.
    offsets = random.Random(1).sample(range(len(tables)), len(tables))

    def ready_for(table: int) -> Callable[[], Awaitable[None]]:
        async def ready() -> None:
            """Holds every client until all are connected: the figures are for tables being played,
            and a thundering herd of 800 sockets opening in the same second is measured on its own."""
            nonlocal connected
            connected += 1
            if connected == clients:
                marks["connected"] = time.perf_counter()
                marks["cpu"] = cpu()
                marks["writes"] = float(_db_writes(args.database)[0]) if args.through_nginx else 0.0
                go.set()
            await go.wait()
            await asyncio.sleep(args.stagger * offsets[table] / max(1, len(tables)))

        return ready

    connect_start = time.perf_counter()
    connect_cpu0 = cpu()
    results = await asyncio.gather(
        *(
            play_seat(
                server.ws_base,
                tid,
                tok,
                latencies=latencies,
                seed=i * 10 + s,
                think=args.think,
                timeout=args.timeout,
                log=logs.get(i) if s == 0 else None,
                ready=ready_for(i),
            )
            for i, (tid, tokens) in enumerate(tables)
            for s, tok in enumerate(tokens)
        ),
        return_exceptions=True,
    )
    start = marks.get("connected", connect_start)
    wall = time.perf_counter() - start
    server_cpu = cpu() - marks.get("cpu", connect_cpu0)
    commits = (
        (_db_writes(args.database)[0] - marks["writes"]) if args.through_nginx and "writes" in marks else 0
    )
    usage1 = resource.getrusage(resource.RUSAGE_SELF)
    # The client's CPU over the whole run (connects included): resource has no mark at the barrier.
    client_cpu = (usage1.ru_utime + usage1.ru_stime) - (usage0.ru_utime + usage0.ru_stime)
    done = True
    await sampler
    failures = [r for r in results if isinstance(r, BaseException)]
    finished = (
        sum(1 for r in results if isinstance(r, dict) and r.get("view", {}).get("is_over")) // args.players
    )
    lat = sorted(latencies)
    sizes = sorted(
        len(json.dumps(m, separators=(",", ":")).encode())
        for log in logs.values()
        for m in log
        if m.get("type") == "state"
    )
    # Everything one seat receives over a whole game (states, picks, acks, presence): the wire cost.
    per_seat = [
        (len(log), sum(len(json.dumps(m, separators=(",", ":")).encode()) for m in log))
        for log in logs.values()
    ]
    return {
        "game": args.game,
        "tables": args.tables,
        "players": args.players,
        "think_mean_s": args.think,
        "stagger_s": args.stagger,
        "finished_tables": finished,
        "failed_clients": len(failures),
        "first_failure": repr(failures[0])[:200] if failures else None,
        "clients": clients,
        "connect_all_s": round(start - connect_start, 2),
        "connect_server_cpu_ms_per_client": round(
            (marks.get("cpu", connect_cpu0) - connect_cpu0) * 1000 / max(1, clients), 3
        ),
        "wall_s": round(wall, 2),
        "tables_per_s": round(finished / wall, 2),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / wall, 1),
        "latency_p50_ms": round(statistics.median(lat) * 1000, 2) if lat else None,
        "latency_p99_ms": round(lat[int(len(lat) * 0.99) - 1] * 1000, 2) if lat else None,
        "latency_max_ms": round(lat[-1] * 1000, 2) if lat else None,
        "state_msg_bytes_mean": round(statistics.mean(sizes)) if sizes else None,
        "state_msg_bytes_max": sizes[-1] if sizes else None,
        "msgs_per_seat_game": round(statistics.mean(n for n, _ in per_seat)) if per_seat else None,
        "kib_per_seat_game": round(statistics.mean(b for _, b in per_seat) / 1024, 1) if per_seat else None,
        "server_cpu_share": round(server_cpu / wall, 2),
        # CPU time per action is much less sensitive than latency to other work on the machine.
        "server_cpu_ms_per_action": round(server_cpu * 1000 / max(1, len(lat)), 3),
        "client_cpu_share": round(client_cpu / (wall + start - connect_start), 2),
        "server_rss_base_mib": round(base_rss / 1024, 1),
        "server_rss_peak_mib": round(peak / 1024, 1),
        "memory_per_table_kib": round((peak - base_rss) / max(1, args.tables), 1),
        "processes": len(pids),
        "db_commits_per_s": round(commits / wall, 1) if args.through_nginx else None,
    }


def _db_writes(url: str) -> tuple[int, int]:
    """The database's committed transactions and written rows so far (``pg_stat_database``)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted FROM pg_stat_database "
            "WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


class NginxSite:
    """``n`` server processes on one PostgreSQL database behind nginx with deploy/nginx.conf (its
    per-address limits lifted: every benchmark client is one loopback address)."""

    def __init__(self, tmp: Path, n: int, database: str, extra_args: list[str], env: dict[str, str] | None):
        self.prefix = tmp / f"nginx{n}"
        self.prefix.mkdir()
        self.servers = [
            ServerProcess(
                tmp,
                database=database,
                extra_env=env,
                extra_args=[*extra_args, "--forwarded-header", "X-Real-IP"],
            )
            for _ in range(n)
        ]
        self.port = free_port()
        self.nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.started: list[ServerProcess] = []

    def start(self) -> Target:
        for server in self.servers:
            self.started.append(server.start())
        (self.prefix / "sushigo-upstreams.conf").write_text(
            "".join(f"server 127.0.0.1:{s.port} max_fails=1 fail_timeout=5s;\n" for s in self.servers)
        )
        conf = (
            (DEPLOY / "nginx.conf")
            .read_text(encoding="utf-8")
            .replace("listen 8080;", f"listen {self.port};")
        )
        conf = re.sub(r"(?m)^\s*limit_(req|conn) .*;$\n", "", conf)
        (self.prefix / "nginx.conf").write_text(conf, encoding="utf-8")
        # nginx daemonizes and keeps its stderr: a log file, never a pipe this process would wait on.
        with open(self.prefix / "nginx.log", "ab") as log:
            subprocess.run(
                [self.nginx, "-p", f"{self.prefix}/", "-c", str(self.prefix / "nginx.conf")],
                check=True,
                stdout=log,
                stderr=log,
            )
        base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                if http("GET", base + "/api/health", timeout=1.0)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        return Target(base, "ws" + base[4:], [s.proc.pid for s in self.servers if s.proc is not None])

    def stop(self) -> None:
        subprocess.run(
            [self.nginx, "-p", f"{self.prefix}/", "-c", str(self.prefix / "nginx.conf"), "-s", "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for server in self.started:
            server.stop()


def _ratio(a: object, b: object) -> float | None:
    if isinstance(a, int | float) and isinstance(b, int | float) and b:
        return round(float(a) / float(b), 2)
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", default="sushi-go", choices=["sushi-go", "sushi-roll"])
    ap.add_argument("--think", type=float, default=0.5, help="Mean seconds a client waits before acting.")
    ap.add_argument(
        "--stagger",
        type=float,
        default=3.0,
        help="Tables start spread evenly over this many seconds once all clients are connected "
        "(0: all at once, every turn of every table in lockstep).",
    )
    ap.add_argument("--database", default=None, help="SQLAlchemy URL (default: SQLite in a temp folder).")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument(
        "--size-tables", type=int, default=5, help="Tables whose first seat's messages are measured."
    )
    ap.add_argument("--ws", default="auto", help="Uvicorn WebSocket implementation of the server.")
    ap.add_argument(
        "--server-src",
        default=None,
        help="Run the server from another checkout's src folder (a before/after comparison in one run; "
        "e.g. a git worktree of an older commit). The clients always use this checkout.",
    )
    ap.add_argument(
        "--through-nginx",
        type=int,
        default=0,
        metavar="N",
        help="Through nginx: the load with 1 process, then with N processes on one PostgreSQL (--database).",
    )
    args = ap.parse_args()
    if args.through_nginx:
        if not (args.database or "").startswith("postgres"):
            ap.error("--through-nginx needs --database postgresql://... (processes share one database)")
        return through_nginx(args)
    with tempfile.TemporaryDirectory() as tmp:
        env = {"PYTHONPATH": str(Path(args.server_src).resolve())} if args.server_src else None
        server = ServerProcess(
            tmp, database=args.database, extra_env=env, extra_args=["--ws", args.ws, *UNLIMITED]
        ).start()
        assert server.proc is not None
        try:
            report = asyncio.run(run(args, Target(server.base, server.ws_base, [server.proc.pid])))
        finally:
            server.stop()
    print(json.dumps(report, indent=2))
    return 0 if report["failed_clients"] == 0 else 1


def through_nginx(args: argparse.Namespace) -> int:
    """The same load through nginx in front of 1, then N processes: both reports and their ratios."""
    env = {"PYTHONPATH": str(Path(args.server_src).resolve())} if args.server_src else None
    reports = []
    for n in (1, args.through_nginx):
        with tempfile.TemporaryDirectory() as tmp:
            site = NginxSite(Path(tmp), n, args.database, ["--ws", args.ws, *UNLIMITED], env)
            try:
                target = site.start()
                reports.append(asyncio.run(run(args, target)))
            finally:
                site.stop()
    one, many = reports
    keys = (
        "actions_per_s",
        "latency_p50_ms",
        "latency_p99_ms",
        "server_cpu_ms_per_action",
        "db_commits_per_s",
    )
    print(
        json.dumps(
            {
                "one_process": one,
                f"{args.through_nginx}_processes": many,
                "ratio_n_to_1": {k: _ratio(many[k], one[k]) for k in keys},
            },
            indent=2,
        )
    )
    return 0 if one["failed_clients"] == 0 and many["failed_clients"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
