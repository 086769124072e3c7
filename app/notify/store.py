"""Storage of the notices (issue #21; app/notify/service.py says what they are): the SQL of the
``notification_prefs``, ``notice_log`` and ``email_jobs`` tables, as functions of the caller's
session (the dispatcher's writes run in the outbox's transaction, the claims of a day in the
transaction that queues its mail). The games a notice is about are the game store's reads
(``app/games/store_lookups.py``), the players of the daily challenge the daily store's."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update

from ..db import Database, unique
from ..models_delivery import EmailJob, NoticeLog, NotificationPrefs
from ..times import utcnow

# ---------------------------------------------------------------------- preferences


async def prefs(s: Any, user_id: int) -> NotificationPrefs | None:
    """The user's stored preferences row (None: none, the defaults apply)."""
    row: NotificationPrefs | None = await s.get(NotificationPrefs, user_id)
    return row


async def prefs_of(s: Any, user_ids: Iterable[int]) -> dict[int, NotificationPrefs]:
    """The stored preferences rows of these users, by user id."""
    return {r.user_id: r for r in (await s.execute(select(NotificationPrefs).where(
        NotificationPrefs.user_id.in_(sorted(set(user_ids)))))).scalars().all()}


async def verified(s: Any) -> list[NotificationPrefs]:
    """The preferences rows with a verified address (who may get a digest)."""
    return list((await s.execute(select(NotificationPrefs).where(
        NotificationPrefs.email_verified_at.is_not(None)))).scalars().all())


async def ensure(s: Any, user_id: int, lang: str, defaults: dict[str, Any]) -> NotificationPrefs:
    """The user's preferences row, made (``defaults``, flushed) if there is none."""
    row = await prefs(s, user_id)
    if row is None:
        row = NotificationPrefs(user_id=user_id, prefs=defaults, lang=lang, tz="UTC",
                                updated_at=utcnow())
        s.add(row)
        await s.flush()
    return row


async def mark_verified(s: Any, user_id: int, address: str, now: datetime) -> bool:
    """The address is verified (False: the user's address is another one now)."""
    done = await s.execute(
        update(NotificationPrefs)
        .where(NotificationPrefs.user_id == user_id, NotificationPrefs.email == address)
        .values(email_verified_at=now))
    return bool(done.rowcount)


async def claim_digest(s: Any, user_id: int, day: str) -> bool:
    """Mark ``day``'s digest as sent to the user (False: another process did already)."""
    claimed = await s.execute(
        update(NotificationPrefs)
        .where(NotificationPrefs.user_id == user_id,
               (NotificationPrefs.digest_on.is_(None)) | (NotificationPrefs.digest_on != day))
        .values(digest_on=day))
    return bool(claimed.rowcount)


async def claim_daily(s: Any, user_id: int, day: str, lang: str) -> bool:
    """Mark ``day`` as told for ``user_id`` (a new preferences row if there is none); False
    when another process told them already (another process making their row meanwhile:
    the flush or the commit fails, :func:`writing` raises :class:`~app.db.Duplicate`)."""
    done = await s.execute(update(NotificationPrefs).where(
        NotificationPrefs.user_id == user_id,
        (NotificationPrefs.daily_on.is_(None)) | (NotificationPrefs.daily_on != day))
        .values(daily_on=day))
    if done.rowcount:
        return True
    exists = await s.scalar(select(NotificationPrefs.user_id)
                            .where(NotificationPrefs.user_id == user_id))
    if exists is not None:
        return False
    # no stored choices: the defaults apply (prefs.merged), as for anyone without a row
    s.add(NotificationPrefs(user_id=user_id, prefs={}, lang=lang, daily_on=day))
    await s.flush()
    return True


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
