"""Bots that play any registered game through the core contract.

A bot sees only what its seat may see: the seat's ``view`` and the list of legal actions.
It never receives the state. ``get_bot(kind)`` returns a bot; ``bot.choose(game, view, legal,
rng)`` returns one of ``legal``, where ``rng`` is a dict holding a seeded generator (see
:mod:`engine.core.rng`) so bot play is reproducible.
"""

from __future__ import annotations

from .base import Bot, RandomBot, bot_kinds, get_bot, register_bot

__all__ = ["Bot", "RandomBot", "bot_kinds", "get_bot", "register_bot"]
