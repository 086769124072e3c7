"""Storage of the webhooks (app/webhooks.py says what they are): the SQL of the ``webhooks`` and
``webhook_deliveries`` tables, as functions of the caller's session (the deliveries of a batch
are queued in the outbox's transaction). The queue's claims, leases and backoff are
``app/jobqueue.py``'s, as for every job table."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select

from . import auth_store, prefs_store
from .db import flush_unique
from .models_delivery import Webhook, WebhookDelivery


async def hooks_of(s: Any, user_id: int) -> list[tuple[Webhook, WebhookDelivery | None]]:
    """The user's webhooks in id order, each with its latest delivery (None: none yet)."""
    rows = (await s.execute(select(Webhook).where(Webhook.user_id == user_id)
                            .order_by(Webhook.id))).scalars().all()
    out = []
    for row in rows:
        last = (await s.execute(
            select(WebhookDelivery).where(WebhookDelivery.webhook_id == row.id)
            .order_by(WebhookDelivery.id.desc()).limit(1))).scalar_one_or_none()
        out.append((row, last))
    return out


async def registered(s: Any, user_id: int, url: str) -> tuple[int, bool]:
    """With the user's row locked (one registration of a user at a time; SQLite has one
    writer): how many webhooks the user has, and whether one of them is for ``url``."""
    await auth_store.lock_user(s, user_id)
    count = await s.scalar(select(func.count()).select_from(Webhook)
                           .where(Webhook.user_id == user_id))
    same = await s.scalar(select(Webhook.id).where(Webhook.user_id == user_id,
                                                   Webhook.url == url))
    return int(count or 0), same is not None


async def add(s: Any, user_id: int, url: str, secret: str, now: datetime) -> Webhook:
    """A new active webhook (flushed); :class:`~app.db.Duplicate` when the user has one for
    that URL already."""
    row = Webhook(user_id=user_id, url=url, secret=secret, active=True, created_at=now)
    s.add(row)
    await flush_unique(s)
    return row


async def own(s: Any, user_id: int, webhook_id: int) -> int | None:
    """The id of the user's webhook of that id (None: no such webhook of theirs)."""
    found: int | None = await s.scalar(select(Webhook.id).where(Webhook.id == webhook_id,
                                                                Webhook.user_id == user_id))
    return found


async def drop(s: Any, webhook_id: int) -> None:
    """A webhook goes, with its deliveries."""
    await s.execute(delete(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id))
    await s.execute(delete(Webhook).where(Webhook.id == webhook_id))


async def active_hooks(s: Any, users: Sequence[int]) -> list[Any]:
    """``id, user_id, username`` of the active webhooks of ``users`` whose "webhook" channel
    is on (the notification preferences' switch, app/notify)."""
    hooks = (await s.execute(
        select(Webhook.id, Webhook.user_id,
               auth_store.username_of(Webhook.user_id).label("username"))
        .where(Webhook.user_id.in_(users), Webhook.active.is_(True))
        .order_by(Webhook.id))).all()
    if hooks:
        off = await prefs_store.webhook_off(s, users)
        hooks = [hook for hook in hooks if hook.user_id not in off]
    return list(hooks)


def add_delivery(s: Any, webhook_id: int, event: str, payload: dict[str, Any],
                 now: datetime) -> None:
    """A delivery to make, in the caller's transaction."""
    s.add(WebhookDelivery(webhook_id=webhook_id, event=event, status="pending", attempts=0,
                          next_attempt_at=now, created_at=now, payload=payload))


async def deliveries(s: Any, ids: Sequence[int]) -> Sequence[Any]:
    """The claimed deliveries: (id, attempts, payload, url, secret)."""
    rows: Sequence[Any] = (await s.execute(
        select(WebhookDelivery.id, WebhookDelivery.attempts, WebhookDelivery.payload,
               Webhook.url, Webhook.secret)
        .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .where(WebhookDelivery.id.in_(ids)))).all()
    return rows
