"""Constants, measuring helpers (CPU, memory, percentiles) and the server processes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]

PASSWORD = "load-test-password"
STATE_RE = re.compile(rb'^\{"type":"state","version":(\d+),')
#: limits raised for the servers this script starts (every player comes from 127.0.0.1)
LOAD_ENV = {
    "MENAGERIE_ARGON2_TIME_COST": "1",
    "MENAGERIE_ARGON2_MEMORY_KIB": "64",
    "MENAGERIE_LOG_LEVEL": "WARNING",
    "MENAGERIE_RATE_AUTH_PER_MINUTE": "100000",
    "MENAGERIE_RATE_AUTH_BURST": "100000",
    "MENAGERIE_RATE_ACTIONS_PER_SECOND": "100000",
    "MENAGERIE_RATE_ACTIONS_BURST": "100000",
    "MENAGERIE_RATE_ADDRESS_ACTIONS_PER_SECOND": "100000",
    "MENAGERIE_RATE_ADDRESS_ACTIONS_BURST": "100000",
    # the socket caps stay on: the spectators come from many local addresses (--per-address)
    "MENAGERIE_RATE_SYNC_BURST": "1000000",
    "MENAGERIE_MAX_ACTIVE_GAMES_PER_USER": "1000000",
    "MENAGERIE_MAX_BOT_SEATS_PER_USER": "1000000",
    "MENAGERIE_MAX_CONNECTIONS": "0",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(p / 100 * len(xs) + 0.5)) - 1))
    return round(xs[k], 2)


def group_cpu(pgids: list[int], command: bytes | None = None) -> float:
    """CPU seconds used so far by every live process in these process groups (or, with
    ``command``, by every process of that name: b"postgres") (Linux)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        name, fields = raw.split(b" (", 1)[1].rsplit(b")", 1)
        fields = fields.split()
        if (command is not None and name == command) or (command is None and
                                                          int(fields[2]) in pgids):
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def cpu_pressure() -> float | None:
    """Microseconds that some runnable task waited for a CPU (Linux PSI), machine-wide."""
    try:
        with open("/proc/pressure/cpu") as f:
            return float(f.readline().split("total=")[1])
    except (OSError, IndexError, ValueError):
        return None


def group_rss_mb(pgids: list[int]) -> float:
    """Resident memory (MB) of every live process in these process groups (Linux)."""
    total = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            if int(fields[2]) not in pgids:
                continue
            with open(f"/proc/{entry.name}/statm") as f:
                total += int(f.read().split()[1]) * page
        except OSError:
            continue
    return round(total / 2**20, 1)


def own_cpu() -> float:
    t = os.times()
    return t.user + t.system


def asyncpg_dsn(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


# ---------------------------------------------------------------------------- servers


class ServerProc:
    """One server process (``menagerie serve`` or the baseline) on a free 127.0.0.1 port."""

    def __init__(self, kind: str, db_url: str, workers: int, env: dict, log_dir: Path,
                 name: str) -> None:
        self.kind, self.db_url, self.workers, self.env = kind, db_url, workers, env
        self.port = free_port()
        self.log_path = log_dir / f"{name}.log"
        self.proc: subprocess.Popen | None = None
        self.kills = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        if self.kind == "menagerie":
            cmd = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port",
                   str(self.port), "--workers", str(self.workers)]
            env = {**os.environ, **LOAD_ENV, "DATABASE_URL": self.db_url, **self.env}
        else:
            cmd = [sys.executable, str(ROOT / "benchmarks" / "baseline.py"), "--port",
                   str(self.port), "--db", self.db_url, "--workers", str(self.workers)]
            env = {**os.environ, **self.env}
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)

    async def ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2) as c:
            while True:
                assert self.proc is not None
                if self.proc.poll() is not None:
                    raise SystemExit(f"{self.kind} server exited; see {self.log_path}:\n"
                                     + self.log_path.read_text(errors="replace")[-3000:])
                with contextlib.suppress(httpx.HTTPError):
                    if (await c.get(self.base + "/healthz")).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise SystemExit(f"{self.kind} server did not come up; see {self.log_path}")
                await asyncio.sleep(0.1)

    def kill9(self) -> None:
        """SIGKILL the whole process group (the server and its workers): a crash."""
        if self.proc and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.kills += 1

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill9()
