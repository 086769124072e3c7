"""The seeded random generator that lives inside a game state.

Games keep all randomness in the state so that the same seed and the same actions always give
the same game. The generator is SplitMix64; its whole state is one integer stored under the key
``"rng"`` of a dict (normally the game state itself), so dumping the state dumps the generator.

>>> holder = {"rng": seed_to_int(42)}
>>> a = randbelow(holder, 6)
>>> holder2 = {"rng": seed_to_int(42)}
>>> a == randbelow(holder2, 6)
True
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import MutableMapping, MutableSequence, Sequence
from operator import ge, mod
from typing import Any, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def seed_to_int(seed: int | str) -> int:
    """Turn any int or str seed into a well-mixed 64-bit start value."""
    digest = hashlib.sha256(f"menagerie:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def next_u64(holder: MutableMapping[str, Any]) -> int:
    """Advance the generator in ``holder["rng"]`` and return 64 random bits."""
    x: int = (holder["rng"] + _GOLDEN) & _MASK
    holder["rng"] = x
    x = ((x ^ (x >> 30)) * _MIX1) & _MASK
    x = ((x ^ (x >> 27)) * _MIX2) & _MASK
    return x ^ (x >> 31)


def randbelow(holder: MutableMapping[str, Any], n: int) -> int:
    """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        r = next_u64(holder)
        if r < limit:
            return r % n


def choice(holder: MutableMapping[str, Any], seq: Sequence[T]) -> T:
    return seq[randbelow(holder, len(seq))]


def shuffle(holder: MutableMapping[str, Any], seq: MutableSequence[Any]) -> None:
    """Shuffle ``seq`` in place (Fisher-Yates): ``j = randbelow(holder, i + 1)`` for ``i`` from
    the end down to 1. The draws are made together (:func:`_draws`: the generator's outputs of
    a whole deck at once), which makes exactly ``randbelow``'s draws when no output is
    rejected; when one is (about once in 10**16 draws), the steps are made one by one
    (:func:`_shuffle_steps`), so the result is always the same."""
    n = len(seq)
    if n < 2:
        return
    x = holder["rng"]
    if n > _LANES_MAX:
        holder["rng"] = _shuffle_steps(x, seq)
        return
    zs = _draws(x, n - 1)
    bounds = range(n, 1, -1)                         # i + 1 for i = n-1 .. 1
    if any(map(ge, zs, _LIMITS[n:1:-1])):             # a rejected output: one by one
        holder["rng"] = _shuffle_steps(x, seq)
        return
    for i, j in zip(range(n - 1, 0, -1), map(mod, zs, bounds)):
        seq[i], seq[j] = seq[j], seq[i]
    holder["rng"] = (x + (n - 1) * _GOLDEN) & _MASK


def _shuffle_steps(x: int, seq: MutableSequence[Any]) -> int:
    """:func:`shuffle` one draw at a time from the generator state ``x``; returns the state
    after the last draw."""
    for i in range(len(seq) - 1, 0, -1):
        n = i + 1
        limit = _limit(n)
        while True:
            x = (x + _GOLDEN) & _MASK
            z = ((x ^ (x >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        seq[i], seq[j] = seq[j], seq[i]
    return x


def _limit(n: int) -> int:
    """``randbelow``'s rejection bound for ``n``: outputs at or above it are drawn again."""
    return _TWO64 - _TWO64 % n


# The next ``m`` outputs of the generator from state ``x``, computed together: output ``k`` is
# ``mix(x + k * GOLDEN)``, so all of them are lanes of one big integer (128 bits a lane: a
# lane's product with a 64-bit constant never reaches the next lane), and each step of the
# mix is one operation on the whole integer (Python's big integers do it in C).
_LANE = 128
_LANES_MAX = 1024


def _lanes(m: int) -> tuple[int, int, int]:
    """``(ones, ramp, low)``: 1 in every lane, k in lane k (from 1), 2**64 - 1 in every lane."""
    found = _LANE_CONSTANTS.get(m)
    if found is None:
        ones = sum(1 << (_LANE * k) for k in range(m))
        ramp = sum((k + 1) << (_LANE * k) for k in range(m))
        found = _LANE_CONSTANTS[m] = (ones, ramp, ones * _MASK)
    return found


_LANE_CONSTANTS: dict[int, tuple[int, int, int]] = {}
#: :func:`_limit` of every ``n`` a deck of at most ``_LANES_MAX + 1`` cards needs (index n).
_LIMITS = (0,) + tuple(_limit(n) for n in range(1, _LANES_MAX + 2))


def _draws(x: int, m: int) -> list[int]:
    """The generator's next ``m`` outputs from state ``x`` (no rejection considered)."""
    ones, ramp, low = _lanes(m)
    v = (x * ones + _GOLDEN * ramp) & low              # lane k: x + (k + 1) * GOLDEN
    v = ((v ^ ((v >> 30) & low)) * _MIX1) & low
    v = ((v ^ ((v >> 27) & low)) * _MIX2) & low
    v ^= (v >> 31) & low
    words = array("Q", v.to_bytes(m * _LANE // 8, "little"))
    if sys.byteorder == "big":
        words.byteswap()
    return words[::2].tolist()
