"""In-process signals fired after a move commits: whose turn it became, which game finished.

The game service emits them in the process that committed the move (exactly once per move, so
a webhook or a rating update is not repeated by every process); listeners run as background
tasks, and a failing listener is logged without touching the move.

- ``your_turn``: :class:`YourTurn` — human players who now owe a decision in a game and did
  not make the move that led there (webhooks, the per-user socket channel);
- ``finished``: the id of a game that just ended (ratings);
- ``bot_turn``: the id of a game where a bot seat may owe a decision now (the bot driver); its
  listeners are plain functions called at once (they only schedule work).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Awaitable, Callable

log = logging.getLogger("menagerie.signals")


@dataclass(frozen=True)
class YourTurn:
    game_id: int
    version: int
    game: str                 #: the engine name ("arknova")
    title: str                #: the game's title
    users: tuple[int, ...]    #: user ids whose turn it became
    deadline: str | None = None  #: ISO time of their deadline, if the game has a time control


Listener = Callable[..., Awaitable[None]]


@dataclass
class Signals:
    your_turn: list[Listener] = field(default_factory=list)
    finished: list[Listener] = field(default_factory=list)
    bot_turn: list[Callable[[int], None]] = field(default_factory=list)
    _tasks: set = field(default_factory=set)

    def on_your_turn(self, listener: Listener) -> None:
        self.your_turn.append(listener)

    def on_finished(self, listener: Listener) -> None:
        self.finished.append(listener)

    def on_bot_turn(self, listener: Callable[[int], None]) -> None:
        self.bot_turn.append(listener)

    def emit_bot_turn(self, game_id: int) -> None:
        for listener in self.bot_turn:
            listener(game_id)

    def emit_your_turn(self, event: YourTurn) -> None:
        if event.users:
            self._run(self.your_turn, event)

    def emit_finished(self, game_id: int) -> None:
        self._run(self.finished, game_id)

    def _run(self, listeners: list[Listener], arg) -> None:
        for listener in listeners:
            task = asyncio.get_running_loop().create_task(self._guard(listener, arg))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _guard(listener: Listener, arg) -> None:
        try:
            await listener(arg)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("signal listener %r failed", listener)

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait for the running listeners (tests, shutdown); cancel those still running after
        ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._tasks:
            left = end - loop.time()
            if left <= 0:
                for task in list(self._tasks):
                    task.cancel()
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
                log.warning("signal listeners cancelled at shutdown")
                return
            await asyncio.wait(list(self._tasks), timeout=left)
