"""Rate limits: token buckets for register/login per address, actions per user and per address,
imports per user; a backoff per account after failed logins.

A refused request gets 429 ``rate_limited`` with ``Retry-After`` (seconds) and
``retry_after`` in the error body; over a WebSocket, an ``error`` message with the same code.

On PostgreSQL the buckets live in the ``rate_buckets`` table, shared by every process: each
check is one atomic ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` timed by the database's
clock, so N processes behind a load balancer give a client the rate of one. On SQLite (one
process) they stay in memory. The address is the peer's, or the rightmost address in
``X-Forwarded-For`` that is not one of ``MENAGERIE_TRUSTED_PROXIES`` (uvicorn's
``ProxyHeadersMiddleware``, installed by :func:`app.main.create_app` only when proxies are
configured: by default the header is ignored).
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import time

from cachetools import LRUCache
from sqlalchemy import text

from . import metrics
from .refusal import Refusal
from .settings import Settings

log = logging.getLogger("menagerie.ratelimit")

MAX_KEYS = 100_000
#: rows older than this (seconds) are full buckets / forgotten failures: deleted now and then
STALE_AFTER = 86_400.0
PRUNE_EVERY = 2_000


class Limiter:
    """Token buckets by key in memory: ``burst`` tokens, refilled at ``rate`` per second."""

    def __init__(self, name: str, rate: float, burst: float, max_keys: int = MAX_KEYS) -> None:
        self.name = name
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.max_keys = max_keys
        self._buckets: LRUCache[str, list[float]] = LRUCache(max_keys)

    def take(self, key: str, now: float | None = None) -> float:
        """Take one token: 0 if allowed, else the seconds until one is available."""
        now = time.monotonic() if now is None else now
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = [self.burst, now]
        else:
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
        if bucket[0] >= 1.0:
            bucket[0] -= 1.0
            return 0.0
        return (1.0 - bucket[0]) / self.rate if self.rate > 0 else 3600.0

    async def acquire(self, key: str) -> float:
        return self.take(key)


_UPSERT = """
INSERT INTO rate_buckets AS b (key, level, stamp, ok)
VALUES (:key, :burst - 1, extract(epoch from clock_timestamp()), true)
ON CONFLICT (key) DO UPDATE SET
  level = CASE WHEN least(:burst, b.level + (EXCLUDED.stamp - b.stamp) * :rate) >= 1
               THEN least(:burst, b.level + (EXCLUDED.stamp - b.stamp) * :rate) - 1
               ELSE least(:burst, b.level + (EXCLUDED.stamp - b.stamp) * :rate) END,
  ok = least(:burst, b.level + (EXCLUDED.stamp - b.stamp) * :rate) >= 1,
  stamp = EXCLUDED.stamp
RETURNING level, ok
"""


def _upsert(suffix: str = "") -> str:
    return _UPSERT.replace(":key", f":key{suffix}").replace(
        ":burst", f"CAST(:burst{suffix} AS float8)").replace(
        ":rate", f"CAST(:rate{suffix} AS float8)")


def _positional(sql: str, names: list[str]) -> str:
    """``sql`` with ``:name`` parameters as asyncpg's ``$n`` (in the order of ``names``)."""
    return re.sub(r":(\w+)", lambda m: f"${names.index(m.group(1)) + 1}", sql)


# the statements run on the asyncpg connection itself (db.driver: SQLAlchemy's execution layer
# cost more than the statement, once per action)
_TAKE = _positional(_upsert(), ["key", "burst", "rate"])
#: two buckets in one round trip (an action: its address and its user)
_TAKE_TWO = _positional(
    f"WITH one AS ({_upsert('1')}), two AS ({_upsert('2')}) "
    "SELECT one.level AS level1, one.ok AS ok1, two.level AS level2, two.ok AS ok2 "
    "FROM one, two", ["key1", "burst1", "rate1", "key2", "burst2", "rate2"])


class SharedLimiter:
    """The same token buckets in the ``rate_buckets`` table (PostgreSQL, every process)."""

    def __init__(self, name: str, rate: float, burst: float, db) -> None:
        self.name = name
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.db = db

    async def acquire(self, key: str) -> float:
        async with self.db.driver() as conn:
            row = await conn.fetchrow(_TAKE, f"{self.name}:{key}"[:200], self.burst, self.rate)
        if row["ok"]:
            return 0.0
        return (1.0 - row["level"]) / self.rate

    async def acquire_with(self, key: str, other: SharedLimiter, other_key: str
                           ) -> tuple[float, float]:
        """Take a token from this bucket and one from ``other`` in one statement."""
        async with self.db.driver() as conn:
            row = await conn.fetchrow(_TAKE_TWO, f"{self.name}:{key}"[:200], self.burst,
                                      self.rate, f"{other.name}:{other_key}"[:200],
                                      other.burst, other.rate)
        return (0.0 if row["ok1"] else (1.0 - row["level1"]) / self.rate,
                0.0 if row["ok2"] else (1.0 - row["level2"]) / other.rate)


class RateLimited(Refusal):
    def __init__(self, limit: str, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        super().__init__("rate_limited", f"Too many requests; try again in {seconds} s.",
                         retry_after=seconds)
        self.limit = limit


class LoginBackoff:
    """Failed logins per account: after ``free`` failures each attempt waits 1, 2, 4, ... s
    (at most ``cap``) after the last failure; a success forgets them. In memory (SQLite) or in
    ``rate_buckets`` (PostgreSQL)."""

    def __init__(self, free: int, cap: float, db=None) -> None:
        self.free = free
        self.cap = cap
        self.db = db if db is not None and db.is_postgres else None
        self._memory: LRUCache[str, tuple[float, float]] = LRUCache(MAX_KEYS)

    def wait_for(self, failures: float, last: float, now: float) -> float:
        if failures < self.free:
            return 0.0
        delay = min(self.cap, 2.0 ** min(failures - self.free, 30))
        return max(0.0, last + delay - now)

    async def check(self, account: str) -> float:
        """Seconds this account must still wait before a login attempt (0: go ahead)."""
        key = "login_fail:" + account
        if self.db is None:
            failures, last = self._memory.get(key, (0.0, 0.0))
            return self.wait_for(failures, last, time.time())
        async with self.db.autocommit() as conn:
            row = (await conn.execute(text(
                "SELECT level, stamp, extract(epoch from clock_timestamp()) AS now "
                "FROM rate_buckets WHERE key = :key"), {"key": key[:200]})).first()
        return 0.0 if row is None else self.wait_for(row.level, row.stamp, float(row.now))

    async def failed(self, account: str) -> None:
        key = "login_fail:" + account
        if self.db is None:
            failures, _ = self._memory.pop(key, (0.0, 0.0))
            self._memory[key] = (failures + 1, time.time())
            return
        async with self.db.autocommit() as conn:
            await conn.execute(text(
                "INSERT INTO rate_buckets AS b (key, level, stamp, ok) "
                "VALUES (:key, 1, extract(epoch from clock_timestamp()), false) "
                "ON CONFLICT (key) DO UPDATE SET level = b.level + 1, stamp = EXCLUDED.stamp"),
                {"key": key[:200]})

    async def succeeded(self, account: str) -> None:
        key = "login_fail:" + account
        if self.db is None:
            self._memory.pop(key, None)
            return
        async with self.db.autocommit() as conn:
            await conn.execute(text("DELETE FROM rate_buckets WHERE key = :key"),
                               {"key": key[:200]})


class RateLimits:
    def __init__(self, settings: Settings, db=None) -> None:
        self.enabled = settings.rate_limits
        self.db = db if db is not None and db.is_postgres else None
        self._checks = 0

        def bucket(name: str, rate: float, burst: float):
            if self.db is not None:
                return SharedLimiter(name, rate, burst, self.db)
            return Limiter(name, rate, burst)

        auth_rate = settings.rate_auth_per_minute / 60.0
        self.register = bucket("register_per_address", auth_rate, settings.rate_auth_burst)
        self.login = bucket("login_per_address", auth_rate, settings.rate_auth_burst)
        self.actions_user = bucket("actions_per_user", settings.rate_actions_per_second,
                                   settings.rate_actions_burst)
        self.actions_address = bucket("actions_per_address",
                                      settings.rate_address_actions_per_second,
                                      settings.rate_address_actions_burst)
        self.imports = bucket("imports_per_user", settings.rate_imports_per_minute / 60.0,
                              settings.rate_imports_burst)
        #: verification mails per user (each one is a mail to an address the user typed)
        self.verify_mails = bucket("verify_mails_per_user",
                                   settings.rate_verify_mails_per_hour / 3600.0,
                                   settings.rate_verify_mails_burst)
        #: verification mails per recipient address (the key is the address's SHA-256: no
        #: address is stored in ``rate_buckets``)
        self.verify_recipient = bucket(
            "verify_mails_per_recipient",
            settings.rate_verify_mails_per_recipient_per_hour / 3600.0,
            settings.rate_verify_mails_per_recipient_burst)
        #: hints per user (each one a search in the hint process)
        self.hints = bucket("hints_per_user", settings.rate_hints_per_minute / 60.0,
                            settings.rate_hints_burst)
        #: take-backs per user (each one is a new version that every watcher receives)
        self.undo = bucket("undo_per_user", settings.rate_undo_per_minute / 60.0,
                           settings.rate_undo_burst)
        self.logins = LoginBackoff(settings.login_free_failures, settings.login_max_backoff,
                                   self.db)

    async def check(self, limiter, key) -> None:
        """Raise :class:`RateLimited` when ``key`` has no token left in ``limiter``."""
        if not self.enabled or key is None or key == "":
            return
        wait = await limiter.acquire(str(key))
        await self._prune()
        if wait:
            metrics.RATE_LIMITED.labels(limiter.name).inc()
            raise RateLimited(limiter.name, wait)

    async def action(self, address: str | None, user_id: int | None) -> None:
        """An action (a move, an undo) of ``user_id`` from ``address``."""
        if self.enabled and address and user_id is not None and \
                isinstance(self.actions_address, SharedLimiter):
            # PostgreSQL: both buckets in one round trip (a move stays one more statement)
            waits = await self.actions_address.acquire_with(address, self.actions_user,
                                                            str(user_id))
            await self._prune()
            for limiter, wait in zip((self.actions_address, self.actions_user), waits):
                if wait:
                    metrics.RATE_LIMITED.labels(limiter.name).inc()
                    raise RateLimited(limiter.name, wait)
            return
        await self.check(self.actions_address, address)
        await self.check(self.actions_user, user_id)

    async def verify_mail(self, user_id: int, address: str) -> None:
        """A verification mail asked for by ``user_id`` to ``address`` (already normalized)."""
        await self.check(self.verify_mails, user_id)
        digest = hashlib.sha256(address.lower().encode("utf-8")).hexdigest()
        await self.check(self.verify_recipient, digest)

    async def login_allowed(self, account: str) -> None:
        """Refuse (429) a login to an account that failed too often lately."""
        if not self.enabled:
            return
        wait = await self.logins.check(account.lower())
        if wait:
            metrics.RATE_LIMITED.labels("login_per_account").inc()
            raise RateLimited("login_per_account", wait)

    async def _prune(self) -> None:
        """PostgreSQL: now and then delete rows old enough to be full buckets anyway."""
        if self.db is None:
            return
        self._checks += 1
        if self._checks % PRUNE_EVERY:
            return
        try:
            async with self.db.autocommit() as conn:
                await conn.execute(text(
                    "DELETE FROM rate_buckets "
                    "WHERE stamp < extract(epoch from clock_timestamp()) - :age"),
                    {"age": STALE_AFTER})
        except Exception:  # pragma: no cover - pruning is best effort
            log.warning("could not prune rate_buckets", exc_info=True)


def client_address(conn) -> str | None:
    """The client address of a request or socket (after the trusted proxies' header)."""
    client = getattr(conn, "client", None)
    return client.host if client else None
