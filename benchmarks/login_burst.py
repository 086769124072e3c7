"""/healthz while 24 logins arrive at once (issue #15: bounded password hashing).

    .venv/bin/python benchmarks/login_burst.py [--logins 24] [--concurrency 1 64]

For each ``MENAGERIE_HASH_CONCURRENCY`` given, starts ``menagerie serve`` on a fresh SQLite
file with the production argon2 cost (time 3, 64 MiB), registers one account, then sends the
logins all at once while a second client asks ``/healthz`` every 20 ms. Prints, per setting,
how long the burst took and the median and worst ``/healthz`` latency during it (and before it,
idle). A large value (64) stands for the old, unbounded behaviour (one thread per login).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "burst of logins 42"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def probe(client: httpx.AsyncClient, stop: asyncio.Event, out: list[float]) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await client.get("/healthz")
        out.append((time.perf_counter() - t) * 1000)
        await asyncio.sleep(0.02)


async def run(concurrency: int, logins: int) -> dict:
    folder = tempfile.mkdtemp()
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{folder}/burst.db",
           "MENAGERIE_HASH_CONCURRENCY": str(concurrency), "MENAGERIE_LOG_LEVEL": "WARNING",
           "MENAGERIE_ACCESS_LOG": "false", "MENAGERIE_STATIC_DIR": "/nonexistent",
           "MENAGERIE_RATE_AUTH_BURST": "100000", "MENAGERIE_LOGIN_FREE_FAILURES": "100000"}
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as c, \
                httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as h:
            for _ in range(300):
                try:
                    if (await h.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
            r = await c.post("/api/auth/register", json={"username": "burst",
                                                         "password": PASSWORD})
            assert r.status_code == 201, r.text
            idle: list[float] = []
            stop = asyncio.Event()
            task = asyncio.create_task(probe(h, stop, idle))
            await asyncio.sleep(1.0)
            stop.set()
            await task
            busy: list[float] = []
            stop = asyncio.Event()
            task = asyncio.create_task(probe(h, stop, busy))
            started = time.perf_counter()
            replies = await asyncio.gather(*(
                c.post("/api/auth/login", json={"username": "burst", "password": PASSWORD})
                for _ in range(logins)))
            took = time.perf_counter() - started
            stop.set()
            await task
            assert all(r.status_code == 200 for r in replies), [r.status_code for r in replies]
            return {"concurrency": concurrency, "burst_s": round(took, 2),
                    "idle_median_ms": round(statistics.median(idle), 1),
                    "busy_median_ms": round(statistics.median(busy), 1),
                    "busy_max_ms": round(max(busy), 1), "probes": len(busy)}
    finally:
        proc.terminate()
        proc.wait(10)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--logins", type=int, default=24)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 64])
    args = parser.parse_args()
    for n in args.concurrency:
        print(await run(n, args.logins), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
