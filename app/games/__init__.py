"""The game service as a package (see :mod:`.service` for where each concern lives)."""

from .bots import BotDriver
from .cache import Accepted, Cached, GameCache, GameLocks
from .service import GameService

__all__ = ["Accepted", "BotDriver", "Cached", "GameCache", "GameLocks", "GameService"]
