"""examples/program_client.py plays a whole game against a live server as its account's program."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

import json
import subprocess
import sys
from pathlib import Path

from sushigo.server.testing import ServerProcess, http, http_full

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "program_client.py"


def test_the_example_program_plays_a_game_to_the_end_as_its_account(tmp_path: Path) -> None:
    with ServerProcess(tmp_path) as server:
        status, headers, body = http_full(
            "POST", server.base + "/api/account", {"name": "robo_chef", "password": "a long passphrase"}
        )
        assert status == 201, body
        me = json.loads(body)
        session = {
            "Cookie": headers["set-cookie"].split(";")[0],
            "Origin": server.base,
            "X-CSRF-Token": me["csrf"],
        }
        status, made = http("POST", server.base + "/api/me/tokens", {"label": "example"}, headers=session)
        assert status == 201, made
        run = subprocess.run(
            [sys.executable, str(EXAMPLE), "--server", server.base, "--token", made["token"], "--bots", "2"],
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert run.returncode == 0, run.stderr
        assert made["token"] not in run.stdout + run.stderr
        line = run.stdout.strip().splitlines()[-1]
        assert line.startswith("table ") and "finished: robo_chef " in line, line
        table_id = line.split()[1]
        table = http("GET", f"{server.base}/api/tables/{table_id}")[1]
        assert table["status"] == "finished"
        seat = table["seats"][0]
        assert (seat["name"], seat["account"], seat["program"]) == ("robo_chef", "robo_chef", True)
        # A revoked token is refused at once: the program says so in one line and exits 1.
        assert http("DELETE", f"{server.base}/api/me/tokens/{made['id']}", headers=session)[0] == 204
        refused = subprocess.run(
            [sys.executable, str(EXAMPLE), "--server", server.base, "--token", made["token"]],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr, refused.stderr
