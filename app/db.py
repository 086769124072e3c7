"""The database engine and transactions.

Reads use an ordinary transaction. Writes use :meth:`Database.write`, which serializes writers
where the database needs it: on SQLite every write transaction starts with ``BEGIN IMMEDIATE``
(one writer at a time, the others wait on the busy timeout) and writers of one process queue on
an asyncio lock first; on PostgreSQL the game service locks the game row with
``SELECT ... FOR UPDATE``.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator

from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from . import jsonutil
from .settings import Settings

_WRITE = "menagerie_write"


class Database:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.url = make_url(settings.database_url)
        self.backend = self.url.get_backend_name()
        if self.backend not in ("sqlite", "postgresql"):
            raise ValueError(f"unsupported database {self.backend!r} (use sqlite or postgresql)")
        kwargs: dict = {"json_serializer": jsonutil.dumps_str,
                        "json_deserializer": jsonutil.loads}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs.update(pool_size=settings.pool_size, max_overflow=settings.pool_max_overflow,
                          pool_pre_ping=True, pool_recycle=1800)
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            _sqlite_hooks(self.engine, settings.sqlite_synchronous)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock = asyncio.Lock() if self.is_sqlite else None

    @property
    def is_sqlite(self) -> bool:
        return self.backend == "sqlite"

    @property
    def is_postgres(self) -> bool:
        return self.backend == "postgresql"

    def asyncpg_dsn(self) -> str:
        """The address in the form asyncpg itself accepts (for the LISTEN connection)."""
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A write transaction; the caller commits, anything else rolls back."""
        lock = self._write_lock
        if lock is not None:
            await lock.acquire()
        try:
            async with self.sessions() as session:
                await session.connection(execution_options={_WRITE: True})
                try:
                    yield session
                except BaseException:
                    await session.rollback()
                    raise
        finally:
            if lock is not None:
                lock.release()

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        await self.engine.dispose()


def migration_engine(url: str) -> AsyncEngine:
    """An engine for running migrations: on SQLite, with the same transaction control as the
    app, so that a whole migration is one transaction (SQLite has transactional DDL)."""
    engine = create_async_engine(url)
    if engine.dialect.name == "sqlite":
        _sqlite_hooks(engine, "FULL")
    return engine


def _sqlite_hooks(engine: AsyncEngine, synchronous: str) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection, _record):  # pragma: no cover - exercised by every test
        # SQLAlchemy emits BEGIN itself (below), so the driver must not
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn):  # pragma: no cover - exercised by every test
        if conn.get_execution_options().get(_WRITE):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")
