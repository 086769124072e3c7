"""Typed dependencies of the routes (FastAPI's ``Annotated`` style): the services, the caller,
the ids of the path.

    async def handler(user: CurrentUser, game_id: GameId, svc: Svc): ...

Declare the caller before an id of the path: dependencies run in the order of the signature,
so a missing or bad login answers 401 (a cookie write without its CSRF header 403) before a
malformed id answers 404.

WebSockets: ``Svc`` works there too (:func:`get_services` takes the ``HTTPConnection`` both
share). Nothing a socket route depends on may raise: an exception in a dependency would fail
the handshake itself, while the socket protocol refuses after accepting, with an error message
and a close code (see ``ws.py``); hence :data:`SocketGameId`, None for a malformed id. The
socket's caller is resolved in the handler, after the accept, for the same reason (a refusal,
or the first message of ``?auth=message``, needs an open socket).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..auth import UserInfo, require_user, viewer
from ..daily.calendar import parse_day
from ..errors import ApiError
from ..refusal import not_found, say
from ..services import Services

_ID = re.compile(r"^[1-9][0-9]{0,17}$")


async def get_services(conn: HTTPConnection) -> Services:
    """The per-process services, for a request or a WebSocket alike."""
    return conn.app.state.services


def parse_id(raw: str, what: str) -> int:
    """Ids are positive integers; anything else is simply not found (404 ``not_found``)."""
    if not _ID.match(raw):
        raise not_found(what)
    return int(raw)


def parse_game_id(raw: str) -> int:
    return parse_id(raw, "game")


async def game_id_from_path(game_id: str) -> int:
    return parse_game_id(game_id)


async def webhook_id_from_path(webhook_id: str) -> int:
    return parse_id(webhook_id, "webhook")


async def daily_day_from_path(day: str) -> date:
    """A ``YYYY-MM-DD`` day of the path (404 ``not_found`` for anything else)."""
    found = parse_day(day)
    if found is None:
        raise not_found("daily challenge day")
    return found


_KIND = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


async def daily_kind_from_path(kind: str) -> str:
    """A daily challenge kind's name (404 ``unknown_challenge`` for what cannot be one)."""
    if not _KIND.match(kind):
        raise ApiError(404, "unknown_challenge", say("unknown_challenge"))
    return kind


async def socket_game_id(game_id: str) -> int | None:
    """The ``{game_id}`` of a socket's path, None when it is not a positive integer (the socket
    handler refuses it after the accept: 4404)."""
    return int(game_id) if _ID.match(game_id) else None


#: the per-process services (requests and WebSockets)
Svc = Annotated[Services, Depends(get_services)]
#: the signed-in caller (401 ``unauthorized`` otherwise)
CurrentUser = Annotated[UserInfo, Depends(require_user)]
#: the caller if signed in, else None (a spectator)
Viewer = Annotated[UserInfo | None, Depends(viewer)]
#: the ``{game_id}`` of the path as an int (404 for anything but a positive integer)
GameId = Annotated[int, Depends(game_id_from_path)]
#: the ``{webhook_id}`` of the path as an int (404 for anything but a positive integer)
WebhookId = Annotated[int, Depends(webhook_id_from_path)]
#: the ``{day}`` of a daily challenge's path (404 for anything but ``YYYY-MM-DD``)
DailyDay = Annotated[date, Depends(daily_day_from_path)]
#: the ``{kind}`` of a daily challenge's path (404 ``unknown_challenge`` for a malformed one)
DailyKindName = Annotated[str, Depends(daily_kind_from_path)]
#: the ``{game_id}`` of a socket's path as an int, or None (never raises: see above)
SocketGameId = Annotated[int | None, Depends(socket_game_id)]
