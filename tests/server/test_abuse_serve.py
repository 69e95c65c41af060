"""``sushigo serve`` fails in one clear line (exit 1, no traceback) on a busy port, a bad database URL,
an unreachable PostgreSQL or an unwritable data folder; it says "open http://" only once listening, and
can log JSON lines."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

from sushigo.server.testing import ServerProcess, free_port, http


def _serve(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sushigo.cli", "serve", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr + result.stdout
    assert "open http" not in result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_a_busy_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        _one_clear_line(
            _serve("--port", str(port), "--data-dir", str(tmp_path)), f"127.0.0.1:{port}", "in use"
        )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--database", "bogus://x"], ["bogus://x"]),
        (["--database", "postgresql://nobody:secret@127.0.0.1:1/x"], ["127.0.0.1:1", "cannot open database"]),
        (["--data-dir", "/proc/nope"], ["/proc/nope"]),
    ],
)
def test_bad_databases_and_folders_are_one_line(args: list[str], words: list[str], tmp_path: Path) -> None:
    args = args if "--data-dir" in args else [*args, "--data-dir", str(tmp_path)]
    result = _serve("--port", str(free_port()), *args)
    _one_clear_line(result, *words)
    assert "secret" not in result.stderr


def test_open_is_printed_once_listening_and_logs_can_be_json(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sushigo.cli",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(tmp_path),
            "--log-format",
            "json",
            "--log-level",
            "info",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"sushigo: open http://localhost:{port}/")
        # Listening already when the line appears.
        assert http("GET", f"http://127.0.0.1:{port}/healthz")[0] == 200
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    entries = [json.loads(x) for x in err.splitlines() if x.strip()]
    assert entries and all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    assert any("GET /healthz" in e["message"] for e in entries)


def test_healthz_reports_a_database_that_went_away(postgres_url: str, tmp_path: Path) -> None:
    import sqlalchemy

    from sushigo.server.store import normalise_url

    name = f"h{int(time.time() * 1000) % 10**9}"
    eng = sqlalchemy.create_engine(normalise_url(postgres_url), isolation_level="AUTOCOMMIT")
    with eng.connect() as conn:
        conn.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    url = postgres_url.rsplit("/", 1)[0] + "/" + name
    server = ServerProcess(tmp_path, database=url).start()
    try:
        assert http("GET", server.base + "/healthz")[1]["database"] is True
        with eng.connect() as conn:
            conn.execute(sqlalchemy.text(f"DROP DATABASE {name} WITH (FORCE)"))
        status, body = http("GET", server.base + "/healthz")
        assert status == 503 and body["status"] == "unavailable" and body["database"] is False
    finally:
        server.stop()
        eng.dispose()
