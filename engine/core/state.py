"""Helpers for states that are plain JSON data.

Every game in Menagerie keeps its state as JSON-compatible data: dicts with string keys, lists,
strings, ints, floats, bools and None. That makes ``dump``/``load`` exact, lets pending decisions
live in the state as data, and makes copying cheap (``marshal`` copies such data several times
faster than ``copy.deepcopy``).
"""

from __future__ import annotations

import hashlib
import marshal
from typing import Any

import orjson


def clone(data: Any) -> Any:
    """A deep copy of JSON-compatible data."""
    return marshal.loads(marshal.dumps(data))


def canonical_json(data: Any) -> bytes:
    """Stable bytes for JSON-compatible data (sorted keys, no spaces)."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def digest(data: Any) -> str:
    """SHA-256 hex digest of the canonical JSON of ``data``."""
    return hashlib.sha256(canonical_json(data)).hexdigest()
