"""The per-game slot, the recorder of the figures, and a lean keep-alive HTTP client."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from dataclasses import dataclass, field


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
