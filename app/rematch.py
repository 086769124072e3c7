"""Rematches: the same table again, one click away.

``POST /api/games/{id}/rematch`` (a player of the finished game) opens a new game with the same
game, options, seat count, time control and bots in the same seats, and a new seed. The player
who asked sits in their old seat; every other human of the old game keeps their old seat as an
*invitation* (``seats.invited``): the seat is theirs (nobody else can join it) until they accept
or decline. A game has at most one rematch (``games.rematch_of`` is unique): asking again, or a
second player asking at the same time, gets the same game (200 instead of 201).

``/accept`` keeps the seat; ``/decline`` frees it, and the rematch becomes an ordinary open game
that anyone may join and its creator starts. As soon as no seat is invited or empty the game
starts by itself (at once when the old game had a single human).

Each invited player gets an ``invitation`` notice (email, push: their choices apply), queued
through the outbox in the transaction that creates the rematch.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

import engine

from . import quotas
from .auth import UserInfo
from .db import Database
from .models import Game, Seat, User
from .models_delivery import OutboxEvent
from .refusal import Refusal, not_found
from .signals import Notify
from .times import utcnow

log = logging.getLogger("menagerie.rematch")


class RematchService:
    def __init__(self, db: Database, games, signals=None, settings=None) -> None:
        self.db = db
        self.settings = settings  # the quotas of app.quotas (None: no quota, for tools)
        self.games = games  # app.games.GameService
        self.signals = signals  # wakes the outbox after an invitation

    async def _existing(self, game_id: int) -> int | None:
        async with self.db.read() as s:
            return await s.scalar(select(Game.id).where(Game.rematch_of == game_id))

    async def rematch(self, user: UserInfo, game_id: int) -> tuple[dict, bool]:
        """The rematch of a finished game, created on the first call: (summary, created)."""
        async with self.db.write() as s:
            old = (await s.execute(select(Game).where(Game.id == game_id).with_for_update())
                   ).scalar_one_or_none()
            if old is None:
                raise not_found("game")
            seats = (await s.execute(select(Seat).where(Seat.game_id == game_id)
                                     .order_by(Seat.seat))).scalars().all()
            if not any(x.user_id == user.id for x in seats):
                raise Refusal("no_seat", "You have no seat in this game.")
            if old.status != "finished":
                raise Refusal("not_finished", "A rematch can follow only a finished game.")
            existing = await s.scalar(select(Game.id).where(Game.rematch_of == game_id))
            if existing is None:
                if self.settings is not None:  # the same quotas as creating a game
                    await quotas.enforce_new_game(
                        s, self.settings, user.id, Counter(x.bot for x in seats if x.bot),
                        old.time_control)
                now = utcnow()
                new = Game(game=old.game, options=old.options, seed=secrets.token_hex(16),
                           seat_count=old.seat_count, status="open", version=0, state=None,
                           waiting_for=[], created_by=user.id, created_at=now, updated_at=now,
                           time_control=old.time_control, rematch_of=game_id,
                           hints=old.hints)
                s.add(new)
                try:
                    await s.flush()
                    invited = []
                    for x in seats:
                        mine = x.user_id == user.id
                        ask = x.bot is None and x.user_id is not None and not mine
                        s.add(Seat(game_id=new.id, seat=x.seat, bot=x.bot,
                                   user_id=x.user_id if x.bot is None else None, invited=ask))
                        if ask:
                            invited.append(x.user_id)
                    if invited:
                        title = engine.title_of(old.game)
                        s.add(OutboxEvent(kind="notice", game_id=new.id, version=0,
                                          payload=Notify("invitation", new.id, old.game, title,
                                                         tuple(sorted(set(invited))),
                                                         user.username).payload()))
                    await s.commit()
                except IntegrityError:  # another player asked at the same moment
                    await s.rollback()
                    existing = await self._existing(game_id)
                    if existing is None:  # pragma: no cover - the unique index says otherwise
                        raise
                else:
                    new_id = new.id
        if existing is not None:
            return await self.summary(existing, user), False
        log.info("game %s: rematch %s created by %s", game_id, new_id, user.username)
        if self.signals is not None:
            self.signals.wake_outbox()
        await self._start_if_ready(new_id)
        return await self.summary(new_id, user), True

    async def _seat_for(self, s, game_id: int, user: UserInfo) -> tuple[Game, Seat]:
        row = (await s.execute(select(Game).where(Game.id == game_id).with_for_update())
               ).scalar_one_or_none()
        if row is None:
            raise not_found("game")
        seat = (await s.execute(select(Seat).where(Seat.game_id == game_id,
                                                   Seat.user_id == user.id))).scalar_one_or_none()
        if seat is None or not seat.invited:
            raise Refusal("not_invited", "You have no invitation to this game.")
        if row.status != "open":  # pragma: no cover - invitations end when the game starts
            raise Refusal("not_open", "This game has already started.")
        return row, seat

    async def accept(self, user: UserInfo, game_id: int) -> dict:
        async with self.db.write() as s:
            row, seat = await self._seat_for(s, game_id, user)
            seat.invited = False
            row.updated_at = utcnow()
            await s.commit()
        self.games.cache.drop(game_id)
        await self._start_if_ready(game_id)
        return await self.summary(game_id, user)

    async def decline(self, user: UserInfo, game_id: int) -> dict:
        async with self.db.write() as s:
            row, seat = await self._seat_for(s, game_id, user)
            seat.invited = False
            seat.user_id = None
            row.updated_at = utcnow()
            await self.games.seats_changed(game_id, s)
            await s.commit()
        self.games.cache.drop(game_id)
        # the decliner's open sockets of this game stop being that seat's, in every process
        await self.games.seats_changed(game_id)
        return await self.summary(game_id, user)

    async def _start_if_ready(self, game_id: int) -> None:
        """Start an open rematch once every seat is taken and nobody is still invited."""
        async with self.db.read() as s:
            row = (await s.execute(select(Game.status, Game.created_by, User.username)
                                   .outerjoin(User, User.id == Game.created_by)
                                   .where(Game.id == game_id))).first()
            pending = await s.scalar(select(Seat.seat).where(
                Seat.game_id == game_id,
                (Seat.invited.is_(True)) | (Seat.user_id.is_(None) & Seat.bot.is_(None)))
                .limit(1))
        if row is None or row.status != "open" or pending is not None or row.created_by is None:
            return
        try:
            await self.games.start(UserInfo(row.created_by, row.username or ""), game_id)
        except Refusal as exc:
            if exc.code != "not_open":  # another accept started it a moment earlier
                raise

    async def summary(self, game_id: int, user: UserInfo | None) -> dict:
        """The lobby summary plus ``rematch_of`` and the seats still ``invited``."""
        out = await self.games.summary(game_id, user)
        async with self.db.read() as s:
            out["rematch_of"] = await s.scalar(select(Game.rematch_of).where(Game.id == game_id))
            out["invited"] = list((await s.execute(
                select(Seat.seat).where(Seat.game_id == game_id, Seat.invited.is_(True))
                .order_by(Seat.seat))).scalars().all())
        return out

    async def of_game(self, game_id: int, user: UserInfo | None) -> dict:
        async with self.db.read() as s:
            if await s.scalar(select(Game.id).where(Game.id == game_id)) is None:
                raise not_found("game")
        existing = await self._existing(game_id)
        return {"rematch": await self.summary(existing, user) if existing is not None else None}

    async def invitations(self, user: UserInfo) -> list[dict]:
        async with self.db.read() as s:
            ids = (await s.execute(
                select(Game.id).join(Seat, Seat.game_id == Game.id)
                .where(Seat.user_id == user.id, Seat.invited.is_(True), Game.status == "open")
                .order_by(Game.updated_at.desc(), Game.id.desc()).limit(100))).scalars().all()
        return [await self.summary(gid, user) for gid in ids]
