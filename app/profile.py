"""A player's profile (issue #33, item 7): ``GET /api/players/{name}``.

What it shows is what any viewer could already find game by game, gathered: the player's
current and finished games, each only when the viewer may see it in a list (the game
store's :func:`app.games.store_people.listed_for`: no sealed game, no unlisted game the viewer
has no seat in), results as the game's own summary gives them, games played per game and time control, the maps
and cards the player played most (from the public events of finished games only: nothing a
running game hides), their ratings with the history (``app/ratings.py``) and the daily
challenge streak (``app/daily/``). The route puts those two in; this module reads games.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import engine

from . import redaction
from .auth import UserInfo
from .people_store import PeopleStore
from .refusal import Refusal, say
from .times import iso

#: games listed per section, finished games counted, finished games read for the cards
CURRENT = 50
FINISHED = 20
COUNTED = 2000
CARD_GAMES = 30


def card_events(game: str) -> tuple[str, ...]:
    """The public event kinds that say a seat played a card (``data.seat``, ``data.card``) in
    ``game``, as its plugin names them (none for a game that is not installed)."""
    plugin = engine.plugin_of(game)
    return plugin.card_events if plugin is not None else ()


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
    def __init__(self, store: PeopleStore, games: Any) -> None:
        self.store = store
        self.games = games  # app.games.GameService

    async def player(self, name: str) -> dict:
        """``{"id", "username", "since"}`` of a player (404 ``unknown_player``)."""
        row = await self.store.player(name)
        if row is None:
            raise Refusal("unknown_player", say("unknown_player.name", name=repr(name)), name=name)
        return {"id": row.id, "username": row.username, "since": iso(row.created_at)}

    async def of_player(self, player_id: int, viewer: UserInfo | None) -> dict:
        """The games part of a profile as ``viewer`` may see it."""
        got = await self.games.store.player_games(
            player_id, viewer.id if viewer is not None else None, current=CURRENT,
            finished=FINISHED, counted=COUNTED, logs_of=CARD_GAMES)
        counted = got["counted"]
        per: Counter = Counter((r.game, control_label(r.time_control)) for r in counted)
        maps: Counter = Counter((r.game, str((r.options or {})["map"])) for r in counted
                                if isinstance(r.options, dict) and "map" in r.options)
        names = {r.id: r.game for r in counted}
        cards: Counter = Counter()
        for game_id, events in got["logs"]:
            seat = got["seats"].get(game_id)
            played = card_events(names.get(game_id, ""))
            for ev in redaction.public_events(events or []):
                data = ev.get("data") or {}
                if ev.get("kind") in played and data.get("seat") == seat and "card" in data:
                    cards[(names[game_id], str(data["card"]))] += 1
        return {
            "current": await self.games.summaries_of(got["current"], viewer),
            "finished": await self.games.summaries_of(got["finished"], viewer),
            "played": [{"game": g, "time_control": tc, "count": n}
                       for (g, tc), n in sorted(per.items(), key=lambda x: (-x[1], x[0]))],
            "maps": [{"game": g, "map": m, "count": n}
                     for (g, m), n in maps.most_common(10)],
            "cards": [{"game": g, "card": c, "count": n}
                      for (g, c), n in cards.most_common(10)],
            "cards_from": len(got["recent"]),
        }
