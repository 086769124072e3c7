"""Rebuild a game from its seed and its action log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .game import State
from .registry import get_game


def replay(name: str, seats: int, options: dict[str, Any] | None, seed: int | str,
           log: Iterable[tuple[int, dict[str, Any]]]) -> State:
    """Play ``log`` (a list of ``(seat, action)``) from the start; returns the final state.

    Raises :class:`~engine.core.errors.IllegalAction` at the first action that is not legal.
    """
    game = get_game(name)
    state = game.setup(seats, options, seed)
    for seat, action in log:
        state, _ = game.apply(state, seat, action)
    return state
