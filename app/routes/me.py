"""The per-user WebSocket: "your turn" notices for every open page of the signed-in user.

``WS /api/me/ws`` (the login cookie from a page of this site, ``Authorization: Bearer``, or
``?auth=message`` and a first message ``{"type": "auth", "token": "..."}``, as on the game socket;
never a token in the URL): the server sends ``{"type": "hello", "user"}`` once, then
``your_turn`` and ``game`` notices (see :mod:`app.userfeed`); the client may send ``{"type":
"ping"}`` (answered ``{"type": "pong"}``). Without a valid login the socket gets an
``unauthorized`` error and is closed with code 4401; so is it when its login is revoked.
Counted like a game socket from its first byte (per address, in all), and at most
``MENAGERIE_WS_ME_PER_USER`` per user (4429 ``too_many_sockets``; app/quotas.py).
"""

from __future__ import annotations

import contextlib

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from .. import i18n, jsonutil
from ..quotas import SocketSlot
from ..realtime import Connection
from ..refusal import say
from ..sessions import SIGNED_OUT
from .deps import Svc
from .wsgate import Refused, admit, error_message, identify, open_session, refuse, refuse_error

router = APIRouter()


@router.websocket("/api/me/ws")
async def user_socket(ws: WebSocket, svc: Svc):
    slot = SocketSlot(svc.sockets, "me")  # counted from here, like a game socket
    try:
        await _user_socket(ws, svc, slot)
    finally:
        slot.release()


async def _user_socket(ws: WebSocket, svc: Svc, slot: SocketSlot) -> None:
    lang = i18n.socket_language(ws)
    if not await admit(ws, slot, lang):
        return
    try:
        user, token = await identify(ws, svc)
    except Refused as exc:
        await refuse(ws, exc.code, exc.message, lang, exc.close)
        return
    except WebSocketDisconnect:
        return
    if user is None:
        await ws.send_text(jsonutil.dumps_str(error_message(
            "unauthorized", say("unauthorized.notices"), lang)))
        await ws.close(code=4401)
        return
    if refused := slot.claim(user.id):  # ws_me_per_user
        await refuse_error(ws, refused, lang)
        return
    conn = Connection(ws, 0, None, svc.hub, user.id)
    conn.token, conn.lang = token, lang
    open_session(svc, conn, user, token)
    svc.userfeed.add(user.id, conn)
    if await svc.auth.user_for_token(token) is None:  # signed out meanwhile
        svc.sessions.remove(conn)
        svc.userfeed.remove(user.id, conn)
        await refuse(ws, "signed_out", SIGNED_OUT, lang, 4401)
        return
    try:
        await conn.send({"type": "hello", "user": user.as_dict()})
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text") or ""
            if len(raw) > 1024:
                await ws.close(code=1009)
                break
            try:
                data = jsonutil.loads(raw)
            except Exception:
                data = None
            if isinstance(data, dict) and data.get("type") == "ping":
                await conn.send({"type": "pong"})
            else:
                await conn.send(error_message("bad_message", say("bad_message.ping")))
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
    finally:
        conn.closed = True
        svc.userfeed.remove(user.id, conn)
        svc.sessions.remove(conn)
        with contextlib.suppress(Exception):
            await ws.close()
