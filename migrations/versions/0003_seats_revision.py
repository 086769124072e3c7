"""A revision number of a game's seats: a seat handed to the bot or reclaimed bumps it, and a
move is stored only if the seats are still those it was computed for (another process may have
moved from a cached copy of the seats at the same instant).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as t:
        t.add_column(sa.Column("seats_rev", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as t:
        t.drop_column("seats_rev")
