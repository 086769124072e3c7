"""Typed dependencies of the routes (FastAPI's ``Annotated`` style): the services, the caller,
the game id from the path.

    async def handler(game: GameId, svc: Svc, user: CurrentUser): ...
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, Request

from ..auth import UserInfo, require_user, viewer
from ..errors import not_found
from ..services import Services

_ID = re.compile(r"^[1-9][0-9]{0,17}$")


def get_services(request: Request) -> Services:
    return request.app.state.services


def parse_game_id(raw: str) -> int:
    """Game ids are positive integers; anything else is simply not found."""
    if not _ID.match(raw):
        raise not_found("game")
    return int(raw)


def game_id_from_path(game_id: str) -> int:
    return parse_game_id(game_id)


#: the per-process services
Svc = Annotated[Services, Depends(get_services)]
#: the signed-in caller (401 ``unauthorized`` otherwise)
CurrentUser = Annotated[UserInfo, Depends(require_user)]
#: the caller if signed in, else None (a spectator)
Viewer = Annotated[UserInfo | None, Depends(viewer)]
#: the ``{game_id}`` of the path as an int (404 for anything but a positive integer)
GameId = Annotated[int, Depends(game_id_from_path)]
