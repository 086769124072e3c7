"""Resignations and vacations (issue #33). The ``vacations`` table: days a player declared
away, whole days in their time zone (``first_day``..``last_day``; ``starts_at``..``ends_at``
in UTC); their clocks stop meanwhile (app/vacations.py). Resignations: ``seats.resigned`` is the version of the log row at which the
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


Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("resigned", sa.Integer(), nullable=True))
    op.create_table(
        "vacations",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_vacations_user_end", "vacations", ["user_id", "ends_at"])


def downgrade() -> None:
    op.drop_index("ix_vacations_user_end", table_name="vacations")
    op.drop_table("vacations")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("resigned")
