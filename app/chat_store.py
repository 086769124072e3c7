"""Storage of the chat (app/chat.py says what the chat is): all the SQL of the ``chat_messages``
table. The game's status and seal, who sits in it and its name are the game store's reads
(``app/games/store_lookups.py``), made in the chat's transaction (:attr:`ChatTx.session`). A
line, its mention notice (the outbox) and its announcement are written in one transaction."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select

from . import auth_store, outbox_store
from .db import Database
from .models import ChatMessage


class ChatTx:
    """One read or write session of the chat (a write: the caller commits)."""

    def __init__(self, session: Any) -> None:
        self.s = session

    @property
    def session(self) -> Any:
        """The transaction, for the game store's reads made in it (the game's standing)."""
        return self.s

    async def lines(self, game_id: int, channel: str, after: int | None,
                    limit: int) -> tuple[list[ChatMessage], bool]:
        """Lines of a channel, oldest first: those after id ``after``, else the newest
        ``limit``; and whether there are more."""
        q = select(ChatMessage).where(ChatMessage.game_id == game_id,
                                      ChatMessage.channel == channel)
        if after is not None:
            rows = list((await self.s.execute(q.where(ChatMessage.id > after)
                                              .order_by(ChatMessage.id).limit(limit + 1))
                         ).scalars().all())
            return rows[:limit], len(rows) > limit
        rows = list((await self.s.execute(q.order_by(ChatMessage.id.desc()).limit(limit + 1))
                     ).scalars().all())
        return list(reversed(rows[:limit])), len(rows) > limit

    async def add_line(self, **fields: Any) -> ChatMessage:
        """A new line (flushed: its id is known)."""
        row = ChatMessage(**fields)
        self.s.add(row)
        await self.s.flush()
        return row

    async def user_ids(self, keys: list[str]) -> list[int]:
        """The ids of the users with these username keys, in id order."""
        return [r.id for r in await auth_store.users_by_key(self.s, keys)]

    def add_notice(self, game_id: int, payload: dict) -> None:
        """A notice through the outbox, in this transaction."""
        outbox_store.notice(self.s, game_id, payload)

    async def publish(self, bus: Any, channel: str, payload: str) -> None:
        """Announce ``payload`` on ``channel`` with the commit (``bus.publish_in``)."""
        await bus.publish_in(self.s, channel, payload)

    async def commit(self) -> None:
        await self.s.commit()


class ChatStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[ChatTx]:
        async with self.db.read() as s:
            yield ChatTx(s)

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[ChatTx]:
        async with self.db.write() as s:
            yield ChatTx(s)
