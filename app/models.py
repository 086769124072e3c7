"""The database tables (SQLAlchemy 2 declarative) of players and games: users and tokens,
games with their seats, actions and snapshots, chat, ratings, rate buckets, daily attempts,
analyses and vacations. What the server sends out (webhooks, push, e-mail, the outbox) is in
``app/models_delivery.py``, on the same :class:`Base`. Alembic migrations create them."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .times import utcnow  # the column default

#: 64-bit ids on PostgreSQL; SQLite needs INTEGER PRIMARY KEY for its rowid alias
Id = BigInteger().with_variant(Integer(), "sqlite")

STATUSES = ("open", "running", "finished")


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class User(Base):
    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("username_key", name="uq_users_username_key"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(32))
    #: lower-cased username: names are unique regardless of case
    username_key: Mapped[str] = mapped_column(String(32))
    #: the look-alike key (Unicode skeleton, app.credentials): names that look alike are refused
    username_skeleton: Mapped[str | None] = mapped_column(String(128), index=True)
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
        Index("ix_games_deadline", "status", "turn_deadline"),
        UniqueConstraint("rematch_of", name="uq_games_rematch_of"),
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
    #: the seat whose turn waits for its "Confirm turn" (docs/architecture.md, "Confirm
    #: turn"): its last decision is stored, the next seat is not yet to move (``waiting_for``
    #: is that seat alone meanwhile); None: no turn waits
    held_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_by: Mapped[int | None] = mapped_column(
        Id, ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: the earliest deadline among the seats that owe a decision (None: no time control)
    turn_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: ``{"mode": "move", "seconds": N}`` or ``{"mode": "bank", "seconds": N, "increment": I}``
    #: plus ``"abandon_after"`` (timeouts in a row before a bot takes the seat) and ``"bot"``
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: per seat: time bank left, when its current wait began, its deadline, timeouts in a row,
    #: decisions the platform played for it (see app/clock.py); written with every move
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: bumped when a seat is handed to the bot or reclaimed; a move is stored only at the
    #: revision of the seats it was computed for
    seats_rev: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: the game this one is a rematch of (one rematch per game)
    rematch_of: Mapped[int | None] = mapped_column(Id, nullable=True)
    #: "play" (played here), "import" (rebuilt from an imported record) or "daily" (a daily
    #: challenge's game, dealt by the server: app/daily/)
    source: Mapped[str] = mapped_column(String(16), default="play", server_default="play")
    #: until then only the game's seated players see it (a daily challenge's game, until its
    #: day is over: app/redaction.py); None: public as every game
    sealed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: ratings were updated from this game's result
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: the players agreed at creation that the bot may propose answers (``GET /hint``): a
    #: casual game, never rated (issue #19, app/analysis/)
    hints: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: made for invited players (app/invites.py): in no list but its players' and invitees',
    #: and only an invited player can take a seat
    unlisted: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: a casual game, never rated: a quick match of casual seeks (issue #33, app/seeks/)
    casual: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")


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
    #: the player left (too many timeouts in a row): a bot plays the seat until it is reclaimed
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: a seat kept for this user (a rematch, an invitation) until they accept (or decline)
    invited: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: the version of the log row at which this seat's player resigned (None: they did not);
    #: a bot plays the seat from then on (``away``), never reclaimable; it finishes last
    resigned: Mapped[int | None] = mapped_column(Integer, nullable=True)


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
    #: "move" (the seat's player or bot), "auto" (the platform played a player's decision after
    #: a timeout or while the seat is away), "undo" (``action`` = ``{"undo": V}``: the state of
    #: version V restored; a snapshot is always stored at an undo version), "resign" / "abort"
    #: (``action`` = ``{"resign": seat}``: that seat's player resigned or aborted the game; the
    #: engine state does not change, app/outcome.py)
    kind: Mapped[str] = mapped_column(String(16), default="move", server_default="move")
    #: the game's clock (timed games) at ``version - 1``, i.e. just before this decision: a
    #: take-back of it restores exactly this clock (no refund, no fresh deadline)
    clock_before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class Snapshot(Base):
    __tablename__ = "snapshots"

    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """A chat line of one game: players and spectators talk in separate channels."""

    __tablename__ = "chat_messages"
    __table_args__ = (
        CheckConstraint("channel IN ('players', 'spectators')", name="ck_chat_channel"),
        Index("ix_chat_game_channel", "game_id", "channel", "id"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(
        Id, ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    username: Mapped[str] = mapped_column(String(32))
    channel: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(1000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """A user's Glicko-2 rating in one game."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_rating", "game", "rating"),)

    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RateBucket(Base):
    """A rate limit's state shared by every process (PostgreSQL; SQLite keeps it in memory).

    A token bucket: ``level`` tokens at ``stamp`` (Unix seconds, the database's clock). For a
    login backoff (keys ``login_fail:<name>``): ``level`` failures, the last at ``stamp``."""

    __tablename__ = "rate_buckets"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    level: Mapped[float] = mapped_column(Float)
    stamp: Mapped[float] = mapped_column(Float, index=True)
    ok: Mapped[bool] = mapped_column(Boolean, default=True)


class DailyAttempt(Base):
    """One player's attempt at one daily challenge (``app/daily/``): one per user, kind and UTC
    day (the unique constraint makes two simultaneous starts one game, in any process). The
    result columns are filled once the game is over (``settled``)."""

    __tablename__ = "daily_attempts"
    __table_args__ = (
        UniqueConstraint("user_id", "kind", "day", name="uq_daily_attempts_user_kind_day"),
        UniqueConstraint("game_id", name="uq_daily_attempts_game"),
        Index("ix_daily_attempts_day_kind", "day", "kind", "in_time", "score"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"))
    #: the challenge kind ("duel", "solo": app/daily/kinds.py)
    kind: Mapped[str] = mapped_column(String(32))
    #: the UTC day of the challenge
    day: Mapped[date] = mapped_column(Date)
    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: when the game ended (None while it runs)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: the player's score (the engine's result) and the time their clock used, in seconds
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    time_used: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: finished before the day was over: only these count (leaderboard, streak)
    in_time: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: the account was past the ranking threshold when the attempt started (docs/daily.md):
    #: the day's deal, ranked; else the day's practice deal, listed as unranked
    ranked: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class Analysis(Base):
    """The post-game analysis of one game (issue #19, ``app/analysis/``): a job and its result
    in one row, one per game (a second request reuses it). ``entries`` grow while it runs (a
    resumed job skips them); a worker owns a ``running`` row until ``lease_until`` (renewed
    with each batch of entries), after which another worker takes it again."""

    __tablename__ = "analyses"
    __table_args__ = (
        CheckConstraint("status IN ('pending', 'running', 'done', 'failed', 'cancelled')",
                        name="ck_analyses_status"),
        UniqueConstraint("game_id", name="uq_analyses_game"),
        Index("ix_analyses_due", "status", "lease_until"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(16), default="pending", server_default="pending")
    #: decisions analysed so far, of ``total`` (None until the worker counted them)
    done: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the engine's analysis settings (``engine.bots.analysis.Settings.as_dict()``)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    entries: Mapped[list[Any]] = mapped_column(JSON, default=list)
    #: the finished (or cancelled: partial) report
    report: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: the worker (process instance) running it
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    requested_by: Mapped[int | None] = mapped_column(
        Id, ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Vacation(Base):
    """Days a player declared away (issue #33, app/vacations.py): whole days in their time
    zone, from ``starts_at`` (or the moment it was declared) to ``ends_at`` (UTC). Their
    clocks in every game stop meanwhile (app/clock.py ``off``)."""

    __tablename__ = "vacations"
    __table_args__ = (Index("ix_vacations_user_end", "user_id", "ends_at"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: the days it covers in the player's time zone (first and last), for the yearly limit
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Follow(Base):
    """A player follows another (their friends list, app/friends.py)."""

    __tablename__ = "follows"
    __table_args__ = (Index("ix_follows_followee", "followee_id"),)

    follower_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"),
                                             primary_key=True)
    followee_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"),
                                             primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingHistory(Base):
    """A player's rating in a game after one rated game (the profile's chart, app/ratings.py)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_user_game", "user_id", "game", "id"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[int] = mapped_column(Id, ForeignKey("games.id", ondelete="CASCADE"))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Seek(Base):
    """A quick-match seek (issue #33, app/seeks/): a player asks for a game of ``game`` with
    ``seats`` players, this time control, rated or casual, with opponents rated between
    ``rating_min`` and ``rating_max``. ``pool`` is the digest of what must be equal for two
    seeks to pair (game, seats, options, time control, rated). ``status``: ``open``, then
    ``paired`` (``game_id`` the game it made), ``expired`` or ``cancelled``; only a
    conditional ``UPDATE ... WHERE status = 'open'`` moves it on, so it happens once."""

    __tablename__ = "seeks"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'paired', 'expired', 'cancelled')",
                        name="ck_seeks_status"),
        Index("ix_seeks_pool_open", "pool", "status", "created_at"),
        Index("ix_seeks_status_expires", "status", "expires_at"),
        Index("ix_seeks_user_status", "user_id", "status"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(64))
    seats: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    rating_min: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating_max: Mapped[int | None] = mapped_column(Integer, nullable=True)
    pool: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="open", server_default="open")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    game_id: Mapped[int | None] = mapped_column(
        Id, ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
