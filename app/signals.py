"""What a committed move sets off: whose turn it became, which game finished.

A move writes these into the outbox in its own transaction (``app/outbox.py``); the outbox
worker then hands a batch of them to the listeners here *in one transaction of its own*, in
which each listener queues what it causes (a webhook delivery, an email or push job, a rating)
and the outbox rows are deleted. So a notice is neither lost when a process dies between the
move and the send, nor queued twice; the process that made the move runs it at once, any
process picks up what a dead one left.

- ``your_turn``: :class:`YourTurn` — human players who now owe a decision in a game and did
  not make the move that led there (webhooks, email and push notices);
- ``finished``: the id of a game that just ended (ratings, "game over" notices);
- ``notice``: a :class:`Notify` for players outside the turn order (a chat mention, a rematch
  invitation), written by the chat or the rematch in the transaction of what caused it;
- ``bot_turn``: the id of a game where a bot seat may owe a decision now (the bot driver); its
  listeners are plain functions called at once (they only schedule work, nothing is stored).

A listener of ``your_turn``, ``finished`` or ``notice`` is ``async (session, items) -> wake or
None``: it reads and writes through ``session`` only (never commits), and may return a function
to call once the transaction committed (waking its job worker).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from . import tasks

log = logging.getLogger("menagerie.signals")


@dataclass(frozen=True)
class YourTurn:
    game_id: int
    version: int
    game: str                 #: the engine name ("arknova")
    title: str                #: the game's title
    users: tuple[int, ...]    #: user ids whose turn it became
    deadline: str | None = None  #: ISO time of their deadline, if the game has a time control

    def payload(self) -> dict:
        """The outbox row's payload."""
        return {**asdict(self), "users": list(self.users)}

    @classmethod
    def of(cls, payload: dict) -> YourTurn:
        return cls(int(payload["game_id"]), int(payload["version"]), str(payload["game"]),
                   str(payload["title"]), tuple(int(u) for u in payload["users"]),
                   payload.get("deadline"))


@dataclass(frozen=True)
class Notify:
    kind: str                 #: chat_mention, invitation (app/notify/prefs.py KINDS)
    game_id: int
    game: str
    title: str
    users: tuple[int, ...]    #: who is told
    by: str = ""              #: the username of who caused it
    excerpt: str = ""         #: a chat mention: the start of the line

    def payload(self) -> dict:
        return {**asdict(self), "users": list(self.users)}

    @classmethod
    def payload_for(cls, kind: str, game_id: int, game: str, title: str, users: list[int],
                    by: str = "") -> dict:
        """The outbox payload of a ``kind`` notice to ``users`` (each told once)."""
        return cls(kind, game_id, game, title, tuple(sorted(set(users))), by).payload()

    @classmethod
    def of(cls, payload: dict) -> Notify:
        return cls(str(payload["kind"]), int(payload["game_id"]), str(payload["game"]),
                   str(payload["title"]), tuple(int(u) for u in payload["users"]),
                   str(payload.get("by") or ""), str(payload.get("excerpt") or ""))


Wake = Callable[[], None]
Listener = Callable[[Any, list], Awaitable[Wake | None]]


@dataclass
class Signals:
    your_turn: list[Listener] = field(default_factory=list)
    finished: list[Listener] = field(default_factory=list)
    notice: list[Listener] = field(default_factory=list)
    bot_turn: list[Callable[[int], None]] = field(default_factory=list)
    #: the database (``emit_*`` run the listeners in a transaction of their own)
    db: Any = None
    #: the outbox worker (``drain`` waits for it too)
    outbox: Any = None
    _tasks: set = field(default_factory=set)

    def use_outbox(self, outbox: Any) -> None:
        """The outbox worker that runs the stored signals (``wake_outbox``, ``drain``); it takes
        these signals in turn, so it is handed over once both exist."""
        self.outbox = outbox

    def on_your_turn(self, listener: Listener) -> None:
        self.your_turn.append(listener)

    def on_finished(self, listener: Listener) -> None:
        self.finished.append(listener)

    def on_notice(self, listener: Listener) -> None:
        self.notice.append(listener)

    def on_bot_turn(self, listener: Callable[[int], None]) -> None:
        self.bot_turn.append(listener)

    def wake_outbox(self) -> None:
        """A move with outbox rows committed in this process: run them now."""
        if self.outbox is not None:
            self.outbox.wake()

    def emit_bot_turn(self, game_id: int) -> None:
        for listener in self.bot_turn:
            listener(game_id)

    async def stage(self, session, turns: list[YourTurn], finished: list[int],
                    notices: list[Notify] = ()) -> list[Wake]:
        """Run the listeners for a batch inside ``session``'s transaction; the wake-ups to call
        after it commits. A listener's exception propagates (the caller rolls back)."""
        wakes: list[Wake] = []
        for listeners, items in ((self.your_turn, turns), (self.finished, finished),
                                 (self.notice, notices)):
            if not items:
                continue
            for listener in listeners:
                wake = await listener(session, list(items))
                if wake is not None and wake not in wakes:
                    wakes.append(wake)
        return wakes

    # -- without the outbox: tests, and signals about something no move stored ----------
    def emit_your_turn(self, event: YourTurn) -> None:
        """Run the ``your_turn`` listeners now, in a transaction of their own (a move's
        notices go through the outbox instead)."""
        if event.users:
            self._spawn([event], [])

    def emit_finished(self, game_id: int) -> None:
        self._spawn([], [game_id])

    def _spawn(self, turns: list[YourTurn], finished: list[int]) -> None:
        tasks.spawn(self._now(turns, finished), keep=self._tasks)

    async def _now(self, turns: list[YourTurn], finished: list[int]) -> None:
        try:
            async with self.db.write() as s:
                wakes = await self.stage(s, turns, finished)
                await s.commit()
            for wake in wakes:
                wake()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("signal listeners failed on %r %r", turns, finished)

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait for the running listeners and this process's outbox (tests, shutdown); cancel
        those still running after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        if self.outbox is not None:
            await self.outbox.drain(timeout)
        while self._tasks:
            left = end - loop.time()
            if left <= 0:
                for task in list(self._tasks):
                    task.cancel()
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
                log.warning("signal listeners cancelled at shutdown")
                return
            await asyncio.wait(list(self._tasks), timeout=left)
