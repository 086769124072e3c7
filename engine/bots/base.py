"""The bot interface and the random bot."""

from __future__ import annotations

from typing import MutableMapping

from ..core import rng as _rng
from ..core.game import Action, Game

_BOTS: dict[str, "Bot"] = {}


class Bot:
    """Chooses one legal action from what a seat can see."""

    kind = "base"

    def choose(self, game: Game, view: dict, legal: list[Action],
               rng: MutableMapping) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    """Picks uniformly among the legal actions; useful for fuzzing and empty seats."""

    kind = "random"

    def choose(self, game, view, legal, rng):
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[_rng.randbelow(rng, len(legal))]


def register_bot(bot: Bot) -> Bot:
    _BOTS[bot.kind] = bot
    return bot


def get_bot(kind: str) -> Bot:
    """The bot registered as ``kind`` (``KeyError`` if none)."""
    return _BOTS[kind]


def bot_kinds() -> list[str]:
    return sorted(_BOTS)


register_bot(RandomBot())
