"""Chat of a game: read a channel's lines, post a line (see ``app/chat.py``)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..errors import JSONResponse
from .deps import CurrentUser, GameId, Svc, Viewer

router = APIRouter(prefix="/api/games", tags=["chat"])

INT63 = 2**63 - 1


class PostChat(BaseModel):
    model_config = ConfigDict(json_schema_extra={
        "examples": [{"channel": "players", "text": "Good luck, have fun!"}]})
    #: players (seated players) or spectators (signed in without a seat); default: yours
    channel: Literal["players", "spectators"] | None = None
    #: 1 to 500 characters once trimmed; no control characters
    text: StrictStr = Field(max_length=4000)


@router.get("/{game_id}/chat")
async def chat_history(user: Viewer, game_id: GameId, svc: Svc,
                       channel: Literal["players", "spectators"] = "players",
                       after: int | None = Query(None, ge=0, le=INT63),
                       limit: int = Query(100, ge=1, le=500)):
    """Lines of a channel, oldest first: those after message id ``after``, else the newest
    ``limit``. The spectators' channel is hidden from the game's players (403 ``chat_hidden``)
    until the game is finished."""
    return JSONResponse(await svc.chat.history(game_id, user, channel, after, limit))


@router.post("/{game_id}/chat", status_code=201)
async def chat_post(user: CurrentUser, game_id: GameId, body: PostChat, svc: Svc):
    """Post a line: players write in ``players``, other signed-in users in ``spectators``.
    Sent live to the game's sockets that may read the channel as ``{"type": "chat",
    "message"}``; 429 ``rate_limited`` past a few lines in a few seconds."""
    message = await svc.chat.post(game_id, user, body.channel, body.text)
    return JSONResponse(message, status_code=201)
