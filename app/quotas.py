"""Quotas on expensive work (issue #15).

- Games: a user has at most ``max_active_games_per_user`` unfinished games of their own making
  (open or running), with at most ``max_bot_seats_per_user`` bot seats over all of them, of
  which at most ``max_mcts_seats_per_user`` are search bots (every kind the engine marks
  ``heavy``: ``mcts``, ``search``, ``plan``; up to about a second of CPU per decision; the
  setting keeps its old name). A game is never made of bots only: the creator sits in seat 0, and when every
  seat of a running game is played by a bot (its players all handed to the time control's
  bot), the bots stop until someone reclaims a seat (app/games/bots.py).
- Sockets: at most ``ws_max_sockets`` WebSockets in all, ``ws_per_address`` per client address
  (counted before any login wait), ``ws_per_user`` game WebSockets and ``ws_me_per_user``
  ``/api/me/ws`` sockets per user, per process; past ``ws_spectator_limit`` new spectators are
  shed (:class:`SocketQuota`) (a load balancer that spreads one client over N processes allows N
  times that; the proxy's connection limit per address covers the rest: docs/security.md).
- ``sync`` messages: a token bucket per socket (``rate_sync_per_second``, ``rate_sync_burst``):
  each answer may be a full state, so a burst of syncs is a burst of large writes.
- Imports: a token bucket per user (app.ratelimit, ``rate_imports_per_minute``).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter

from engine.bots import heavy_kinds

from .ratelimit import Limiter
from .refusal import Refusal, say
from .settings import Settings


def check_new_game(settings: Settings, active: int, bot_seats: Counter, new_bots: Counter,
                   time_control: dict | None) -> None:
    """Refuse (409) a new game beyond the creator's quotas. ``active``: the creator's unfinished
    games, ``bot_seats``: bot kind -> seats over them (counted by the game store:
    ``creator_load`` in app/games/store_lookups.py, in the creating transaction), ``new_bots``:
    bot kind -> seats of the new game."""
    limit = settings.max_active_games_per_user
    if active >= limit:
        raise Refusal("game_quota",
                      say("game_quota", limit=limit),
                      limit=limit)
    seats = Counter(bot_seats)
    seats.update(new_bots)
    heavy = heavy_kinds()
    searching = sum(n for kind, n in seats.items() if kind in heavy)
    if (time_control or {}).get("bot") in heavy:
        searching += 1  # it may play the creator's seat after timeouts
    if sum(seats.values()) > settings.max_bot_seats_per_user:
        raise Refusal("bot_quota",
                      say("bot_quota.seats", limit=settings.max_bot_seats_per_user),
                      limit=settings.max_bot_seats_per_user)
    if searching > settings.max_mcts_seats_per_user:
        raise Refusal("bot_quota",
                      say("bot_quota.search", limit=settings.max_mcts_seats_per_user),
                      limit=settings.max_mcts_seats_per_user)


class SocketQuota:
    """Open WebSockets of this process: in all, per client address, per user (issue #31).

    A socket counts from the moment its handshake reaches the app (:meth:`SocketSlot.enter`,
    before it is accepted and before any wait for its login): a crowd of sockets that never
    log in is capped per address and in all like any other. Its user is counted once known
    (:meth:`SocketSlot.claim`). Close codes (docs/security.md): 4429 ``too_many_sockets`` (the
    address's or the user's cap), 4503 ``server_busy`` (the process's cap, for everyone) and
    4503 ``crowded`` (past ``ws_spectator_limit``: a new spectator is shed, with
    ``retry_after``)."""

    def __init__(self, settings: Settings) -> None:
        self.per_user = settings.ws_per_user
        self.me_per_user = settings.ws_me_per_user
        self.per_address = settings.ws_per_address
        self.max_sockets = settings.ws_max_sockets
        self.spectator_limit = settings.ws_spectator_limit
        self.crowded_retry = settings.ws_crowded_retry
        self.sync_rate = settings.rate_sync_per_second
        self.sync_burst = settings.rate_sync_burst
        self.total = 0
        self.users: Counter = Counter()
        self.addresses: Counter = Counter()
        #: spectators refused since the start (shedding; reported by /metrics)
        self.shed = 0
        #: how late the event loop runs (seconds; :meth:`watch_lag`), and when it means shedding
        self.lag = 0.0
        self.lag_limit = settings.ws_shed_lag

    def enter(self, address: str | None) -> Refusal | None:
        """Count a new socket of ``address``, or say why it is refused (nothing counted)."""
        if self.total >= self.max_sockets:
            return Refusal("server_busy", say("server_busy", seconds=self.crowded_retry),
                           retry_after=self.crowded_retry)
        if address and self.addresses[address] >= self.per_address:
            return Refusal("too_many_sockets",
                           say("too_many_sockets.address", limit=self.per_address))
        self.total += 1
        if address:
            self.addresses[address] += 1
        return None

    def leave(self, address: str | None) -> None:
        self.total -= 1
        self._drop(self.addresses, address)

    def claim(self, kind: str, user_id: int) -> Refusal | None:
        """Count the socket's user (``kind`` "game" or "me": each has its own cap)."""
        limit = self.per_user if kind == "game" else self.me_per_user
        if self.users[(kind, user_id)] >= limit:
            key = "too_many_sockets.user" if kind == "game" else "too_many_sockets.me"
            return Refusal("too_many_sockets", say(key, limit=limit))
        self.users[(kind, user_id)] += 1
        return None

    def unclaim(self, kind: str, user_id: int) -> None:
        self._drop(self.users, (kind, user_id))

    def crowded(self) -> Refusal | None:
        """Whether a new spectator is shed: this process holds more than
        ``ws_spectator_limit`` sockets (the new one included), or its event loop runs more
        than ``ws_shed_lag`` seconds late (short of CPU)."""
        if self.total <= self.spectator_limit and not (self.lag_limit and
                                                       self.lag > self.lag_limit):
            return None
        self.shed += 1
        wait = self.crowded_retry + random.randint(0, self.crowded_retry)
        return Refusal("crowded", say("crowded", seconds=wait), retry_after=wait)

    async def watch_lag(self, every: float = 0.1) -> None:
        """Measure how late the event loop wakes up, for as long as the process runs (a
        spike decays over a few tenths of a second)."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(every)
            late = loop.time() - start - every
            self.lag = max(late, self.lag * 0.9)

    @staticmethod
    def _drop(counter: Counter, key) -> None:
        if key is not None and key != "":
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def sync_limiter(self) -> Limiter:
        """A bucket for one socket's ``sync`` messages."""
        return Limiter("sync_per_socket", self.sync_rate, self.sync_burst, max_keys=1)


class SocketSlot:
    """One socket's place in the :class:`SocketQuota` (taken once, released once)."""

    def __init__(self, quota: SocketQuota, kind: str = "game") -> None:
        self.quota = quota
        self.kind = kind
        self.address: str | None = None
        self.entered = False
        self.user_id: int | None = None
        self.syncs = quota.sync_limiter()

    def enter(self, address: str | None) -> Refusal | None:
        """Count the socket from its first byte (before it is accepted)."""
        refused = self.quota.enter(address)
        if refused is None:
            self.entered, self.address = True, address
        return refused

    def claim(self, user_id: int | None) -> Refusal | None:
        """Count the socket's user, once known (None: a spectator, nothing to count)."""
        if user_id is None or self.user_id is not None:
            return None
        refused = self.quota.claim(self.kind, user_id)
        if refused is None:
            self.user_id = user_id
        return refused

    def sync_allowed(self) -> float:
        """0 if a ``sync`` may be answered now, else the seconds to wait."""
        return self.syncs.take("sync")

    def release(self) -> None:
        if self.user_id is not None:
            self.quota.unclaim(self.kind, self.user_id)
            self.user_id = None
        if self.entered:
            self.quota.leave(self.address)
            self.entered = False
