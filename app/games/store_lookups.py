"""The games' tables as the other domains read them (the chat, the ratings, the notices, the
analysis): part of :class:`~.store.SqlGameStore`, the one owner of games, seats, actions and
snapshots (issue #34.4, docs/codehealth.md "one owner per table").

A read that must see what the caller's transaction sees (a chat line's checks, the outbox's
batch, the ratings' locked game) takes that transaction's ``session``; without one it reads in
a transaction of its own. Either way it is one statement (or two) as before: no round trip is
added to the callers' transactions."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from sqlalchemy import and_, func, select, update

from ..auth_store import lock_user
from ..db import Database
from ..models import ActionRecord, Game, Seat


class Standing(NamedTuple):
    """A game as the chat sees it: its status, its seal, whether the viewer sits in it."""

    status: str
    sealed_until: datetime | None
    seated: bool


async def creator_load(session: Any, creator: int) -> tuple[int, Counter[str]]:
    """The creator's unfinished games (of their own making: games dealt by the server, such as
    the daily challenge's, do not count) and their bot seats by kind, counted in ``session``
    (the write transaction that creates the game, or a seek) with the creator's row locked,
    so two creations by one user queue (SQLite has one writer at a time anyway). Game
    creation, rematches and seeks all count through here (the quotas: app/quotas.py)."""
    await lock_user(session, creator)
    unfinished = ((Game.created_by == creator) & (Game.status != "finished")
                  & (Game.source == "play"))
    active = await session.scalar(select(func.count()).select_from(Game).where(unfinished))
    rows = (await session.execute(
        select(Seat.bot, func.count()).join(Game, Game.id == Seat.game_id)
        .where(unfinished, Seat.bot.is_not(None)).group_by(Seat.bot))).all()
    return int(active or 0), Counter({kind: n for kind, n in rows})


class Finished(NamedTuple):
    """A finished game as the daily challenge settles its attempts."""

    result: Any
    clock: Any
    time_control: Any
    updated_at: datetime
    seats: dict[int, int]  #: user id -> seat


class Lookups(Protocol):
    """What :class:`LookupRows` offers (a part of :class:`~.store.GameStore`)."""

    async def creator_load(self, creator: int, session: Any) -> tuple[int, Counter[str]]: ...
    async def standing(self, game_id: int, user_id: int | None,
                       session: Any = None) -> Standing | None: ...
    async def seated_users(self, game_id: int, session: Any = None) -> set[int]: ...
    async def game_name(self, game_id: int, session: Any = None) -> str | None: ...
    async def for_rating(self, game_id: int, session: Any) -> tuple[Game | None, list[Seat]]: ...
    async def mark_rated(self, game_id: int, session: Any) -> None: ...
    async def rated_among(self, game_ids: Iterable[int], session: Any) -> list[int]: ...
    async def for_analysis(self, game_id: int, session: Any) -> tuple[Game | None, list[Any]]: ...
    async def reminders_due(self, now: datetime, soon: datetime,
                            session: Any = None) -> list[Any]: ...
    async def players_of(self, game_ids: list[int],
                         session: Any) -> tuple[list[Any], dict[int, set[int]]]: ...
    async def moved_since(self, game_id: int, user_id: int, since: datetime,
                          session: Any) -> bool: ...
    async def turns_of(self, user_id: int, session: Any = None) -> list[Any]: ...
    async def statuses(self, game_ids: Iterable[int], session: Any) -> dict[int, str]: ...
    async def finished_play_count(self, user_id: int, session: Any) -> int: ...
    async def finished_among(self, game_ids: Iterable[int],
                             session: Any) -> dict[int, Finished]: ...
    async def add_paired_game(self, fields: dict[str, Any], players: list[int],
                              session: Any) -> int: ...
    async def open_among(self, game_ids: Any, limit: int,
                         session: Any = None) -> list[tuple[int, int | None]]: ...
    async def creator_of(self, game_id: int, session: Any = None) -> int | None: ...


class LookupRows:
    """The reads (and the one flag, ``rated``) of the games' tables by other domains."""

    db: Database  # set by SqlGameStore

    @contextlib.asynccontextmanager
    async def _reading(self, session: Any) -> AsyncIterator[Any]:
        """``session`` itself, or a read transaction of its own."""
        if session is not None:
            yield session
        else:
            async with self.db.read() as s:
                yield s

    async def creator_load(self, creator: int, session: Any) -> tuple[int, Counter[str]]:
        """:func:`creator_load` in the caller's ``session`` (a seek's)."""
        return await creator_load(session, creator)

    # ------------------------------------------------------------------ the chat
    async def standing(self, game_id: int, user_id: int | None,
                       session: Any = None) -> Standing | None:
        """The game's status, seal and whether ``user_id`` sits in it (None: no such game)."""
        async with self._reading(session) as s:
            found = (await s.execute(select(Game.status, Game.sealed_until)
                                     .where(Game.id == game_id))).first()
            if found is None:
                return None
            seated = False
            if user_id is not None:
                seated = await s.scalar(
                    select(Seat.seat).where(Seat.game_id == game_id, Seat.user_id == user_id)
                    .limit(1)) is not None
        return Standing(found.status, found.sealed_until, seated)

    async def seated_users(self, game_id: int, session: Any = None) -> set[int]:
        """The users seated in the game."""
        async with self._reading(session) as s:
            return {u for u in (await s.execute(select(Seat.user_id).where(
                Seat.game_id == game_id, Seat.user_id.is_not(None)))).scalars().all()
                if u is not None}

    async def game_name(self, game_id: int, session: Any = None) -> str | None:
        """The game's name (``arknova``...; None: no such game)."""
        async with self._reading(session) as s:
            name: str | None = await s.scalar(select(Game.game).where(Game.id == game_id))
        return name

    # ------------------------------------------------------------------ the ratings
    async def for_rating(self, game_id: int, session: Any) -> tuple[Game | None, list[Seat]]:
        """The game's row locked (``FOR UPDATE``: each game is rated once) in the ratings'
        ``session``, and its seats in seat order (``None, []``: no such game; no seats read
        for a game rated already)."""
        row = (await session.execute(select(Game).where(Game.id == game_id)
                                     .with_for_update())).scalar_one_or_none()
        if row is None or row.rated:
            return row, []
        seats = (await session.execute(select(Seat).where(Seat.game_id == game_id)
                                       .order_by(Seat.seat))).scalars().all()
        return row, list(seats)

    async def mark_rated(self, game_id: int, session: Any) -> None:
        """The game is rated (``games.rated``), in the ratings' ``session`` with its ratings."""
        await session.execute(update(Game).where(Game.id == game_id).values(rated=True))

    async def rated_among(self, game_ids: Iterable[int], session: Any) -> list[int]:
        """Which of the games are rated, in id order (the outbox's ``session``: after the
        ratings' listener)."""
        return list((await session.execute(select(Game.id).where(
            Game.id.in_(sorted(set(game_ids))), Game.rated.is_(True)))).scalars().all())

    # ------------------------------------------------------------------ the analysis
    async def for_analysis(self, game_id: int, session: Any) -> tuple[Game | None, list[Any]]:
        """The game's row and its whole log (``version, seat, action, kind`` in order), in the
        analysis worker's ``session`` (``None, []``: no such game)."""
        game = await session.get(Game, game_id)
        if game is None:
            return None, []
        records = (await session.execute(
            select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                   ActionRecord.kind)
            .where(ActionRecord.game_id == game_id)
            .order_by(ActionRecord.version))).all()
        return game, list(records)

    # ------------------------------------------------------------------ the notices
    async def reminders_due(self, now: datetime, soon: datetime, session: Any = None) -> list[Any]:
        """``id, game, version, waiting_for, turn_deadline, seat, user_id`` of each person's
        seat in a running game whose deadline falls in ``(now, soon]``."""
        async with self._reading(session) as s:
            return list((await s.execute(
                select(Game.id, Game.game, Game.version, Game.waiting_for, Game.turn_deadline,
                       Seat.seat, Seat.user_id)
                .join(Seat, Seat.game_id == Game.id)
                .where(Game.status == "running", Game.turn_deadline.is_not(None),
                       Game.turn_deadline > now, Game.turn_deadline <= soon,
                       Seat.user_id.is_not(None), Seat.bot.is_(None)))).all())

    async def players_of(self, game_ids: list[int],
                         session: Any) -> tuple[list[Any], dict[int, set[int]]]:
        """``id, game, version`` of the games, and the people seated in each (``{game id:
        {user ids}}``, bots' seats not counted), in the outbox's ``session``."""
        games = list((await session.execute(
            select(Game.id, Game.game, Game.version).where(Game.id.in_(game_ids)))).all())
        people: dict[int, set[int]] = {}
        for game_id, user_id in (await session.execute(select(Seat.game_id, Seat.user_id).where(
                Seat.game_id.in_(game_ids), Seat.user_id.is_not(None),
                Seat.bot.is_(None)))).all():
            people.setdefault(game_id, set()).add(user_id)
        return games, people

    async def moved_since(self, game_id: int, user_id: int, since: datetime,
                          session: Any) -> bool:
        """Whether ``user_id``'s seat in the game has a log row made after ``since``."""
        return await session.scalar(
            select(ActionRecord.id)
            .join(Seat, (Seat.game_id == ActionRecord.game_id)
                  & (Seat.seat == ActionRecord.seat))
            .where(ActionRecord.game_id == game_id,
                   Seat.user_id == user_id, ActionRecord.created_at > since)
            .limit(1)) is not None

    async def turns_of(self, user_id: int, session: Any = None) -> list[Any]:
        """``id, game, waiting_for, updated_at, seat`` of the user's seats in running games,
        the least recently changed game first."""
        async with self._reading(session) as s:
            return list((await s.execute(
                select(Game.id, Game.game, Game.waiting_for, Game.updated_at, Seat.seat)
                .join(Seat, Seat.game_id == Game.id)
                .where(Seat.user_id == user_id, Game.status == "running")
                .order_by(Game.updated_at))).all())

    # ------------------------------------------------------------------ the daily challenge
    async def statuses(self, game_ids: Iterable[int], session: Any) -> dict[int, str]:
        """``{game id: status}`` of those of the games that exist."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        return {i: status for i, status in (await session.execute(
            select(Game.id, Game.status).where(Game.id.in_(ids)))).all()}

    async def finished_play_count(self, user_id: int, session: Any) -> int:
        """How many games the user sat in and played to the end (not daily, not imported:
        ``source = 'play'``)."""
        return int(await session.scalar(
            select(func.count(func.distinct(Game.id))).select_from(Game)
            .join(Seat, Seat.game_id == Game.id)
            .where(Seat.user_id == user_id, Game.status == "finished",
                   Game.source == "play")) or 0)

    async def finished_among(self, game_ids: Iterable[int],
                             session: Any) -> dict[int, Finished]:
        """The finished ones of the games: their result, clock, time control, last change and
        who sat where (``{game id: Finished}``)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        out: dict[int, Finished] = {}
        for r in (await session.execute(
                select(Game.id, Game.result, Game.clock, Game.time_control, Game.updated_at,
                       Seat.user_id, Seat.seat)
                .outerjoin(Seat, and_(Seat.game_id == Game.id, Seat.user_id.is_not(None)))
                .where(Game.id.in_(ids), Game.status == "finished"))).all():
            found = out.setdefault(r.id, Finished(r.result, r.clock, r.time_control,
                                                  r.updated_at, {}))
            if r.user_id is not None:
                found.seats[r.user_id] = r.seat
        return out

    # ------------------------------------------------------------------ quick match
    async def add_paired_game(self, fields: dict[str, Any], players: list[int],
                              session: Any) -> int:
        """A pairing's game (``fields`` of its row) and its seats (``players[i]`` in seat
        ``i``), added to the caller's ``session`` (the pairing's transaction, which claims the
        seeks and commits) and flushed: the game's id."""
        row = Game(**fields)
        session.add(row)
        await session.flush()
        for seat, user_id in enumerate(players):
            session.add(Seat(game_id=row.id, seat=seat, user_id=user_id, bot=None))
        return int(row.id)

    async def open_among(self, game_ids: Any, limit: int,
                         session: Any = None) -> list[tuple[int, int | None]]:
        """``(game id, creator id)`` of up to ``limit`` open games among ``game_ids`` (ids, or
        a select of ids: the pairings' whose game a crash left unstarted)."""
        async with self._reading(session) as s:
            return [(r[0], r[1]) for r in (await s.execute(
                select(Game.id, Game.created_by)
                .where(Game.id.in_(game_ids), Game.status == "open").limit(limit))).all()]

    async def creator_of(self, game_id: int, session: Any = None) -> int | None:
        """Who created the game (None: nobody, or no such game)."""
        async with self._reading(session) as s:
            found: int | None = await s.scalar(select(Game.created_by)
                                               .where(Game.id == game_id))
        return found
