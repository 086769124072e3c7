"""Storage of follows and the reads of a player's games (issue #33: app/friends.py,
app/profile.py): all their SQL, and the one condition every list of *other* players' games
applies (:func:`listed_for`; the rule is told in app/redaction.py's docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, exists, false, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import defer

from . import auth_store, times
from .db import Database
from .models import ActionRecord, Follow, Game, Seat


def listed_for(viewer: int | None, now: datetime | None = None) -> Any:
    """The condition on ``games`` rows a list of other players' games (friends' games, a
    profile) applies for ``viewer`` (None: signed out): not sealed and not unlisted, unless the
    viewer has a seat in the game (an invitation counts)."""
    when = now or times.utcnow()
    public = (Game.sealed_until.is_(None) | (Game.sealed_until <= when)) & \
        Game.unlisted.is_(False)
    seated = exists(select(Seat.seat).where(Seat.game_id == Game.id, Seat.user_id == viewer)) \
        if viewer is not None else false()
    return or_(public, seated)


class PeopleStore:
    def __init__(self, db: Database) -> None:
        self.db = db

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

    async def friends_games(self, viewer: int, limit: int) -> tuple[list[Game], set[int]]:
        """The open and running games in which a player ``viewer`` follows sits (not only
        invited) that the viewer may see in a list, the most recently moved first; and the ids
        of the players followed."""
        async with self.db.read() as s:
            friends = select(Follow.followee_id).where(Follow.follower_id == viewer)
            ids = select(Seat.game_id).where(Seat.user_id.in_(friends), Seat.invited.is_(False))
            rows = (await s.execute(
                select(Game).options(defer(Game.state))
                .where(Game.id.in_(ids), Game.status.in_(("open", "running")),
                       listed_for(viewer))
                .order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit))).scalars().all()
            mine = set((await s.execute(friends)).scalars().all())
        return list(rows), mine

    # ------------------------------------------------------------------ a player's games
    async def player_games(self, player: int, viewer: int | None, *, current: int,
                           finished: int, counted: int, logs_of: int) -> dict[str, Any]:
        """What a profile reads of ``player``'s games (seated, not only invited) that
        ``viewer`` may see in a list: ``current`` (open, running) and ``finished`` game rows,
        the newest first; ``counted``: ``(id, game, time_control, options)`` of up to that many
        finished ones; ``seats`` (game id -> the player's seat) and ``logs`` (``(game_id,
        events)`` of every log row) of the newest ``logs_of`` finished ones."""
        seen = listed_for(viewer)
        mine = select(Seat.game_id).where(Seat.user_id == player, Seat.invited.is_(False))
        base = select(Game).options(defer(Game.state)).where(Game.id.in_(mine), seen)
        order = (Game.updated_at.desc(), Game.id.desc())
        async with self.db.read() as s:
            now = (await s.execute(base.where(Game.status.in_(("open", "running")))
                                   .order_by(*order).limit(current))).scalars().all()
            done = (await s.execute(base.where(Game.status == "finished")
                                    .order_by(*order).limit(finished))).scalars().all()
            rows: Sequence[Any] = (await s.execute(
                select(Game.id, Game.game, Game.time_control, Game.options)
                .where(Game.id.in_(mine), seen, Game.status == "finished")
                .order_by(*order).limit(counted))).all()
            recent = [r.id for r in rows[:logs_of]]
            seats: dict[int, int] = {}
            logs: list[Any] = []
            if recent:
                seats = dict((await s.execute(select(Seat.game_id, Seat.seat).where(
                    Seat.game_id.in_(recent), Seat.user_id == player))).all())
                logs = list((await s.execute(
                    select(ActionRecord.game_id, ActionRecord.events)
                    .where(ActionRecord.game_id.in_(recent)))).all())
        return {"current": list(now), "finished": list(done), "counted": list(rows),
                "recent": recent, "seats": seats, "logs": logs}
