"""The caller's vacations (issue #33, app/vacations.py)."""

from __future__ import annotations

import datetime
from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.responses import Response

from ..errors import JSONResponse
from .deps import CurrentUser, Svc, parse_id

router = APIRouter(tags=["vacations"])


async def vacation_id_from_path(vacation_id: str) -> int:
    return parse_id(vacation_id, "vacation")


#: the ``{vacation_id}`` of the path as an int (404 for anything but a positive integer)
VacationId = Annotated[int, Depends(vacation_id_from_path)]


class Declare(BaseModel):
    model_config = ConfigDict(extra="forbid",
                              json_schema_extra={"examples": [{"start": "2027-07-01", "days": 7}]})
    #: the first day (in your time zone); none: today, from now
    start: datetime.date | None = None
    #: whole days (at most 30 a year)
    days: StrictInt = Field(ge=1, le=366)


@router.get("/api/me/vacations")
async def list_vacations(user: CurrentUser, svc: Svc):
    """Your vacations not over yet, your time zone and the days left this year and next."""
    return JSONResponse(await svc.vacations.list(user))


@router.post("/api/me/vacations", status_code=201)
async def declare(body: Declare, user: CurrentUser, svc: Svc):
    """Declare whole days away: every clock of yours stops meanwhile (409 ``vacation_overlap``,
    ``vacation_limit``; 422 ``vacation_past``, ``bad_vacation``)."""
    return JSONResponse(await svc.vacations.declare(user, body.start, body.days),
                        status_code=201)


@router.delete("/api/me/vacations/{vacation_id}", status_code=204)
async def end(vacation_id: VacationId, user: CurrentUser, svc: Svc):
    """Take back a vacation not begun yet, or end the one under way now."""
    await svc.vacations.end(user, vacation_id)
    return Response(status_code=204)
