"""Storage of the analyses (app/analysis/service.py says what an analysis is): all the SQL of
the ``analyses`` table: what the requests, the cancels and the ``finished`` listener write
(:class:`AnalysisTx`), and the work queue's claims, leases and progress (``worker.py`` says
how the queue works: :meth:`AnalysisStore.claim` and the rest). The game a row analyses is
the game store's to read (``app/games/store_lookups.py``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from ..auth_store import lock_user
from ..db import Database, Duplicate
from ..models import Analysis

ACTIVE = ("pending", "running")


async def fair_order(s: Any, due: Iterable[Any], limit: int) -> list[int]:
    """The ids of up to ``limit`` due jobs (``due``: the conditions) in turns across their
    requesters: every user's oldest job first (oldest user first), then every user's second
    one, and so on; the jobs the server queued itself (rated games, ``requested_by`` NULL)
    take turns as one more requester. So nobody's long queue keeps anybody else's job waiting
    (issue #31)."""
    m = Analysis
    turn = func.row_number().over(partition_by=func.coalesce(m.requested_by, 0),
                                  order_by=m.id).label("turn")
    ranked = select(m.id.label("id"), turn).where(*due).subquery()
    return list((await s.execute(select(ranked.c.id).order_by(ranked.c.turn, ranked.c.id)
                                 .limit(limit))).scalars().all())


class AnalysisTx:
    """One session of the analyses (a write: the caller commits)."""

    def __init__(self, session: Any) -> None:
        self.s = session

    @property
    def session(self) -> Any:
        """The transaction, for the game store's reads made in it (the job's game)."""
        return self.s

    async def job(self, analysis_id: int) -> Analysis | None:
        """The analysis of that id (None: gone)."""
        found: Analysis | None = await self.s.get(Analysis, analysis_id)
        return found

    async def row(self, game_id: int, lock: bool = False) -> Analysis | None:
        """The game's analysis (``lock``: ``FOR UPDATE``; None: none)."""
        q = select(Analysis).where(Analysis.game_id == game_id)
        if lock:
            q = q.with_for_update()
        found: Analysis | None = (await self.s.execute(q)).scalar_one_or_none()
        return found

    async def other_active(self, user_id: int, game_id: int) -> int | None:
        """The game of another analysis the user asked for that is queued or running (None:
        none), counted with the user's row locked (two requests at once queue)."""
        await lock_user(self.s, user_id)
        other: int | None = await self.s.scalar(select(Analysis.game_id).where(
            Analysis.requested_by == user_id, Analysis.status.in_(ACTIVE),
            Analysis.game_id != game_id).limit(1))
        return other

    def add(self, **fields: Any) -> Analysis:
        row = Analysis(**fields)
        self.s.add(row)
        return row

    @staticmethod
    def again(row: Analysis, user_id: int, now: datetime) -> None:
        """A failed or cancelled analysis queued again (it resumes from its stored entries)."""
        row.requested_by = user_id
        row.status, row.attempts, row.error, row.report = "pending", 0, None, None
        row.finished_at, row.owner, row.lease_until = None, None, None
        row.updated_at = now

    @staticmethod
    def cancelled(row: Analysis, now: datetime) -> None:
        row.status, row.updated_at = "cancelled", now

    async def queue(self, game_ids: Iterable[int], settings: dict[str, Any],
                    now: datetime) -> None:
        """A pending analysis of each game that has none (in the caller's transaction)."""
        insert = (postgresql.insert if self.s.bind.dialect.name == "postgresql"
                  else sqlite.insert)
        for game_id in game_ids:
            await self.s.execute(insert(Analysis).values(
                game_id=game_id, status="pending", settings=settings, entries=[], done=0,
                attempts=0, created_at=now, updated_at=now)
                .on_conflict_do_nothing(index_elements=["game_id"]))

    async def commit(self) -> None:
        """Commit; :class:`~app.db.Duplicate` (rolled back) if a unique constraint refuses it
        (the same game requested at once elsewhere)."""
        try:
            await self.s.commit()
        except IntegrityError as exc:
            await self.s.rollback()
            raise Duplicate(str(exc.orig)) from exc


class AnalysisStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    def tx(session: Any) -> AnalysisTx:
        """The analyses in a transaction the caller holds (the outbox's)."""
        return AnalysisTx(session)

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[AnalysisTx]:
        async with self.db.read() as s:
            yield AnalysisTx(s)

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[AnalysisTx]:
        async with self.db.write() as s:
            yield AnalysisTx(s)

    # ------------------------------------------------------------------ the work queue
    async def claim(self, owner: str, running: Iterable[int], limit: int, slack: int,
                    lease: timedelta, max_attempts: int, now: datetime,
                    gave_up: str) -> list[tuple[int, int]]:
        """Take up to ``limit`` due jobs for ``owner`` (``pending``, or ``running`` with an
        expired lease, not among ``running``, this process's): ``(analysis id, game id)`` of
        each, in turns across the users who asked (:func:`fair_order`, looking at ``slack``
        more, as rows another process holds are skipped: ``FOR UPDATE SKIP LOCKED``). A job
        claimed ``max_attempts`` times already is ``failed`` with the error ``gave_up``."""
        m = Analysis
        due = (or_(m.status == "pending", (m.status == "running") & (m.lease_until <= now)),
               m.id.notin_(list(running) or [0]))
        async with self.db.write() as s:
            order = await fair_order(s, due, limit + slack)
            if not order:
                await s.rollback()
                return []
            q = (select(m.id, m.game_id, m.attempts).where(*due, m.id.in_(order))
                 .with_for_update(skip_locked=True))
            place = {row_id: i for i, row_id in enumerate(order)}
            rows = sorted((await s.execute(q)).all(), key=lambda r: place[r.id])[:limit]
            taken = []
            for row_id, game_id, attempts in rows:
                if attempts >= max_attempts:
                    await s.execute(update(m).where(m.id == row_id).values(
                        status="failed", lease_until=None, owner=None, updated_at=now,
                        error=gave_up))
                    continue
                await s.execute(update(m).where(m.id == row_id).values(
                    status="running", owner=owner, lease_until=now + lease,
                    attempts=attempts + 1, updated_at=now, error=None))
                taken.append((row_id, game_id))
            await s.commit()
        return taken

    async def progress(self, analysis_id: int, owner: str, entries: list[Any],
                       total: int | None, lease_until: datetime, now: datetime) -> bool:
        """Store a running job's entries so far and renew its lease; False when the row is no
        longer ``owner``'s and running (cancelled, deleted, taken over)."""
        async with self.db.write() as s:
            r: Any = await s.execute(
                update(Analysis)
                .where(Analysis.id == analysis_id, Analysis.owner == owner,
                       Analysis.status == "running")
                .values(entries=entries, done=len(entries), total=total,
                        lease_until=lease_until, updated_at=now))
            await s.commit()
        return bool(r.rowcount == 1)

    async def finish(self, analysis_id: int, owner: str, status: str, entries: list[Any],
                     total: int | None, report: dict[str, Any] | None, error: str | None,
                     refund: bool, now: datetime) -> bool:
        """The end of ``owner``'s run: ``done``, ``failed``, ``pending`` (due again; ``refund``:
        the claim not counted) or ``cancelled`` (a cancel already marked the row: only the
        entries are kept). False when the row was not ``owner``'s in the state expected."""
        values: dict[str, Any] = dict(entries=entries, done=len(entries), total=total,
                                      updated_at=now, lease_until=None, owner=None)
        if report is not None:
            values["report"] = report
        if refund:
            values["attempts"] = Analysis.attempts - 1
        if error is not None:
            values["error"] = error
        where = [Analysis.id == analysis_id, Analysis.owner == owner]
        if status == "cancelled":
            where.append(Analysis.status == "cancelled")
        else:
            where.append(Analysis.status == "running")
            values["status"] = status
            if status in ("done", "failed"):
                values["finished_at"] = now
        async with self.db.write() as s:
            r: Any = await s.execute(update(Analysis).where(*where).values(**values))
            await s.commit()
        return bool(r.rowcount == 1)

    async def keep_cancelled(self, analysis_id: int, owner: str, entries: list[Any],
                             total: int | None, now: datetime) -> None:
        """A run cancelled meanwhile: keep what it computed for a later request."""
        async with self.db.write() as s:
            await s.execute(update(Analysis).where(
                Analysis.id == analysis_id, Analysis.owner == owner,
                Analysis.status == "cancelled").values(
                    entries=entries, done=len(entries), total=total,
                    owner=None, lease_until=None, updated_at=now))
            await s.commit()
