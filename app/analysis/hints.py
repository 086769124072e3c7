"""Hints in casual games (issue #19): the engine's proposal for a seat's current decision,
computed in a process of its own (the search never runs on the server's event loop).

A game has hints only when its creator chose ``hints`` on the new-game form; every player who
joined saw "hints allowed" first (their join is their agreement). Such a game is never rated
(``app/ratings.py``). The engine's ``hint(game, state, seat)`` works from that seat's view only
(every world it searches comes from ``game.determinize(state, seat, rng)``), and the answer is
one of the seat's own legal answers, so nothing hidden from the seat leaves the server.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from cachetools import LRUCache

from ..errors import ApiError
from . import compute

log = logging.getLogger("menagerie.analysis")


class HintPool:
    """One worker process (started on the first hint) and the answers of the last versions."""

    def __init__(self, settings, preload: list[str]) -> None:
        self.settings = settings
        self.preload = preload
        self._pool: ProcessPoolExecutor | None = None
        #: (game id, version, seat) -> hint: asking twice costs nothing
        self._cache: LRUCache = LRUCache(maxsize=256)
        self._lock = asyncio.Lock()

    def engine_settings(self) -> dict:
        playouts = self.settings.hint_playouts
        return {"playouts": playouts} if playouts else {}

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=compute.preload, initargs=(self.preload,))
        return self._pool

    def _drop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def hint(self, key: tuple, name: str, dumped: dict, seat: int) -> dict:
        found = self._cache.get(key)
        if found is not None:
            return found
        async with self._lock:  # one at a time: a second click waits for the first answer
            found = self._cache.get(key)
            if found is not None:
                return found
            loop = asyncio.get_running_loop()
            try:
                fut = loop.run_in_executor(self._executor(), compute.run_hint, name, dumped,
                                           seat, self.engine_settings())
                answer = await asyncio.wait_for(fut, self.settings.hint_timeout)
            except asyncio.TimeoutError:
                self._drop()
                raise ApiError(503, "hint_timeout",
                               "The hint took too long; try again in a moment.") from None
            except BrokenProcessPool:
                self._drop()
                raise ApiError(503, "hint_timeout",
                               "The hint took too long; try again in a moment.") from None
            except ApiError:
                raise
            except Exception:  # the engine could not search this decision
                log.exception("hint for %s failed", key)
                raise ApiError(503, "hint_unavailable",
                               "No hint can be given for this decision.") from None
            self._cache[key] = answer
            return answer

    def forget(self) -> None:
        """Drop the remembered answers (a test that changes a stored state)."""
        self._cache.clear()

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
