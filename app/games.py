"""The game service: lobby (create, join, start), moves, bot turns, views and the log.

One accepted action is one transaction: check the version, apply the action with the engine,
append the action row (``UNIQUE(game_id, version)``), store the new state and version in the
game row (a snapshot every N versions), commit, then publish. A submission for any other version
than the current one gets 409 ``stale_version``, so of several concurrent submissions exactly
one wins.

How the row lock works: the game row is written with ``UPDATE games ... WHERE id = G AND
version = V``. PostgreSQL locks the row for that update; a concurrent writer of the same game
(in this process or another) waits for the lock, then finds ``version = V`` no longer true,
updates nothing and gets 409. On PostgreSQL the update, the action row, the snapshot and the
``pg_notify`` are one statement in autocommit mode: one round trip, all or nothing, durable
when it returns. On SQLite the same steps run in a ``BEGIN IMMEDIATE`` transaction. Within one
process, writers of one game also queue on an asyncio lock first (the wait is measured: the
``menagerie_game_lock_wait_seconds`` metric), so they do not race the engine work.

The current state of recently used games is kept in memory (:class:`GameCache`, by game and
version: the state at a version never changes). A move whose version matches the cached one
reads nothing from the database; otherwise one read refreshes the cache. Seats are cached once
a game has started (they never change after that).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from sqlalchemy import case, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import defer

import engine
from engine.bots import bot_kinds, get_bot
from engine.core import NOT_YOUR_DECISION, IllegalAction, events_for
from engine.core import rng as engine_rng

from . import clock as clock_mod
from . import jsonutil
from .auth import UserInfo
from .db import Database
from .errors import ApiError, not_found
from . import metrics
from .models import ActionRecord, Game, Seat, Snapshot, User, utcnow
from .realtime import CHANNEL, SEATS_CHANNEL, USER_CHANNEL, Frame, Hub, LocalBus, move_payload
from .history import effective_actions, engine_game, step, undo_snapshots
from .settings import Settings
from .signals import Signals, YourTurn

try:  # the helper that also hands searching bots their sampler of possible worlds
    from engine.bots import decide as _decide
except ImportError:  # pragma: no cover - older engine
    _decide = None

log = logging.getLogger("menagerie.games")

MAX_JSON_DEPTH = 32
MAX_LIST = 500


@dataclass
class Accepted:
    """What a committed action produced."""

    game_id: int
    version: int
    seat: int
    state: dict
    events: list
    frame: Frame


@dataclass
class Cached:
    """A game as last read or written by this process, at one version."""

    id: int
    name: str
    game: Any  # engine.core.Game
    seat_count: int
    seed: str
    status: str
    version: int
    #: the engine state at ``version`` (never mutated: the engine copies before applying)
    state: dict | None
    waiting: list
    #: user id -> seat and seat -> bot kind; None while the game is open (seats still change)
    users: dict[int, int] | None = None
    bots: dict[int, str] = field(default_factory=dict)
    #: the frame of ``version`` once built (its encoded views are shared)
    frame: Frame | None = None
    #: the time control (app/clock.py) and the clock at ``version``; None: untimed
    time_control: dict | None = None
    clock: dict | None = None
    #: seats whose player left: the time control's bot plays them (they are in ``bots`` too)
    away: frozenset = frozenset()
    #: the revision of the seats (``games.seats_rev``) that ``users``/``bots``/``away`` show
    seats_rev: int = 0

    def timed(self) -> set[int]:
        """The seats played by people now (their decisions have deadlines)."""
        humans = set(self.users.values()) if self.users is not None else set()
        return humans - set(self.away) - set(self.bots)

    def public_clock(self) -> dict | None:
        return clock_mod.public(self.time_control, self.clock)


class GameCache:
    """The most recently used games of this process (LRU)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[int, Cached] = OrderedDict()

    def get(self, game_id: int) -> Cached | None:
        item = self._items.get(game_id)
        if item is not None:
            self._items.move_to_end(game_id)
        return item

    def put(self, item: Cached) -> None:
        old = self._items.get(item.id)
        if old is not None and old.version > item.version and old.state is not None:
            return  # never go back in time (a slower reader finishing after a writer)
        self._items[item.id] = item
        self._items.move_to_end(item.id)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._items.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._items)


class GameLocks:
    """One asyncio lock per game with waiters, dropped when nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[int, list] = {}

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int):
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = [asyncio.Lock(), 0]
        entry[1] += 1
        started = time.perf_counter()
        try:
            async with entry[0]:
                metrics.LOCK_WAIT.observe(time.perf_counter() - started)
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                self._locks.pop(game_id, None)


# the move as one statement (PostgreSQL): nothing is written unless the version still matches
_PG_MOVE = f"""
WITH upd AS (
    UPDATE games SET version = $3, state = $4::json, waiting_for = $5::json,
           status = $6::varchar, result = $7::json, updated_at = $8::timestamptz,
           clock = $14::json, turn_deadline = $15::timestamptz
    WHERE id = $1 AND version = $2 AND seats_rev = $18
    RETURNING id, state
), ins AS (
    INSERT INTO actions (game_id, version, seat, action, events, created_at, kind, clock_before)
    SELECT id, $3, $9::integer, $10::json, $11::json, $8::timestamptz, $16::varchar,
           $19::json FROM upd
), snap AS (
    INSERT INTO snapshots (game_id, version, state, created_at)
    SELECT id, $3, state, $8::timestamptz FROM upd WHERE $12::boolean
)
SELECT pg_notify('{CHANNEL}', $13::text),
       CASE WHEN $17::text IS NOT NULL THEN pg_notify('{USER_CHANNEL}', $17::text) END
FROM upd
"""
_PG_CURRENT = """
SELECT game, seat_count, seed, status, version, waiting_for,
       CASE WHEN version = $2 THEN NULL ELSE state END AS state, time_control, clock,
       seats_rev
FROM games WHERE id = $1
"""
_PG_SEATS = "SELECT seat, user_id, bot, away FROM seats WHERE game_id = $1"
_PG_LOG_AFTER = """
SELECT version, seat, action, events, kind FROM actions
WHERE game_id = $1 AND version > $2 AND version <= $3 ORDER BY version
"""


class _Row(NamedTuple):
    game: str
    seat_count: int
    seed: str
    status: str
    version: int
    waiting_for: Any
    state: Any
    time_control: Any = None
    clock: Any = None
    seats_rev: int = 0


class _Log(NamedTuple):
    version: int
    seat: int
    action: Any
    events: Any
    kind: str = "move"


def _seat_maps(rows) -> tuple[dict[int, int], dict[int, str], frozenset]:
    users = {r["user_id"]: r["seat"] for r in rows if r["user_id"] is not None}
    bots = {r["seat"]: r["bot"] for r in rows if r["bot"] is not None}
    away = frozenset(r["seat"] for r in rows if r["away"] and r["user_id"] is not None)
    return users, bots, away


def _with_away(bots: dict[int, str], away: frozenset, tc: dict | None) -> dict[int, str]:
    """Bot seats plus the seats handed to the time control's bot."""
    if not away:
        return bots
    kind = (tc or {}).get("bot", "greedy")
    return {**bots, **{seat: kind for seat in away}}


def iso(dt) -> str | None:
    if dt is None:
        return None
    from .auth import aware

    return aware(dt).isoformat().replace("+00:00", "Z")


def _status_of(exc: IllegalAction) -> int:
    return 403 if exc.code in NOT_YOUR_DECISION else 422


class GameService:
    def __init__(self, db: Database, settings: Settings, hub: Hub, bus=None,
                 signals: Signals | None = None) -> None:
        self.db = db
        self.signals = signals or Signals()
        self.settings = settings
        self.hub = hub
        self.bus = bus or LocalBus()
        self.bots = BotDriver(self, settings)
        self.cache = GameCache(settings.game_cache)
        self.locks = GameLocks()
        self._background: set[asyncio.Task] = set()
        hub.on_remote_move = self.remote_move

    def remote_move(self, game_id: int, version: int, seat: int, action: Any) -> bool:
        """Another process stored ``version`` (that seat's action): when sockets of this
        process watch the game and it holds the version before, apply the action here (the
        engine is deterministic: the same state results) instead of reading it back from the
        database. True when the new frame was published."""
        if not self.hub.watched(game_id):
            return False  # no socket here: read the state back only if someone asks for it
        c = self.cache.get(game_id)
        if c is None or c.state is None or c.version != version - 1 or c.users is None or \
                c.time_control:
            return False  # (a timed game's clock is only in the database: read it back)
        try:
            new, events = c.game.apply(c.state, seat, action)
        except Exception:  # pragma: no cover - would mean a different state: read it back
            log.warning("game %s: could not replay announced version %s", game_id, version,
                        exc_info=True)
            self.cache.drop(game_id)
            return False
        result = c.game.result(new)
        frame = Frame(c.game, version, new, events, users=c.users)
        self.cache.put(replace(c, version=version, state=new, frame=frame,
                               status="finished" if result is not None else "running",
                               waiting=sorted(c.game.waiting_for(new))))
        self.hub.publish_local(frame, game_id)
        return True

    # ------------------------------------------------------------------ lobby

    async def create(self, user: UserInfo, name: str, seats: int, options: dict,
                     bots: list[int], bot_kind: str, time_control: dict | None = None) -> dict:
        try:
            game = engine.get_game(name)
        except KeyError:
            raise ApiError(422, "unknown_game", f"There is no game named {name!r}.") from None
        if _depth(options) > MAX_JSON_DEPTH:
            raise ApiError(422, "bad_options", "The options are nested too deeply.")
        if bot_kind not in bot_kinds():
            raise ApiError(422, "unknown_bot",
                           f"There is no bot {bot_kind!r}; choose one of {bot_kinds()}.")
        seed = secrets.token_hex(16)
        try:
            game.setup(seats, options, seed)  # validates seats and options (BadSetup)
            normalized = game.normalize_options(options)
        except IllegalAction as exc:
            raise ApiError(422, exc.code, exc.message) from None
        except Exception:
            log.warning("setup of %s refused options %r", name, options, exc_info=True)
            raise ApiError(422, "bad_options",
                           "The game cannot be set up with these options.") from None
        if time_control is not None and time_control.get("bot") not in bot_kinds():
            raise ApiError(422, "unknown_bot",
                           f"There is no bot {time_control.get('bot')!r}; choose one of "
                           f"{bot_kinds()}.")
        if len(set(bots)) != len(bots) or any(not 1 <= b < seats for b in bots):
            raise ApiError(422, "bad_bots",
                           f"Bots take distinct seats from 1 to {seats - 1} "
                           "(the creator sits in 0).")
        now = utcnow()
        async with self.db.write() as s:
            row = Game(game=name, options=normalized, seed=seed, seat_count=seats, status="open",
                       version=0, state=None, waiting_for=[], created_by=user.id,
                       created_at=now, updated_at=now, time_control=time_control)
            s.add(row)
            await s.flush()
            for seat in range(seats):
                s.add(Seat(game_id=row.id, seat=seat, user_id=user.id if seat == 0 else None,
                           bot=bot_kind if seat in bots else None))
            await s.commit()
            game_id = row.id
        return await self.summary(game_id, user)

    async def join(self, user: UserInfo, game_id: int, seat: int | None) -> tuple[int, dict]:
        async with self.db.write() as s:
            row = await self._locked(s, game_id)
            if row.status != "open":
                raise ApiError(409, "not_open", "This game has already started.")
            seats = (await s.execute(select(Seat).where(Seat.game_id == game_id)
                                     .order_by(Seat.seat))).scalars().all()
            mine = [x.seat for x in seats if x.user_id == user.id]
            if mine:
                raise ApiError(409, "already_seated", f"You already sit in seat {mine[0]}.",
                               seat=mine[0])
            free = [x.seat for x in seats if x.user_id is None and x.bot is None]
            if seat is not None:
                if not 0 <= seat < row.seat_count:
                    raise ApiError(422, "bad_seat",
                                   f"Seats are numbered 0 to {row.seat_count - 1}.")
                if seat not in free:
                    raise ApiError(409, "seat_taken", f"Seat {seat} is taken.")
            elif not free:
                raise ApiError(409, "game_full", "Every seat is taken.")
            else:
                seat = free[0]
            result = await s.execute(
                update(Seat).where(Seat.game_id == game_id, Seat.seat == seat,
                                   Seat.user_id.is_(None), Seat.bot.is_(None))
                .values(user_id=user.id))
            if result.rowcount != 1:  # pragma: no cover - the row lock prevents it
                raise ApiError(409, "seat_taken", f"Seat {seat} is taken.")
            row.updated_at = utcnow()
            self.cache.drop(game_id)
            await self.seats_changed(game_id, s)
            try:
                await s.commit()
            except IntegrityError:  # pragma: no cover - same user joining twice at once
                raise ApiError(409, "already_seated", "You already sit in this game.") from None
        await self.seats_changed(game_id)
        return seat, await self.summary(game_id, user)

    async def seats_changed(self, game_id: int, session=None) -> None:
        """Tell every process that who sits where in the game changed, so that its sockets
        follow (:meth:`app.realtime.Hub.seats_changed`). Call it twice around the commit: with
        the session (PostgreSQL: NOTIFY, delivered on commit to every process), then without
        it after the commit (SQLite: this process only)."""
        if self.db.is_postgres:
            if session is not None:
                await self.bus.publish(SEATS_CHANNEL, str(game_id), session)
        elif session is None:
            await self.bus.publish(SEATS_CHANNEL, str(game_id))

    async def seat_map(self, game_id: int) -> dict[int, int]:
        """Who sits where in the game now: user id -> seat."""
        async with self.db.read() as s:
            return await self._users(s, game_id)

    @staticmethod
    async def _users(s, game_id: int) -> dict[int, int]:
        return dict((await s.execute(select(Seat.user_id, Seat.seat).where(
            Seat.game_id == game_id, Seat.user_id.is_not(None)))).all())

    async def start(self, user: UserInfo, game_id: int) -> dict:
        async with self.db.write() as s:
            row = await self._locked(s, game_id)
            if row.created_by != user.id:
                raise ApiError(403, "not_creator",
                               "Only the player who created the game can start it.")
            if row.status != "open":
                raise ApiError(409, "not_open", "This game has already started.")
            empty = (await s.execute(select(Seat.seat).where(
                Seat.game_id == game_id, Seat.user_id.is_(None), Seat.bot.is_(None))
                .order_by(Seat.seat))).scalars().all()
            if empty:
                raise ApiError(409, "seats_empty",
                               f"Seats still empty: {', '.join(map(str, empty))}.")
            invited = (await s.execute(select(Seat.seat).where(
                Seat.game_id == game_id, Seat.invited.is_(True)).order_by(Seat.seat))
                ).scalars().all()
            if invited:
                raise ApiError(409, "seats_invited",
                               "Some invited players have not accepted the rematch yet.")
            game = engine_game(row.game)
            state = game.setup(row.seat_count, row.options, row.seed)
            dumped = game.dump(state)
            result = game.result(state)
            row.state = dumped
            row.version = 0
            row.waiting_for = sorted(game.waiting_for(state))
            row.status = "finished" if result is not None else "running"
            row.result = result
            row.updated_at = now = utcnow()
            s.add(Snapshot(game_id=game_id, version=0, state=dumped))
            bot_seats = set((await s.execute(select(Seat.seat).where(
                Seat.game_id == game_id, Seat.bot.is_not(None)))).scalars().all())
            people = dict((await s.execute(select(Seat.seat, Seat.user_id).where(
                Seat.game_id == game_id, Seat.user_id.is_not(None)))).all())
            if row.time_control and row.status == "running":
                row.clock, row.turn_deadline = clock_mod.start(
                    row.time_control, row.seat_count, row.waiting_for, set(people), now)
            tc, clock_now, deadline = row.time_control, row.clock, row.turn_deadline
            await self.bus.before_commit(s, game_id, 0)
            self.cache.drop(game_id)
            waiting = list(row.waiting_for)
            turn = sorted(people[s] for s in waiting if s in people)
            notice = jsonutil.dumps_str({
                "g": game_id, "v": 0, "name": row.game, "title": game.title, "turn": turn,
                "users": sorted(people.values()), "status": row.status,
                "deadline": clock_mod.iso(deadline)})
            if self.db.is_postgres:
                await self.bus.publish(USER_CHANNEL, notice, s)
            await s.commit()
        self.hub.publish_local(Frame(game, 0, state, [], clock_mod.public(tc, clock_now),
                                     users={u: seat for seat, u in people.items()}), game_id)
        if not self.db.is_postgres:
            await self.bus.publish(USER_CHANNEL, notice)
        if turn:
            self.signals.emit_your_turn(YourTurn(game_id, 0, row.game, game.title, tuple(turn),
                                                 clock_mod.iso(deadline)))
        if bot_seats.intersection(waiting):
            self.bots.kick(game_id)
        return await self.summary(game_id, user)

    # ------------------------------------------------------------------ moves

    async def act(self, game_id: int, version: int, action: Any, *, user: UserInfo | None = None,
                  bot_seat: int | None = None, auto_seat: int | None = None) -> Accepted:
        """Apply one action for the caller's seat (or for a bot seat) at ``version``.

        ``auto_seat``: the platform answers for that player's seat (its time ran out; the
        caller checked the deadline); stored as kind "auto", like a move of an away seat."""
        if _depth(action) > MAX_JSON_DEPTH:
            raise ApiError(422, "malformed", "The action is nested too deeply.")
        started = time.perf_counter()
        async with self.locks.hold(game_id):
            c = self.cache.get(game_id)
            if c is None or c.state is None or c.users is None or c.version < version:
                c = await self.current(game_id)
            kind = "move"
            if user is not None:
                seat = c.users.get(user.id) if c.users is not None else None
                if seat is None:
                    raise ApiError(403, "no_seat", "You have no seat in this game.")
                if seat in c.away:
                    c = await self.current(game_id)  # (reclaimed through another process?)
                if seat in c.away:
                    raise ApiError(409, "seat_away",
                                   "A bot plays your seat since your time ran out; "
                                   "reclaim the seat first.")
            elif auto_seat is not None:
                seat, kind = auto_seat, "auto"
                if seat not in clock_mod.expired(c.clock, c.waiting, c.timed(), utcnow()):
                    raise ApiError(409, "not_expired", "That seat's time has not run out.")
            else:
                seat = bot_seat
                if seat not in c.bots:
                    raise ApiError(403, "no_seat", "That seat is not played by a bot.")
                if seat in c.away:
                    kind = "auto"
            if c.status == "open" or c.state is None:
                raise ApiError(409, "not_started", "The game has not started yet.")
            if version != c.version:
                raise ApiError(409, "stale_version",
                               f"The game is at version {c.version}; reload and try again.",
                               version=c.version)
            game, state = c.game, c.state
            try:
                _refuse_lookalikes(game, state, seat, action)
                new, events = game.apply(state, seat, action)
            except ApiError:
                raise
            except IllegalAction as exc:
                raise ApiError(_status_of(exc), exc.code, exc.message) from None
            except Exception:
                # an engine bug: refuse the action (nothing is stored) rather than fail
                log.exception("game %s v%s: the engine failed on seat %s's action %r",
                              game_id, c.version, seat, action)
                raise ApiError(422, "rejected",
                               "The game could not apply this action.") from None
            new_version = c.version + 1
            result = game.result(new)
            waiting = sorted(game.waiting_for(new))
            status = "finished" if result is not None else "running"
            snapshot = result is not None or new_version % self.settings.snapshot_every == 0
            now = utcnow()
            clock, deadline = self._next_clock(c, seat, kind, waiting, status, now)
            if result is not None:
                result = self._with_bot_played(c, clock, result)
            turn_users, notice = self._turn_notice(c, seat, waiting, status, new_version,
                                                   deadline)
            await self._store(c, seat, action, events, new_version, _dumped(game, new),
                              waiting, status, result, snapshot, clock=clock,
                              deadline=deadline, kind=kind, notice=notice, now=now)
            frame = Frame(game, new_version, new, events,
                          clock_mod.public(c.time_control, clock), users=c.users)
            self.cache.put(replace(c, version=new_version, state=new, status=status,
                                   waiting=waiting, frame=frame, clock=clock))
        metrics.ACTION_SECONDS.observe(time.perf_counter() - started)
        self.hub.publish_local(frame, game_id)
        await self._after_commit(c, new_version, status, turn_users, notice, deadline)
        if set(c.bots).intersection(waiting):
            self.bots.kick(game_id)
        return Accepted(game_id, new_version, seat, new, events, frame)

    # ------------------------------------------------------------------ clocks and notices

    def _next_clock(self, c: Cached, seat: int, kind: str, waiting: list, status: str,
                    now) -> tuple[dict | None, Any]:
        if not c.time_control or c.clock is None:
            return c.clock, None
        clock, deadline = clock_mod.advance(c.time_control, c.clock, seat, kind, c.waiting,
                                            waiting if status == "running" else [],
                                            c.timed(), now)
        return clock, deadline

    @staticmethod
    def _with_bot_played(c: Cached, clock: dict | None, result: dict) -> dict:
        """The result, with the seats a bot played (bot seats, and players' seats the platform
        answered for at least once)."""
        played = set(c.bots)
        for key, entry in ((clock or {}).get("seats") or {}).items():
            if entry.get("auto"):
                played.add(int(key))
        return {**result, "bot_played": sorted(played)}

    def _turn_notice(self, c: Cached, actor: int, waiting: list, status: str, version: int,
                     deadline) -> tuple[list[int], str | None]:
        """(users whose turn it became, the per-user notice to publish or None)."""
        if c.users is None:
            return [], None
        by_seat = {s: u for u, s in c.users.items()}
        turn = sorted(by_seat[s] for s in waiting
                      if s != actor and s not in c.waiting and s in by_seat and s not in c.bots)
        actor_done = actor in by_seat and actor in c.waiting and actor not in waiting
        if not turn and not actor_done and status != "finished":
            return [], None
        notice = jsonutil.dumps_str({
            "g": c.id, "v": version, "name": c.name, "title": c.game.title, "turn": turn,
            "users": sorted(by_seat.values()), "status": status,
            "deadline": clock_mod.iso(deadline)})
        return turn, notice

    async def _after_commit(self, c: Cached, version: int, status: str, turn_users: list[int],
                            notice: str | None, deadline) -> None:
        if notice is not None and not self.db.is_postgres:
            await self.bus.publish(USER_CHANNEL, notice)  # PostgreSQL: sent by the move itself
        if turn_users:
            self.signals.emit_your_turn(YourTurn(c.id, version, c.name, c.game.title,
                                                 tuple(turn_users), clock_mod.iso(deadline)))
        if status == "finished":
            self.signals.emit_finished(c.id)

    def _resync_soon(self, game_id: int) -> None:
        async def resync():
            for delay in (0.2, 1.0, 3.0, 10.0):
                await asyncio.sleep(delay)
                try:
                    version = await self.current_version(game_id)
                except Exception:
                    continue
                if version is not None:
                    self.hub.notify(game_id, version)
                return

        task = asyncio.get_running_loop().create_task(resync())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _store(self, c: Cached, *args, **kw) -> None:
        """:meth:`_write_move` for the holder of the game's lock, with what follows a failure:
        409 when another writer took the version first, and the sockets woken either way."""
        game_id, new_version = c.id, args[3]
        self.hub.expect(game_id, new_version)
        try:
            written = await self._write_move(c, *args, **kw)
        except BaseException:
            # unknown outcome (the connection died around the commit?): if it committed, its
            # announcement may have been skipped as ours; look again once we can
            self.hub.unexpect(game_id, new_version)
            self.cache.drop(game_id)
            self._resync_soon(game_id)
            raise
        if not written:
            # another writer (another process) took this version first; its announcement may
            # have been skipped as ours: wake the sockets for the real current version
            self.hub.unexpect(game_id, new_version)
            self.cache.drop(game_id)
            metrics.WRITE_CONFLICTS.inc()
            current = await self.current(game_id)
            self.hub.notify(game_id, current.version)
            raise ApiError(409, "stale_version",
                           "Another action was accepted first; reload and try again.",
                           version=current.version)

    async def _write_move(self, c: Cached, seat: int, action: Any, events: list,
                          new_version: int, dumped: dict, waiting: list, status: str,
                          result: dict | None, snapshot: bool, *, clock: dict | None = None,
                          deadline=None, kind: str = "move", notice: str | None = None,
                          now=None) -> bool:
        """Store one move if the game is still at ``c.version``; False if it is not.

        An undo (``kind="undo"``) is announced without the action (other processes reload it:
        it is not an engine move)."""
        now = now or utcnow()
        if self.db.is_postgres:
            import asyncpg

            dumps = jsonutil.dumps_str
            action_json = dumps(action)
            payload = (f"{c.id}:{new_version}" if kind == "undo"
                       else move_payload(c.id, new_version, seat, action_json))
            try:
                async with self.db.driver() as conn:
                    rows = await conn.fetch(
                        _PG_MOVE, c.id, c.version, new_version, dumps(dumped), dumps(waiting),
                        status, None if result is None else dumps(result), now, seat,
                        action_json, dumps(events), snapshot, payload,
                        None if clock is None else dumps(clock), deadline, kind, notice,
                        c.seats_rev, None if c.clock is None else dumps(c.clock))
            except asyncpg.UniqueViolationError:
                return False  # the log already has this version
            return len(rows) == 1
        async with self.db.write() as s:
            done = await s.execute(
                update(Game).where(Game.id == c.id, Game.version == c.version,
                                   Game.seats_rev == c.seats_rev)
                .values(version=new_version, state=dumped, waiting_for=waiting, status=status,
                        result=result, updated_at=now, clock=clock, turn_deadline=deadline))
            if done.rowcount != 1:
                return False
            await s.execute(insert(ActionRecord).values(
                game_id=c.id, version=new_version, seat=seat, action=action, events=events,
                created_at=now, kind=kind, clock_before=c.clock))
            if snapshot:
                await s.execute(insert(Snapshot).values(game_id=c.id, version=new_version,
                                                        state=dumped, created_at=now))
            try:
                await s.commit()
            except IntegrityError:
                return False
        return True

    async def bot_step(self, game_id: int) -> bool:
        """Play one bot move if a bot seat owes a decision. True if it should be called again."""
        try:
            c = await self.current(game_id)
        except ApiError:
            return False
        if c.status != "running" or c.state is None:
            return False
        seats = [seat for seat in c.waiting if seat in c.bots]
        if not seats:
            return False
        seat = seats[0]
        version = c.version
        try:
            bot = get_bot(c.bots[seat])
        except KeyError:
            log.error("game %s: seat %s has unknown bot %r", game_id, seat, c.bots[seat])
            return False
        try:
            action = await self._bot_choice(c, seat, bot)
        except Exception:
            log.exception("game %s: bot %s in seat %s failed to choose", game_id, c.bots[seat],
                          seat)
            return False
        try:
            await self.act(game_id, version, action, bot_seat=seat)
        except ApiError as exc:
            if exc.code == "stale_version":
                return True  # someone else moved first: look again
            log.error("game %s: bot move refused: %s %s", game_id, exc.code, exc.message)
            return False
        return True

    @staticmethod
    async def _bot_choice(c: Cached, seat: int, bot) -> Any:
        """The bot's answer for ``seat`` at the cached version (from the seat's view only)."""
        game, state = c.game, c.state
        holder = {"rng": engine_rng.seed_to_int(f"{c.seed}:{c.version}:{seat}")}

        def choose():
            if _decide is not None:  # builds the view, the legal answers and the sampler
                return _decide(bot, game, state, seat, holder)
            legal = game.legal_actions(state, seat)
            return bot.choose(game, game.view(state, seat), legal, holder)

        return await asyncio.to_thread(choose)

    async def games_waiting_for_bots(self) -> list[int]:
        async with self.db.read() as s:
            rows = (await s.execute(
                select(Game.id, Game.waiting_for, Seat.seat)
                .join(Seat, Seat.game_id == Game.id)
                .where(Game.status == "running",
                       Seat.bot.is_not(None) | Seat.away.is_(True)))).all()
        return sorted({r.id for r in rows if r.seat in (r.waiting_for or [])})

    # ------------------------------------------------------------------ time controls

    async def expired_games(self, now, limit: int = 50) -> list[int]:
        """Running games whose earliest deadline has passed (the scheduler's one query)."""
        async with self.db.read() as s:
            return list((await s.execute(
                select(Game.id).where(Game.status == "running",
                                      Game.turn_deadline.is_not(None),
                                      Game.turn_deadline <= now)
                .order_by(Game.turn_deadline).limit(limit))).scalars().all())

    async def play_timeouts(self, game_id: int, most: int = 50) -> int:
        """Answer every expired decision of the game with the time control's bot; hand a
        seat to the bot for good after ``abandon_after`` timeouts in a row. Returns how many
        decisions were played. Safe to run in several processes: a move is stored only at the
        version it was computed for."""
        played = 0
        for _ in range(most):
            try:
                c = await self.current(game_id)
            except ApiError:
                break
            if c.status != "running" or not c.time_control or c.state is None:
                break
            seats = clock_mod.expired(c.clock, c.waiting, c.timed(), utcnow())
            if not seats:
                break
            seat = seats[0]
            try:
                bot = get_bot(c.time_control.get("bot", "greedy"))
                action = await self._bot_choice(c, seat, bot)
                await self.act(game_id, c.version, action, auto_seat=seat)
            except ApiError as exc:
                if exc.code in ("stale_version", "not_expired"):
                    continue
                log.error("game %s: timeout move refused: %s %s", game_id, exc.code, exc.message)
                break
            played += 1
            log.info("game %s: seat %s timed out; the bot played", game_id, seat)
            after = self.cache.get(game_id)
            entry = ((after.clock if after else None) or {}).get("seats", {}).get(str(seat), {})
            if entry.get("timeouts", 0) >= c.time_control.get("abandon_after", 3):
                await self.set_away(game_id, seat, True)
        return played

    async def set_away(self, game_id: int, seat: int, away: bool) -> bool:
        """Hand a player's seat to the bot for good (``away``) or give it back; the clock is
        re-armed for the new set of people. True if the seat changed."""
        async with self.locks.hold(game_id):
            async with self.db.write() as s:
                row = await self._locked(s, game_id)
                done = await s.execute(
                    update(Seat).where(Seat.game_id == game_id, Seat.seat == seat,
                                       Seat.user_id.is_not(None), Seat.away.is_(not away))
                    .values(away=away))
                if done.rowcount != 1:
                    return False
                row.seats_rev = (row.seats_rev or 0) + 1  # moves computed before: refused
                if row.time_control and row.clock and row.status == "running":
                    people = set((await s.execute(select(Seat.seat).where(
                        Seat.game_id == game_id, Seat.user_id.is_not(None),
                        Seat.away.is_(False)))).scalars().all())
                    clock = row.clock
                    if not away:  # a fresh start: no timeouts in a row
                        clock = {"seats": {k: dict(v) for k, v in clock["seats"].items()}}
                        clock["seats"][str(seat)]["timeouts"] = 0
                    row.clock, row.turn_deadline = clock_mod.rearm(
                        row.time_control, clock, row.waiting_for or [], people, utcnow())
                self.cache.drop(game_id)
                await s.commit()
        if away:
            self.bots.kick(game_id)
        log.info("game %s: seat %s %s", game_id, seat, "handed to a bot" if away else "reclaimed")
        return True

    async def reclaim(self, game_id: int, user: UserInfo) -> dict:
        async with self.db.read() as s:
            seat = await self.seat_of(s, game_id, user)
            if seat is None:
                if await s.get(Game, game_id) is None:
                    raise not_found("game")
                raise ApiError(403, "no_seat", "You have no seat in this game.")
        if not await self.set_away(game_id, seat, False):
            raise ApiError(409, "not_away", "Your seat is not played by a bot.")
        return await self.summary(game_id, user)

    # ------------------------------------------------------------------ take-backs

    async def state_at(self, game_id: int, version: int) -> tuple[Any, dict]:
        """The engine and the state of ``version`` (nearest snapshot, then the log)."""
        async with self.db.read() as s:
            row = (await s.execute(select(Game.game).where(Game.id == game_id))).first()
            if row is None:
                raise not_found("game")
            snap = (await s.execute(
                select(Snapshot.version, Snapshot.state)
                .where(Snapshot.game_id == game_id, Snapshot.version <= version)
                .order_by(Snapshot.version.desc()).limit(1))).first()
            if snap is None:
                raise ApiError(409, "not_started", "The game has not started yet.")
            records = (await s.execute(
                select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                       ActionRecord.kind)
                .where(ActionRecord.game_id == game_id, ActionRecord.version > snap.version,
                       ActionRecord.version <= version)
                .order_by(ActionRecord.version))).all()
            undone = await undo_snapshots(s, game_id, records)
        game = engine_game(row.game)
        state = game.load(snap.state)
        for r in records:
            state = step(game, state, r, undone)
        return game, state

    async def undo(self, game_id: int, version: int, user: UserInfo) -> Accepted:
        """Take back the caller's latest decision: a new version whose state is the one
        before it (a snapshot is stored with it)."""
        async with self.locks.hold(game_id):
            c = self.cache.get(game_id)
            if c is None or c.state is None or c.users is None or c.version < version:
                c = await self.current(game_id)
            seat = c.users.get(user.id) if c.users is not None else None
            if seat is None:
                raise ApiError(403, "no_seat", "You have no seat in this game.")
            if c.status != "running" or c.state is None:
                raise ApiError(409, "not_running", "The game is not running.")
            if seat in c.away:
                c = await self.current(game_id)  # (reclaimed through another process?)
            if seat in c.away:
                raise ApiError(409, "seat_away",
                               "A bot plays your seat since your time ran out; "
                               "reclaim the seat first.")
            if version != c.version:
                raise ApiError(409, "stale_version",
                               f"The game is at version {c.version}; reload and try again.",
                               version=c.version)
            game = c.game
            if game.undo_depth(c.state, seat) == 0:
                raise ApiError(409, "cannot_undo",
                               "There is nothing of yours to take back: since your last "
                               "decision a card was drawn, something hidden was revealed or "
                               "another player decided.")
            target, undone, clock_before = await self._undo_target(game_id, c.version)
            _, restored = await self.state_at(game_id, target)
            new_version = c.version + 1
            events = [{"kind": "undo", "data": {"seat": seat, "to": target,
                                                "undone": undone}}]
            waiting = sorted(game.waiting_for(restored))
            now = utcnow()
            clock, deadline = c.clock, None
            if c.time_control and c.clock is not None:
                if clock_before is not None:
                    # the clock exactly as it was before the decision: the bank without the
                    # increment, the same wait start and deadline (only the seats' set of
                    # people, which a hand-over to the bot may have changed since, is current)
                    clock, deadline = clock_mod.rearm(c.time_control, clock_before, waiting,
                                                      c.timed(), now)
                else:  # a decision logged before clocks were kept with it
                    clock, deadline = clock_mod.advance(c.time_control, c.clock, seat, "undo",
                                                        c.waiting, waiting, c.timed(), now)
            by_seat = {s: u for u, s in c.users.items()}
            notice = jsonutil.dumps_str({
                "g": c.id, "v": new_version, "name": c.name, "title": game.title, "turn": [],
                "users": sorted(by_seat.values()), "status": "running",
                "deadline": clock_mod.iso(deadline)})
            await self._store(c, seat, {"undo": target}, events, new_version,
                              _dumped(game, restored), waiting, "running", None, True,
                              clock=clock, deadline=deadline, kind="undo", notice=notice,
                              now=now)
            frame = Frame(game, new_version, restored, events,
                          clock_mod.public(c.time_control, clock), users=c.users)
            self.cache.put(replace(c, version=new_version, state=restored, status="running",
                                   waiting=waiting, frame=frame, clock=clock))
        self.hub.publish_local(frame, game_id)
        log.info("game %s: seat %s took back version %s", game_id, seat, c.version)
        await self._after_commit(c, new_version, "running", [], notice, deadline)
        if set(c.bots).intersection(waiting):
            self.bots.kick(game_id)
        return Accepted(game_id, new_version, seat, restored, events, frame)

    async def _undo_target(self, game_id: int, version: int) -> tuple[int, int, dict | None]:
        """(the version whose state a take-back at ``version`` returns to, the version of the
        decision it takes back, the clock just before that decision).

        The current state was made by the decision logged at ``version``, or, when that row is
        itself a take-back of version T, it is T's state again: then the decision before T's
        is the one to take back (two take-backs in a row go two decisions back, never forward
        again). A decision the platform made for a player whose time ran out (``auto``) is
        not the player's to take back: its deadline would pass again at once."""
        async with self.db.read() as s:
            v = version
            while v > 0:
                row = (await s.execute(
                    select(ActionRecord.kind, ActionRecord.action, ActionRecord.clock_before)
                    .where(ActionRecord.game_id == game_id, ActionRecord.version == v))).first()
                if row is None:  # pragma: no cover - the log has no holes
                    break
                if row.kind == "undo":
                    v = int((row.action or {}).get("undo", v - 1))
                    continue
                if row.kind != "move":
                    raise ApiError(409, "cannot_undo",
                                   "A decision the platform made for you when your time ran "
                                   "out cannot be taken back.")
                return v - 1, v, row.clock_before
        raise ApiError(409, "cannot_undo",  # pragma: no cover - undo_depth said otherwise
                       "There is nothing of yours to take back: since your last decision a "
                       "card was drawn, something hidden was revealed or another player "
                       "decided.")

    # ------------------------------------------------------------------ reads

    async def current(self, game_id: int) -> Cached:
        """The game at its current version, from the cache when it is up to date.

        One read: the row's version and status, and its state only when the cached version is
        not the current one (plus the seats, once, when they are not cached).
        """
        c = self.cache.get(game_id)
        known = c.version if c is not None and c.state is not None else -1
        users, bots, away = (c.users, c.bots, c.away) if c is not None else (None, {}, frozenset())
        if c is not None:
            bots = {k: v for k, v in bots.items() if k not in away}  # the real bot seats
        if self.db.is_postgres:
            async with self.db.driver() as conn:
                row = await conn.fetchrow(_PG_CURRENT, game_id, known)
                if row is not None and (users is None or row["status"] == "open"
                                        or c is None or row["seats_rev"] != c.seats_rev):
                    seat_rows = await conn.fetch(_PG_SEATS, game_id)
                    users, bots, away = _seat_maps(seat_rows)
            if row is not None:
                row = _Row(row["game"], row["seat_count"], row["seed"], row["status"],
                           row["version"], row["waiting_for"], row["state"],
                           row["time_control"], row["clock"], row["seats_rev"])
        else:
            async with self.db.read_conn() as s:
                row = (await s.execute(
                    select(Game.game, Game.seat_count, Game.seed, Game.status, Game.version,
                           Game.waiting_for,
                           case((Game.version == known, None), else_=Game.state).label("state"),
                           Game.time_control, Game.clock, Game.seats_rev)
                    .where(Game.id == game_id))).first()
                if row is not None and (users is None or row.status == "open"
                                        or c is None or row.seats_rev != c.seats_rev):
                    seat_rows = (await s.execute(
                        select(Seat.seat, Seat.user_id, Seat.bot, Seat.away)
                        .where(Seat.game_id == game_id))).all()
                    users, bots, away = _seat_maps([r._mapping for r in seat_rows])
        if row is None:
            self.cache.drop(game_id)
            raise not_found("game")
        if c is not None and row.version == known and row.status == c.status and \
                c.users is not None and row.seats_rev == c.seats_rev:
            return c
        game = engine_game(row.game)
        state = c.state if row.version == known and c is not None else (
            game.load(row.state) if row.state is not None else None)
        tc = row.time_control
        fresh = Cached(game_id, row.game, game, row.seat_count, row.seed, row.status,
                       row.version, state, list(row.waiting_for or []),
                       users, _with_away(bots, away, tc),
                       c.frame if c is not None and row.version == known else None,
                       tc, row.clock, away, row.seats_rev)
        if row.status == "open":
            self.cache.put(replace(fresh, users=None))
            fresh.users = users
            return fresh
        self.cache.put(fresh)
        return fresh

    async def _locked(self, s, game_id: int) -> Game:
        row = (await s.execute(select(Game).where(Game.id == game_id).with_for_update())
               ).scalar_one_or_none()
        if row is None:
            raise not_found("game")
        return row

    async def seat_of(self, s, game_id: int, user: UserInfo | None) -> int | None:
        if user is None:
            return None
        return await s.scalar(select(Seat.seat).where(Seat.game_id == game_id,
                                                      Seat.user_id == user.id))

    async def _seats(self, s, game_ids: list[int]) -> dict[int, list[dict]]:
        rows = (await s.execute(
            select(Seat.game_id, Seat.seat, Seat.bot, Seat.user_id, Seat.away, Seat.invited,
                   User.username)
            .outerjoin(User, User.id == Seat.user_id)
            .where(Seat.game_id.in_(game_ids)).order_by(Seat.game_id, Seat.seat))).all()
        out: dict[int, list[dict]] = {gid: [] for gid in game_ids}
        for r in rows:
            out[r.game_id].append({
                "seat": r.seat,
                "user": ({"id": r.user_id, "username": r.username}
                         if r.user_id is not None else None),
                "bot": r.bot,
                "away": bool(r.away),
                "invited": bool(r.invited),
            })
        return out

    def _summary(self, row: Game, seats: list[dict], user: UserInfo | None,
                 creator: str | None) -> dict:
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
        }

    async def summary(self, game_id: int, user: UserInfo | None) -> dict:
        async with self.db.read() as s:
            row = (await s.execute(select(Game).options(defer(Game.state))
                                   .where(Game.id == game_id))).scalar_one_or_none()
            if row is None:
                raise not_found("game")
            seats = (await self._seats(s, [game_id]))[game_id]
            creator = await self._username(s, row.created_by)
        return self._summary(row, seats, user, creator)

    async def _username(self, s, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        return await s.scalar(select(User.username).where(User.id == user_id))

    async def detail(self, game_id: int, user: UserInfo | None) -> dict:
        async with self.db.read() as s:
            row = await s.get(Game, game_id)
            if row is None:
                raise not_found("game")
            seats = (await self._seats(s, [game_id]))[game_id]
            creator = await self._username(s, row.created_by)
        out = self._summary(row, seats, user, creator)
        if row.state is None:
            out["view"] = None
            out["result"] = None
            return out
        game = engine_game(row.game)
        state = game.load(row.state)
        out["view"] = game.view(state, out["your_seat"])
        out["result"] = game.result(state)
        return out

    async def legal(self, game_id: int, user: UserInfo) -> dict:
        c = await self.current(game_id)
        seat = c.users.get(user.id) if c.users is not None else None
        if seat is None:
            raise ApiError(403, "no_seat", "You have no seat in this game.")
        if c.state is None:
            raise ApiError(409, "not_started", "The game has not started yet.")
        return {"version": c.version, "seat": seat,
                "actions": c.game.legal_actions(c.state, seat)}

    async def log_after(self, game_id: int, user: UserInfo | None, after: int,
                        limit: int) -> dict:
        async with self.db.read() as s:
            row = (await s.execute(select(Game.id, Game.version).where(Game.id == game_id))).first()
            if row is None:
                raise not_found("game")
            seat = await self.seat_of(s, game_id, user)
            records = (await s.execute(
                select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                       ActionRecord.events, ActionRecord.created_at)
                .where(ActionRecord.game_id == game_id, ActionRecord.version > after)
                .order_by(ActionRecord.version).limit(limit + 1))).all()
        more = len(records) > limit
        entries = []
        for r in records[:limit]:
            entry = {"version": r.version, "seat": r.seat, "events": events_for(r.events, seat),
                     "at": iso(r.created_at)}
            if seat is not None and r.seat == seat:
                entry["action"] = r.action  # your own answers only: others may be secret
            entries.append(entry)
        return {"version": row.version, "entries": entries, "more": more}

    async def list_games(self, user: UserInfo | None, status: str | None, mine: bool,
                         limit: int, offset: int) -> list[dict]:
        async with self.db.read() as s:
            q = select(Game).options(defer(Game.state))
            if status:
                q = q.where(Game.status == status)
            if mine:
                assert user is not None
                q = q.join(Seat, Seat.game_id == Game.id).where(Seat.user_id == user.id)
                q = q.order_by(Game.updated_at.desc(), Game.id.desc()).limit(MAX_LIST)
            else:
                q = q.order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit).offset(offset)
            rows = (await s.execute(q)).scalars().all()
            ids = [r.id for r in rows]
            seats = await self._seats(s, ids) if ids else {}
            creator_ids = {r.created_by for r in rows if r.created_by is not None}
            names = {}
            if creator_ids:
                names = dict((await s.execute(select(User.id, User.username)
                                              .where(User.id.in_(creator_ids)))).all())
        out = [self._summary(r, seats[r.id], user, names.get(r.created_by)) for r in rows]
        if mine:
            # stable sort: the games waiting for the caller first, each group newest first
            out.sort(key=lambda g: not g["your_turn"])
            out = out[offset:offset + limit]
        return out

    async def current_version(self, game_id: int) -> int | None:
        async with self.db.read() as s:
            row = (await s.execute(select(Game.version, Game.status)
                                   .where(Game.id == game_id))).first()
        if row is None or row.status == "open":
            return None
        return row.version

    async def socket_info(self, game_id: int, user: UserInfo | None) -> dict:
        c = await self.current(game_id)
        seat = c.users.get(user.id) if user is not None and c.users is not None else None
        return {"version": c.version, "status": c.status, "seat": seat}

    async def load_frames(self, game_id: int, after: int, upto: int) -> list[Frame]:
        """Frames for versions ``after+1 .. upto`` rebuilt from the database.

        From this process's cached state when it is at or before ``after`` (the usual case: a
        version announced by another process; one query for the new log rows, one engine step
        per version, and the cache moves forward); otherwise from the game row (the current
        version) or the nearest snapshot plus the logged actions.
        """
        start = max(after + 1, 0)
        if start > upto:
            return []
        c = self.cache.get(game_id)
        if c is not None and c.state is not None:
            if start == upto == c.version and c.frame is not None:
                return [c.frame]
            if c.version == start - 1 and upto > c.version:
                return await self._frames_from_cache(c, start, upto)
            if c.version == start and c.frame is not None and upto > c.version:
                return [c.frame] + await self._frames_from_cache(c, start + 1, upto)
        async with self.db.read() as s:
            row = await s.get(Game, game_id)
            if row is None or row.state is None:
                return []
            upto = min(upto, row.version)
            if start > upto:
                return []
            game = engine_game(row.game)
            users = await self._users(s, game_id)  # (seats never change once started)
            if start == upto == row.version:
                events = [] if upto == 0 else (await s.scalar(
                    select(ActionRecord.events).where(ActionRecord.game_id == game_id,
                                                      ActionRecord.version == upto))) or []
                return [Frame(game, upto, game.load(row.state), events,
                              clock_mod.public(row.time_control, row.clock), users=users)]
            snap = (await s.execute(
                select(Snapshot.version, Snapshot.state)
                .where(Snapshot.game_id == game_id, Snapshot.version <= start)
                .order_by(Snapshot.version.desc()).limit(1))).first()
            if snap is None:  # pragma: no cover - every started game has snapshot 0
                log.error("game %s has no snapshot at or before %s", game_id, start)
                return []
            records = (await s.execute(
                select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                       ActionRecord.events, ActionRecord.kind)
                .where(ActionRecord.game_id == game_id,
                       ActionRecord.version >= max(snap.version, 1),
                       ActionRecord.version <= upto)
                .order_by(ActionRecord.version))).all()
            undone = await undo_snapshots(s, game_id, [r for r in records
                                                        if r.version > snap.version])
            clock_now = clock_mod.public(row.time_control, row.clock)
        state = game.load(snap.state)
        events_at = {r.version: r.events for r in records}
        frames = []
        if snap.version >= start:
            frames.append(Frame(game, snap.version, state, events_at.get(snap.version, []),
                                users=users))
        for r in records:
            if r.version <= snap.version:
                continue
            state = step(game, state, r, undone)
            if r.version >= start:
                frames.append(Frame(game, r.version, state, r.events,
                                    clock_now if r.version == row.version else None,
                                    users=users))
        return frames

    async def _frames_from_cache(self, c: Cached, start: int, upto: int) -> list[Frame]:
        """Replay the logged actions after the cached version, up to ``upto``."""
        if self.db.is_postgres:
            async with self.db.driver() as conn:
                records = [_Log(r["version"], r["seat"], r["action"], r["events"], r["kind"])
                           for r in await conn.fetch(_PG_LOG_AFTER, c.id, c.version, upto)]
        else:
            async with self.db.read_conn() as s:
                records = (await s.execute(
                    select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                           ActionRecord.events, ActionRecord.kind)
                    .where(ActionRecord.game_id == c.id, ActionRecord.version > c.version,
                           ActionRecord.version <= upto)
                    .order_by(ActionRecord.version))).all()
        undone = {}
        if any(r.kind == "undo" for r in records):
            async with self.db.read() as s:
                undone = await undo_snapshots(s, c.id, records)
        frames: list[Frame] = []
        state, version, frame = c.state, c.version, c.frame
        for r in records:
            if r.version != version + 1:
                break  # pragma: no cover - the log has no holes
            state = step(c.game, state, r, undone)
            version = r.version
            frame = Frame(c.game, version, state, r.events, users=c.users)
            if version >= start:
                frames.append(frame)
        if version > c.version and not c.time_control:
            # (a timed game's clock is not in the log: its cache is refreshed from the row)
            # the cache follows (waiting/status as of that state)
            result = c.game.result(state)
            self.cache.put(replace(c, version=version, state=state, frame=frame,
                                   status="finished" if result is not None else "running",
                                   waiting=sorted(c.game.waiting_for(state))))
        return frames

    async def replay(self, game_id: int) -> dict:
        """Rebuild a game from its seed and its log; compare with the stored state."""
        async with self.db.read() as s:
            row = await s.get(Game, game_id)
            if row is None:
                raise not_found("game")
            records = (await s.execute(
                select(ActionRecord.version, ActionRecord.seat, ActionRecord.action,
                       ActionRecord.kind).where(
                    ActionRecord.game_id == game_id).order_by(ActionRecord.version))).all()
        if row.state is None:
            raise ApiError(409, "not_started", "The game has not started yet.")
        game = engine_game(row.game)
        final = engine.replay(row.game, row.seat_count, row.options, row.seed,
                              effective_actions(records))
        replayed = game.state_hash(final)
        stored = game.state_hash(game.load(row.state))
        return {"id": game_id, "game": row.game, "version": row.version, "actions": len(records),
                "state_hash": replayed, "stored_hash": stored, "match": replayed == stored,
                "result": game.result(final)}


def _dumped(game, state: dict) -> dict:
    """``game.dump(state)``, without the deep copy when the game keeps the base ``dump`` (a copy
    of the state): the result is only encoded to JSON, never changed."""
    from engine.core import Game as _Base

    if type(game).dump is _Base.dump:
        return state
    return game.dump(state)


def _has_bool_or_float(data: Any) -> bool:
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (bool, float)):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _refuse_lookalikes(game, state: dict, seat: int, action: Any) -> None:
    """Refuse an action that equals a legal one only loosely (``7.0`` or ``true`` for ``7`` or
    ``1``): Python's ``==`` lets them through the engine's legality check, and the game would
    then store or index with the wrong type. Only actions holding a bool or a float can do that.
    """
    if not _has_bool_or_float(action):
        return
    legal = game.legal_actions(state, seat)
    if action in legal:
        exact = {jsonutil.canonical(a) for a in legal}
        if jsonutil.canonical(action) not in exact:
            raise ApiError(422, "malformed",
                           "The action's numbers or booleans do not match any legal action "
                           "exactly.")


def _depth(data: Any) -> int:
    from .jsonutil import depth

    return depth(data, MAX_JSON_DEPTH)


class BotDriver:
    """Plays the bot seats of games, one committed move at a time, until a human owes a move.

    One driver task per game in this process; a kick while it runs makes it look once more.
    """

    def __init__(self, service: GameService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self._tasks: dict[int, asyncio.Task] = {}
        self._kicks: dict[int, int] = {}
        self._closed = False

    def kick(self, game_id: int) -> None:
        if self._closed:
            return
        self._kicks[game_id] = self._kicks.get(game_id, 0) + 1
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.create_task(self._drive(game_id),
                                                       name=f"bots-{game_id}")

    async def _drive(self, game_id: int) -> None:
        moves = 0
        try:
            while True:
                seen = self._kicks.get(game_id, 0)
                if self.settings.bot_delay:
                    await asyncio.sleep(self.settings.bot_delay)
                if await self.service.bot_step(game_id):
                    moves += 1
                    if moves >= self.settings.bot_max_moves:
                        log.error("game %s: stopped bots after %s moves", game_id, moves)
                        break
                    continue
                if self._kicks.get(game_id, 0) == seen:
                    break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: bot driver failed", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
                self._kicks.pop(game_id, None)

    async def resume(self) -> None:
        """Drive the games left waiting for a bot (after a restart)."""
        for game_id in await self.service.games_waiting_for_bots():
            self.kick(game_id)

    async def wait_idle(self, timeout: float = 30.0) -> None:
        """Wait until no bot is playing (tests)."""
        async def _wait():
            while self._tasks:
                await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
        await asyncio.wait_for(_wait(), timeout)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
