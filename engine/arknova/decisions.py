"""Pending decisions: a stack of frames kept in the state as plain data.

Every step of a chained action is a frame on ``state["stack"]`` (the top frame is what the game
waits for). A frame is a dict with a ``kind``; the handler registered for that kind says who must
answer, lists the legal answers and applies one. Automatic frames (``auto = True``) need no
answer and run as soon as they reach the top. Because frames are data, a game can be saved at
any point, even halfway through a chained action, and loaded again.
"""

from __future__ import annotations

from typing import Iterable

HANDLERS: dict[str, "Decision"] = {}


class Decision:
    kind = ""
    auto = False
    #: frame keys only the deciding seat may see
    hidden: tuple[str, ...] = ()

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

    def public(self, state: dict, frame: dict) -> dict:
        out = {k: v for k, v in frame.items() if k not in self.hidden}
        out["waiting"] = sorted(self.seats(state, frame))
        return out


def decision(cls):
    """Class decorator: register a handler for its ``kind``."""
    HANDLERS[cls.kind] = cls()
    return cls


def push(state: dict, kind: str, **data) -> dict:
    frame = {"kind": kind, **data}
    state["stack"].append(frame)
    return frame


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
    """Run automatic frames and drop moot ones until a real decision is on top."""
    stack = state["stack"]
    while stack:
        frame = stack[-1]
        handler = HANDLERS[frame["kind"]]
        if handler.auto:
            stack.pop()
            handler.run(state, frame, ev)
        elif handler.skip(state, frame):
            stack.pop()
        else:
            return


def handler(frame: dict) -> Decision:
    return HANDLERS[frame["kind"]]
