"""Helpers shared by the route modules (see ``deps.py`` for the typed dependencies)."""

from __future__ import annotations

from fastapi import Request

from ..services import Services
from .deps import parse_game_id

__all__ = ["parse_game_id", "services"]


def services(request: Request) -> Services:
    return request.app.state.services
