"""The daily digest (issue #21): one email a day listing every game waiting for the player.

Sent once their local time is past ``digest_hour``, to players who chose it and have a
verified address; the day is claimed in their preferences row (``digest_on``) by a conditional
update, so several processes send it once.
"""

from __future__ import annotations

from datetime import datetime

import engine

from .. import prefs_store
from ..times import iso, utcnow
from . import prefs as P


async def run_digests(service, now: datetime | None = None) -> int:
    """Queue today's digest for every user who wants one, whose local time is past
    ``digest_hour`` and who has games waiting; returns how many were queued. Safe on
    several processes: the day is claimed by a conditional update."""
    if not service.email.available:
        return 0
    now = now or utcnow()
    async with service.db.read() as s:
        rows = await prefs_store.verified(s)
    queued = 0
    for row in rows:
        prefs = P.merged(row.prefs)
        if not prefs["digest"] or not prefs["channels"]["email"]:
            continue
        local = P.local_time(now, row.tz)
        day = local.date().isoformat()
        if local.hour < service.settings.digest_hour or row.digest_on == day:
            continue
        games = await waiting_games(service.games, row.user_id)
        links = await service.email.links.ready()
        async with service.db.write() as s:
            if not await prefs_store.claim_digest(s, row.user_id, day):
                await s.rollback()
                continue
            if games:
                service.email.add_job(s, row.user_id, row.email, {
                    "kind": "digest", "lang": row.lang, "games": games, "day": day,
                    "unsubscribe": links.unsubscribe_token(row.user_id, "digest")})
                queued += 1
            await s.commit()
    if queued:
        service.email.wake()
    return queued


async def waiting_games(games, user_id: int) -> list[dict]:
    """The running games where ``user_id`` owes a decision: [{"id", "title", "since"}]
    (``games``: the game store)."""
    rows = await games.turns_of(user_id)
    out = []
    for r in rows:
        if r.seat in (r.waiting_for or []):
            out.append({"id": r.id, "title": engine.title_of(r.game),
                        "since": iso(r.updated_at)})
    return out
