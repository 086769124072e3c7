"""Spectators' sockets served from memory, with their own small database budget (issue #37).

A popular game draws spectators by the thousand, and each socket's hello (and each ``sync``)
needs the game's version and status. Read per socket, a crowd that connects at once (or
reconnects after a blip) takes every pooled database connection, and the players' moves and
``/legal`` wait behind it. So:

- :meth:`SpectatorDesk.info` keeps, per watched game in this process, what a spectator's hello
  needs (version, status, until when the game is sealed): **one database read per game and
  version**, not per socket. Every announcement of a newer version (this process's moves, the
  bus's for the others', a resync) and every seat change marks it stale
  (:meth:`app.realtime.Hub.notify`); a stale entry is read again by the first socket that
  needs it while the others wait for that one read. An entry older than ``MAX_AGE`` seconds
  is read again too (a safety net: the status of a game can change without a version, e.g. an
  open game that is cancelled).
- Those reads run under their own semaphore (``MENAGERIE_WS_SPECTATOR_DB``, 2 by default):
  however many spectators arrive, at most that many of the pool's connections serve them.

A signed-in viewer is looked up like before (:meth:`app.games.GameService.socket_info`): its
seat decides what it may see, and players never wait for the spectators' budget.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from . import redaction

if TYPE_CHECKING:  # pragma: no cover
    from .realtime import Hub

MAX_AGE = 5.0


class SpectatorDesk:
    def __init__(self, hub: Hub, read: Callable[[int], Awaitable[dict]], budget: int) -> None:
        self.hub = hub
        self.read = read
        self.budget = asyncio.Semaphore(budget)
        #: database reads made for spectators (tests and /metrics-style counting)
        self.reads = 0

    async def info(self, game_id: int) -> dict:
        """``{"version", "status"}`` of a watched game for a spectator (version -1 while it is
        open). Raises 404 ``not_found`` for a game that does not exist and 403 ``game_sealed``
        for a sealed one. The caller's socket is subscribed to the game already (so no
        announcement that follows the read is missed)."""
        ch = self.hub.channel(game_id)
        entry = ch.watch
        if entry is None or ch.watch_stale or time.monotonic() - ch.watch_at > MAX_AGE:
            async with ch.watch_lock:
                entry = ch.watch
                if entry is None or ch.watch_stale or time.monotonic() - ch.watch_at > MAX_AGE:
                    ch.watch_stale = False  # an announcement during the read sets it again
                    async with self.budget:
                        self.reads += 1
                        entry = await self.read(game_id)
                    ch.watch, ch.watch_at = entry, time.monotonic()
        redaction.check_sealed(entry["sealed_until"], False)
        return entry

    async def version(self, game_id: int) -> int | None:
        """The game's current version for a spectator's ``sync`` (None while it is open)."""
        entry = await self.info(game_id)
        if entry["status"] == "open":
            return None
        return max(entry["version"], self.hub.channel(game_id).latest)
