"""The deploy files (issue 23): nginx accepts deploy/nginx.conf and routes by table, the local cluster
script starts and stops a site, and the image's build stage has all the package needs.

The nginx tests need Debian's ``nginx`` (scripts/install-system-deps.sh installs it; CI has it) and skip
without it.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sushigo.server.testing import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def _nginx() -> str:
    found = os.environ.get("SUSHIGO_NGINX") or shutil.which("nginx")
    if not found and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"
    if not found:
        pytest.skip("nginx is not installed (run scripts/install-system-deps.sh)")
    return found


def _prefix(tmp_path: Path, upstreams: str, port: int = 8080) -> Path:
    """An nginx prefix holding deploy/nginx.conf (listening on ``port``) and an upstream file."""
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    conf = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    assert "listen 8080;" in conf
    (prefix / "nginx.conf").write_text(
        conf.replace("listen 8080;", f"listen 127.0.0.1:{port};"), encoding="utf-8"
    )
    (prefix / "sushigo-upstreams.conf").write_text(upstreams, encoding="utf-8")
    return prefix


def _check(nginx: str, prefix: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [nginx, "-t", "-p", f"{prefix}/", "-c", str(prefix / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=30,
        env={k: v for k, v in os.environ.items() if k != "NGINX"},
    )


@pytest.mark.parametrize("upstreams", ["sushigo-upstreams.conf", "sushigo-upstreams-one.conf"])
def test_nginx_accepts_the_config_with_each_shipped_upstream_file(tmp_path: Path, upstreams: str) -> None:
    nginx = _nginx()
    # compose.yaml's host names resolve only inside its network: the same lines on loopback ports.
    text = (DEPLOY / upstreams).read_text(encoding="utf-8")
    for i in (1, 2, 3):
        text = text.replace(f"app{i}:8000", f"127.0.0.1:{18000 + i}")
    result = _check(nginx, _prefix(tmp_path, text))
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


class _Named(http.server.BaseHTTPRequestHandler):
    """A stand-in app process: answers every request with its own name."""

    protocol_version = "HTTP/1.1"
    name = ""

    def do_GET(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))  # the connection is kept alive
        body = json.dumps({"process": self.name, "path": self.path, "address": self.headers["X-Real-IP"]})
        data = body.encode()
        self.send_response(201 if self.command == "POST" else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def processes() -> Iterator[list[int]]:
    servers = []
    for name in ("one", "two", "three"):
        handler = type(f"Named_{name}", (_Named,), {"name": name})
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    try:
        yield [s.server_address[1] for s in servers]
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def _get(url: str, method: str = "GET") -> tuple[int, dict[str, object], dict[str, str]]:
    request = urllib.request.Request(url, method=method, data=b"{}" if method == "POST" else None)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}"), dict(exc.headers)


def test_nginx_sends_a_table_to_one_process_and_spreads_the_rest(
    tmp_path: Path, processes: list[int]
) -> None:
    nginx = _nginx()
    port = free_port()
    prefix = _prefix(tmp_path, "".join(f"server 127.0.0.1:{p};\n" for p in processes), port)
    env = {k: v for k, v in os.environ.items() if k != "NGINX"}
    log = tmp_path / "nginx.log"
    with log.open("w") as out:  # the daemon keeps its stderr: a pipe would never close
        started = subprocess.run(
            [nginx, "-p", f"{prefix}/", "-c", str(prefix / "nginx.conf")],
            stdout=out,
            stderr=out,
            env=env,
            timeout=30,
        )
    assert started.returncode == 0, log.read_text()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                _get(base + "/")
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        owners = {}
        for i in range(24):
            table = f"Tab1e-{i}_x"
            seen = {
                _get(base + path)[1]["process"]
                for path in (
                    f"/t/{table}",
                    f"/ws/tables/{table}",
                    f"/api/tables/{table}",
                    f"/api/tables/{table}/record",
                    f"/replay/{table}",
                    f"/t/{table}",
                )
            }
            assert len(seen) == 1, (table, seen)  # every request of one table: one process
            owners[table] = seen.pop()
        assert len(set(owners.values())) == 3  # and the tables are spread over all of them
        rest = [_get(base + "/api/games")[1]["process"] for _ in range(6)]
        assert set(rest) == {"one", "two", "three"}  # the rest: round-robin
        status, body, _ = _get(base + "/")
        assert status == 200 and body["address"] == "127.0.0.1"  # nginx writes X-Real-IP
        for path in ("/metrics", "/livez", "/readyz", "/healthz"):
            code, body, _ = _get(base + path)
            assert (code, body["code"]) == (404, "ops/internal")  # for the operator's network only
        # Table creation is limited per address at the edge, and refused as the API refuses.
        codes = [_get(base + "/api/tables", "POST") for _ in range(8)]
        assert [c for c, _, _ in codes].count(201) <= 6
        refused = [(body, headers) for code, body, headers in codes if code == 429]
        assert refused and refused[0][0]["code"] == "rate/limited"
        assert refused[0][1]["Retry-After"] == "1"
        big = urllib.request.Request(base + "/api/tables", data=b"x" * 20_000, method="POST")
        with pytest.raises(urllib.error.HTTPError) as too_large:
            urllib.request.urlopen(big, timeout=5)
        assert too_large.value.code == 413
        assert json.loads(too_large.value.read())["code"] == "request/too_large"
    finally:
        subprocess.run(
            [nginx, "-p", f"{prefix}/", "-c", str(prefix / "nginx.conf"), "-s", "stop"],
            capture_output=True,
            env=env,
            timeout=30,
        )


def test_the_local_cluster_script_starts_a_site_and_stops_what_it_started(tmp_path: Path) -> None:
    nginx = _nginx()
    shim = tmp_path / "bin" / "sushigo"
    shim.parent.mkdir()
    src = ROOT / "src"
    shim.write_text(
        f'#!/bin/sh\nPYTHONPATH="{src}" exec "{sys.executable}" -c "from sushigo.cli import main; main()" "$@"\n'
    )
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "NGINX"}
    env.update(
        PATH=f"{shim.parent}:{env.get('PATH', '')}",
        SUSHIGO_NGINX=nginx,
        SUSHIGO_CLUSTER_DIR=str(tmp_path / "cluster"),
        SUSHIGO_SERVE_OPTIONS=f"--data-dir {tmp_path}",
    )
    port = free_port()
    script = str(DEPLOY / "local-cluster.sh")
    database = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    up = subprocess.run(
        [script, "up", "1", str(port), database], capture_output=True, text=True, env=env, timeout=120
    )
    try:
        assert up.returncode == 0, up.stderr + up.stdout
        pids = [int(line.split()[2]) for line in up.stdout.splitlines() if " pid " in line]
        assert len(pids) == 2  # one app process and nginx
        base = f"http://127.0.0.1:{port}"
        request = urllib.request.Request(
            base + "/api/tables",
            data=json.dumps({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            table = json.loads(response.read())
        with urllib.request.urlopen(f"{base}/api/tables/{table['id']}", timeout=10) as response:
            assert json.loads(response.read())["status"] == "open"
        again = subprocess.run(
            [script, "up", "1", str(port), database], capture_output=True, text=True, env=env
        )
        assert again.returncode == 2 and "already up" in again.stderr
    finally:
        down = subprocess.run([script, "down"], capture_output=True, text=True, env=env, timeout=60)
    assert down.returncode == 0, down.stderr
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids):
        assert time.monotonic() < deadline, "local-cluster.sh down left a process running"
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie child of nobody here is gone for our purposes.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
def test_the_image_build_stage_has_everything_the_package_needs(tmp_path: Path) -> None:
    """deploy/Dockerfile builds the wheel from pyproject.toml, README.md and src/ alone (its
    Dockerfile.dockerignore lets nothing else in): that wheel must carry the pages and catalogues."""
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert "COPY pyproject.toml README.md ./" in dockerfile and "COPY src ./src" in dockerfile
    assert "USER sushigo" in dockerfile and '"sushigo", "serve", "--host", "0.0.0.0"' in dockerfile
    context = tmp_path / "context"
    context.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, context / name)
    shutil.copytree(ROOT / "src", context / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            ".",
        ],
        cwd=context,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if built.returncode != 0 and "No module named pip" in built.stderr:
        pytest.skip("pip is not available in this environment")
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("sushigo-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "sushigo/server/static/index.html",
        "sushigo/server/static/table.html",
        "sushigo/server/app.py",
        "sushigo/server/metrics.py",
        # the image's database upgrades run from the wheel's Alembic history
        "sushigo/server/migrations/env.py",
        "sushigo/server/migrations/versions/0001_baseline.py",
        "sushigo/server/migrations/versions/0003_owners.py",
    ):
        assert needed in names, needed
    assert any(n.startswith("sushigo/i18n/locale/") for n in names)
