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
from typing import MutableMapping, MutableSequence, Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def seed_to_int(seed: int | str) -> int:
    """Turn any int or str seed into a well-mixed 64-bit start value."""
    digest = hashlib.sha256(f"menagerie:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def next_u64(holder: MutableMapping) -> int:
    """Advance the generator in ``holder["rng"]`` and return 64 random bits."""
    x = (holder["rng"] + _GOLDEN) & _MASK
    holder["rng"] = x
    x = ((x ^ (x >> 30)) * _MIX1) & _MASK
    x = ((x ^ (x >> 27)) * _MIX2) & _MASK
    return x ^ (x >> 31)


def randbelow(holder: MutableMapping, n: int) -> int:
    """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        r = next_u64(holder)
        if r < limit:
            return r % n


def choice(holder: MutableMapping, seq: Sequence[T]) -> T:
    return seq[randbelow(holder, len(seq))]


def shuffle(holder: MutableMapping, seq: MutableSequence) -> None:
    """Shuffle ``seq`` in place (Fisher-Yates): ``j = randbelow(holder, i + 1)`` for ``i`` from
    the end down to 1, with the generator's steps written out here (the same draws, about
    twice as fast: decks of 150 cards are shuffled for every sampled world)."""
    x = holder["rng"]
    for i in range(len(seq) - 1, 0, -1):
        n = i + 1
        limit = _TWO64 - _TWO64 % n
        while True:
            x = (x + _GOLDEN) & _MASK
            z = ((x ^ (x >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        seq[i], seq[j] = seq[j], seq[i]
    holder["rng"] = x
