"""Friends: players a player follows (issue #33, item 4).

Following is one-sided (like lichess): ``PUT /api/me/following/{name}`` adds a player to the
caller's friends list, ``DELETE`` takes them off; the followed player is not told. The lobby
shows what the caller's friends are playing: their open and running games, each only when the
caller may see it in a list (:func:`app.redaction.listed_for`: neither a sealed game, a daily
challenge's until its day is over, nor an unlisted one, unless the caller has a seat in it).

Limits: ``max_follows_per_user`` players (409 ``follow_quota``) and follows per user per hour
(``app/ratelimit.py``, the route checks it).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from . import redaction
from .auth import UserInfo
from .db import Database
from .models import Follow, Game, Seat, User
from .refusal import Refusal
from .settings import Settings
from .times import iso, utcnow

#: most friends' games one list shows
MAX_GAMES = 50


class FriendService:
    def __init__(self, db: Database, games: Any, settings: Settings) -> None:
        self.db = db
        self.games = games  # app.games.GameService
        self.settings = settings

    async def _player(self, s, name: str) -> tuple[int, str]:
        found = (await s.execute(select(User.id, User.username).where(
            User.username_key == name.strip().lower()))).first()
        if found is None:
            raise Refusal("unknown_player", f"There is no player named {name!r}.", name=name)
        return found.id, found.username

    async def follow(self, user: UserInfo, name: str) -> dict:
        """Follow a player (again: no change): ``{"user", "since"}``."""
        async with self.db.write() as s:
            uid, username = await self._player(s, name)
            if uid == user.id:
                raise Refusal("cannot_follow_self", "You cannot follow yourself.")
            since = await s.scalar(select(Follow.created_at).where(
                Follow.follower_id == user.id, Follow.followee_id == uid))
            if since is None:
                count = await s.scalar(select(func.count()).select_from(Follow)
                                       .where(Follow.follower_id == user.id))
                limit = self.settings.max_follows_per_user
                if (count or 0) >= limit:
                    raise Refusal("follow_quota", f"You follow {limit} players already.",
                                  limit=limit)
                since = utcnow()
                s.add(Follow(follower_id=user.id, followee_id=uid, created_at=since))
                try:
                    await s.commit()
                except IntegrityError:  # the same follow at the same moment
                    await s.rollback()
        return {"user": {"id": uid, "username": username}, "since": iso(since)}

    async def unfollow(self, user: UserInfo, name: str) -> None:
        async with self.db.write() as s:
            uid, _ = await self._player(s, name)
            await s.execute(delete(Follow).where(Follow.follower_id == user.id,
                                                 Follow.followee_id == uid))
            await s.commit()

    async def following(self, user: UserInfo) -> list[dict]:
        """The caller's friends list, by name."""
        async with self.db.read() as s:
            rows = (await s.execute(
                select(User.id, User.username, Follow.created_at)
                .join(Follow, Follow.followee_id == User.id)
                .where(Follow.follower_id == user.id).order_by(User.username_key))).all()
        return [{"user": {"id": r.id, "username": r.username}, "since": iso(r.created_at)}
                for r in rows]

    async def follows(self, user: UserInfo | None, uid: int) -> bool:
        """Whether the caller follows the player ``uid``."""
        if user is None:
            return False
        async with self.db.read() as s:
            return await s.scalar(select(Follow.followee_id).where(
                Follow.follower_id == user.id, Follow.followee_id == uid)) is not None

    async def games_of_friends(self, user: UserInfo) -> list[dict]:
        """The open and running games of the players the caller follows that the caller may
        see in a list, the most recently moved first; each with ``friends``: who of them
        sits there."""
        async with self.db.read() as s:
            friends = select(Follow.followee_id).where(Follow.follower_id == user.id)
            ids = select(Seat.game_id).where(Seat.user_id.in_(friends),
                                             Seat.invited.is_(False))
            rows = (await s.execute(
                select(Game).where(Game.id.in_(ids), Game.status.in_(("open", "running")),
                                   redaction.listed_for(user.id))
                .order_by(Game.updated_at.desc(), Game.id.desc()).limit(MAX_GAMES))
            ).scalars().all()
            mine = set((await s.execute(select(Follow.followee_id).where(
                Follow.follower_id == user.id))).scalars().all())
        out = await self.games.summaries_of(list(rows), user)
        for g in out:
            g["friends"] = [x["user"]["username"] for x in g["seats"]
                            if x["user"] and x["user"]["id"] in mine and not x["invited"]]
        return out
