"""Realtime fan-out of game versions to WebSocket clients.

After a move commits, the app announces "game G is at version V". Each process has one
:class:`Hub`; the hub wakes the sockets watching G, and each socket's pump sends every version it
has not yet seen, in order, one ``state`` message per version.

- With SQLite the announcement stays in the process (:class:`LocalBus`).
- With PostgreSQL the move's transaction also runs ``pg_notify`` (delivered only on commit), and
  every process LISTENs on a dedicated asyncpg connection (:class:`PgBus`), reconnecting when it
  drops and then catching up, so several app processes can serve one game.

A :class:`Frame` is one version of one game. Its public view is encoded once; the message for
each viewer (seat, or None for spectators) is encoded once and cached, so every spectator gets
the same bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from engine.core import events_for

from . import jsonutil

if TYPE_CHECKING:  # pragma: no cover
    from starlette.websockets import WebSocket

log = logging.getLogger("menagerie.realtime")
CHANNEL = "menagerie_games"
SEND_TIMEOUT = 15.0


@dataclass
class Frame:
    """One version of a game, with the per-viewer messages encoded lazily and cached."""

    game: Any  # engine.core.Game
    version: int
    state: dict
    events: list
    _public: bytes | None = None
    _meta: bytes | None = None
    _encoded: dict = field(default_factory=dict)

    def _parts(self) -> tuple[bytes, bytes]:
        if self._public is None:
            self._public = jsonutil.dumps(self.game.public_view(self.state))
            result = self.game.result(self.state)
            self._meta = jsonutil.dumps({
                "status": "finished" if result is not None else "running",
                "waiting_for": sorted(self.game.waiting_for(self.state)),
                "result": result,
            })
        return self._public, self._meta  # type: ignore[return-value]

    def message(self, seat: int | None, *, full: bool = False) -> str:
        """The ``state`` message for ``seat`` (None = spectator)."""
        key = (seat, full)
        cached = self._encoded.get(key)
        if cached is not None:
            return cached
        public, meta = self._parts()
        private = b"null" if seat is None else jsonutil.dumps(
            self.game.private_view(self.state, seat))
        events = b"[]" if full else jsonutil.dumps(events_for(self.events, seat))
        head = b'{"type":"state","version":%d,' % self.version
        if full:
            head += b'"full":true,'
        body = (head + b'"view":{"public":' + public + b',"private":' + private +
                b'},"events":' + events + b"," + meta[1:])
        text = body.decode()
        self._encoded[key] = text
        return text


FrameLoader = Callable[[int, int, int], Awaitable[list[Frame]]]
VersionReader = Callable[[int], Awaitable[int | None]]


class Connection:
    """One WebSocket watching one game as one viewer."""

    def __init__(self, ws: "WebSocket", game_id: int, seat: int | None, hub: "Hub") -> None:
        self.ws = ws
        self.game_id = game_id
        self.seat = seat
        self.hub = hub
        #: highest version this client has been sent (-1: nothing yet / game not started)
        self.last = -1
        self.target = -1
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.closed = False

    async def send_text(self, text: str) -> None:
        """Send one message (the caller holds ``self.lock``)."""
        if self.closed:
            return
        try:
            await asyncio.wait_for(self.ws.send_text(text), SEND_TIMEOUT)
        except Exception:
            self.closed = True
            self.wake.set()
            raise

    async def send(self, data: dict) -> None:
        async with self.lock:
            await self.send_text(jsonutil.dumps_str(data))

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
            await self.send_text(frames[-1].message(self.seat, full=True))
            self.last = max(self.last, frames[-1].version)
            return 1
        frames = await channel.frames(start, upto)
        for frame in frames:
            await self.send_text(frame.message(self.seat))
        if frames:
            self.last = max(self.last, frames[-1].version)
        return len(frames)

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

    def __init__(self, hub: "Hub", game_id: int) -> None:
        self.hub = hub
        self.game_id = game_id
        self.conns: set[Connection] = set()
        self._frames: OrderedDict[int, Frame] = OrderedDict()
        self._load_lock = asyncio.Lock()

    def add_frame(self, frame: Frame) -> None:
        self._frames[frame.version] = frame
        self._frames.move_to_end(frame.version)
        while len(self._frames) > self.hub.frame_cache:
            self._frames.popitem(last=False)

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
                 frame_cache: int) -> None:
        self.loader = loader
        self.versions = versions
        self.sync_window = sync_window
        self.frame_cache = max(frame_cache, 2)
        self._channels: dict[int, Channel] = {}

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

    def connection_count(self) -> int:
        return sum(len(ch.conns) for ch in self._channels.values())

    def publish_local(self, frame: Frame, game_id: int) -> None:
        """A move committed in this process: keep its frame and wake the game's sockets."""
        ch = self._channels.get(game_id)
        if ch is None:
            return
        ch.add_frame(frame)
        self.notify(game_id, frame.version)

    def notify(self, game_id: int, version: int) -> None:
        """Game ``game_id`` is at ``version`` (from this process or another)."""
        ch = self._channels.get(game_id)
        if ch is None:
            return
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


# ------------------------------------------------------------------ buses


class LocalBus:
    """SQLite: announcements stay in this process (the service calls the hub directly)."""

    listening = True

    async def before_commit(self, session, game_id: int, version: int) -> None:
        return None

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


class PgBus:
    """PostgreSQL LISTEN/NOTIFY between app processes sharing one database."""

    def __init__(self, dsn: str, hub: Hub, *, keepalive: float = 10.0) -> None:
        self.dsn = dsn
        self.hub = hub
        self.keepalive = keepalive
        self._task: asyncio.Task | None = None
        self._stopping = False
        self.connected = asyncio.Event()
        self.listening = False
        self.reconnects = 0

    async def before_commit(self, session, game_id: int, version: int) -> None:
        from sqlalchemy import text

        # NOTIFY is transactional: it is delivered on commit, never for a rolled back move
        await session.execute(text("SELECT pg_notify(:channel, :payload)"),
                              {"channel": CHANNEL, "payload": f"{game_id}:{version}"})

    async def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="menagerie-listen")
        try:
            await asyncio.wait_for(self.connected.wait(), 10)
        except asyncio.TimeoutError:
            log.warning("LISTEN connection not up yet; retrying in the background")

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    def _on_notify(self, _conn, _pid, _channel, payload: str) -> None:
        try:
            game_id, version = (int(p) for p in payload.split(":", 1))
        except ValueError:
            log.warning("ignored notification %r", payload)
            return
        self.hub.notify(game_id, version)

    async def _run(self) -> None:
        import asyncpg

        backoff = 0.2
        first = True
        while not self._stopping:
            conn = None
            try:
                conn = await asyncpg.connect(
                    self.dsn, timeout=10,
                    server_settings={"application_name": "menagerie-listen"})
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c, ev=lost: ev.set())
                await conn.add_listener(CHANNEL, self._on_notify)
                self.listening = True
                self.connected.set()
                backoff = 0.2
                if not first:
                    self.reconnects += 1
                    log.info("LISTEN connection restored")
                first = False
                # anything announced while we were not listening
                await self.hub.resync()
                while not lost.is_set():
                    try:
                        await asyncio.wait_for(lost.wait(), self.keepalive)
                    except asyncio.TimeoutError:
                        await asyncio.wait_for(conn.fetchval("SELECT 1"), 5)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self._stopping:
                    log.warning("LISTEN connection failed: %s", exc)
            finally:
                self.listening = False
                self.connected.clear()
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.terminate()
            if self._stopping:
                break
            first = False
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)
