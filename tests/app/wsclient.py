"""A small WebSocket test client (websockets' asyncio client)."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect


class Socket:
    def __init__(self, ws) -> None:
        self.ws = ws
        self.raw: list[str] = []

    @classmethod
    async def open(cls, host: str, gid, token: str | None = None, query: str = "",
                   **kw) -> "Socket":
        params = []
        if token:
            params.append(f"token={token}")
        if query:
            params.append(query)
        url = f"ws://{host}/api/games/{gid}/ws" + ("?" + "&".join(params) if params else "")
        return cls(await connect(url, open_timeout=5, **kw))

    async def recv(self, timeout: float = 5.0) -> dict:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        return json.loads(text)

    async def recv_type(self, kind: str, timeout: float = 5.0) -> tuple[dict, list[dict]]:
        """Read until a message of ``kind``; returns it and the messages read before it."""
        before = []
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == kind:
                return msg, before
            before.append(msg)

    async def states_until(self, version: int, timeout: float = 5.0) -> list[dict]:
        """Read state messages until one for ``version`` arrives."""
        out = []
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == "state":
                out.append(msg)
                if msg["version"] >= version:
                    return out

    async def nothing(self, wait: float = 0.3) -> None:
        try:
            msg = await asyncio.wait_for(self.ws.recv(), wait)
        except asyncio.TimeoutError:
            return
        raise AssertionError(f"unexpected message {msg}")

    async def send(self, data) -> None:
        await self.ws.send(data if isinstance(data, (str, bytes)) else json.dumps(data))

    async def close(self) -> None:
        await self.ws.close()
