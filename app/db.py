"""The database engine and transactions.

Reads use an ordinary transaction on SQLite; on PostgreSQL they run in autocommit mode (each
statement is its own transaction: the same guarantees as a READ COMMITTED transaction, without
the BEGIN and ROLLBACK round trips). Writes use :meth:`Database.write`, which serializes writers
where the database needs it: on SQLite every write transaction starts with ``BEGIN IMMEDIATE``
(one writer at a time, the others wait on the busy timeout) and writers of one process queue on
an asyncio lock first; on PostgreSQL the game service locks the game row (``SELECT ... FOR
UPDATE`` in the lobby, a conditional ``UPDATE ... WHERE version = v`` for moves, see
``app/games/store_pg.py``). :meth:`Database.autocommit` hands out a connection whose every statement
commits on its own: a move on PostgreSQL is one such statement.

The hot statements (a move, the game's current row, the rate-limit buckets) run on a small
asyncpg pool of their own (:meth:`Database.driver`): a third of ``pool_size``, the rest is
SQLAlchemy's pool, so a process still opens at most ``pool_size`` connections. asyncpg's pool
hands a connection out with far less work than SQLAlchemy's checkout (about 5 % of the
server's CPU per action under load). Its connections decode JSON like SQLAlchemy's and are not
reset on release (the statements run in autocommit and change no session state).

The pool does not ping a connection before lending it (a round trip per request); a connection
that died (PostgreSQL restarted) fails its first statement, SQLAlchemy then discards every
pooled connection of that generation, and the request gets 503 ``database_unavailable``
(``app/errors.py``); the next requests use fresh connections.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from . import jsonutil
from .settings import Settings

_WRITE = "menagerie_write"


class Duplicate(Exception):
    """A write refused by a unique constraint (another writer stored the same row first): the
    stores raise it in place of SQLAlchemy's ``IntegrityError``, so the domain that catches it
    needs no SQLAlchemy."""


@asynccontextmanager
async def unique() -> AsyncIterator[None]:
    """Statements in this block refused by a unique (or foreign key) constraint raise
    :class:`Duplicate` in place of SQLAlchemy's ``IntegrityError``."""
    try:
        yield
    except IntegrityError as exc:
        raise Duplicate(str(exc.orig)) from exc


async def flush_unique(s: Any) -> None:
    """Flush; :class:`Duplicate` when a constraint refuses it."""
    async with unique():
        await s.flush()


async def commit_unique(s: Any) -> None:
    """Commit; :class:`Duplicate` when a constraint refuses it."""
    async with unique():
        await s.commit()


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
            kwargs.update(pool_size=max(1, settings.pool_size - self.driver_pool_size),
                          max_overflow=settings.pool_max_overflow,
                          pool_pre_ping=settings.pool_pre_ping, pool_recycle=1800,
                          pool_timeout=settings.pool_timeout)
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            _sqlite_hooks(self.engine, settings.sqlite_synchronous)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        if self.is_postgres:
            self.autocommit_engine = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            self.read_sessions = async_sessionmaker(self.autocommit_engine,
                                                    expire_on_commit=False)
        else:
            self.autocommit_engine = self.engine
            self.read_sessions = self.sessions
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        self._pool = None  # the asyncpg pool of driver(), made on first use
        self._pool_lock = asyncio.Lock()

    @property
    def driver_pool_size(self) -> int:
        """Connections of the asyncpg pool of :meth:`driver` (PostgreSQL)."""
        return max(2, self.settings.pool_size // 3) if self.is_postgres else 0

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
        async with self.read_sessions() as session:
            yield session

    @asynccontextmanager
    async def read_conn(self) -> AsyncIterator[AsyncConnection]:
        """A Core connection for reads (no ORM session: less work per query on hot paths);
        autocommit on PostgreSQL."""
        async with self.autocommit_engine.connect() as conn:
            yield conn

    async def _driver_pool(self):
        if self._pool is None:
            async with self._pool_lock:
                if self._pool is None:
                    import asyncpg

                    self._pool = await asyncpg.create_pool(
                        self.asyncpg_dsn(), min_size=0, max_size=self.driver_pool_size,
                        init=_json_codecs, reset=_no_reset,
                        max_inactive_connection_lifetime=300)
        return self._pool

    @asynccontextmanager
    async def driver(self):
        """PostgreSQL: an asyncpg connection in autocommit, for the few hot statements (a
        move, the game's current row, the rate limits) where SQLAlchemy's execution layer
        and pool cost more than the query. A connection that fails is closed (not reused);
        one the server closed meanwhile (a restart) is replaced by the pool on the way out."""
        assert self.is_postgres, "driver connections are for PostgreSQL"
        pool = await self._driver_pool()
        try:
            conn = await asyncio.wait_for(pool.acquire(), self.settings.pool_timeout)
        except TimeoutError:
            raise ConnectionError("no free database connection") from None
        try:
            yield conn
        except BaseException as exc:
            if not _statement_error(exc):
                # the connection's state is unknown (lost, shut down, cancelled midway): never
                # hand it out again
                conn.terminate()
            raise
        finally:
            await pool.release(conn)

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[AsyncConnection]:
        """PostgreSQL: a connection whose every statement is a transaction of its own."""
        assert self.is_postgres, "autocommit connections are for PostgreSQL"
        async with self.autocommit_engine.connect() as conn:
            yield conn

    def pool_status(self) -> dict:
        pool = self.engine.pool
        out = {}
        for name in ("size", "checkedout", "overflow", "checkedin"):
            fn = getattr(pool, name, None)
            if callable(fn):
                out[name] = max(0, fn())
        return out

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
        if self._pool is not None:
            pool, self._pool = self._pool, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pool.close(), 5)
            pool.terminate()
        await self.engine.dispose()


async def _json_codecs(conn) -> None:
    """JSON in and out as SQLAlchemy's asyncpg connections have it: text in, orjson out."""
    for name in ("json", "jsonb"):
        prefix = b"\x01" if name == "jsonb" else b""
        skip = len(prefix)
        await conn.set_type_codec(
            name, schema="pg_catalog", format="binary",
            encoder=(lambda v, p=prefix: p + v.encode()),
            decoder=(lambda b, n=skip: jsonutil.loads(b[n:])))


async def _no_reset(conn) -> None:
    """Nothing to reset: driver statements run in autocommit and change no session state
    (asyncpg would otherwise send a reset round trip per release)."""


def _statement_error(exc: BaseException) -> bool:
    """An error of the statement itself (a constraint, bad data, a conflict), after which the
    connection is fine; anything else (connection lost, server shutting down, cancelled)
    leaves the connection unusable."""
    sqlstate = getattr(exc, "sqlstate", None) or ""
    return sqlstate[:2] in ("22", "23", "40", "42", "P0")


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
