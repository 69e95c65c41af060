"""Accounts for the seating tests: made through the real accounts API (``POST /api/account``, API tokens
from ``POST /api/me/tokens``) when the server has it, else a stand-in for ``identify``/``identify_socket``
that reads a bearer header (so the seating side can be tested before the accounts side exists)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert

from sushigo.server.accounts import identity
from sushigo.server.accounts.identity import Identity
from sushigo.server.accounts.models import users_t

ORIGIN = "http://testserver"
PASSWORD = "correct horse battery"


@dataclass
class Account:
    """One account as a test client holds it: headers for HTTP and for a WebSocket handshake."""

    name: str
    user_id: int
    headers: dict[str, str]
    ws_headers: dict[str, str]
    revoke: Callable[[], None] = field(repr=False)


class Accounts:
    """Makes accounts for one :class:`~fastapi.testclient.TestClient` (one app)."""

    def __init__(self, client: Any, monkeypatch: Any) -> None:
        self.client = client
        self.monkeypatch = monkeypatch
        paths = {getattr(r, "path", None) for r in client.app.routes}
        self.real = "/api/account" in paths
        self._fake: dict[str, Identity] = {}
        self._ids = itertools.count(1)
        if not self.real:
            self._install_fake()

    def make(self, name: str, *, program: bool) -> Account:
        """A new account called ``name``; ``program``: it acts with an API token, else with a session."""
        return self._make_real(name, program) if self.real else self._make_fake(name, program)

    # ------------------------------------------------------------------------------ the real one

    def _make_real(self, name: str, program: bool) -> Account:
        client = self.client
        made = client.post("/api/account", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        me = made.json()
        cookie = client.cookies.get(identity.SESSION_COOKIE)
        assert cookie, "POST /api/account sets the session cookie"
        client.cookies.clear()  # each account's requests carry their own cookie header
        session = {"Cookie": f"{identity.SESSION_COOKIE}={cookie}", "Origin": ORIGIN}
        csrf = {**session, identity.CSRF_HEADER: me["csrf"]}
        if not program:

            def sign_out() -> None:
                assert client.delete("/api/session", headers=csrf).status_code == 204
                client.cookies.clear()

            return Account(name, int(me["id"]), csrf, session, sign_out)
        made_token = client.post("/api/me/tokens", json={"label": "test"}, headers=csrf)
        assert made_token.status_code == 201, made_token.text
        token = made_token.json()
        bearer = {"Authorization": f"Bearer {token['token']}"}

        def revoke() -> None:
            assert client.delete(f"/api/me/tokens/{token['id']}", headers=csrf).status_code == 204
            client.cookies.clear()

        return Account(name, int(me["id"]), bearer, bearer, revoke)

    # ------------------------------------------------------------------------------ the stand-in

    def _install_fake(self) -> None:
        known = self._fake

        def who(headers: Any) -> Identity | None:
            value = headers.get("authorization") or ""
            return known.get(value.removeprefix("Bearer "))

        async def identify(request: Any) -> Identity | None:
            return who(request.headers)

        async def identify_socket(websocket: Any) -> Identity | None:
            return who(websocket.headers)

        # The server looks both up in the module on every call.
        self.monkeypatch.setattr(identity, "identify", identify)
        self.monkeypatch.setattr(identity, "identify_socket", identify_socket)

    def _make_fake(self, name: str, program: bool) -> Account:
        hub = self.client.app.state.hub
        with hub.store.engine.begin() as conn:
            user_id = conn.execute(
                insert(users_t).values(
                    name=name, name_key=name.lower(), skeleton=name, created_at=time.time()
                )
            ).inserted_primary_key[0]
        secret = f"fake{next(self._ids)}"
        self._fake[secret] = Identity(user_id, name, program, None if program else "s" * 64)
        bearer = {"Authorization": f"Bearer {secret}"}
        return Account(name, int(user_id), bearer, bearer, lambda: self._fake.pop(secret, None) and None)
