"""Quick match (issue #33): seeks (see app/seeks/)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from starlette.responses import Response

from ..clock import TimeControl
from ..errors import JSONResponse
from ..ratelimit import client_address
from .deps import CurrentUser, Svc, Viewer, parse_id

router = APIRouter(prefix="/api/seeks", tags=["seeks"])


async def seek_id_from_path(seek_id: str) -> int:
    return parse_id(seek_id, "seek")


#: the ``{seek_id}`` of the path as an int (404 for anything but a positive integer)
SeekId = Annotated[int, Depends(seek_id_from_path)]


class PostSeek(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"game": "arknova", "seats": 2, "time_control": {"mode": "move", "seconds": 86400},
         "rated": True, "rating_min": 1300, "rating_max": 1700, "minutes": 60}]})
    game: StrictStr = Field(max_length=64)
    seats: StrictInt = Field(2, ge=1, le=64)
    options: dict[str, Any] = Field(default_factory=dict)
    #: none: untimed; see docs/async-play.md
    time_control: TimeControl | None = None
    #: rated (Glicko-2, app/ratings.py) or casual (never rated)
    rated: StrictBool = True
    #: the opponents' rating range (either end open)
    rating_min: StrictInt | None = Field(None, ge=0, le=10_000)
    rating_max: StrictInt | None = Field(None, ge=0, le=10_000)
    #: the seek waits this long, then expires (1 minute to a week)
    minutes: StrictInt = Field(60, ge=1, le=7 * 24 * 60)


@router.get("")
async def list_seeks(svc: Svc, user: Viewer):
    """``{"seeks": [open seeks, oldest first], "mine": [your seeks open now or closed in the
    last hour, newest first], "ratings": {game: your rating}}``."""
    return JSONResponse(await svc.seeks.listing(user))


@router.post("", status_code=201)
async def post_seek(body: PostSeek, request: Request, svc: Svc, user: CurrentUser):
    """Post a seek; it is paired at once when it can be: ``{"seek", "game"}`` (``game`` the
    started game's summary, or null while the seek waits). 409 ``seek_quota``,
    ``game_quota``; 422 ``bad_seats``, ``bad_rating_range``, ``unknown_game``."""
    return JSONResponse(await svc.seeks.post(
        user, body.game, body.seats, body.options,
        body.time_control.model_dump() if body.time_control else None, body.rated,
        body.rating_min, body.rating_max, body.minutes, client_address(request)),
        status_code=201)


@router.post("/{seek_id}/accept", status_code=201)
async def accept_seek(user: CurrentUser, seek_id: SeekId, request: Request, svc: Svc):
    """Play another player's open two-seat seek now: ``{"seek", "game"}`` (409
    ``seek_closed``, ``own_seek``, ``seek_not_direct``, ``seek_out_of_range``)."""
    return JSONResponse(await svc.seeks.accept(user, seek_id, client_address(request)),
                        status_code=201)


@router.delete("/{seek_id}", status_code=204)
async def cancel_seek(user: CurrentUser, seek_id: SeekId, svc: Svc):
    """Cancel your open seek (404 for anyone else's; 409 ``seek_closed`` once paired or
    expired)."""
    await svc.seeks.cancel(user, seek_id)
    return Response(status_code=204)
