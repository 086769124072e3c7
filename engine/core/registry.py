"""Where games are registered by name.

The installed games are listed in one place, ``engine/games.json`` (name -> package); each
package exposes ``PLUGIN`` (:class:`~engine.core.plugin.Plugin`: its rules, evaluators,
describer). They are imported on first use of the registry; nothing here names a game.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path

from .game import Game
from .plugin import Plugin

#: the list of installed games (validated by :func:`installed`)
MANIFEST = Path(__file__).resolve().parent.parent / "games.json"

_GAMES: dict[str, Game] = {}
_PLUGINS: dict[str, Plugin] = {}


def register(game: Game | Plugin, *, replace: bool = False) -> Game:
    """Register a game (or a whole plugin) under its name; returns the game. A bare game
    replacing a registered one keeps the plugin's evaluators and describer."""
    plugin = game if isinstance(game, Plugin) else None
    rules = plugin.game if plugin is not None else game
    assert isinstance(rules, Game)
    if rules.name in _GAMES and not replace and _GAMES[rules.name] is not rules:
        raise ValueError(f"game {rules.name!r} is already registered")
    if plugin is None:
        old = _PLUGINS.get(rules.name)
        plugin = dataclasses.replace(old, game=rules) if old is not None else Plugin(rules)
    _GAMES[rules.name] = rules
    _PLUGINS[rules.name] = plugin
    return rules


def unregister(name: str) -> None:
    _GAMES.pop(name, None)
    _PLUGINS.pop(name, None)


def get_game(name: str) -> Game:
    """The game registered as ``name``; ``KeyError`` if there is none."""
    _load_builtin()
    return _GAMES[name]


def plugin_of(name: str) -> Plugin | None:
    """The plugin of the game registered as ``name`` (None if there is none)."""
    _load_builtin()
    return _PLUGINS.get(name)


def title_of(name: str) -> str:
    """The title of the game registered as ``name`` (the name itself if there is none)."""
    _load_builtin()
    game = _GAMES.get(name)
    return game.title if game is not None else name


def game_names() -> list[str]:
    _load_builtin()
    return sorted(_GAMES)


def installed(path: Path = MANIFEST) -> list[tuple[str, str]]:
    """``(name, package)`` of each game in the manifest; ``ValueError`` if it is malformed."""
    raw = json.loads(path.read_text())
    games = raw.get("games") if isinstance(raw, dict) else None
    if not isinstance(games, list):
        raise ValueError(f"{path}: 'games' must be a list")
    out: list[tuple[str, str]] = []
    for i, entry in enumerate(games):
        if not (isinstance(entry, dict) and set(entry) == {"name", "package"}
                and all(isinstance(entry[k], str) and entry[k] for k in ("name", "package"))):
            raise ValueError(f"{path}: games[{i}] must be {{'name': str, 'package': str}}")
        if any(entry["name"] == n for n, _ in out):
            raise ValueError(f"{path}: game {entry['name']!r} is listed twice")
        out.append((entry["name"], entry["package"]))
    return out


def load_plugin(name: str, package: str) -> Plugin:
    """Import ``package`` and return its ``PLUGIN``, checked to be the game ``name``."""
    plugin = getattr(importlib.import_module(package), "PLUGIN", None)
    if not isinstance(plugin, Plugin):
        raise ValueError(f"{package} has no PLUGIN (engine.core.plugin.Plugin)")
    if plugin.name != name:
        raise ValueError(f"{package}.PLUGIN is the game {plugin.name!r}, not {name!r}")
    return plugin


_loaded = False


def _load_builtin() -> None:
    """Register the games of the manifest (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name, package in installed():
        register(load_plugin(name, package), replace=True)
