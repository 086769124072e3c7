"""Load generator: concurrent Ark Nova games, spectator sockets, faults, and a baseline.

    .venv/bin/python benchmarks/load.py --games 200 --spectators 500 --rate 200 --duration 20
    .venv/bin/python benchmarks/load.py --games 200 --spectators 500 --rate 0   # saturation
    .venv/bin/python benchmarks/load.py --games 40 --spectators 80 --servers 2 --kill-every 5

What it does (everything on 127.0.0.1, bounded in count and time, stops by itself):

1. Creates a throwaway PostgreSQL database next to ``--db`` (default ``TEST_POSTGRES_URL``),
   starts ``menagerie serve`` on it (``--servers`` processes of ``--workers`` workers each), or
   uses ``--url``. Registers two players per game, creates ``--games`` real ``arknova`` games
   (no bots) and starts them; opens ``--spectators`` anonymous sockets (at most 20,000) spread
   over the games and over source addresses 127.0.x.y (``--per-address`` each, so the server's
   per-address socket cap stays on). A spectator reconnects like the browser client: a growing,
   jittered delay, and after a 4503 refusal (the server sheds spectators past
   ``MENAGERIE_WS_SPECTATOR_LIMIT``) the server's ``retry_after``, jittered. The report counts
   the players' errors apart from the spectators', and the spectators admitted and shed.
2. Each game is played by two scripted clients: the seat that owes a decision asks
   ``GET /legal``, picks one of the answers at random and ``POST``s it at the version it saw.
   ``--rate R`` paces the games to R accepted actions per second in total (each game acts
   every games/R seconds); ``--rate 0`` plays as fast as the server answers (throughput).
3. Measures, after ``--warmup`` seconds and for ``--duration`` seconds: accepted actions per
   second, the POST's latency (p50/p95/p99), the legal-moves GET's latency, and the fan-out
   delay: from the POST's answer to the *last* spectator of that game receiving that version.
   Counts every error: HTTP statuses other than 200, refused or dropped connections, versions
   a spectator never received, gaps in a spectator's versions.
4. Runs the same client loop against ``benchmarks/baseline.py`` (a bare FastAPI endpoint doing
   the comparable transaction on the same database) and prints ours / baseline.
5. ``--verify`` (default on): every acknowledged action is in the ``actions`` table (same seat,
   same action), and every game's log replays to the stored state's hash.

``--analysis``: before the phases, imports an Ark Nova game (two greedy bots, about 450
actions) and requests its post-game analysis (issue #19) at the server's default setting, waits
until the analysis worker process is computing it, and reports with each phase how many
decisions the analysis got through during the phase (it must still be running at the end: the
phase measured live play *while* analysing). Compare with a run without the flag.

Faults: ``--servers 2 --kill-every S`` kills one server process with SIGKILL every S seconds
and restarts it ``--restart-after`` seconds later (clients fail over to the other server and
resync their sockets); ``--pg-restart-cmd CMD --pg-restart-at T`` runs CMD (e.g. ``service
postgresql restart``) T seconds into the run. Exit status 1 when an acknowledged action is
missing, a game does not replay, or (without faults) any error happened.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

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


# ---------------------------------------------------------------------------- recording


@dataclass
class Slot:
    """One concurrently played game (a new game replaces it when it ends)."""

    index: int
    tokens: list[str]
    gid: int = 0
    version: int = 0
    waiting: list[int] = field(default_factory=list)
    status: str = "running"
    server: int = 0
    generation: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    spectators: int = 0
    #: keep-alive connections by server base URL (per-move requests)
    conns: dict = field(default_factory=dict)


class Recorder:
    def __init__(self) -> None:
        self.measuring = False
        self.timeout = 10.0
        self.action_ms: list[float] = []
        self.legal_ms: list[float] = []
        self.accepted = 0
        self.counts: collections.Counter = collections.Counter()
        #: (gid, version) -> (time of the POST's answer, seat, action, measured?)
        self.acks: dict[tuple[int, int], tuple[float, int, dict, bool]] = {}
        #: (gid, version) -> [spectators that received it, time of the last one]
        self.received: dict[tuple[int, int], list] = {}
        self.watchers: dict[int, int] = collections.Counter()
        #: when the last spectator of a game started watching it
        self.watch_since: dict[int, float] = {}
        #: spectators that got a hello; those refused (4503) and waiting to come back
        self.admitted: set[int] = set()
        self.shed_now: set[int] = set()

    def new_phase(self) -> None:
        """Forget the figures of the previous phase (the acks stay, for the verification)."""
        self.action_ms.clear()
        self.legal_ms.clear()
        self.accepted = 0
        self.received.clear()
        self.watchers.clear()
        self.watch_since.clear()
        self.admitted.clear()
        self.shed_now.clear()
        self.acks = {k: (t, seat, a, False) for k, (t, seat, a, _m) in self.acks.items()}

    def ack(self, gid: int, version: int, seat: int, action: dict, t: float,
            latency_ms: float) -> None:
        self.acks[(gid, version)] = (t, seat, action, self.measuring)
        if self.measuring:
            self.accepted += 1
            self.action_ms.append(latency_ms)

    def got(self, gid: int, version: int, t: float) -> None:
        entry = self.received.get((gid, version))
        if entry is None:
            self.received[(gid, version)] = [1, t]
        else:
            entry[0] += 1
            entry[1] = max(entry[1], t)

    def fanout(self) -> tuple[list[float], int]:
        """Delays (ms) from each measured ack to its game's last spectator; versions missed."""
        delays, missed = [], 0
        for key, (t, _seat, _a, measured) in self.acks.items():
            if not measured:
                continue
            want = self.watchers.get(key[0], 0)
            if not want or t < self.watch_since.get(key[0], 0):
                continue
            got = self.received.get(key)
            if got is None or got[0] < want:
                missed += 1
                continue
            delays.append(max(0.0, (got[1] - t) * 1000))
        return delays, missed


# ---------------------------------------------------------------------------- a lean HTTP client


class RawHttp:
    """One keep-alive HTTP/1.1 connection on asyncio streams, for the per-move requests.

    httpx spends 1.2 to 2 ms of client CPU per request on these 2-core machines (measured),
    which made the load generator itself the bottleneck at a few hundred requests per second;
    this costs about 0.05 ms. Setup (register, create, join, start) still uses httpx.
    Handles what Menagerie answers: a status line, headers, a Content-Length body.
    """

    def __init__(self, base: str) -> None:
        hostport = base.split("://", 1)[1].rstrip("/")
        self.host, port = hostport.rsplit(":", 1)
        self.port = int(port)
        self.hostport = hostport
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, token: str | None, body: bytes | None,
                      timeout: float) -> tuple[int, bytes, dict]:
        try:
            return await asyncio.wait_for(self._request(method, path, token, body), timeout)
        except BaseException:
            self.close()
            raise

    async def _request(self, method, path, token, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = [f"{method} {path} HTTP/1.1\r\nHost: {self.hostport}\r\n"]
        if token:
            head.append(f"Authorization: Bearer {token}\r\n")
        if body is not None:
            head.append(f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n")
        head.append("\r\n")
        self.writer.write("".join(head).encode() + (body or b""))
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if line:
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
        length = int(headers.get("content-length", "0"))
        data = await self.reader.readexactly(length) if length else b""
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, data, headers


# ---------------------------------------------------------------------------- targets


class Target:
    """The HTTP side of one server kind, with failover over several processes."""

    name = "?"

    def __init__(self, bases: list[str], client: httpx.AsyncClient, rec: Recorder) -> None:
        self.bases = bases
        self.client = client
        self.rec = rec

    async def fast(self, slot: Slot, method: str, path: str, token: str | None = None,
                   body: Any = None) -> tuple[int, Any, dict | None]:
        """A per-move request on the slot's own keep-alive connection."""
        base = self.bases[slot.server % len(self.bases)]
        conn = slot.conns.get(base)
        if conn is None:
            conn = slot.conns[base] = RawHttp(base)
        try:
            status, data, headers = await conn.request(
                method, path, token, None if body is None else orjson.dumps(body),
                self.rec.timeout)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            return 0, None, None
        try:
            return status, orjson.loads(data) if data else None, headers
        except orjson.JSONDecodeError:
            return status, None, headers

    async def call(self, slot: Slot | None, method: str, path: str, token: str | None = None,
                   body: Any = None, server: int | None = None) -> tuple[int, Any, httpx.Headers | None]:
        idx = server if server is not None else (slot.server if slot else 0)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        content = None
        if body is not None:
            content = orjson.dumps(body)
            headers["Content-Type"] = "application/json"
        try:
            r = await self.client.request(method, self.bases[idx % len(self.bases)] + path,
                                          headers=headers, content=content)
        except (httpx.TransportError, OSError):
            return 0, None, None
        try:
            data = orjson.loads(r.content) if r.content else None
        except orjson.JSONDecodeError:
            data = None
        return r.status_code, data, r.headers

    def ws_url(self, slot: Slot, after: int | None, server: int) -> str:
        base = self.bases[server % len(self.bases)].replace("http://", "ws://")
        query = f"?after={after}" if after is not None else ""
        return f"{base}/api/games/{slot.gid}/ws{query}"


class Ours(Target):
    name = "menagerie"

    async def register(self, name: str, server: int) -> str:
        for _ in range(20):
            st, body, _h = await self.call(None, "POST", "/api/auth/register",
                                           body={"username": name, "password": PASSWORD},
                                           server=server)
            if st == 201:
                return body["token"]
            if st == 409:  # registered by an earlier try whose answer was lost
                st, body, _h = await self.call(None, "POST", "/api/auth/login",
                                               body={"username": name, "password": PASSWORD},
                                               server=server)
                if st == 200:
                    return body["token"]
            await asyncio.sleep(0.2)
        raise SystemExit(f"cannot register {name}: {st} {body}")

    async def setup(self, n: int, tag: str) -> list[Slot]:
        sem = asyncio.Semaphore(16)

        async def one(i: int) -> Slot:
            async with sem:
                server = i % len(self.bases)
                tokens = [await self.register(f"ld{tag}_{i}_{s}", server) for s in range(2)]
                slot = Slot(i, tokens, server=server)
                await self.new_game(slot)
                return slot

        return list(await asyncio.gather(*(one(i) for i in range(n))))

    async def new_game(self, slot: Slot) -> None:
        for _ in range(50):
            st, body, _ = await self.call(slot, "POST", "/api/games", slot.tokens[0],
                                          {"game": "arknova", "seats": 2, "options": {}})
            if st == 201:
                gid = body["id"]
                st, body, _ = await self.call(slot, "POST", f"/api/games/{gid}/join",
                                              slot.tokens[1])
                st2, body2, _ = await self.call(slot, "POST", f"/api/games/{gid}/start",
                                                slot.tokens[0])
                if st == 200 and st2 == 200:
                    slot.gid, slot.version = gid, body2["version"]
                    slot.waiting, slot.status = body2["waiting_for"], body2["status"]
                    slot.generation += 1
                    old, slot.changed = slot.changed, asyncio.Event()
                    old.set()  # the spectators move to the new game
                    return
            slot.server += 1
            await asyncio.sleep(0.2)
        raise SystemExit(f"cannot create a game: {st} {body}")

    async def refresh(self, slot: Slot) -> bool:
        st, body, _ = await self.call(slot, "GET", f"/api/games/{slot.gid}", slot.tokens[0])
        if st != 200:
            return False
        slot.version, slot.waiting, slot.status = body["version"], body["waiting_for"], \
            body["status"]
        return True


class Baseline(Target):
    name = "baseline"

    async def setup(self, n: int, tag: str) -> list[Slot]:
        st, body, _ = await self.call(None, "POST", "/api/baseline/setup", body={"games": n})
        assert st == 200, (st, body)
        return [Slot(i, ["-", "-"], gid=gid, version=0, waiting=[0], server=i % len(self.bases))
                for i, gid in enumerate(body["ids"])]

    async def new_game(self, slot: Slot) -> None:  # baseline games never end
        slot.status = "running"

    async def refresh(self, slot: Slot) -> bool:
        st, body, _ = await self.call(slot, "GET", f"/api/games/{slot.gid}/legal")
        if st != 200:
            return False
        slot.version, slot.waiting = body["version"], [body["seat"]]
        return True


# ---------------------------------------------------------------------------- the run


@dataclass
class Options:
    games: int = 200
    spectators: int = 500
    duration: float = 20.0
    warmup: float = 3.0
    rate: float = 200.0
    seed: int = 1
    kill_every: float = 0.0
    restart_after: float = 1.0
    pg_restart_cmd: str = ""
    pg_restart_at: float = 0.0
    grace: float = 3.0
    timeout: float = 10.0
    #: spectators per source address (127.0.x.y); 0: all from the default address
    per_address: int = 30
    #: spectators that start connecting per second (0: all at once)
    arrive_per_second: float = 1000.0


class Run:
    def __init__(self, target: Target, slots: list[Slot], opts: Options,
                 servers: list[ServerProc] | None = None) -> None:
        self.t = target
        self.slots = slots
        self.o = opts
        self.rec = target.rec
        self.servers = servers or []
        self.rng = random.Random(opts.seed)
        self.stop_players = asyncio.Event()
        self.stop_sockets = asyncio.Event()
        self.faults: list[str] = []

    def count(self, what: str) -> None:
        self.rec.counts[what] += 1

    async def player(self, slot: Slot, start: float, stop_at: float) -> None:
        o, rec, t = self.o, self.rec, self.t
        rng = random.Random(self.rng.random())
        interval = len(self.slots) / o.rate if o.rate > 0 else 0.0
        next_at = start + rng.random() * interval
        while True:
            now = time.perf_counter()
            if now >= stop_at:
                return
            if interval:
                if next_at > now:
                    await asyncio.sleep(min(next_at, stop_at) - now)
                    if time.perf_counter() >= stop_at:
                        return
                # no bursts to catch up: at most one action late
                next_at = max(next_at + interval, time.perf_counter() - interval)
            if slot.status == "finished":
                self.count("games_finished")
                await t.new_game(slot)
                continue
            if not slot.waiting:
                if not await t.refresh(slot):
                    await self.failed(slot, 0)
                continue
            seat = slot.waiting[0]
            t0 = time.perf_counter()
            st, body, headers = await t.fast(slot, "GET", f"/api/games/{slot.gid}/legal",
                                             slot.tokens[seat])
            t1 = time.perf_counter()
            if st != 200:
                await self.failed(slot, st, headers)
                continue
            if rec.measuring:
                rec.legal_ms.append((t1 - t0) * 1000)
            if body["version"] != slot.version or not body["actions"]:
                await t.refresh(slot)
                continue
            action = rng.choice(body["actions"])
            t1 = time.perf_counter()
            st, body, headers = await t.fast(slot, "POST", f"/api/games/{slot.gid}/actions",
                                             slot.tokens[seat],
                                             {"version": slot.version, "action": action})
            t2 = time.perf_counter()
            if st == 200:
                rec.ack(slot.gid, body["version"], seat, action, t2, (t2 - t1) * 1000)
                slot.version, slot.waiting = body["version"], body["waiting_for"]
                slot.status = body["status"]
            else:
                await self.failed(slot, st, headers)

    async def failed(self, slot: Slot, status: int, headers=None) -> None:
        if status == 409:
            self.count("http_409_conflict")
        elif status == 429:
            self.count("http_429_rate_limited")
            await asyncio.sleep(float((headers or {}).get("retry-after", "1")))
        elif status in (0, 502, 503):
            self.count("unavailable" if status == 0 else f"http_{status}")
            if len(self.t.bases) > 1:
                slot.server += 1  # fail over to another process
            await asyncio.sleep(0.1 + random.random() * 0.2)
        else:
            self.count(f"http_{status}")
            await asyncio.sleep(0.05)
        with contextlib.suppress(Exception):
            await self.t.refresh(slot)

    def address_of(self, i: int) -> str | None:
        """Spectator ``i``'s source address: 127.0.x.y (all of 127/8 is this machine), so the
        server's per-address socket cap can stay on."""
        if not self.o.per_address:
            return None
        k = i // self.o.per_address
        return f"127.0.{1 + k // 254}.{1 + k % 254}"

    async def pause(self, seconds: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.stop_sockets.wait(), seconds)

    async def spectator(self, i: int, slot: Slot) -> None:
        """One anonymous socket watching a slot's game; reconnects (``?after=``) on failure
        like the browser client (static/js/live.js): a growing, jittered delay, and after a
        4503 refusal (the server sheds spectators) the server's ``retry_after``, jittered and
        growing with each refusal in a row."""
        rec = self.rec
        server = i
        attempt = shed = 0
        extra = {"local_addr": (addr, 0)} if (addr := self.address_of(i)) else {}
        while not self.stop_sockets.is_set():
            generation, gid, changed = slot.generation, slot.gid, slot.changed
            box = {"last": None, "counted": False}
            while not self.stop_sockets.is_set() and slot.generation == generation:
                try:
                    async with connect(self.t.ws_url(slot, box["last"], server),
                                       open_timeout=10, close_timeout=1, max_size=2**23,
                                       max_queue=None, **extra) as ws:
                        hello = orjson.loads(await ws.recv(decode=False))
                        if hello.get("type") == "error":
                            error = hello.get("error") or {}
                            if error.get("code") in ("crowded", "server_busy"):
                                self.count("ws_shed")  # refused, told when to come back
                                wait = max(5.0, float(error.get("retry_after") or 15))
                                wait *= 1.5 ** min(shed, 6) * (0.75 + random.random() * 0.5)
                                shed += 1
                                rec.shed_now.add(i)
                                await self.pause(wait)
                                continue
                            self.count(f"ws_refused_{error.get('code')}")
                            raise ConnectionError(f"refused: {error}")
                        if hello.get("type") != "hello":
                            self.count("ws_bad_hello")
                        attempt = shed = 0
                        rec.shed_now.discard(i)
                        rec.admitted.add(i)
                        if box["last"] is None:
                            box["last"] = hello.get("version", -1)
                        if not box["counted"]:
                            box["counted"] = True
                            rec.watchers[gid] += 1
                            rec.watch_since[gid] = time.perf_counter()
                        reader = asyncio.ensure_future(self._read(ws, gid, box))
                        stops = [asyncio.ensure_future(self.stop_sockets.wait()),
                                 asyncio.ensure_future(changed.wait())]
                        await asyncio.wait([reader, *stops],
                                           return_when=asyncio.FIRST_COMPLETED)
                        for f in stops:
                            f.cancel()
                        if not reader.done():  # stopping, or the slot has a new game
                            reader.cancel()
                            with contextlib.suppress(BaseException):
                                await reader
                            continue
                        raise ConnectionError("the server closed the socket")
                except (TimeoutError, ConnectionClosed, ConnectionError, OSError, InvalidStatus) as exc:
                    if self.stop_sockets.is_set():
                        break
                    self.count("ws_reconnects")
                    if isinstance(exc, InvalidStatus):
                        self.count("ws_refused")
                    server += 1
                    await self.pause(min(10.0, 0.4 * 2 ** attempt) *
                                     (0.75 + random.random() * 0.5))
                    attempt += 1
            if slot.generation == generation and not self.stop_sockets.is_set():
                await asyncio.wait([asyncio.ensure_future(self.stop_sockets.wait()),
                                    asyncio.ensure_future(changed.wait())],
                                   return_when=asyncio.FIRST_COMPLETED)

    async def _read(self, ws, gid: int, box: dict) -> None:
        rec = self.rec
        with contextlib.suppress(ConnectionClosed):
            while True:
                raw = await ws.recv(decode=False)
                m = STATE_RE.match(raw)
                if m is None:
                    msg = orjson.loads(raw)
                    if msg.get("type") == "error":
                        self.count("ws_error_message")
                    continue
                v = int(m.group(1))
                last = box["last"]
                if v <= last:
                    self.count("ws_duplicate")
                    continue
                if v != last + 1 and not raw.startswith(b'"full":true', m.end()):
                    self.count("ws_gap")
                box["last"] = v
                rec.got(gid, v, time.perf_counter())

    async def chaos(self, start: float, stop_at: float) -> None:
        """Kill -9 and restart servers, restart PostgreSQL, on schedule."""
        o = self.o
        tasks = []
        if o.pg_restart_cmd:
            async def pg():
                await asyncio.sleep(max(0.0, start + o.pg_restart_at - time.perf_counter()))
                t0 = time.perf_counter()
                proc = await asyncio.create_subprocess_shell(
                    o.pg_restart_cmd, stdout=asyncio.subprocess.DEVNULL,
                    stderr=asyncio.subprocess.DEVNULL)
                rc = await proc.wait()
                self.faults.append(f"postgres restarted at {t0 - start:.1f}s "
                                   f"(took {time.perf_counter() - t0:.1f}s, exit {rc})")
            tasks.append(asyncio.create_task(pg()))
        if o.kill_every and self.servers:
            async def kills():
                k = 0
                while True:
                    wait = start + o.kill_every * (k + 1) - time.perf_counter()
                    if time.perf_counter() + wait >= stop_at - o.restart_after - 1:
                        return
                    await asyncio.sleep(wait)
                    srv = self.servers[k % len(self.servers)]
                    srv.kill9()
                    self.faults.append(f"kill -9 {srv.kind}:{srv.port} at "
                                       f"{time.perf_counter() - start:.1f}s")
                    await asyncio.sleep(o.restart_after)
                    srv.start()
                    await srv.ready()
                    k += 1
            tasks.append(asyncio.create_task(kills()))
        if tasks:
            await asyncio.gather(*tasks)

    async def go(self) -> dict:
        o, rec = self.o, self.rec
        spect = []
        # a crowd arrives over a few seconds (--arrive-per-second), not in one instant: all
        # at once would only measure the kernel's accept queue
        for i in range(o.spectators):
            slot = self.slots[i % len(self.slots)]
            spect.append(asyncio.create_task(self.spectator(i, slot)))
            if o.arrive_per_second and i % 100 == 99:
                await asyncio.sleep(100 / o.arrive_per_second)
        # let the sockets connect before the clock starts
        await asyncio.sleep(min(5.0, 0.5 + o.spectators / 500))
        start = time.perf_counter()
        stop_at = start + o.warmup + o.duration
        players = [asyncio.create_task(self.player(s, start, stop_at)) for s in self.slots]
        chaos = asyncio.create_task(self.chaos(start, stop_at))
        await asyncio.sleep(o.warmup)
        rec.measuring = True
        counts_before = collections.Counter(rec.counts)
        pgids = [s.proc.pid for s in self.servers if s.proc]
        cpu0, client0, psi0 = group_cpu(pgids), own_cpu(), cpu_pressure()
        db0 = group_cpu([], b"postgres")
        t_measure = time.perf_counter()
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        rec.measuring = False
        elapsed = time.perf_counter() - t_measure
        server_cpu = group_cpu(pgids) - cpu0
        db_cpu = group_cpu([], b"postgres") - db0
        rss = group_rss_mb(pgids) if pgids else None
        client_cpu = own_cpu() - client0
        psi1 = cpu_pressure()
        stall = round((psi1 - psi0) / 1e6 / elapsed, 2) if psi0 is not None and psi1 else None
        await asyncio.gather(*players, return_exceptions=True)
        with contextlib.suppress(Exception):
            await chaos
        await asyncio.sleep(o.grace)  # the last versions reach the sockets
        self.stop_sockets.set()
        await asyncio.gather(*spect, return_exceptions=True)
        delays, missed = rec.fanout()
        counts = rec.counts - counts_before
        players = sum(v for k, v in counts.items() if k.startswith("http_") or k == "unavailable")
        spectators = sum(v for k, v in counts.items() if k.startswith("ws_") and k != "ws_shed")
        return {
            "target": self.t.name,
            "games": len(self.slots), "spectators": o.spectators,
            "rate_target": o.rate, "seconds": round(elapsed, 1),
            "accepted": rec.accepted,
            "actions_per_s": round(rec.accepted / elapsed, 1),
            "action_ms": {"p50": pct(rec.action_ms, 50), "p95": pct(rec.action_ms, 95),
                          "p99": pct(rec.action_ms, 99), "max": pct(rec.action_ms, 100)},
            "legal_ms": {"p50": pct(rec.legal_ms, 50), "p99": pct(rec.legal_ms, 99)},
            "fanout_ms": {"p50": pct(delays, 50), "p95": pct(delays, 95),
                          "p99": pct(delays, 99), "max": pct(delays, 100)},
            "fanout_missed": missed,
            "counts": dict(counts),
            "errors": players + spectators + missed,
            # the players' errors (their POSTs and GET /legal) apart from the spectators'
            # (reconnects, gaps, bad hellos; a 4503 refusal is shedding, counted apart)
            "player_errors": players,
            "spectator_errors": spectators,
            "spectators_admitted": len(rec.admitted),
            "spectators_shed_at_end": len(rec.shed_now),
            "shed_refusals": counts.get("ws_shed", 0),
            "faults": self.faults,
            # CPU seconds per second of the measured window (2.0 = both cores busy)
            "server_cpu": round(server_cpu / elapsed, 2) if pgids else None,
            "client_cpu": round(client_cpu / elapsed, 2),
            # every postgres process of the machine (the database server, when it is local)
            "db_cpu": round(db_cpu / elapsed, 2),
            # share of the time some runnable task waited for a CPU (machine-wide PSI)
            "cpu_stall": stall,
            "server_rss_mb": rss,
            "server_cpu_ms_per_action": (round(server_cpu * 1000 / rec.accepted, 2)
                                         if pgids and rec.accepted else None),
        }


# ---------------------------------------------------------------------------- verification


async def verify_ours(db_url: str, rec: Recorder) -> dict:
    """Every acknowledged action is stored as acknowledged; every game replays to its state."""
    import asyncpg

    import engine
    from engine.core.state import canonical_json

    conn = await asyncpg.connect(asyncpg_dsn(db_url))
    try:
        rows = await conn.fetch("SELECT game_id, version, seat, action::text AS action "
                                "FROM actions")
        games = await conn.fetch("SELECT id, game, seat_count, options::text AS options, seed, "
                                 "version, status, state::text AS state, "
                                 "waiting_for::text AS waiting FROM games WHERE state IS NOT NULL")
    finally:
        await conn.close()
    stored = {(r["game_id"], r["version"]): (r["seat"], orjson.loads(r["action"])) for r in rows}
    missing = mismatched = 0
    for key, (_t, seat, action, _m) in rec.acks.items():
        got = stored.get(key)
        if got is None:
            missing += 1
        elif got[0] != seat or canonical_json(got[1]) != canonical_json(action):
            mismatched += 1
    logs: dict[int, list] = collections.defaultdict(list)
    for (gid, version), (seat, action) in sorted(stored.items()):
        logs[gid].append((version, seat, action))
    bad_replay, stuck, holes = [], [], []
    for g in games:
        log = logs.get(g["id"], [])
        if [v for v, _s, _a in log] != list(range(1, g["version"] + 1)):
            holes.append(g["id"])
            continue
        game = engine.get_game(g["game"])
        final = engine.replay(g["game"], g["seat_count"], orjson.loads(g["options"]), g["seed"],
                              [(s, a) for _v, s, a in log])
        state = game.load(orjson.loads(g["state"]))
        if game.state_hash(final) != game.state_hash(state):
            bad_replay.append(g["id"])
        if g["status"] == "running" and not orjson.loads(g["waiting"]):
            stuck.append(g["id"])
    return {"acked": len(rec.acks), "found": len(rec.acks) - missing, "missing": missing,
            "mismatched": mismatched, "unacked_but_stored": len(stored) - (len(rec.acks) - missing),
            "games": len(games), "replay_mismatch": bad_replay, "stuck": stuck,
            "log_holes": holes}


async def verify_baseline(db_url: str, rec: Recorder) -> dict:
    import asyncpg

    conn = await asyncpg.connect(asyncpg_dsn(db_url))
    try:
        rows = await conn.fetch("SELECT game_id, version FROM baseline_actions")
    finally:
        await conn.close()
    stored = {(r["game_id"], r["version"]) for r in rows}
    missing = sum(1 for key in rec.acks if key not in stored)
    return {"acked": len(rec.acks), "found": len(rec.acks) - missing, "missing": missing}


# ---------------------------------------------------------------------------- main


async def create_database(admin_url: str) -> str:
    import asyncpg
    from sqlalchemy.engine import make_url

    name = f"menagerie_load_{os.getpid()}_{secrets.token_hex(3)}"
    conn = await asyncpg.connect(asyncpg_dsn(admin_url))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


async def drop_database(admin_url: str, url: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    conn = await asyncpg.connect(asyncpg_dsn(admin_url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def run_target(kind: str, args, opts: Options, db_url: str | None,
                     log_dir: Path, extra_env: dict | None = None) -> dict:
    rec = Recorder()
    servers: list[ServerProc] = []
    if kind == "menagerie" and args.url:
        bases = [u.rstrip("/") for u in args.url.split(",")]
    else:
        assert db_url is not None
        env = {} if kind == "baseline" else {
            "MENAGERIE_ACCESS_LOG": "true" if args.access_log else "false", **(extra_env or {})}
        servers = [ServerProc(kind, db_url, args.workers, env, log_dir, f"{kind}{i}")
                   for i in range(args.servers)]
        for s in servers:
            s.start()
        await asyncio.gather(*(s.ready() for s in servers))
        bases = [s.base for s in servers]
    limits = httpx.Limits(max_connections=max(50, args.games * 2),
                          max_keepalive_connections=max(50, args.games * 2))
    try:
        async with httpx.AsyncClient(limits=limits, timeout=opts.timeout) as client:
            target = (Ours if kind == "menagerie" else Baseline)(bases, client, rec)
            t0 = time.perf_counter()
            slots = await target.setup(args.games, secrets.token_hex(3))
            setup_s = time.perf_counter() - t0
            results = []
            busy = (await start_analysis(client, bases[0])
                    if kind == "menagerie" and args.analysis else None)
            for rate in args.rates:
                o = Options(**{**opts.__dict__, "rate": rate})
                run = Run(target, slots, o, servers)
                rec.new_phase()
                before = await analysis_state(client, bases[0], busy) if busy else None
                res = await run.go()
                if busy:
                    after = await analysis_state(client, bases[0], busy)
                    res["analysis"] = {"status_after": after["status"],
                                       "done_before": before["done"], "done_after": after["done"],
                                       "total": after["total"]}
                res["setup_s"] = round(setup_s, 1)
                res["workers"] = args.workers
                res["servers"] = len(bases)
                results.append(res)
                print(line(res), flush=True)
        out = {"phases": results, "health_after": []}
        async with httpx.AsyncClient(timeout=5) as c:
            for base in bases:
                try:
                    out["health_after"].append((await c.get(base + "/healthz")).json())
                except Exception as exc:  # noqa: BLE001 - reported, judged by the caller
                    out["health_after"].append({"error": repr(exc)})
        if args.verify and db_url is not None:
            out["verify"] = await (verify_ours if kind == "menagerie" else verify_baseline)(
                db_url, rec)
            print(f"  verify {kind}: {json.dumps(out['verify'])}", flush=True)
        return out
    finally:
        for s in servers:
            s.stop()


async def start_analysis(client: httpx.AsyncClient, base: str) -> dict:
    """``--analysis``: a finished Ark Nova game imported and its analysis requested; returns
    once the worker process is computing it."""
    from tests.arkrecord import greedy_record

    name = f"an{secrets.token_hex(4)}"
    r = await client.post(base + "/api/auth/register",
                          json={"username": name, "password": PASSWORD})
    r.raise_for_status()
    token = r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    record = await asyncio.to_thread(greedy_record, "load-analysis")
    r = await client.post(base + "/api/games/import", json=record, headers=headers)
    r.raise_for_status()
    busy = {"id": r.json()["id"], "headers": headers}
    r = await client.post(base + f"/api/games/{busy['id']}/analysis", headers=headers)
    r.raise_for_status()
    for _ in range(1200):
        state = await analysis_state(client, base, busy)
        if state["status"] == "running" and state["done"]:
            print(f"  analysis of game {busy['id']} running: {state['done']}/{state['total']}",
                  flush=True)
            return busy
        await asyncio.sleep(0.1)
    raise SystemExit("the analysis did not start within 120 s")


async def analysis_state(client: httpx.AsyncClient, base: str, busy: dict) -> dict:
    r = await client.get(base + f"/api/games/{busy['id']}/analysis", headers=busy["headers"])
    r.raise_for_status()
    return r.json()


def line(r: dict) -> str:
    a, f = r["action_ms"], r["fanout_ms"]
    counts = ", ".join(f"{k}={v}" for k, v in sorted(r["counts"].items())) or "none"
    rate = "max" if not r["rate_target"] else f"{r['rate_target']:g}/s"
    return (f"{r['target']:9s} rate {rate:>7s}  games {r['games']} spectators "
            f"{r['spectators']} (admitted {r['spectators_admitted']}, shed at the end "
            f"{r['spectators_shed_at_end']}, refusals {r['shed_refusals']})  errors: players "
            f"{r['player_errors']} spectators {r['spectator_errors']}  "
            f"accepted {r['actions_per_s']}/s  action p50 {a['p50']} p95 "
            f"{a['p95']} p99 {a['p99']} ms  legal p99 {r['legal_ms']['p99']} ms  fan-out p50 "
            f"{f['p50']} p99 {f['p99']} ms  missed {r['fanout_missed']}  server cpu "
            f"{r['server_cpu']} ({r['server_cpu_ms_per_action']} ms/action) client cpu "
            f"{r['client_cpu']} db cpu {r['db_cpu']} cpu stall {r['cpu_stall']}  rss {r['server_rss_mb']} MB  "
            f"events: {counts}"
            + (f"  faults: {'; '.join(r['faults'])}" if r["faults"] else "")
            + (f"  analysis: {r['analysis']['done_before']}->{r['analysis']['done_after']}/"
               f"{r['analysis']['total']} decisions, {r['analysis']['status_after']} at the end"
               if r.get("analysis") else ""))


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--spectators", type=int, default=500)
    p.add_argument("--rate", default="200",
                   help="total actions/s to offer; 0 = as fast as possible; a comma list "
                        "runs one phase per rate (e.g. 200,0)")
    p.add_argument("--duration", type=float, default=20.0, help="measured seconds per phase")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--targets", default="menagerie,baseline",
                   help="menagerie, baseline or both (the same client loop)")
    p.add_argument("--workers", type=int, default=1, help="uvicorn workers per server process")
    p.add_argument("--servers", type=int, default=1, help="server processes (own ports)")
    p.add_argument("--url", help="use a running Menagerie (comma list) instead of starting one")
    p.add_argument("--db", default=os.environ.get("TEST_POSTGRES_URL"),
                   help="PostgreSQL URL whose server gets a throwaway database "
                        "(default TEST_POSTGRES_URL)")
    p.add_argument("--keep-db", action="store_true")
    p.add_argument("--access-log", action="store_true", help="keep the JSON access log on")
    p.add_argument("--kill-every", type=float, default=0.0)
    p.add_argument("--restart-after", type=float, default=1.0)
    p.add_argument("--pg-restart-cmd", default="")
    p.add_argument("--pg-restart-at", type=float, default=5.0)
    p.add_argument("--no-verify", dest="verify", action="store_false")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--grace", type=float, default=3.0,
                   help="seconds the sockets get after the last move to receive it")
    p.add_argument("--json", action="store_true")
    p.add_argument("--per-address", type=int, default=30,
                   help="spectators per source address 127.0.x.y (the server's per-address "
                        "socket cap stays on); 0: all from 127.0.0.1")
    p.add_argument("--arrive-per-second", type=float, default=1000.0,
                   help="spectators that start connecting per second (0: all at once)")
    p.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                   help="an environment variable for the servers started, e.g. "
                        "MENAGERIE_WS_SPECTATOR_LIMIT=4000 (repeatable)")
    p.add_argument("--analysis", action="store_true",
                   help="keep a post-game analysis running during the phases (see above)")
    args = p.parse_args(argv)
    args.rates = [float(x) for x in args.rate.split(",")]
    args.targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    if args.games < 1 or args.games > 2000 or args.spectators > 20000 or args.duration > 600:
        p.error("bounded: at most 2000 games, 20000 spectators, 600 s per phase")
    args.server_env = dict(kv.split("=", 1) for kv in args.server_env)
    return args


def options_of(args) -> Options:
    return Options(games=args.games, spectators=args.spectators, duration=args.duration,
                   warmup=args.warmup, seed=args.seed, kill_every=args.kill_every,
                   restart_after=args.restart_after, pg_restart_cmd=args.pg_restart_cmd,
                   pg_restart_at=args.pg_restart_at, grace=args.grace,
                   per_address=args.per_address, arrive_per_second=args.arrive_per_second)


async def run_menagerie(db_url: str, argv: list[str], extra_env: dict | None = None) -> dict:
    """One run against Menagerie servers started on ``db_url`` (migrated); for the tests."""
    args = parse_args([*argv, "--targets", "menagerie"])
    log_dir = Path(tempfile.mkdtemp(prefix="menagerie-load-"))
    out = await run_target("menagerie", args, options_of(args), db_url, log_dir, extra_env)
    out["logs"] = str(log_dir)
    return out


async def amain(args) -> dict:
    opts = Options(games=args.games, spectators=args.spectators, duration=args.duration,
                   warmup=args.warmup, seed=args.seed, kill_every=args.kill_every,
                   restart_after=args.restart_after, pg_restart_cmd=args.pg_restart_cmd,
                   pg_restart_at=args.pg_restart_at, per_address=args.per_address,
                   arrive_per_second=args.arrive_per_second)
    log_dir = Path(tempfile.mkdtemp(prefix="menagerie-load-"))
    report: dict = {"args": {k: v for k, v in vars(args).items() if k != "db"},
                    "logs": str(log_dir)}
    db_url = None
    if not args.url or "baseline" in args.targets:
        if not args.db:
            raise SystemExit("set TEST_POSTGRES_URL or --db (a PostgreSQL server to use)")
        db_url = await create_database(args.db)
        from app.migrate import upgrade

        await upgrade(db_url)
    try:
        for kind in args.targets:
            if kind == "baseline" and args.url:
                pass
            report[kind] = await run_target(kind, args, opts, db_url, log_dir,
                                            args.server_env)
    finally:
        if db_url and not args.keep_db:
            with contextlib.suppress(Exception):
                await drop_database(args.db, db_url)
    if "menagerie" in report and "baseline" in report:
        ratios = []
        for ours, base in zip(report["menagerie"]["phases"], report["baseline"]["phases"]):
            r = round(ours["actions_per_s"] / base["actions_per_s"], 2) if base[
                "actions_per_s"] else None
            ratios.append(r)
            rate = "max" if not ours["rate_target"] else f"{ours['rate_target']:g}/s"
            print(f"ours/baseline at rate {rate}: throughput {r}  (action p99 "
                  f"{ours['action_ms']['p99']} vs {base['action_ms']['p99']} ms)")
        report["ratio"] = ratios
    return report


def failed(report: dict, faults: bool) -> bool:
    bad = False
    v = report.get("menagerie", {}).get("verify")
    if v and (v["missing"] or v["mismatched"] or v["replay_mismatch"] or v["stuck"]
              or v["log_holes"]):
        bad = True
    for kind in ("menagerie", "baseline"):
        for ph in report.get(kind, {}).get("phases", []):
            if ph["errors"] and not faults:
                bad = True
    return bad


def raise_open_files() -> None:
    """Thousands of sockets: the soft limit of open files up to the hard one (this process
    and the servers it starts)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_open_files()
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    report = asyncio.run(amain(args))
    if args.json:
        print(json.dumps(report, indent=2))
    return 1 if failed(report, bool(args.kill_every or args.pg_restart_cmd)) else 0


if __name__ == "__main__":
    sys.exit(main())
