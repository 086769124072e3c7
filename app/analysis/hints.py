"""Hints in casual games (issue #19): the engine's proposal for a seat's current decision,
computed in a process of its own (the search never runs on the server's event loop).

A game has hints only when its creator chose ``hints`` on the new-game form; every player who
joined saw "hints allowed" first (their join is their agreement). Such a game is never rated
(``app/ratings.py``). The engine's ``hint(game, state, seat)`` works from that seat's view only
(every world it searches comes from ``game.determinize(state, seat, rng)``), and the answer is
one of the seat's own legal answers, so nothing hidden from the seat leaves the server.

Fair use (issue #31, finding 5): the hint process runs niced (``hint_nice``, in the idle class
where Linux allows it), each user has a token bucket of hints (``app/ratelimit.py``, checked by
the route), and each user has at most one hint waiting or computing at a time (another one
for a different decision is 429 ``hint_pending``; the same decision shares the first one's
answer). The pool answers one hint at a time in arrival order, so a user's hint waits for at
most one hint of each other user, never for a queue one user filled.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading

from cachetools import LRUCache

from ..refusal import Refusal, say
from . import compute

log = logging.getLogger("menagerie.analysis")

TIMEOUT = ("hint_timeout", say("hint_timeout"))


class HintPool:
    """One worker process (started on the first hint, kept warm between hints) and the answers
    of the last versions. A hint that takes longer than ``hint_timeout`` kills the process: its
    search stops there, not when it would have ended, so slow hints never pile up CPU work; the
    next hint starts a fresh process."""

    def __init__(self, settings, preload: list[str]) -> None:
        self.settings = settings
        self.preload = preload
        self._proc = None           # the process (multiprocessing, spawned)
        self._conn = None           # our end of its pipe
        self._started = threading.Lock()  # guards _proc/_conn (the asking thread, the loop)
        self._asking = threading.Lock()   # one job on the pipe at a time
        #: (game id, version, seat) -> hint: asking twice costs nothing
        self._cache: LRUCache = LRUCache(maxsize=256)
        self._lock = asyncio.Lock()
        #: user id -> the key of their hint waiting or computing now (at most one each)
        self.pending: dict[int, tuple] = {}

    def engine_settings(self) -> dict:
        playouts = self.settings.hint_playouts
        return {"playouts": playouts} if playouts else {}

    @property
    def pid(self) -> int | None:
        """The worker process' id while it runs (None before the first hint, after a kill)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.is_alive() else None

    def _process(self):
        with self._started:
            if self._proc is None or not self._proc.is_alive():
                self._end_locked()
                ctx = multiprocessing.get_context("spawn")
                ours, theirs = ctx.Pipe()
                proc = ctx.Process(target=compute.hint_loop,
                                   args=(theirs, list(self.preload), self.settings.hint_nice),
                                   name="menagerie-hint", daemon=True)
                proc.start()
                theirs.close()
                self._proc, self._conn = proc, ours
            return self._conn

    def _end_locked(self) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if proc is not None:
            if proc.is_alive():
                proc.kill()
            proc.join(5)
        if conn is not None:
            conn.close()

    def kill(self) -> None:
        """End the worker process now, whatever it computes (blocking: from a thread)."""
        with self._started:
            self._end_locked()

    def _ask(self, job: tuple) -> tuple[str, object]:
        """One job through the process (in a thread). ``("ok", hint)``, ``("error", text)``,
        or ``("died", None)`` when the process ended under it (killed: the hint timed out)."""
        with self._asking:
            conn = self._process()
            try:
                conn.send(job)
                return conn.recv()
            except (EOFError, OSError):
                return "died", None

    async def hint(self, key: tuple, name: str, dumped: dict, seat: int,
                   user_id: int | None = None) -> dict:
        found = self._cache.get(key)
        if found is not None:
            return found
        if user_id is None:
            return await self._compute(key, name, dumped, seat)
        mine = self.pending.get(user_id)
        if mine is not None and mine != key:
            raise Refusal("hint_pending",
                          say("hint_pending"),
                          retry_after=1)
        if mine is None:
            self.pending[user_id] = key
        try:
            return await self._compute(key, name, dumped, seat)
        finally:
            if mine is None:
                self.pending.pop(user_id, None)

    async def _compute(self, key: tuple, name: str, dumped: dict, seat: int) -> dict:
        async with self._lock:  # one at a time: a second click waits for the first answer
            found = self._cache.get(key)
            if found is not None:
                return found
            job = (name, dumped, seat, self.engine_settings())
            asking = asyncio.ensure_future(asyncio.to_thread(self._ask, job))
            try:
                status, value = await asyncio.wait_for(asyncio.shield(asking),
                                                       self.settings.hint_timeout)
            except (TimeoutError, asyncio.CancelledError) as exc:
                # too long, or nobody waits for it any more: the search stops now (the asking
                # thread sees the pipe close and ends)
                await asyncio.shield(asyncio.to_thread(self.kill))
                await asyncio.shield(asking)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                raise Refusal(*TIMEOUT) from None
            if status == "died":
                raise Refusal(*TIMEOUT)
            if status != "ok":  # the engine could not search this decision
                log.error("hint for %s failed: %s", key, value)
                raise Refusal("hint_unavailable",
                              say("hint_unavailable"))
            self._cache[key] = value
            return value

    def forget(self) -> None:
        """Drop the remembered answers (a test that changes a stored state)."""
        self._cache.clear()

    async def close(self) -> None:
        await asyncio.to_thread(self.kill)
