"""The cluster's shared fixtures: one throwaway PostgreSQL server for the folder, a fresh database per
test, and a site of ``sushigo serve`` processes behind Debian's nginx started by deploy/local-cluster.sh
(the script operators use). Everything here is slow: it starts real servers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")
pytest.importorskip("psycopg")

from sushigo.server.testing import PostgresUnavailable, free_port, throwaway_postgres

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/cluster/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def cluster_pg() -> Iterator[str]:
    """A throwaway PostgreSQL server (Debian's ``postgresql``): its base URL, without a database."""
    with ExitStack() as stack:
        try:
            base = stack.enter_context(throwaway_postgres("sushigo-cluster-pg-", "-c max_connections=100"))
        except PostgresUnavailable as exc:
            pytest.skip(str(exc))
        yield base


@pytest.fixture
def pg_database(cluster_pg: str) -> str:
    """A fresh database on the shared server: its URL."""
    import sqlalchemy

    from sushigo.server.store import normalise_url

    name = f"c{int(time.time() * 1000) % 10**9}_{os.getpid()}"
    eng = sqlalchemy.create_engine(normalise_url(cluster_pg + "/postgres"), isolation_level="AUTOCOMMIT")
    with eng.connect() as conn:
        conn.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    eng.dispose()
    return f"{cluster_pg}/{name}"


def nginx_binary() -> str:
    found = os.environ.get("SUSHIGO_NGINX") or shutil.which("nginx")
    if not found and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"
    if not found:
        pytest.skip("nginx is not installed (run scripts/install-system-deps.sh)")
    return found


@dataclass
class Site:
    """A local cluster: nginx's base URL, the app processes (pid, port) and the script's environment."""

    base: str
    apps: list[tuple[int, int]]
    nginx_pid: int
    env: dict[str, str] = field(repr=False)
    state: Path

    @property
    def ws_base(self) -> str:
        return "ws" + self.base[len("http") :]

    def log(self, i: int) -> str:
        path = self.state / f"app{i + 1}.log"
        return path.read_text(errors="replace") if path.exists() else ""


SCRIPT = ROOT / "deploy" / "local-cluster.sh"


def start_site(tmp_path: Path, n: int, database: str, options: str) -> Site:
    """Runs ``deploy/local-cluster.sh up N PORT DATABASE_URL``; :func:`stop_site` stops it."""
    nginx = nginx_binary()
    shim = tmp_path / "bin" / "sushigo"
    shim.parent.mkdir(exist_ok=True)
    shim.write_text(
        f'#!/bin/sh\nPYTHONPATH="{ROOT / "src"}" exec "{sys.executable}" -c '
        f'"from sushigo.cli import main; main()" "$@"\n'
    )
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "NGINX"}
    state = tmp_path / "site"
    env.update(
        PATH=f"{shim.parent}:{env.get('PATH', '')}",
        SUSHIGO_NGINX=nginx,
        SUSHIGO_CLUSTER_DIR=str(state),
        SUSHIGO_SERVE_OPTIONS=options,
    )
    port = free_port()
    up = subprocess.run(
        [str(SCRIPT), "up", str(n), str(port), database], capture_output=True, text=True, env=env, timeout=180
    )
    if up.returncode != 0:
        subprocess.run([str(SCRIPT), "down"], env=env, timeout=60)
        raise RuntimeError(f"local-cluster.sh up failed: {up.stderr}{up.stdout}")
    apps = []
    nginx_pid = 0
    for line in up.stdout.splitlines():
        words = line.split()
        if len(words) >= 5 and words[1] == "pid":
            if words[0] == "nginx":
                nginx_pid = int(words[2])
            else:
                apps.append((int(words[2]), int(words[4])))
    return Site(f"http://127.0.0.1:{port}", apps, nginx_pid, env, state)


def stop_site(site: Site) -> None:
    subprocess.run([str(SCRIPT), "down"], env=site.env, capture_output=True, timeout=60)


def restart_app(
    site: Site, i: int, database: str, timeout: float = 60.0, marks: list[tuple[str, float]] | None = None
) -> int:
    """Restarts the site's app ``i`` the way deploy/local-cluster.sh runs it: SIGTERM, wait for its exit
    (it hands its tables over), the same command on the same port, wait for ``/readyz``. Returns the new
    pid (kept in the script's pid file, so ``down`` stops it too); its log is appended to the old one's."""
    import shlex
    import signal
    import urllib.error
    import urllib.request

    pid, port = site.apps[i]
    marks = marks if marks is not None else []
    marks.append((f"app{i + 1} SIGTERM", time.time()))
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"app{i + 1} did not exit after SIGTERM")
    marks.append((f"app{i + 1} exited", time.time()))
    options = shlex.split(site.env.get("SUSHIGO_SERVE_OPTIONS", ""))
    with open(site.state / f"app{i + 1}.log", "ab") as logf:
        proc = subprocess.Popen(
            ["sushigo", "serve", "--host", "127.0.0.1", "--port", str(port), "--database", database,
             "--forwarded-header", "X-Real-IP", *options],
            stdout=logf, stderr=subprocess.STDOUT, env=site.env, start_new_session=False,
        )  # fmt: skip
    with open(site.state / "pids", "a") as pids:
        pids.write(f"{proc.pid}\n")
    site.apps[i] = (proc.pid, port)
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"app{i + 1} ended at its restart: {site.log(i)[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as r:
                if r.status == 200:
                    marks.append((f"app{i + 1} ready", time.time()))
                    return proc.pid
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"app{i + 1} was not ready in {timeout} s after its restart")
