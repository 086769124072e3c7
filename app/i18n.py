"""Text the server produces, in the caller's language: English, Ukrainian, German.

Error *codes* never change with the language (clients and tests switch on them); only the
sentence does. The catalogues are ``app/locales/<lang>.json``, flat keys:

* ``"<code>"`` - the code's general sentence, used when nothing more exact matches;
* ``"<code>.<variant>"`` - the sentence for one of the English messages the server sends with
  that code (``"not_found.game": "No such game."``).

A value may hold ``{name}`` placeholders. A refusal raised with a key
(``Refusal(code, say("code.variant", **text))``, app/refusal.py) is translated by that key: the
wanted language's template filled with the refusal's parameters. What has no key (the
framework's and pydantic's messages, the engines' rule messages, the few sentences built at
run time) is matched: :func:`translate` finds the English template that the message fits
(placeholders become wildcards), takes the values from it and fills the same key of the wanted
language. Language: the best match of ``Accept-Language`` (q-values) among
:data:`LANGUAGES`, else English; a game socket's ``?lang=`` comes first (:func:`socket_language`).
Every error body goes through here: ApiError, request validation (``invalid_request.<kind>``: one
template per pydantic message), the framework's 404/405, the middlewares' own replies and the
socket's error messages and close reasons.

:func:`data_translations` reads a game's data translations (card names and texts by card id,
``engine/<game>/data/i18n/<lang>.json``), for the game catalog that the client translates from.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "uk", "de")
DEFAULT = "en"
LOCALES = Path(__file__).resolve().parent / "locales"

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The error sentences of one language (``{}`` for a language we do not have)."""
    if lang not in LANGUAGES:
        return {}
    try:
        data = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    except OSError:  # an install without the locales: the English sentences stay
        return {}
    return {k: v for k, v in data.items() if not k.startswith("_")}


def negotiate(accept_language: str | None) -> str:
    """The best of :data:`LANGUAGES` for an ``Accept-Language`` header (English if none fits).

    >>> negotiate("uk-UA,uk;q=0.9,en;q=0.8")
    'uk'
    >>> negotiate("fr-CH, de;q=0.7, en;q=0.5")
    'de'
    >>> negotiate(None)
    'en'
    """
    if not accept_language:
        return DEFAULT
    best, best_q = DEFAULT, 0.0
    for part in str(accept_language).split(",")[:32]:
        tag, _, params = part.strip().partition(";")
        tag = tag.strip().lower()
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if not tag or q <= 0 or not 0 <= q <= 1:
            continue
        base = DEFAULT if tag == "*" else tag.split("-")[0].split("_")[0]
        # equal q: the earlier one wins (the header's order)
        if base in LANGUAGES and q > best_q:
            best, best_q = base, q
    return best


def _literal_length(template: str) -> int:
    return len(_PLACEHOLDER.sub("", template))


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = []
    pos = 0
    seen: set[str] = set()
    for m in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[pos:m.start()]))
        name = m.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts), re.S)


@cache
def _templates(code: str) -> tuple[tuple[str, str], ...]:
    """(key, English template) of a code: the most exact (most literal text) first."""
    english = catalogue("en")
    keys = [k for k in english if k == code or k.startswith(code + ".")]
    return tuple(sorted(((k, english[k]) for k in keys), key=lambda kv: -_literal_length(kv[1])))


def fill(template: str, params: dict[str, Any]) -> str:
    """``{name}`` placeholders filled (unknown ones stay as they are)."""
    return _PLACEHOLDER.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0),
                            template)


def _or_word(params: dict[str, Any], target: dict[str, str]) -> dict[str, Any]:
    if "choices" in params and "word.or" in target:  # "'a', 'b' or 'c'"
        params = {**params, "choices": str(params["choices"]).replace(" or ", f" {target['word.or']} ")}
    return params


def translate(code: str, message: str, lang: str, key: str | None = None,
              text: dict[str, Any] | None = None) -> str:
    """The sentence of ``code`` in ``lang``: by its catalogue ``key`` and parameters ``text``
    when the refusal names them (``message`` may be an :class:`app.refusal.Sentence`, which
    carries both), else built from the English ``message`` by matching it to a template."""
    if key is None:
        key, text = getattr(message, "key", None), getattr(message, "text", None)
    if lang == DEFAULT or lang not in LANGUAGES:
        return str(message)
    target = catalogue(lang)
    if key is not None and key in target:
        return fill(target[key], _or_word(dict(text or {}), target))
    for key, english in _templates(code):
        m = _pattern(english).fullmatch(message or "")
        if m and key in target:
            return fill(target[key], _or_word(m.groupdict(), target))
    if code in target:
        return target[code]
    return str(message)


def translate_error(code: str, message: str, accept_language: str | None) -> str:
    """The error sentence for a caller: ``message`` (English) put into the language that
    ``accept_language`` asks for. The code is never translated."""
    return translate(code, message, negotiate(accept_language))


def localize(body: dict, request: Any, key: str | None = None,
             text: dict[str, Any] | None = None) -> dict:
    """An error body ``{"error": {"code", "message", ...}}`` with the message in the language of
    the request's ``Accept-Language`` (a new dict; anything else is returned unchanged); by the
    sentence's catalogue ``key`` and parameters ``text`` when the refusal has them."""
    err = body.get("error") if isinstance(body, dict) else None
    if not isinstance(err, dict) or not isinstance(err.get("message"), str):
        return body
    message = translate(str(err.get("code", "")), err["message"], request_language(request),
                        key, text)
    if message == err["message"]:
        return body
    return {**body, "error": {**err, "message": message}}


def _header(headers: Any, name: str) -> str | None:
    """One header of a Starlette ``Headers`` object or of an ASGI scope's list of pairs."""
    if headers is None:
        return None
    if isinstance(headers, (list, tuple)):
        wanted = name.encode("latin-1")
        for key, value in headers:
            if key.lower() == wanted:
                return value.decode("latin-1")
        return None
    return headers.get(name)


def request_language(request: Any) -> str:
    """The language of an HTTP request (its ``Accept-Language``); ``request`` may also be an
    ASGI scope (the middlewares answer before there is a Request)."""
    if isinstance(request, dict):
        return negotiate(_header(request.get("headers"), "accept-language"))
    return negotiate(_header(getattr(request, "headers", None), "accept-language"))


def socket_language(ws: Any) -> str:
    """The language of a WebSocket: its ``?lang=`` query parameter (the client's choice: a
    browser's handshake carries the browser's languages, not the page's), else the handshake's
    ``Accept-Language``."""
    params = getattr(ws, "query_params", None)
    wanted = params.get("lang") if params is not None else None
    if wanted:
        lang = negotiate(wanted)
        if lang != DEFAULT or wanted.strip().lower().startswith(DEFAULT):
            return lang
    return request_language(ws)


def localize_error(code: str, message: str, lang: str) -> dict:
    """``{"code", "message"}`` of an error, the sentence in ``lang`` (the code as it is; by its
    key when ``message`` is an :class:`app.refusal.Sentence`)."""
    return {"code": code, "message": translate(code, message, lang)}


def close_reason(text: str, limit: int = 123) -> str:
    """A WebSocket close reason: at most ``limit`` bytes of UTF-8 (the protocol's bound),
    cut at a character boundary."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore")


@cache
def data_translations(game: str) -> dict[str, dict]:
    """``{lang: {...}}`` of a game's data translations (``engine/<game>/data/i18n/<lang>.json``:
    card names under ``cards``, final-scoring texts under ``texts``, by card id); English is the
    data itself and not listed. ``{}`` for a game without any."""
    out: dict[str, dict] = {}
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", game or ""):
        return out
    try:
        folder = resources.files(f"engine.{game}").joinpath("data", "i18n")
    except (ModuleNotFoundError, TypeError):
        return out
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        item = folder.joinpath(f"{lang}.json")
        if item.is_file():
            data = json.loads(item.read_text(encoding="utf-8"))
            out[lang] = {k: v for k, v in data.items() if not k.startswith("_")}
    return out
