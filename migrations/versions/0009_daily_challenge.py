"""The daily challenge (issue #18): one attempt per player, kind and UTC day, and games that
stay private to their players until a time (a daily game until its day is over).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("sealed_until", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "daily_attempts",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("time_used", sa.Float(), nullable=True),
        sa.Column("in_time", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("user_id", "kind", "day", name="uq_daily_attempts_user_kind_day"),
        sa.UniqueConstraint("game_id", name="uq_daily_attempts_game"),
    )
    op.create_index("ix_daily_attempts_day_kind", "daily_attempts",
                    ["day", "kind", "in_time", "score"])


def downgrade() -> None:
    op.drop_index("ix_daily_attempts_day_kind", table_name="daily_attempts")
    op.drop_table("daily_attempts")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("sealed_until")
