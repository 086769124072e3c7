"""One durable job queue for background work (webhook deliveries, notification emails).

A queue is a table whose rows are the jobs. Each row has ``status`` (``pending``, then
``delivered`` or ``failed``: the dead letter), ``attempts``, ``next_attempt_at``, ``last_error``
and ``delivered_at``; the owner of the table adds whatever the job needs. The rows are inserted
by their owner (in its own transaction); :class:`JobWorker` runs them:

- a worker per process claims due rows (``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL;
  SQLite has one process) and moves their ``next_attempt_at`` past a lease, so no other worker
  takes them while they run. A process that dies mid-job leaves the row to be retried when
  the lease ends (so a job may run twice only if the process died between the send and the
  record of it);
- ``send(job)`` returns None on success (the row becomes ``delivered``) or an error text: the
  row is retried after ``backoff(attempts)`` seconds until ``max_attempts()`` attempts, then it
  is ``failed``;
- a stop waits for the jobs under way (up to ``drain`` seconds) and makes the interrupted ones
  due again at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update

from .tasks import end_task
from .times import aware, utcnow

log = logging.getLogger("menagerie.jobs")

#: a claimed job is not claimed again for this long (it is being run)
LEASE = timedelta(seconds=120)
BATCH = 20


def stepped_backoff(base: float, steps: Sequence[int], attempts: int) -> float:
    """Seconds to wait after the ``attempts``-th failed attempt: ``base`` times the step of that
    attempt (the last step repeats)."""
    return base * steps[min(max(attempts, 1), len(steps)) - 1]


class JobWorker:
    """Claims and runs the due rows of one job table (see the module's doc).

    ``load(session, ids)`` returns the claimed jobs as objects with ``id`` and ``attempts``
    (whatever else ``send`` needs); ``send(job)`` runs one and returns None or an error text.
    """

    def __init__(self, db, model, *, name: str,
                 load: Callable[[Any, list[int]], Awaitable[Sequence[Any]]],
                 send: Callable[[Any], Awaitable[str | None]],
                 max_attempts: Callable[[], int], backoff: Callable[[int], float],
                 poll: float, drain: float, lease: timedelta = LEASE,
                 batch: int = BATCH) -> None:
        self.db = db
        self.model = model
        self.name = name
        self._load, self._send = load, send
        self.max_attempts, self.backoff = max_attempts, backoff
        self.poll, self.drain, self.lease, self.batch = poll, drain, lease, batch
        self._task: asyncio.Task | None = None
        self._wake = asyncio.Event()
        self._stopping = False
        #: ids of the jobs this process is running now
        self.inflight: set[int] = set()
        #: called with (job id, status) after each attempt (tests, metrics)
        self.on_attempt: Callable[[int, str], None] | None = None

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name=f"menagerie-{self.name}")

    async def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            # the jobs under way may finish (and be recorded) within their time
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._task), self.drain)
            await end_task(self._task)
            self._task = None
        if self.inflight:  # interrupted jobs: due again at once (the next start runs them)
            with contextlib.suppress(Exception):
                async with self.db.write() as s:
                    await s.execute(update(self.model)
                                    .where(self.model.id.in_(list(self.inflight)),
                                           self.model.status == "pending")
                                    .values(next_attempt_at=utcnow()))
                    await s.commit()
            self.inflight.clear()

    def abandon(self) -> None:
        """Drop the worker as a crash would: no drain, no record (tests of the lease)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.inflight.clear()

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()  # before looking: a wake-up meanwhile is not lost
            try:
                due = await self.next_due()
                now = utcnow()
                if due is not None and due <= now:
                    batch = await self.claim(now)
                    if batch:
                        await asyncio.gather(*(self._attempt(job) for job in batch))
                        continue
                    wait = min(self.poll, 0.2)  # being claimed by another process right now
                else:
                    wait = self.poll if due is None else min(self.poll,
                                                             (due - now).total_seconds())
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("%s worker: %s", self.name, exc)
                wait = self.poll
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(wait, 0.001))

    async def next_due(self) -> datetime | None:
        async with self.db.read() as s:
            due = await s.scalar(select(func.min(self.model.next_attempt_at))
                                 .where(self.model.status == "pending"))
        return aware(due) if due is not None else None

    async def claim(self, now: datetime) -> list[Any]:
        """Take up to ``batch`` due jobs (leased: no other worker takes them meanwhile)."""
        m = self.model
        async with self.db.write() as s:
            q = (select(m.id).where(m.status == "pending", m.next_attempt_at <= now)
                 .order_by(m.next_attempt_at, m.id).limit(self.batch))
            q = q.with_for_update(skip_locked=True)  # SQLite renders no lock: one process
            ids = list((await s.execute(q)).scalars().all())
            if not ids:
                await s.rollback()
                return []
            await s.execute(update(m).where(m.id.in_(ids))
                            .values(next_attempt_at=now + self.lease))
            jobs = list(await self._load(s, ids))
            await s.commit()
        self.inflight.update(job.id for job in jobs)
        return jobs

    async def _attempt(self, job) -> None:
        try:
            error = await self._send(job)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug in the sender: the job is retried
            log.exception("%s job %s", self.name, job.id)
            error = type(exc).__name__
        try:
            status = await self.record(job.id, job.attempts + 1, error)
        finally:
            self.inflight.discard(job.id)
        if error:
            log.info("%s job %s failed (attempt %s): %s", self.name, job.id, job.attempts + 1,
                     error)
        if self.on_attempt is not None:
            self.on_attempt(job.id, status)

    async def record(self, job_id: int, attempts: int, error: str | None) -> str:
        now = utcnow()
        if error is None:
            status = "delivered"
            values = dict(status=status, attempts=attempts, delivered_at=now, last_error=None)
        elif attempts >= self.max_attempts():
            status = "failed"
            values = dict(status=status, attempts=attempts, last_error=error[:500])
        else:
            status = "pending"
            values = dict(attempts=attempts, last_error=error[:500],
                          next_attempt_at=now + timedelta(seconds=self.backoff(attempts)))
        async with self.db.write() as s:
            await s.execute(update(self.model)
                            .where(self.model.id == job_id, self.model.status == "pending")
                            .values(**values))
            await s.commit()
        if status == "pending":
            self._wake.set()  # the worker recomputes when the next one is due
        return status
