"""Quotas on expensive work (issue #15).

- Games: a user has at most ``max_active_games_per_user`` unfinished games of their own making
  (open or running), with at most ``max_bot_seats_per_user`` bot seats over all of them, of
  which at most ``max_mcts_seats_per_user`` are the search bot (``mcts``, about a second of CPU
  per decision). A game is never made of bots only: the creator sits in seat 0, and when every
  seat of a running game is played by a bot (its players all handed to the time control's
  bot), the bots stop until someone reclaims a seat (app/games/bots.py).
- Sockets: at most ``ws_per_user`` game WebSockets per user and ``ws_per_address`` per client
  address, per process (a load balancer that spreads one client over N processes allows N
  times that; the proxy's connection limit per address covers the rest: docs/security.md).
- ``sync`` messages: a token bucket per socket (``rate_sync_per_second``, ``rate_sync_burst``):
  each answer may be a full state, so a burst of syncs is a burst of large writes.
- Imports: a token bucket per user (app.ratelimit, ``rate_imports_per_minute``).
"""

from __future__ import annotations

from collections import Counter

from sqlalchemy import func, select

from .errors import ApiError
from .models import Game, Seat, User
from .ratelimit import Limiter
from .settings import Settings

SEARCH_BOT = "mcts"


async def creator_load(session, creator: int) -> tuple[int, Counter]:
    """The creator's unfinished games (of their own making: games dealt by the server, such as
    the daily challenge's, do not count) and their bot seats by kind, counted in ``session``
    (the write transaction that creates the game) with the creator's row locked, so two
    creations by one user queue (SQLite has one writer at a time anyway). Game creation and
    rematches both count through here."""
    await session.execute(select(User.id).where(User.id == creator).with_for_update())
    unfinished = ((Game.created_by == creator) & (Game.status != "finished")
                  & (Game.source == "play"))
    active = await session.scalar(select(func.count()).select_from(Game).where(unfinished))
    rows = (await session.execute(
        select(Seat.bot, func.count()).join(Game, Game.id == Seat.game_id)
        .where(unfinished, Seat.bot.is_not(None)).group_by(Seat.bot))).all()
    return int(active or 0), Counter({kind: n for kind, n in rows})


async def enforce_new_game(session, settings: Settings, creator: int, new_bots: Counter,
                           time_control: dict | None) -> None:
    """:func:`creator_load` then :func:`check_new_game`: refuse (409) a game that ``creator``
    is about to store in ``session``."""
    active, bot_seats = await creator_load(session, creator)
    check_new_game(settings, active, bot_seats, new_bots, time_control)


def check_new_game(settings: Settings, active: int, bot_seats: Counter, new_bots: Counter,
                   time_control: dict | None) -> None:
    """Refuse (409) a new game beyond the creator's quotas. ``active``: the creator's unfinished
    games, ``bot_seats``: bot kind -> seats over them (:func:`creator_load`), ``new_bots``:
    bot kind -> seats of the new game."""
    limit = settings.max_active_games_per_user
    if active >= limit:
        raise ApiError(409, "game_quota",
                       f"You have {limit} unfinished games already; finish one first.",
                       limit=limit)
    seats = Counter(bot_seats)
    seats.update(new_bots)
    if (time_control or {}).get("bot") == SEARCH_BOT:
        seats[SEARCH_BOT] += 1  # it may play the creator's seat after timeouts
    if sum(seats.values()) > settings.max_bot_seats_per_user:
        raise ApiError(409, "bot_quota",
                       f"At most {settings.max_bot_seats_per_user} bot seats over your "
                       "unfinished games.", limit=settings.max_bot_seats_per_user)
    if seats[SEARCH_BOT] > settings.max_mcts_seats_per_user:
        raise ApiError(409, "bot_quota",
                       f"At most {settings.max_mcts_seats_per_user} seats of the search bot "
                       "over your unfinished games.", limit=settings.max_mcts_seats_per_user)


class SocketQuota:
    """Open game sockets per user and per client address in this process."""

    def __init__(self, settings: Settings) -> None:
        self.per_user = settings.ws_per_user
        self.per_address = settings.ws_per_address
        self.sync_rate = settings.rate_sync_per_second
        self.sync_burst = settings.rate_sync_burst
        self.users: Counter = Counter()
        self.addresses: Counter = Counter()

    def open(self, user_id: int | None, address: str | None) -> ApiError | None:
        """Count a new socket, or say why it is refused (nothing counted then)."""
        if user_id is not None and self.users[user_id] >= self.per_user:
            return ApiError(429, "too_many_sockets",
                            f"At most {self.per_user} game connections per user.")
        if address and self.addresses[address] >= self.per_address:
            return ApiError(429, "too_many_sockets",
                            f"At most {self.per_address} game connections per address.")
        if user_id is not None:
            self.users[user_id] += 1
        if address:
            self.addresses[address] += 1
        return None

    def close(self, user_id: int | None, address: str | None) -> None:
        for counter, key in ((self.users, user_id), (self.addresses, address)):
            if key is not None and key != "":
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]

    def sync_limiter(self) -> Limiter:
        """A bucket for one socket's ``sync`` messages."""
        return Limiter("sync_per_socket", self.sync_rate, self.sync_burst, max_keys=1)


class SocketSlot:
    """One socket's place in the :class:`SocketQuota` (taken once, released once)."""

    def __init__(self, quota: SocketQuota) -> None:
        self.quota = quota
        self.key: tuple | None = None
        self.syncs = quota.sync_limiter()

    def take(self, user_id: int | None, address: str | None) -> ApiError | None:
        refused = self.quota.open(user_id, address)
        if refused is None:
            self.key = (user_id, address)
        return refused

    def sync_allowed(self) -> float:
        """0 if a ``sync`` may be answered now, else the seconds to wait."""
        return self.syncs.take("sync")

    def release(self) -> None:
        if self.key is not None:
            self.quota.close(*self.key)
            self.key = None
