"""Real server processes: two processes on one PostgreSQL database, and restarts."""

from __future__ import annotations

import asyncio
import contextlib
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
           "MENAGERIE_LOG_LEVEL": "WARNING", "MENAGERIE_RATE_AUTH_BURST": "10000",
           "MENAGERIE_RATE_ACTIONS_BURST": "10000",
           "MENAGERIE_RATE_ADDRESS_ACTIONS_BURST": "10000", "MENAGERIE_RATE_IMPORTS_BURST": "10000",
           "MENAGERIE_RATE_SYNC_BURST": "10000", "MENAGERIE_MAX_ACTIVE_GAMES_PER_USER": "10000",
           "MENAGERIE_MAX_BOT_SEATS_PER_USER": "10000", **env_extra}
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "tests.app.launcher", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + UP_WAIT
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


#: bounds for a failure only (a server that never comes up, a state never reached): generous,
#: so that a loaded 2-core machine is slower, not red
UP_WAIT = 120.0
STATE_WAIT = 60.0


async def wait_for(predicate, timeout=STATE_WAIT):
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


async def test_deadlines_survive_a_crash(db_url):
    """A timed game's deadline passes while no server runs (the process was killed); the next
    server process finds it in the database and the bot plays the late decisions."""
    async with server_process(db_url, MENAGERIE_SCHEDULER_INTERVAL="0.2") as p:
        async with httpx.AsyncClient(base_url=f"http://{p.base}") as c:
            api = Remote(c)
            ada, bob = await api.user("ada"), await api.user("bob")
            r = await ada.post("/api/games", json={
                "game": "toy", "seats": 2,
                "time_control": {"mode": "move", "seconds": 10, "bot": "random"}})
            gid = r.json()["id"]
            assert (await bob.post(f"/api/games/{gid}/join")).status_code == 200
            started = (await ada.post(f"/api/games/{gid}/start")).json()
            deadline = started["clock"]["seats"]["0"]["deadline"]
        p.kill()  # a crash, well before the deadline
        p.wait()
    await asyncio.sleep(11)  # the deadline passes while no server runs
    async with server_process(db_url, MENAGERIE_SCHEDULER_INTERVAL="0.2") as p:
        async with httpx.AsyncClient(base_url=f"http://{p.base}") as c:
            api = Remote(c)
            ada.api = api

            async def played():
                g = await ada.game(gid)
                return g if g["version"] >= 2 else None

            g = await wait_for(played)
            # both secret cards were played by the bot, after the stored deadline
            log = (await ada.get(f"/api/games/{gid}/log?after=0")).json()["entries"]
            assert {e["seat"] for e in log[:2]} == {0, 1}
            assert all(e["at"] >= deadline.replace("Z", "") for e in log[:2])
            assert g["clock"]["seats"]["0"]["auto"] == 1 and g["clock"]["seats"]["1"]["auto"] == 1


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
        got = await ws.states_until(1)
        assert [m["version"] for m in got] == [1]

        async def reconnected():
            return bus.reconnects >= 1 and bus.listening

        await wait_for(reconnected)
        assert (await bob.act(gid, (await bob.legal(gid))["actions"][0], 1)).status_code == 200
        assert [m["version"] for m in await ws.states_until(2)] == [2]
        await ws.close()


async def test_reconnect_to_another_process_resyncs(pg_url):
    """A socket that drops from process 1 and comes back through process 2 gets exactly the
    versions it missed, then the live ones. And a logout in one process revokes the token in
    the other at once (it was cached there)."""
    async with server_process(pg_url) as p1, server_process(pg_url) as p2:
        async with httpx.AsyncClient(base_url=f"http://{p1.base}") as c1, \
                httpx.AsyncClient(base_url=f"http://{p2.base}") as c2:
            one, two = Remote(c1), Remote(c2)
            ada, bob = await one.user("ada"), await one.user("bob")
            gid = await one.toy_game(ada, others=[bob])
            ws = await Socket.open(p1.base, gid, bob.token)
            assert (await ws.recv())["version"] == 0
            assert (await ada.act(gid, (await ada.legal(gid))["actions"][0], 0)).status_code == 200
            assert [m["version"] for m in await ws.states_until(1)] == [1]
            await ws.close()
            # two more versions through process 2 while bob is away
            ada2 = type(ada)(two, ada.name, ada.token, ada.id)
            bob2 = type(bob)(two, bob.name, bob.token, bob.id)
            r = await bob2.act(gid, (await bob2.legal(gid))["actions"][0], 1)
            winner = (ada2, bob2)[r.json()["waiting_for"][0]]
            assert (await winner.act(gid, {"type": "score"}, 2)).status_code == 200
            ws = await Socket.open(p2.base, gid, bob.token, query="after=1")
            hello = await ws.recv()
            assert hello["version"] == 3 and hello["seat"] == 1
            synced, missed = await ws.recv_type("synced")
            assert [m["version"] for m in missed] == [2, 3] and synced["version"] == 3
            assert all(m["view"]["private"] is not None for m in missed)
            # live again, from a move made through process 1
            g = await ada.game(gid)
            mover = (ada, bob)[g["waiting_for"][0]]
            mover = type(mover)(one, mover.name, mover.token, mover.id)
            assert (await mover.act(gid, (await mover.legal(gid))["actions"][0], 3)
                    ).status_code == 200
            assert [m["version"] for m in await ws.states_until(4)] == [4]
            await ws.nothing()
            await ws.close()

            # process 2 has bob's token cached; bob logs out through process 1
            assert (await c2.get("/api/me", headers=bob.headers)).status_code == 200
            assert (await c1.post("/api/auth/logout", headers=bob.headers)).status_code == 200

            async def refused():
                return (await c2.get("/api/me", headers=bob.headers)).status_code == 401

            await wait_for(refused)


async def test_serve_with_workers(pg_url):
    """``menagerie serve --workers 2``: two worker processes share the port; a game played
    through both reaches sockets on both, in order; a worker killed with SIGKILL comes back."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": pg_url, "MENAGERIE_ARGON2_TIME_COST": "1",
           "MENAGERIE_ARGON2_MEMORY_KIB": "8", "MENAGERIE_STATIC_DIR": "/nonexistent",
           "MENAGERIE_LOG_LEVEL": "WARNING", "MENAGERIE_ACCESS_LOG": "false"}
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--workers", "2"], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"

    async def pids(n=40) -> set[int]:
        seen = set()
        for _ in range(n):  # a new connection each time: the kernel spreads them
            async with httpx.AsyncClient(base_url=base) as c:
                with contextlib.suppress(httpx.TransportError):
                    r = await c.get("/healthz")
                    if r.status_code == 200:
                        seen.add(r.json()["instance"])
        return seen

    try:
        async def up():
            if proc.poll() is not None:
                log.seek(0)
                raise AssertionError(log.read().decode()[-3000:])
            return len(await pids(10)) >= 1

        await wait_for(up, timeout=UP_WAIT)
        workers = await wait_for(lambda: _at_least(pids, 2))
        assert len(workers) == 2
        async with httpx.AsyncClient(base_url=base) as c:
            api = Remote(c)
            p0, p1 = await api.user("worker_a"), await api.user("worker_b")
            r = await p0.post("/api/games", json={"game": "arknova", "seats": 2})
            gid = r.json()["id"]
            assert (await p1.post(f"/api/games/{gid}/join")).status_code == 200
            sockets = [await Socket.open(f"127.0.0.1:{port}", gid) for _ in range(4)]
            for s in sockets:
                await s.recv()
            assert (await p0.post(f"/api/games/{gid}/start")).status_code == 200
            version = 0
            for _i in range(6):
                # a fresh connection per move: the moves land on both workers
                async with httpx.AsyncClient(base_url=base) as fresh:
                    g = (await fresh.get(f"/api/games/{gid}")).json()
                    seat = g["waiting_for"][0]
                    who = (p0, p1)[seat]
                    legal = (await fresh.get(f"/api/games/{gid}/legal",
                                             headers=who.headers)).json()
                    assert legal["version"] == version
                    r = await fresh.post(f"/api/games/{gid}/actions", headers=who.headers,
                                         json={"version": version,
                                               "action": legal["actions"][0]})
                    assert r.status_code == 200, r.text
                    version = r.json()["version"]
            for s in sockets:
                got = await s.states_until(version)
                assert [m["version"] for m in got] == list(range(0, version + 1))
                await s.close()
        # SIGKILL one worker: uvicorn starts a new one, the service goes on (/healthz shows a
        # random instance id, not the pid: the worker processes are the supervisor's children)
        before = _worker_pids(proc.pid)
        assert len(before) == 2, before
        os.kill(next(iter(before)), signal.SIGKILL)

        async def replaced():
            seen = await pids(10)
            fresh = seen - workers
            return seen if fresh and len(seen) >= 2 and _worker_pids(proc.pid) != before \
                else None

        await wait_for(replaced)
        async with httpx.AsyncClient(base_url=base) as c:
            g = (await c.get(f"/api/games/{gid}")).json()
            assert g["version"] == version
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:  # pragma: no cover
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


def _worker_pids(parent: int) -> set[int]:
    """The uvicorn worker processes of a ``menagerie serve --workers N`` supervisor."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and b"spawn_main" in cmdline:
            found.add(int(entry))
    return found


async def _at_least(pids, n):
    seen = await pids()
    return seen if len(seen) >= n else None


async def test_announced_moves_are_applied_from_the_notification(pg_url):
    """A process holding a game at version V applies the move another process announces for
    V+1 (seat and action ride in the NOTIFY payload): same state as stored, no reload."""
    from app.models import Game

    async with running_app(make_settings(pg_url)) as one, \
            running_app(make_settings(pg_url)) as two:
        ada, bob = await one.user("ada"), await one.user("bob")
        gid = await one.toy_game(ada, others=[bob])
        bob_two = type(bob)(two, bob.name, bob.token, bob.id)
        await bob_two.legal(gid)  # process two now holds version 0
        cache = two.services.games.cache
        assert cache.get(gid).version == 0
        # nobody watches the game in process two: the move is not replayed there...
        assert (await ada.act(gid, (await ada.legal(gid))["actions"][0], 0)).status_code == 200
        await asyncio.sleep(0.5)
        assert cache.get(gid).version == 0
        # ...and the next read there fetches the new state
        legal = await bob_two.legal(gid)
        assert legal["version"] == 1 and cache.get(gid).version == 1
        # a socket watches the game in process two (its channel): the next move is applied
        two.services.hub.channel(gid)
        r = await bob_two.act(gid, legal["actions"][0], 1)
        assert r.status_code == 200
        waiting = r.json()["waiting_for"]
        mover = (ada, bob)[waiting[0]]
        legal = await mover.legal(gid)
        assert (await mover.act(gid, legal["actions"][0], 2)).status_code == 200

        async def advanced():
            c = cache.get(gid)
            return c is not None and c.version == 3 and c.frame is not None

        await wait_for(advanced)
        game = one.services.games.cache.get(gid).game
        async with two.services.db.read() as s:
            stored = (await s.get(Game, gid)).state
        assert game.state_hash(cache.get(gid).state) == game.state_hash(game.load(stored))
        # and process two serves the next move from that state
        g = await bob_two.game(gid)
        if g["status"] == "running":
            nxt = type(ada)(two, *(ada.name, ada.token, ada.id)) if 0 in g["waiting_for"] \
                else bob_two
            r = await nxt.act(gid, (await nxt.legal(gid))["actions"][0], 3)
            assert r.status_code == 200 and r.json()["version"] == 4
