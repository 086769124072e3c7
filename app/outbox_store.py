"""The ``outbox`` table's rows written by the stores (the one owner of that table with
``app/outbox.py``, which runs and deletes them): a row is always added in the caller's own
session, so it commits, or rolls back, with the write it announces (issue #34.4).

(The move's single PostgreSQL statement, ``app/games/store_pg.py``, writes its row in that
statement's own SQL: one round trip per move.)"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete

from .models_delivery import OutboxEvent


def add(s: Any, *, kind: str, game_id: int, payload: dict[str, Any], version: int = 0,
        now: datetime | None = None) -> None:
    """An outbox row (``your_turn``, ``finished`` or ``notice``) in session ``s``'s
    transaction; ``now``: its creation and due time (default: the time of the insert)."""
    row = OutboxEvent(kind=kind, game_id=game_id, version=version, payload=payload)
    if now is not None:
        row.created_at = row.next_attempt_at = now
    s.add(row)


def notice(s: Any, game_id: int, payload: dict[str, Any], now: datetime | None = None) -> None:
    """A ``notice`` row (a :class:`~app.signals.Notify`'s payload) in ``s``'s transaction."""
    add(s, kind="notice", game_id=game_id, payload=payload, now=now)


async def drop_game(s: Any, game_id: int) -> None:
    """Delete the game's rows still waiting (the game is being deleted), in ``s``'s
    transaction."""
    await s.execute(delete(OutboxEvent).where(OutboxEvent.game_id == game_id))
