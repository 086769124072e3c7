"""Invitations in the games' tables (``app/invites.py`` says what an invitation is): part of
:class:`~.store.SqlGameStore`, the one owner of games and seats. An invitation is a seat with
``seats.invited`` set; its outbox notice is written in the transaction that changes the seat,
and the store drops its cached copy of a game whose seats it changed (as
``store_rematch.py`` does)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from sqlalchemy import func, select

from .. import auth_store, outbox_store
from ..models import Game, Seat
from ..refusal import Refusal, say
from ..times import utcnow
from .store_rematch import SeatWriter, invited_seat, locked_game

#: ``choose(session)``: the invited players (id, name) for a game, refusing a bad list; it
#: runs in the store's transaction once the game is locked and known to be the caller's and open
Choose = Callable[[Any], Awaitable[list[tuple[int, str]]]]
#: ``notice(game name, users)``: the outbox payload of a notice about the game
Notice = Callable[[str, list[int]], dict[str, Any]]


class Answered(NamedTuple):
    """A game whose invitation was answered or withdrawn: its name, its creator, and the user
    it concerns (``others``: the other seated players, on an accept)."""

    game: str
    created_by: int | None
    user_id: int
    others: list[int]


class InviteRows(SeatWriter):
    """The invitations' writes and reads."""

    async def users_by_key(self, keys: list[str],
                           session: Any = None) -> dict[str, tuple[int, str]]:
        """``{username key: (id, name)}`` of the users with these keys (lower-case names)."""
        if session is None:
            async with self.db.read() as s:
                return await self.users_by_key(keys, s)
        return {k: (i, n) for i, n, k in await auth_store.users_by_key(session, keys)}

    async def invitations_waiting(self, creator_id: int, session: Any = None) -> int:
        """How many seats of the creator's open games are invited and not answered yet."""
        if session is None:
            async with self.db.read() as s:
                return await self.invitations_waiting(creator_id, s)
        return await session.scalar(
            select(func.count()).select_from(Seat).join(Game, Game.id == Seat.game_id)
            .where(Game.created_by == creator_id, Game.status == "open",
                   Seat.invited.is_(True))) or 0

    async def _changed(self, game_id: int) -> None:
        if self.cache is not None:
            self.cache.drop(game_id)
        await self.seats_changed(game_id)

    async def add_invitations(self, game_id: int, user_id: int, choose: Choose,
                              notice: Notice) -> tuple[str, list[int]]:
        """Keep free seats of the open game ``user_id`` created for the players ``choose``
        names, with a ``notice(game, invited)`` for them in the same transaction: (the game's
        name, the invited users)."""
        async with self.db.write() as s:
            row = await locked_game(s, game_id)
            if row.created_by != user_id:
                raise Refusal("not_creator", say("not_creator.invite"))
            if row.status != "open" or row.source != "play":
                raise Refusal("not_open", say("not_open"))
            people = await choose(s)
            seats = (await s.execute(select(Seat).where(Seat.game_id == game_id)
                                     .order_by(Seat.seat))).scalars().all()
            seated = {x.user_id for x in seats if x.user_id is not None}
            if any(i in seated for i, _ in people):
                raise Refusal("already_seated", say("already_seated.invitee"))
            free = [x for x in seats if x.user_id is None and x.bot is None]
            if len(people) > len(free):
                raise Refusal("too_many_invites",
                              say("too_many_invites.free", free=len(free)),
                              limit=len(free))
            for seat, (uid, _) in zip(free, people):
                seat.user_id, seat.invited = uid, True
            row.updated_at = utcnow()
            invited = [i for i, _ in people]
            outbox_store.notice(s, game_id, notice(row.game, invited))
            await self.seats_changed(game_id, s)
            await s.commit()
            name = row.game
        await self._changed(game_id)
        return name, invited

    async def answer_invite(self, game_id: int, user_id: int, accept: bool,
                            declined: Notice | None = None) -> Answered:
        """Keep (``accept``) or free the invited seat of ``user_id``; on a decline
        ``declined(game, [creator])`` is the outbox payload of the creator's notice, in the
        same transaction. Either way the change is announced to every process."""
        async with self.db.write() as s:
            row, seat = await invited_seat(s, game_id, user_id)
            seat.invited = False
            row.updated_at = utcnow()
            others: list[int] = []
            if accept:
                others = [u for u in (await s.execute(select(Seat.user_id).where(
                    Seat.game_id == game_id, Seat.user_id.is_not(None)))).scalars().all()
                    if u is not None and u != user_id]
            else:
                seat.user_id = None
                if row.created_by is not None and declined is not None:
                    outbox_store.notice(s, game_id, declined(row.game, [row.created_by]))
                await self.seats_changed(game_id, s)
            out = Answered(row.game, row.created_by, user_id, others)
            await s.commit()
        await self._changed(game_id)
        return out

    async def withdraw_invite(self, game_id: int, user_id: int, name: str) -> Answered:
        """The creator ``user_id`` takes back the invitation of the player ``name`` not
        answered yet: the seat is free (``Answered.user_id``: the invitee)."""
        async with self.db.write() as s:
            row = await locked_game(s, game_id)
            if row.created_by != user_id:
                raise Refusal("not_creator",
                              say("not_creator.withdraw"))
            if row.status != "open":
                raise Refusal("not_open", say("not_open"))
            seat = (await s.execute(
                select(Seat).where(Seat.game_id == game_id, Seat.invited.is_(True),
                                   Seat.user_id == auth_store.id_named(name.strip().lower()))
            )).scalar_one_or_none()
            if seat is None:
                raise Refusal("no_invitation", say("no_invitation.name", name=repr(name)),
                              name=name)
            invitee: int = seat.user_id or 0
            seat.invited, seat.user_id = False, None
            row.updated_at = utcnow()
            await self.seats_changed(game_id, s)
            out = Answered(row.game, row.created_by, invitee, [])
            await s.commit()
        await self._changed(game_id)
        return out

    async def invitation_games(self, user_id: int,
                               limit: int = 100) -> tuple[list[Game], list[Game]]:
        """``(received, sent)``: the open games where a seat waits for ``user_id``'s answer,
        and ``user_id``'s open games with invitations not answered yet; the latest first."""
        async with self.db.read() as s:
            received = (await s.execute(
                select(Game).join(Seat, Seat.game_id == Game.id)
                .where(Seat.user_id == user_id, Seat.invited.is_(True), Game.status == "open")
                .order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit))).scalars().all()
            sent = (await s.execute(
                select(Game).where(Game.created_by == user_id, Game.status == "open",
                                   Game.id.in_(select(Seat.game_id)
                                               .where(Seat.invited.is_(True))))
                .order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit))).scalars().all()
        return list(received), list(sent)
