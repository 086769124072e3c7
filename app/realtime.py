"""Realtime fan-out of game versions to WebSocket clients.

After a move commits, the app announces "game G is at version V". Each process has one
:class:`Hub`; the hub wakes the sockets watching G, and each socket's pump sends every version it
has not yet seen, in order, one ``state`` message per version.

- With SQLite the announcement stays in the process (:class:`app.bus.LocalBus`).
- With PostgreSQL the move's transaction also runs ``pg_notify`` (delivered only on commit), and
  every process LISTENs on a dedicated asyncpg connection (:class:`app.bus.PgBus`), reconnecting when it
  drops and then catching up, so several app processes can serve one game.

A :class:`~app.frame.Frame` is one version of one game, encoded once per viewer
(``app/frame.py``).

Where a frame comes from: the process that stored the move built it and publishes it
(:meth:`Hub.publish_local`); its own announcement, which may arrive first, is skipped
(:meth:`Hub.expect`). Another process gets the move itself in the announcement (``G:V:S:action``)
and, when sockets of its own watch that game and it holds version V-1, applies it (the engine is
deterministic); otherwise its sockets' pumps load the missing versions from the database, once
per version per process (:meth:`Channel.frames`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from cachetools import LRUCache

from . import jsonutil, metrics, tasks
from .frame import Frame

if TYPE_CHECKING:  # pragma: no cover
    from starlette.websockets import WebSocket

log = logging.getLogger("menagerie.realtime")
SEND_TIMEOUT = 15.0


FrameLoader = Callable[[int, int, int], Awaitable[list[Frame]]]
VersionReader = Callable[[int], Awaitable[int | None]]


class Connection:
    """One WebSocket watching one game as one viewer.

    The viewer is the signed-in user (``user_id``), never a seat fixed at connect time: every
    state message is encoded for the seat the user holds at that version (:attr:`Frame.users`),
    and :meth:`Hub.seats_changed` re-reads the seats when they change while the game is open, so
    a socket that lost its seat (a declined rematch, say) never sees the next holder's view."""

    def __init__(self, ws: WebSocket, game_id: int, seat: int | None, hub: Hub,
                 user_id: int | None = None) -> None:
        self.ws = ws
        self.game_id = game_id
        self.seat = seat
        self.user_id = user_id
        self.hub = hub
        #: highest version this client has been sent (-1: nothing yet / game not started)
        self.last = -1
        self.target = -1
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.closed = False
        #: the login token the socket was opened with (rate limits of its actions)
        self.token: str | None = None

    async def send_text(self, text: str) -> None:
        """Send one message (the caller holds ``self.lock``)."""
        if self.closed:
            return
        try:
            # asyncio.timeout, not wait_for: no extra task per message
            async with asyncio.timeout(SEND_TIMEOUT):
                await self.ws.send_text(text)
            metrics.WS_SENT.inc()
        except Exception:
            self.closed = True
            self.wake.set()
            raise

    async def send(self, data: dict) -> None:
        try:
            text = jsonutil.dumps_str(data)
        except TypeError:  # a lone surrogate echoed back from the client's message
            from .errors import scrub

            text = jsonutil.dumps_str(scrub(data))
        async with self.lock:
            await self.send_text(text)

    def poke(self, version: int) -> None:
        if version > self.target:
            self.target = version
            self.wake.set()

    async def catch_up(self, upto: int, *, after: int | None = None) -> int:
        """Send the versions after ``after`` (default: the last sent) up to ``upto``.

        Far behind (more than the sync window): one full state message of ``upto``.
        Returns how many messages were sent. The caller holds ``self.lock``.
        """
        start = self.last if after is None else after
        if upto <= start:
            return 0
        channel = self.hub.channel(self.game_id)
        if upto - start > self.hub.sync_window:
            frames = await channel.frames(upto - 1, upto)
            if not frames:
                return 0
            seat = await self.seat_at(frames[-1])
            await self.send_text(frames[-1].message(seat, full=True))
            self.last = max(self.last, frames[-1].version)
            return 1
        frames = await channel.frames(start, upto)
        for frame in frames:
            seat = await self.seat_at(frame)
            if self.closed:
                break
            await self.send_text(frame.message(seat))
        if frames:
            self.last = max(self.last, frames[-1].version)
        return len(frames)

    async def seat_at(self, frame: Frame) -> int | None:
        """The seat this socket's user holds at ``frame``'s version (None: a spectator); tells
        the client with a ``seat`` message when it differs from the last one it was told. The
        caller holds ``self.lock``."""
        if self.user_id is None:
            seat = None
        else:
            users = frame.users
            if users is None:
                users = await self.hub.seat_map(self.game_id)
            seat = users.get(self.user_id)
        await self.set_seat(seat)
        return seat

    async def set_seat(self, seat: int | None) -> None:
        """Follow a seat change (the caller holds ``self.lock``)."""
        if seat != self.seat:
            self.seat = seat
            await self.send_text(jsonutil.dumps_str({"type": "seat", "game": self.game_id,
                                                     "seat": seat}))

    async def pump(self) -> None:
        """Deliver new versions as they are announced, until the socket closes."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            if self.closed:
                break
            try:
                async with self.lock:
                    await self.catch_up(self.target)
            except asyncio.CancelledError:
                raise
            except Exception:
                if not self.closed:
                    log.exception("could not deliver game %s to a socket", self.game_id)
                    self.closed = True
                with contextlib.suppress(Exception):
                    await self.ws.close(code=1011)
                break


class Channel:
    """The sockets of one game in this process and its recent frames."""

    def __init__(self, hub: Hub, game_id: int) -> None:
        self.hub = hub
        self.game_id = game_id
        self.conns: set[Connection] = set()
        self._frames: LRUCache[int, Frame] = LRUCache(hub.frame_cache)
        self._load_lock = asyncio.Lock()
        #: the highest version announced since the channel opened
        self.latest = -1
        #: what spectators' hellos need, read once per version (app/spectators.py)
        self.watch: dict | None = None
        self.watch_at = 0.0
        self.watch_stale = False
        self.watch_lock = asyncio.Lock()

    def add_frame(self, frame: Frame) -> None:
        self._frames[frame.version] = frame

    def _cached_prefix(self, wanted: range) -> list[Frame]:
        out = []
        for v in wanted:
            frame = self._frames.get(v)
            if frame is None:
                break
            out.append(frame)
        return out

    async def frames(self, after: int, upto: int) -> list[Frame]:
        """Frames ``after+1 .. upto`` (fewer if the game is not that far), from cache or DB."""
        wanted = range(max(after + 1, 0), upto + 1)
        out = self._cached_prefix(wanted)
        if len(out) == len(wanted):
            return out
        async with self._load_lock:
            out = self._cached_prefix(wanted)
            if len(out) == len(wanted):
                return out
            first_missing = wanted[len(out)]
            loaded = await self.hub.loader(self.game_id, first_missing - 1, upto)
            for frame in loaded:
                if frame.version not in self._frames:
                    self.add_frame(frame)
            return out + [self._frames.get(f.version, f) for f in loaded]


class Hub:
    """All the sockets of this process, by game."""

    def __init__(self, loader: FrameLoader, versions: VersionReader, *, sync_window: int,
                 frame_cache: int, seats: Callable[[int], Awaitable[dict]] | None = None,
                 on_remote_move: Callable[..., bool] | None = None) -> None:
        self.loader = loader
        self.versions = versions
        #: ``await seats(game_id)`` -> {user id: seat} now (the game service's)
        self.seats = seats
        self.sync_window = sync_window
        self.frame_cache = max(frame_cache, 2)
        self._channels: dict[int, Channel] = {}
        #: apply a move announced by another process, if it can (the game service's; True:
        #: applied, so the sockets need not reload it)
        self.on_remote_move = on_remote_move
        #: (game, version) being written by this process: its own announcement of that version
        #: (LISTEN/NOTIFY, which may arrive before the writer resumes) is left to the writer,
        #: which publishes the frame it built instead of every socket reloading it
        self._expected: set[tuple[int, int]] = set()

    def channel(self, game_id: int) -> Channel:
        ch = self._channels.get(game_id)
        if ch is None:
            ch = self._channels[game_id] = Channel(self, game_id)
        return ch

    def subscribe(self, conn: Connection) -> None:
        self.channel(conn.game_id).conns.add(conn)

    def unsubscribe(self, conn: Connection) -> None:
        conn.closed = True
        conn.wake.set()
        ch = self._channels.get(conn.game_id)
        if ch is not None:
            ch.conns.discard(conn)
            if not ch.conns:
                del self._channels[conn.game_id]

    async def seat_map(self, game_id: int) -> dict:
        """Who sits where in the game now (user id -> seat), from the database."""
        if self.seats is None:  # pragma: no cover - always given by the service container
            return {}
        return await self.seats(game_id)

    def seats_changed(self, game_id: int) -> None:
        """The seats of a game changed (a join, a declined invitation; announced by any
        process): every socket of this process watching it re-reads its user's seat."""
        ch = self._channels.get(game_id)
        if ch is None:
            return
        ch.watch_stale = True
        tasks.spawn(self._reseat(ch))

    async def _reseat(self, ch: Channel) -> None:
        try:
            users = await self.seat_map(ch.game_id)
        except Exception:
            log.warning("could not re-read the seats of game %s", ch.game_id, exc_info=True)
            users = {}
        for conn in list(ch.conns):
            if conn.closed or conn.user_id is None:
                continue
            seat = users.get(conn.user_id)
            if seat != conn.seat:
                conn.seat = seat  # at once (chat's "players" channel reads it), then told
                with contextlib.suppress(Exception):
                    async with conn.lock:
                        await conn.send_text(jsonutil.dumps_str(
                            {"type": "seat", "game": ch.game_id, "seat": seat}))

    def connection_count(self) -> int:
        return sum(len(ch.conns) for ch in self._channels.values())

    def channel_count(self) -> int:
        return len(self._channels)

    def watched(self, game_id: int) -> bool:
        """Whether a socket of this process watches the game."""
        return game_id in self._channels

    def expect(self, game_id: int, version: int) -> None:
        """This process is about to commit ``version`` of ``game_id``."""
        self._expected.add((game_id, version))

    def unexpect(self, game_id: int, version: int) -> None:
        self._expected.discard((game_id, version))

    def publish_local(self, frame: Frame, game_id: int) -> None:
        """A move committed in this process: keep its frame and wake the game's sockets."""
        self._expected.discard((game_id, frame.version))
        ch = self._channels.get(game_id)
        if ch is None:
            return
        ch.add_frame(frame)
        self.notify(game_id, frame.version)

    def announced(self, game_id: int, version: int, move: tuple[int, Any] | None = None) -> None:
        """An announcement from the bus (any process, this one included)."""
        if (game_id, version) in self._expected:
            return  # our own move: publish_local follows with the frame
        if move is not None and self.on_remote_move is not None and \
                self.on_remote_move(game_id, version, *move):
            return  # applied here from the announced move, and published
        self.notify(game_id, version)

    def broadcast(self, game_id: int, text: str, to=None) -> int:
        """Send ``text`` (one encoded message, e.g. a chat line) to this process's sockets of
        the game, those for which ``to(conn)`` is true (all without ``to``); returns how many.
        Each send runs as its own task under the socket's lock, so it never interleaves with a
        state message."""
        ch = self._channels.get(game_id)
        if ch is None:
            return 0
        sent = 0
        for conn in list(ch.conns):
            if conn.closed or (to is not None and not to(conn)):
                continue
            sent += 1
            tasks.spawn(send_locked(conn, text))
        return sent

    def notify(self, game_id: int, version: int) -> None:
        """Game ``game_id`` is at ``version`` (from this process or another)."""
        ch = self._channels.get(game_id)
        if ch is None:
            return
        if version > ch.latest:
            ch.latest = version
            if ch.watch is not None and (version > ch.watch["version"] or
                                         ch.watch["status"] == "open"):
                ch.watch_stale = True
        for conn in list(ch.conns):
            conn.poke(version)

    async def resync(self) -> None:
        """Re-read the version of every watched game (after a lost LISTEN connection)."""
        for game_id in list(self._channels):
            try:
                version = await self.versions(game_id)
            except Exception:  # pragma: no cover - database down; the next resync retries
                log.warning("resync of game %s failed", game_id, exc_info=True)
                continue
            if version is not None:
                self.notify(game_id, version)


async def send_locked(conn: Connection, text: str) -> None:
    """Send ``text`` on ``conn`` in turn with its other sends; a dead socket is ignored."""
    with contextlib.suppress(Exception):
        async with conn.lock:
            await conn.send_text(text)
