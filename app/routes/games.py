"""The lobby and the game table: create, join, start, list, view, legal moves, actions, log."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Body, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from starlette.responses import Response

from ..clock import TimeControl
from ..errors import ApiError, JSONResponse
from ..ratelimit import client_address
from ..refusal import say
from .deps import CurrentUser, GameId, Svc, Viewer

router = APIRouter(prefix="/api/games", tags=["games"])

INT32 = 2**31 - 1


class CreateGame(BaseModel):
    model_config = ConfigDict(json_schema_extra={
        "examples": [{"game": "arknova", "seats": 2, "options": {}, "bots": [1]}]})
    game: StrictStr = Field(max_length=64)
    seats: StrictInt = Field(ge=1, le=64)
    options: dict[str, Any] = Field(default_factory=dict)
    #: seats (1 .. seats-1) played by bots
    bots: list[StrictInt] = Field(default_factory=list, max_length=64)
    #: which bot plays them (GET /api/bots)
    bot: StrictStr = Field("random", max_length=32)
    #: a limit per decision or a time bank (none: untimed); see docs/async-play.md
    time_control: TimeControl | None = None
    #: the bot may propose answers (GET /api/games/{id}/hint): every player who joins sees it
    #: first; such a game is never rated
    hints: StrictBool = False


class JoinGame(BaseModel):
    seat: StrictInt | None = Field(None, ge=0, le=64)


class Undo(BaseModel):
    #: the version you see (409 if the game moved on)
    version: StrictInt = Field(ge=0, le=INT32)


class PostAction(BaseModel):
    model_config = ConfigDict(json_schema_extra={
        "examples": [{"version": 3, "action": {"type": "play", "card": 7}}]})
    version: StrictInt = Field(ge=0, le=INT32)
    action: dict[str, Any]
    #: your client offers "Confirm turn": when this decision ends your turn and your
    #: preference ``confirm_turn`` is on, the turn waits for ``POST .../confirm`` (or
    #: ``.../restart``); absent or false: the turn passes at once, as it always did
    hold: StrictBool = False


@router.get("")
async def list_games(svc: Svc, user: Viewer,
                     status: Literal["open", "running", "finished"] | None = None,
                     mine: bool = False,
                     limit: int = Query(50, ge=1, le=200),
                     offset: int = Query(0, ge=0, le=100_000)):
    """Game summaries, newest first; ``mine=1``: your games, those waiting for you first."""
    if mine and user is None:
        raise ApiError(401, "unauthorized", say("unauthorized.list"))
    return JSONResponse(await svc.games.list_games(user, status, mine, limit, offset))


@router.get("/next")
async def next_game(svc: Svc, user: CurrentUser,
                    after: int | None = Query(None, ge=1, le=2**63 - 1)):
    """``{"game": summary | null}``: the game where it is your move, the closest deadline first
    (untimed games after the timed ones), other than ``after`` (the game you are looking at)."""
    return JSONResponse({"game": await svc.games.next_game(user, after)})


@router.post("", status_code=201)
async def create_game(body: CreateGame, svc: Svc, user: CurrentUser):
    """Open a new game; the creator sits in seat 0, ``bots`` seats are played by the server."""
    return JSONResponse(await svc.games.create(
        user, body.game, body.seats, body.options, body.bots, body.bot,
        body.time_control.model_dump() if body.time_control else None, hints=body.hints),
        status_code=201)


@router.get("/{game_id}")
async def get_game(user: Viewer, game_id: GameId, svc: Svc):
    """The game with the view of the caller's seat (spectator view without a seat)."""
    return JSONResponse(await svc.games.detail(game_id, user))


@router.post("/{game_id}/join")
async def join_game(user: CurrentUser, game_id: GameId, svc: Svc,
                    body: JoinGame | None = Body(None)):
    """Take a free seat (the lowest, or ``{"seat": n}``)."""
    seat, summary = await svc.games.join(user, game_id, body.seat if body else None)
    return JSONResponse({"seat": seat, "game": summary})


@router.post("/{game_id}/start")
async def start_game(user: CurrentUser, game_id: GameId, svc: Svc):
    """Deal the game (creator only, every seat filled); bots then play their decisions."""
    return JSONResponse(await svc.games.start(user, game_id))


@router.get("/{game_id}/legal")
async def legal_actions(user: CurrentUser, game_id: GameId, svc: Svc):
    # encoded here at once (FastAPI's generic encoder walks every action: ~1 ms)
    return JSONResponse(await svc.games.legal(game_id, user))


@router.post("/{game_id}/actions")
async def post_action(user: CurrentUser, game_id: GameId, body: PostAction, request: Request,
                      svc: Svc):
    """Answer your seat's current decision at ``version`` (409 if the game moved on)."""
    await svc.limits.action(client_address(request), user.id)
    done = await svc.games.act(game_id, body.version, body.action, user=user, hold=body.hold)
    return Response(action_reply(done), media_type="application/json")  # pre-encoded


@router.post("/{game_id}/confirm")
async def confirm_turn(user: CurrentUser, game_id: GameId, body: Undo, request: Request,
                       svc: Svc):
    """Confirm your held turn (a move sent with ``hold`` that ended your turn): the next seat
    is to move now, its clock starts, bots move and the notices go out. 409
    ``nothing_to_confirm`` (no turn of yours waits), 403 ``not_your_turn_to_confirm``, 409
    ``stale_version`` (another confirm or a restart was first)."""
    await svc.limits.action(client_address(request), user.id)
    done = await svc.games.confirm(game_id, body.version, user)
    return Response(action_reply(done), media_type="application/json")


@router.post("/{game_id}/restart")
async def restart_turn(user: CurrentUser, game_id: GameId, body: Undo, request: Request,
                       svc: Svc):
    """Take back every decision of your turn since the last information barrier (a held turn
    too): a new version with the state before them; the log leaves them out. 409
    ``cannot_undo`` as for ``.../undo``."""
    await svc.limits.action(client_address(request), user.id)
    await svc.limits.check(svc.limits.undo, user.id)
    done = await svc.games.undo(game_id, body.version, user, whole_turn=True)
    return Response(action_reply(done), media_type="application/json")


@router.post("/{game_id}/undo")
async def undo(user: CurrentUser, game_id: GameId, body: Undo, request: Request, svc: Svc):
    """Take back your latest decision (409 ``cannot_undo`` past an information barrier: a card
    drawn, a secret revealed, another player's decision). The game moves on to a new version
    whose state is the one before that decision, with the clock as it was before it (no
    time refunded, the same deadline); the log shows the take-back. Take-backs are limited per
    user (429 ``rate_limited``: ``MENAGERIE_RATE_UNDO_PER_MINUTE``, ``..._BURST``)."""
    await svc.limits.action(client_address(request), user.id)
    await svc.limits.check(svc.limits.undo, user.id)
    done = await svc.games.undo(game_id, body.version, user)
    return Response(action_reply(done), media_type="application/json")


@router.post("/{game_id}/resign")
async def resign(user: CurrentUser, game_id: GameId, svc: Svc):
    """Resign (a running game). Two players: the game ends at once and the other seat wins.
    More: a bot plays your seat to the end, where it finishes last (the game ends at once when
    at most one seat that did not resign is left). 409 ``game_over``, ``not_started``,
    ``already_resigned``. A rated game counts it as a loss."""
    return JSONResponse(await svc.games.resign(game_id, user))


@router.post("/{game_id}/abort")
async def abort(user: CurrentUser, game_id: GameId, svc: Svc):
    """Abort a running game while no seat has made its first decision of play (after the
    opening: Ark Nova's keep): the game is over, nobody won, nothing is rated. Any player.
    409 ``abort_too_late`` afterwards (resign instead)."""
    return JSONResponse(await svc.games.abort(game_id, user))


@router.post("/{game_id}/cancel", status_code=204)
async def cancel(user: CurrentUser, game_id: GameId, svc: Svc):
    """The creator deletes a game that has not started (403 ``not_creator``, 409
    ``not_open``)."""
    await svc.games.cancel(game_id, user)
    return Response(status_code=204)


@router.post("/{game_id}/leave")
async def leave(user: CurrentUser, game_id: GameId, svc: Svc):
    """Give your seat of a game that has not started back (the creator cancels instead:
    409 ``creator_cannot_leave``)."""
    return JSONResponse(await svc.games.leave(game_id, user))


@router.post("/{game_id}/reclaim")
async def reclaim(user: CurrentUser, game_id: GameId, svc: Svc):
    """Take your seat back from the bot that played it after your time ran out."""
    return JSONResponse(await svc.games.reclaim(game_id, user))


def action_reply(done, kind: bytes | None = None) -> bytes:
    """``{version, events, view, status, waiting_for, result}`` for the seat that moved."""
    return done.frame.reply(done.seat, kind)


@router.get("/{game_id}/log")
async def game_log(user: Viewer, game_id: GameId, svc: Svc,
                   after: int = Query(0, ge=-1, le=INT32),
                   limit: int = Query(500, ge=1, le=1000)):
    """Events of the versions after ``after``, as the caller may see them."""
    return JSONResponse(await svc.games.log_after(game_id, user, after, limit))
