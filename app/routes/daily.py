"""The daily challenge: today's kinds, start (or resume) an attempt, a day's leaderboard, the
past days (see ``app/daily/``, ``docs/daily.md``)."""

from __future__ import annotations

from fastapi import APIRouter, Query

from ..daily.calendar import parse_day
from ..errors import JSONResponse
from .deps import CurrentUser, DailyDay, DailyKindName, Svc, Viewer

router = APIRouter(prefix="/api/daily", tags=["daily"])

DAY = r"^\d{4}-\d{2}-\d{2}$"


@router.get("")
async def today(user: Viewer, svc: Svc):
    """Today (UTC): ``{day, now, ends_at, seconds_left, kinds: [{kind, game, title, seats,
    bots, bot, options, time_control, attempt}], streak}``; ``attempt`` and ``streak`` are the
    caller's (null when signed out or not started)."""
    return JSONResponse(await svc.daily.overview(user))


@router.post("/{kind}/start", responses={201: {"description": "Your game of today was dealt now"}})
async def start(user: CurrentUser, kind: DailyKindName, svc: Svc):
    """Start today's ``kind`` challenge (201 ``{kind, day, seat, created, game}``), or get the
    game you started already (200): one attempt per player, kind and day. 404
    ``unknown_challenge`` for a kind not offered today."""
    out, created = await svc.daily.start(user, kind)
    return JSONResponse(out, status_code=201 if created else 200)


@router.get("/history")
async def history(user: Viewer, svc: Svc,
                  before: str | None = Query(None, pattern=DAY),
                  limit: int = Query(14, ge=1, le=60)):
    """The past days before today (or before ``before``), newest first: per kind how many
    played and finished in time, the winner, your own attempt; your streak; ``next_before``
    for the next page."""
    return JSONResponse(await svc.daily.history(user, parse_day(before) if before else None,
                                                limit))


@router.get("/{day}/{kind}/leaderboard")
async def leaderboard(user: Viewer, day: DailyDay, kind: DailyKindName, svc: Svc,
                      limit: int = Query(50, ge=1, le=200),
                      offset: int = Query(0, ge=0, le=100_000)):
    """A day's attempts finished in time, ranked by score, then by the time the player's clock
    used: ``{day, kind, over, ends_at, players, total, offset, entries: [{rank, user, score,
    time_used, finished_at, game_id}], you}``. ``game_id`` (a replay) only once the day is
    over, except your own. 404 ``day_not_started`` for a day to come."""
    return JSONResponse(await svc.daily.leaderboard(day, kind, user, limit, offset))
