"""The game WebSocket: live state messages, catch-up after a reconnect, and actions.

Identity (see :func:`identify`): ``Authorization: Bearer <token>`` in the handshake, or
``?auth=message`` and ``{"type": "auth", "token": "..."}`` as the first message, or the HttpOnly
login cookie from a page of this site; none = a spectator. Never a token in the URL
(``?token=`` is refused: 4400 ``token_in_url``). A bad token closes the socket with 4401; so
does revoking its login later (logout, log out everywhere, a password change: see
:mod:`app.sessions`), in every process.

Server → client:
- ``{"type": "hello", "game", "seat", "status", "version", "user"}`` once, on connect
  (``version`` -1 while the game is open);
- ``{"type": "seat", "game", "seat"}`` whenever the user's seat in the game changes (a join, a
  declined rematch invitation): the state messages that follow are that seat's view;
- ``{"type": "state", "version", "view", "events", "status", "waiting_for", "result"}`` for every
  version, in order, as seen by this viewer (``"full": true`` on a catch-up that skipped versions);
- ``{"type": "synced", "version"}`` after the answer to a ``sync``;
- ``{"type": "ack", "version", "events", "view", ...}`` or ``{"type": "error", "error"}`` for an
  ``action``; ``{"type": "pong"}`` for a ``ping``.

Client → server: ``{"type": "sync", "after": N}``, ``{"type": "action", "version", "action"}``,
``{"type": "ping"}``. ``?after=N`` on the URL syncs right after the hello.

Caps (app/quotas.py, docs/security.md "Socket caps"): a socket counts from the moment its
handshake reaches the app, before any wait for its login; refused with an ``error`` then close
4429 ``too_many_sockets`` (its address's or its user's cap) or 4503 ``server_busy`` (the
process is full) / ``crowded`` (a new spectator past ``MENAGERIE_WS_SPECTATOR_LIMIT``; with
``retry_after``). A spectator's hello and ``sync`` come from memory (app/spectators.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from .. import i18n, jsonutil
from ..auth import UserInfo
from ..errors import database_unavailable, status_of
from ..quotas import SocketSlot
from ..ratelimit import client_address
from ..realtime import Connection
from ..refusal import Refusal, not_found, say
from ..services import Services
from ..sessions import SIGNED_OUT
from .deps import SocketGameId, Svc
from .games import action_reply
from .wsgate import (
    Refused,
    admit,
    error_message,
    identify,
    open_session,
    refuse,
    refuse_error,
    still_valid,
)

router = APIRouter()
log = logging.getLogger("menagerie.ws")


def _int(value, low: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or value > 2**31 - 1:
        return None
    return value


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(ws: WebSocket, game_id: SocketGameId, svc: Svc):
    slot = SocketSlot(svc.sockets)  # counted from here: in all, per address, per user
    try:
        await _game_socket(ws, svc, game_id, slot)
    finally:
        slot.release()


async def _game_socket(ws: WebSocket, services: Services, game_id: int | None,
                       slot: SocketSlot):
    lang = i18n.socket_language(ws)
    if not await admit(ws, slot, lang):
        return
    conn = None
    try:
        if game_id is None:  # not a positive integer: refused like an unknown game (4404)
            raise not_found("game")
        gid = game_id
        user, token = await identify(ws, services)
        if user is None and (shed := services.sockets.crowded()):
            await refuse_error(ws, shed, lang)  # before any database work
            return
        if refused := slot.claim(user.id if user else None):
            await refuse_error(ws, refused, lang)
            return
        conn = Connection(ws, gid, None, services.hub, user.id if user else None)
        conn.slot = slot
        conn.token = token
        conn.lang = lang
        open_session(services, conn, user, token)
        services.hub.subscribe(conn)  # before reading the version: no announcement is missed
        try:
            if user is None:  # a spectator: from memory, one read per game and version
                info = {**await services.spectators.info(gid), "seat": None}
            else:
                info = await services.games.socket_info(gid, user)
            if info["seat"] is None and user is not None and \
                    (shed := services.sockets.crowded()):
                raise shed  # a signed-in spectator is shed like any other
            if getattr(conn, "revoked", False) or (
                    token is not None and await services.auth.user_for_token(token) is None):
                # signed out while we were connecting (the registration above closes the gap)
                raise Refused("signed_out", SIGNED_OUT, 4401)
        except BaseException:
            services.hub.unsubscribe(conn)
            services.sessions.remove(conn)
            raise
    except Refused as exc:
        await refuse(ws, exc.code, exc.message, lang, exc.close)
        return
    except WebSocketDisconnect:
        return
    except Refusal as exc:
        if exc.code in ("crowded", "server_busy"):
            await refuse_error(ws, exc, lang)
            return
        await refuse(ws, exc.code, exc.message, lang,
                     {404: 4404, 403: 4403}.get(status_of(exc), 4400))
        return
    except Exception as exc:
        if not database_unavailable(exc):
            raise
        # the database is restarting: 1013 "try again later"; the client reconnects
        with contextlib.suppress(Exception):
            await refuse(ws, "database_unavailable", say("database_unavailable.ws"),
                          lang, 1013)
        return

    conn.seat = info["seat"]
    pump = None
    try:
        async with conn.lock:
            current = info["version"] if info["status"] != "open" else -1
            conn.last = conn.target = current
            after = ws.query_params.get("after")
            if after is not None:
                value = int(after) if after.lstrip("-").isdigit() and len(after) < 12 else None
                after = _int(value, -1)
                if after is not None and after < current:
                    # what the client has: the versions after it go out in order, through the
                    # pump and the sync below alike (never one twice, never one skipped)
                    conn.last = after
            await conn.send_text(jsonutil.dumps_str({
                "type": "hello", "game": gid, "seat": conn.seat, "status": info["status"],
                "version": current, "user": user.as_dict() if user else None}))
        pump = asyncio.create_task(conn.pump(), name=f"ws-pump-{gid}")
        if ws.query_params.get("after") is not None:
            await _sync(services, conn, after, resend=False)
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
                said = error_message("too_large", say("too_large.message", limit=limit), lang)
                await conn.send(said)
                await ws.close(code=1009, reason=i18n.close_reason(said["error"]["message"]))
                break
            if conn.closed:
                continue  # signed out: the close is on its way; nothing more is accepted
            try:
                await _handle(services, conn, user, data)
            except Exception as exc:
                if isinstance(exc, (WebSocketDisconnect, ConnectionError, RuntimeError)):
                    raise
                if database_unavailable(exc):
                    await conn.send(error_message("database_unavailable",
                                           say("database_unavailable"), lang))
                else:
                    log.exception("game socket %s: message failed", gid)
                    await conn.send(error_message("internal", say("internal"), lang))
    except (TimeoutError, WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
    finally:
        services.hub.unsubscribe(conn)
        services.sessions.remove(conn)
        if pump is not None:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _handle(services: Services, conn: Connection, user: UserInfo | None, data: bytes) -> None:
    lang = getattr(conn, "lang", i18n.DEFAULT)
    try:
        msg = jsonutil.loads(data)
    except Exception:
        await conn.send(error_message("malformed_json", say("malformed_json.ws"), lang))
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        await conn.send(error_message("bad_message", say("bad_message.type"), lang))
        return
    kind = msg["type"]
    if kind == "ping":
        await conn.send({"type": "pong"})
    elif kind == "sync":
        after = _int(msg.get("after", -1), -1)
        wait = conn.slot.sync_allowed()
        if wait:
            await conn.send(error_message("rate_limited",
                                          say("rate_limited.sync", seconds=math.ceil(wait)), lang,
                                          retry_after=math.ceil(wait)))
            return
        if after is None:
            await conn.send(error_message("invalid_request", say("invalid_request.after"),
                                   lang))
            return
        await _sync(services, conn, after)
    elif kind == "action":
        version = _int(msg.get("version"), 0)
        action = msg.get("action")
        if version is None or not isinstance(action, dict):
            await conn.send(error_message("invalid_request",
                                   say("invalid_request.action"), lang))
            return
        if user is None:
            await conn.send(error_message("unauthorized", say("unauthorized.play"),
                                   lang))
            return
        if not await still_valid(services, conn):
            return
        try:
            await services.limits.action(client_address(conn.ws), user.id)
            done = await services.games.act(conn.game_id, version, action, user=user,
                                            hold=msg.get("hold") is True)
        except Refusal as exc:
            await conn.send(error_message(exc.code, exc.message, lang, **exc.extra))
            return
        async with conn.lock:
            await conn.send_text(action_reply(done, b"ack").decode())
    elif kind == "chat":
        # the line comes back like everyone's: {"type": "chat", "message"} (app/chat.py)
        channel, text = msg.get("channel"), msg.get("text")
        if not isinstance(text, str) or not (channel is None or isinstance(channel, str)):
            await conn.send(error_message("invalid_request", say("invalid_request.chat"), lang))
            return
        if user is None:
            await conn.send(error_message("unauthorized", say("unauthorized.chat"), lang))
            return
        if not await still_valid(services, conn):
            return
        try:
            await services.chat.post(conn.game_id, user, channel, text)
        except Refusal as exc:
            await conn.send(error_message(exc.code, exc.message, lang, **exc.extra))
    elif kind == "auth":
        await conn.send(error_message("bad_message", say("bad_message.auth"), lang))
    else:
        await conn.send(error_message("bad_message", say("bad_message", kind=repr(kind)), lang))


async def _sync(services: Services, conn: Connection, after: int | None, *,
                resend: bool = True) -> None:
    """Send the versions after ``after`` up to the current one, then ``synced``.

    ``resend`` (a ``sync`` message): exactly the versions asked for, even those this socket
    sent already (the client says it lacks them). On connect with ``?after=N`` (``resend``
    false) the socket's stream simply starts after N: the pump and this catch-up both continue
    from the last version sent, so every version goes out once, in order."""
    if after is None:
        await conn.send(error_message("invalid_request", say("invalid_request.after"),
                               getattr(conn, "lang", i18n.DEFAULT)))
        return
    if conn.user_id is None:  # a spectator: from memory (app/spectators.py)
        current = await services.spectators.version(conn.game_id)
    else:
        current = await services.games.current_version(conn.game_id)
    async with conn.lock:
        if current is not None:
            if resend and current > after:
                await conn.catch_up(current, after=after)
            elif current > conn.last:
                await conn.catch_up(current)
        version = max(conn.last, current if current is not None else -1)
        await conn.send_text(jsonutil.dumps_str({"type": "synced", "version": version}))
