"""Alembic environment: works on SQLite and PostgreSQL, async drivers included.

``app.migrate.upgrade()`` hands over an open connection in ``config.attributes["connection"]``;
the plain ``alembic`` command line gets its own engine from ``DATABASE_URL``.
"""

from __future__ import annotations

import asyncio

from alembic import context

from app import models_delivery  # noqa: F401 - its tables join Base.metadata
from app.db import migration_engine
from app.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        # SQLite can roll DDL back too: a failed migration leaves nothing half done
        transactional_ddl=True,
        compare_type=True,
    )


def _run(connection) -> None:
    _configure(connection)
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = config.attributes.get("url")
    if url:
        return url
    from app.settings import Settings

    return Settings().database_url


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=_url().startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = migration_engine(_url())
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_run)
            await conn.commit()
    finally:
        await engine.dispose()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    run_offline()
else:
    run_online()
