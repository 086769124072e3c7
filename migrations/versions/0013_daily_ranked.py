"""Daily challenge: ranked and unranked attempts (issue #31, finding 3). ``ranked`` is decided
when the attempt starts (the account's age, finished games and verified address:
docs/daily.md); an unranked attempt plays the day's practice deal and is listed apart. Every
attempt before this migration stays ranked.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("daily_attempts") as batch:
        batch.add_column(sa.Column("ranked", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("daily_attempts") as batch:
        batch.drop_column("ranked")
