"""The games' tables as the profiles and the friends' list read them (issue #33: app/profile.py,
app/friends.py): part of :class:`~.store.SqlGameStore`, the one owner of games, seats, actions
and snapshots (issue #34.4). The follows stay app/people_store.py's: the friends' list hands in
its subquery of the players followed, so the list is still one statement."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import exists, false, or_, select
from sqlalchemy.orm import defer

from .. import times
from ..db import Database
from ..models import ActionRecord, Game, Seat


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


class People(Protocol):
    """What :class:`PeopleRows` offers (a part of :class:`~.store.GameStore`)."""

    async def games_seating(self, players: Any, viewer: int, limit: int,
                            session: Any) -> list[Game]: ...
    async def player_games(self, player: int, viewer: int | None, *, current: int,
                           finished: int, counted: int, logs_of: int) -> dict[str, Any]: ...


class PeopleRows:
    """The reads of a player's games as a viewer may list them."""

    db: Database  # set by SqlGameStore

    async def games_seating(self, players: Any, viewer: int, limit: int,
                            session: Any) -> list[Game]:
        """The open and running games in which one of ``players`` (ids, or a select of ids:
        the follows') sits (not only invited) that ``viewer`` may see in a list, the most
        recently moved first, read in the caller's ``session``."""
        ids = select(Seat.game_id).where(Seat.user_id.in_(players), Seat.invited.is_(False))
        return list((await session.execute(
            select(Game).options(defer(Game.state))
            .where(Game.id.in_(ids), Game.status.in_(("open", "running")), listed_for(viewer))
            .order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit))).scalars().all())

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
