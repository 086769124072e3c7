"""The game-agnostic contract: games, decisions, the seeded generator, errors and replay."""

from .errors import NOT_YOUR_DECISION, BadSetup, BadState, IllegalAction
from .game import Action, Event, Game, Option, State, event, events_for
from .plugin import Plugin
from .registry import game_names, get_game, plugin_of, register, title_of, unregister
from .replay import replay

__all__ = [
    "Action", "BadSetup", "BadState", "Event", "Game", "IllegalAction", "NOT_YOUR_DECISION",
    "Option", "Plugin", "State", "event", "events_for", "game_names", "get_game", "plugin_of",
    "register", "replay", "title_of", "unregister",
]
