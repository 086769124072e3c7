"""Chat of a game: read a channel's lines, post a line (see ``app/chat.py``)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..auth import UserInfo, require_user, viewer
from ..errors import JSONResponse
from .common import parse_game_id, services

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
async def chat_history(game_id: str, request: Request,
                       channel: Literal["players", "spectators"] = "players",
                       after: int | None = Query(None, ge=0, le=INT63),
                       limit: int = Query(100, ge=1, le=500),
                       user: UserInfo | None = Depends(viewer)):
    """Lines of a channel, oldest first: those after message id ``after``, else the newest
    ``limit``. The spectators' channel is hidden from the game's players (403 ``chat_hidden``)
    until the game is finished."""
    return JSONResponse(await services(request).chat.history(
        parse_game_id(game_id), user, channel, after, limit))


@router.post("/{game_id}/chat", status_code=201)
async def chat_post(game_id: str, body: PostChat, request: Request,
                    user: UserInfo = Depends(require_user)):
    """Post a line: players write in ``players``, other signed-in users in ``spectators``.
    Sent live to the game's sockets that may read the channel as ``{"type": "chat",
    "message"}``; 429 ``rate_limited`` past a few lines in a few seconds."""
    message = await services(request).chat.post(parse_game_id(game_id), user, body.channel,
                                                body.text)
    return JSONResponse(message, status_code=201)
