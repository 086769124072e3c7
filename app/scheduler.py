"""The deadline scheduler: plays the decisions whose time ran out.

Deadlines live in the database (``games.turn_deadline``, the earliest deadline of a game's
waiting seats, indexed), so they survive restarts: whichever process runs the scheduler finds
them with one query. Exactly one process runs it at a time, whatever the number of processes:
with PostgreSQL the scheduler holds a session advisory lock on a connection of its own (when
that process dies, PostgreSQL releases the lock and another process takes over within one
interval); SQLite serves one process only. A timeout move is an ordinary move stored at the
version it was computed for, so even two schedulers could not play one decision twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from . import times
from .tasks import end_task

log = logging.getLogger("menagerie.scheduler")

#: PostgreSQL advisory lock key of the scheduler ("sched")
LOCK_KEY = 0x7363686564


class Scheduler:
    def __init__(self, games, db, interval: float) -> None:
        self.games = games
        self.db = db
        self.interval = interval
        self._task: asyncio.Task | None = None
        self._conn = None  # PostgreSQL: the connection holding the advisory lock
        self.leader = False
        self._stopping = False
        self.played = 0
        #: more work of each pass, ``async (now) -> Any`` (the quick match's sweep)
        self.chores: list[Callable[[Any], Awaitable[Any]]] = []

    def add_chore(self, chore: Callable[[Any], Awaitable[Any]]) -> None:
        self.chores.append(chore)

    async def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="menagerie-scheduler")

    async def stop(self) -> None:
        """Stop the passes and give up the lock. Python 3.11's ``asyncio.wait_for`` can swallow a
        cancellation that arrives as the awaited query completes (the pass then goes on, and a
        plain ``await`` of the task waited forever: seen in CI): the loop also checks
        ``_stopping``, and the cancellation is sent again until the task has ended."""
        task, self._task = self._task, None
        self._stopping = True
        await end_task(task)
        await self._release()

    async def _release(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=2)
            self._conn = None
        self.leader = False

    async def _lead(self) -> bool:
        """Whether this process runs the scheduler now (taking the lock if it is free).

        PostgreSQL: one connection of its own, kept open; a process that does not lead asks
        for the lock again on it at each pass (a session lock is released when its holder's
        connection ends, so a dead leader is replaced within one interval)."""
        if not self.db.is_postgres:
            self.leader = True
            return True
        import asyncpg

        try:
            if self._conn is None or self._conn.is_closed():
                self.leader = False
                self._conn = await asyncpg.connect(
                    self.db.asyncpg_dsn(), timeout=10,
                    server_settings={"application_name": "menagerie-scheduler"})
            if self.leader:
                await asyncio.wait_for(self._conn.fetchval("SELECT 1"), 5)
            else:
                self.leader = bool(await asyncio.wait_for(self._conn.fetchval(
                    "SELECT pg_try_advisory_lock($1)", LOCK_KEY), 5))
                if self.leader:
                    log.info("scheduler: this process plays expired deadlines")
        except Exception as exc:
            log.warning("scheduler: cannot reach the database: %s", exc)
            await self._release()
            return False
        return self.leader

    async def tick(self) -> int:
        """One pass: every expired game. Returns the decisions played."""
        played = 0
        now = times.utcnow()
        for game_id in await self.games.expired_games(now):
            played += await self.games.play_timeouts(game_id)
        self.played += played
        for chore in self.chores:
            try:
                await chore(now)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler chore %r failed", chore)
        return played

    async def _run(self) -> None:
        while not self._stopping:
            try:
                if await self._lead():
                    await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler pass failed")
            await asyncio.sleep(self.interval)
