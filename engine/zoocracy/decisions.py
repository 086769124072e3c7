"""Pending decisions: a stack of frames kept in the state as plain data.

Every step of a round is a frame on ``state["stack"]`` (the top frame is what the game waits
for). A frame is a dict with a ``kind``; the handler registered for that kind says who must
answer, lists the legal answers and applies one. Automatic frames (``auto = True``) need no
answer and run as soon as they reach the top; a round is a list of such phase frames that push
the decisions of their phase. Simultaneous secret decisions (bids, votes) keep the answers in a
``hidden`` key of their frame: only the answering seat sees its own answer until all are in.
"""

from __future__ import annotations

from typing import Iterable

HANDLERS: dict[str, "Decision"] = {}


class Decision:
    kind = ""
    auto = False
    #: frame keys nobody but the engine may see (secret answers); removed from the public view
    hidden: tuple[str, ...] = ()
    #: True for simultaneous decisions: the public view lists who has answered
    simultaneous = False

    def seats(self, state: dict, frame: dict) -> Iterable[int]:
        return (frame["seat"],)

    def legal(self, state: dict, frame: dict, seat: int) -> list[dict]:
        raise NotImplementedError

    def apply(self, state: dict, frame: dict, seat: int, action: dict, ev: list) -> None:
        raise NotImplementedError

    def run(self, state: dict, frame: dict, ev: list) -> None:
        raise NotImplementedError

    def skip(self, state: dict, frame: dict) -> bool:
        """True if the frame has become moot (nothing left to decide); it is then dropped."""
        return False

    def explain(self, state: dict, frame: dict, seat: int, action: dict):
        """An :class:`IllegalAction` saying why ``action`` is refused (None: generic)."""
        return None

    def public(self, state: dict, frame: dict) -> dict:
        out = {k: v for k, v in frame.items() if k not in self.hidden}
        out["waiting"] = sorted(self.seats(state, frame))
        return out

    def private(self, state: dict, frame: dict, seat: int) -> dict:
        """What the answering ``seat`` sees of the frame (its own secret answer included)."""
        return self.public(state, frame)


def decision(cls):
    """Class decorator: register a handler for its ``kind``."""
    HANDLERS[cls.kind] = cls()
    return cls


def push(state: dict, kind: str, **data) -> dict:
    frame = {"kind": kind, **data}
    state["stack"].append(frame)
    return frame


def push_all(state: dict, kinds: list[str]) -> None:
    """Push automatic frames so that they run in the given order."""
    for kind in reversed(kinds):
        push(state, kind)


def top(state: dict) -> dict | None:
    stack = state["stack"]
    return stack[-1] if stack else None


def finish(state: dict, frame: dict) -> None:
    """Remove ``frame`` (by identity) from the stack, wherever it is."""
    stack = state["stack"]
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is frame:
            del stack[i]
            return


def advance(state: dict, ev: list) -> None:
    """Run automatic frames and drop moot ones until a real decision is on top.

    When the game is over (``state["over"]``) the stack is emptied: nothing is owed any more.
    """
    stack = state["stack"]
    while stack:
        if state.get("over"):
            stack.clear()
            return
        frame = stack[-1]
        handler = HANDLERS[frame["kind"]]
        if handler.auto:
            stack.pop()
            handler.run(state, frame, ev)
        elif handler.skip(state, frame):
            stack.pop()
        else:
            return
    if state.get("over"):
        stack.clear()


def handler(frame: dict) -> Decision:
    return HANDLERS[frame["kind"]]
