"""Bot seats and timed-out players: the bot driver, the time control's bot, away seats.

The driver listens to the ``bot_turn`` signal (lobby and moves emit it; they never import this
module) and plays one committed move at a time until a person owes the next decision. A bot
decides from its seat's view only (:func:`engine.bots.decide`). After ``abandon_after`` timeouts
in a row a player's seat is handed to the time control's bot ("away"); the player may reclaim
it. Handing a seat over or back bumps the seats' revision, so a move computed for the old seats
is refused in every process.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine.bots import decide, get_bot
from engine.core import rng as engine_rng

from .. import clock as clock_mod, times
from ..auth import UserInfo
from ..refusal import Refusal, not_found, say
from ..settings import Settings
from .cache import Cached
from .context import GameContext
from .moves import Moves
from .reads import Reads
from .turns import Turns

log = logging.getLogger("menagerie.games")


#: a bot decision slower than this (waiting for a thread plus thinking) is logged as a warning
SLOW_DECISION = 10.0
#: a game whose bot driver has been inside one step this long is logged (with the step's stack)
#: by the sweep: a stuck step is named, never silent
STUCK_STEP = 45.0


async def bot_choice(c: Cached, seat: int, bot, confirms: int = 0,
                     threads: ThreadPoolExecutor | None = None) -> Any:
    """The bot's answer for ``seat`` at the cached version (from the seat's view only).

    ``confirms``: the log's confirm rows (app/games/turns.py), which move no piece: the bot
    draws from the version without them, so a game whose turns were confirmed gets the bot's
    answers of the same game played without confirms (the fixed-seed browser tests rely on it).
    ``threads``: the bots' own threads (:class:`BotTurns`), so a bot never queues behind other
    blocking work of the process (hints, analyses, password hashes share the default ones)."""
    game, state = c.game, c.state
    holder = {"rng": engine_rng.seed_to_int(f"{c.seed}:{c.version - confirms}:{seat}")}
    asked = time.monotonic()
    started: list[float] = []

    def think() -> Any:
        started.append(time.monotonic())
        return decide(bot, game, state, seat, holder)

    action = await asyncio.get_running_loop().run_in_executor(threads, think)
    done = time.monotonic()
    if done - asked > SLOW_DECISION:
        queued = (started[0] - asked) if started else done - asked
        log.warning("game %s: bot %s in seat %s took %.1f s at version %s (%.1f s waiting for a "
                    "thread, %.1f s thinking)", c.id, getattr(bot, "kind", bot), seat,
                    done - asked, c.version, queued, done - asked - queued)
    return action


def awaiting_at(task: asyncio.Task[Any]) -> str:
    """Where a task waits: each coroutine of its await chain, outermost first, one line each
    (a task's own stack shows only its outermost coroutine)."""
    lines = []
    coro: Any = task.get_coro()
    for _ in range(40):
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            break
        code = frame.f_code
        lines.append(f"  {code.co_filename}:{frame.f_lineno} in {code.co_name}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        if coro is None:
            break
    if coro is not None and lines:
        lines.append(f"  awaiting {coro!r}"[:300])
    return "\n".join(lines) or f"  {task!r}"


class BotTurns:
    def __init__(self, ctx: GameContext, reads: Reads, moves: Moves, ends: Turns) -> None:
        self.ctx = ctx
        self.reads = reads
        self.moves = moves
        self.ends = ends
        #: the bots' own threads: a decision never waits behind the default executor's work
        self.threads = ThreadPoolExecutor(max_workers=ctx.settings.bot_threads,
                                          thread_name_prefix="menagerie-bot")
        self.driver = BotDriver(self, ctx.settings)
        ctx.signals.on_bot_turn(self.driver.kick)

    async def bot_step(self, game_id: int) -> bool:
        """Play one bot move if a bot seat owes a decision. True if it should be called again."""
        try:
            c = await self.reads.current(game_id)
        except Refusal:
            return False
        if c.status != "running" or c.state is None:
            return False
        seats = [seat for seat in c.waiting if seat in c.bots]
        if not seats or len(c.bots) >= c.seat_count:  # no person left: bots never play alone
            return False
        seat = seats[0]
        version = c.version
        try:
            bot = get_bot(c.bots[seat])
        except KeyError:
            log.error("game %s: seat %s has unknown bot %r", game_id, seat, c.bots[seat])
            return False
        try:
            action = await bot_choice(c, seat, bot, await self.ctx.store.confirm_count(game_id),
                                      self.threads)
        except Exception:
            log.exception("game %s: bot %s in seat %s failed to choose", game_id, c.bots[seat],
                          seat)
            return False
        try:
            await self.moves.act(game_id, version, action, bot_seat=seat)
        except Refusal as exc:
            if exc.code == "stale_version":
                return True  # someone else moved first: look again
            log.error("game %s: bot move refused: %s %s", game_id, exc.code, exc.message)
            return False
        return True

    async def play_timeouts(self, game_id: int, most: int = 50) -> int:
        """Answer every expired decision of the game with the time control's bot; hand a
        seat to the bot for good after ``abandon_after`` timeouts in a row. Returns how many
        decisions were played. Safe to run in several processes: a move is stored only at the
        version it was computed for."""
        played = 0
        for _ in range(most):
            try:
                c = await self.reads.current(game_id)
            except Refusal:
                break
            if c.status != "running" or not c.time_control or c.state is None:
                break
            seats = clock_mod.expired(c.clock, c.waiting, c.timed(), times.utcnow())
            if not seats:
                break
            seat = seats[0]
            if c.held == seat:  # a held turn whose time ran out: the timeout confirms it
                try:
                    await self.ends.confirm(game_id, c.version, auto_seat=seat)
                except Refusal as exc:
                    if exc.code in ("stale_version", "not_expired"):
                        continue
                    log.error("game %s: timeout confirm refused: %s", game_id, exc.code)
                    break
                played += 1
                log.info("game %s: seat %s timed out; its held turn is confirmed", game_id, seat)
                continue
            try:
                bot = get_bot(c.time_control.get("bot", clock_mod.DEFAULT_BOT))
                action = await bot_choice(c, seat, bot, threads=self.threads)
                await self.moves.act(game_id, c.version, action, auto_seat=seat)
            except Refusal as exc:
                if exc.code in ("stale_version", "not_expired"):
                    continue
                log.error("game %s: timeout move refused: %s %s", game_id, exc.code, exc.message)
                break
            played += 1
            log.info("game %s: seat %s timed out; the bot played", game_id, seat)
            after = self.ctx.cache.get(game_id)
            entry = ((after.clock if after else None) or {}).get("seats", {}).get(str(seat), {})
            if entry.get("timeouts", 0) >= c.time_control.get("abandon_after", 3):
                await self.set_away(game_id, seat, True)
        return played

    async def set_away(self, game_id: int, seat: int, away: bool) -> bool:
        """Hand a player's seat to the bot for good (``away``) or give it back; the clock is
        re-armed for the new set of people. True if the seat changed."""
        async with self.ctx.locks.hold(game_id):
            async with self.ctx.store.lobby(game_id) as tx:
                row = tx.row
                if not await tx.set_away(seat, away):
                    return False
                row.seats_rev = (row.seats_rev or 0) + 1  # moves computed before: refused
                if row.time_control and row.clock and row.status == "running":
                    people = set(await tx.people(present=True))
                    clock = row.clock
                    if not away:  # a fresh start: no timeouts in a row
                        clock = {"seats": {k: dict(v) for k, v in clock["seats"].items()}}
                        clock["seats"][str(seat)]["timeouts"] = 0
                    row.clock, row.turn_deadline = clock_mod.rearm(
                        row.time_control, clock, row.waiting_for or [], people,
                        times.utcnow())
                self.ctx.cache.drop(game_id)
                await tx.commit()
        if away:
            self.driver.kick(game_id)
        log.info("game %s: seat %s %s", game_id, seat, "handed to a bot" if away else "reclaimed")
        return True

    async def reclaim(self, game_id: int, user: UserInfo) -> dict:
        seat = await self.reads.seat_of(game_id, user)
        if seat is None:
            if await self.ctx.store.version_status(game_id) is None:
                raise not_found("game")
            raise Refusal("no_seat", say("no_seat"))
        if seat in await self.ctx.store.resignations(game_id):
            raise Refusal("resigned",
                          say("resigned"))
        if not await self.set_away(game_id, seat, False):
            raise Refusal("not_away", say("not_away"))
        return await self.reads.summary(game_id, user)


class BotDriver:
    """Plays the bot seats of games, one committed move at a time, until a human owes a move.

    One driver task per game in this process; a kick while it runs makes it look once more.
    """

    #: seconds between two sweeps (a bot thinks for a second or two at most)
    SWEEP_EVERY = 15.0

    def __init__(self, turns: BotTurns, settings: Settings) -> None:
        self.turns = turns
        self.settings = settings
        self._tasks: dict[int, asyncio.Task] = {}
        self._kicks: dict[int, int] = {}
        self._closed = False
        #: the games the last sweep found waiting for a bot
        self._waiting_before: set[int] = set()
        self._swept = float("-inf")
        self._stalled_before: set[int] = set()
        #: game -> when its driver began the step it is in (monotonic seconds)
        self._step_began: dict[int, float] = {}
        #: games already reported stuck in their current step
        self._stuck: set[int] = set()

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
                self._step_began[game_id] = time.monotonic()
                self._stuck.discard(game_id)
                if await self.turns.bot_step(game_id):
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
                self._step_began.pop(game_id, None)
                self._stuck.discard(game_id)

    async def resume(self) -> None:
        """Drive the games left waiting for a bot (after a restart)."""
        for game_id in await self.turns.ctx.store.games_waiting_for_bots():
            self.kick(game_id)

    async def sweep(self, _now: object = None) -> list[int]:
        """The scheduler's safety net: a game that waits for a bot in two passes running, with
        no bot of this process playing it, is driven again, with a warning (a bot that failed
        to choose, or a kick lost, must not stall a game for good). Returns those games."""
        now = time.monotonic()
        if now - self._swept < self.SWEEP_EVERY:
            return []
        self._swept = now
        waiting = set(await self.turns.ctx.store.games_waiting_for_bots())
        stalled = sorted(g for g in waiting & self._waiting_before
                         if g not in self._tasks or self._tasks[g].done())
        self._waiting_before = waiting
        for game_id in stalled:
            # once per stall (a game only bots sit at waits for good: bots never play alone)
            if game_id not in self._stalled_before:
                log.warning("game %s: waiting for a bot that is not playing; driving it again",
                            game_id)
            self.kick(game_id)
        self._stalled_before = set(stalled)
        self.report_stuck(now)
        return stalled

    def report_stuck(self, now: float) -> list[int]:
        """Log (once per step) each game whose driver has been inside one step for
        ``STUCK_STEP`` seconds, with where it waits: a bot that thinks for ever, a lock never
        released or a thread never free is named in the log, not only felt as a silent table."""
        stuck = []
        for game_id, task in list(self._tasks.items()):
            began = self._step_began.get(game_id)
            if task.done() or began is None or now - began < STUCK_STEP:
                continue
            stuck.append(game_id)
            if game_id in self._stuck:
                continue
            self._stuck.add(game_id)
            log.warning("game %s: the bot driver has been in one step for %.0f s; it waits at:\n%s",
                        game_id, now - began, awaiting_at(task))
        return stuck

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
        self.turns.threads.shutdown(wait=False, cancel_futures=True)
