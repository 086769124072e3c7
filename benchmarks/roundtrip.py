"""Round trip of one move through a real server process, on SQLite and on PostgreSQL.

    .venv/bin/python benchmarks/roundtrip.py [--db sqlite|postgres|both] [--moves 200]

Starts ``python -m tests.app.launcher`` (the app with the test-only toy game) on a free port,
registers two players and plays toy games move after move, each move by the seat that owes
it, at the version returned by the previous move. Measures, per move:

- ``http``: POST /api/games/{id}/actions until its 200 answer (one committed transaction);
- ``push``: from sending that POST until a spectator WebSocket receives the new version.

PostgreSQL uses TEST_POSTGRES_URL (as the tests do); its tables are emptied first, so point it
at a test database. Prints one line per database and, with --json, a JSON summary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_url: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": db_url, "MENAGERIE_ARGON2_TIME_COST": "1",
           "MENAGERIE_ARGON2_MEMORY_KIB": "8", "MENAGERIE_ACCESS_LOG": "false",
           "MENAGERIE_LOG_LEVEL": "WARNING"}
    proc = subprocess.Popen([sys.executable, "-m", "tests.app.launcher", "--port", str(port),
                             "--migrate"], cwd=ROOT, env=env)
    base = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"http://{base}/healthz", timeout=1).status_code == 200:
                return proc, base
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("server did not start")
        time.sleep(0.1)


async def reset_postgres(url: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    from app.migrate import upgrade

    await upgrade(url)
    conn = await asyncpg.connect(make_url(url).set(drivername="postgresql")
                                 .render_as_string(hide_password=False))
    try:
        await conn.execute("TRUNCATE snapshots, actions, seats, tokens, games, users "
                           "RESTART IDENTITY CASCADE")
    finally:
        await conn.close()


async def measure(base: str, moves: int) -> dict:
    http_ms: list[float] = []
    push_ms: list[float] = []
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10) as c:
        tokens = []
        for name in ("bench_a", "bench_b"):
            r = await c.post("/api/auth/register", json={"username": name,
                                                         "password": "benchmark-pass"})
            tokens.append(r.json()["token"])
        c.cookies.clear()
        heads = [{"Authorization": f"Bearer {t}"} for t in tokens]
        while len(http_ms) < moves:
            r = await c.post("/api/games", headers=heads[0], json={"game": "toy", "seats": 2})
            gid = r.json()["id"]
            await c.post(f"/api/games/{gid}/join", headers=heads[1])
            await c.post(f"/api/games/{gid}/start", headers=heads[0])
            legal = [(await c.get(f"/api/games/{gid}/legal", headers=h)).json()["actions"]
                     for h in heads]
            version, waiting = 0, [0, 1]
            async with connect(f"ws://{base}/api/games/{gid}/ws") as ws:
                await ws.recv()  # hello
                while waiting and len(http_ms) < moves:
                    seat = waiting[0]
                    action = legal[seat][0]
                    t0 = time.perf_counter()
                    r = await c.post(f"/api/games/{gid}/actions", headers=heads[seat],
                                     json={"version": version, "action": action})
                    t1 = time.perf_counter()
                    assert r.status_code == 200, r.text
                    body = r.json()
                    while True:
                        msg = json.loads(await ws.recv())
                        if msg.get("version") == body["version"]:
                            break
                    t2 = time.perf_counter()
                    http_ms.append((t1 - t0) * 1000)
                    push_ms.append((t2 - t0) * 1000)
                    version, waiting = body["version"], body["waiting_for"]
                    # the next legal answers of whoever owes (from the view: cheap and exact)
                    for s in waiting:
                        legal[s] = (await c.get(f"/api/games/{gid}/legal",
                                                headers=heads[s])).json()["actions"]

    def summary(xs):
        xs = sorted(xs)
        return {"median_ms": round(statistics.median(xs), 2),
                "p90_ms": round(xs[int(len(xs) * 0.9) - 1], 2),
                "p99_ms": round(xs[int(len(xs) * 0.99) - 1], 2)}

    return {"moves": len(http_ms), "http": summary(http_ms), "push": summary(push_ms)}


def run(db: str, moves: int) -> dict:
    if db == "sqlite":
        tmp = tempfile.mkdtemp(prefix="menagerie-bench-")
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
    else:
        url = os.environ.get("TEST_POSTGRES_URL")
        if not url:
            raise SystemExit("set TEST_POSTGRES_URL for the PostgreSQL run")
        asyncio.run(reset_postgres(url))
    proc, base = start_server(url)
    try:
        return asyncio.run(measure(base, moves))
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    results = {}
    for db in dbs:
        res = results[db] = run(db, args.moves)
        print(f"{db:9s} {res['moves']} moves  POST round trip median {res['http']['median_ms']} ms"
              f" (p90 {res['http']['p90_ms']}, p99 {res['http']['p99_ms']})  "
              f"spectator push median {res['push']['median_ms']} ms", flush=True)
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
