"""Confirm turn (issue #30): ``games.held_seat``, the seat whose finished turn waits for its
"Confirm turn" (None: none waits). The preference itself is a key of the notification
preferences' JSON (``confirm_turn``), which needs no column.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("held_seat", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("held_seat")
