"""Ratings: a leaderboard per game and a player's ratings (Glicko-2, see app/ratings.py)."""

from __future__ import annotations

from fastapi import APIRouter, Query

from ..errors import JSONResponse
from .deps import Svc

router = APIRouter(tags=["ratings"])


@router.get("/api/ratings/{game}")
async def leaderboard(game: str, svc: Svc,
                      limit: int = Query(50, ge=1, le=200),
                      offset: int = Query(0, ge=0, le=100_000)):
    """The rated players of a game, best first: ``{game, total, offset, entries: [{rank,
    user, rating, rd, games}]}``."""
    return JSONResponse(await svc.ratings.leaderboard(game[:64], limit, offset))


@router.get("/api/users/{name}/ratings")
async def user_ratings(name: str, svc: Svc):
    """A player's rating in every game they have a rated result in (with their rank)."""
    return JSONResponse(await svc.ratings.of_user(name[:64]))
