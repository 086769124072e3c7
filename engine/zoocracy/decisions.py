"""Zoocracy's decision handlers (the stack machinery is :mod:`engine.core.stack`).

A round is a list of automatic phase frames that push the decisions of their phase.
Simultaneous secret decisions (bids, votes) keep the answers in a ``hidden`` key of their frame:
only the answering seat sees its own answer until all are in.
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
