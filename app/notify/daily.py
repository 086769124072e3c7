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
from datetime import datetime

from .. import prefs_store
from ..db import Duplicate
from ..times import utcnow
from . import prefs as P, store
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
        # who played lately: the daily store's table
        recent, started = await service.daily.players_around(s, today, DAILY_RECENT_DAYS)
        if not recent:
            return 0
        rows = await prefs_store.prefs_of(s, recent - started)
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
            async with store.writing(db) as s:
                if not await prefs_store.claim_daily(s, user_id, today.isoformat(), recipient.lang):
                    await s.rollback()
                    continue
                reach = {c.name: await c.reachable(s, [user_id]) for c in channels
                         if hasattr(c, "reachable")}
                channels = [c for c in channels if user_id in reach.get(c.name, (user_id,))]
                for channel in channels:
                    await channel.enqueue(s, notice, recipient)
                await s.commit()
        except Duplicate:  # another process made this player's row meanwhile
            continue
        if channels:
            queued += 1
            for channel in channels:
                channel.wake()
    return queued

