"""One measured phase: the scripted players, the spectator sockets, the faults, the figures."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import random
import time
from dataclasses import dataclass

import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .client import Slot
from .measure import STATE_RE, ServerProc, cpu_pressure, group_cpu, group_rss_mb, own_cpu, pct
from .targets import Target


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
