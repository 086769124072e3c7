"""The "today's challenge is open" notice (kind ``daily_challenge``, issue #21 with #18).

Once a day, when their local time passes ``daily_notice_hour``, the players who took a daily
challenge in the last ``DAILY_RECENT_DAYS`` days and have not started one today are told that
today's challenge is open (email and push, by their choices: the kind switch, the channels,
quiet hours; "only when away" too). Players who never took one are not asked: the notice keeps
a habit going, it does not advertise. The day is claimed per player in their preferences row
(``daily_on``, like the digest's ``digest_on``) with a conditional update in the transaction
that queues the notice, so two processes never send it twice.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from ..models import DailyAttempt
from ..models_delivery import NotificationPrefs
from ..times import utcnow
from . import prefs as P
from .channels import Notice, Recipient

log = logging.getLogger("menagerie.notify")

#: who is told: players with a daily attempt in this many days before today
DAILY_RECENT_DAYS = 7


async def run_daily_open(service, now: datetime | None = None) -> int:
    """Queue today's "challenge open" notice for each player it is due to; how many were
    queued. ``service``: the :class:`~app.notify.service.NotifyService`."""
    if not service.sending:
        return 0
    now = now or utcnow()
    today = now.date()  # the challenge's day is the UTC day
    db, hour = service.db, service.settings.daily_notice_hour
    async with db.read() as s:
        recent = set((await s.execute(select(DailyAttempt.user_id).where(
            DailyAttempt.day >= today - timedelta(days=DAILY_RECENT_DAYS),
            DailyAttempt.day < today))).scalars().all())
        if not recent:
            return 0
        started = set((await s.execute(select(DailyAttempt.user_id).where(
            DailyAttempt.day == today))).scalars().all())
        rows = {r.user_id: r for r in (await s.execute(select(NotificationPrefs).where(
            NotificationPrefs.user_id.in_(sorted(recent - started))))).scalars().all()}
    queued = 0
    for user_id in sorted(recent - started):
        row = rows.get(user_id)
        tz = row.tz if row else "UTC"
        if P.local_time(now, tz).hour < hour:
            continue
        if row is not None and row.daily_on == today.isoformat():
            continue
        recipient = Recipient(user_id, row.lang if row else "en",
                              P.merged(row.prefs if row else None),
                              row.email if row and row.email_verified_at else None, tz)
        notice = Notice("daily_challenge", 0, "", "", deadline=None)
        channels = service.channels_for(notice, recipient, tz, now)
        if not channels:
            continue
        try:
            async with db.write() as s:
                if not await _claim(s, user_id, today.isoformat(), recipient.lang):
                    await s.rollback()
                    continue
                reach = {c.name: await c.reachable(s, [user_id]) for c in channels
                         if hasattr(c, "reachable")}
                channels = [c for c in channels if user_id in reach.get(c.name, (user_id,))]
                for channel in channels:
                    await channel.enqueue(s, notice, recipient)
                await s.commit()
        except IntegrityError:  # another process made this player's row meanwhile
            continue
        if channels:
            queued += 1
            for channel in channels:
                channel.wake()
    return queued


async def _claim(s, user_id: int, day: str, lang: str) -> bool:
    """Mark ``day`` as told for ``user_id`` (a new preferences row if there is none); False
    when another process told them already."""
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
