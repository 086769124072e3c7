"""The analysis work queue: a bounded pool of worker processes fed from the ``analyses`` table.

Why not :class:`app.jobqueue.JobWorker`: its jobs are short deliveries (``pending`` until
``delivered`` or ``failed``, retried with backoff, a fixed lease of two minutes, a batch run to
its end before the next claim). An analysis runs for minutes, must show ``running`` with its
progress, renews its lease while it runs, can be cancelled in the middle and resumes from its
stored entries. The claiming is the same idea:

- a worker (one per server process) claims due rows (``pending``, or ``running`` with an
  expired lease: its process died) with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL (SQLite has
  one process), up to its free slots (``MENAGERIE_ANALYSIS_WORKERS``), and marks them
  ``running``, owned by this process until ``lease_until``;
- each claimed job runs in a process of its own (``spawn``), which sends back one entry per
  analysed decision; every ``analysis_flush_seconds`` the new entries are written to the row
  and the lease renewed, only while the row is still ``running`` and ours (a cancel or another
  worker's claim makes the write miss: the process is told to stop at its next entry);
- a job whose process dies is due again (``pending``); after ``MAX_ATTEMPTS`` claims it is
  ``failed``; a stopping server stops its jobs at their next entry, stores what they computed
  and leaves them ``pending`` for the next start (or any other process).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import queue as queue_mod
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from ..models import Analysis
from ..tasks import end_task
from ..times import utcnow
from . import compute
from .store import AnalysisStore

log = logging.getLogger("menagerie.analysis")

#: claims of one job before it is marked failed (a job that kills its process every time)
MAX_ATTEMPTS = 3


@dataclass
class Running:
    analysis_id: int
    game_id: int
    stop: Any                       # a multiprocessing Event
    entries: list = field(default_factory=list)
    total: int | None = None
    task: asyncio.Task | None = None
    process: Any = None


#: candidates looked at beyond the free slots (rows another process holds are skipped)
FAIR_SLACK = 20


class AnalysisWorker:
    """Claims and runs analysis jobs (see the module's doc). ``payload(session, row)`` builds
    the job's data from its game (``compute.run_job``'s ``job``)."""

    def __init__(self, db, settings, owner: str,
                 payload: Callable[[Any, Analysis], Awaitable[dict]]) -> None:
        self.db = db
        self.store = AnalysisStore(db)  # the claims, leases and progress (its SQL)
        self.settings = settings
        self.owner = owner
        self._payload = payload
        self.slots = settings.analysis_workers
        self.lease = timedelta(seconds=settings.analysis_lease_seconds)
        self.running: dict[int, Running] = {}
        self._task: asyncio.Task | None = None
        self._wake = asyncio.Event()
        self._stopping = False
        self._ctx = multiprocessing.get_context("spawn")
        #: ``time.monotonic()`` of the last live move this process saw (:meth:`live`): the
        #: jobs make way for live play (``compute.make_way``)
        self.live_at = self._ctx.Value("d", 0.0, lock=False)
        #: called with (analysis id, final status) when a job ends here (tests, metrics)
        self.on_end: Callable[[int, str], None] | None = None

    # ------------------------------------------------------------------ the loop
    def start(self) -> None:
        self._stopping = False
        if self.slots <= 0:  # this process only queues: another one runs the jobs
            return
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name="menagerie-analysis")

    def wake(self) -> None:
        self._wake.set()

    def live(self) -> None:
        """A move of a game being played was made: the jobs make way for a while."""
        self.live_at.value = time.monotonic()

    def cancel(self, analysis_id: int) -> None:
        """The row was cancelled (in this process): its job stops at the next entry."""
        job = self.running.get(analysis_id)
        if job is not None:
            job.stop.set()

    async def stop(self, drain: float = 10.0) -> None:
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            await end_task(self._task)
            self._task = None
        jobs = list(self.running.values())
        for job in jobs:
            job.stop.set()
        tasks = [j.task for j in jobs if j.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=drain)
        for job in jobs:  # still computing its current entry: ended as a crash would
            if job.process is not None and job.process.is_alive():
                job.process.terminate()
            await end_task(job.task, every=10.0)  # its clean-up joins the process (5 s)
        self.running.clear()

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                free = self.slots - len(self.running)
                if free > 0:
                    for row_id, game_id in await self.claim(free):
                        self._launch(row_id, game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("analysis worker: %s", exc)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.analysis_poll_seconds)

    async def claim(self, limit: int) -> list[tuple[int, int]]:
        """Take up to ``limit`` due jobs: (analysis id, game id) of each, in turns across the
        users who asked (``store.fair_order``)."""
        return await self.store.claim(
            self.owner, self.running, limit, FAIR_SLACK, self.lease, MAX_ATTEMPTS, utcnow(),
            "The analysis stopped unexpectedly too many times.")

    def _launch(self, row_id: int, game_id: int) -> None:
        job = Running(row_id, game_id, self._ctx.Event())
        self.running[row_id] = job
        job.task = asyncio.get_running_loop().create_task(self._execute(job),
                                                          name=f"menagerie-analysis-{row_id}")

    # ------------------------------------------------------------------ one job
    async def _execute(self, job: Running) -> None:
        status = "pending"
        try:
            status = await self._work(job)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("analysis %s of game %s", job.analysis_id, job.game_id)
            status = await self._finish(job, "pending", None, f"{type(exc).__name__}: {exc}")
        finally:
            if job.process is not None:
                if job.process.is_alive():
                    job.process.terminate()
                with contextlib.suppress(Exception):  # reaped, not left a zombie
                    await asyncio.to_thread(job.process.join, 5)
            self.running.pop(job.analysis_id, None)
            if not self._stopping:
                self._wake.set()  # a slot is free
        if self.on_end is not None:
            self.on_end(job.analysis_id, status)

    async def _work(self, job: Running) -> str:
        async with self.store.reading() as tx:
            row = await tx.job(job.analysis_id)
            if row is None or row.owner != self.owner or row.status != "running":
                return "lost"
            data = await self._payload(tx.session, row)
            job.entries = list(row.entries or [])
        data["done"] = job.entries
        out = self._ctx.Queue()
        job.process = self._ctx.Process(
            target=compute.run_job, daemon=True, name=f"menagerie-analysis-{job.game_id}",
            args=(data, out, job.stop, self.settings_preload(), self.settings.analysis_nice,
                  self.live_at, self.settings.analysis_live_share,
                  self.settings.analysis_live_window))
        job.process.start()
        loop = asyncio.get_running_loop()
        flush_every = self.settings.analysis_flush_seconds
        last_flush = loop.time()
        dirty = False
        while True:
            try:
                kind, value = await asyncio.to_thread(out.get, True, 0.5)
            except queue_mod.Empty:
                if not job.process.is_alive():
                    # gone without a last word (killed, out of memory): due again
                    return await self._finish(job, "pending", None,
                                              "The analysis process ended unexpectedly.")
                kind, value = None, None
            if kind == "total":
                job.total, dirty = int(value), True
            elif kind == "entry":
                job.entries.append(value)
                dirty = True
            elif kind == "report":
                return await self._finish(job, "done", value, None)
            elif kind == "stopped":
                if self._stopping:  # a server stopping: not the job's fault, no attempt spent
                    return await self._finish(job, "pending", value, None, refund=True)
                return await self._finish(job, "cancelled", value, None)
            elif kind == "error":
                log.error("analysis %s of game %s failed: %s", job.analysis_id, job.game_id,
                          value)
                return await self._finish(job, "failed", None, str(value))
            if dirty and loop.time() - last_flush >= flush_every:
                last_flush, dirty = loop.time(), False
                if not await self._flush(job):
                    job.stop.set()  # cancelled or taken: stop at the next entry

    def settings_preload(self) -> list[str]:
        raw = self.settings.analysis_preload or ""
        return [x.strip() for x in raw.split(",") if x.strip()]

    async def _flush(self, job: Running) -> bool:
        """Store the entries so far and renew the lease; False when the row is no longer ours
        and running (cancelled, deleted, taken over)."""
        now = utcnow()
        return await self.store.progress(job.analysis_id, self.owner, list(job.entries),
                                         job.total, now + self.lease, now)

    async def _finish(self, job: Running, status: str, report: dict | None,
                      error: str | None, refund: bool = False) -> str:
        """The end of a run here: ``done``, ``failed``, ``pending`` (due again) or
        ``cancelled`` (a cancel already marked the row: only the entries are kept)."""
        now = utcnow()
        done = await self.store.finish(
            job.analysis_id, self.owner, status, list(job.entries), job.total, report,
            error[:500] if error is not None else None, refund, now)
        if not done and status != "cancelled":
            # cancelled meanwhile: keep what was computed for a later request
            await self.store.keep_cancelled(job.analysis_id, self.owner, list(job.entries),
                                            job.total, now)
            return "cancelled"
        return status
