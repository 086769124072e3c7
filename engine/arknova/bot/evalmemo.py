"""The memos of the zoo builder's evaluation (``evaluate.py``): keys that identify data exactly,
and the search session in which data is also known by identity.

Greedy values about thirty positions per decision, and what a position's value is computed
from changes little between them. Every memo here is keyed by *everything* its function reads,
so a value found in a memo is the value that would have been computed.

**Keys.** :func:`encode` is the ``orjson`` encoding of JSON data (exact: equal data, equal
bytes). A key is a tuple of encodings and atoms; a bytes object caches its hash, so a key
built of encodings already made hashes in a few steps. (A digest of the encoding cost as much
again as the encoding and was dropped.)

**Sessions.** Inside :func:`session` (the bots enter it around a search through
``Evaluator.session``) the caller promises that no state is changed in place while it lasts:
the bots step with copy-on-access views (:mod:`engine.core.cow`), so a part of the state a move
did not read is the very same object in the next state. :func:`enc` then encodes a container
once per session (found again by identity) and :func:`seen` keeps a search's own memo by
identity. Every object known by identity is held by the session, so its ``id`` cannot be
reused while the session lasts. Outside a session :func:`enc` is :func:`encode`.
"""

from __future__ import annotations

import marshal
from contextlib import contextmanager
from contextvars import ContextVar

import orjson

#: What a zoo's parts imply (layout facts, icons, project levels met, final points, the hand's
#: parts) by key; at most :data:`MEMO_MAX` entries, then cleared.
MEMO: dict = {}
MEMO_MAX = 20_000

#: A zoo's clock-free parts and the last value assembled from them, by key:
#: ``[parts, breaks_left, turns_left, value]``; at most :data:`ZOOS_MAX`, then cleared.
ZOOS: dict = {}
ZOOS_MAX = 20_000

#: The current session: ``(encodings by id, the search's own memo by identity)``.
_SESSION: ContextVar[tuple[dict, dict] | None] = ContextVar("arknova_eval_session",
                                                             default=None)


def encode(data) -> bytes:
    """Bytes that identify JSON data exactly: its ``orjson`` encoding (``marshal`` for what
    JSON cannot carry)."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return b"m" + marshal.dumps(data)


def enc(obj) -> bytes:
    """:func:`encode` of a container, made once per session (then found by identity)."""
    s = _SESSION.get()
    if s is None:
        return encode(obj)
    encs = s[0]
    hit = encs.get(id(obj))
    if hit is not None:
        return hit[1]
    raw = encode(obj)
    encs[id(obj)] = (obj, raw)
    return raw


def seen() -> dict | None:
    """The current session's memo by identity (None outside a session). Its keys are tuples
    of ``id``s (and atoms); its values must hold the objects of those ids."""
    s = _SESSION.get()
    return None if s is None else s[1]


def remember(key, value):
    """Store ``value`` in :data:`MEMO` under ``key`` (clearing it when full)."""
    if len(MEMO) >= MEMO_MAX:
        MEMO.clear()
    MEMO[key] = value
    return value


@contextmanager
def session():
    """A search's scope (see the module's doc). Nested sessions share the outermost's memos."""
    if _SESSION.get() is not None:
        yield
        return
    token = _SESSION.set(({}, {}))
    try:
        yield
    finally:
        _SESSION.reset(token)
