"""Checks on an answer before the engine sees it, and the stored form of a state."""

from __future__ import annotations

from typing import Any

from .. import jsonutil
from ..refusal import Refusal, say

#: deepest JSON nesting accepted in options and actions
MAX_JSON_DEPTH = 32


def depth(data: Any) -> int:
    return jsonutil.depth(data, MAX_JSON_DEPTH)


def has_bool_or_float(data: Any) -> bool:
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (bool, float)):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def refuse_lookalikes(game, state: dict, seat: int, action: Any) -> None:
    """Refuse an action that equals a legal one only loosely (``7.0`` or ``true`` for ``7`` or
    ``1``) with the code ``malformed``: the engine refuses it too, but as an illegal move. Only
    actions holding a bool or a float can be such a lookalike, so others cost nothing here.
    """
    if not has_bool_or_float(action):
        return
    legal = game.legal_actions(state, seat)
    if action in legal:
        exact = {jsonutil.canonical(a) for a in legal}
        if jsonutil.canonical(action) not in exact:
            raise Refusal("malformed",
                          say("malformed.numbers"))


def dumped(game, state: dict) -> dict:
    """``game.dump(state)``, without the deep copy when the game keeps the base ``dump`` (a copy
    of the state): the result is only encoded to JSON, never changed."""
    from engine.core import Game as BaseGame

    if type(game).dump is BaseGame.dump:
        return state
    return game.dump(state)
