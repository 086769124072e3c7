"""The daily challenge's days and seeds.

A day is a UTC date; it starts at 00:00 UTC and ends at the next 00:00 UTC. The seed of a kind's
deal on a day is ``HMAC-SHA256(secret, "<kind>|<YYYY-MM-DD>")`` (hex): the same for everyone
that day, different every day, and unknowable without the server's secret, which never leaves
the server (``MENAGERIE_DAILY_SECRET``, else one made once and kept in ``server_keys``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import UTC, date, datetime, timedelta

from ..times import aware

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def day_of(moment: datetime) -> date:
    """The UTC day of a moment."""
    return aware(moment).astimezone(UTC).date()


def day_start(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def day_end(day: date) -> datetime:
    """The moment the day is over (the next day's start)."""
    return day_start(day) + timedelta(days=1)


def parse_day(text: str) -> date | None:
    """``YYYY-MM-DD`` as a date (None for anything else)."""
    if not _DAY.match(text or ""):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def seed_of(secret: str, kind: str, day: date) -> str:
    return hmac.new(secret.encode(), f"{kind}|{day.isoformat()}".encode(),
                    hashlib.sha256).hexdigest()


def streaks(days: list[date], today: date) -> dict:
    """The current and the best run of consecutive days among ``days`` (days with a finished
    attempt). The current run ends today, or yesterday while today is still open to play."""
    have = set(days)
    best = run = 0
    previous = None
    for day in sorted(have):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    day = today if today in have else today - timedelta(days=1)
    while day in have:
        current += 1
        day -= timedelta(days=1)
    return {"current": current, "best": best, "today": today in have}
