"""Rematches: the same table again, one click away.

``POST /api/games/{id}/rematch`` (a player of the finished game) opens a new game with the same
game, options, seat count, time control and bots in the same seats, and a new seed. The player
who asked sits in their old seat; every other human of the old game keeps their old seat as an
*invitation* (``seats.invited``): the seat is theirs (nobody else can join it) until they accept
or decline. A game has at most one rematch (``games.rematch_of`` is unique): asking again, or a
second player asking at the same time, gets the same game (200 instead of 201).

``/accept`` keeps the seat; ``/decline`` frees it, and the rematch becomes an ordinary open game
that anyone may join and its creator starts. Both are told as an invitation's answers are
(``app/invites.py``): the others' pages refresh, a decline notifies the creator. As soon as no seat is invited or empty the game
starts by itself (at once when the old game had a single human).

Each invited player gets an ``invitation`` notice (email, push: their choices apply), queued
through the outbox in the transaction that creates the rematch.
"""

from __future__ import annotations

import logging
from collections import Counter

import engine

from . import quotas
from .auth import UserInfo
from .db import Database
from .refusal import not_found
from .signals import Notify

log = logging.getLogger("menagerie.rematch")


class RematchService:
    """The rules of rematches; the games' tables are the game store's
    (``app/games/store_rematch.py``), which also drops the cached game it changes."""

    def __init__(self, db: Database, games, signals=None, settings=None) -> None:
        self.db = db
        self.settings = settings  # the quotas of app.quotas (None: no quota, for tools)
        self.games = games  # app.games.GameService
        self.signals = signals  # wakes the outbox after an invitation

    @property
    def store(self):
        return self.games.store

    async def rematch(self, user: UserInfo, game_id: int) -> tuple[dict, bool]:
        """The rematch of a finished game, created on the first call: (summary, created)."""
        settings = self.settings

        def quota(active: int, bot_seats: Counter, bots: Counter,
                  time_control: dict | None) -> None:
            quotas.check_new_game(settings, active, bot_seats, bots, time_control)

        def invitation(new_id: int, game: str, invited: tuple[int, ...]) -> dict:
            return Notify("invitation", new_id, game, engine.title_of(game), invited,
                          user.username).payload()

        new_id, created = await self.store.create_rematch(
            game_id, user.id, quota if settings is not None else None, invitation)
        if not created:
            return await self.summary(new_id, user), False
        log.info("game %s: rematch %s created by %s", game_id, new_id, user.username)
        if self.signals is not None:
            self.signals.wake_outbox()
        await self._start_if_ready(new_id)
        return await self.summary(new_id, user), True

    async def accept(self, user: UserInfo, game_id: int) -> dict:
        """Keep the seat; the others are told (their pages refresh), and the game starts once
        nobody is left to wait for (as an invitation's accept: app/invites.py)."""
        done = await self.store.answer_invite(game_id, user.id, accept=True)
        creator = done.created_by
        await self.games.tell_users(game_id, done.game,
                                    [*done.others, *([creator] if creator else [])],
                                    "accepted", user.username)
        await self._start_if_ready(game_id)
        return await self.summary(game_id, user)

    async def decline(self, user: UserInfo, game_id: int) -> dict:
        """Free the seat (the decliner's open sockets of this game stop being that seat's, in
        every process); the rematch's creator gets an ``invitation_declined`` notice (email,
        push: their choices apply) and their pages a ``declined`` toast."""

        def declined(game: str, users: list[int]) -> dict:
            return Notify.payload_for("invitation_declined", game_id, game,
                                      engine.title_of(game), users, user.username)

        done = await self.store.answer_invite(game_id, user.id, accept=False, declined=declined)
        if self.signals is not None:
            self.signals.wake_outbox()
        creator = done.created_by
        await self.games.tell_users(game_id, done.game, [creator] if creator else [],
                                    "declined", user.username)
        return await self.summary(game_id, user)

    async def _start_if_ready(self, game_id: int) -> None:
        """Start an open rematch once every seat is taken and nobody is still invited."""
        await self.games.start_if_ready(game_id)

    async def summary(self, game_id: int, user: UserInfo | None) -> dict:
        """The lobby summary plus ``rematch_of`` and the seats still ``invited``."""
        out = await self.games.summary(game_id, user)
        out["rematch_of"], out["invited"] = await self.store.rematch_fields(game_id)
        return out

    async def of_game(self, game_id: int, user: UserInfo | None) -> dict:
        if not await self.store.game_exists(game_id):
            raise not_found("game")
        existing = await self.store.rematch_of_id(game_id)
        return {"rematch": await self.summary(existing, user) if existing is not None else None}

    async def invitations(self, user: UserInfo) -> list[dict]:
        ids = await self.store.invitations_of(user.id)
        return [await self.summary(gid, user) for gid in ids]
