"""Game records (export, import) and the replay viewer's history (see app/records.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Query, Request

from ..auth import UserInfo, require_user, viewer
from ..errors import JSONResponse
from .common import parse_game_id, services

router = APIRouter(prefix="/api/games", tags=["records"])

INT32 = 2**31 - 1


@router.get("/{game_id}/record")
async def export_record(game_id: str, request: Request):
    """The record of a finished game (``menagerie-record/1``: options, seats, the effective
    actions, result, seed); 409 ``not_finished`` before the end (hidden information)."""
    return JSONResponse(await services(request).records.export(parse_game_id(game_id)))


@router.post("/import", status_code=201)
async def import_record(request: Request, record: dict[str, Any] = Body(...),
                        user: UserInfo = Depends(require_user)):
    """Replay a finished game's record and store it as a new finished game (``source:
    import``); 422 with the engine's code (and the action's ``index``) when it is not legal.
    Each user may import ``rate_imports_burst`` records at once, then
    ``rate_imports_per_minute`` (429 ``rate_limited``): a replay costs real CPU."""
    svc = services(request)
    await svc.limits.check(svc.limits.imports, user.id)
    return JSONResponse(await services(request).records.import_record(user, record),
                        status_code=201)


@router.get("/{game_id}/history")
async def history(game_id: str, request: Request,
                  version: int | None = Query(None, ge=0, le=INT32),
                  user: UserInfo | None = Depends(viewer)):
    """The game at ``version`` (default: the current one) for the replay viewer: the public
    view (after the end also every seat's private part in ``privates``), the events of that
    version, who made it, and ``marks``: the versions where a break or a round began."""
    return JSONResponse(await services(request).records.history(parse_game_id(game_id), user,
                                                                version))
