"""The domain's "no": a stable code, an English sentence and its parameters; no HTTP here.

Domain and service code raises :class:`Refusal`; the edge (``app/errors.py`` for HTTP, the
WebSocket gate for close codes) maps each code to a status once, in ``REFUSAL_STATUS``, and
translates the sentence by code. ``ApiError`` (the older form, status given by the raiser) is a
subclass, so ``except Refusal`` catches both while modules move over.
"""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """An expected refusal: ``code`` is stable (clients and tests rely on it), ``message`` is
    the English sentence (translated by code at the edge), ``params`` go into the body."""

    def __init__(self, code: str, message: str = "", **params: Any) -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code.replace("_", " ").capitalize() + "."
        self.params = params

    @property
    def extra(self) -> dict[str, Any]:
        return self.params

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, **self.params}}


class RulesRefusal(Refusal):
    """The game's rules refused an action (the engine's ``IllegalAction`` of a move): the edge
    answers as the engine's contract says (403 for ``engine.core.NOT_YOUR_DECISION``, else 422),
    whatever the code."""


class InvalidInput(Refusal):
    """What the caller sent cannot be used (a game record that cannot be replayed, options a
    game cannot be set up with): the edge answers 422 whatever the code (the engine's codes
    included)."""


class BadLink(Refusal):
    """A link from an e-mail (verification, unsubscribe) that is forged, altered or expired:
    the edge answers 400 (a bad request, not a missing sign-in)."""


def not_found(what: str = "resource") -> Refusal:
    return Refusal("not_found", f"No such {what}.")
