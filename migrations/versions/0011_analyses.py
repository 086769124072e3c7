"""Post-game analysis and hints (issue #19): the ``analyses`` table (one job and its report
per game, run by ``app/analysis/``) and the ``games.hints`` flag (a casual game whose players
agreed at creation that the bot may propose answers; never rated).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "analyses",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="pending"),
        sa.Column("done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("owner", sa.String(32), nullable=True),
        sa.Column("error", sa.String(500), nullable=True),
        sa.Column("requested_by", Id, sa.ForeignKey("users.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('pending', 'running', 'done', 'failed', 'cancelled')",
                           name="ck_analyses_status"),
        sa.UniqueConstraint("game_id", name="uq_analyses_game"),
    )
    op.create_index("ix_analyses_due", "analyses", ["status", "lease_until"])


def downgrade() -> None:
    op.drop_index("ix_analyses_due", table_name="analyses")
    op.drop_table("analyses")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hints")
