"""Invitations, friends and profiles (issue #33, items 4 and 7).

- ``games.unlisted``: a game made for invited players only: it is in no public list (the
  lobby, friends' games, profiles) for anyone but its players and invitees, and only an invited
  player can take a seat (app/invites.py). Its seats are reserved with ``seats.invited``.
- ``follows``: who follows whom (a player's friends list, app/friends.py).
- ``rating_history``: a player's rating after each rated game (the profile's chart).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("unlisted", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "follows",
        sa.Column("follower_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("followee_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_follows_followee", "follows", ["followee_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("user_id", Id, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_history_user_game", "rating_history", ["user_id", "game", "id"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_user_game", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_follows_followee", table_name="follows")
    op.drop_table("follows")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("unlisted")
