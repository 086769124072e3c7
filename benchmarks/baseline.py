"""The baseline for ``benchmarks/load.py``: a bare FastAPI service doing one comparable
transaction per action on the same PostgreSQL database, with the same driver stack
(SQLAlchemy async engine + asyncpg) and the same announcement path (``pg_notify`` in the
transaction, one LISTEN connection per process, in-process fan-out to WebSocket sockets).

It has none of Menagerie's work: no authentication, no engine (no state to load, check, apply
or dump), no views, no per-viewer filtering. What is left is what any server answering the same
client loop must do: read the game for ``/legal``, and for an action lock the game row, compare
the version, insert the action row, update the game row, commit, announce, and push one message
(about the size of an Ark Nova public view, encoded once per version) to each spectator socket.

    python benchmarks/baseline.py --port 8200 --db postgresql+asyncpg://... [--workers 2]

``load.py --baseline`` (the default) starts it by itself; the routes mirror Menagerie's:

- ``POST /api/baseline/setup {"games": N}`` -> ``{"ids": [...]}`` (creates the tables if needed)
- ``GET  /api/games/{id}/legal`` -> ``{"version", "seat", "actions"}``
- ``POST /api/games/{id}/actions {"version", "action"}`` -> ``{"version", "waiting_for",
  "events", "status"}``; 409 ``stale_version`` otherwise
- ``WS   /api/games/{id}/ws?after=N`` -> ``hello``, then ``{"type": "state", "version", ...}``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
from typing import Any

import orjson
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import Response
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

CHANNEL = "menagerie_baseline"
#: a stand-in for the public view (the size of an Ark Nova public view, ~4.5 kB)
PAYLOAD = orjson.dumps({"board": [{"slot": i, "card": f"card-{i:04d}", "tokens": [1, 2, 3]}
                                  for i in range(110)]})
SCHEMA = [
    "CREATE TABLE IF NOT EXISTS baseline_games (id BIGSERIAL PRIMARY KEY, version INTEGER NOT "
    "NULL DEFAULT 0, waiting INTEGER NOT NULL DEFAULT 0, updated_at TIMESTAMPTZ NOT NULL "
    "DEFAULT now())",
    "CREATE TABLE IF NOT EXISTS baseline_actions (id BIGSERIAL PRIMARY KEY, game_id BIGINT NOT "
    "NULL REFERENCES baseline_games(id) ON DELETE CASCADE, version INTEGER NOT NULL, seat "
    "INTEGER NOT NULL, action JSON NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), "
    "UNIQUE (game_id, version))",
]


def json_response(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json")


def create_app(db_url: str | None = None) -> FastAPI:
    db_url = db_url or os.environ["BASELINE_DATABASE_URL"]
    engine = create_async_engine(db_url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    sockets: dict[int, set[WebSocket]] = {}
    frames: dict[tuple[int, int], str] = {}

    def frame(game_id: int, version: int) -> str:
        key = (game_id, version)
        text_ = frames.get(key)
        if text_ is None:  # encoded once per version, shared by every socket
            text_ = (b'{"type":"state","version":%d,"view":{"public":' % version + PAYLOAD +
                     b',"private":null},"events":[],"status":"running","waiting_for":[%d]}'
                     % (version % 2)).decode()
            frames[key] = text_
            if len(frames) > 4096:
                frames.pop(next(iter(frames)))
        return text_

    async def deliver(game_id: int, version: int) -> None:
        conns = sockets.get(game_id)
        if not conns:
            return
        message = frame(game_id, version)
        await asyncio.gather(*(_send(ws, version, message) for ws in list(conns)))

    async def _send(ws: WebSocket, version: int, message: str) -> None:
        state = ws.state.baseline
        async with state["lock"]:  # after the hello, in order, each version once
            if version <= state["last"]:
                return
            state["last"] = version
            with contextlib.suppress(Exception):
                await ws.send_text(message)

    listener: dict[str, Any] = {}

    async def listen() -> None:
        import asyncpg
        from sqlalchemy.engine import make_url

        dsn = make_url(db_url).set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                conn = await asyncpg.connect(dsn)

                def on_notify(_c, _pid, _ch, payload: str) -> None:
                    gid, v = (int(x) for x in payload.split(":"))
                    asyncio.get_running_loop().create_task(deliver(gid, v))

                await conn.add_listener(CHANNEL, on_notify)
                listener["conn"] = conn
                while not conn.is_closed():
                    await asyncio.sleep(1)
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(0.5)

    app = FastAPI()

    @app.on_event("startup")
    async def _start() -> None:
        listener["task"] = asyncio.create_task(listen())

    @app.on_event("shutdown")
    async def _stop() -> None:
        listener["task"].cancel()
        with contextlib.suppress(BaseException):
            await listener["task"]
        await engine.dispose()

    @app.get("/healthz")
    async def healthz():
        return json_response({"status": "ok"})

    @app.post("/api/baseline/setup")
    async def setup(request: Request):
        body = orjson.loads(await request.body())
        async with engine.begin() as conn:
            for statement in SCHEMA:
                await conn.execute(text(statement))
            ids = (await conn.execute(text(
                "INSERT INTO baseline_games (version) SELECT 0 FROM generate_series(1, :n) "
                "RETURNING id"), {"n": int(body["games"])})).scalars().all()
        return json_response({"ids": ids})

    @app.get("/api/games/{game_id}/legal")
    async def legal(game_id: int):
        async with engine.connect() as conn:
            row = (await conn.execute(text(
                "SELECT version, waiting FROM baseline_games WHERE id = :id"),
                {"id": game_id})).first()
        if row is None:
            return json_response({"error": {"code": "not_found", "message": "No such game."}},
                                 404)
        return json_response({"version": row.version, "seat": row.waiting,
                              "actions": [{"type": "pick", "n": n} for n in range(10)]})

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: int, request: Request):
        body = orjson.loads(await request.body())
        version, action = body["version"], body["action"]
        async with engine.connect() as conn:
            async with conn.begin():
                row = (await conn.execute(text(
                    "SELECT version, waiting FROM baseline_games WHERE id = :id FOR UPDATE"),
                    {"id": game_id})).first()
                if row is None or row.version != version:
                    return json_response({"error": {"code": "stale_version",
                                                    "message": "stale"}}, 409)
                new = version + 1
                await conn.execute(text(
                    "INSERT INTO baseline_actions (game_id, version, seat, action) "
                    "VALUES (:g, :v, :s, :a)"),
                    {"g": game_id, "v": new, "s": row.waiting,
                     "a": orjson.dumps(action).decode()})
                await conn.execute(text(
                    "UPDATE baseline_games SET version = :v, waiting = :w, updated_at = now() "
                    "WHERE id = :id"), {"v": new, "w": 1 - row.waiting, "id": game_id})
                await conn.execute(text("SELECT pg_notify(:c, :p)"),
                                   {"c": CHANNEL, "p": f"{game_id}:{new}"})
        return json_response({"version": new, "waiting_for": [1 - row.waiting], "events": [],
                              "status": "running"})

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(sock: WebSocket, game_id: int):
        await sock.accept()
        state = sock.state.baseline = {"lock": asyncio.Lock(), "last": 1 << 62}
        sockets.setdefault(game_id, set()).add(sock)
        try:
            async with state["lock"]:
                async with engine.connect() as conn:
                    version = (await conn.execute(text(
                        "SELECT version FROM baseline_games WHERE id = :id"),
                        {"id": game_id})).scalar()
                await sock.send_text(orjson.dumps({"type": "hello", "game": game_id,
                                                   "version": version}).decode())
                state["last"] = version if version is not None else -1
                after = sock.query_params.get("after")
                if after is not None and version is not None:
                    for v in range(int(after) + 1, version + 1):
                        await sock.send_text(frame(game_id, v))
            while True:
                message = await sock.receive()
                if message["type"] == "websocket.disconnect":
                    break
        except Exception:
            pass
        finally:
            sockets.get(game_id, set()).discard(sock)

    return app


def factory() -> FastAPI:
    return create_app()


def main() -> None:
    import sys
    from pathlib import Path

    import uvicorn

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8200)
    parser.add_argument("--db", default=os.environ.get("BASELINE_DATABASE_URL"))
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    os.environ["BASELINE_DATABASE_URL"] = args.db
    uvicorn.run("benchmarks.baseline:factory", factory=True, host=args.host, port=args.port,
                workers=args.workers, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
