"""Time in one place: every stored time is UTC; the API writes ISO 8601 with a ``Z``."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(dt: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def iso(dt: datetime | None) -> str | None:
    """``2026-12-01T15:09:27.123456Z`` (None stays None)."""
    if dt is None:
        return None
    return aware(dt).astimezone(UTC).isoformat().replace("+00:00", "Z")
