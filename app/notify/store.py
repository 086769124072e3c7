"""Storage of the notices (issue #21; app/notify/service.py says what they are): the SQL of the
``notice_log`` and ``email_jobs`` tables, as functions of the caller's
session (the dispatcher's writes run in the outbox's transaction, the claims of a day in the
transaction that queues its mail). The games a notice is about are the game store's reads
(``app/games/store_lookups.py``), the players of the daily challenge the daily store's. The
``notification_prefs`` table's SQL is ``app/prefs_store.py`` (the other stores read it too)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from ..db import Database, unique
from ..models_delivery import EmailJob, NoticeLog
from ..times import utcnow

# ---------------------------------------------------------------------- the notice log


async def last_sent(s: Any, user_id: int, game_id: int, kind: str) -> datetime | None:
    """When the user was last sent a notice of this kind about the game (None: never)."""
    found: datetime | None = await s.scalar(select(NoticeLog.sent_at).where(
        NoticeLog.user_id == user_id, NoticeLog.game_id == game_id, NoticeLog.kind == kind))
    return found


async def log_sent(s: Any, user_id: int, game_id: int, kind: str, now: datetime,
                   replace: bool) -> None:
    """Record the notice as sent now (``replace``: the earlier record goes)."""
    if replace:
        await s.execute(delete(NoticeLog).where(
            NoticeLog.user_id == user_id, NoticeLog.game_id == game_id,
            NoticeLog.kind == kind))
    s.add(NoticeLog(user_id=user_id, game_id=game_id, kind=kind, sent_at=now))


# ---------------------------------------------------------------------- email jobs


def add_email_job(s: Any, user_id: int, to_addr: str, payload: dict[str, Any]) -> None:
    """A mail to send (the email worker's queue), in the caller's transaction."""
    now = utcnow()
    s.add(EmailJob(user_id=user_id, kind=payload["kind"], to_addr=to_addr, payload=payload,
                   status="pending", attempts=0, next_attempt_at=now, created_at=now))


async def email_jobs(s: Any, ids: list[int]) -> list[Any]:
    """``id, attempts, to_addr, payload`` of the claimed jobs (the job worker's ``load``)."""
    return list((await s.execute(
        select(EmailJob.id, EmailJob.attempts, EmailJob.to_addr, EmailJob.payload)
        .where(EmailJob.id.in_(ids)))).all())


# ---------------------------------------------------------------------- transactions


@contextlib.asynccontextmanager
async def writing(db: Database) -> AsyncIterator[Any]:
    """A write transaction (the caller commits) in which a unique constraint refusing any
    statement, or the commit, raises :class:`~app.db.Duplicate` (the same notice or
    preferences row stored meanwhile by another process)."""
    async with unique(), db.write() as s:
        yield s
