"""The game WebSocket: live state messages, catch-up after a reconnect, and actions.

Server → client:
- ``{"type": "hello", "game", "seat", "status", "version"}`` once, on connect (``version`` -1 while
  the game is open);
- ``{"type": "state", "version", "view", "events", "status", "waiting_for", "result"}`` for every
  version, in order, as seen by this viewer (``"full": true`` on a catch-up that skipped versions);
- ``{"type": "synced", "version"}`` after the answer to a ``sync``;
- ``{"type": "ack", "version", "events", "view", ...}`` or ``{"type": "error", "error"}`` for an
  ``action``; ``{"type": "pong"}`` for a ``ping``.

Client → server: ``{"type": "sync", "after": N}``, ``{"type": "action", "version", "action"}``,
``{"type": "ping"}``. ``?after=N`` on the URL syncs right after the hello.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from .. import jsonutil
from ..auth import COOKIE, UserInfo
from ..errors import ApiError, database_unavailable
from ..ratelimit import client_address
from ..realtime import Connection
from .common import parse_game_id
from .games import action_reply

router = APIRouter()
log = logging.getLogger("menagerie.ws")


def _error(code: str, message: str) -> dict:
    return {"type": "error", "error": {"code": code, "message": message}}


def _same_origin(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()


async def _authenticate(ws: WebSocket) -> tuple[UserInfo | None, str | None, str | None]:
    """(user, problem, token): a bad ``?token=`` is refused; a cookie counts from this site."""
    auth = ws.app.state.services.auth
    token = ws.query_params.get("token")
    if token:
        user = await auth.user_for_token(token)
        if user is None:
            return None, "The token is invalid, expired or revoked.", None
        return user, None, token
    cookie = ws.cookies.get(COOKIE)
    # a cookie only counts from pages of this site (no cross-site socket hijacking)
    if cookie and _same_origin(ws):
        user = await auth.user_for_token(cookie)
        return user, None, cookie if user else None
    return None, None, None


def _int(value, low: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or value > 2**31 - 1:
        return None
    return value


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(ws: WebSocket, game_id: str):
    services = ws.app.state.services
    await ws.accept()
    try:
        gid = parse_game_id(game_id)
        user, problem, token = await _authenticate(ws)
        if problem:
            await ws.send_text(jsonutil.dumps_str(_error("bad_token", problem)))
            await ws.close(code=4401)
            return
        conn = Connection(ws, gid, None, services.hub)
        conn.token = token
        services.hub.subscribe(conn)  # before reading the version: no announcement is missed
        try:
            info = await services.games.socket_info(gid, user)
        except Exception:
            services.hub.unsubscribe(conn)
            raise
    except ApiError as exc:
        await ws.send_text(jsonutil.dumps_str(_error(exc.code, exc.message)))
        await ws.close(code=4404 if exc.status == 404 else 4400)
        return
    except Exception as exc:
        if not database_unavailable(exc):
            raise
        # the database is restarting: 1013 "try again later"; the client reconnects
        with contextlib.suppress(Exception):
            await ws.send_text(jsonutil.dumps_str(_error(
                "database_unavailable", "The database cannot be reached right now.")))
            await ws.close(code=1013)
        return

    conn.seat = info["seat"]
    pump = None
    try:
        async with conn.lock:
            conn.last = conn.target = info["version"] if info["status"] != "open" else -1
            await conn.send_text(jsonutil.dumps_str({
                "type": "hello", "game": gid, "seat": conn.seat, "status": info["status"],
                "version": conn.last, "user": user.as_dict() if user else None}))
        pump = asyncio.create_task(conn.pump(), name=f"ws-pump-{gid}")
        after = ws.query_params.get("after")
        if after is not None:
            value = int(after) if after.lstrip("-").isdigit() and len(after) < 12 else None
            await _sync(services, conn, _int(value, -1))
        limit = services.settings.max_body_bytes
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                data = message.get("bytes") or b""
            else:
                data = raw.encode()
            if len(data) > limit:
                await conn.send(_error("too_large", f"Messages are at most {limit} bytes."))
                await ws.close(code=1009)
                break
            try:
                await _handle(services, conn, user, data)
            except Exception as exc:
                if isinstance(exc, (WebSocketDisconnect, ConnectionError, RuntimeError)):
                    raise
                if database_unavailable(exc):
                    await conn.send(_error("database_unavailable",
                                           "The database cannot be reached right now; "
                                           "try again shortly."))
                else:
                    log.exception("game socket %s: message failed", gid)
                    await conn.send(_error("internal", "Something went wrong on our side."))
    except (WebSocketDisconnect, RuntimeError, ConnectionError, asyncio.TimeoutError):
        pass
    finally:
        services.hub.unsubscribe(conn)
        if pump is not None:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _handle(services, conn: Connection, user: UserInfo | None, data: bytes) -> None:
    try:
        msg = jsonutil.loads(data)
    except Exception:
        await conn.send(_error("malformed_json", "Messages are JSON objects."))
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        await conn.send(_error("bad_message", 'Messages are JSON objects with a "type".'))
        return
    kind = msg["type"]
    if kind == "ping":
        await conn.send({"type": "pong"})
    elif kind == "sync":
        after = _int(msg.get("after", -1), -1)
        if after is None:
            await conn.send(_error("invalid_request", '"after" is a version number (-1 or more).'))
            return
        await _sync(services, conn, after)
    elif kind == "action":
        version = _int(msg.get("version"), 0)
        action = msg.get("action")
        if version is None or not isinstance(action, dict):
            await conn.send(_error("invalid_request",
                                   'An action message is {"type": "action", "version": N, '
                                   '"action": {...}}.'))
            return
        if user is None:
            await conn.send(_error("unauthorized", "Sign in to play (token or login cookie)."))
            return
        try:
            services.limits.action(client_address(conn.ws), conn.token)
            done = await services.games.act(conn.game_id, version, action, user=user)
        except ApiError as exc:
            await conn.send({"type": "error", "error": {"code": exc.code, "message": exc.message,
                                                        **exc.extra}})
            return
        async with conn.lock:
            await conn.send_text(action_reply(done, b"ack").decode())
    else:
        await conn.send(_error("bad_message", f"Unknown message type {kind!r}."))


async def _sync(services, conn: Connection, after: int | None) -> None:
    if after is None:
        await conn.send(_error("invalid_request", '"after" is a version number (-1 or more).'))
        return
    current = await services.games.current_version(conn.game_id)
    async with conn.lock:
        if current is not None and current > after:
            await conn.catch_up(current, after=after)
        version = max(conn.last, current if current is not None else -1)
        await conn.send_text(jsonutil.dumps_str({"type": "synced", "version": version}))
