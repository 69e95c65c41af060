"""identify() and identify_socket(): the one place that says who a request or a WebSocket is; session
expiry and its sliding renewal; the hooks other parts listen on; password rehashing."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from sushigo.server.accounts import identity
from sushigo.server.accounts.identity import SESSION_COOKIE, Identity
from sushigo.server.accounts.models import sessions_t, users_t
from sushigo.server.accounts.service import AccountSettings, sha256

from .conftest import CHEAP, create, make_client, page_headers

PASSWORD = "correct horse battery"


def _socket(app: Any, headers: dict[str, str]) -> Any:
    raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    return SimpleNamespace(scope={"type": "websocket", "app": app, "headers": raw, "scheme": "ws"})


def _who(client: TestClient, headers: dict[str, str], socket: bool = True) -> Identity | None:
    ws = _socket(client.app, {"Host": "testserver", **headers})
    fn = identity.identify_socket if socket else identity.identify
    found: Identity | None = client.portal.call(fn, ws)  # type: ignore[union-attr]
    return found


def test_identify_socket_takes_a_same_origin_cookie_or_a_token(client: TestClient) -> None:
    me = create(client)
    cookie = client.cookies[SESSION_COOKIE]
    token = client.post("/api/me/tokens", json={"label": "bot"}, headers=page_headers(me)).json()["token"]
    jar = f"{SESSION_COOKIE}={cookie}"

    who = _who(client, {"Cookie": jar, "Origin": "http://testserver"})
    assert who is not None and who.user_id == me["id"] and who.name == "alice"
    assert who.program is False and who.session == sha256(cookie) and who.token_id is None
    # Another site's page opening a socket with the visitor's cookie: a guest.
    assert _who(client, {"Cookie": jar, "Origin": "https://evil.example"}) is None
    assert _who(client, {"Cookie": jar}) is None  # browsers always send Origin on a WebSocket
    # A program: a bearer token, whatever the origin.
    program = _who(client, {"Authorization": f"Bearer {token}"})
    assert program is not None and program.program and program.session is None
    assert program.user_id == me["id"] and program.token_id is not None
    assert _who(client, {"Authorization": "Bearer sgp_" + "x" * 43}) is None
    # identify() on a request-like scope behaves the same for the cookie (no origin needed to read).
    assert _who(client, {"Cookie": jar}, socket=False) is not None


def test_revoking_calls_the_hooks_and_the_next_identify_is_a_guest(client: TestClient) -> None:
    me = create(client)
    h = page_headers(me)
    made = client.post("/api/me/tokens", json={"label": "bot"}, headers=h).json()
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    revoked: list[int] = []
    ended: list[str] = []
    accounts.revoked.append(revoked.append)
    accounts.ended.append(ended.append)
    # One connection, asked before and after the revocation (a socket re-checks before an action).
    ws = _socket(client.app, {"Authorization": f"Bearer {made['token']}"})
    before = client.portal.call(identity.identify_socket, ws)  # type: ignore[union-attr]
    assert before is not None
    client.delete(f"/api/me/tokens/{made['id']}", headers=h)
    assert revoked == [made["id"]] == [before.token_id]
    assert client.portal.call(identity.identify_socket, ws) is None  # type: ignore[union-attr]
    cookie = client.cookies[SESSION_COOKIE]
    client.delete("/api/session", headers=h)
    assert ended == [sha256(cookie)]


def test_sessions_expire_and_slide(tmp_path: Path) -> None:
    settings = AccountSettings(
        argon2_time_cost=1,
        argon2_memory_cost=8,
        argon2_parallelism=1,
        session_seconds=1000.0,
        session_refresh=10.0,
    )
    with make_client(tmp_path, settings) as client:
        create(client)
        digest = sha256(client.cookies[SESSION_COOKIE])
        engine = client.app.state.accounts.store.engine  # type: ignore[attr-defined]

        def row() -> Any:
            with engine.begin() as conn:
                return conn.execute(select(sessions_t).where(sessions_t.c.id_hash == digest)).mappings().one()

        first = row()
        # Used again soon: no write. Used after the refresh period: the expiry moves forward.
        client.get("/api/me")
        assert row()["expires_at"] == first["expires_at"]
        with engine.begin() as conn:
            conn.execute(
                update(sessions_t)
                .where(sessions_t.c.id_hash == digest)
                .values(last_seen=first["last_seen"] - 500, expires_at=first["expires_at"] - 500)
            )
        assert client.get("/api/me").status_code == 200
        assert row()["expires_at"] >= time.time() + 990
        # Past its expiry: a guest.
        with engine.begin() as conn:
            conn.execute(
                update(sessions_t).where(sessions_t.c.id_hash == digest).values(expires_at=time.time() - 1)
            )
        assert client.get("/api/me").status_code == 401


def test_signing_in_again_ends_the_browsers_previous_session(client: TestClient) -> None:
    me = create(client)
    old = sha256(client.cookies[SESSION_COOKIE])
    r = client.post("/api/session", json={"name": "alice", "password": PASSWORD}, headers=page_headers(me))
    assert r.status_code == 200
    engine = client.app.state.accounts.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        hashes = [x[0] for x in conn.execute(select(sessions_t.c.id_hash))]
    assert hashes == [sha256(client.cookies[SESSION_COOKIE])] and old not in hashes


def test_a_hash_made_with_other_parameters_is_remade_at_sign_in(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        create(client)
    stronger = AccountSettings(argon2_time_cost=2, argon2_memory_cost=16, argon2_parallelism=1)
    with make_client(tmp_path, stronger) as client:
        engine = client.app.state.accounts.store.engine  # type: ignore[attr-defined]

        def stored() -> str:
            with engine.begin() as conn:
                return str(conn.execute(select(users_t.c.password_hash)).scalar())

        assert "m=8,t=1,p=1" in stored()
        assert client.post("/api/session", json={"name": "alice", "password": PASSWORD}).status_code == 200
        assert "m=16,t=2,p=1" in stored()
    assert CHEAP.argon2_time_cost == 1
