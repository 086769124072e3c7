"""Run the Alembic migrations programmatically (``menagerie migrate``, ``menagerie serve``).

The migration scripts live in ``migrations/`` at the repository root. They are looked up in
``MENAGERIE_MIGRATIONS`` (if set), beside the ``app`` package (editable installs, a checkout),
then in the current directory (a container that copied the repository and ran ``pip install .``).
"""

from __future__ import annotations

import os
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from .db import migration_engine

#: PostgreSQL advisory lock key held while migrating, so that several processes starting at
#: once do not race to create the same tables
_LOCK_KEY = 0x6D656E6167  # "menag"


def migrations_dir() -> Path:
    candidates = []
    if os.environ.get("MENAGERIE_MIGRATIONS"):
        candidates.append(Path(os.environ["MENAGERIE_MIGRATIONS"]))
    candidates.append(Path(__file__).resolve().parent.parent / "migrations")
    candidates.append(Path.cwd() / "migrations")
    for path in candidates:
        if (path / "env.py").is_file():
            return path
    raise FileNotFoundError(
        "Alembic migrations not found (looked in: " + ", ".join(map(str, candidates)) +
        "); set MENAGERIE_MIGRATIONS to the migrations folder")


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.attributes["url"] = url
    return cfg


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


async def upgrade(url: str, revision: str = "head") -> None:
    """Upgrade the database at ``url`` to ``revision``."""
    cfg = alembic_config(url)
    engine = migration_engine(url)
    try:
        async with engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _LOCK_KEY})
                await conn.commit()
            try:
                def run(sync_conn):
                    cfg.attributes["connection"] = sync_conn
                    command.upgrade(cfg, revision)

                await conn.run_sync(run)
                await conn.commit()
            finally:
                if conn.dialect.name == "postgresql":
                    await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _LOCK_KEY})
                    await conn.commit()
    finally:
        await engine.dispose()


async def current_revision(url: str) -> str | None:
    engine = migration_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(
                lambda c: MigrationContext.configure(c).get_current_revision())
    finally:
        await engine.dispose()
