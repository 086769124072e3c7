"""The domain's "no": a stable code, an English sentence and its parameters; no HTTP here.

Domain and service code raises :class:`Refusal`; the edge (``app/errors.py`` for HTTP, the
WebSocket gate for close codes) maps each code to a status once, in ``REFUSAL_STATUS``, and
translates the sentence by its catalogue key. A raiser names the sentence with :func:`say`:
``Refusal("not_found", say("not_found.game"))`` or ``say("already_seated.seat", seat=2)``: the
English message is ``app/locales/en.json``'s template of that key filled with the parameters
(the same text as before), and the refusal remembers the key and the parameters (``key``,
``text``) so that the edge fills the same key of uk/de (:func:`app.i18n.translate`). The
sentence's parameters are not the body's: only ``**params`` go into the error body. A plain
English string still works (translated by matching it against the templates). ``ApiError`` (the older form, status given by the raiser) is a
subclass, so ``except Refusal`` catches both while modules move over.
"""

from __future__ import annotations

from typing import Any

from .i18n import catalogue, fill


class Sentence(str):
    """An English sentence that knows its catalogue key and parameters (see :func:`say`)."""

    key: str
    text: dict[str, Any]

    def __new__(cls, key: str, text: dict[str, Any]) -> Sentence:
        template = catalogue("en").get(key)
        if template is None:
            raise KeyError(f"no sentence {key!r} in app/locales/en.json")
        self = super().__new__(cls, fill(template, text))
        self.key = key
        self.text = text
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # a copy or a pickle keeps the key
        return (Sentence, (self.key, self.text))


def say(key: str, /, **text: Any) -> Sentence:
    """The sentence ``key`` of ``app/locales/en.json`` filled with ``text`` (a ``str``)."""
    return Sentence(key, text)


class Refusal(Exception):
    """An expected refusal: ``code`` is stable (clients and tests rely on it), ``message`` is
    the English sentence (translated by code at the edge), ``params`` go into the body."""

    def __init__(self, code: str, message: str = "", **params: Any) -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code.replace("_", " ").capitalize() + "."
        self.params = params
        #: the catalogue key of the sentence and its parameters (None, {}: an English string)
        self.key: str | None = getattr(message, "key", None)
        self.text: dict[str, Any] = dict(getattr(message, "text", None) or {})

    @property
    def extra(self) -> dict[str, Any]:
        return self.params

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": str(self.message), **self.params}}


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
    """``No such <what>.``: by its own key (``not_found.game``) when the catalogue has one, else
    by ``not_found.what`` with ``what`` as the parameter (its uk/de words stay English)."""
    key = "not_found." + what.lower().replace(" ", "_")
    if key in catalogue("en") and catalogue("en")[key] == f"No such {what}.":
        return Refusal("not_found", say(key))
    return Refusal("not_found", say("not_found.what", what=what))
