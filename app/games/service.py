"""The game service: one facade over the lobby, moves, bots, reads and frames.

Where is what (``app/games/``):

| concern | module |
| --- | --- |
| create, join, start | ``lobby.py`` |
| resign, abort, cancel, leave | ``exits.py`` |
| vacations in the clocks | ``pauses.py`` |
| a move, the clock and "your turn" notices of a move | ``moves.py`` |
| take-backs, restart and confirm of a turn (held turns) | ``turns.py`` |
| bot seats, timeouts, away seats, reclaim, the bot driver | ``bots.py`` |
| the current game (cache first), summaries, views, legal answers, the log, lists | ``reads.py`` |
| past versions as frames (socket catch-up), a state at any version, replay check | ``frames.py`` |
| all SQL of games, seats, actions and snapshots (SQLite / PostgreSQL) | ``store.py``, ``store_pg.py`` |
| the per-process cache and per-game locks | ``cache.py`` |
| answers refused before the engine (nesting, 7.0 for 7) | ``checks.py`` |
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import engine

from .. import jsonutil
from ..auth import UserInfo
from ..bus import USER_CHANNEL, LocalBus
from ..db import Database
from ..frame import Frame
from ..realtime import Hub
from ..settings import Settings
from ..signals import Signals
from .bots import BotTurns
from .cache import Accepted, Cached, GameCache, GameLocks
from .context import GameContext
from .exits import Exits
from .frames import Frames
from .lobby import Deal, Lobby
from .moves import Moves
from .pauses import Pauses
from .reads import Reads
from .store import GameStore, SqlGameStore
from .store_pg import PgGameStore
from .turns import Turns


def make_store(db: Database, bus, cache: GameCache | None = None) -> GameStore:
    """The store for this database: the only place that asks which one it is."""
    return PgGameStore(db, bus, cache) if db.is_postgres else SqlGameStore(db, bus, cache)


class GameService:
    def __init__(self, db: Database, settings: Settings, hub: Hub, bus=None,
                 signals: Signals | None = None) -> None:
        self.db = db
        self.settings = settings
        self.hub = hub
        self.bus = bus or LocalBus()
        self.signals = signals or Signals()
        self.cache = GameCache(settings.game_cache)
        self.ctx = GameContext(settings, make_store(db, self.bus, self.cache), hub, self.bus,
                               self.signals, self.cache, GameLocks())
        self.reads = Reads(self.ctx)
        self.frames = Frames(self.ctx)
        self.lobby = Lobby(self.ctx, self.reads)
        self.moves = Moves(self.ctx, self.reads, self.frames)
        self.ends = Turns(self.moves)
        self.turns = BotTurns(self.ctx, self.reads, self.moves, self.ends)
        self.exits = Exits(self.ctx, self.reads)
        self.pauses = Pauses(self.ctx)
        #: the bot driver (``kick``, ``resume``, ``wait_idle``, ``close``)
        self.bots = self.turns.driver

    # lobby
    async def create(self, user: UserInfo, name: str, seats: int, options: dict,
                     bots: list[int], bot_kind: str, time_control: dict | None = None, *,
                     hints: bool = False, invited: tuple[int, ...] = (),
                     unlisted: bool = False,
                     also: Callable[[Any, int], None] | None = None) -> dict:
        return await self.lobby.create(user, name, seats, options, bots, bot_kind, time_control,
                                       hints=hints, invited=invited, unlisted=unlisted,
                                       also=also)

    async def create_dealt(self, user: UserInfo, name: str, seats: int, options: dict,
                           bots: list[int], bot_kind: str, time_control: dict | None, *,
                           seed: str, source: str, sealed_until: datetime | None = None,
                           also: Callable[[Any, int], None] | None = None) -> dict:
        """An open game the server deals itself (see :class:`.lobby.Deal`): the summary."""
        return await self.lobby.create(user, name, seats, options, bots, bot_kind, time_control,
                                       Deal(seed, source, sealed_until, also))

    async def join(self, user: UserInfo, game_id: int, seat: int | None) -> tuple[int, dict]:
        return await self.lobby.join(user, game_id, seat)

    async def start(self, user: UserInfo, game_id: int) -> dict:
        return await self.lobby.start(user, game_id)

    async def start_if_ready(self, game_id: int) -> None:
        await self.lobby.start_if_ready(game_id)

    # the ways out: resign, abort, cancel, leave (app/games/exits.py)
    async def resign(self, game_id: int, user: UserInfo) -> dict[str, Any]:
        return await self.exits.resign(game_id, user)

    async def abort(self, game_id: int, user: UserInfo) -> dict[str, Any]:
        return await self.exits.abort(game_id, user)

    async def cancel(self, game_id: int, user: UserInfo) -> None:
        await self.exits.cancel(game_id, user)

    async def leave(self, game_id: int, user: UserInfo) -> dict[str, Any]:
        return await self.exits.leave(game_id, user)

    async def set_vacations(self, user_id: int, off: list[list[str]]) -> int:
        """The player's vacations into the clocks of their running games (app/games/pauses.py)."""
        return await self.pauses.apply(user_id, off)

    # moves
    async def act(self, game_id: int, version: int, action: Any, *, user: UserInfo | None = None,
                  bot_seat: int | None = None, auto_seat: int | None = None,
                  hold: bool = False) -> Accepted:
        return await self.moves.act(game_id, version, action, user=user, bot_seat=bot_seat,
                                    auto_seat=auto_seat, hold=hold)

    async def undo(self, game_id: int, version: int, user: UserInfo, *,
                   whole_turn: bool = False) -> Accepted:
        return await self.ends.undo(game_id, version, user, whole_turn=whole_turn)

    async def confirm(self, game_id: int, version: int, user: UserInfo) -> Accepted:
        return await self.ends.confirm(game_id, version, user)

    # bots and time controls
    async def bot_step(self, game_id: int) -> bool:
        return await self.turns.bot_step(game_id)

    async def expired_games(self, now, limit: int = 50) -> list[int]:
        return await self.ctx.store.expired_games(now, limit)

    async def play_timeouts(self, game_id: int, most: int = 50) -> int:
        return await self.turns.play_timeouts(game_id, most)

    async def set_away(self, game_id: int, seat: int, away: bool) -> bool:
        return await self.turns.set_away(game_id, seat, away)

    async def reclaim(self, game_id: int, user: UserInfo) -> dict:
        return await self.turns.reclaim(game_id, user)

    # reads
    async def current(self, game_id: int) -> Cached:
        return await self.reads.current(game_id)

    async def summary(self, game_id: int, user: UserInfo | None) -> dict:
        return await self.reads.summary(game_id, user)

    async def summaries_of(self, rows: list[Any], user: UserInfo | None) -> list[dict[str, Any]]:
        return await self.reads.summaries_of(rows, user)

    async def detail(self, game_id: int, user: UserInfo | None) -> dict:
        return await self.reads.detail(game_id, user)

    async def legal(self, game_id: int, user: UserInfo) -> dict:
        return await self.reads.legal(game_id, user)

    async def log_after(self, game_id: int, user: UserInfo | None, after: int,
                        limit: int) -> dict:
        return await self.reads.log_after(game_id, user, after, limit)

    async def list_games(self, user: UserInfo | None, status: str | None, mine: bool,
                         limit: int, offset: int) -> list[dict]:
        return await self.reads.list_games(user, status, mine, limit, offset)

    async def next_game(self, user: UserInfo, after: int | None) -> dict[str, Any] | None:
        return await self.reads.next_game(user, after)

    async def current_version(self, game_id: int) -> int | None:
        return await self.reads.current_version(game_id)

    async def watch_info(self, game_id: int) -> dict[str, object]:
        return await self.reads.watch_info(game_id)

    async def socket_info(self, game_id: int, user: UserInfo | None) -> dict:
        return await self.reads.socket_info(game_id, user)

    # seats
    async def seats_changed(self, game_id: int, session=None) -> None:
        """Who sits where changed (see :meth:`.store.SqlGameStore.seats_changed`): call with
        the session of the change, then without it once committed."""
        await self.ctx.store.seats_changed(game_id, session)

    async def tell_users(self, game_id: int, name: str, users: list[int], about: str,
                         by: str) -> None:
        """A notice on the user channel about an invitation and its answers (``about``:
        ``invitation``, ``accepted``, ``declined``, ``withdrawn``; ``by`` who did it; the
        invitations' and the rematches' alike): the users' open pages
        refresh their lists at once (app/userfeed.py; the lobby's toasts)."""
        if users:
            await self.bus.publish(USER_CHANNEL, jsonutil.dumps_str({
                "g": game_id, "v": 0, "name": name, "title": engine.title_of(name),
                "turn": [], "users": sorted(set(users)), "status": "open", "about": about,
                "by": by}))

    async def seat_map(self, game_id: int) -> dict[int, int]:
        """Who sits where in the game now: user id -> seat."""
        return await self.ctx.store.seat_map(game_id)

    # frames and history
    async def load_frames(self, game_id: int, after: int, upto: int) -> list[Frame]:
        return await self.frames.load_frames(game_id, after, upto)

    @property
    def store(self) -> GameStore:
        """The storage of games, seats, actions and snapshots (records use it too)."""
        return self.ctx.store

    async def state_at(self, game_id: int, version: int) -> tuple[Any, dict]:
        return await self.frames.state_at(game_id, version)

    async def replay(self, game_id: int) -> dict:
        return await self.frames.replay(game_id)
