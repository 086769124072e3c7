"""Reads of games: the current game (cache first), summaries, the caller's view and legal
answers, the log, lists of games.

What a viewer may see is decided in :mod:`app.redaction` (the log gives a seat its own answers
only: another seat's may be secret).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import engine

from .. import clock as clock_mod, outcome, redaction
from ..auth import UserInfo
from ..history import ENDINGS, effective_log, engine_game
from ..models import Game
from ..refusal import Refusal, not_found, say
from ..times import iso
from .cache import Cached
from .context import GameContext

#: most games a "mine" list reads before ordering them (the caller's turn first)
MAX_LIST = 500


def with_away(bots: dict[int, str], away: frozenset, tc: dict | None) -> dict[int, str]:
    """Bot seats plus the seats handed to the time control's bot."""
    if not away:
        return bots
    kind = (tc or {}).get("bot", clock_mod.DEFAULT_BOT)
    return {**bots, **{seat: kind for seat in away}}


def summary_of(row: Game, seats: list[dict], user: UserInfo | None,
               creator: str | None) -> dict:
    """The summary of a game row, as lists and the lobby show it."""
    your_seat = None
    if user is not None:
        your_seat = next((x["seat"] for x in seats
                          if x["user"] and x["user"]["id"] == user.id), None)
    waiting = list(row.waiting_for or [])
    try:
        title = engine.get_game(row.game).title
    except KeyError:
        title = row.game
    return {
        "id": row.id,
        "game": row.game,
        "title": title,
        "status": row.status,
        "version": row.version,
        "options": row.options,
        "seats": seats,
        "waiting_for": waiting,
        #: the seat whose finished turn waits for its confirm (app/games/turns.py), or None
        "held_seat": row.held_seat,
        "created_by": ({"id": row.created_by, "username": creator}
                       if row.created_by is not None else None),
        "created_at": iso(row.created_at),
        "updated_at": iso(row.updated_at),
        "turn_deadline": iso(row.turn_deadline),
        "time_control": row.time_control,
        "rematch_of": row.rematch_of,
        "clock": clock_mod.public(row.time_control, row.clock),
        "your_seat": your_seat,
        "your_turn": your_seat is not None and row.status == "running" and your_seat in waiting,
        "result": row.result if row.status == "finished" else None,
        #: "play", "import" or "daily" (a daily challenge's game)
        "source": row.source,
        #: until then only the game's players see it (app/redaction.py)
        "sealed_until": iso(row.sealed_until),
        #: the players agreed to hints (GET /hint); never rated
        "hints": bool(row.hints),
        #: for invited players only: in no public list (app/invites.py)
        "unlisted": bool(row.unlisted),
        #: a quick match of casual seeks: never rated (app/seeks/)
        "casual": bool(row.casual),
    }


def your_deadline(summary: dict[str, Any]) -> str | None:
    """When the caller's current decision in a game runs out (ISO; None: no limit)."""
    seat = summary.get("your_seat")
    entry = ((summary.get("clock") or {}).get("seats") or {}).get(str(seat)) or {}
    return entry.get("deadline") or None


def turn_order(summary: dict[str, Any]) -> tuple[bool, bool, float]:
    """The order of "my games": my move first, the closest deadline first, untimed after
    timed; the caller's stable sort keeps newest first."""
    deadline = your_deadline(summary) if summary["your_turn"] else None
    at = clock_mod.parse(deadline).timestamp() if deadline else 0.0
    return (not summary["your_turn"], deadline is None, at)


class Reads:
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    async def current(self, game_id: int) -> Cached:
        """The game at its current version, from the cache when it is up to date.

        One read: the row's version and status, and its state only when the cached version is
        not the current one (plus the seats, once, when they are not cached).
        """
        cache = self.ctx.cache
        c = cache.get(game_id)
        known = c.version if c is not None and c.state is not None else -1
        users, bots, away = (c.users, c.bots, c.away) if c is not None else (None, {}, frozenset())
        if c is not None:
            bots = {k: v for k, v in bots.items() if k not in away}  # the real bot seats

        def need_seats(row) -> bool:
            return users is None or row.status == "open" or c is None or \
                row.seats_rev != c.seats_rev

        row, seats = await self.ctx.store.current(game_id, known, need_seats)
        if row is None:
            cache.drop(game_id)
            raise not_found("game")
        if seats is not None:
            users, bots, away = seats.users, seats.bots, seats.away
        if c is not None and row.version == known and row.status == c.status and \
                c.users is not None and row.seats_rev == c.seats_rev:
            return c
        game = engine_game(row.game)
        state = c.state if row.version == known and c is not None else (
            game.load(row.state) if row.state is not None else None)
        tc = row.time_control
        fresh = Cached(game_id, row.game, game, row.seat_count, row.seed, row.status,
                       row.version, state, list(row.waiting_for or []),
                       users, with_away(bots, away, tc),
                       c.frame if c is not None and row.version == known else None,
                       tc, row.clock, away, row.seats_rev, row.held)
        if row.status == "open":
            cache.put(replace(fresh, users=None))
            fresh.users = users
            return fresh
        cache.put(fresh)
        return fresh

    async def seat_of(self, game_id: int, user: UserInfo | None) -> int | None:
        if user is None:
            return None
        return await self.ctx.store.seat_of(game_id, user.id)

    async def summary(self, game_id: int, user: UserInfo | None) -> dict:
        row = await self.ctx.store.game_row(game_id, state=False)
        if row is None:
            raise not_found("game")
        seats, names = await self.ctx.store.summaries([row])
        return summary_of(row, seats[game_id], user, names.get(row.created_by))

    async def summaries_of(self, rows: list[Game],
                           user: UserInfo | None) -> list[dict[str, Any]]:
        """The summaries of game rows another module chose (friends' games, a profile)."""
        seats, names = await self.ctx.store.summaries(rows)
        return [summary_of(r, seats[r.id], user, names.get(r.created_by)) for r in rows]

    async def detail(self, game_id: int, user: UserInfo | None) -> dict:
        row = await self.ctx.store.game_row(game_id, state=True)
        if row is None:
            raise not_found("game")
        seats, names = await self.ctx.store.summaries([row])
        out = summary_of(row, seats[game_id], user, names.get(row.created_by))
        redaction.check_sealed(row.sealed_until, out["your_seat"] is not None)
        if row.state is None:
            out["view"] = None
            out["result"] = None
            return out
        game = engine_game(row.game)
        state = game.load(row.state)
        out["view"] = redaction.view(game, state, out["your_seat"])
        out["result"] = outcome.recorded(row.status, row.result) or game.result(state)
        out["can_abort"] = await self._can_abort(row, game, out["your_seat"])
        return out

    async def _can_abort(self, row: Game, game: Any, seat: int | None) -> bool:
        """Whether the caller may abort the game now (app/games/exits.py): a running game of
        theirs where no seat has made its first decision of play. (The opening is one
        decision per seat: a longer log has begun to play, whatever take-backs did.)"""
        if seat is None or row.status != "running" or row.source != "play" or \
                row.version > 3 * row.seat_count:
            return False
        rows = await self.ctx.store.all_actions(row.id)
        if any(r.kind in ENDINGS for r in rows):
            return False
        initial = game.waiting_for(game.setup(row.seat_count, row.options, row.seed))
        return not outcome.play_began(initial, [s for _, s, _ in effective_log(rows)])

    async def legal(self, game_id: int, user: UserInfo) -> dict:
        c = await self.current(game_id)
        seat = c.seat_of(user.id)
        if seat is None:
            raise Refusal("no_seat", say("no_seat"))
        if c.state is None:
            raise Refusal("not_started", say("not_started"))
        if c.status != "running":  # (a resignation or an abort ended it)
            return {"version": c.version, "seat": seat, "actions": [], "hints": {}}
        if c.held is not None:  # a turn waits for its confirm: nobody answers meanwhile
            return {"version": c.version, "seat": seat, "actions": [], "hints": {},
                    "held": c.held}
        return {"version": c.version, "seat": seat,
                "actions": c.game.legal_actions(c.state, seat),
                "hints": c.game.hints(c.state, seat)}

    async def log_after(self, game_id: int, user: UserInfo | None, after: int,
                        limit: int) -> dict:
        version, sealed_until, records = await self.ctx.store.log_rows(game_id, after,
                                                                       limit + 1)
        if version is None:
            raise not_found("game")
        seat = await self.seat_of(game_id, user)
        redaction.check_sealed(sealed_until, seat is not None)
        more = len(records) > limit
        entries = []
        for r in records[:limit]:
            entries.append(redaction.log_entry(r.version, r.seat, r.action, r.events, seat,
                                               iso(r.created_at)))
        return {"version": version, "entries": entries, "more": more}

    async def list_games(self, user: UserInfo | None, status: str | None, mine: bool,
                         limit: int, offset: int) -> list[dict]:
        if mine:
            assert user is not None
            rows = await self.ctx.store.list_rows(status, user.id, MAX_LIST, 0)
        else:
            rows = await self.ctx.store.list_rows(status, None, limit, offset)
        seats, names = await self.ctx.store.summaries(rows)
        out = [summary_of(r, seats[r.id], user, names.get(r.created_by)) for r in rows]
        if mine:
            # stable sort: the games waiting for the caller first, the closest deadline first
            # (untimed ones after), each group newest first
            out.sort(key=turn_order)
            out = out[offset:offset + limit]
        return out

    async def next_game(self, user: UserInfo, after: int | None) -> dict[str, Any] | None:
        """The game where it is the caller's move with the closest deadline (untimed ones
        after the timed, the most recently moved first), other than ``after``; None: none."""
        rows = await self.ctx.store.list_rows("running", user.id, MAX_LIST, 0)
        seats, names = await self.ctx.store.summaries(rows)
        games = [summary_of(r, seats[r.id], user, names.get(r.created_by)) for r in rows]
        games = [g for g in games if g["your_turn"] and g["id"] != after]
        games.sort(key=turn_order)
        return games[0] if games else None

    async def current_version(self, game_id: int) -> int | None:
        found = await self.ctx.store.version_status(game_id)
        if found is None or found[1] == "open":
            return None
        return found[0]

    async def watch_info(self, game_id: int) -> dict[str, object]:
        """What a spectator's socket needs (app/spectators.py keeps it per game and version):
        the version, the status and until when the game is sealed (None: it is not)."""
        c = await self.current(game_id)
        return {"version": c.version, "status": c.status,
                "sealed_until": await self.ctx.store.sealed_until(game_id)}

    async def socket_info(self, game_id: int, user: UserInfo | None) -> dict:
        c = await self.current(game_id)
        seat = c.seat_of(user.id) if user is not None else None
        if seat is None:  # a spectator: not of a sealed game
            redaction.check_sealed(await self.ctx.store.sealed_until(game_id), False)
        return {"version": c.version, "status": c.status, "seat": seat}
