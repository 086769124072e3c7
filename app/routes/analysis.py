"""Post-game analysis and hints (issue #19; see app/analysis/service.py, docs/analysis.md)."""

from __future__ import annotations

from fastapi import APIRouter

from ..errors import JSONResponse
from .deps import CurrentUser, GameId, Svc, Viewer

router = APIRouter(prefix="/api/games", tags=["analysis"])


@router.post("/{game_id}/analysis", status_code=202)
async def request_analysis(user: CurrentUser, game_id: GameId, svc: Svc):
    """Analyse a finished game (202 while queued or running, 200 once done; a second request
    reuses the game's analysis, a cancelled one resumes). 409 ``game_not_finished`` before the
    end."""
    status, body = await svc.analysis.request(game_id, user)
    return JSONResponse(body, status_code=status)


@router.get("/{game_id}/analysis")
async def get_analysis(user: Viewer, game_id: GameId, svc: Svc):
    """The analysis: ``status`` (none, pending, running, done, failed, cancelled), progress
    (``done`` of ``total`` decisions) and, once done, the ``report``. Visible to whoever may
    read the game's record."""
    return JSONResponse(await svc.analysis.get(game_id, user))


@router.delete("/{game_id}/analysis")
async def cancel_analysis(user: CurrentUser, game_id: GameId, svc: Svc):
    """Cancel a queued or running analysis (the game's players and creator only: 403
    ``not_a_player``); it stops at its next decision and keeps what it computed."""
    return JSONResponse(await svc.analysis.cancel(game_id, user))


@router.get("/{game_id}/hint")
async def hint(user: CurrentUser, game_id: GameId, svc: Svc):
    """The bot's proposal for your seat's current decision, with a short reason, in a game
    whose players agreed to hints (403 ``hints_off``, ``not_a_player``; 409 ``no_decision``;
    429 ``rate_limited`` past the user's hints a minute, ``hint_pending`` while their previous
    hint for another decision is still computed)."""
    await svc.limits.check(svc.limits.hints, user.id)
    return JSONResponse(await svc.analysis.hint(game_id, user))
