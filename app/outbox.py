"""The outbox: what committed moves set off, turned into queued work exactly once.

A move (and a game's start) writes an ``outbox`` row in its own transaction — on PostgreSQL in
the move's single statement — saying whose turn it became or that the game finished
(:class:`~app.models_delivery.OutboxEvent`); a chat line that mentions a player and a rematch offer
write one too (``notice``). This worker takes the rows in batches and, **in one
transaction**, hands them to the listeners of :mod:`app.signals` (webhook deliveries, email
and push jobs, ratings, each written with that transaction) and deletes them. So:

- a process that dies after the move's commit and before its notices leaves the row behind:
  every process's worker looks for due rows every ``outbox_poll`` seconds and runs it then
  (nothing is lost);
- a worker that dies while running a batch rolls back: its listeners' rows vanish with it and
  the outbox rows are still there (nothing is queued twice);
- two workers never take the same row: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite has
  one process, and one batch runs at a time in a process.

The process that made the move wakes its worker at once; a short pause after a wake-up lets a
burst of moves share one batch (one query per listener for the whole batch, not per move).
A batch whose listeners fail is run again row by row; a row that fails on its own is retried
with backoff and after ``MAX_ATTEMPTS`` kept as ``failed`` (logged), never blocking the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from sqlalchemy import delete, select, update

from .models_delivery import OutboxEvent
from .signals import Notify, Signals, YourTurn
from .tasks import end_task
from .times import utcnow

log = logging.getLogger("menagerie.outbox")

BATCH = 200
MAX_ATTEMPTS = 8
#: after a wake-up, wait this long so the moves of the next moments join the batch (a notice
#: 0.1 s later is still at once; at 100 moves a second a batch holds about ten)
GATHER = 0.1


def backoff(attempts: int) -> float:
    """Seconds before a failed row is tried again: 2, 4, 8 ... at most 10 minutes."""
    return float(min(600, 2 ** max(attempts, 1)))


class Outbox:
    def __init__(self, db, signals: Signals, *, poll: float = 5.0, batch: int = BATCH,
                 gather: float = GATHER) -> None:
        self.db = db
        self.signals = signals
        self.poll, self.batch, self.gather = poll, batch, gather
        self._lock = asyncio.Lock()  # one batch at a time in this process
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._stopping = False
        self._abandoned = False

    # ---------------------------------------------------------------- the loop
    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.get_running_loop().create_task(self._run(), name="menagerie-outbox")

    async def stop(self, timeout: float = 5.0) -> None:
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._task), timeout)
            await end_task(self._task)
            self._task = None

    def abandon(self) -> None:
        """Drop the worker as a crash would: it runs nothing more, not even at shutdown
        (tests)."""
        self._abandoned = True
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()  # before looking: a wake-up meanwhile is not lost
            try:
                done = await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: try again at the next poll
                log.warning("outbox: %s", exc)
                done = 0
            if done >= self.batch:  # a full batch: more rows are waiting
                continue
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)
            if self.gather and not self._stopping:
                await asyncio.sleep(self.gather)

    async def drain(self, timeout: float = 10.0) -> None:
        """Run every due row now (tests, shutdown), waiting for a batch under way."""
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(timeout):
                while await self.run_once():
                    pass

    # ---------------------------------------------------------------- one batch
    async def run_once(self) -> int:
        """Run one batch of due rows; how many rows it took (0: none was due)."""
        if self._abandoned:
            return 0
        async with self._lock:
            ids, wakes = await self._batch(None)
            if ids is None:  # the batch failed: each of its rows alone
                ids = await self._claimable()
                for row_id in ids:
                    await self._single(row_id)
                return len(ids)
        for wake in wakes:
            wake()
        return len(ids)

    async def _batch(self, only: int | None) -> tuple[list[int] | None, list]:
        now = utcnow()
        async with self.db.write() as s:
            q = select(OutboxEvent).where(OutboxEvent.status == "pending")
            q = (q.where(OutboxEvent.id == only) if only is not None else
                 q.where(OutboxEvent.next_attempt_at <= now)
                 .order_by(OutboxEvent.id).limit(self.batch))
            # PostgreSQL: rows another process is running are skipped (SQLite renders no lock:
            # one process, one batch at a time)
            q = q.with_for_update(skip_locked=True)
            rows = list((await s.execute(q)).scalars().all())
            if not rows:
                await s.rollback()
                return [], []
            ids = [row.id for row in rows]
            turns = [YourTurn.of(r.payload) for r in rows if r.kind == "your_turn"]
            finished = [r.game_id for r in rows if r.kind == "finished"]
            notices = [Notify.of(r.payload) for r in rows if r.kind == "notice"]
            try:
                wakes = await self.signals.stage(s, turns, finished, notices)
                await s.execute(delete(OutboxEvent).where(OutboxEvent.id.in_(ids)))
                await s.commit()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                await s.rollback()
                if only is None:
                    log.warning("outbox batch of %s failed (%s): one row at a time", len(ids),
                                exc)
                    return None, []
                raise
        return ids, wakes

    async def _claimable(self) -> list[int]:
        async with self.db.read() as s:
            return list((await s.execute(
                select(OutboxEvent.id).where(OutboxEvent.status == "pending",
                                             OutboxEvent.next_attempt_at <= utcnow())
                .order_by(OutboxEvent.id).limit(self.batch))).scalars().all())

    async def _single(self, row_id: int) -> None:
        try:
            _, wakes = await self._batch(row_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("outbox row %s failed", row_id)
            await self._failed(row_id, f"{type(exc).__name__}: {exc}")
            return
        for wake in wakes:
            wake()

    async def _failed(self, row_id: int, error: str) -> None:
        async with self.db.write() as s:
            row = await s.get(OutboxEvent, row_id)
            if row is None:
                await s.rollback()
                return
            attempts = row.attempts + 1
            values = dict(attempts=attempts, last_error=error[:500])
            if attempts >= MAX_ATTEMPTS:
                values["status"] = "failed"
                log.error("outbox row %s (%s of game %s) given up after %s attempts", row_id,
                          row.kind, row.game_id, attempts)
            else:
                values["next_attempt_at"] = utcnow() + timedelta(seconds=backoff(attempts))
            await s.execute(update(OutboxEvent).where(OutboxEvent.id == row_id)
                            .values(**values))
            await s.commit()
