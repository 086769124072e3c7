"""Vacations (issue #33): a player declares whole days away, in their own time zone (the one of
their notification preferences, app/notify/prefs.py; UTC without one), starting today (from
now) or a later day, at most 30 days per calendar year. Meanwhile every clock of theirs in
every game stops (app/clock.py: a deadline moves by the vacation, a bank does not run down),
their opponents see "on vacation until ..." (the public clock's ``off``) and they get no
reminders (app/notify/service.py). A vacation not begun yet can be taken back; one under way
ends now.

This module owns the ``vacations`` table, its SQL in ``app/vacations_store.py``; the game service
writes the vacations into the clocks (``app/games/pauses.py``)."""

from __future__ import annotations

import logging
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from .auth import UserInfo
from .db import Database
from .models import Vacation
from .refusal import Refusal, not_found, say
from .times import aware, iso, utcnow
from .vacations_store import VacationStore, VacationTx, on_vacation

log = logging.getLogger("menagerie.vacations")

#: days of vacation per calendar year (of the player's time zone)
DAYS_PER_YEAR = 30
#: vacations over for less than this are still written into the clocks (a wait that began
#: before one still runs: at most the longest time control)
KEEP = timedelta(days=31)
#: how far ahead a vacation may begin
AHEAD = timedelta(days=366)


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except Exception:  # an unknown or malformed name: UTC
        return ZoneInfo("UTC")


def midnight(day: date, zone: ZoneInfo) -> datetime:
    """The start of ``day`` in ``zone``, in UTC."""
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(ZoneInfo("UTC"))


def days_in_year(first: date, last: date, year: int) -> int:
    lo, hi = max(first, date(year, 1, 1)), min(last, date(year, 12, 31))
    return max(0, (hi - lo).days + 1)


def public(v: Vacation) -> dict:
    return {"id": v.id, "starts_at": iso(v.starts_at), "ends_at": iso(v.ends_at),
            "first_day": v.first_day.isoformat(), "last_day": v.last_day.isoformat(),
            "days": (v.last_day - v.first_day).days + 1}


class VacationService:
    def __init__(self, db: Database, games) -> None:
        self.db = db
        self.store = VacationStore(db)  # the vacations table's SQL
        self.games = games  # app.games.GameService: writes the vacations into the clocks

    @staticmethod
    async def _left(tx: VacationTx, years: list[int]) -> dict[int, int]:
        spans = await tx.days()
        return {y: DAYS_PER_YEAR - sum(days_in_year(a, b, y) for a, b in spans)
                for y in years}

    async def list(self, user: UserInfo, now: datetime | None = None) -> dict:
        now = now or utcnow()
        async with self.store.reading(user.id) as tx:
            zone = _zone(await tx.zone_name())
            rows = await tx.ending_after(now)
            year = now.astimezone(zone).year
            left = await self._left(tx, [year, year + 1])
        return {"vacations": [public(v) for v in rows], "tz": zone.key,
                "days_left": {str(y): n for y, n in left.items()},
                "days_per_year": DAYS_PER_YEAR}

    async def declare(self, user: UserInfo, start: date | None, days: int,
                      now: datetime | None = None) -> dict:
        """A vacation of ``days`` whole days from ``start`` (None or today: from now)."""
        now = now or utcnow()
        if not 1 <= days <= DAYS_PER_YEAR:
            raise Refusal("bad_vacation", say("bad_vacation"))
        # one declaration of a user at a time (the yearly count below)
        async with self.store.writing(user.id, lock_user=True) as tx:
            zone = _zone(await tx.zone_name())
            today = now.astimezone(zone).date()
            first = start or today
            if first < today:
                raise Refusal("vacation_past", say("vacation_past"))
            if midnight(first, zone) > now + AHEAD:
                raise Refusal("vacation_too_far",
                              say("vacation_too_far"))
            last = first + timedelta(days=days - 1)
            starts = now if first == today else midnight(first, zone)
            ends = midnight(last + timedelta(days=1), zone)
            if await tx.overlaps(starts, ends):
                raise Refusal("vacation_overlap",
                              say("vacation_overlap"))
            years = sorted({first.year, last.year})
            left = await self._left(tx, years)
            for y in years:
                if days_in_year(first, last, y) > left[y]:
                    raise Refusal("vacation_limit",
                                  say("vacation_limit", left=max(left[y], 0), year=y),
                                  left=max(left[y], 0), year=y)
            row = tx.add(starts_at=starts, ends_at=ends, first_day=first, last_day=last,
                         created_at=now)
            await tx.commit()
            out = public(row)
        await self._apply(user.id, now)
        log.info("user %s: vacation %s .. %s", user.id, out["starts_at"], out["ends_at"])
        return out

    async def end(self, user: UserInfo, vacation_id: int, now: datetime | None = None) -> None:
        """Take back a vacation not begun yet; end one under way now."""
        now = now or utcnow()
        async with self.store.writing(user.id) as tx:
            row = await tx.mine(vacation_id)
            if row is None:
                raise not_found("vacation")
            if aware(row.ends_at) <= now:
                raise Refusal("vacation_over", say("vacation_over"))
            if aware(row.starts_at) > now:
                await tx.delete(row.id)
            else:
                zone = _zone(await tx.zone_name())
                row.ends_at, row.last_day = now, max(row.first_day, now.astimezone(zone).date())
            await tx.commit()
        await self._apply(user.id, now)

    async def _apply(self, user_id: int, now: datetime) -> None:
        # (a vacation over may still be inside a running wait: the clock keeps what matters)
        rows = await self.store.spans_since(user_id, now - KEEP)
        await self.games.set_vacations(user_id, [[iso(a), iso(b)] for a, b in rows])

    @staticmethod
    async def on_vacation(s, user_ids, now: datetime) -> set[int]:
        """Which of ``user_ids`` are on vacation at ``now`` (in ``s``)."""
        return await on_vacation(s, user_ids, now)
