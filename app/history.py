"""The log of a game and the states it rebuilds.

The ``actions`` table is the append-only log: one row per version, in order. A row's ``kind`` is
``"move"`` (a seat's answer, or a bot's), ``"auto"`` (the platform answered for a player whose
time ran out or whose seat a bot plays: an ordinary action for the engine), or ``"undo"``
(``action = {"undo": V}``: the state of version V again; a snapshot of it is always stored at
the undo's own version), or ``"resign"`` (``action = {"resign": seat}``: that seat's player
resigned; the engine state does not change, see :mod:`app.outcome`) or ``"abort"``
(``action = {"abort": seat}``: that seat's player aborted the game before its play began; the
state does not change either). These helpers are shared by the game service (moves, frames, replay)
and the records (export, import, history).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import engine

from .refusal import Refusal, say

#: the log rows that end a game without an engine move (its outcome is in the game row)
ENDINGS = ("resign", "abort")
#: the kinds of log rows that are no engine move (the state stays as it was): the endings and
#: ``"confirm"`` (``action = {"confirm": seat}``: that seat's held turn passed, app/games/turns.py)
NO_MOVE = ENDINGS + ("confirm",)


def engine_game(name: str):
    try:
        return engine.get_game(name)
    except KeyError:
        raise Refusal("game_unavailable",
                      say("game_unavailable", name=repr(name))) from None


def step(game, state: dict, record, undone: dict[int, dict]) -> dict:
    """The state after one row of the log: an engine move, or an undo (its stored state)."""
    if record.kind == "undo":
        return game.load(undone[record.version])
    if record.kind in NO_MOVE:
        return state  # not an engine move: the state stays
    new, _ = game.apply(state, record.seat, record.action)
    return new


def effective_actions(rows: Iterable[Any]) -> list[tuple[int, Any]]:
    """``(seat, action)`` of the log rows (``version, seat, action, kind``, in version order)
    that make the current state: moves and auto moves, minus what an undo took back (a
    resignation is no engine move)."""
    return [(seat, action) for _, seat, action in effective_log(rows)]


def effective_log(rows: Iterable[Any]) -> list[tuple[int, int, Any]]:
    """``(version, seat, action)`` of :func:`effective_actions`: ``version`` is the version the
    row made (the state before it is the log's ``version - 1``, an undo's restored one too)."""
    stack: list[tuple[int, int, Any]] = []
    for r in rows:
        kind = getattr(r, "kind", None) or "move"
        if kind == "undo":
            target = (r.action or {}).get("undo") if isinstance(r.action, dict) else None
            if not isinstance(target, int):
                raise ValueError(f"undo row {r.version} without a target version")
            while stack and stack[-1][0] > target:
                stack.pop()
        elif kind in NO_MOVE:
            continue  # not an engine move
        else:
            stack.append((r.version, r.seat, r.action))
    return stack
