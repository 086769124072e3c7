"""Resignations (issue #33): ``seats.resigned`` is the version of the log row at which the
seat's player resigned (None: not resigned). A resigned seat is played by the time control's
bot (``away``) and can never be reclaimed; its player finishes last (app/outcome.py).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("resigned", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("resigned")
