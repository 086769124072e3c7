"""Reads of games and seats (a game's row, the lists and their seats, the log a page at a time,
what the scheduler and the bots look for): part of :class:`~.store.SqlGameStore`, the one seam
to the database for games, actions and snapshots."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import defer

from .. import auth_store, prefs_store, times
from ..db import Database
from ..models import ActionRecord, Game, Seat


class ReadRows:
    """Reads of the games' rows (``self.db``: the database)."""

    db: Database  # set by SqlGameStore

    async def game_row(self, game_id: int, *, state: bool) -> Game | None:
        async with self.db.read() as s:
            q = select(Game).where(Game.id == game_id)
            if not state:
                q = q.options(defer(Game.state))
            return (await s.execute(q)).scalar_one_or_none()

    async def summaries(self, rows: list[Game]) -> tuple[dict[int, list[dict[str, Any]]], dict[int, str]]:
        """The seats of each game (with usernames) and the creators' names."""
        ids = [r.id for r in rows]
        if not ids:
            return {}, {}
        async with self.db.read() as s:
            seat_rows = (await s.execute(
                select(Seat.game_id, Seat.seat, Seat.bot, Seat.user_id, Seat.away, Seat.invited,
                       Seat.resigned, auth_store.username_of(Seat.user_id).label("username"))
                .where(Seat.game_id.in_(ids)).order_by(Seat.game_id, Seat.seat))).all()
            creator_ids = {r.created_by for r in rows if r.created_by is not None}
            names = await auth_store.usernames(s, creator_ids)
        seats: dict[int, list[dict[str, Any]]] = {gid: [] for gid in ids}
        for r in seat_rows:
            seats[r.game_id].append({
                "seat": r.seat,
                "user": ({"id": r.user_id, "username": r.username}
                         if r.user_id is not None else None),
                "bot": r.bot,
                "away": bool(r.away),
                "invited": bool(r.invited),
                "resigned": r.resigned is not None,
            })
        return seats, names

    async def list_rows(self, status: str | None, user_id: int | None, limit: int,
                        offset: int) -> list[Game]:
        """Games newest first; ``user_id``: only that user's games (all of them, up to
        ``limit``, for the caller to order); else every game but the sealed ones (private to
        their players: app/redaction.py)."""
        async with self.db.read() as s:
            q = select(Game).options(defer(Game.state))
            if status:
                q = q.where(Game.status == status)
            if user_id is not None:
                q = q.join(Seat, Seat.game_id == Game.id).where(Seat.user_id == user_id)
            else:
                q = q.where(Game.sealed_until.is_(None) | (Game.sealed_until <= times.utcnow()),
                            Game.unlisted.is_(False))  # games for invited players: app/invites.py
            q = q.order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit).offset(offset)
            return list((await s.execute(q)).scalars().all())

    async def confirm_count(self, game_id: int) -> int:
        """How many confirm rows the game's log has (app/games/bots.py ``bot_choice``)."""
        async with self.db.read() as s:
            return int(await s.scalar(select(func.count()).select_from(ActionRecord).where(
                ActionRecord.game_id == game_id, ActionRecord.kind == "confirm")) or 0)

    async def confirms_turns(self, user_id: int) -> bool:
        """The user's "Confirm turn" preference (``confirm_turn`` among the notification
        preferences, app/notify/prefs.py): on unless the user turned it off."""
        async with self.db.read() as s:
            return await prefs_store.choice(s, user_id, "confirm_turn") is not False

    async def seat_of(self, game_id: int, user_id: int) -> int | None:
        async with self.db.read() as s:
            return await s.scalar(select(Seat.seat).where(Seat.game_id == game_id,
                                                          Seat.user_id == user_id))

    async def log_rows(self, game_id: int, after: int,
                       limit: int) -> tuple[int | None, Any, list[Any]]:
        """The game's version (None: no such game), its ``sealed_until`` and up to ``limit``
        log rows after ``after``."""
        async with self.db.read() as s:
            found = (await s.execute(select(Game.version, Game.sealed_until)
                                     .where(Game.id == game_id))).first()
            if found is None:
                return None, None, []
            version, sealed_until = found
            records = (await s.execute(
                select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                       ActionRecord.events, ActionRecord.created_at)
                .where(ActionRecord.game_id == game_id, ActionRecord.version > after)
                .order_by(ActionRecord.version).limit(limit))).all()
        return version, sealed_until, list(records)

    async def sealed_until(self, game_id: int) -> datetime | None:
        """Until when the game is private to its players (None: not sealed, or no such game)."""
        async with self.db.read() as s:
            return await s.scalar(select(Game.sealed_until).where(Game.id == game_id))

    async def version_status(self, game_id: int) -> tuple[int, str] | None:
        async with self.db.read() as s:
            row = (await s.execute(select(Game.version, Game.status)
                                   .where(Game.id == game_id))).first()
        return None if row is None else (row.version, row.status)

    async def games_waiting_for_bots(self) -> list[int]:
        async with self.db.read() as s:
            rows = (await s.execute(
                select(Game.id, Game.waiting_for, Seat.seat)
                .join(Seat, Seat.game_id == Game.id)
                .where(Game.status == "running",
                       Seat.bot.is_not(None) | Seat.away.is_(True)))).all()
        return sorted({r.id for r in rows if r.seat in (r.waiting_for or [])})

    async def expired_games(self, now: datetime, limit: int) -> list[int]:
        """Running games whose earliest deadline has passed (the scheduler's one query)."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(Game.id).where(Game.status == "running",
                                      Game.turn_deadline.is_not(None),
                                      Game.turn_deadline <= now)
                .order_by(Game.turn_deadline).limit(limit))).scalars().all())
