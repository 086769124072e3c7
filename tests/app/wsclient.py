"""A small WebSocket test client (websockets' asyncio client)."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect

from app.auth import COOKIE

#: how long a read waits for a message that is due: only a bound for a failure (a message that
#: never comes), generous so that a loaded 2-core machine is slower, not red
READ_WAIT = 30.0


class Socket:
    def __init__(self, ws) -> None:
        self.ws = ws
        self.raw: list[str] = []

    @classmethod
    async def open(cls, host: str, gid, token: str | None = None, query: str = "",
                   via: str = "header", **kw) -> Socket:
        """Open a game socket; ``token`` goes ``via`` the ``Authorization`` header (default),
        the first message (``"message"``: ``?auth=message`` then ``{"type": "auth"}``), the
        login cookie (``"cookie"``, with this site's ``Origin``) or, to show that it is
        refused, the URL (``"url"``)."""
        return await cls.open_path(host, f"/api/games/{gid}/ws", token, query, via, **kw)

    @classmethod
    async def open_path(cls, host: str, path: str, token: str | None = None, query: str = "",
                        via: str = "header", **kw) -> Socket:
        params = [query] if query else []
        headers = dict(kw.pop("additional_headers", None) or {})
        if token and via == "header":
            headers["Authorization"] = f"Bearer {token}"
        elif token and via == "cookie":
            headers["Cookie"] = f"{COOKIE}={token}"
            headers.setdefault("Origin", f"http://{host}")
        elif token and via == "message":
            params.append("auth=message")
        elif token and via == "url":
            params.append(f"token={token}")
        url = f"ws://{host}{path}" + ("?" + "&".join(params) if params else "")
        sock = cls(await connect(url, open_timeout=READ_WAIT, additional_headers=headers or None, **kw))
        if token and via == "message":
            await sock.send({"type": "auth", "token": token})
        return sock

    async def recv(self, timeout: float = READ_WAIT) -> dict:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        return json.loads(text)

    async def recv_type(self, kind: str, timeout: float = READ_WAIT) -> tuple[dict, list[dict]]:
        """Read until a message of ``kind``; returns it and the messages read before it."""
        before = []
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == kind:
                return msg, before
            before.append(msg)

    async def states_until(self, version: int, timeout: float = READ_WAIT) -> list[dict]:
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
        except TimeoutError:
            return
        raise AssertionError(f"unexpected message {msg}")

    async def send(self, data) -> None:
        await self.ws.send(data if isinstance(data, (str, bytes)) else json.dumps(data))

    async def close(self) -> None:
        await self.ws.close()
