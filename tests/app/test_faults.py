"""Faults under load, with real server processes on 127.0.0.1 (``benchmarks/load.py``):

- SIGKILL a server process in the middle of a load run and restart it: every acknowledged
  action is in the database as acknowledged, every game's log replays to its stored state, no
  game is left with a hole or stuck, and the spectator sockets resync without gaps;
- restart PostgreSQL under load: the servers reconnect by themselves and play goes on. This one
  runs on a private PostgreSQL cluster (initdb in a temporary folder, its own port), so that
  restarting it disturbs nobody else's tests;
- ``MENAGERIE_SOAK=1``: the same kill -9 run with more than 1,000 actions in flight.

Bounded: a few games, a few seconds each.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import httpx
import pytest

from app.migrate import upgrade
from benchmarks import load

from .conftest import _pg_admin, free_port

pytestmark = pytest.mark.faults


def _assert_nothing_lost(result: dict, *, min_acked: int) -> dict:
    verify = result["verify"]
    phase = result["phases"][0]
    assert verify["acked"] >= min_acked, (verify, phase)
    assert verify["missing"] == 0 and verify["mismatched"] == 0, verify
    assert verify["replay_mismatch"] == [] and verify["log_holes"] == [], verify
    assert verify["stuck"] == [], verify
    counts = phase["counts"]
    # every socket ends with every version, each exactly once and in order (a reconnect names
    # the last version it has, and the server continues from there)
    assert phase["fanout_missed"] == 0, phase
    unexpected = {k: v for k, v in counts.items() if k not in (
        "unavailable", "http_503", "http_502", "ws_reconnects", "ws_refused",
        "ws_error_message", "ws_bad_hello", "games_finished")}
    assert not unexpected, counts
    return verify


@pytest.fixture
def fresh_pg(pg_session_url):
    """An empty, migrated database of its own on the test server."""
    from sqlalchemy.engine import make_url

    name = f"menagerie_f_{os.getpid()}_{os.urandom(3).hex()}"
    asyncio.run(_pg_admin(pg_session_url, f'CREATE DATABASE "{name}"'))
    url = make_url(pg_session_url).set(database=name).render_as_string(hide_password=False)
    asyncio.run(upgrade(url))
    yield url
    asyncio.run(_pg_admin(pg_session_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_kill_9_a_server_under_load(fresh_pg):
    result = asyncio.run(load.run_menagerie(fresh_pg, [
        "--games", "8", "--spectators", "16", "--rate", "40", "--duration", "4",
        "--warmup", "0.5", "--grace", "3", "--servers", "2", "--kill-every", "2",
        "--restart-after", "0.3"]))
    phase = result["phases"][0]
    assert any("kill -9" in f for f in phase["faults"]), phase
    _assert_nothing_lost(result, min_acked=30)
    assert all(h.get("status") == "ok" for h in result["health_after"]), result["health_after"]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MENAGERIE_SOAK"),
                    reason="set MENAGERIE_SOAK=1 for the 1,000+ action kill -9 run")
def test_soak_kill_9_over_a_thousand_actions(fresh_pg):
    result = asyncio.run(load.run_menagerie(fresh_pg, [
        "--games", "40", "--spectators", "80", "--rate", "60", "--duration", "30",
        "--warmup", "2", "--servers", "2", "--kill-every", "4", "--restart-after", "1"]))
    verify = _assert_nothing_lost(result, min_acked=1000)
    print("soak:", verify, result["phases"][0]["faults"])


# --------------------------------------------------------------------------- PostgreSQL restart


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


@pytest.fixture(scope="module")
def private_postgres():
    """A PostgreSQL cluster of this test only: (url, restart command)."""
    bindir = _pg_bin()
    if bindir is None or os.geteuid() != 0 or shutil.which("runuser") is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("the PostgreSQL restart test needs root and the PostgreSQL binaries")
        pytest.skip("needs root and the PostgreSQL server binaries (initdb, pg_ctl)")
    root = Path(tempfile.mkdtemp(prefix="menagerie-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    shutil.chown(root, "postgres")
    shutil.chown(sock, "postgres")
    port = free_port()
    as_pg = ["runuser", "-u", "postgres", "--"]
    subprocess.run([*as_pg, str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                    "--auth=trust", "-E", "UTF8", "--no-sync"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    opts = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c max_connections=60"
    ctl = [*as_pg, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "pg.log")]
    subprocess.run([*ctl, "-o", opts, "-w", "start"], check=True, stdout=subprocess.DEVNULL)
    try:
        subprocess.run([*as_pg, str(bindir / "psql"), "-h", "127.0.0.1", "-p", str(port), "-U",
                        "postgres", "-qc", "CREATE ROLE menagerie LOGIN PASSWORD 'menagerie'"],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([*as_pg, str(bindir / "psql"), "-h", "127.0.0.1", "-p", str(port), "-U",
                        "postgres", "-qc", "CREATE DATABASE menagerie OWNER menagerie"],
                       check=True, stdout=subprocess.DEVNULL)
        url = f"postgresql+asyncpg://menagerie:menagerie@127.0.0.1:{port}/menagerie"
        restart = " ".join([*as_pg, str(bindir / "pg_ctl"), "-D", str(data), "-l",
                            str(root / "pg.log"), "-m", "fast", "-w", "restart"])
        yield url, restart
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(root, ignore_errors=True)


def test_postgres_restart_under_load(private_postgres):
    url, restart = private_postgres
    asyncio.run(upgrade(url))
    result = asyncio.run(load.run_menagerie(url, [
        "--games", "8", "--spectators", "16", "--rate", "30", "--duration", "4",
        "--warmup", "0.5", "--grace", "2", "--pg-restart-cmd", restart,
        "--pg-restart-at", "1"]))
    phase = result["phases"][0]
    assert any("postgres restarted" in f and "exit 0" in f for f in phase["faults"]), phase
    _assert_nothing_lost(result, min_acked=30)
    # the server recovered by itself: healthy again (database and LISTEN connection)
    [health] = result["health_after"]
    assert health.get("database") == "ok" and health.get("realtime") == "ok", health


def test_server_rides_out_a_postgres_restart(private_postgres):
    """One server process stays up across the restart: requests during it get 503 (never a
    500), the LISTEN connection comes back, sockets keep receiving, health returns to ok."""
    from websockets.asyncio.client import connect

    url, restart = private_postgres
    asyncio.run(upgrade(url))

    async def scenario():
        srv = load.ServerProc("menagerie", url, 1, {}, Path(tempfile.mkdtemp()), "ride")
        srv.start()
        try:
            await srv.ready()
            async with httpx.AsyncClient(base_url=srv.base, timeout=10) as c:
                rec = load.Recorder()
                ours = load.Ours([srv.base], c, rec)
                [slot] = await ours.setup(1, "ride")
                async with connect(srv.base.replace("http", "ws") +
                                   f"/api/games/{slot.gid}/ws") as ws:
                    await ws.recv()
                    proc = await asyncio.create_subprocess_shell(
                        restart, stdout=asyncio.subprocess.DEVNULL,
                        stderr=asyncio.subprocess.DEVNULL)
                    statuses = set()
                    while proc.returncode is None:
                        with contextlib.suppress(httpx.TransportError):
                            statuses.add((await c.get(f"/api/games/{slot.gid}")).status_code)
                        with contextlib.suppress(asyncio.TimeoutError):
                            await asyncio.wait_for(proc.wait(), 0.05)
                    assert await proc.wait() == 0
                    assert statuses <= {200, 503}, statuses

                    async def healthy():
                        for _ in range(1200):  # up to 2 minutes: a bound for a failure only
                            r = await c.get("/healthz")
                            if r.status_code == 200 and r.json()["realtime"] == "ok":
                                return True
                            await asyncio.sleep(0.1)
                        return False

                    assert await healthy()
                    # a move after the restart is stored and pushed to the socket
                    for _ in range(1200):  # (the same bound)
                        st, body, _ = await ours.call(slot, "GET",
                                                      f"/api/games/{slot.gid}/legal",
                                                      slot.tokens[slot.waiting[0]])
                        if st == 200:
                            break
                        await asyncio.sleep(0.1)
                    st, reply, _ = await ours.call(
                        slot, "POST", f"/api/games/{slot.gid}/actions",
                        slot.tokens[slot.waiting[0]],
                        {"version": body["version"], "action": body["actions"][0]})
                    assert st == 200, reply
                    while True:
                        msg = await asyncio.wait_for(ws.recv(), 60)
                        if f'"version":{reply["version"]},' in msg:
                            break
        finally:
            srv.stop()

    asyncio.run(scenario())
