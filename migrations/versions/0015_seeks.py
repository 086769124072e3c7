"""Quick match (issue #33, item 5): the ``seeks`` table (a player asks for a game; the server
pairs compatible seeks into a started game: app/seeks/) and ``games.casual`` (a game of casual
seeks, never rated).

Revision ID: 0015
Revises: 0014 (the invitations and friends)
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("casual", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "seeks",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("time_control", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating_min", sa.Integer(), nullable=True),
        sa.Column("rating_max", sa.Integer(), nullable=True),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="open"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True),
        sa.CheckConstraint("status IN ('open', 'paired', 'expired', 'cancelled')",
                           name="ck_seeks_status"),
    )
    op.create_index("ix_seeks_pool_open", "seeks", ["pool", "status", "created_at"])
    op.create_index("ix_seeks_status_expires", "seeks", ["status", "expires_at"])
    op.create_index("ix_seeks_user_status", "seeks", ["user_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_seeks_user_status", "seeks")
    op.drop_index("ix_seeks_status_expires", "seeks")
    op.drop_index("ix_seeks_pool_open", "seeks")
    op.drop_table("seeks")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("casual")
