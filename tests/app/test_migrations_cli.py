"""Migrations match the models on both databases; the command line works."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine
from typer.testing import CliRunner

from app.cli import cli
from app.migrate import current_revision, head_revision, upgrade
from app.models import Base

from .conftest import finished_toy_game


async def _diff(url: str) -> list:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata))
    finally:
        await engine.dispose()


def test_migrations_match_models_and_are_idempotent(db_url):
    assert asyncio.run(current_revision(db_url)) == head_revision() == "0016"
    asyncio.run(upgrade(db_url))  # again: nothing to do
    assert asyncio.run(current_revision(db_url)) == "0016"
    assert asyncio.run(_diff(db_url)) == []


def test_migrate_command_on_a_fresh_database(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    result = CliRunner().invoke(cli, ["migrate"], env={"DATABASE_URL": url})
    assert result.exit_code == 0, result.output
    assert "revision 0016" in result.output
    assert asyncio.run(current_revision(url)) == "0016"


def test_console_script_help():
    out = subprocess.run([sys.executable, "-m", "app.cli", "--help"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0
    for command in ("serve", "migrate", "replay"):
        assert command in out.stdout


def test_replay_command(db_url):
    gid = finished_toy_game(db_url)
    result = CliRunner().invoke(cli, ["replay", str(gid)], env={"DATABASE_URL": db_url})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("state hash: ") and len(lines[0].split()[-1]) == 64
    assert json.loads(lines[1].removeprefix("result: "))["ranking"]
    assert "matches the stored state" in result.output
    result = CliRunner().invoke(cli, ["replay", "424242"], env={"DATABASE_URL": db_url})
    assert result.exit_code == 2
