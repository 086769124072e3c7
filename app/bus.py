"""The bus between app processes: named channels, and the game announcements the hub needs.

With SQLite everything stays in this process (:class:`LocalBus`); with PostgreSQL
(:class:`PgBus`) every process LISTENs on a dedicated asyncpg connection and a NOTIFY sent
inside a transaction is delivered on commit, to every process, this one included.
:mod:`app.realtime` (the hub and the sockets) is what the game announcements wake.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

from . import jsonutil
from .tasks import end_task


class Hub(Protocol):
    """What the game announcements wake: :class:`app.realtime.Hub` (its sibling in the layers,
    so only its shape is named here)."""

    def announced(self, game_id: int, version: int,
                  move: tuple[int, Any] | None = None) -> None: ...

    async def resync(self) -> None: ...


log = logging.getLogger("menagerie.bus")

CHANNEL = "menagerie_games"
#: revoked login tokens (their SHA-256; ``u:ID`` every token of user ID, ``u:ID:SHA`` all but
#: one), so every process forgets them and closes their sockets at once
AUTH_CHANNEL = "menagerie_auth"
#: per-user notices ("your turn in game G", "game G changed"), JSON: see app/userfeed.py
USER_CHANNEL = "menagerie_users"
#: "the seats of game G changed" (payload: G), so every process re-reads its sockets' seats
SEATS_CHANNEL = "menagerie_seats"
#: NOTIFY payloads are limited to 8000 bytes
MAX_PAYLOAD = 7900


def move_payload(game_id: int, version: int, seat: int, action_json: str) -> str:
    """``G:V:S:action`` (the move, so that other processes can apply it without reading the
    database), or ``G:V`` when the action is too large for a notification."""
    payload = f"{game_id}:{version}:{seat}:{action_json}"
    return payload if len(payload.encode()) <= MAX_PAYLOAD else f"{game_id}:{version}"


# Besides the game announcements, a bus carries named extra channels (chat lines, "your turn"
# notices): ``bus.listen(name, callback)`` before ``start()``; ``await bus.publish(name,
# payload, session)`` inside the transaction that stored what it announces (PostgreSQL
# delivers it on commit, to every process, this one included; SQLite calls the callbacks of
# this process at once).


#: a session's announcements waiting for its commit (LocalBus)
_PENDING = "menagerie_bus_pending"


class LocalBus:
    """SQLite: announcements stay in this process (the service calls the hub directly)."""

    listening = True

    def __init__(self) -> None:
        self.extra: dict[str, list[Callable[[str], None]]] = {}

    def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        self.extra.setdefault(channel, []).append(callback)

    async def publish(self, channel: str, payload: str, session=None) -> None:
        for callback in self.extra.get(channel, []):
            try:
                callback(payload)
            except Exception:  # pragma: no cover - a listener bug must not fail the caller
                log.exception("listener of %s failed", channel)

    async def publish_in(self, session, channel: str, payload: str) -> None:
        """Deliver once ``session``'s transaction commits (never for a rolled back one)."""
        from sqlalchemy import event

        pending = session.info.setdefault(_PENDING, [])
        if not pending:
            event.listen(session.sync_session, "after_commit", self._deliver_pending,
                         once=True)
        pending.append((channel, payload))

    def _deliver_pending(self, sync_session) -> None:
        for channel, payload in sync_session.info.pop(_PENDING, []):
            for callback in self.extra.get(channel, []):
                try:
                    callback(payload)
                except Exception:  # pragma: no cover - a listener bug must not fail the caller
                    log.exception("listener of %s failed", channel)

    async def before_commit(self, session, game_id: int, version: int) -> None:
        return None

    async def announce_revoke(self, session, digest: str) -> None:
        return None

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


class PgBus:
    """PostgreSQL LISTEN/NOTIFY between app processes sharing one database."""

    def __init__(self, dsn: str, hub: Hub, *, keepalive: float = 10.0, on_revoke=None,
                 on_reconnect=None) -> None:
        self.dsn = dsn
        self.hub = hub
        #: called with a revoked token's digest; and (no argument) whenever LISTEN (re)starts,
        #: since announcements may have been missed meanwhile
        self.on_revoke = on_revoke
        self.on_reconnect = on_reconnect
        self.keepalive = keepalive
        self._task: asyncio.Task | None = None
        self._stopping = False
        self.connected = asyncio.Event()
        self.listening = False
        self.reconnects = 0
        self.extra: dict[str, list[Callable[[str], None]]] = {}

    def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        self.extra.setdefault(channel, []).append(callback)

    async def publish(self, channel: str, payload: str, session=None) -> None:
        """NOTIFY ``channel``: in ``session``'s transaction (a SQLAlchemy session or an asyncpg
        connection), or on its own connection when ``session`` is None."""
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError(f"notification payload over {MAX_PAYLOAD} bytes")
        if session is None:
            import asyncpg

            conn = await asyncpg.connect(self.dsn, timeout=10)
            try:
                await conn.execute("SELECT pg_notify($1, $2)", channel, payload)
            finally:
                await conn.close()
        elif hasattr(session, "fetchval"):  # an asyncpg connection
            await session.execute("SELECT pg_notify($1, $2)", channel, payload)
        else:
            from sqlalchemy import text

            await session.execute(text("SELECT pg_notify(:channel, :payload)"),
                                  {"channel": channel, "payload": payload})

    def _extra_listener(self, callbacks):
        def on_payload(_conn, _pid, channel, payload: str) -> None:
            for callback in callbacks:
                try:
                    callback(payload)
                except Exception:
                    log.exception("listener of %s failed", channel)
        return on_payload

    async def publish_in(self, session, channel: str, payload: str) -> None:
        """NOTIFY in ``session``'s transaction: delivered to every process on commit."""
        await self.publish(channel, payload, session)

    async def before_commit(self, session, game_id: int, version: int) -> None:
        from sqlalchemy import text

        # NOTIFY is transactional: it is delivered on commit, never for a rolled back move
        await session.execute(text("SELECT pg_notify(:channel, :payload)"),
                              {"channel": CHANNEL, "payload": f"{game_id}:{version}"})

    async def announce_revoke(self, session, digest: str) -> None:
        from sqlalchemy import text

        await session.execute(text("SELECT pg_notify(:channel, :payload)"),
                              {"channel": AUTH_CHANNEL, "payload": digest})

    def _on_revoke(self, _conn, _pid, _channel, payload: str) -> None:
        if self.on_revoke is not None:
            self.on_revoke(payload)

    async def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="menagerie-listen")
        try:
            await asyncio.wait_for(self.connected.wait(), 10)
        except TimeoutError:
            log.warning("LISTEN connection not up yet; retrying in the background")

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            await end_task(self._task)
            self._task = None

    def _on_notify(self, _conn, _pid, _channel, payload: str) -> None:
        try:
            parts = payload.split(":", 3)
            game_id, version = int(parts[0]), int(parts[1])
            move = (int(parts[2]), jsonutil.loads(parts[3])) if len(parts) == 4 else None
        except (ValueError, IndexError):
            log.warning("ignored notification %r", payload[:200])
            return
        self.hub.announced(game_id, version, move)

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
                await conn.add_listener(AUTH_CHANNEL, self._on_revoke)
                for name, callbacks in self.extra.items():
                    await conn.add_listener(name, self._extra_listener(callbacks))
                if self.on_reconnect is not None:
                    self.on_reconnect()
                self.listening = True
                self.connected.set()
                backoff = 0.2
                if not first:
                    self.reconnects += 1
                    log.info("LISTEN connection restored")
                first = False
                # anything announced while we were not listening
                await self.hub.resync()
                while not lost.is_set() and not self._stopping:
                    try:
                        await asyncio.wait_for(lost.wait(), self.keepalive)
                    except TimeoutError:
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
