"""Per-site state in a cluster (issue 23): two processes on one PostgreSQL answer as one site.

The tables-per-address limit counts the address's tables on every process (created on either, the
next is refused on both), and each process's lobby lists the tables the other one owns. A process
asked to join a table the other one owns answers 503 ``table/moving`` with ``Retry-After: 1`` and then
seats the player once the table has moved to it; SIGTERM leaves no table behind on the stopped process.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .conftest import start_site, stop_site

OPTIONS = "--max-tables-per-address 3 --create-per-minute 1000 --limit create-burst=100"


def _http(method: str, url: str, body: dict[str, Any] | None = None) -> tuple[int, Any, dict[str, str]]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return (
                response.status,
                json.loads(response.read()),
                {k.lower(): v for k, v in response.headers.items()},
            )
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), {k.lower(): v for k, v in exc.headers.items()}


def test_two_processes_answer_as_one_site(pg_database: str, tmp_path: Path) -> None:
    site = start_site(tmp_path, 2, pg_database, OPTIONS)
    try:
        (pid_a, a), (_, b) = [(pid, f"http://127.0.0.1:{port}") for pid, port in site.apps]
        body = {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
        made = []
        for base in (a, b, a):
            status, data, _ = _http("POST", base + "/api/tables", body)
            assert status == 201, data
            made.append(data["id"])
        for base in (a, b):  # the address has three tables on the site: refused on either process
            status, data, _ = _http("POST", base + "/api/tables", body)
            assert status == 429 and str(data["detail"]).startswith("table/limit"), data
        for base in (a, b):
            status, data, _ = _http("GET", base + "/api/tables?status=open")
            assert status == 200 and set(made) <= {t["id"] for t in data["tables"]}

        # B joins a table A owns: "moving", then seated once the table is B's.
        status, data, headers = _http("POST", f"{b}/api/tables/{made[0]}/join", {"name": "Ann"})
        assert status == 503 and str(data["detail"]).startswith("table/moving"), data
        assert headers.get("retry-after") == "1"
        for _ in range(50):
            status, data, _ = _http("POST", f"{b}/api/tables/{made[0]}/join", {"name": "Ann"})
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200 and data["seat"] == 0, data

        # SIGTERM of A: it exits by itself and B takes A's tables (its orphan scan) within seconds.
        os.kill(pid_a, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                os.kill(pid_a, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the SIGTERMed process did not exit")
        for table_id in made:
            for _ in range(50):
                status, data, _ = _http("POST", f"{b}/api/tables/{table_id}/join", {"name": "Bo"})
                if status != 503:
                    break
                time.sleep(0.1)
            assert status in (200, 409), (table_id, status, data)  # B owns it: seated, or the seat is taken
        assert "Traceback" not in site.log(0) + site.log(1)
    finally:
        stop_site(site)
