"""Cross-site request forgery: a page of another site must not be able to act for a signed-in player.

The session cookie is SameSite=Lax, which already keeps it off cross-site POSTs in current browsers;
this middleware does not rely on that. Every state-changing request (POST, PUT, PATCH, DELETE) under
``/api/`` that carries the session cookie must

1. come from this site: its ``Origin`` header (or, without one, its ``Referer``) names the host the
   request was sent to (the ``Host`` header; the scheme is not compared, so a TLS-terminating proxy in
   front changes nothing), and
2. carry the session's CSRF token in ``X-CSRF-Token`` (a page reads it from ``GET /api/me``: another
   site cannot read that answer).

Otherwise it is answered 403 ``csrf/failed`` before any route runs, so nothing changes. Requests without
the cookie (guests, programs with a bearer token) pass untouched, except signing in and creating an
account: a browser request for those from another site is refused too (no "login CSRF" that would seat
a victim in the attacker's account).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ..limits import ASGIApp, Receive, Scope, Send
from .identity import CSRF_HEADER, header, identify_scope, session_cookie
from .service import same_secret

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Paths that start a session: refused from another site even without a cookie.
SIGN_IN_PATHS = frozenset({"/api/session", "/api/account"})
_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _host_port(netloc: str, scheme: str) -> str:
    netloc = netloc.strip().lower().rsplit("@", 1)[-1]
    if netloc.startswith("["):  # IPv6 literal
        host, _, rest = netloc.partition("]")
        port = rest[1:] if rest.startswith(":") else ""
        host += "]"
    else:
        host, _, port = netloc.partition(":")
    return f"{host}:{port or _DEFAULT_PORTS.get(scheme, '')}"


def request_origin(scope: Scope) -> str | None:
    """The ``Origin`` of a request, else its ``Referer``'s origin, else ``None``."""
    origin = header(scope, b"origin")
    if origin is None or origin == "null":
        origin = header(scope, b"referer") if origin is None else origin
    return origin


def same_origin(scope: Scope, *, allow_missing: bool) -> bool:
    """Tells whether a request comes from a page of this site (see the module docstring).

    ``allow_missing``: what to answer when the request names no origin at all (not a browser's).
    """
    origin = request_origin(scope)
    if origin is None:
        return allow_missing
    if origin == "null":
        return False
    parts = urlsplit(origin)
    if not parts.scheme or not parts.netloc:
        return False
    host = header(scope, b"host")
    if host is None:
        server = scope.get("server")
        if not server:
            return False
        host = f"{server[0]}:{server[1]}"
    here = scope.get("scheme", "http")
    # The scheme is not compared: behind a TLS proxy the app sees http while the page is https.
    theirs = _host_port(parts.netloc, parts.scheme)
    ours_same_scheme = _host_port(host, parts.scheme)
    ours = _host_port(host, here)
    return theirs in (ours, ours_same_scheme)


class CsrfMiddleware:
    """ASGI middleware: refuses cookie-authenticated state-changing API requests from elsewhere."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method", "GET") in UNSAFE:
            path: str = scope.get("path", "")
            if path.startswith("/api/"):
                reason = await self._refusal(scope, path)
                if reason is not None:
                    await _forbidden(send, reason)
                    return
        await self.app(scope, receive, send)

    async def _refusal(self, scope: Scope, path: str) -> str | None:
        cookie = session_cookie(scope)
        if cookie is None:
            if path in SIGN_IN_PATHS and not same_origin(scope, allow_missing=True):
                return "this request came from another site"
            return None
        # A browser always names the origin of a state-changing fetch; a missing one is refused.
        if not same_origin(scope, allow_missing=False):
            return "this request came from another site"
        identity = await identify_scope(scope)
        if identity is None or identity.session is None:
            # An expired or unknown cookie: the request is a guest's, and the origin was checked.
            return None
        sent = header(scope, CSRF_HEADER.lower().encode("latin-1"))
        if sent is None or not same_secret(sent, identity.csrf):
            return f"the {CSRF_HEADER} header is missing or wrong; reload the page"
        return None


async def _forbidden(send: Send, reason: str) -> None:
    body = ('{"detail":"csrf/failed: ' + reason + '"}').encode()
    headers: list[Any] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})
