"""The accounts API: create an account, sign in and out, the account itself, its API tokens.

Everything is JSON under ``/api/`` (docs/protocol.md, "Accounts"); errors are ``{"detail": "code:
message"}`` like the rest of the API. Passwords travel only in request bodies and are never echoed,
logged or stored in clear; the session cookie's value exists only in the ``Set-Cookie`` that creates it.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Path, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ..limits import client_address
from . import identity as ident
from .identity import SESSION_COOKIE, Identity, identify
from .service import AccountError, Accounts, AccountSettings

router = APIRouter(prefix="/api", tags=["accounts"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "`auth/required` or `auth/failed`"},
    403: {"description": "`csrf/failed`, `account/disabled`, `password/wrong`, `auth/session_required`"},
    409: {"description": "`name/taken`"},
    422: {"description": "`name/invalid`, `password/weak`, `request/invalid`"},
    429: {"description": "`auth/limited`, `account/limit`, `token/limit` (with `Retry-After`)"},
}


class Credentials(BaseModel):
    """A name and a password (create an account, sign in)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class PasswordChange(BaseModel):
    """The current password and the new one."""

    model_config = ConfigDict(extra="forbid")
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class PasswordProof(BaseModel):
    """The account's password, to confirm a deletion."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1000)


class TokenCreate(BaseModel):
    """A label for a new API token (to tell them apart in the list)."""

    model_config = ConfigDict(extra="forbid")
    label: str = Field(min_length=1, max_length=40)


class Me(BaseModel):
    """The signed-in account. ``csrf`` goes in the ``X-CSRF-Token`` header of every state-changing request
    a page makes (empty for a program); ``tokens`` counts its live API tokens."""

    name: str
    id: int
    created_at: float
    csrf: str
    tokens: int


class TokenPublic(BaseModel):
    """An API token as listed: never its value (shown once when it was created)."""

    id: int
    label: str
    prefix: str
    created_at: float
    last_used: float | None


class TokenCreated(BaseModel):
    """A new API token: ``token`` is its only appearance (store it: the server keeps only a hash)."""

    id: int
    label: str
    prefix: str
    token: str


def install(app: FastAPI, hub: Any, settings: AccountSettings | None = None) -> Accounts:
    """Sets ``app.state.accounts`` on the store's engine; its queries run on the hub's database thread.

    ``settings`` (or ``app.state.account_settings`` when set before start-up, as tests do) choose the
    limits and the password hashing cost.
    """
    chosen = settings or getattr(app.state, "account_settings", None) or AccountSettings()
    accounts = Accounts(hub.store.engine, chosen, run_db=hub.db)
    app.state.accounts = accounts
    return accounts


def _accounts(request: Request) -> Accounts:
    accounts: Accounts | None = getattr(request.app.state, "accounts", None)
    if accounts is None:
        raise HTTPException(503, detail="server/busy: accounts are not available on this server")
    return accounts


def _address(request: Request) -> str:
    client = (request.client.host, request.client.port) if request.client else None
    guard = getattr(request.app.state, "guard", None)
    forwarded = guard.limits.forwarded_header if guard is not None else None
    return client_address(client, request.headers.raw, forwarded)


def _address_key(address: str) -> str:
    # As app.address_key: the stored form counts an address's accounts without keeping the address.
    return hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:24]


def _fail(exc: AccountError) -> HTTPException:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
    return HTTPException(exc.status, detail=f"{exc.code}: {exc.message}", headers=headers)


def _set_cookie(response: Response, request: Request, cookie: str, accounts: Accounts) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        cookie,
        max_age=int(accounts.settings.session_seconds),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


async def _me(accounts: Accounts, user_id: int, name: str, csrf: str) -> Me:
    found = await accounts.db(accounts.store.get, user_id)
    created = found[0].created_at if found is not None else 0.0
    tokens = await accounts.db(accounts.store.live_tokens, user_id)
    return Me(name=name, id=user_id, created_at=created, csrf=csrf, tokens=tokens)


async def _signed_in(request: Request) -> Identity:
    who = await identify(request)
    if who is None:
        raise HTTPException(401, detail="auth/required: sign in first")
    return who


async def _session(request: Request) -> Identity:
    """The caller, who must be signed in with a session: a program's token cannot manage its account."""
    who = await _signed_in(request)
    if who.session is None:
        raise HTTPException(
            403, detail="auth/session_required: sign in with a password for this (API tokens cannot)"
        )
    return who


async def _replace_session(request: Request, accounts: Accounts) -> None:
    """Ends the session this browser held before signing in anew (it would linger until it expired)."""
    before = await identify(request)
    if before is not None and before.session is not None:
        await accounts.sign_out(before.session)
    ident.forget(request.scope)


def _signed_in_answer(request: Request, accounts: Accounts, me: Me, cookie: str, status: int) -> JSONResponse:
    response = JSONResponse(me.model_dump(), status_code=status, headers={"Cache-Control": "no-store"})
    _set_cookie(response, request, cookie, accounts)
    return response


@router.post("/account", response_model=Me, status_code=201, responses=_ERRORS)
async def create_account(body: Credentials, request: Request) -> JSONResponse:
    """Creates an account and signs in (sets the session cookie)."""
    accounts = _accounts(request)
    try:
        user_id, name, cookie, csrf = await accounts.create(
            body.name, body.password, _address_key(_address(request))
        )
    except AccountError as exc:
        raise _fail(exc) from None
    await _replace_session(request, accounts)
    me = await _me(accounts, user_id, name, csrf)
    return _signed_in_answer(request, accounts, me, cookie, 201)


@router.post("/session", response_model=Me, responses=_ERRORS)
async def sign_in(body: Credentials, request: Request) -> JSONResponse:
    """Signs in with a name and a password (sets the session cookie).

    A wrong name and a wrong password get the same answer (401 ``auth/failed``).
    """
    accounts = _accounts(request)
    try:
        user_id, name, cookie, csrf = await accounts.sign_in(body.name, body.password, _address(request))
    except AccountError as exc:
        raise _fail(exc) from None
    await _replace_session(request, accounts)
    me = await _me(accounts, user_id, name, csrf)
    return _signed_in_answer(request, accounts, me, cookie, 200)


@router.delete("/session", status_code=204, responses=_ERRORS)
async def sign_out(request: Request) -> Response:
    """Signs out: the session ends on the server and the cookie is cleared."""
    accounts = _accounts(request)
    who = await identify(request)
    if who is not None and who.session is not None:
        await accounts.sign_out(who.session)
    response = Response(status_code=204)
    _clear_cookie(response, request)
    return response


@router.get("/me", response_model=Me, responses=_ERRORS)
async def me(request: Request) -> JSONResponse:
    """Describes the signed-in account, with the CSRF token its pages send (401 for a guest).

    It renews the session cookie, whose expiry slides: 30 days after the last use.
    """
    accounts = _accounts(request)
    who = await _signed_in(request)
    answer = await _me(accounts, who.user_id, who.name, who.csrf)
    response = JSONResponse(answer.model_dump(), headers={"Cache-Control": "no-store"})
    cookie = ident.session_cookie(request.scope)
    if who.session is not None and cookie is not None:
        _set_cookie(response, request, cookie, accounts)
    return response


@router.post("/me/password", status_code=204, responses=_ERRORS)
async def change_password(body: PasswordChange, request: Request) -> Response:
    """Changes the password; every other session of the account ends (this one stays)."""
    accounts = _accounts(request)
    who = await _session(request)
    try:
        await accounts.change_password(who.user_id, who.name, body.old, body.new, who.session)
    except AccountError as exc:
        raise _fail(exc) from None
    return Response(status_code=204)


@router.get("/me/export", responses={**_ERRORS, 200: {"description": "A sushigo-account/1 document."}})
async def export(request: Request) -> Response:
    """Downloads everything stored about the account as a ``sushigo-account/1`` JSON document.

    Profile, sessions and tokens (no secrets), ratings, rating events, and its games (seats by
    public name, results).
    """
    accounts = _accounts(request)
    who = await _session(request)
    try:
        doc = await accounts.export(who.user_id)
    except AccountError as exc:
        raise _fail(exc) from None
    return Response(
        json.dumps(doc, separators=(",", ":"), ensure_ascii=False),
        media_type="application/json",
        headers={
            "Content-Disposition": 'attachment; filename="sushigo-account.json"',
            "Cache-Control": "no-store",
        },
    )


@router.delete("/me", status_code=204, responses=_ERRORS)
async def delete_me(body: PasswordProof, request: Request) -> Response:
    """Deletes the account, confirmed by its password; its finished games stay.

    They show a deleted player; the name becomes free, the sessions and tokens end.
    """
    accounts = _accounts(request)
    who = await _session(request)
    try:
        await accounts.check_own_password(who.user_id, body.password)
    except AccountError as exc:
        raise _fail(exc) from None
    await accounts.delete(who.user_id)
    response = Response(status_code=204)
    _clear_cookie(response, request)
    return response


@router.get("/me/tokens", response_model=list[TokenPublic], responses=_ERRORS)
async def list_tokens(request: Request) -> list[TokenPublic]:
    """Lists the account's live API tokens (never their values)."""
    accounts = _accounts(request)
    who = await _session(request)
    rows = await accounts.db(accounts.store.list_tokens, who.user_id)
    return [TokenPublic(**r) for r in rows]


@router.post("/me/tokens", response_model=TokenCreated, status_code=201, responses=_ERRORS)
async def create_token(body: TokenCreate, request: Request) -> JSONResponse:
    """Creates an API token for a program; its value is in this answer only."""
    accounts = _accounts(request)
    who = await _session(request)
    label = " ".join(body.label.split())
    if not label or any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Cn") for c in label):
        raise HTTPException(
            422, detail="request/invalid: body.label: must be visible text without control characters"
        )
    try:
        token_id, token = await accounts.create_token(who.user_id, label)
    except AccountError as exc:
        raise _fail(exc) from None
    created = TokenCreated(id=token_id, label=label, prefix=token[:12], token=token)
    return JSONResponse(created.model_dump(), status_code=201, headers={"Cache-Control": "no-store"})


@router.delete("/me/tokens/{token_id}", status_code=204, responses=_ERRORS)
async def revoke_token(request: Request, token_id: int = Path(ge=1, le=2**31 - 1)) -> Response:
    """Revokes an API token at once (404 ``token/not_found`` if the account has no such live token)."""
    accounts = _accounts(request)
    who = await _session(request)
    if not await accounts.revoke_token(who.user_id, token_id):
        raise HTTPException(404, detail="token/not_found: this account has no such API token")
    return Response(status_code=204)
