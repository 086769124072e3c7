"""Fast JSON encoding shared by the HTTP responses, the database and the WebSocket fan-out."""

from __future__ import annotations

from typing import Any

import orjson

_OPTS = orjson.OPT_NON_STR_KEYS


def dumps(data: Any) -> bytes:
    """JSON bytes; int dict keys (e.g. ``result["scores"]``) become strings."""
    return orjson.dumps(data, option=_OPTS)


def dumps_str(data: Any) -> str:
    return dumps(data).decode()


loads = orjson.loads


def canonical(data: Any) -> bytes:
    """Type-exact, key-order-free bytes: ``1``, ``1.0`` and ``true`` all differ."""
    return orjson.dumps(data, option=_OPTS | orjson.OPT_SORT_KEYS)


def depth(data: Any, limit: int) -> int:
    """Nesting depth of JSON data, stopping early once it exceeds ``limit``."""
    best = 0
    stack = [(data, 1)]
    while stack:
        item, d = stack.pop()
        if isinstance(item, dict):
            values = item.values()
        elif isinstance(item, list):
            values = item
        else:
            continue
        best = max(best, d)
        if best > limit:
            return best
        stack.extend((v, d + 1) for v in values)
    return best
