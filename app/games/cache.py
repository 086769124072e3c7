"""What one process keeps of its games: the current state by game (LRU) and one lock per game.

The state at a version never changes, so a cached :class:`Cached` is either current or simply
older than the database (a read refreshes it). Seats are cached once a game has started; a
change of the seats (a seat handed to the bot or reclaimed) bumps ``seats_rev`` and every
process rereads them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache

from .. import metrics
from ..frame import Frame


@dataclass
class Accepted:
    """What a committed action produced."""

    game_id: int
    version: int
    seat: int
    state: dict
    events: list
    frame: Frame


@dataclass
class Cached:
    """A game as last read or written by this process, at one version."""

    id: int
    name: str
    game: Any  # engine.core.Game
    seat_count: int
    seed: str
    status: str
    version: int
    #: the engine state at ``version`` (never mutated: the engine copies before applying)
    state: dict | None
    waiting: list
    #: user id -> seat and seat -> bot kind; None while the game is open (seats still change)
    users: dict[int, int] | None = None
    bots: dict[int, str] = field(default_factory=dict)
    #: the frame of ``version`` once built (its encoded views are shared)
    frame: Frame | None = None
    #: the time control (app/clock.py) and the clock at ``version``; None: untimed
    time_control: dict | None = None
    clock: dict | None = None
    #: seats whose player left: the time control's bot plays them (they are in ``bots`` too)
    away: frozenset = frozenset()
    #: the revision of the seats (``games.seats_rev``) that ``users``/``bots``/``away`` show
    seats_rev: int = 0
    #: the seat whose finished turn waits for its confirm (``waiting`` is that seat alone
    #: meanwhile, whatever the engine's state says is next); None: no turn waits
    held: int | None = None

    def timed(self) -> set[int]:
        """The seats played by people now (their decisions have deadlines)."""
        humans = set(self.users.values()) if self.users is not None else set()
        return humans - set(self.away) - set(self.bots)

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat of that user (None: no seat, or the seats are not known yet)."""
        if user_id is None or self.users is None:
            return None
        return self.users.get(user_id)


class GameCache:
    """The most recently used games of this process (LRU), never going back in time."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: LRUCache[int, Cached] = LRUCache(maxsize=max(1, capacity))

    def get(self, game_id: int) -> Cached | None:
        return self._items.get(game_id)

    def put(self, item: Cached) -> None:
        old = self._items.get(item.id)
        if old is not None and old.version > item.version and old.state is not None:
            return  # a slower reader finishing after a writer
        self._items[item.id] = item

    def drop(self, game_id: int) -> None:
        self._items.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._items)


class GameLocks:
    """One asyncio lock per game with waiters, dropped when nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[int, list] = {}

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int):
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = [asyncio.Lock(), 0]
        entry[1] += 1
        started = time.perf_counter()
        try:
            async with entry[0]:
                metrics.LOCK_WAIT.observe(time.perf_counter() - started)
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                self._locks.pop(game_id, None)
