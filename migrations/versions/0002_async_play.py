"""Asynchronous play: time controls and clocks, abandoned seats, undo and platform-played moves
in the log, rematches, imported games, chat, webhooks, ratings.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Stamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("games") as t:
        t.add_column(sa.Column("time_control", sa.JSON(), nullable=True))
        t.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        t.add_column(sa.Column("rematch_of", Id, nullable=True))
        t.add_column(sa.Column("source", sa.String(16), nullable=False,
                               server_default="play"))
        t.add_column(sa.Column("rated", sa.Boolean(), nullable=False,
                               server_default=sa.false()))
        t.create_unique_constraint("uq_games_rematch_of", ["rematch_of"])
    op.create_index("ix_games_deadline", "games", ["status", "turn_deadline"])
    with op.batch_alter_table("seats") as t:
        t.add_column(sa.Column("away", sa.Boolean(), nullable=False, server_default=sa.false()))
        t.add_column(sa.Column("invited", sa.Boolean(), nullable=False,
                               server_default=sa.false()))
    with op.batch_alter_table("actions") as t:
        t.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="move"))
    op.create_table(
        "chat_messages",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("created_at", Stamp, nullable=False),
        sa.CheckConstraint("channel IN ('players', 'spectators')", name="ck_chat_channel"),
    )
    op.create_index("ix_chat_game_channel", "chat_messages", ["game_id", "channel", "id"])
    op.create_table(
        "webhooks",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("created_at", Stamp, nullable=False),
        sa.UniqueConstraint("user_id", "url", name="uq_webhooks_user_url"),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("webhook_id", Id, sa.ForeignKey("webhooks.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("event", sa.String(32), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="pending"),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_attempt_at", Stamp, nullable=False),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("delivered_at", Stamp, nullable=True),
        sa.CheckConstraint("status IN ('pending', 'delivered', 'failed')",
                           name="ck_deliveries_status"),
    )
    op.create_index("ix_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"])
    op.create_table(
        "ratings",
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated_at", Stamp, nullable=False),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])


def downgrade() -> None:
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_deliveries_due", table_name="webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_table("webhooks")
    op.drop_index("ix_chat_game_channel", table_name="chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("actions") as t:
        t.drop_column("kind")
    with op.batch_alter_table("seats") as t:
        t.drop_column("invited")
        t.drop_column("away")
    op.drop_index("ix_games_deadline", table_name="games")
    with op.batch_alter_table("games") as t:
        t.drop_constraint("uq_games_rematch_of", type_="unique")
        t.drop_column("rated")
        t.drop_column("source")
        t.drop_column("rematch_of")
        t.drop_column("clock")
        t.drop_column("time_control")
