"""Accounts through a real ``sushigo serve`` (uvicorn, default Argon2id cost, debug logging): the whole
flow works over HTTP, and neither the server's log (access lines included) nor its database file holds
a password, a session cookie or an API token."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sushigo.server.testing import ServerProcess, http_full

pytestmark = pytest.mark.slow


def test_a_live_server_keeps_secrets_out_of_its_log_and_database(tmp_path: Path) -> None:
    password = "Live-Secret-Passw0rd-123"
    new_password = "Live-Other-Passw0rd-456"
    with ServerProcess(tmp_path, extra_args=["--log-level", "debug"]) as server:
        base = server.base
        origin = {"Origin": base}
        status, headers, body = http_full(
            "POST", base + "/api/account", {"name": "dana", "password": password}
        )
        assert status == 201, body
        set_cookie = headers["set-cookie"]
        cookie = set_cookie.split(";")[0].split("=", 1)[1]
        me = json.loads(body)
        auth = {**origin, "Cookie": f"sushigo_session={cookie}", "X-CSRF-Token": me["csrf"]}
        status, _, body = http_full("POST", base + "/api/me/tokens", {"label": "bot"}, headers=auth)
        assert status == 201
        token = json.loads(body)["token"]
        status, _, body = http_full("GET", base + "/api/me", headers={"Authorization": f"Bearer {token}"})
        assert status == 200 and json.loads(body)["name"] == "dana"
        assert http_full("GET", base + "/api/me/export", headers=auth)[0] == 200
        change = {"old": password, "new": new_password}
        assert http_full("POST", base + "/api/me/password", change, headers=auth)[0] == 204
        wrong = {"name": "dana", "password": password}
        assert http_full("POST", base + "/api/session", wrong)[0] == 401
        right = {"name": "dana", "password": new_password}
        assert http_full("POST", base + "/api/session", right)[0] == 200
        assert http_full("DELETE", base + "/api/session", headers=auth)[0] == 204
        log = server.log_text()
    assert "POST /api/session" in log  # the access log was on
    for secret in (password, new_password, cookie, token, token[12:], me["csrf"]):
        assert secret not in log
    data = b"".join(p.read_bytes() for p in tmp_path.rglob("*.sqlite3*"))
    assert data
    for secret in (password, new_password, cookie, token):
        assert secret.encode() not in data
