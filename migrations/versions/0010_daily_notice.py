"""The "today's challenge is open" notice (issue #21): the day it was last queued, per player.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notification_prefs") as batch:
        batch.add_column(sa.Column("daily_on", sa.String(10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("notification_prefs") as batch:
        batch.drop_column("daily_on")
