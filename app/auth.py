"""Accounts and login tokens.

Passwords are hashed with argon2id (argon2-cffi). A login token is 256 random bits from
:mod:`secrets`; only its SHA-256 digest is stored, so a leaked database reveals no usable token.
Logout deletes the token row. Clients send the token as ``Authorization: Bearer <token>`` or,
in the browser, as the HttpOnly cookie ``menagerie_token``.

A token found valid is remembered in memory for ``MENAGERIE_TOKEN_CACHE_SECONDS`` (no database
round trip per request). Logout forgets it here and, on PostgreSQL, announces the revocation to
every other process (``NOTIFY``); a process whose LISTEN connection was lost forgets every cached
token when it reconnects, since it may have missed a revocation.

Cookie-authenticated requests that change something (POST, PUT, PATCH, DELETE) must carry the
``X-CSRF-Token`` header equal to the ``menagerie_csrf`` cookie (double submit); its value is
derived from the login token (HMAC), so a cookie planted by another site cannot match. Requests
with a Bearer token are exempt: a browser never adds that header by itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from cachetools import LRUCache
from fastapi import Depends, Request

from . import auth_store as store, credentials
from .db import Database, Duplicate
from .refusal import Refusal, say
from .settings import Settings
from .times import aware, utcnow

COOKIE = "menagerie_token"
CSRF_COOKIE = "menagerie_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TOKEN_CACHE_MAX = 20_000
USERNAME_RE, PASSWORD_MIN, PASSWORD_MAX = (credentials.USERNAME_RE, credentials.PASSWORD_MIN,
                                           credentials.PASSWORD_MAX)


@dataclass(frozen=True)
class UserInfo:
    id: int
    username: str

    def as_dict(self) -> dict:
        return {"id": self.id, "username": self.username}


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def csrf_for(token: str) -> str:
    """The CSRF value that goes with a login token (readable cookie, echoed in a header)."""
    return hmac.new(token.encode("utf-8", "surrogatepass"), b"menagerie-csrf",
                    hashlib.sha256).hexdigest()[:43]


class AuthService:
    def __init__(self, db: Database, settings: Settings, *,
                 announce_revoke: Callable[[Any, str], Awaitable[None]] | None = None,
                 on_revoked: Callable[[str], None] | None = None) -> None:
        self.db = db
        self.settings = settings
        self.hasher = PasswordHasher(time_cost=settings.argon2_time_cost,
                                     memory_cost=settings.argon2_memory_kib, parallelism=1)
        # verified against when the user does not exist, so timing does not reveal names
        self._dummy_hash = self.hasher.hash(secrets.token_hex(16))
        #: token digest -> (user, expires_at, cached at (monotonic))
        self._cache: LRUCache[str, tuple[UserInfo, datetime, float]] = LRUCache(TOKEN_CACHE_MAX)
        #: announce a revocation to every process (NOTIFY, in the revoking transaction), and
        #: act on it in this one at once (see app/sessions.py); given by the service container
        self.announce_revoke = announce_revoke
        #: argon2 runs in threads, at most this many at once (a burst of logins queues here
        #: instead of taking every core from the event loop)
        self._hash_slots = asyncio.Semaphore(settings.hash_concurrency)
        #: what this process does at once with a revocation (the service container's)
        self.on_revoked = on_revoked

    async def hashing(self, fn, *args):
        """Run a password hash or verification in a thread, bounded by ``hash_concurrency``."""
        async with self._hash_slots:
            return await asyncio.to_thread(fn, *args)

    async def register(self, username: str, password: str) -> tuple[UserInfo, str]:
        credentials.check_new_account(username, password)
        key, look = username.lower(), credentials.confusable_key(username)
        async with self.db.read() as s:
            if await store.name_taken(s, key):
                raise Refusal("username_taken", say("username_taken"))
            if await store.lookalike_taken(s, credentials.lookalike_keys(username)):
                raise credentials.username_lookalike()
        password_hash = await self.hashing(self.hasher.hash, password)
        token = secrets.token_urlsafe(32)
        async with self.db.write() as s:
            try:
                user = await store.add_user(s, username, key, look, password_hash)
            except Duplicate:
                raise Refusal("username_taken", say("username_taken")) from None
            self._add_token(s, user.id, token)
            await s.commit()
            return UserInfo(user.id, user.username), token

    async def login(self, username: str, password: str) -> tuple[UserInfo, str]:
        key = username.lower()
        user = None
        if USERNAME_RE.match(username) and credentials.is_text(password) and \
                len(password) <= PASSWORD_MAX:
            async with self.db.read() as s:
                user = await store.user_by_key(s, key)
        else:
            password = "-"  # no such account can exist; verify a dummy all the same
        stored = user.password_hash if user is not None else self._dummy_hash
        ok = await self.hashing(self._verify, stored, password)
        if user is None or not ok:
            raise Refusal("bad_credentials", say("bad_credentials"))
        token = secrets.token_urlsafe(32)
        async with self.db.write() as s:
            # forget this user's expired tokens while we are here
            await store.drop_expired(s, user.id, utcnow())
            self._add_token(s, user.id, token)
            if self.hasher.check_needs_rehash(stored):
                fresh = await self.hashing(self.hasher.hash, password)
                await store.set_password(s, user.id, fresh)
            await s.commit()
        return UserInfo(user.id, user.username), token

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def _add_token(self, s, user_id: int, token: str) -> None:
        now = utcnow()
        store.add_token(s, user_id, hash_token(token), now,
                        now + timedelta(days=self.settings.token_ttl_days))

    async def logout(self, token: str) -> bool:
        digest = hash_token(token)
        async with self.db.write() as s:
            dropped = await store.drop_token(s, digest)
            if self.announce_revoke is not None:
                await self.announce_revoke(s, digest)  # delivered on commit
            await s.commit()
        self._revoked(digest)
        return bool(dropped)

    async def logout_everywhere(self, user: UserInfo, keep: str | None = None) -> int:
        """Revoke every login token of ``user`` (but ``keep``, if given); their sockets close
        in every process. Returns how many tokens were revoked."""
        keep_digest = hash_token(keep) if keep else None
        payload = f"u:{user.id}" + (f":{keep_digest}" if keep_digest else "")
        async with self.db.write() as s:
            dropped = await store.drop_tokens_of(s, user.id, keep_digest)
            if self.announce_revoke is not None:
                await self.announce_revoke(s, payload)
            await s.commit()
        self._revoked(payload)
        return dropped

    async def change_password(self, user: UserInfo, current: str, new: str,
                              token: str) -> int:
        """Set a new password after checking the current one; every other login of the user
        is revoked (the one that asked, ``token``, stays). Returns how many were revoked."""
        credentials.check_password(new, user.username)  # the same rules as at registration
        async with self.db.read() as s:
            stored = await store.password_hash(s, user.id)
        ok = stored is not None and credentials.is_text(current) and \
            len(current) <= PASSWORD_MAX and await self.hashing(self._verify, stored, current)
        if not ok:
            raise Refusal("wrong_password", say("wrong_password"))
        fresh = await self.hashing(self.hasher.hash, new)
        async with self.db.write() as s:
            if not await store.set_password(s, user.id, fresh):  # pragma: no cover
                # (the token's user exists)
                raise Refusal("bad_token", say("bad_token.token"))
            await s.commit()
        return await self.logout_everywhere(user, keep=token)

    def _revoked(self, payload: str) -> None:
        if self.on_revoked is not None:
            self.on_revoked(payload)
        else:
            self.forget_announced(payload)

    def forget(self, digest: str) -> None:
        self._cache.pop(digest, None)

    def forget_announced(self, payload: str) -> None:
        """Forget what a revocation names: one digest, or ``u:ID[:keep]`` (every cached token
        of user ID but ``keep``)."""
        if not payload.startswith("u:"):
            self.forget(payload)
            return
        uid, _, keep = payload[2:].partition(":")
        try:
            user_id = int(uid)
        except ValueError:
            return
        for digest in [d for d, hit in self._cache.items()
                       if hit[0].id == user_id and d != keep]:
            self._cache.pop(digest, None)

    def forget_all(self) -> None:
        self._cache.clear()

    async def live_digests(self, digests: list[str]) -> set[str]:
        """Which of these token digests still belong to a login that has not expired."""
        out: set[str] = set()
        for i in range(0, len(digests), 500):
            async with self.db.read() as s:
                rows = await store.token_expiries(s, digests[i:i + 500])
            out.update(r.token_hash for r in rows if aware(r.expires_at) > utcnow())
        return out

    def cached_tokens(self) -> int:
        return len(self._cache)

    async def user_for_token(self, token: str) -> UserInfo | None:
        if not token or len(token) > 256:
            return None
        digest = hash_token(token)
        ttl = self.settings.token_cache_seconds
        hit = self._cache.get(digest)
        if hit is not None and time.monotonic() - hit[2] < ttl:
            if aware(hit[1]) <= utcnow():
                self.forget(digest)
                return None
            return hit[0]
        async with self.db.read() as s:
            row = await store.token_user(s, digest)
        if row is None or aware(row.expires_at) <= utcnow():
            self.forget(digest)
            return None
        user = UserInfo(row.id, row.username)
        if ttl > 0:
            self._cache[digest] = (user, row.expires_at, time.monotonic())
        return user


# ------------------------------------------------------------------ request dependencies

def token_from_headers(authorization: str | None, cookie: str | None) -> tuple[str | None, str]:
    """The token a request carries and where it came from ("bearer", "cookie" or "")."""
    if authorization is not None:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise Refusal("bad_token", say("bad_token.header"))
        return value.strip(), "bearer"
    if cookie:
        return cookie, "cookie"
    return None, ""


async def viewer(request: Request) -> UserInfo | None:
    """The signed-in user, or None for an anonymous caller (a spectator).

    A bad Bearer token is refused (401); a stale cookie is ignored, so an old browser session
    can still watch games.
    """
    token, source = token_from_headers(request.headers.get("authorization"),
                                       request.cookies.get(COOKIE))
    if token is None:
        return None
    if source == "cookie" and request.method not in SAFE_METHODS:
        check_csrf(request, token)
    user = await request.app.state.services.auth.user_for_token(token)
    if user is None:
        if source == "bearer":
            raise Refusal("bad_token", say("bad_token.token"))
        return None
    request.state.token = token
    return user


def check_csrf(request: Request, token: str) -> None:
    """A cookie-authenticated unsafe request must echo the CSRF cookie in ``X-CSRF-Token``."""
    sent = request.headers.get(CSRF_HEADER, "")
    # signed double submit: the cookie carries the value to the page's script; the header must
    # hold the value derived from this very login token
    if not (sent and hmac.compare_digest(sent.encode("utf-8", "surrogatepass"),
                                         csrf_for(token).encode())):
        raise Refusal("csrf_failed",
                      say("csrf_failed"))


async def require_user(user: UserInfo | None = Depends(viewer)) -> UserInfo:
    if user is None:
        raise Refusal("unauthorized", say("unauthorized.sign_in"))
    return user
