"""Security properties of accounts: cross-site requests, one account's cookie for another, brute force,
revoked tokens, and secrets that never reach a log, an answer or the database in clear."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sushigo.server.accounts.identity import SESSION_COOKIE
from sushigo.server.accounts.service import AccountSettings

from .conftest import CHEAP, ORIGIN, create, make_client, page_headers

PASSWORD = "correct horse battery"
TABLE = {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}]}


def test_another_origin_cannot_change_anything(client: TestClient) -> None:
    me = create(client)
    good = page_headers(me)
    attempts = [
        {"Origin": "https://evil.example", "X-CSRF-Token": me["csrf"]},  # foreign origin, right token
        {"Origin": "http://testserver.evil.example", "X-CSRF-Token": me["csrf"]},
        {"Origin": "null", "X-CSRF-Token": me["csrf"]},
        {"Referer": "https://evil.example/page", "X-CSRF-Token": me["csrf"]},
        {"X-CSRF-Token": me["csrf"]},  # no origin at all
        {"Origin": ORIGIN},  # this site, no token
        {"Origin": ORIGIN, "X-CSRF-Token": "forged"},
    ]
    for headers in attempts:
        for method, url, body in (
            ("POST", "/api/me/tokens", {"label": "evil"}),
            ("POST", "/api/me/password", {"old": PASSWORD, "new": "attacker password"}),
            ("DELETE", "/api/me", {"password": PASSWORD}),
            ("DELETE", "/api/session", None),
            ("POST", "/api/tables", TABLE),
        ):
            r = client.request(method, url, json=body, headers=headers)
            assert r.status_code == 403, (headers, url, r.status_code)
            assert r.json()["detail"].startswith("csrf/failed"), r.text
    # Nothing changed: the session lives, no token was made, the password is the same.
    assert client.get("/api/me").json()["tokens"] == 0
    assert client.get("/api/tables").json()["tables"] == []
    # A page of this site with its token may; a Referer of this site counts as the origin.
    ok = client.post("/api/me/tokens", json={"label": "mine"}, headers=good)
    assert ok.status_code == 201
    by_referer = {"Referer": f"{ORIGIN}/account", "X-CSRF-Token": me["csrf"]}
    assert client.post("/api/me/tokens", json={"label": "mine2"}, headers=by_referer).status_code == 201


def test_sign_in_from_another_site_is_refused(client: TestClient) -> None:
    create(client)
    client.cookies.clear()
    r = client.post(
        "/api/session",
        json={"name": "alice", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and r.json()["detail"].startswith("csrf/failed")
    r = client.post(
        "/api/account",
        json={"name": "mallory", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403
    # A program (no Origin at all) may sign in.
    assert client.post("/api/session", json={"name": "alice", "password": PASSWORD}).status_code == 200


def test_guests_and_programs_are_not_asked_for_a_csrf_token(client: TestClient) -> None:
    r = client.post("/api/tables", json=TABLE)
    assert r.status_code == 201, r.text
    me = create(client)
    token = client.post("/api/me/tokens", json={"label": "bot"}, headers=page_headers(me)).json()["token"]
    program = TestClient(client.app)
    r = program.post("/api/tables", json=TABLE, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201


def test_one_accounts_cookie_cannot_act_for_another(tmp_path: Path) -> None:
    with make_client(tmp_path) as alice:
        a = create(alice, "alice")
        bob = TestClient(alice.app)
        b = create(bob, "bobby")
        # Bob's cookie with Alice's CSRF token: refused (the token belongs to Alice's session).
        r = bob.post("/api/me/tokens", json={"label": "x"}, headers=page_headers(a))
        assert r.status_code == 403
        # Bob acting with his own cookie acts for Bob only.
        made = bob.post("/api/me/tokens", json={"label": "bob's"}, headers=page_headers(b)).json()
        assert alice.get("/api/me/tokens").json() == []
        # Bob cannot revoke Alice's token by its id.
        alices = alice.post("/api/me/tokens", json={"label": "alice's"}, headers=page_headers(a)).json()
        assert bob.delete(f"/api/me/tokens/{alices['id']}", headers=page_headers(b)).status_code == 404
        assert [t["id"] for t in alice.get("/api/me/tokens").json()] == [alices["id"]]
        # A bearer token is its own account's, whatever cookie comes with it.
        who = alice.get("/api/me", headers={"Authorization": f"Bearer {made['token']}"}).json()
        assert who["name"] == "bobby"
        # A forged or altered cookie is a guest.
        value = alice.cookies[SESSION_COOKIE]
        forged = TestClient(alice.app)
        forged.cookies.set(SESSION_COOKIE, value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
        assert forged.get("/api/me").status_code == 401


def test_sign_in_brute_force_is_refused_within_the_limits(tmp_path: Path) -> None:
    settings = AccountSettings(
        argon2_time_cost=1,
        argon2_memory_cost=8,
        argon2_parallelism=1,
        signin_per_minute=100.0,
        signin_burst=100.0,
        failures_burst=5.0,
        failures_per_hour=10.0,
    )
    with make_client(tmp_path, settings) as client:
        create(client)
        client.cookies.clear()
        codes = [
            client.post("/api/session", json={"name": "alice", "password": f"guess {i:04d}xx"}).status_code
            for i in range(8)
        ]
        assert codes[:5] == [401] * 5 and codes[5:] == [429] * 3
        r = client.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["detail"].startswith("auth/limited")
        assert int(r.headers["retry-after"]) > 0
        # Another account is not locked by attempts on this one.
        client.post("/api/account", json={"name": "bobby", "password": PASSWORD})
        client.cookies.clear()
        assert client.post("/api/session", json={"name": "bobby", "password": PASSWORD}).status_code == 200


def test_sign_in_per_address_is_limited(tmp_path: Path) -> None:
    settings = AccountSettings(
        argon2_time_cost=1,
        argon2_memory_cost=8,
        argon2_parallelism=1,
        signin_per_minute=3.0,
        signin_burst=3.0,
    )
    with make_client(tmp_path, settings) as client:
        codes = [
            client.post("/api/session", json={"name": f"user{i}", "password": PASSWORD}).status_code
            for i in range(5)
        ]
        assert codes == [401, 401, 401, 429, 429]


def test_accounts_per_address_per_hour_are_limited(client: TestClient) -> None:
    for i in range(CHEAP.accounts_per_hour):
        create(client, f"player{i}")
        client.cookies.clear()
    r = client.post("/api/account", json={"name": "one_more", "password": PASSWORD})
    assert r.status_code == 429 and r.json()["detail"].startswith("account/limit")
    assert "retry-after" in r.headers


def test_disabled_accounts_cannot_sign_in_or_act(client: TestClient) -> None:
    me = create(client)
    token = client.post("/api/me/tokens", json={"label": "b"}, headers=page_headers(me)).json()["token"]
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    accounts.store.set_disabled(me["id"], True)
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    client.cookies.clear()
    r = client.post("/api/session", json={"name": "alice", "password": PASSWORD})
    assert r.status_code == 403 and r.json()["detail"].startswith("account/disabled")
    # The wrong password still says only "wrong name or password".
    assert client.post("/api/session", json={"name": "alice", "password": "wrong wrong"}).status_code == 401


def test_secrets_never_reach_logs_answers_or_the_database(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    password = "Sup3r-Secret-Passw0rd-XYZ"
    new_password = "An0ther-Secret-Passw0rd-QRS"
    caplog.set_level(logging.DEBUG)
    with make_client(tmp_path) as client:
        r = client.post(
            "/api/account", json={"name": "carol", "password": password}, headers={"Origin": ORIGIN}
        )
        me = r.json()
        cookie = client.cookies[SESSION_COOKIE]
        h = page_headers(me)
        answers = [r.text, client.get("/api/me").text]
        made = client.post("/api/me/tokens", json={"label": "bot"}, headers=h)
        token = made.json()["token"]
        answers += [client.get("/api/me/tokens").text, client.get("/api/me/export").text]
        client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        client.post("/api/me/password", json={"old": password, "new": new_password}, headers=h)
        client.delete("/api/session", headers=h)
        client.post("/api/session", json={"name": "carol", "password": "wrong " + password})
        client.post("/api/session", json={"name": "carol", "password": new_password})
        answers.append(client.get("/api/me/export").text)
    secrets = [password, new_password, cookie, token, token[12:]]
    logged = caplog.text + "".join(str(rec.args) for rec in caplog.records)
    for secret in secrets:
        assert secret not in logged
    for text in answers:
        for secret in (password, new_password, cookie):
            assert secret not in text
    data = b"".join(p.read_bytes() for p in tmp_path.glob("accounts.sqlite3*"))
    assert data  # the database (and its write-ahead log) is there to scan
    for secret in secrets:
        assert secret.encode() not in data, "a secret is stored in clear"


def test_hashing_is_bounded(tmp_path: Path) -> None:
    settings = AccountSettings(argon2_time_cost=1, argon2_memory_cost=8, argon2_parallelism=1, hash_queue=0)
    with make_client(tmp_path, settings) as client:
        r = client.post("/api/account", json={"name": "alice", "password": PASSWORD})
        assert r.status_code == 503 and r.json()["detail"].startswith("server/busy")
        assert r.headers["retry-after"] == "5"
