"""Menagerie's pure game engines.

>>> import engine
>>> game = engine.get_game("arknova")            # doctest: +SKIP
>>> state = game.setup(2, {}, seed=1)            # doctest: +SKIP

No I/O, no clock, no network happens below this package: the same seed and the same actions
always give the same state (``state_hash``).
"""

from .core import (
                   BadSetup,
                   BadState,
                   Game,
                   IllegalAction,
                   Plugin,
                   event,
                   events_for,
                   game_names,
                   get_game,
                   plugin_of,
                   register,
                   replay,
                   title_of,
                   unregister,
)

__all__ = ["BadSetup", "BadState", "Game", "IllegalAction", "Plugin", "event", "events_for",
           "game_names", "get_game", "plugin_of", "register", "replay", "title_of", "unregister"]
