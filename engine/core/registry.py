"""Where games are registered by name."""

from __future__ import annotations

from .game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game, *, replace: bool = False) -> Game:
    if game.name in _GAMES and not replace and _GAMES[game.name] is not game:
        raise ValueError(f"game {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    _GAMES.pop(name, None)


def get_game(name: str) -> Game:
    """The game registered as ``name``; ``KeyError`` if there is none."""
    _load_builtin()
    return _GAMES[name]


def title_of(name: str) -> str:
    """The title of the game registered as ``name`` (the name itself if there is none)."""
    _load_builtin()
    game = _GAMES.get(name)
    return game.title if game is not None else name


def game_names() -> list[str]:
    _load_builtin()
    return sorted(_GAMES)


_loaded = False


def _load_builtin() -> None:
    """Import the games that ship with Menagerie (they register themselves)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for module in ("engine.arknova", "engine.zoocracy"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a game not written yet
            if exc.name != module:
                raise
