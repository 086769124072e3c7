"""Helpers shared by the route modules."""

from __future__ import annotations

import re

from fastapi import Request

from ..errors import not_found
from ..services import Services

_ID = re.compile(r"^[1-9][0-9]{0,17}$")


def services(request: Request) -> Services:
    return request.app.state.services


def parse_game_id(raw: str) -> int:
    """Game ids are positive integers; anything else is simply not found."""
    if not _ID.match(raw):
        raise not_found("game")
    return int(raw)
