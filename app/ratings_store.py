"""Storage of the ratings (app/ratings.py says how they are computed): all the SQL of the
``ratings`` and ``rating_history`` tables. A game's new ratings, their history rows and the
game's ``rated`` flag (the game store's: ``app/games/store_lookups.py``) are written in one
transaction, the ratings' rows locked (``FOR UPDATE``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from . import auth_store
from .db import Database
from .models import Rating, RatingHistory


class RatingTx:
    """One write session of the ratings (the outbox's, or one of :meth:`RatingStore.writing`
    that the caller commits)."""

    def __init__(self, session: Any) -> None:
        self.s = session

    @property
    def session(self) -> Any:
        """The transaction, for the game store's reads and writes made in it."""
        return self.s

    async def locked(self, game: str, users: list[int]) -> dict[int, Rating]:
        """The stored ratings of these users in the game, locked, by user id."""
        return {r.user_id: r for r in (await self.s.execute(
            select(Rating).where(Rating.game == game, Rating.user_id.in_(users))
            .order_by(Rating.user_id).with_for_update())).scalars().all()}

    def put(self, stored: dict[int, Rating], user_id: int, game: str, game_id: int,
            rating: float, rd: float, volatility: float, now: datetime) -> None:
        """The user's new rating in the game after ``game_id`` (one more game played), and its
        history row; ``stored``: :meth:`locked`'s, completed with a new row if need be."""
        r = stored.get(user_id)
        if r is None:
            r = stored[user_id] = Rating(user_id=user_id, game=game, games=0)
            self.s.add(r)
        r.rating, r.rd, r.volatility = rating, rd, volatility
        r.games = (r.games or 0) + 1
        r.updated_at = now
        self.s.add(RatingHistory(user_id=user_id, game=game, game_id=game_id,
                                 rating=rating, rd=rd, created_at=now))

    async def flush(self) -> None:
        await self.s.flush()

    async def commit(self) -> None:
        await self.s.commit()


async def ratings_of(s: Any, game: str, user_ids: list[int]) -> dict[int, float]:
    """``{user id: rating}`` of those of these users rated in ``game`` (in the caller's
    session: quick match's pairing)."""
    if not user_ids:
        return {}
    rows = (await s.execute(select(Rating.user_id, Rating.rating).where(
        Rating.game == game, Rating.user_id.in_(user_ids)))).all()
    return {u: float(r) for u, r in rows}


class RatingStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    def tx(session: Any) -> RatingTx:
        """The ratings in a transaction the caller holds (the outbox's)."""
        return RatingTx(session)

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[RatingTx]:
        async with self.db.write() as s:
            yield RatingTx(s)

    async def leaderboard(self, game: str, limit: int,
                          offset: int) -> tuple[int, list[tuple[Rating, str]]]:
        """How many players the game's leaderboard has, and a page of it (rating, username),
        best first."""
        async with self.db.read() as s:
            total = await s.scalar(select(func.count()).select_from(Rating)
                                   .where(Rating.game == game))
            rows = (await s.execute(
                select(Rating, auth_store.username_of(Rating.user_id))
                .where(Rating.game == game)
                .order_by(Rating.rating.desc(), Rating.user_id).limit(limit).offset(offset))).all()
        return int(total or 0), [(r, name) for r, name in rows]

    async def of_user(self, username: str) -> tuple[Any, list[tuple[Rating, int]]] | None:
        """The user of that name (``id, username, created_at``) and their ratings by game,
        each with how many players of that game rate higher (None: no such user)."""
        async with self.db.read() as s:
            user = await auth_store.named(s, username.lower())
            if user is None:
                return None
            rows = (await s.execute(select(Rating).where(Rating.user_id == user.id)
                                    .order_by(Rating.game))).scalars().all()
            out = []
            for r in rows:
                better = await s.scalar(select(func.count()).select_from(Rating).where(
                    Rating.game == r.game, Rating.rating > r.rating))
                out.append((r, int(better or 0)))
        return user, out

    async def history_of(self, user_id: int) -> list[RatingHistory]:
        """The user's rating history rows, by game, the newest first."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(RatingHistory).where(RatingHistory.user_id == user_id)
                .order_by(RatingHistory.game, RatingHistory.id.desc()))).scalars().all())
