"""Who a request or a WebSocket is: an account by its session cookie or by an API token, or a guest.

Every part of the server that needs to know asks here (:func:`identify`, :func:`identify_socket`), so
the cookie and token rules live in one place. The answer for one request is computed once and kept in
its ASGI scope (the CSRF middleware and the route ask the same question).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The session cookie's name (HttpOnly, SameSite=Lax; Secure behind https).
SESSION_COOKIE = "sushigo_session"
#: The header a page sends with every state-changing request: the session's CSRF token (GET /api/me).
CSRF_HEADER = "X-CSRF-Token"

#: Where a request's identity is kept once known (an ASGI scope key of this package's own).
_SCOPE_KEY = "sushigo.identity"


@dataclass(frozen=True)
class Identity:
    """An account acting through a request or a connection.

    ``program``: it authenticated with an API token (``Authorization: Bearer …``), so it is a program;
    ``session``: the SHA-256 of its session cookie (``None`` for a program), never its value;
    ``token_id``: the API token's id (``None`` for a session): ``accounts.revoked`` hooks receive it.
    ``csrf``: the session's CSRF token (empty for a program); only the account's own answers carry it.
    """

    user_id: int
    name: str
    program: bool = False
    session: str | None = None
    token_id: int | None = None
    csrf: str = ""


def header(scope: Any, name: bytes) -> str | None:
    """A request's or handshake's header ``name`` (lower case), the first of several."""
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _cookie(scope: Any, name: str) -> str | None:
    raw = header(scope, b"cookie")
    if not raw:
        return None
    for part in raw.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value.strip().strip('"') or None
    return None


def session_cookie(scope: Any) -> str | None:
    """The session cookie's value in a request's or handshake's headers, if any."""
    return _cookie(scope, SESSION_COOKIE)


def bearer(scope: Any) -> str | None:
    """The token of an ``Authorization: Bearer …`` header, if any."""
    raw = header(scope, b"authorization")
    if raw is None:
        return None
    kind, _, value = raw.strip().partition(" ")
    return value.strip() if kind.lower() == "bearer" and value.strip() else None


async def identify_scope(scope: Any) -> Identity | None:
    """The identity behind an ASGI scope (HTTP or WebSocket), computed once per HTTP request."""
    if _SCOPE_KEY in scope:
        known: Identity | None = scope[_SCOPE_KEY]
        return known
    app = scope.get("app")
    accounts = getattr(getattr(app, "state", None), "accounts", None)
    found: Identity | None = None
    if accounts is not None:
        token = bearer(scope)
        if token is not None:
            info = await accounts.token(token)
            if info is not None:
                found = Identity(info.user_id, info.name, program=True, token_id=info.token_id)
        else:
            cookie = session_cookie(scope)
            if cookie is not None:
                hit = await accounts.session(cookie)
                if hit is not None:
                    digest, session = hit
                    found = Identity(session.user_id, session.name, session=digest, csrf=session.csrf)
    if scope.get("type") == "http":
        # Kept for the rest of this request only: a WebSocket asks afresh each time (a long-lived
        # connection re-checks that its session or token still holds).
        scope[_SCOPE_KEY] = found
    return found


def forget(scope: Any) -> None:
    """Drops a scope's remembered identity (after signing in or out within the request)."""
    scope.pop(_SCOPE_KEY, None)


async def identify(request: Any) -> Identity | None:
    """The account behind an HTTP request (session cookie or bearer token), or ``None`` for a guest.

    A disabled or deleted account, an expired session or a revoked token is a guest. A bearer token,
    when present, decides alone (a program sends no cookie).
    """
    return await identify_scope(request.scope)


async def identify_socket(websocket: Any) -> Identity | None:
    """As :func:`identify`, for a WebSocket's handshake (its cookie or ``Authorization`` header).

    A cookie counts only when the handshake's ``Origin`` is this site (no cross-site WebSocket hijacking).
    Each call looks again (nothing is cached on a socket): calling it before an action tells whether
    the session or token still holds (signed out, revoked, disabled or deleted: ``None``).
    """
    scope = websocket.scope
    if bearer(scope) is None and session_cookie(scope) is not None:
        from .csrf import same_origin

        if not same_origin(scope, allow_missing=False):
            return None
    return await identify_scope(scope)
