"""Storage of the follows (issue #33: app/friends.py, app/profile.py): their SQL. A player's
games as a viewer may list them are the game store's reads (app/games/store_people.py: its
``listed_for`` is the one condition every list of *other* players' games applies; the rule is
told in app/redaction.py's docstring); the friends' list hands it the follows' subquery in
this store's read transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from . import auth_store, times
from .db import Database
from .models import Follow


class PeopleStore:
    def __init__(self, db: Database, games: Any) -> None:
        self.db = db
        self.games = games  # the game store (app.games.store): the games' reads

    async def player(self, name: str) -> Any:
        """``(id, username, created_at)`` of the player of that name (any case), or None."""
        async with self.db.read() as s:
            return await auth_store.named(s, name.strip().lower())

    # ------------------------------------------------------------------ follows
    async def follow(self, follower: int, followee: int, limit: int) -> tuple[datetime | None,
                                                                             bool]:
        """Add the follow unless it exists: ``(since, over)``; ``over``: the follower follows
        ``limit`` players already (nothing stored)."""
        async with self.db.write() as s:
            since = await s.scalar(select(Follow.created_at).where(
                Follow.follower_id == follower, Follow.followee_id == followee))
            if since is not None:
                return since, False
            count = await s.scalar(select(func.count()).select_from(Follow)
                                   .where(Follow.follower_id == follower))
            if (count or 0) >= limit:
                return None, True
            since = times.utcnow()
            s.add(Follow(follower_id=follower, followee_id=followee, created_at=since))
            try:
                await s.commit()
            except IntegrityError:  # the same follow at the same moment
                await s.rollback()
            return since, False

    async def unfollow(self, follower: int, followee: int) -> None:
        async with self.db.write() as s:
            await s.execute(delete(Follow).where(Follow.follower_id == follower,
                                                 Follow.followee_id == followee))
            await s.commit()

    async def following(self, follower: int) -> list[Any]:
        """``(id, username, created_at)`` of the players followed, by name."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(Follow.followee_id.label("id"),
                       auth_store.username_of(Follow.followee_id).label("username"),
                       Follow.created_at)
                .where(Follow.follower_id == follower)
                .order_by(auth_store.username_key_of(Follow.followee_id)))).all())

    async def follows(self, follower: int, followee: int) -> bool:
        async with self.db.read() as s:
            return await s.scalar(select(Follow.followee_id).where(
                Follow.follower_id == follower, Follow.followee_id == followee)) is not None

    async def friends_games(self, viewer: int, limit: int) -> tuple[list[Any], set[int]]:
        """The open and running games in which a player ``viewer`` follows sits (not only
        invited) that the viewer may see in a list, the most recently moved first (the game
        store's ``games_seating``, in this read transaction); and the ids of the players
        followed."""
        async with self.db.read() as s:
            friends = select(Follow.followee_id).where(Follow.follower_id == viewer)
            rows = await self.games.games_seating(friends, viewer, limit, s)
            mine = set((await s.execute(friends)).scalars().all())
        return rows, mine
