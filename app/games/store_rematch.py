"""Rematches in the games' tables (``app/rematch.py`` says what a rematch is): part of
:class:`~.store.SqlGameStore`, the one owner of games and seats. The new game, its seats and
the invitation's outbox row are written in one transaction; the store drops its cached copy of
a game whose seats it changed (the cache handed to the store at construction)."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .. import auth_store, outbox_store
from ..db import Database
from ..models import Game, Seat
from ..refusal import Refusal, not_found, say
from ..times import utcnow
from .store_lookups import creator_load

#: ``quota(active games, their bot seats by kind, the new game's bots by kind, time control)``:
#: refuses a game over the creator's quotas (the load counted by ``creator_load``)
Quota = Callable[[int, Counter[str], Counter[str], dict[str, Any] | None], None]
#: ``invitation(new game id, game name, invited users)``: the outbox payload of the notice
Invitation = Callable[[int, str, tuple[int, ...]], dict[str, Any]]


class Rematched(NamedTuple):
    """The rematch of a game: its id, and whether this call created it."""

    game_id: int
    created: bool


class StartCheck(NamedTuple):
    """What decides whether an open game with invitations starts: its status, its creator, and whether a
    seat is still invited or empty."""

    status: str
    created_by: int | None
    username: str
    pending: bool


async def locked_game(s: Any, game_id: int) -> Game:
    """The game's row, locked for the transaction of ``s``; 404 for no such game."""
    row: Game | None = (await s.execute(
        select(Game).where(Game.id == game_id).with_for_update())).scalar_one_or_none()
    if row is None:
        raise not_found("game")
    return row


async def invited_seat(s: Any, game_id: int, user_id: int) -> tuple[Game, Seat]:
    """The open game (locked) and the seat it keeps for ``user_id``; 403 ``not_invited``."""
    row = await locked_game(s, game_id)
    seat = (await s.execute(select(Seat).where(Seat.game_id == game_id,
                                               Seat.user_id == user_id))).scalar_one_or_none()
    if seat is None or not seat.invited:
        raise Refusal("not_invited", say("not_invited"))
    if row.status != "open":  # pragma: no cover - invitations end when the game starts
        raise Refusal("not_open", say("not_open"))
    return row, seat


class SeatWriter:
    """A part of SqlGameStore that changes seats (``self.db``: the database; ``self.cache``:
    the game cache or None, which the part drops for a game whose seats it changed)."""

    db: Database  # set by SqlGameStore
    cache: Any  # set by SqlGameStore

    if TYPE_CHECKING:  # SqlGameStore's (PgGameStore's: NOTIFY in the transaction)
        async def seats_changed(self, game_id: int, session: Any = None) -> None: ...


class RematchRows(SeatWriter):
    """The rematch's writes and reads."""

    async def rematch_of_id(self, game_id: int) -> int | None:
        """The id of the game's rematch, if there is one."""
        async with self.db.read() as s:
            return await s.scalar(select(Game.id).where(Game.rematch_of == game_id))

    async def create_rematch(self, game_id: int, user_id: int, quota: Quota | None,
                             invitation: Invitation) -> Rematched:
        """The rematch of a finished game where ``user_id`` sits, created on the first call.
        ``quota(active, bot seats, bots by kind, time control)`` runs in the transaction
        first, with the creator's load (``creator_load``, the creator's row locked);
        ``invitation(new id, game name, invited users)`` is the outbox payload of the notice
        to the other humans, added in the same transaction."""
        async with self.db.write() as s:
            old = await locked_game(s, game_id)
            seats = (await s.execute(select(Seat).where(Seat.game_id == game_id)
                                     .order_by(Seat.seat))).scalars().all()
            if not any(x.user_id == user_id for x in seats):
                raise Refusal("no_seat", say("no_seat"))
            if old.status != "finished":
                raise Refusal("not_finished", say("not_finished.rematch"))
            existing = await s.scalar(select(Game.id).where(Game.rematch_of == game_id))
            if existing is not None:
                return Rematched(existing, False)
            if quota is not None:  # the same quotas as creating a game
                quota(*await creator_load(s, user_id), Counter(x.bot for x in seats if x.bot),
                      old.time_control)
            now = utcnow()
            new = Game(game=old.game, options=old.options, seed=secrets.token_hex(16),
                       seat_count=old.seat_count, status="open", version=0, state=None,
                       waiting_for=[], created_by=user_id, created_at=now, updated_at=now,
                       time_control=old.time_control, rematch_of=game_id, hints=old.hints)
            s.add(new)
            try:
                await s.flush()
                invited: list[int] = []
                for x in seats:
                    mine = x.user_id == user_id
                    ask = x.bot is None and x.user_id is not None and not mine
                    s.add(Seat(game_id=new.id, seat=x.seat, bot=x.bot,
                               user_id=x.user_id if x.bot is None else None, invited=ask))
                    if ask and x.user_id is not None:
                        invited.append(x.user_id)
                if invited:
                    outbox_store.notice(s, new.id, invitation(new.id, old.game,
                                                              tuple(sorted(set(invited)))))
                await s.commit()
            except IntegrityError:  # another player asked at the same moment
                await s.rollback()
                existing = await self.rematch_of_id(game_id)
                if existing is None:  # pragma: no cover - the unique index says otherwise
                    raise
                return Rematched(existing, False)
            return Rematched(new.id, True)

    async def start_check(self, game_id: int) -> StartCheck | None:
        """Whether an open game may start by itself (a rematch, an invitation game): its
        status, its creator, whether a seat is still invited or empty."""
        async with self.db.read() as s:
            row = (await s.execute(select(Game.status, Game.created_by,
                                          auth_store.username_of(Game.created_by)
                                          .label("username"))
                                   .where(Game.id == game_id))).first()
            pending = await s.scalar(select(Seat.seat).where(
                Seat.game_id == game_id,
                (Seat.invited.is_(True)) | (Seat.user_id.is_(None) & Seat.bot.is_(None)))
                .limit(1))
        if row is None:
            return None
        return StartCheck(row.status, row.created_by, row.username or "", pending is not None)

    async def rematch_fields(self, game_id: int) -> tuple[int | None, list[int]]:
        """The game this one is a rematch of, and its seats still invited."""
        async with self.db.read() as s:
            of = await s.scalar(select(Game.rematch_of).where(Game.id == game_id))
            invited = list((await s.execute(
                select(Seat.seat).where(Seat.game_id == game_id, Seat.invited.is_(True))
                .order_by(Seat.seat))).scalars().all())
        return of, invited

    async def game_exists(self, game_id: int) -> bool:
        async with self.db.read() as s:
            return await s.scalar(select(Game.id).where(Game.id == game_id)) is not None

    async def invitations_of(self, user_id: int, limit: int = 100) -> list[int]:
        """The open games where ``user_id`` has an invited seat, the latest first."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(Game.id).join(Seat, Seat.game_id == Game.id)
                .where(Seat.user_id == user_id, Seat.invited.is_(True), Game.status == "open")
                .order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit))).scalars().all())
