"""Rate limit buckets shared by every process on PostgreSQL (issue #15): token buckets for
register, login, actions, imports, and the per-account login backoff; and the look-alike key
of each username (refused when a new name looks like an existing one).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("level", sa.Float(), nullable=False),
        sa.Column("stamp", sa.Float(), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_rate_buckets_stamp", "rate_buckets", ["stamp"])
    with op.batch_alter_table("users") as t:
        t.add_column(sa.Column("username_skeleton", sa.String(128), nullable=True))
    op.create_index("ix_users_username_skeleton", "users", ["username_skeleton"])
    from app.credentials import confusable_key  # the same key the server computes

    bind = op.get_bind()
    users = sa.table("users", sa.column("id"), sa.column("username"),
                     sa.column("username_skeleton"))
    for uid, name in bind.execute(sa.select(users.c.id, users.c.username)).all():
        bind.execute(users.update().where(users.c.id == uid)
                     .values(username_skeleton=confusable_key(name)))


def downgrade() -> None:
    op.drop_index("ix_users_username_skeleton", table_name="users")
    with op.batch_alter_table("users") as t:
        t.drop_column("username_skeleton")
    op.drop_index("ix_rate_buckets_stamp", table_name="rate_buckets")
    op.drop_table("rate_buckets")
