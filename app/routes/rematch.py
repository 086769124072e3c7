"""Rematches and their invitations (see app/rematch.py)."""

from __future__ import annotations

from fastapi import APIRouter

from ..errors import JSONResponse
from .deps import CurrentUser, GameId, Svc, Viewer

router = APIRouter(tags=["rematch"])


@router.post("/api/games/{game_id}/rematch",
             responses={201: {"description": "The rematch was opened now"}})
async def rematch(user: CurrentUser, game_id: GameId, svc: Svc):
    """Open the rematch of a finished game (201), or get the one already opened (200)."""
    summary, created = await svc.rematch.rematch(user, game_id)
    return JSONResponse(summary, status_code=201 if created else 200)


@router.get("/api/games/{game_id}/rematch")
async def get_rematch(user: Viewer, game_id: GameId, svc: Svc):
    """``{"rematch": summary | null}``: the rematch of this game, if one was opened."""
    return JSONResponse(await svc.rematch.of_game(game_id, user))


@router.post("/api/games/{game_id}/rematch/accept")
async def accept(user: CurrentUser, game_id: GameId, svc: Svc):
    """Take the seat you are invited to (the game starts once nobody is left to wait for)."""
    return JSONResponse(await svc.rematch.accept(user, game_id))


@router.post("/api/games/{game_id}/rematch/decline")
async def decline(user: CurrentUser, game_id: GameId, svc: Svc):
    """Give the seat back: the game becomes an ordinary open game anyone may join."""
    return JSONResponse(await svc.rematch.decline(user, game_id))


@router.get("/api/rematch/invitations")
async def invitations(user: CurrentUser, svc: Svc):
    """The open rematches where a seat waits for you to accept or decline."""
    return JSONResponse(await svc.rematch.invitations(user))
