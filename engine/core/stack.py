"""Pending decisions as a stack of frames kept in the state (shared by every game).

Every step of a chained move is a frame on ``state["stack"]``; the top frame is what the game
waits for. A frame is a plain dict with a ``kind``; the :class:`Decision` handler registered for
that kind (in the game's own :class:`Registry`) says who must answer, lists the legal answers
and applies one. Automatic frames (``auto = True``) need no answer and run as soon as they reach
the top. Because frames are data, a game can be saved and loaded at any point, even halfway
through a chained action. :class:`StackGame` wires a registry into the engine contract.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, TypeVar

from .errors import IllegalAction
from .game import Action, Event, Game, State

#: a pending decision on ``state["stack"]``: a dict with a ``kind``
Frame = dict[str, Any]
D = TypeVar("D", bound="type[Decision]")


class Decision:
    """Handler of one kind of frame."""

    kind = ""
    auto = False
    #: frame keys only the deciding seat (or nobody) may see; removed from the public view
    hidden: tuple[str, ...] = ()
    #: simultaneous decisions: the public view lists who still owes an answer, not the answers
    simultaneous = False

    def seats(self, state: State, frame: Frame) -> Collection[int]:
        return (frame["seat"],)

    def legal(self, state: State, frame: Frame, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: State, frame: Frame, seat: int, action: Action, ev: list[Any]) -> None:
        raise NotImplementedError

    def run(self, state: State, frame: Frame, ev: list[Any]) -> None:
        raise NotImplementedError

    def skip(self, state: State, frame: Frame) -> bool:
        """True if the frame has become moot (nothing left to decide); it is then dropped."""
        return False

    def accepts(self, state: State, frame: Frame, seat: int, action: Action) -> bool:
        """True if ``action`` is certainly one of :meth:`legal` (exactly, as JSON: same keys,
        same types), checked directly; False lets ``check`` list the answers (the default)."""
        return False

    def explain(self, state: State, frame: Frame, seat: int,
                action: Action) -> IllegalAction | None:
        """Why ``action`` is refused (None: let the game say it generically)."""
        return None

    def public(self, state: State, frame: Frame) -> dict[str, Any]:
        out = {k: v for k, v in frame.items() if k not in self.hidden}
        out["waiting"] = sorted(self.seats(state, frame))
        return out

    def private(self, state: State, frame: Frame, seat: int) -> dict[str, Any]:
        """What the answering ``seat`` sees of the frame."""
        return self.public(state, frame)


class Registry:
    """The decision handlers of one game, by kind."""

    def __init__(self) -> None:
        self.handlers: dict[str, Decision] = {}

    def decision(self, cls: D) -> D:
        """Class decorator: register a handler for its ``kind``."""
        if cls.kind in self.handlers:
            raise ValueError(f"decision kind {cls.kind!r} registered twice")
        self.handlers[cls.kind] = cls()
        return cls

    def handler(self, frame: Frame) -> Decision:
        return self.handlers[frame["kind"]]

    def advance(self, state: State, ev: list[Any]) -> None:
        """Run automatic frames and drop moot ones until a real decision is on top.

        When the game is over (``state["over"]``) the stack is emptied: nothing is owed.
        """
        stack = state["stack"]
        while stack and not state.get("over"):
            frame = stack[-1]
            handler = self.handlers[frame["kind"]]
            if handler.auto:
                stack.pop()
                handler.run(state, frame, ev)
            elif handler.skip(state, frame):
                stack.pop()
            else:
                return
        if state.get("over"):
            stack.clear()


def push(state: State, kind: str, **data: Any) -> Frame:
    frame = {"kind": kind, **data}
    state["stack"].append(frame)
    return frame


def push_all(state: State, kinds: list[str]) -> None:
    """Push automatic frames so that they run in the given order."""
    for kind in reversed(kinds):
        push(state, kind)


def top(state: State) -> Frame | None:
    stack = state["stack"]
    return stack[-1] if stack else None


def finish(state: State, frame: Frame) -> None:
    """Remove ``frame`` (by identity) from the stack, wherever it is."""
    stack = state["stack"]
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is frame:
            del stack[i]
            return


class StackGame(Game):
    """A :class:`Game` whose decisions are the frames of a :class:`Registry`."""

    decisions: Registry

    def _waiting_for(self, state: State) -> Collection[int]:
        frame = top(state)
        if frame is None or state.get("over"):
            return []
        return self.decisions.handler(frame).seats(state, frame)

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        frame = top(state)
        assert frame is not None  # a seat owes a decision: there is a frame
        return self.decisions.handler(frame).legal(state, frame, seat)

    def _accepts(self, state: State, seat: int, action: Action) -> bool:
        frame = top(state)
        assert frame is not None  # a seat owes a decision: there is a frame
        return self.decisions.handler(frame).accepts(state, frame, seat, action)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        ev: list[Any] = []
        frame = top(state)
        assert frame is not None  # a seat owes a decision: there is a frame
        self.decisions.handler(frame).apply(state, frame, seat, action, ev)
        self.decisions.advance(state, ev)
        return ev

    def _explain_illegal(self, state: State, seat: int, action: Action,
                         legal: list[Action]) -> IllegalAction:
        frame = top(state)
        assert frame is not None  # a seat owes a decision: there is a frame
        try:
            err = self.decisions.handler(frame).explain(state, frame, seat, action)
        except (TypeError, KeyError, AttributeError, ValueError):  # malformed beyond repair
            err = None
        if err is not None:
            return err
        kinds = sorted({a["type"] for a in legal})
        if action.get("type") not in kinds:
            return IllegalAction("wrong_decision",
                                 f"Now the game asks for '{frame['kind']}': answer with one of "
                                 f"{', '.join(kinds)}.")
        return IllegalAction("illegal_action", "That answer is not allowed in this position.")
