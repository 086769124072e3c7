"""Friends: players a player follows (issue #33, item 4).

Following is one-sided (like lichess): ``PUT /api/me/following/{name}`` adds a player to the
caller's friends list, ``DELETE`` takes them off; the followed player is not told. The lobby
shows what the caller's friends are playing: their open and running games, each only when the
caller may see it in a list (:func:`app.games.store_people.listed_for`: neither a sealed game,
a daily challenge's until its day is over, nor an unlisted one, unless the caller has a seat in
it).

Limits: ``max_follows_per_user`` players (409 ``follow_quota``) and follows per user per hour
(``app/ratelimit.py``, the route checks it).
"""

from __future__ import annotations

from typing import Any

from .auth import UserInfo
from .people_store import PeopleStore
from .refusal import Refusal, say
from .settings import Settings
from .times import iso

#: most friends' games one list shows
MAX_GAMES = 50


class FriendService:
    def __init__(self, store: PeopleStore, games: Any, settings: Settings) -> None:
        self.store = store
        self.games = games  # app.games.GameService
        self.settings = settings

    async def _player(self, name: str) -> tuple[int, str]:
        found = await self.store.player(name)
        if found is None:
            raise Refusal("unknown_player", say("unknown_player.name", name=repr(name)), name=name)
        return found.id, found.username

    async def follow(self, user: UserInfo, name: str) -> dict:
        """Follow a player (again: no change): ``{"user", "since"}``."""
        uid, username = await self._player(name)
        if uid == user.id:
            raise Refusal("cannot_follow_self", say("cannot_follow_self"))
        limit = self.settings.max_follows_per_user
        since, over = await self.store.follow(user.id, uid, limit)
        if over:
            raise Refusal("follow_quota", say("follow_quota.limit", limit=limit), limit=limit)
        return {"user": {"id": uid, "username": username}, "since": iso(since)}

    async def unfollow(self, user: UserInfo, name: str) -> None:
        uid, _ = await self._player(name)
        await self.store.unfollow(user.id, uid)

    async def following(self, user: UserInfo) -> list[dict]:
        """The caller's friends list, by name."""
        return [{"user": {"id": r.id, "username": r.username}, "since": iso(r.created_at)}
                for r in await self.store.following(user.id)]

    async def follows(self, user: UserInfo | None, uid: int) -> bool:
        """Whether the caller follows the player ``uid``."""
        return user is not None and await self.store.follows(user.id, uid)

    async def games_of_friends(self, user: UserInfo) -> list[dict]:
        """The open and running games of the players the caller follows that the caller may
        see in a list, the most recently moved first; each with ``friends``: who of them
        sits there."""
        rows, mine = await self.store.friends_games(user.id, MAX_GAMES)
        out = await self.games.summaries_of(rows, user)
        for g in out:
            g["friends"] = [x["user"]["username"] for x in g["seats"]
                            if x["user"] and x["user"]["id"] in mine and not x["invited"]]
        return out
