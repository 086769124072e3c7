"""The tables of what the server sends out (SQLAlchemy 2 declarative, on the one
:class:`~app.models.Base`): webhooks and their deliveries, Web Push subscriptions and
deliveries with the server's signing key, notification preferences, the notice log and e-mail
jobs, and the outbox of committed moves. The job tables share :class:`QueuedJob`'s columns
(``app/jobqueue.py``). Alembic migrations create them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, Id
from .times import utcnow  # the column default


class Webhook(Base):
    """A user's outbound webhook: signed JSON POSTs when it becomes their turn."""

    __tablename__ = "webhooks"
    __table_args__ = (UniqueConstraint("user_id", "url", name="uq_webhooks_user_url"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"))
    url: Mapped[str] = mapped_column(String(2000))
    #: the HMAC-SHA256 key of the signatures (shown to the user once, on creation)
    secret: Mapped[str] = mapped_column(String(128))
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default="1")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class QueuedJob:
    """The columns of every table of the one durable job queue (``app/jobqueue.py``): a job is
    ``pending`` until ``delivered`` or ``failed`` (the dead letter), retried at
    ``next_attempt_at`` with backoff."""

    status: Mapped[str] = mapped_column(String(16), default="pending", server_default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


def job_table_args(check: str, index: str) -> tuple:
    """A job table's status check and its "what is due" index (names per table)."""
    return (CheckConstraint("status IN ('pending', 'delivered', 'failed')", name=check),
            Index(index, "status", "next_attempt_at"))


class WebhookDelivery(QueuedJob, Base):
    """One POST to make (or made): retried with backoff until delivered or given up."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = job_table_args("ck_deliveries_status", "ix_deliveries_due")

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    webhook_id: Mapped[int] = mapped_column(Id, ForeignKey("webhooks.id", ondelete="CASCADE"))
    event: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)


class ServerKey(Base):
    """A key the server made for itself once and keeps (``vapid``: the Web Push signing key,
    PEM), shared by every process through the database."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(4000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushSubscription(Base):
    """A browser's Web Push subscription (its push service endpoint and encryption keys)."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"),
                                         index=True)
    endpoint: Mapped[str] = mapped_column(String(1000))
    #: the browser's P-256 public key and auth secret (base64url, as the browser gives them)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    #: the language of the notices (the page's, when it subscribed)
    lang: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushDelivery(QueuedJob, Base):
    """One push message to send (or sent): retried with backoff like a webhook delivery."""

    __tablename__ = "push_deliveries"
    __table_args__ = job_table_args("ck_push_deliveries_status", "ix_push_deliveries_due")

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    subscription_id: Mapped[int] = mapped_column(
        Id, ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)


class NotificationPrefs(Base):
    """A user's notification choices (issue #21; see ``app/notify/``): ``prefs`` holds the
    channels and kinds (``app/notify/prefs.py`` fills the defaults); the email address is
    usable once ``email_verified_at`` is set."""

    __tablename__ = "notification_prefs"

    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    prefs: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the language of the mails (en, uk, de)
    lang: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    #: an IANA time zone name (quiet hours are in it)
    tz: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                               nullable=True)
    #: the local date (YYYY-MM-DD) of the last daily digest queued
    digest_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    #: the UTC date (YYYY-MM-DD) of the last "today's challenge is open" notice queued
    daily_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NoticeLog(Base):
    """The last notice about one game sent to one user (the per-game throttle)."""

    __tablename__ = "notice_log"

    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EmailJob(QueuedJob, Base):
    """One mail to send (the shared job queue, ``app/jobqueue.py``): retried with backoff until
    delivered or ``failed`` (the dead letter)."""

    __tablename__ = "email_jobs"
    __table_args__ = job_table_args("ck_email_jobs_status", "ix_email_jobs_due")

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    to_addr: Mapped[str] = mapped_column(String(254))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)


class OutboxEvent(Base):
    """What a committed move set off, written in the move's own transaction (``app/outbox.py``):
    ``your_turn`` (payload: a :class:`~app.signals.YourTurn`'s fields) or ``finished``. A row
    is deleted in the transaction that queues what it causes (webhook deliveries, notices,
    the rating), so a crash between the move and the send neither loses nor repeats one. A
    row whose listeners keep failing backs off and ends ``failed`` (kept, logged)."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[int] = mapped_column(Id)  # no foreign key: the move's statement stays light
    version: Mapped[int] = mapped_column(Integer)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="pending", server_default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
