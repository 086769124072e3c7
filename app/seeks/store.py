"""All SQL of seeks (table ``seeks``); the games a pairing makes are the game store's writes in
the pairing's transaction (``add_paired_game``).

Exactly once, across processes: a seek leaves ``open`` only through a conditional
``UPDATE seeks ... WHERE id IN (...) AND status = 'open'`` whose row count must be the number of
seeks claimed, else the whole transaction rolls back (:class:`Lost`). Pairing one pool is one
transaction: on PostgreSQL it first takes a transaction-level advisory lock on the pool (two
processes pairing one pool queue, so neither misses a pair the other's half would make) and
reads the pool's open rows ``FOR UPDATE SKIP LOCKED`` (a row a cancel or an expiry is changing
is left to it); on SQLite every write transaction is ``BEGIN IMMEDIATE`` (one writer at a
time, across processes too). The game, its seats, the claim and the notices (outbox rows) are
stored in that one transaction: a pairing is all or nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, text, update

from .. import auth_store, outbox_store, ratings_store
from ..models import Seek
from ..signals import Notify

#: a player without a rating in a game counts as this (Glicko's start, app/ratings.py)
DEFAULT_RATING = 1500.0
#: the first key of the pools' advisory locks ("seek")
LOCK_SPACE = 0x5EE4


class Lost(Exception):
    """A seek to claim was no longer open (cancelled or expired meanwhile): roll back."""


async def lock_pool(s, pool: str, postgres: bool, *, wait: bool = True) -> bool:
    """PostgreSQL: hold the pool's advisory lock until this transaction ends (``wait``: for
    as long as another holds it; else False at once when another does)."""
    if not postgres:
        return True
    how = "pg_advisory_xact_lock" if wait else "pg_try_advisory_xact_lock"
    got = await s.scalar(text(f"SELECT {how}(:space, hashtext(:pool))"),
                         {"space": LOCK_SPACE, "pool": pool})
    return got is not False


async def open_in_pool(s, pool: str, now: datetime, limit: int = 200) -> list[Seek]:
    """The pool's open seeks not yet expired, oldest first, locked (skipping locked rows)."""
    return list((await s.execute(
        select(Seek).where(Seek.pool == pool, Seek.status == "open", Seek.expires_at > now)
        .order_by(Seek.created_at, Seek.id).limit(limit)
        .with_for_update(skip_locked=True))).scalars().all())


async def open_ids(s, pool: str, now: datetime) -> set[int]:
    return set((await s.execute(select(Seek.id).where(
        Seek.pool == pool, Seek.status == "open", Seek.expires_at > now))).scalars().all())


async def ratings(s, game: str, user_ids: Iterable[int]) -> dict[int, float]:
    """Each user's rating in ``game`` now (the default for a player without one)."""
    ids = sorted(set(user_ids))
    found = await ratings_store.ratings_of(s, game, ids)
    return {u: float(found.get(u, DEFAULT_RATING)) for u in ids}


async def names(s, user_ids: Iterable[int]) -> dict[int, str]:
    return await auth_store.usernames(s, user_ids)


async def open_count(s, user_id: int) -> int:
    return int(await s.scalar(select(func.count()).select_from(Seek).where(
        Seek.user_id == user_id, Seek.status == "open")) or 0)


async def make_game(s, games: Any, seeks: list[Seek], title: str, now: datetime) -> int:
    """Store the started-to-be game of ``seeks`` (the anchor first: its player creates it and
    sits in seat 0; the others in their order) and claim the seeks for it; raises
    :class:`Lost` when one of them is not open any more. The game is stored ``open`` with every
    seat taken; the service starts it right after the commit (the sweep starts one a crash
    left open). The game and its seats are the game store's (``games``) writes in ``s``."""
    first = seeks[0]
    game_id = await games.add_paired_game(dict(
        game=first.game, options=first.options, seed=secrets.token_hex(16),
        seat_count=first.seats, status="open", version=0, state=None, waiting_for=[],
        created_by=first.user_id, created_at=now, updated_at=now,
        time_control=first.time_control, hints=False, casual=not first.rated),
        [seek.user_id for seek in seeks], s)
    ids = [x.id for x in seeks if x.status == "open"]
    if ids:
        done = await s.execute(
            update(Seek).where(Seek.id.in_(ids), Seek.status == "open")
            .values(status="paired", game_id=game_id, closed_at=now)
            .execution_options(synchronize_session=False))
        if done.rowcount != len(ids):
            raise Lost()
    for x in seeks:
        x.status, x.game_id, x.closed_at = "paired", game_id, now
    who = await names(s, [x.user_id for x in seeks])
    for x in seeks:  # "a quick match found": each player's channels (outbox: exactly once)
        others = ", ".join(who.get(o.user_id, "?") for o in seeks if o.user_id != x.user_id)
        outbox_store.notice(s, game_id, Notify("matched", game_id, first.game, title,
                                               (x.user_id,), others).payload(), now=now)
    return game_id


async def expire(s, now: datetime) -> list[tuple[int, int]]:
    """Close every open seek whose time is over: ``(seek id, user id)`` of each."""
    rows = (await s.execute(
        update(Seek).where(Seek.status == "open", Seek.expires_at <= now)
        .values(status="expired", closed_at=now)
        .returning(Seek.id, Seek.user_id)
        .execution_options(synchronize_session=False))).all()
    return [(r[0], r[1]) for r in rows]


async def cancel(s, seek_id: int, user_id: int, now: datetime) -> bool:
    done = await s.execute(
        update(Seek).where(Seek.id == seek_id, Seek.user_id == user_id, Seek.status == "open")
        .values(status="cancelled", closed_at=now)
        .execution_options(synchronize_session=False))
    return done.rowcount == 1


async def busy_pools(s, now: datetime, limit: int = 100) -> list[str]:
    """Pools with at least two open seeks (the sweep pairs them again)."""
    return list((await s.execute(
        select(Seek.pool).where(Seek.status == "open", Seek.expires_at > now)
        .group_by(Seek.pool).having(func.count() >= 2).limit(limit))).scalars().all())


async def unstarted(s, games: Any, before: datetime,
                    limit: int = 50) -> list[tuple[int, int]]:
    """Games a pairing stored but nobody started (a crash between the two): ``(game id,
    creator id)`` (the game store's ``open_among`` the seeks' games, in ``s``)."""
    paired = select(Seek.game_id).where(Seek.status == "paired", Seek.closed_at <= before)
    return [(g, c) for g, c in await games.open_among(paired, limit, s) if c is not None]


async def seeks_of_game(s, game_id: int) -> list[tuple[int, int]]:
    """``(seek id, user id)`` of the seeks a game was made of."""
    return [(r[0], r[1]) for r in (await s.execute(
        select(Seek.id, Seek.user_id).where(Seek.game_id == game_id).order_by(Seek.id))).all()]


async def listed(s, now: datetime, limit: int = 100) -> list[tuple[Seek, str]]:
    """Open seeks (oldest first) with their players' names."""
    return [(r[0], r[1]) for r in (await s.execute(
        select(Seek, auth_store.username_of(Seek.user_id))
        .where(Seek.status == "open", Seek.expires_at > now)
        .order_by(Seek.created_at, Seek.id).limit(limit))).all()]


async def recent_of(s, user_id: int, since: datetime, limit: int = 20) -> list[Seek]:
    """The caller's seeks open now or closed since ``since``, newest first."""
    return list((await s.execute(
        select(Seek).where(Seek.user_id == user_id,
                           (Seek.status == "open") | (Seek.closed_at >= since))
        .order_by(Seek.created_at.desc(), Seek.id.desc()).limit(limit))).scalars().all())


async def seek(s, seek_id: int, *, lock: bool = False) -> Seek | None:
    """One seek (``lock``: its row held for this transaction)."""
    q = select(Seek).where(Seek.id == seek_id)
    return (await s.execute(q.with_for_update() if lock else q)).scalar_one_or_none()


async def pool_of(s, seek_id: int) -> str | None:
    return await s.scalar(select(Seek.pool).where(Seek.id == seek_id))


async def owner_of(s, seek_id: int) -> int | None:
    return await s.scalar(select(Seek.user_id).where(Seek.id == seek_id))



async def game_name_of(s, game_id: int) -> str | None:
    """The game (``arknova``, ...) of the seeks that made ``game_id``."""
    return await s.scalar(select(Seek.game).where(Seek.game_id == game_id).limit(1))
