"""The Ark Nova-style game's decision handlers (the stack machinery is :mod:`engine.core.stack`).

Every step of a chained action is a frame on ``state["stack"]``; handlers register here by kind.
"""

from __future__ import annotations

from ..core.stack import Decision, Registry, finish, push, push_all, top

REGISTRY = Registry()
HANDLERS = REGISTRY.handlers
decision = REGISTRY.decision
advance = REGISTRY.advance
handler = REGISTRY.handler

__all__ = ["Decision", "HANDLERS", "REGISTRY", "advance", "decision", "finish", "handler", "push",
           "push_all", "top"]
