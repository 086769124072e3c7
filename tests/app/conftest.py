"""Fixtures for the app suite: every test using ``api`` runs on SQLite and on PostgreSQL.

- SQLite: a fresh database file per test.
- PostgreSQL: one throwaway database per test session (``CREATE DATABASE``, dropped at the
  end; falls back to resetting the schema of the TEST_POSTGRES_URL database when the role may
  not create databases), migrated once and emptied before each test.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from sqlalchemy.engine import make_url

import engine
from app import models_delivery  # noqa: F401 - its tables join Base.metadata
from app.main import create_app
from app.migrate import upgrade
from app.models import Base
from app.settings import Settings
from tests.app.apptasks import owned_tasks
from tests.conftest import require_postgres
from tests.toygame import PLUGIN as TOY_PLUGIN, TOY

#: every table, emptied between PostgreSQL tests (from the models: a new table is never missed)
TABLES = [t.name for t in reversed(Base.metadata.sorted_tables)]
PASSWORD = "correct horse"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "faults: kills server processes or restarts PostgreSQL (bounded; part of "
                   "the normal run)")


@pytest.fixture(autouse=True)
def toy_game():
    """The test-only toy game is offered during each app test (and only then)."""
    engine.register(TOY_PLUGIN, replace=True)
    yield TOY
    engine.unregister("toy")


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _pg_admin(url: str, *sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_asyncpg_dsn(url))
    try:
        for statement in sql:
            await conn.execute(statement)
    finally:
        await conn.close()


async def _drop_stale_databases(base: str) -> None:
    """Drop the throwaway databases of earlier test runs whose process is gone."""
    import asyncpg

    conn = await asyncpg.connect(_asyncpg_dsn(base))
    try:
        names = await conn.fetch("SELECT datname FROM pg_database "
                                 "WHERE datname LIKE 'menagerie\\_t\\_%'")
        for (name,) in names:
            try:
                pid = int(name.split("_")[2])
                os.kill(pid, 0)
                continue  # still running
            except ProcessLookupError:
                pass
            except (ValueError, IndexError, PermissionError):
                continue
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_session_url():
    """A migrated PostgreSQL database private to this test session."""
    import asyncpg

    base = require_postgres()
    with contextlib.suppress(Exception):
        asyncio.run(_drop_stale_databases(base))
    name = f"menagerie_t_{os.getpid()}_{secrets.token_hex(3)}"
    url = make_url(base).set(database=name).render_as_string(hide_password=False)
    created = True
    try:
        asyncio.run(_pg_admin(base, f'CREATE DATABASE "{name}"'))
    except asyncpg.InsufficientPrivilegeError:
        created = False
        url = base
        asyncio.run(_pg_admin(base, "DROP SCHEMA public CASCADE", "CREATE SCHEMA public"))
    asyncio.run(upgrade(url))
    yield url
    if created:
        asyncio.run(_pg_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'menagerie.db'}"
        asyncio.run(upgrade(url))
        return url
    url = request.getfixturevalue("pg_session_url")
    asyncio.run(_pg_admin(url, f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    return url


def make_settings(url: str, **overrides) -> Settings:
    values = dict(database_url=url, argon2_time_cost=1, argon2_memory_kib=8,
                  static_dir=Path("/nonexistent-static"), access_log=False, log_level="WARNING",
                  # the limits stay on (their code runs) but out of the way; test_ratelimit
                  # lowers them
                  rate_auth_burst=10_000, rate_actions_burst=10_000,
                  rate_address_actions_burst=10_000, rate_imports_burst=10_000,
                  rate_sync_burst=10_000, max_active_games_per_user=10_000,
                  max_bot_seats_per_user=10_000, max_mcts_seats_per_user=10_000,
                  # every fresh account is ranked in the daily challenge; test_daily_ranked
                  # puts the threshold back
                  daily_ranked_min_account_days=0, daily_ranked_min_games=0,
                  daily_ranked_need_email=False,
                  # the analysis child process imports its games afresh: it must know the
                  # test game too (a finished toy game's analysis failed with KeyError 'toy')
                  analysis_preload="tests.toygame:TOY")
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def settings(db_url) -> Settings:
    return make_settings(db_url)


class Api:
    """A thin client over httpx with the helpers the tests share."""

    def __init__(self, client: httpx.AsyncClient, app) -> None:
        self.client = client
        self.app = app

    @property
    def services(self):
        return self.app.state.services

    async def user(self, name: str | None = None) -> Player:
        name = name or f"u{secrets.token_hex(4)}"
        r = await self.client.post("/api/auth/register", json={"username": name,
                                                               "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.client.cookies.clear()  # stay anonymous: players use their Bearer token
        return Player(self, name, r.json()["token"], r.json()["user"]["id"])

    async def toy_game(self, owner: Player, seats: int = 2, bots=(), others=(),
                       start: bool = True, options=None) -> int:
        r = await owner.post("/api/games", json={"game": "toy", "seats": seats,
                                                 "bots": list(bots), "options": options or {}})
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        for other in others:
            r = await other.post(f"/api/games/{gid}/join")
            assert r.status_code == 200, r.text
        if start:
            r = await owner.post(f"/api/games/{gid}/start")
            assert r.status_code == 200, r.text
            # what the start set off (the first "your turn") is handled before the test goes
            # on, so a webhook or preference the test adds next does not race with it (an app
            # in this process; a server process runs its own)
            if self.app is not None:
                await self.services.signals.drain()
        return gid

    async def idle(self) -> None:
        await self.services.games.bots.wait_idle()


@dataclass
class Player:
    api: Api
    name: str
    token: str
    id: int

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    async def get(self, url: str, headers: dict | None = None, **kw) -> httpx.Response:
        return await self.api.client.get(url, headers={**self.headers, **(headers or {})}, **kw)

    async def post(self, url: str, headers: dict | None = None, **kw) -> httpx.Response:
        return await self.api.client.post(url, headers={**self.headers, **(headers or {})},
                                          **kw)

    async def delete(self, url: str, headers: dict | None = None, **kw) -> httpx.Response:
        return await self.api.client.delete(url, headers={**self.headers, **(headers or {})},
                                            **kw)

    async def game(self, gid: int) -> dict:
        r = await self.get(f"/api/games/{gid}")
        assert r.status_code == 200, r.text
        return r.json()

    async def act(self, gid: int, action: dict, version: int | None = None) -> httpx.Response:
        if version is None:
            version = (await self.game(gid))["version"]
        return await self.post(f"/api/games/{gid}/actions",
                               json={"version": version, "action": action})

    async def legal(self, gid: int) -> dict:
        r = await self.get(f"/api/games/{gid}/legal")
        assert r.status_code == 200, r.text
        return r.json()


async def play_to_end(api, gid: int, players, pick=0) -> dict:
    """Every human seat plays a legal answer (the first, or ``pick``) until the game is over."""
    for _ in range(300):
        g = await players[0].game(gid)
        if g["status"] == "finished":
            return g
        moved = False
        for p in players:
            g = await p.game(gid)
            if g["your_seat"] in g["waiting_for"]:
                legal = await p.legal(gid)
                r = await p.act(gid, legal["actions"][pick % len(legal["actions"])],
                                version=legal["version"])
                assert r.status_code in (200, 409), r.text
                moved = True
        if not moved:
            await api.idle()
    raise AssertionError("the game did not end")


@contextlib.asynccontextmanager
async def running_app(settings: Settings):
    app = create_app(settings)
    async with owned_tasks(), app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield Api(client, app)


@pytest.fixture
async def api(settings):
    async with running_app(settings) as a:
        yield a


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.asynccontextmanager
async def live_server(settings: Settings, serving: bool = False):
    """A real uvicorn server on 127.0.0.1 inside this event loop; yields (base_url, app).
    ``serving``: with the options ``menagerie serve`` gives uvicorn (its connection limit)."""
    async with owned_tasks():
        async with _serving(settings, serving) as served:
            yield served


@contextlib.asynccontextmanager
async def _serving(settings: Settings, serving: bool):
    app = create_app(settings)
    port = free_port()
    if serving:
        from app.serving import uvicorn_options

        config = uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="on",
                                **uvicorn_options(settings))
    else:
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None,
                                access_log=False, ws_max_size=settings.max_body_bytes,
                                lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    assert server.started, "uvicorn did not start"
    try:
        yield f"127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


@pytest.fixture
async def server(settings):
    async with live_server(settings) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as client:
            yield host, Api(client, app)


def finished_toy_game(db_url: str) -> int:
    """A toy game against a bot played to its end in a database of ``db_url`` (for tests of
    the CLI commands that read stored games); returns its id."""
    async def play() -> int:
        async with running_app(make_settings(db_url)) as api:
            ada = await api.user("ada")
            gid = await api.toy_game(ada, bots=[1])
            while True:
                await api.idle()
                g = await ada.game(gid)
                if g["status"] == "finished":
                    return gid
                await ada.act(gid, (await ada.legal(gid))["actions"][-1], version=g["version"])

    return asyncio.run(play())
