"""The games on offer and their catalogs."""

from __future__ import annotations

from fastapi import APIRouter

import engine
from engine.bots import bot_kinds

from .. import i18n
from ..refusal import not_found

router = APIRouter(prefix="/api", tags=["catalog"])


@router.get("/catalog")
async def catalog():
    """``describe()`` of every game this server offers."""
    return [engine.get_game(name).describe() for name in engine.game_names()]


@router.get("/catalog/{game}")
async def game_catalog(game: str):
    """Every card, tile and map of one game."""
    if game not in engine.game_names():
        raise not_found("game")
    return {**engine.get_game(game).catalog(), "i18n": i18n.data_translations(game)}


@router.get("/bots")
async def bots():
    """The bot kinds that can fill a seat."""
    return bot_kinds()
