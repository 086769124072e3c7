"""In-process token buckets: register/login per address, actions per token and per address.

A refused request gets 429 ``rate_limited`` with ``Retry-After`` (seconds) and
``retry_after`` in the error body; over a WebSocket, an ``error`` message with the same code.
Limits are per process: with N processes behind a load balancer a client gets up to N times
the rate (docs/operations.md). The address is the peer address, or the one a trusted proxy puts
in ``X-Forwarded-For`` (uvicorn's ``--forwarded-allow-ips``).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict

from . import metrics
from .errors import ApiError
from .settings import Settings

MAX_KEYS = 100_000


class Limiter:
    """Token buckets by key: ``burst`` tokens, refilled at ``rate`` per second."""

    def __init__(self, name: str, rate: float, burst: float, max_keys: int = MAX_KEYS) -> None:
        self.name = name
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, list[float]] = OrderedDict()

    def take(self, key: str, now: float | None = None) -> float:
        """Take one token: 0 if allowed, else the seconds until one is available."""
        now = time.monotonic() if now is None else now
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = [self.burst, now]
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
        if bucket[0] >= 1.0:
            bucket[0] -= 1.0
            return 0.0
        return (1.0 - bucket[0]) / self.rate if self.rate > 0 else 3600.0


class RateLimited(ApiError):
    def __init__(self, limit: str, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        super().__init__(429, "rate_limited",
                         f"Too many requests; try again in {seconds} s.", retry_after=seconds)
        self.limit = limit
        self.headers = {"Retry-After": str(seconds)}


class RateLimits:
    def __init__(self, settings: Settings) -> None:
        self.enabled = settings.rate_limits
        auth_rate = settings.rate_auth_per_minute / 60.0
        self.register = Limiter("register_per_address", auth_rate, settings.rate_auth_burst)
        self.login = Limiter("login_per_address", auth_rate, settings.rate_auth_burst)
        self.actions_token = Limiter("actions_per_token", settings.rate_actions_per_second,
                                     settings.rate_actions_burst)
        self.actions_address = Limiter("actions_per_address",
                                       settings.rate_address_actions_per_second,
                                       settings.rate_address_actions_burst)

    def check(self, limiter: Limiter, key: str | None) -> None:
        """Raise :class:`RateLimited` when ``key`` has no token left in ``limiter``."""
        if not self.enabled or not key:
            return
        wait = limiter.take(key)
        if wait:
            metrics.RATE_LIMITED.labels(limiter.name).inc()
            raise RateLimited(limiter.name, wait)

    def action(self, address: str | None, token: str | None) -> None:
        self.check(self.actions_address, address)
        self.check(self.actions_token, token)


def client_address(conn) -> str | None:
    """The peer address of a request or socket (after uvicorn's proxy-header handling)."""
    client = getattr(conn, "client", None)
    return client.host if client else None
