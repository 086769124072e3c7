"""A player's profile (issue #33, item 7): ``GET /api/players/{name}``.

What it shows is what any viewer could already find game by game, gathered: the player's
current and finished games, each only when the viewer may see it in a list
(:func:`app.redaction.listed_for`: no sealed game, no unlisted game the viewer has no seat in),
results as the game's own summary gives them, games played per game and time control, the maps
and cards the player played most (from the public events of finished games only: nothing a
running game hides), their ratings with the history (``app/ratings.py``) and the daily
challenge streak (``app/daily/``). The route puts those two in; this module reads games.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import defer

from . import redaction
from .auth import UserInfo
from .db import Database
from .models import ActionRecord, Game, Seat, User
from .refusal import Refusal
from .times import iso

#: games listed per section, finished games counted, finished games read for the cards
CURRENT = 50
FINISHED = 20
COUNTED = 2000
CARD_GAMES = 30
#: the public events that say a seat played a card (``data.seat``, ``data.card``)
PLAYED = ("animal", "sponsor")


def control_label(tc: dict | None) -> str:
    """A time control as one short key: ``untimed``, ``move:86400``, ``bank:600+10``."""
    if not tc:
        return "untimed"
    mode = tc.get("mode", "move")
    if mode == "bank":
        return f"bank:{tc.get('seconds')}+{tc.get('increment', 0)}"
    if mode == "count":
        return "count"
    return f"{mode}:{tc.get('seconds')}"


class ProfileService:
    def __init__(self, db: Database, games: Any) -> None:
        self.db = db
        self.games = games  # app.games.GameService

    async def player(self, name: str) -> dict:
        """``{"id", "username", "since"}`` of a player (404 ``unknown_player``)."""
        async with self.db.read() as s:
            row = (await s.execute(select(User.id, User.username, User.created_at).where(
                User.username_key == name.strip().lower()))).first()
        if row is None:
            raise Refusal("unknown_player", f"There is no player named {name!r}.", name=name)
        return {"id": row.id, "username": row.username, "since": iso(row.created_at)}

    async def of_player(self, player_id: int, viewer: UserInfo | None) -> dict:
        """The games part of a profile as ``viewer`` may see it."""
        seen = redaction.listed_for(viewer.id if viewer is not None else None)
        mine = select(Seat.game_id).where(Seat.user_id == player_id, Seat.invited.is_(False))
        base = select(Game).options(defer(Game.state)).where(Game.id.in_(mine), seen)
        order = (Game.updated_at.desc(), Game.id.desc())
        async with self.db.read() as s:
            current = (await s.execute(base.where(Game.status.in_(("open", "running")))
                                       .order_by(*order).limit(CURRENT))).scalars().all()
            finished = (await s.execute(base.where(Game.status == "finished")
                                        .order_by(*order).limit(FINISHED))).scalars().all()
            counted = (await s.execute(
                select(Game.id, Game.game, Game.time_control, Game.options)
                .where(Game.id.in_(mine), seen, Game.status == "finished")
                .order_by(*order).limit(COUNTED))).all()
            recent = [r.id for r in counted[:CARD_GAMES]]
            seats = dict((await s.execute(select(Seat.game_id, Seat.seat).where(
                Seat.game_id.in_(recent), Seat.user_id == player_id))).all()) if recent else {}
            logs = (await s.execute(
                select(ActionRecord.game_id, ActionRecord.events)
                .where(ActionRecord.game_id.in_(recent)))).all() if recent else []
        per: Counter = Counter((r.game, control_label(r.time_control)) for r in counted)
        maps: Counter = Counter((r.game, str((r.options or {})["map"])) for r in counted
                                if isinstance(r.options, dict) and "map" in r.options)
        names = {r.id: r.game for r in counted}
        cards: Counter = Counter()
        for game_id, events in logs:
            seat = seats.get(game_id)
            for ev in redaction.public_events(events or []):
                data = ev.get("data") or {}
                if ev.get("kind") in PLAYED and data.get("seat") == seat and "card" in data:
                    cards[(names[game_id], str(data["card"]))] += 1
        return {
            "current": await self.games.summaries_of(list(current), viewer),
            "finished": await self.games.summaries_of(list(finished), viewer),
            "played": [{"game": g, "time_control": tc, "count": n}
                       for (g, tc), n in sorted(per.items(), key=lambda x: (-x[1], x[0]))],
            "maps": [{"game": g, "map": m, "count": n}
                     for (g, m), n in maps.most_common(10)],
            "cards": [{"game": g, "card": c, "count": n}
                      for (g, c), n in cards.most_common(10)],
            "cards_from": len(recent),
        }
