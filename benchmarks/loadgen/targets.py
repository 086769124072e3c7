"""The HTTP side of each server kind (Menagerie, the baseline), with failover."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson

from .client import RawHttp, Recorder, Slot
from .measure import PASSWORD


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
