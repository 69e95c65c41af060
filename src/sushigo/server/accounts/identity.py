"""Who a request or a WebSocket is: an account by its session cookie or by an API token, or a guest.

Every part of the server that needs to know asks here (:func:`identify`, :func:`identify_socket`), so
the cookie and token rules live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The session cookie's name (HttpOnly, SameSite=Lax; Secure behind https).
SESSION_COOKIE = "sushigo_session"
#: The header a page sends with every state-changing request: the session's CSRF token (GET /api/me).
CSRF_HEADER = "X-CSRF-Token"


@dataclass(frozen=True)
class Identity:
    """An account acting through a request or a connection.

    ``program``: it authenticated with an API token (``Authorization: Bearer …``), so it is a program;
    ``session``: the SHA-256 of its session cookie (``None`` for a program), never its value.
    """

    user_id: int
    name: str
    program: bool = False
    session: str | None = None


async def identify(request: Any) -> Identity | None:
    """The account behind an HTTP request (session cookie or bearer token), or ``None`` for a guest.

    A disabled or deleted account, an expired session or a revoked token is a guest.
    """
    return None  # filled in by the accounts work (issue 21)


async def identify_socket(websocket: Any) -> Identity | None:
    """As :func:`identify`, for a WebSocket's handshake (its cookie or ``Authorization`` header).

    A cookie counts only when the handshake's ``Origin`` is this site (no cross-site WebSocket hijacking).
    """
    return None  # filled in by the accounts work (issue 21)
