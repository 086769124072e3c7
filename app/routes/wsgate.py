"""Letting a WebSocket in: who it is, whether the caps admit it, and how it is refused.

Shared by the game socket (:mod:`app.routes.ws`) and the per-user socket
(:mod:`app.routes.me`).
Identity (:func:`identify`): ``Authorization: Bearer <token>`` in the handshake, or
``?auth=message`` and ``{"type": "auth", "token": "..."}`` as the first message, or the HttpOnly
login cookie from a page of this site; none = a spectator. Caps (:func:`admit`, app/quotas.py):
counted from the first byte, refused with 4429 or 4503 (docs/security.md "Socket caps").
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from .. import i18n, jsonutil
from ..auth import COOKIE, UserInfo, hash_token, token_from_headers
from ..errors import status_of
from ..quotas import SocketSlot
from ..ratelimit import client_address
from ..realtime import Connection
from ..refusal import Refusal, say
from ..services import Services


def error_message(code: str, message: str, lang: str = i18n.DEFAULT, **extra) -> dict:
    """An error message; the sentence in the socket's language (``?lang=`` or the handshake's
    Accept-Language), the code as it is."""
    return {"type": "error", "error": {**i18n.localize_error(code, message, lang), **extra}}


async def refuse(ws: WebSocket, code: str, message: str, lang: str, close: int) -> None:
    """Say why, then close with that code and the same sentence as the close reason."""
    said = error_message(code, message, lang)
    await ws.send_text(jsonutil.dumps_str(said))
    await ws.close(code=close, reason=i18n.close_reason(said["error"]["message"]))


def same_origin(ws: WebSocket) -> bool:
    """Whether a socket's handshake comes from a page of this site (or from no page at all).

    A browser always sends ``Origin`` with a WebSocket handshake, and sends the site's cookies
    whichever page opens the socket; so the login cookie counts only when ``Origin`` names this
    very host (no cross-site WebSocket hijacking). Clients that are not browsers send no
    ``Origin``."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()


class Refused(Exception):
    """The socket is refused: ``(code, English sentence, close code)``."""

    def __init__(self, code: str, message: str, close: int) -> None:
        super().__init__(message)
        self.code, self.message, self.close = code, message, close


BAD_TOKEN = say("bad_token.token")
TOKEN_IN_URL = say("token_in_url")
AUTH_EXPECTED = say("auth_expected")


async def identify(ws: WebSocket, services: Services) -> tuple[UserInfo | None, str | None]:
    """(user, token) of an accepted socket; (None, None) for a spectator. Raises
    :class:`Refused` for a token that is present and bad, or for a token in the URL.

    Where the identity comes from, first match wins:

    1. ``Authorization: Bearer <token>`` in the handshake (clients that are not browsers);
    2. ``?auth=message``: the very first message must be ``{"type": "auth", "token": "..."}``,
       within ``MENAGERIE_WS_AUTH_TIMEOUT`` seconds; the server sends nothing before it;
    3. the HttpOnly login cookie, when the handshake comes from a page of this site
       (:func:`same_origin`); a stale cookie means a spectator, as over HTTP;
    4. nothing: a spectator.
    """
    auth = services.auth
    if "token" in ws.query_params:
        raise Refused("token_in_url", TOKEN_IN_URL, 4400)
    header = ws.headers.get("authorization")
    if header is not None:
        try:
            token, _ = token_from_headers(header, None)
        except Refusal as exc:
            raise Refused(exc.code, exc.message, 4401) from None
        user = await auth.user_for_token(token) if token else None
        if user is None:
            raise Refused("bad_token", BAD_TOKEN, 4401)
        return user, token
    if ws.query_params.get("auth") == "message":
        token = await _first_message_token(ws, services.settings.ws_auth_timeout)
        user = await auth.user_for_token(token)
        if user is None:
            raise Refused("bad_token", BAD_TOKEN, 4401)
        return user, token
    cookie = ws.cookies.get(COOKIE)
    if cookie and same_origin(ws):
        user = await auth.user_for_token(cookie)
        if user is not None:
            return user, cookie
    return None, None


async def _first_message_token(ws: WebSocket, timeout: float) -> str:
    try:
        async with asyncio.timeout(timeout):
            message = await ws.receive()
    except TimeoutError:
        raise Refused("auth_expected", AUTH_EXPECTED, 4401) from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    raw = message.get("text")
    if raw is None:
        raw = (message.get("bytes") or b"").decode("utf-8", "replace")
    try:
        data = jsonutil.loads(raw) if len(raw) <= 4096 else None
    except Exception:
        data = None
    token = data.get("token") if isinstance(data, dict) and data.get("type") == "auth" else None
    if not isinstance(token, str) or not token:
        raise Refused("auth_expected", AUTH_EXPECTED, 4401)
    return token


async def still_valid(services: Services, conn: Connection) -> bool:
    """Whether the socket's login still holds (re-checked before each action or chat line;
    a revoked one closes the socket)."""
    if conn.closed:
        return False
    if conn.token is None:
        return True
    if await services.auth.user_for_token(conn.token) is not None:
        return True
    services.sessions.close(conn)
    return False


def open_session(services: Services, conn: Connection, user: UserInfo | None,
                 token: str | None) -> None:
    """Register a signed-in socket, so that revoking its login closes it."""
    if user is not None and token is not None:
        services.sessions.add(conn, user.id, hash_token(token))


async def admit(ws: WebSocket, slot: SocketSlot, lang: str) -> bool:
    """Accept the socket, counted from its first byte (before any wait for its login): refused
    past the process's cap (4503 ``server_busy``) or the address's (4429 ``too_many_sockets``).
    """
    refused = slot.enter(client_address(ws))
    await ws.accept()
    if refused is not None:
        await refuse_error(ws, refused, lang)
        return False
    return True


async def refuse_error(ws: WebSocket, exc: Refusal, lang: str) -> None:
    """Refuse with a :class:`~app.refusal.Refusal` of the socket caps: 4429 for a cap of the address or
    the user, 4503 for a full process (with ``retry_after``, also in the error message)."""
    said = error_message(exc.code, exc.message, lang, **exc.extra)
    await ws.send_text(jsonutil.dumps_str(said))
    await ws.close(code=4503 if status_of(exc) == 503 else 4429,
                   reason=i18n.close_reason(said["error"]["message"]))
