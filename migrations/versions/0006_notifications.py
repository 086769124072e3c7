"""Notifications (issue #21): each user's preferences and email address, the per-game notice
log (throttle), and the email queue (same shape as ``webhook_deliveries``; see app/jobqueue.py).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "notification_prefs",
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("prefs", sa.JSON(), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("tz", sa.String(64), nullable=False, server_default="UTC"),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("digest_on", sa.String(10), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "notice_log",
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("kind", sa.String(32), primary_key=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "email_jobs",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("to_addr", sa.String(254), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="pending"),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('pending', 'delivered', 'failed')",
                           name="ck_email_jobs_status"),
    )
    op.create_index("ix_email_jobs_due", "email_jobs", ["status", "next_attempt_at"])


def downgrade() -> None:
    op.drop_index("ix_email_jobs_due", table_name="email_jobs")
    op.drop_table("email_jobs")
    op.drop_table("notice_log")
    op.drop_table("notification_prefs")
