"""The five action cards. Each module registers a ``start`` function with :func:`action`.

``start(state, seat, strength, side, ev)`` pushes the decision frames of that action (or does
the whole action when it needs no choice). This package's ``__init__`` is only the table: it
imports none of the action modules (``engine/arknova/game.py`` does, once), so the modules that
start an action (a turn, a boost, an interaction) import no action module in turn.
"""

from __future__ import annotations

from collections.abc import Callable

START: dict[str, Callable] = {}


def action(name: str):
    def deco(fn):
        START[name] = fn
        return fn
    return deco


def start(name: str, state: dict, seat: int, strength: int, side: int, ev: list) -> None:
    START[name](state, seat, strength, side, ev)
