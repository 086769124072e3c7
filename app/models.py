"""The database tables (SQLAlchemy 2 declarative). Alembic migrations create them."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: 64-bit ids on PostgreSQL; SQLite needs INTEGER PRIMARY KEY for its rowid alias
Id = BigInteger().with_variant(Integer(), "sqlite")

STATUSES = ("open", "running", "finished")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class User(Base):
    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("username_key", name="uq_users_username_key"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(32))
    #: lower-cased username: names are unique regardless of case
    username_key: Mapped[str] = mapped_column(String(32))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Token(Base):
    """A login token; only its SHA-256 digest is stored. Logout deletes the row."""

    __tablename__ = "tokens"
    __table_args__ = (UniqueConstraint("token_hash", name="uq_tokens_token_hash"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"),
                                         index=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'running', 'finished')", name="ck_games_status"),
        Index("ix_games_status_updated", "status", "updated_at"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the engine seed: hidden information, never sent to clients
    seed: Mapped[str] = mapped_column(String(64))
    seat_count: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="open")
    #: number of accepted actions; the state below is the state at this version
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: seats that owe a decision at this version (denormalized for the lobby lists)
    waiting_for: Mapped[list[Any]] = mapped_column(JSON, default=list)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_by: Mapped[int | None] = mapped_column(
        Id, ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    turn_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),
        CheckConstraint("user_id IS NULL OR bot IS NULL", name="ck_seats_user_or_bot"),
    )

    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        Id, ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)


class ActionRecord(Base):
    """The append-only log: one row per accepted action, ``version`` = the version it made."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "version", name="uq_actions_game_version"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Snapshot(Base):
    __tablename__ = "snapshots"

    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
