"""Keys the server makes for itself once and keeps in the database (``server_keys``), shared by
every process and kept across restarts: the Web Push signing key (``vapid``, app/push.py), the
daily challenge's secret (``daily``, app/daily/)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .db import Database
from .models_delivery import ServerKey
from .times import utcnow

log = logging.getLogger("menagerie.keys")


async def load_or_make(db: Database, name: str, make: Callable[[], str]) -> str:
    """The stored key ``name``; without one, ``make()`` is stored and returned. When several
    processes make one at once, the first stored wins and the others read it."""
    async with db.read() as s:
        value = await s.scalar(select(ServerKey.value).where(ServerKey.name == name))
    if value is not None:
        return value
    fresh = make()
    try:
        async with db.write() as s:
            s.add(ServerKey(name=name, value=fresh, created_at=utcnow()))
            await s.commit()
        log.info("made the server key %r", name)
        return fresh
    except IntegrityError:  # another process stored one first
        async with db.read() as s:
            value = await s.scalar(select(ServerKey.value).where(ServerKey.name == name))
        assert value is not None
        return value
