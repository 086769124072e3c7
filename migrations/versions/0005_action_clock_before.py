"""The clock just before each logged decision (``actions.clock_before``), so that taking a
decision back restores the clock exactly as it was (no increment refunded, the same wait start,
the same deadline) instead of starting a fresh wait.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as t:
        t.add_column(sa.Column("clock_before", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as t:
        t.drop_column("clock_before")
