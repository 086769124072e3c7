"""Errors raised by games.

Every refusal carries a stable machine ``code`` (clients and tests switch on it) and a human
``message`` (shown to the player). The app maps :class:`IllegalAction` to HTTP 422, except the
codes in :data:`NOT_YOUR_DECISION`, which mean "this caller owes no decision" (HTTP 403).
"""

from __future__ import annotations

from typing import Any

#: Codes that mean the seat has nothing to decide right now.
NOT_YOUR_DECISION = frozenset({"not_your_turn", "game_over"})


class IllegalAction(Exception):
    """An action that the rules do not allow, or that is malformed.

    >>> err = IllegalAction("not_enough_money", "Building this costs 6 money; you have 4.")
    >>> err.code
    'not_enough_money'
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"IllegalAction({self.code!r}, {self.message!r})"


class BadSetup(IllegalAction):
    """Setup arguments (seat count, options) that the game does not accept."""


class BadState(ValueError):
    """A dumped state that cannot be loaded (wrong game, wrong format version)."""
