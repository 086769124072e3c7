"""Rematches and their invitations (see app/rematch.py)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request

from ..auth import UserInfo, require_user, viewer
from ..errors import JSONResponse
from .common import parse_game_id, services

router = APIRouter(tags=["rematch"])


@router.post("/api/games/{game_id}/rematch",
             responses={201: {"description": "The rematch was opened now"}})
async def rematch(game_id: str, request: Request, user: UserInfo = Depends(require_user)):
    """Open the rematch of a finished game (201), or get the one already opened (200)."""
    summary, created = await services(request).rematch.rematch(user, parse_game_id(game_id))
    return JSONResponse(summary, status_code=201 if created else 200)


@router.get("/api/games/{game_id}/rematch")
async def get_rematch(game_id: str, request: Request, user: UserInfo | None = Depends(viewer)):
    """``{"rematch": summary | null}``: the rematch of this game, if one was opened."""
    return JSONResponse(await services(request).rematch.of_game(parse_game_id(game_id), user))


@router.post("/api/games/{game_id}/rematch/accept")
async def accept(game_id: str, request: Request, user: UserInfo = Depends(require_user)):
    """Take the seat you are invited to (the game starts once nobody is left to wait for)."""
    return JSONResponse(await services(request).rematch.accept(user, parse_game_id(game_id)))


@router.post("/api/games/{game_id}/rematch/decline")
async def decline(game_id: str, request: Request, user: UserInfo = Depends(require_user)):
    """Give the seat back: the game becomes an ordinary open game anyone may join."""
    return JSONResponse(await services(request).rematch.decline(user, parse_game_id(game_id)))


@router.get("/api/rematch/invitations")
async def invitations(request: Request, user: UserInfo = Depends(require_user)):
    """The open rematches where a seat waits for you to accept or decline."""
    return JSONResponse(await services(request).rematch.invitations(user))
