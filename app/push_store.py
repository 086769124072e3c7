"""Storage of Web Push (app/push.py says what it does): the SQL of the ``push_subscriptions``
and ``push_deliveries`` tables, as functions of the caller's session (the dispatcher queues
its messages in the outbox's transaction). The queue's claims, leases and backoff are
``app/jobqueue.py``'s, as for every job table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from .db import commit_unique, flush_unique
from .models_delivery import PushDelivery, PushSubscription
from .times import utcnow


async def save_subscription(s: Any, user_id: int, endpoint: str, p256dh: str, auth: str,
                            lang: str, keep: int) -> tuple[int, str]:
    """Store (or move to this user, or refresh) a browser's subscription, and drop the user's
    oldest ones beyond ``keep`` with their queued messages: ``(id, endpoint)``;
    :class:`~app.db.Duplicate` when the same browser is being saved at once elsewhere."""
    row = await s.scalar(select(PushSubscription).where(PushSubscription.endpoint == endpoint))
    if row is None:
        row = PushSubscription(user_id=user_id, endpoint=endpoint, created_at=utcnow())
        s.add(row)
    elif row.user_id != user_id:  # the browser is someone else's now: theirs
        await s.execute(delete(PushDelivery).where(PushDelivery.subscription_id == row.id))
        row.user_id, row.created_at = user_id, utcnow()
    row.p256dh, row.auth, row.lang = p256dh, auth, lang
    await flush_unique(s)
    old = (await s.execute(select(PushSubscription.id)
                           .where(PushSubscription.user_id == user_id)
                           .order_by(PushSubscription.created_at.desc(),
                                     PushSubscription.id.desc())
                           .offset(keep))).scalars().all()
    if old:  # beyond the limit: the oldest browsers go
        await s.execute(delete(PushDelivery).where(PushDelivery.subscription_id.in_(old)))
        await s.execute(delete(PushSubscription).where(PushSubscription.id.in_(old)))
    return row.id, row.endpoint


async def own_subscription(s: Any, user_id: int, endpoint: str) -> int | None:
    """The id of the user's subscription of that endpoint (None: none)."""
    found: int | None = await s.scalar(select(PushSubscription.id).where(
        PushSubscription.endpoint == endpoint, PushSubscription.user_id == user_id))
    return found


async def drop(s: Any, subscription_id: int) -> None:
    """A subscription goes, with its queued messages."""
    await s.execute(delete(PushDelivery).where(PushDelivery.subscription_id == subscription_id))
    await s.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id))


async def subscriptions(s: Any, user_id: int) -> list[Any]:
    """``id, lang`` of the user's subscriptions, in id order."""
    return list((await s.execute(select(PushSubscription.id, PushSubscription.lang).where(
        PushSubscription.user_id == user_id).order_by(PushSubscription.id))).all())


async def reachable(s: Any, user_ids: list[int]) -> set[int]:
    """The users among ``user_ids`` with at least one subscription (one query)."""
    return set((await s.execute(select(PushSubscription.user_id).where(
        PushSubscription.user_id.in_(user_ids)).distinct())).scalars().all())


def add_delivery(s: Any, subscription_id: int, payload: dict[str, Any], now: datetime) -> None:
    """A message to send to one subscription, in the caller's transaction."""
    s.add(PushDelivery(subscription_id=subscription_id, payload=payload, status="pending",
                       attempts=0, next_attempt_at=now, created_at=now))


async def deliveries(s: Any, ids: list[int]) -> list[Any]:
    """The claimed messages with their subscriptions (the job worker's ``load``)."""
    return list((await s.execute(
        select(PushDelivery.id, PushDelivery.attempts, PushDelivery.payload,
               PushSubscription.id.label("sub_id"), PushSubscription.endpoint,
               PushSubscription.p256dh, PushSubscription.auth)
        .join(PushSubscription, PushSubscription.id == PushDelivery.subscription_id)
        .where(PushDelivery.id.in_(ids)))).all())


async def commit(s: Any) -> None:
    """Commit; :class:`~app.db.Duplicate` if a constraint refuses it (a subscription dropped
    meanwhile)."""
    await commit_unique(s)
