"""Accounts, sessions and API tokens: the rules, and the database work behind them.

:class:`AccountStore` holds every query; its methods are synchronous and run on the store's database
thread in the server (through :class:`Accounts`, like :meth:`~sushigo.server.rooms.Hub.db`) and directly
in ``sushigo users``. :class:`Accounts` is the server's side: rate limits, password hashing on its own
small thread pool (Argon2id is slow by design: it must never hold the event loop or the database
thread), and the hooks other parts listen on when a token is revoked or a session ends.

Secrets never stored: a session cookie's value and an API token are kept only as their SHA-256; a
password only as its Argon2id hash. None of them is ever logged.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Engine, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..sitebook import SiteLimit
from ..store import tables_t
from . import names
from .models import api_tokens_t, rating_events_t, ratings_t, sessions_t, table_players_t, users_t

log = logging.getLogger("sushigo.accounts")
T = TypeVar("T")

#: API tokens start with this, so a leaked one is recognisable (secret scanners, logs).
TOKEN_PREFIX = "sgp_"
#: Shortest and longest password (characters).
PASSWORD_MIN = 10
PASSWORD_MAX = 200
DAY = 86_400.0


@dataclass(frozen=True)
class AccountSettings:
    """The bounds and costs of accounts on one server (docs/accounts.md lists them)."""

    #: Argon2id cost: passes, memory (KiB) and lanes (argon2-cffi's RFC 9106 low-memory profile).
    #: A stored hash made with other values is re-made at the next sign-in.
    argon2_time_cost: int = 3
    argon2_memory_cost: int = 65_536
    argon2_parallelism: int = 4
    #: Passwords hashed at once (each takes ``argon2_memory_cost`` KiB), and how many may wait.
    hash_workers: int = 2
    hash_queue: int = 32
    #: A session lasts this long after its last use (sliding), in seconds.
    session_seconds: float = 30 * DAY
    #: A session's expiry moves forward at most this often (one write per session per period).
    session_refresh: float = 3600.0
    #: Sessions one account keeps at once (the oldest goes when a new one starts).
    sessions_per_account: int = 20
    #: Live API tokens per account.
    tokens_per_account: int = 5
    #: Accounts one address may create per hour (counted in the database: holds across restarts).
    accounts_per_hour: int = 3
    #: Sign-in attempts of one address: per minute on average, and at once.
    signin_per_minute: float = 10.0
    signin_burst: float = 10.0
    #: Failed sign-ins (or wrong passwords) for one account name: per hour on average, and at once.
    failures_per_hour: float = 10.0
    failures_burst: float = 5.0
    #: Data exports of one account per hour.
    exports_per_hour: float = 6.0


class AccountError(Exception):
    """A refused account request: a stable ``code`` (``name/taken``), its HTTP status, English text."""

    def __init__(self, code: str, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True)
class User:
    """An account's row, without its password hash."""

    id: int
    name: str | None
    created_at: float
    disabled: bool
    deleted_at: float | None


@dataclass(frozen=True)
class SessionInfo:
    """A live session: its account and its CSRF token."""

    user_id: int
    name: str
    csrf: str
    created_at: float


@dataclass(frozen=True)
class TokenInfo:
    """A live API token's account."""

    token_id: int
    user_id: int
    name: str


def sha256(value: str) -> str:
    """The stored form of a session cookie or an API token."""
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


def looks_like_token(value: str) -> bool:
    """Tells whether ``value`` has an API token's form (``sgp_`` and 43 URL-safe characters)."""
    body = value[len(TOKEN_PREFIX) :]
    return (
        value.startswith(TOKEN_PREFIX)
        and len(body) == 43
        and all(c.isascii() and (c.isalnum() or c in "-_") for c in body)
    )


def check_password(password: str, name: str) -> None:
    """Raises ``password/weak`` when a new password breaks the rules (length, not the name)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(
            "password/weak", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters", 422
        )
    if names.key(password.strip()) == names.key(name):
        raise AccountError("password/weak", "a password may not be the account's name", 422)


def _user(r: Any) -> User:
    return User(
        id=int(r["id"]),
        name=r["name"],
        created_at=float(r["created_at"]),
        disabled=bool(r["disabled"]),
        deleted_at=r["deleted_at"],
    )


def _live_user() -> Any:
    return and_(users_t.c.disabled.is_(False), users_t.c.deleted_at.is_(None))


class AccountStore:
    """Every account query (synchronous; one call = one transaction)."""

    def __init__(self, engine: Engine, settings: AccountSettings | None = None) -> None:
        self.engine = engine
        self.settings = settings or AccountSettings()

    # ------------------------------------------------------------------------------ users

    def count_recent(self, created_by: str, since: float) -> int:
        with self.engine.begin() as conn:
            n = conn.execute(
                select(func.count())
                .select_from(users_t)
                .where(users_t.c.created_by == created_by, users_t.c.created_at >= since)
            ).scalar()
        return int(n or 0)

    def name_free(self, key: str, skeleton: str) -> bool:
        with self.engine.begin() as conn:
            hit = conn.execute(
                select(users_t.c.id).where(or_(users_t.c.name_key == key, users_t.c.skeleton == skeleton))
            ).first()
        return hit is None

    def create_user(self, name: str, password_hash: str, created_by: str | None, now: float) -> int:
        """Inserts an account; ``name/taken`` when its key or skeleton is someone's already."""
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    insert(users_t).values(
                        name=name,
                        name_key=names.key(name),
                        skeleton=names.skeleton(name),
                        password_hash=password_hash,
                        created_at=now,
                        created_by=created_by,
                        disabled=False,
                    )
                )
                pk = result.inserted_primary_key
                assert pk is not None
                return int(pk[0])
        except IntegrityError:
            raise AccountError("name/taken", "this name (or one that looks like it) is taken", 409) from None

    def find(self, name: str) -> tuple[User, str | None] | None:
        """The account named ``name`` (compared by key) with its password hash, deleted ones excluded."""
        with self.engine.begin() as conn:
            r = (
                conn.execute(
                    select(users_t).where(
                        users_t.c.name_key == names.key(names.normalise(name)), users_t.c.deleted_at.is_(None)
                    )
                )
                .mappings()
                .first()
            )
        return None if r is None else (_user(r), r["password_hash"])

    def get(self, user_id: int) -> tuple[User, str | None] | None:
        with self.engine.begin() as conn:
            r = conn.execute(select(users_t).where(users_t.c.id == user_id)).mappings().first()
        return None if r is None else (_user(r), r["password_hash"])

    def list_users(self, limit: int = 1000) -> list[User]:
        with self.engine.begin() as conn:
            rows = conn.execute(select(users_t).order_by(users_t.c.id).limit(limit)).mappings().all()
        return [_user(r) for r in rows]

    def set_password(self, user_id: int, password_hash: str, keep_session: str | None = None) -> None:
        """Stores a new hash and ends every session of the account but ``keep_session``."""
        with self.engine.begin() as conn:
            conn.execute(update(users_t).where(users_t.c.id == user_id).values(password_hash=password_hash))
            ended = delete(sessions_t).where(sessions_t.c.user_id == user_id)
            if keep_session is not None:
                ended = ended.where(sessions_t.c.id_hash != keep_session)
            conn.execute(ended)

    def rehash(self, user_id: int, old_hash: str, new_hash: str) -> None:
        """Replaces a hash made with older parameters (only if it is still the one verified)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(users_t)
                .where(users_t.c.id == user_id, users_t.c.password_hash == old_hash)
                .values(password_hash=new_hash)
            )

    def set_disabled(self, user_id: int, disabled: bool) -> None:
        """Disables (ending its sessions and revoking its tokens) or enables an account."""
        with self.engine.begin() as conn:
            conn.execute(update(users_t).where(users_t.c.id == user_id).values(disabled=disabled))
            if disabled:
                conn.execute(delete(sessions_t).where(sessions_t.c.user_id == user_id))

    def delete_user(self, user_id: int, now: float) -> None:
        """Deletes an account but keeps its row, so its finished games still name a (deleted) player.

        Its name and password go; the unique key and skeleton become a tombstone that no name can
        have (names hold no ``:``), so the name is free again; sessions and tokens are removed.
        """
        tomb = f"deleted:{user_id}"
        with self.engine.begin() as conn:
            conn.execute(
                update(users_t)
                .where(users_t.c.id == user_id)
                .values(name=None, name_key=tomb, skeleton=tomb, password_hash=None, deleted_at=now)
            )
            conn.execute(delete(sessions_t).where(sessions_t.c.user_id == user_id))
            conn.execute(delete(api_tokens_t).where(api_tokens_t.c.user_id == user_id))

    # --------------------------------------------------------------------------- sessions

    def create_session(self, user_id: int, id_hash: str, csrf: str, now: float) -> None:
        """Stores a new session; the account's oldest ones go beyond ``sessions_per_account``."""
        s = self.settings
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions_t).values(
                    id_hash=id_hash,
                    user_id=user_id,
                    csrf=csrf,
                    created_at=now,
                    last_seen=now,
                    expires_at=now + s.session_seconds,
                )
            )
            keep = (
                select(sessions_t.c.id_hash)
                .where(sessions_t.c.user_id == user_id)
                .order_by(sessions_t.c.last_seen.desc(), sessions_t.c.created_at.desc())
                .limit(s.sessions_per_account)
            )
            kept = {r[0] for r in conn.execute(keep)}
            conn.execute(
                delete(sessions_t).where(sessions_t.c.user_id == user_id, sessions_t.c.id_hash.not_in(kept))
            )
            # Expired sessions of anybody: a cheap sweep at each sign-in keeps the table small.
            conn.execute(delete(sessions_t).where(sessions_t.c.expires_at < now))

    def session(self, id_hash: str, now: float) -> SessionInfo | None:
        """The live session with this hash (sliding its expiry forward), or ``None``."""
        s = self.settings
        with self.engine.begin() as conn:
            r = conn.execute(
                select(
                    sessions_t.c.user_id,
                    sessions_t.c.csrf,
                    sessions_t.c.last_seen,
                    sessions_t.c.created_at,
                    users_t.c.name,
                )
                .join(users_t, users_t.c.id == sessions_t.c.user_id)
                .where(sessions_t.c.id_hash == id_hash, sessions_t.c.expires_at > now, _live_user())
            ).first()
            if r is None:
                return None
            if now - float(r.last_seen) >= s.session_refresh:
                conn.execute(
                    update(sessions_t)
                    .where(sessions_t.c.id_hash == id_hash)
                    .values(last_seen=now, expires_at=now + s.session_seconds)
                )
        return SessionInfo(int(r.user_id), str(r.name), str(r.csrf), float(r.created_at))

    def end_session(self, id_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_t).where(sessions_t.c.id_hash == id_hash))

    def session_hashes(self, user_id: int) -> list[str]:
        with self.engine.begin() as conn:
            return [
                str(r[0])
                for r in conn.execute(select(sessions_t.c.id_hash).where(sessions_t.c.user_id == user_id))
            ]

    # ----------------------------------------------------------------------------- tokens

    def live_tokens(self, user_id: int) -> int:
        with self.engine.begin() as conn:
            n = conn.execute(
                select(func.count())
                .select_from(api_tokens_t)
                .where(api_tokens_t.c.user_id == user_id, api_tokens_t.c.revoked_at.is_(None))
            ).scalar()
        return int(n or 0)

    def create_token(self, user_id: int, label: str, token: str, now: float) -> int:
        """Stores a token's hash; ``token/limit`` when the account has its most live ones."""
        with self.engine.begin() as conn:
            live = conn.execute(
                select(func.count())
                .select_from(api_tokens_t)
                .where(api_tokens_t.c.user_id == user_id, api_tokens_t.c.revoked_at.is_(None))
            ).scalar()
            if int(live or 0) >= self.settings.tokens_per_account:
                raise AccountError(
                    "token/limit",
                    f"an account has at most {self.settings.tokens_per_account} API tokens; revoke one first",
                    429,
                )
            result = conn.execute(
                insert(api_tokens_t).values(
                    user_id=user_id,
                    label=label,
                    token_hash=sha256(token),
                    prefix=token[:12],
                    created_at=now,
                )
            )
            pk = result.inserted_primary_key
            assert pk is not None
            return int(pk[0])

    def list_tokens(self, user_id: int) -> list[dict[str, Any]]:
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(
                    api_tokens_t.c.id,
                    api_tokens_t.c.label,
                    api_tokens_t.c.prefix,
                    api_tokens_t.c.created_at,
                    api_tokens_t.c.last_used,
                )
                .where(api_tokens_t.c.user_id == user_id, api_tokens_t.c.revoked_at.is_(None))
                .order_by(api_tokens_t.c.id)
            ).mappings()
            return [dict(r) for r in rows]

    def revoke_token(self, user_id: int, token_id: int, now: float) -> bool:
        """Revokes one of the account's live tokens; false when it has no such token."""
        with self.engine.begin() as conn:
            n = conn.execute(
                update(api_tokens_t)
                .where(
                    api_tokens_t.c.id == token_id,
                    api_tokens_t.c.user_id == user_id,
                    api_tokens_t.c.revoked_at.is_(None),
                )
                .values(revoked_at=now)
            ).rowcount
        return bool(n)

    def token(self, token: str, now: float) -> TokenInfo | None:
        """The live token's account (noting when it was last used, at most once a minute), or ``None``."""
        digest = sha256(token)
        with self.engine.begin() as conn:
            r = conn.execute(
                select(api_tokens_t.c.id, api_tokens_t.c.user_id, api_tokens_t.c.last_used, users_t.c.name)
                .join(users_t, users_t.c.id == api_tokens_t.c.user_id)
                .where(api_tokens_t.c.token_hash == digest, api_tokens_t.c.revoked_at.is_(None), _live_user())
            ).first()
            if r is None:
                return None
            if r.last_used is None or now - float(r.last_used) >= 60.0:
                conn.execute(update(api_tokens_t).where(api_tokens_t.c.id == r.id).values(last_used=now))
        return TokenInfo(int(r.id), int(r.user_id), str(r.name))

    def token_ids(self, user_id: int) -> list[int]:
        with self.engine.begin() as conn:
            return [
                int(r[0])
                for r in conn.execute(
                    select(api_tokens_t.c.id).where(
                        api_tokens_t.c.user_id == user_id, api_tokens_t.c.revoked_at.is_(None)
                    )
                )
            ]

    # ----------------------------------------------------------------------------- export

    def export(self, user_id: int) -> dict[str, Any]:
        """Everything stored about an account, without secrets or other players' private data."""
        with self.engine.begin() as conn:
            u = conn.execute(select(users_t).where(users_t.c.id == user_id)).mappings().first()
            if u is None:
                raise AccountError("auth/required", "sign in first", 401)
            tokens = conn.execute(
                select(
                    api_tokens_t.c.id,
                    api_tokens_t.c.label,
                    api_tokens_t.c.prefix,
                    api_tokens_t.c.created_at,
                    api_tokens_t.c.last_used,
                    api_tokens_t.c.revoked_at,
                ).where(api_tokens_t.c.user_id == user_id)
            ).mappings()
            sessions = conn.execute(
                select(sessions_t.c.created_at, sessions_t.c.last_seen, sessions_t.c.expires_at).where(
                    sessions_t.c.user_id == user_id
                )
            ).mappings()
            ratings = conn.execute(
                select(
                    ratings_t.c.game,
                    ratings_t.c.pool,
                    ratings_t.c.mu,
                    ratings_t.c.sigma,
                    ratings_t.c.games,
                    ratings_t.c.wins,
                    ratings_t.c.updated_at,
                ).where(ratings_t.c.user_id == user_id)
            ).mappings()
            events = conn.execute(
                select(
                    rating_events_t.c.game,
                    rating_events_t.c.pool,
                    rating_events_t.c.table_id,
                    rating_events_t.c.mu,
                    rating_events_t.c.sigma,
                    rating_events_t.c.place,
                    rating_events_t.c.created_at,
                )
                .where(rating_events_t.c.user_id == user_id)
                .order_by(rating_events_t.c.id)
            ).mappings()
            played = conn.execute(
                select(table_players_t)
                .where(table_players_t.c.user_id == user_id)
                .order_by(table_players_t.c.finished_at)
            ).mappings()
            doc: dict[str, Any] = {
                "format": "sushigo-account/1",
                "exported_at": time.time(),
                "profile": {
                    "id": int(u["id"]),
                    "name": u["name"],
                    "created_at": float(u["created_at"]),
                    "disabled": bool(u["disabled"]),
                },
                "sessions": [dict(r) for r in sessions],
                "tokens": [dict(r) for r in tokens],
                "ratings": [dict(r) for r in ratings],
                "rating_events": [dict(r) for r in events],
            }
            games: dict[str, dict[str, Any]] = {}
            for r in played:
                games[str(r["table_id"])] = {
                    "table_id": r["table_id"],
                    "seat": int(r["seat"]),
                    "program": bool(r["program"]),
                    "place": r["place"],
                    "score": r["score"],
                    "rated": bool(r["rated"]),
                    "conceded": bool(r["conceded"]),
                }
            # Tables still open or running are few (bounded by the server's table limit): their seats
            # tell whether this account sits there.
            for t in conn.execute(
                select(tables_t).where(tables_t.c.status.in_(("open", "playing")))
            ).mappings():
                for seat, s in enumerate(json.loads(t["seats"])):
                    if s.get("user_id") == user_id:
                        games.setdefault(
                            str(t["id"]),
                            {"table_id": t["id"], "seat": seat, "program": bool(s.get("program"))},
                        )
            ids = list(games)
            for start in range(0, len(ids), 500):
                for t in conn.execute(
                    select(tables_t).where(tables_t.c.id.in_(ids[start : start + 500]))
                ).mappings():
                    games[str(t["id"])].update(
                        {
                            "name": t["name"],
                            "game": t["game"],
                            "players": int(t["players"]),
                            "options": json.loads(t["options"]),
                            "status": t["status"],
                            "rated": bool(t["rated"]),
                            "created_at": float(t["created_at"]),
                            "finished_at": t["finished_at"],
                            "result": json.loads(t["result"]) if t["result"] else None,
                            # Public seat facts only: no token hashes, no other accounts' ids.
                            "seats": [
                                {
                                    "kind": s.get("kind"),
                                    "name": s.get("name"),
                                    "bot": s.get("bot"),
                                    "program": bool(s.get("program")),
                                }
                                for s in json.loads(t["seats"])
                            ],
                        }
                    )
            doc["games"] = list(games.values())
        return doc


class Accounts:
    """The server's accounts service (``app.state.accounts``): rules, limits, hashing and hooks."""

    def __init__(
        self,
        engine: Engine,
        settings: AccountSettings | None = None,
        *,
        run_db: Callable[..., Any] | None = None,
    ) -> None:
        self.settings = s = settings or AccountSettings()
        self.store = AccountStore(engine, s)
        self._run_db = run_db
        self.hasher = PasswordHasher(
            time_cost=s.argon2_time_cost, memory_cost=s.argon2_memory_cost, parallelism=s.argon2_parallelism
        )
        # A real hash of a random password (made at first use, on the hashing threads): an unknown
        # name costs as long as a wrong password.
        self._decoy: str | None = None
        self._hashing = _hash_pool(s.hash_workers)
        self._hash_waiting = 0
        # In the database (:mod:`..sitebook`), so each holds for the whole site, however many
        # processes nginx spreads the requests over.
        self.signins = SiteLimit(s.signin_per_minute / 60.0, s.signin_burst)
        self.failures = SiteLimit(s.failures_per_hour / 3600.0, s.failures_burst)
        self.exports = SiteLimit(s.exports_per_hour / 3600.0, max(1.0, s.exports_per_hour / 2))
        #: Called with a token's id when it is revoked (or its account disabled or deleted).
        self.revoked: list[Callable[[int], Any]] = []
        #: Called with a session's hash when it ends (sign-out, password change, disable, deletion).
        self.ended: list[Callable[[str], Any]] = []

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs a store call off the event loop (on the hub's database thread when there is one)."""
        if self._run_db is not None:
            result: T = await self._run_db(fn, *args)
            return result
        return await asyncio.to_thread(fn, *args)

    # ---------------------------------------------------------------------------- hashing

    async def _hash_call(self, fn: Callable[..., T], *args: Any) -> T:
        if self._hash_waiting >= self.settings.hash_queue:
            raise AccountError("server/busy", "the server is busy; try again in a moment", 503, retry_after=5)
        self._hash_waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._hashing, lambda: fn(*args))
        finally:
            self._hash_waiting -= 1

    async def hash(self, password: str) -> str:
        return await self._hash_call(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Checks a password against a stored hash (a decoy when there is none, so both cost the same)."""

        def check() -> bool:
            if self._decoy is None:
                self._decoy = self.hasher.hash(secrets.token_urlsafe(16))
            try:
                return bool(self.hasher.verify(stored or self._decoy, password)) and stored is not None
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

        return await self._hash_call(check)

    # ---------------------------------------------------------------------------- actions

    async def create(self, raw_name: str, password: str, created_by: str | None) -> tuple[int, str, str, str]:
        """Creates an account and its first session: ``(user id, name, cookie value, csrf)``."""
        try:
            name = names.check(raw_name)
        except names.NameError_ as exc:
            raise AccountError("name/invalid", str(exc), 422) from None
        check_password(password, name)
        now = time.time()
        if created_by is not None:
            recent = await self.db(self.store.count_recent, created_by, now - 3600.0)
            if recent >= self.settings.accounts_per_hour:
                raise AccountError(
                    "account/limit",
                    f"at most {self.settings.accounts_per_hour} new accounts an hour from one address",
                    429,
                    retry_after=600,
                )
        if not await self.db(self.store.name_free, names.key(name), names.skeleton(name)):
            raise AccountError("name/taken", "this name (or one that looks like it) is taken", 409)
        digest = await self.hash(password)
        user_id = await self.db(self.store.create_user, name, digest, created_by, now)
        log.info("account %d created", user_id)
        cookie, csrf = await self.start_session(user_id)
        return user_id, name, cookie, csrf

    async def start_session(self, user_id: int) -> tuple[str, str]:
        cookie = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        await self.db(self.store.create_session, user_id, sha256(cookie), csrf, time.time())
        return cookie, csrf

    def _failure_key(self, raw_name: str) -> str:
        return "n:" + names.key(names.normalise(raw_name))[:64]

    async def _spend(self, limit: SiteLimit, kind: str, key: str, spend: bool = True) -> float:
        """Spends one from the site-wide bucket of ``key`` (kept hashed: no address or name is stored):
        ``0.0``, or the seconds to wait. With ``spend=False`` it only answers."""
        stored = f"{kind}:{sha256(key)[:40]}"
        return await self.db(limit.take, self.store.engine, stored, 1.0, spend)

    async def _limited(self, limit: SiteLimit, kind: str, key: str, spend: bool = False) -> None:
        wait = await self._spend(limit, kind, key, spend)
        if wait > 0:
            raise AccountError(
                "auth/limited",
                f"too many sign-in attempts; try again in {max(1, round(wait))} s",
                429,
                retry_after=max(1, round(wait)),
            )

    async def sign_in(self, raw_name: str, password: str, address: str) -> tuple[int, str, str, str]:
        """Checks a name and password: ``(user id, name, cookie value, csrf)`` of a new session.

        Every attempt spends from the address's budget and every failure from the name's, so
        guessing one account's password from many addresses is as slow as from one.
        """
        await self._limited(self.signins, "signin", address, spend=True)
        key = self._failure_key(raw_name)
        await self._limited(self.failures, "failed", key)
        found = await self.db(self.store.find, raw_name) if 0 < len(raw_name) <= 100 else None
        user, stored = found if found is not None else (None, None)
        ok = await self.verify(stored, password)
        if user is None or not ok:
            await self._spend(self.failures, "failed", key)
            log.info("sign-in failed")
            raise AccountError("auth/failed", "wrong name or password", 401)
        if user.disabled:
            raise AccountError("account/disabled", "this account is disabled", 403)
        assert stored is not None
        if self.hasher.check_needs_rehash(stored):
            await self.db(self.store.rehash, user.id, stored, await self.hash(password))
        cookie, csrf = await self.start_session(user.id)
        log.info("account %d signed in", user.id)
        assert user.name is not None
        return user.id, user.name, cookie, csrf

    async def check_own_password(self, user_id: int, password: str) -> None:
        """Raises ``password/wrong`` (403) unless ``password`` is the account's (rate-limited)."""
        key = f"u:{user_id}"
        await self._limited(self.failures, "failed", key)
        found = await self.db(self.store.get, user_id)
        stored = found[1] if found is not None else None
        if not await self.verify(stored, password):
            await self._spend(self.failures, "failed", key)
            raise AccountError("password/wrong", "the password is wrong", 403)

    async def change_password(self, user_id: int, name: str, old: str, new: str, session: str | None) -> None:
        check_password(new, name)
        await self.check_own_password(user_id, old)
        before = set(await self.db(self.store.session_hashes, user_id))
        await self.db(self.store.set_password, user_id, await self.hash(new), session)
        self._notify_ended(before - {session} if session else before)
        log.info("account %d changed its password", user_id)

    async def sign_out(self, session: str) -> None:
        await self.db(self.store.end_session, session)
        self._notify_ended({session})

    async def delete(self, user_id: int) -> None:
        sessions = await self.db(self.store.session_hashes, user_id)
        tokens = await self.db(self.store.token_ids, user_id)
        await self.db(self.store.delete_user, user_id, time.time())
        self._notify_ended(set(sessions))
        for token_id in tokens:
            self._notify_revoked(token_id)
        log.info("account %d deleted", user_id)

    async def create_token(self, user_id: int, label: str) -> tuple[int, str]:
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token_id = await self.db(self.store.create_token, user_id, label, token, time.time())
        log.info("account %d created API token %d", user_id, token_id)
        return token_id, token

    async def revoke_token(self, user_id: int, token_id: int) -> bool:
        done = await self.db(self.store.revoke_token, user_id, token_id, time.time())
        if done:
            self._notify_revoked(token_id)
            log.info("account %d revoked API token %d", user_id, token_id)
        return done

    async def export(self, user_id: int) -> dict[str, Any]:
        waited = await self._spend(self.exports, "export", f"u:{user_id}")
        if waited > 0:
            wait = max(1, round(waited))
            raise AccountError("export/limited", f"try the export again in {wait} s", 429, retry_after=wait)
        return await self.db(self.store.export, user_id)

    async def session(self, cookie: str) -> tuple[str, SessionInfo] | None:
        """The session a cookie's value opens: ``(its hash, the session)``, or ``None``."""
        if not cookie or len(cookie) > 100:
            return None
        digest = sha256(cookie)
        info = await self.db(self.store.session, digest, time.time())
        return None if info is None else (digest, info)

    async def token(self, token: str) -> TokenInfo | None:
        if not looks_like_token(token):
            return None
        return await self.db(self.store.token, token, time.time())

    # ---------------------------------------------------------------------------- hooks

    def _notify_revoked(self, token_id: int) -> None:
        for hook in list(self.revoked):
            try:
                hook(token_id)
            except Exception:
                log.exception("a token-revoked listener failed")

    def _notify_ended(self, sessions: set[str]) -> None:
        for digest in sessions:
            for hook in list(self.ended):
                try:
                    hook(digest)
                except Exception:
                    log.exception("a session-ended listener failed")


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _hash_pool(workers: int) -> ThreadPoolExecutor:
    """The process's password-hashing threads (shared by every app of the process, as tests make many)."""
    pool = _POOLS.get(workers)
    if pool is None:
        pool = _POOLS[workers] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sushigo-hash")
    return pool


def same_secret(a: str, b: str) -> bool:
    """Constant-time comparison of two secrets (CSRF tokens)."""
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))
