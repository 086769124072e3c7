"""Moves: a seat's answer (or a bot's, or the platform's for a timed-out seat) and take-backs,
each stored as one new version; the clock and the "your turn" notices that go with them.

One accepted action is one transaction (see :mod:`.store`): check the version, apply the action
with the engine against the cached state, store the new version, then publish. A submission for
any other version than the current one gets 409 ``stale_version``, so of several concurrent
submissions exactly one wins. Within one process, writers of one game queue on an asyncio lock
first (the wait is the ``menagerie_game_lock_wait_seconds`` metric). When a bot seat owes the
next decision, the ``bot_turn`` signal says so (the bot driver listens; this module never calls
it).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any

from engine.core import IllegalAction

from .. import clock as clock_mod, jsonutil, metrics, outcome, tasks, times
from ..auth import UserInfo
from ..frame import Frame
from ..refusal import Refusal, RulesRefusal, say
from ..signals import YourTurn
from .cache import Accepted, Cached
from .checks import MAX_JSON_DEPTH, depth, dumped, refuse_lookalikes
from .context import GameContext
from .frames import Frames
from .reads import Reads
from .store import Move

log = logging.getLogger("menagerie.games")


def stale(version: int, *, first: bool = False) -> Refusal:
    """409 ``stale_version``: the game is at ``version`` (``first``: another writer stored the
    version this submission was for)."""
    message = (say("stale_version.first") if first
               else say("stale_version", version=version))
    return Refusal("stale_version", message, version=version)


class Moves:
    def __init__(self, ctx: GameContext, reads: Reads, frames: Frames) -> None:
        self.ctx = ctx
        self.reads = reads
        self.frames = frames

    def remote_move(self, game_id: int, version: int, seat: int, action: Any) -> bool:
        """Another process stored ``version`` (that seat's action): when sockets of this
        process watch the game and it holds the version before, apply the action here (the
        engine is deterministic: the same state results) instead of reading it back from the
        database. True when the new frame was published."""
        hub, cache = self.ctx.hub, self.ctx.cache
        if not hub.watched(game_id):
            return False  # no socket here: read the state back only if someone asks for it
        c = cache.get(game_id)
        if c is None or c.state is None or c.version != version - 1 or c.users is None or \
                c.time_control:
            return False  # (a timed game's clock is only in the database: read it back)
        try:
            new, events = c.game.apply(c.state, seat, action)
        except Exception:  # pragma: no cover - would mean a different state: read it back
            log.warning("game %s: could not replay announced version %s", game_id, version,
                        exc_info=True)
            cache.drop(game_id)
            return False
        result = c.game.result(new)
        frame = Frame(c.game, version, new, events, users=c.users)
        cache.put(replace(c, version=version, state=new, frame=frame,
                          status="finished" if result is not None else "running",
                          waiting=sorted(c.game.waiting_for(new))))
        hub.publish_local(frame, game_id)
        return True

    async def fresh(self, game_id: int, version: int) -> Cached:
        c = self.ctx.cache.get(game_id)
        if c is None or c.state is None or c.users is None or c.version < version:
            c = await self.reads.current(game_id)
        return c

    async def player_seat(self, c: Cached, game_id: int, user: UserInfo) -> tuple[Cached, int]:
        seat = c.seat_of(user.id)
        if seat is None:
            raise Refusal("no_seat", say("no_seat"))
        if seat in c.away:
            c = await self.reads.current(game_id)  # (reclaimed through another process?)
        if seat in c.away:
            raise Refusal("seat_away",
                          say("seat_away"))
        return c, seat

    async def act(self, game_id: int, version: int, action: Any, *, user: UserInfo | None = None,
                  bot_seat: int | None = None, auto_seat: int | None = None,
                  hold: bool = False) -> Accepted:
        """Apply one action for the caller's seat (or for a bot seat) at ``version``.

        ``auto_seat``: the platform answers for that player's seat (its time ran out; the
        caller checked the deadline); stored as kind "auto", like a move of an away seat.
        ``hold``: the player's client offers "Confirm turn": when this decision ends the
        player's turn and the player's preference says so, the turn is held (app/games/turns.py)."""
        if depth(action) > MAX_JSON_DEPTH:
            raise Refusal("malformed", say("malformed.nested"))
        started = time.perf_counter()
        async with self.ctx.locks.hold(game_id):
            c = await self.fresh(game_id, version)
            kind = "move"
            if user is not None:
                c, seat = await self.player_seat(c, game_id, user)
            elif auto_seat is not None:
                seat, kind = auto_seat, "auto"
                now = times.utcnow()
                if seat not in clock_mod.expired(c.clock, c.waiting, c.timed(), now):
                    raise Refusal("not_expired", say("not_expired"))
            else:
                seat = bot_seat
                if seat not in c.bots:
                    raise Refusal("no_seat", say("no_seat.bot"))
                if seat in c.away:
                    kind = "auto"
            if c.status == "open" or c.state is None:
                raise Refusal("not_started", say("not_started"))
            if c.status == "finished":  # (ended by a resignation or an abort, say)
                raise RulesRefusal("game_over", say("game_over"))  # (as the engine says)
            if version != c.version:
                raise stale(c.version)
            if c.held is not None:
                raise Refusal("turn_unconfirmed",
                              say("turn_unconfirmed"),
                              seat=c.held)
            game, state = c.game, c.state
            try:
                refuse_lookalikes(game, state, seat, action)
                new, events = game.apply(state, seat, action)
            except Refusal:
                raise
            except IllegalAction as exc:
                raise RulesRefusal(exc.code, exc.message) from None
            except Exception:
                # an engine bug: refuse the action (nothing is stored) rather than fail
                log.exception("game %s v%s: the engine failed on seat %s's action %r",
                              game_id, c.version, seat, action)
                raise Refusal("rejected",
                              say("rejected")) from None
            new_version = c.version + 1
            result = game.result(new)
            waiting = sorted(game.waiting_for(new))
            status = "finished" if result is not None else "running"
            snapshot = result is not None or new_version % self.ctx.settings.snapshot_every == 0
            now = times.utcnow()
            held = None
            if hold and user is not None and self.ends_turn(c, seat, waiting, status) and \
                    await self.ctx.store.confirms_turns(user.id):
                held, waiting = seat, [seat]  # the next seats wait for the confirm
            clock, deadline = self.next_clock(c, seat, kind, waiting, status, now)
            resigned: list[int] = []
            if result is not None:
                # (a resigned seat is away: only then can there be resignations to read)
                resigned = await self.ctx.store.resignations(game_id) if c.away else []
                result = self._with_bot_played(c, clock, result, resigned)
            turn_users, notice = self.turn_notice(c, seat, waiting, status, new_version,
                                                   deadline)
            outbox = self.sets_off(c, new_version, status, turn_users, deadline)
            await self.store(c, Move(seat, action, events, new_version, dumped(game, new),
                                     waiting, status, result, snapshot, clock, deadline, kind,
                                     notice, now, clock_before=c.clock, outbox=outbox,
                                     held=held))
            frame = Frame(game, new_version, new, events,
                          clock_mod.public(c.time_control, clock), users=c.users,
                          outcome=result if resigned else None, held=held)
            self.ctx.cache.put(replace(c, version=new_version, state=new, status=status,
                                       waiting=waiting, frame=frame, clock=clock, held=held))
        metrics.ACTION_SECONDS.observe(time.perf_counter() - started)
        self.ctx.hub.publish_local(frame, game_id)
        if outbox is not None:
            self.ctx.signals.wake_outbox()
        if set(c.bots).intersection(waiting):
            self.ctx.signals.emit_bot_turn(game_id)
        return Accepted(game_id, new_version, seat, new, events, frame)

    # ------------------------------------------------------------------ clocks and notices

    @staticmethod
    def ends_turn(c: Cached, seat: int, waiting: list, status: str) -> bool:
        """Whether ``seat``'s decision passes the game to other seats: the seat alone owed a
        decision before it, others owe the next one (a game's end, or a decision several
        seats owe at once, is no turn to confirm)."""
        return status == "running" and c.waiting == [seat] and bool(waiting) and \
            seat not in waiting

    def next_clock(self, c: Cached, seat: int, kind: str, waiting: list, status: str,
                    now) -> tuple[dict | None, Any]:
        if not c.time_control or c.clock is None:
            return c.clock, None
        clock, deadline = clock_mod.advance(c.time_control, c.clock, seat, kind, c.waiting,
                                            waiting if status == "running" else [],
                                            c.timed(), now)
        return clock, deadline

    @staticmethod
    def _with_bot_played(c: Cached, clock: dict[str, Any] | None, result: dict[str, Any],
                         resigned: list[int]) -> dict[str, Any]:
        """The result, with the seats a bot played (bot seats, and players' seats the platform
        answered for at least once) but the resigned ones, which finish last whoever played
        them on (app/outcome.py)."""
        played = set(c.bots)
        for key, entry in ((clock or {}).get("seats") or {}).items():
            if entry.get("auto"):
                played.add(int(key))
        result = outcome.with_resignations(result, resigned)
        return {**result, "bot_played": sorted(played - set(resigned))}

    @staticmethod
    def turn_notice(c: Cached, actor: int, waiting: list, status: str, version: int,
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
        return turn, Moves.notice(c, version, turn, status, deadline)

    @staticmethod
    def notice(c: Cached, version: int, turn: list[int], status: str, deadline) -> str:
        """The notice published to the game's players (their game lists): ``turn`` the users
        whose turn it became."""
        by_seat = {s: u for u, s in c.users.items()}
        return jsonutil.dumps_str({
            "g": c.id, "v": version, "name": c.name, "title": c.game.title, "turn": turn,
            "users": sorted(by_seat.values()), "status": status,
            "deadline": clock_mod.iso(deadline)})

    @staticmethod
    def sets_off(c: Cached, version: int, status: str, turn_users: list[int],
                  deadline) -> tuple[str, dict] | None:
        """The outbox row stored with the move (app/outbox.py): whose turn it became, or the
        game's end; None when the move sets off nothing."""
        if turn_users:
            return "your_turn", YourTurn(c.id, version, c.name, c.game.title,
                                         tuple(turn_users), clock_mod.iso(deadline)).payload()
        if status == "finished":
            return "finished", {}
        return None

    # ------------------------------------------------------------------ storing

    def _resync_soon(self, game_id: int) -> None:
        async def resync():
            for delay in (0.2, 1.0, 3.0, 10.0):
                await asyncio.sleep(delay)
                try:
                    version = await self.reads.current_version(game_id)
                except Exception:
                    continue
                if version is not None:
                    self.ctx.hub.notify(game_id, version)
                return

        tasks.spawn(resync())

    async def store(self, c: Cached, move: Move) -> None:
        """Store ``move`` for the holder of the game's lock, with what follows a failure: 409
        when another writer took the version first, and the sockets woken either way."""
        hub, cache = self.ctx.hub, self.ctx.cache
        game_id, new_version = c.id, move.version
        hub.expect(game_id, new_version)
        try:
            written = await self.ctx.store.write_move(game_id, c.version, c.seats_rev, move)
        except BaseException:
            # unknown outcome (the connection died around the commit?): if it committed, its
            # announcement may have been skipped as ours; look again once we can
            hub.unexpect(game_id, new_version)
            cache.drop(game_id)
            self._resync_soon(game_id)
            raise
        if not written:
            # another writer (another process) took this version first; its announcement may
            # have been skipped as ours: wake the sockets for the real current version
            hub.unexpect(game_id, new_version)
            cache.drop(game_id)
            metrics.WRITE_CONFLICTS.inc()
            current = await self.reads.current(game_id)
            hub.notify(game_id, current.version)
            raise stale(current.version, first=True)
