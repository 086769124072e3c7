"""Storage of vacations (issue #33: app/vacations.py says what a vacation is): all the SQL of the
``vacations`` table written by the vacation service. (The game store reads the table for the
clocks, ``app/games/store_exits.py``; the reminders read it too, ``app/notify/service.py``.)"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, select

from . import auth_store, prefs_store
from .db import Database
from .models import Vacation


class VacationTx:
    """The vacations of one user in one session (a read, or a write the caller commits)."""

    def __init__(self, session: Any, user_id: int) -> None:
        self.s = session
        self.user_id = user_id

    async def zone_name(self) -> str | None:
        """The time zone of the user's notification preferences (None: none set)."""
        return await prefs_store.zone(self.s, self.user_id)

    async def days(self) -> list[tuple[date, date]]:
        """``(first_day, last_day)`` of every vacation of the user."""
        return [(r.first_day, r.last_day) for r in (await self.s.execute(
            select(Vacation.first_day, Vacation.last_day)
            .where(Vacation.user_id == self.user_id))).all()]

    async def ending_after(self, now: datetime) -> list[Vacation]:
        """The user's vacations not over at ``now``, the first first."""
        return list((await self.s.execute(select(Vacation).where(
            Vacation.user_id == self.user_id, Vacation.ends_at > now)
            .order_by(Vacation.starts_at))).scalars().all())

    async def overlaps(self, starts: datetime, ends: datetime) -> bool:
        """Whether a vacation of the user overlaps ``[starts, ends)``."""
        return await self.s.scalar(select(Vacation.id).where(
            Vacation.user_id == self.user_id, Vacation.ends_at > starts,
            Vacation.starts_at < ends)) is not None

    def add(self, **fields: Any) -> Vacation:
        row = Vacation(user_id=self.user_id, **fields)
        self.s.add(row)
        return row

    async def mine(self, vacation_id: int) -> Vacation | None:
        """The user's vacation of that id, locked (None: none)."""
        row: Vacation | None = (await self.s.execute(select(Vacation).where(
            Vacation.id == vacation_id, Vacation.user_id == self.user_id)
            .with_for_update())).scalar_one_or_none()
        return row

    async def delete(self, vacation_id: int) -> None:
        await self.s.execute(delete(Vacation).where(Vacation.id == vacation_id))

    async def commit(self) -> None:
        await self.s.commit()


class VacationStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    @contextlib.asynccontextmanager
    async def reading(self, user_id: int) -> AsyncIterator[VacationTx]:
        async with self.db.read() as s:
            yield VacationTx(s, user_id)

    @contextlib.asynccontextmanager
    async def writing(self, user_id: int, *, lock_user: bool = False
                      ) -> AsyncIterator[VacationTx]:
        """A write transaction on the user's vacations; ``lock_user``: the user's row locked
        first (one declaration of a user at a time)."""
        async with self.db.write() as s:
            if lock_user:
                await auth_store.lock_user(s, user_id)
            yield VacationTx(s, user_id)

    async def spans_since(self, user_id: int, since: datetime) -> list[tuple[datetime, datetime]]:
        """``(starts_at, ends_at)`` of the user's vacations ending after ``since``, in order."""
        async with self.db.read() as s:
            return [(a, b) for a, b in (await s.execute(
                select(Vacation.starts_at, Vacation.ends_at).where(
                    Vacation.user_id == user_id, Vacation.ends_at > since)
                .order_by(Vacation.starts_at))).all()]


async def on_vacation(session: Any, user_ids: Iterable[int], now: datetime) -> set[int]:
    """Which of ``user_ids`` are on vacation at ``now`` (in ``session``)."""
    ids = list(user_ids)
    if not ids:
        return set()
    return set((await session.execute(select(Vacation.user_id).where(
        Vacation.user_id.in_(ids), Vacation.starts_at <= now,
        Vacation.ends_at > now))).scalars().all())


async def not_over(session: Any, user_ids: Iterable[int],
                   now: datetime) -> dict[int, list[tuple[datetime, datetime]]]:
    """user id -> ``(starts_at, ends_at)`` of their vacations not over at ``now``, in order
    (in ``session``: the game store's clocks read them in their own transaction)."""
    out: dict[int, list[tuple[datetime, datetime]]] = {}
    for uid, starts, ends in (await session.execute(
            select(Vacation.user_id, Vacation.starts_at, Vacation.ends_at)
            .where(Vacation.user_id.in_(list(user_ids)), Vacation.ends_at > now)
            .order_by(Vacation.starts_at))).all():
        out.setdefault(uid, []).append((starts, ends))
    return out
