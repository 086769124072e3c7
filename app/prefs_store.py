"""The ``notification_prefs`` table (app/notify's: what a user wants to be told, where, in which
language and time zone; ``app/notify/prefs.py`` says what the choices mean), as functions of the
caller's session. Its owner is the notices' domain (``app/notify/``); it lives in the lowest
storage layer because other stores read a user's choice in their own transaction through it:
the vacations' time zone, the webhook switch, the daily challenge's verified address, the game
store's "Confirm turn" (issue #34.4, one owner per table)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from .models_delivery import NotificationPrefs
from .times import utcnow

# ---------------------------------------------------------------------- app/notify's


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


# ---------------------------------------------------------------------- the other stores' reads


async def zone(s: Any, user_id: int) -> str | None:
    """The user's time zone (None: no preferences row, or none set)."""
    found: str | None = await s.scalar(select(NotificationPrefs.tz)
                                       .where(NotificationPrefs.user_id == user_id))
    return found


async def webhook_off(s: Any, user_ids: Iterable[int]) -> set[int]:
    """Which of these users switched their "webhook" channel off."""
    return {uid for uid, prefs in (await s.execute(
        select(NotificationPrefs.user_id, NotificationPrefs.prefs)
        .where(NotificationPrefs.user_id.in_(list(user_ids))))).all()
        if ((prefs or {}).get("channels") or {}).get("webhook") is False}


async def has_verified_address(s: Any, user_id: int) -> bool:
    """Whether the user has a verified email address."""
    return await s.scalar(select(NotificationPrefs.email_verified_at).where(
        NotificationPrefs.user_id == user_id)) is not None


async def choice(s: Any, user_id: int, name: str) -> Any:
    """The user's stored choice ``name`` (``confirm_turn``, ...; None: not stored, the default
    applies)."""
    prefs = await s.scalar(select(NotificationPrefs.prefs)
                           .where(NotificationPrefs.user_id == user_id))
    return (prefs or {}).get(name)
