"""What the parts of the game service share: settings, storage, the hub, the bus, the signals,
this process's cache of games and its per-game locks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..realtime import Hub
from ..settings import Settings
from ..signals import Signals
from .cache import GameCache, GameLocks
from .store import GameStore


@dataclass
class GameContext:
    settings: Settings
    store: GameStore
    hub: Hub
    bus: Any  # bus.LocalBus or bus.PgBus
    signals: Signals
    cache: GameCache
    locks: GameLocks
