"""Storage of the analyses (app/analysis/service.py says what an analysis is): the SQL of the
``analyses`` table that the requests, the cancels and the ``finished`` listener write (the
worker's claims, leases and progress are in ``worker.py``, the job queue's mechanics). The
game a row analyses is the game store's to read (``app/games/store_lookups.py``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from ..db import Database, Duplicate
from ..models import Analysis, User

ACTIVE = ("pending", "running")


class AnalysisTx:
    """One session of the analyses (a write: the caller commits)."""

    def __init__(self, session: Any) -> None:
        self.s = session

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
        await self.s.execute(select(User.id).where(User.id == user_id).with_for_update())
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
