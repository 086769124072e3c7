"""The per-user WebSocket: "your turn" notices for every open page of the signed-in user.

``WS /api/me/ws`` (login cookie, or ``?token=``): the server sends ``{"type": "hello", "user"}``
once, then ``your_turn`` and ``game`` notices (see :mod:`app.userfeed`); the client may send
``{"type": "ping"}`` (answered ``{"type": "pong"}``). Without a valid login the socket gets an
``unauthorized`` error and is closed with code 4401.
"""

from __future__ import annotations

import contextlib

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from .. import jsonutil
from ..realtime import Connection
from .ws import _authenticate, _error

router = APIRouter()


@router.websocket("/api/me/ws")
async def user_socket(ws: WebSocket):
    services = ws.app.state.services
    await ws.accept()
    user, problem, _token = await _authenticate(ws)
    if user is None:
        await ws.send_text(jsonutil.dumps_str(_error(
            "unauthorized", problem or "Sign in to hear about your turns.")))
        await ws.close(code=4401)
        return
    conn = Connection(ws, 0, None, services.hub)
    services.userfeed.add(user.id, conn)
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
                await conn.send(_error("bad_message", 'This socket only answers {"type": "ping"}.'))
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
    finally:
        conn.closed = True
        services.userfeed.remove(user.id, conn)
        with contextlib.suppress(Exception):
            await ws.close()
