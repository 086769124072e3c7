"""Invitations, friends and profiles (issue #33: app/invites.py, app/friends.py,
app/profile.py)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr
from starlette.responses import Response

from ..errors import JSONResponse
from .deps import CurrentUser, GameId, Svc, Viewer
from .games import CreateGame

router = APIRouter(tags=["friends"])

Name = Field(min_length=1, max_length=64)


class Invite(CreateGame):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"game": "arknova", "seats": 2, "options": {}, "invite": ["alice"]}]})
    #: the players to keep seats for (the lowest seats that are not bots'), by name
    invite: list[StrictStr] = Field(min_length=1, max_length=7)
    #: only invited players may take a seat, and the game is in no public list
    unlisted: StrictBool = True


class MorePlayers(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invite: list[StrictStr] = Field(min_length=1, max_length=7)


@router.post("/api/invitations", status_code=201)
async def create_invitation(body: Invite, svc: Svc, user: CurrentUser):
    """Open a game for named players: a seat is kept for each until they accept or decline;
    they are told (in the page, email, push). 404 ``unknown_player``, 422 ``self_invite``,
    ``too_many_invites``; 409 ``invitation_quota``, ``game_quota``; 429 ``rate_limited``."""
    await svc.limits.check(svc.limits.invites, user.id)
    spec = {"game": body.game, "seats": body.seats, "options": body.options,
            "bots": body.bots, "bot": body.bot, "hints": body.hints,
            "time_control": body.time_control.model_dump() if body.time_control else None}
    return JSONResponse(await svc.invites.create(user, spec, body.invite, body.unlisted),
                        status_code=201)


@router.get("/api/invitations")
async def list_invitations(user: CurrentUser, svc: Svc):
    """``{"received": [summary], "sent": [summary]}``: invitations waiting for your answer,
    and yours waiting for others'."""
    return JSONResponse(await svc.invites.pending(user))


@router.post("/api/games/{game_id}/invitations")
async def invite_more(body: MorePlayers, user: CurrentUser, game_id: GameId, svc: Svc):
    """The creator invites players to the free seats of an open game."""
    await svc.limits.check(svc.limits.invites, user.id)
    return JSONResponse(await svc.invites.invite(user, game_id, body.invite))


@router.post("/api/games/{game_id}/invitation/accept")
async def accept(user: CurrentUser, game_id: GameId, svc: Svc):
    """Take the seat kept for you (403 ``not_invited``); the game starts once nobody is left
    to wait for."""
    return JSONResponse(await svc.invites.accept(user, game_id))


@router.post("/api/games/{game_id}/invitation/decline")
async def decline(user: CurrentUser, game_id: GameId, svc: Svc):
    """Give the seat kept for you back (403 ``not_invited``); the creator is told."""
    return JSONResponse(await svc.invites.decline(user, game_id))


@router.delete("/api/games/{game_id}/invitations/{name}")
async def withdraw(name: str, user: CurrentUser, game_id: GameId, svc: Svc):
    """The creator takes an unanswered invitation back (403 ``not_creator``, 404
    ``no_invitation``, 409 ``not_open``)."""
    return JSONResponse(await svc.invites.withdraw(user, game_id, name[:64]))


@router.get("/api/me/following")
async def following(user: CurrentUser, svc: Svc):
    """Your friends list: ``[{"user", "since"}]``."""
    return JSONResponse(await svc.friends.following(user))


@router.put("/api/me/following/{name}")
async def follow(name: str, user: CurrentUser, svc: Svc):
    """Follow a player (404 ``unknown_player``, 422 ``cannot_follow_self``, 409
    ``follow_quota``, 429 ``rate_limited``)."""
    await svc.limits.check(svc.limits.follows, user.id)
    return JSONResponse(await svc.friends.follow(user, name[:64]))


@router.delete("/api/me/following/{name}", status_code=204)
async def unfollow(name: str, user: CurrentUser, svc: Svc):
    """Stop following a player."""
    await svc.friends.unfollow(user, name[:64])
    return Response(status_code=204)


@router.get("/api/me/friends/games")
async def friends_games(user: CurrentUser, svc: Svc):
    """The open and running games of the players you follow that you may see (never an
    unlisted or sealed game you have no seat in); each with ``friends``."""
    return JSONResponse(await svc.friends.games_of_friends(user))


@router.get("/api/players/{name}")
async def profile(name: str, user: Viewer, svc: Svc):
    """A player's profile: current and finished games (those you may see), games per game and
    time control, most played maps and cards, ratings with their history, the daily
    challenge streak; ``following``: whether you follow them."""
    player = await svc.profiles.player(name[:64])
    out: dict = {"user": player}
    out.update(await svc.profiles.of_player(player["id"], user))
    ratings = await svc.ratings.of_user(player["username"])
    history = await svc.ratings.history_of(player["id"])
    out["ratings"] = [{**r, "history": history.get(r["game"], [])}
                      for r in ratings["ratings"]]
    out["streak"] = await svc.daily.streak_of(player["id"])
    out["following"] = await svc.friends.follows(user, player["id"])
    out["me"] = user is not None and user.id == player["id"]
    return JSONResponse(out)
