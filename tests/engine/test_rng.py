"""The state's generator (engine/core/rng.py): fixed outputs, and shuffle draws exactly what
``randbelow`` would (it has the generator's steps written out for speed)."""

from __future__ import annotations

import random

from engine.core import rng as R


def test_the_generator_gives_fixed_values():
    holder = {"rng": R.seed_to_int(42)}
    first = [R.next_u64(holder) for _ in range(3)]
    again = {"rng": R.seed_to_int(42)}
    assert first == [R.next_u64(again) for _ in range(3)]
    assert all(0 <= v < 1 << 64 for v in first) and len(set(first)) == 3
    # SplitMix64's published first output for the start value 0
    assert R.next_u64({"rng": 0}) == 0xE220A8397B1DCDAF


def _shuffle_by_randbelow(holder, seq):
    for i in range(len(seq) - 1, 0, -1):
        j = R.randbelow(holder, i + 1)
        seq[i], seq[j] = seq[j], seq[i]


def _assert_shuffle_is_randbelows(seed, n):
    a, b = list(range(n)), list(range(n))
    h1 = {"rng": R.seed_to_int(seed)}
    h2 = dict(h1)
    _shuffle_by_randbelow(h1, a)
    R.shuffle(h2, b)
    assert a == b and h1 == h2, (seed, n)


def test_shuffle_draws_exactly_as_randbelow():
    for seed in range(400):
        _assert_shuffle_is_randbelows(seed, random.Random(seed).randint(0, 220))


def test_shuffle_falls_back_to_single_steps_when_a_draw_is_rejected(monkeypatch):
    """The batched draws assume no output is rejected; when one is (about once in 10**16),
    the shuffle is made one step at a time. Force that path (every bound 0: every batched
    output counts as rejected) and the path beyond the batch size: the result is still
    exactly randbelow's."""
    monkeypatch.setattr(R, "_LIMITS", (0,) * len(R._LIMITS))
    for seed, n in ((1, 2), (2, 37), (3, 200), (4, R._LANES_MAX + 300)):
        _assert_shuffle_is_randbelows(seed, n)


def test_batched_draws_are_the_generators_outputs():
    x = R.seed_to_int("lanes")
    holder = {"rng": x}
    assert R._draws(x, 300) == [R.next_u64(holder) for _ in range(300)]
