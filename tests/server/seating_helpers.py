"""Accounts for the seating tests, made through the accounts API (``POST /api/account``; programs get an
API token from ``POST /api/me/tokens``), with the headers each one's requests and WebSockets carry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sushigo.server.accounts import identity

ORIGIN = "http://testserver"
PASSWORD = "correct horse battery"


@dataclass
class Account:
    """One account as a test client holds it: headers for HTTP and for a WebSocket handshake, and how
    to take its credential away (sign out, or revoke its API token)."""

    name: str
    user_id: int
    headers: dict[str, str]
    ws_headers: dict[str, str]
    revoke: Callable[[], None] = field(repr=False)


class Accounts:
    """Makes accounts for one :class:`~fastapi.testclient.TestClient` (one app)."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def make(self, name: str, *, program: bool) -> Account:
        """A new account called ``name``; ``program``: it acts with an API token, else with a session."""
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
