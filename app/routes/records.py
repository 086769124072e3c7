"""Game records (export, import) and the replay viewer's history (see app/records.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Query

from ..errors import JSONResponse
from .deps import CurrentUser, GameId, Svc, Viewer

router = APIRouter(prefix="/api/games", tags=["records"])

INT32 = 2**31 - 1


@router.get("/{game_id}/record")
async def export_record(game_id: GameId, svc: Svc):
    """The record of a finished game (``menagerie-record/1``: options, seats, the effective
    actions, result, seed); 409 ``not_finished`` before the end (hidden information)."""
    return JSONResponse(await svc.records.export(game_id))


@router.post("/import", status_code=201)
async def import_record(user: CurrentUser, svc: Svc, record: dict[str, Any] = Body(...)):
    """Replay a finished game's record and store it as a new finished game (``source:
    import``); 422 with the engine's code (and the action's ``index``) when it is not legal.
    Each user may import ``rate_imports_burst`` records at once, then
    ``rate_imports_per_minute`` (429 ``rate_limited``): a replay costs real CPU."""
    await svc.limits.check(svc.limits.imports, user.id)
    return JSONResponse(await svc.records.import_record(user, record), status_code=201)


@router.get("/{game_id}/history")
async def history(user: Viewer, game_id: GameId, svc: Svc,
                  version: int | None = Query(None, ge=0, le=INT32)):
    """The game at ``version`` (default: the current one) for the replay viewer: the public
    view (after the end also every seat's private part in ``privates``), the events of that
    version, who made it, and ``marks``: the versions where a break or a round began."""
    return JSONResponse(await svc.records.history(game_id, user, version))
