"""The five action cards. Each module registers a ``start`` function with :func:`action`.

``start(state, seat, strength, side, ev)`` pushes the decision frames of that action (or does
the whole action when it needs no choice).
"""

from __future__ import annotations

from typing import Callable

START: dict[str, Callable] = {}


def action(name: str):
    def deco(fn):
        START[name] = fn
        return fn
    return deco


def start(name: str, state: dict, seat: int, strength: int, side: int, ev: list) -> None:
    _load()
    START[name](state, seat, strength, side, ev)


def _load() -> None:
    if len(START) < 5:
        from . import animals, association, build, cards, sponsors  # noqa: F401
