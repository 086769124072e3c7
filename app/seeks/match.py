"""Which open seeks of one pool make a game: pure, no I/O (the store reads and claims).

Seeks of one *pool* already agree on the game, the seats, the options, the time control and
rated or casual (:func:`pool_of`). Two of them are *compatible* when they belong to different
players and each one's rating range holds the other's rating (an open end holds everything).
A game of N seats needs N seeks that are compatible two by two.

The order: **oldest first, then closest rating**. The oldest open seek is served first (it is
the *anchor*); its partners are the compatible seeks closest to its rating (the older one of
two equally close), each compatible with those already chosen. A seek without enough partners
waits; the next oldest is tried.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .. import jsonutil
from ..times import aware


def pool_of(game: str, seats: int, options: dict, time_control: dict | None,
            rated: bool) -> str:
    """The digest of what two seeks must share to pair (64 hex characters)."""
    key = {"game": game, "seats": seats, "options": options, "time_control": time_control,
           "rated": bool(rated)}
    return hashlib.sha256(jsonutil.canonical(key)).hexdigest()


@dataclass(frozen=True)
class Candidate:
    """An open seek as the pairing sees it: its owner's rating now, its range."""

    id: int
    user_id: int
    rating: float
    rating_min: int | None
    rating_max: int | None
    created_at: Any  # a datetime (compared only with other seeks' of the same pool)

    def holds(self, rating: float) -> bool:
        """Whether ``rating`` is inside this seek's range."""
        return ((self.rating_min is None or rating >= self.rating_min)
                and (self.rating_max is None or rating <= self.rating_max))


def compatible(a: Candidate, b: Candidate) -> bool:
    """Two seeks of one pool may sit at one table: other players, each in the other's range."""
    return a.user_id != b.user_id and a.holds(b.rating) and b.holds(a.rating)


def groups(candidates: Sequence[Candidate], seats: int) -> list[list[Candidate]]:
    """The tables to make of ``candidates`` (one pool's open seeks), each a list of ``seats``
    seeks (the anchor first), oldest first then closest rating (the module's doc)."""
    order = sorted(candidates, key=lambda c: (_when(c.created_at), c.id))
    taken: set[int] = set()
    out: list[list[Candidate]] = []
    for anchor in order:
        if anchor.id in taken:
            continue
        table = [anchor]
        partners = sorted((c for c in order if c.id not in taken and c.id != anchor.id),
                          key=lambda c: (abs(c.rating - anchor.rating), _when(c.created_at),
                                         c.id))
        for c in partners:
            if all(compatible(c, other) for other in table):
                table.append(c)
                if len(table) == seats:
                    break
        if len(table) == seats:
            out.append(table)
            taken.update(c.id for c in table)
    return out


def _when(at: Any) -> float:
    return aware(at).timestamp() if isinstance(at, datetime) else float(at)
