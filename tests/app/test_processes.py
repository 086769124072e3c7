"""Real server processes: two processes on one PostgreSQL database, and restarts."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import httpx
import pytest

from .conftest import Api, _asyncpg_dsn, free_port, live_server, make_settings, running_app
from .wsclient import Socket

ROOT = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def server_process(db_url: str, **env_extra: str):
    """``python -m tests.app.launcher`` (the app + the toy game) on a free port."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": db_url, "MENAGERIE_ARGON2_TIME_COST": "1",
           "MENAGERIE_ARGON2_MEMORY_KIB": "8", "MENAGERIE_STATIC_DIR": "/nonexistent",
           "MENAGERIE_LOG_LEVEL": "WARNING", **env_extra}
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "tests.app.launcher", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        async with httpx.AsyncClient(base_url=f"http://{base}") as client:
            while True:
                if proc.poll() is not None:
                    log.seek(0)
                    raise AssertionError(f"server exited: {log.read().decode()[-3000:]}")
                try:
                    if (await client.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "server did not come up"
                await asyncio.sleep(0.1)
        proc.base = base  # type: ignore[attr-defined]
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                proc.kill()
                proc.wait()
        log.close()


class Remote(Api):
    """The test helpers over HTTP to a server process (no in-process access)."""

    def __init__(self, client):
        super().__init__(client, None)

    async def idle(self) -> None:  # bots play in the other process: poll instead
        raise NotImplementedError


async def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.05)


@pytest.fixture
def pg_url(pg_session_url):
    from .conftest import TABLES, _pg_admin

    asyncio.run(_pg_admin(pg_session_url, f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    return pg_session_url


async def test_two_processes_share_a_game(pg_url):
    async with server_process(pg_url) as p1, server_process(pg_url) as p2:
        async with httpx.AsyncClient(base_url=f"http://{p1.base}") as c1, \
                httpx.AsyncClient(base_url=f"http://{p2.base}") as c2:
            one, two = Remote(c1), Remote(c2)
            ada, bob = await one.user("ada"), await two.user("bob")
            gid = await one.toy_game(ada, start=False)
            assert (await c2.post(f"/api/games/{gid}/join", headers=bob.headers)).status_code == 200
            spect2 = await Socket.open(p2.base, gid)   # watches through process 2
            spect1 = await Socket.open(p1.base, gid)   # watches through process 1
            assert (await spect2.recv())["version"] == -1
            await spect1.recv()
            assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
            assert (await spect2.recv())["version"] == 0

            # a move posted through process 1 reaches the spectator socket on process 2
            a = (await ada.legal(gid))["actions"][0]
            assert (await ada.act(gid, a, version=0)).status_code == 200
            m = await spect2.recv()
            assert m["type"] == "state" and m["version"] == 1 and m["view"]["private"] is None
            assert [s["version"] for s in await spect1.states_until(1)] == [0, 1]

            # and the other way round
            bob2 = type(bob)(two, bob.name, bob.token, bob.id)
            b = (await bob2.legal(gid))["actions"][0]
            assert (await bob2.act(gid, b, version=1)).status_code == 200
            assert [s["version"] for s in await spect1.states_until(2)] == [2]
            assert [s["version"] for s in await spect2.states_until(2)] == [2]

            # concurrent submissions split over both processes: one winner
            g = await ada.game(gid)
            winner_seat = g["waiting_for"][0]
            token = (ada, bob)[winner_seat].headers
            replies = await asyncio.gather(*[
                (c1, c2)[i % 2].post(f"/api/games/{gid}/actions", headers=token,
                                     json={"version": 2,
                                           "action": {"type": ("draw", "score")[i % 2]}})
                for i in range(20)])
            assert sorted(r.status_code for r in replies) == [200] + [409] * 19
            assert [s["version"] for s in await spect2.states_until(3)] == [3]
            await spect2.nothing()
            log = (await c2.get(f"/api/games/{gid}/log")).json()
            assert [e["version"] for e in log["entries"]] == [1, 2, 3]
            await spect1.close()
            await spect2.close()


async def test_restart_keeps_everything(db_url):
    async with server_process(db_url) as p:
        async with httpx.AsyncClient(base_url=f"http://{p.base}") as c:
            api = Remote(c)
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            assert (await ada.act(gid, (await ada.legal(gid))["actions"][0], 0)).status_code == 200
            before = await ada.game(gid)
            log_before = (await ada.get(f"/api/games/{gid}/log")).json()
        p.kill()  # a crash, not a clean shutdown
        p.wait()
    async with server_process(db_url) as p:
        async with httpx.AsyncClient(base_url=f"http://{p.base}") as c:
            api = Remote(c)
            ada.api = bob.api = api
            after = await ada.game(gid)
            assert after == before
            assert (await ada.get(f"/api/games/{gid}/log")).json() == log_before
            # tokens survive too, and the game goes on from where it was
            r = await bob.act(gid, (await bob.legal(gid))["actions"][0], version=1)
            assert r.status_code == 200 and r.json()["version"] == 2


async def test_bots_resume_after_restart(db_url):
    # the first server's bots wait a long time before moving; it is stopped before they do
    async with server_process(db_url, MENAGERIE_BOT_DELAY="60") as p:
        async with httpx.AsyncClient(base_url=f"http://{p.base}") as c:
            api = Remote(c)
            ada = await api.user("ada")
            gid = await api.toy_game(ada, seats=3, bots=[1, 2])
            g = await ada.game(gid)
            assert g["version"] == 0 and g["waiting_for"] == [0, 1, 2]
    async with server_process(db_url) as p:
        async with httpx.AsyncClient(base_url=f"http://{p.base}") as c:
            api = Remote(c)
            ada.api = api

            async def bots_done():
                g = await ada.game(gid)
                return g if g["waiting_for"] == [0] else None

            g = await wait_for(bots_done)
            assert g["version"] == 2


async def test_listen_connection_reconnects(pg_url):
    """Kill the LISTEN connection: the process reconnects, catches up and keeps pushing."""
    settings = make_settings(pg_url)
    async with live_server(settings) as (host, app), running_app(make_settings(pg_url)) as other:
        bus = app.state.services.bus
        ada, bob = await other.user("ada"), await other.user("bob")
        gid = await other.toy_game(ada, others=[bob])
        ws = await Socket.open(host, gid)
        await ws.recv()
        conn = await asyncpg.connect(_asyncpg_dsn(pg_url))
        try:
            killed = await conn.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'menagerie-listen' AND datname = current_database()")
        finally:
            await conn.close()
        assert killed >= 1
        # a move made elsewhere while the listener may be down still arrives
        assert (await ada.act(gid, (await ada.legal(gid))["actions"][0], 0)).status_code == 200
        got = await ws.states_until(1, timeout=15)
        assert [m["version"] for m in got] == [1]

        async def reconnected():
            return bus.reconnects >= 1 and bus.listening

        await wait_for(reconnected, timeout=15)
        assert (await bob.act(gid, (await bob.legal(gid))["actions"][0], 1)).status_code == 200
        assert [m["version"] for m in await ws.states_until(2)] == [2]
        await ws.close()
