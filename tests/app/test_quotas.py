"""Quotas on expensive work (issue #15): games and bot seats per user, bots never playing a
game alone, imports per user, sockets per user and per address, sync messages per socket, and
the header timeout of ``menagerie serve``."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import uvicorn
from sqlalchemy import func, select

from app.main import create_app
from app.models import Game

from .conftest import Api, free_port, live_server, make_settings, play_to_end, running_app
from .test_records import bot_record
from .wsclient import Socket


async def test_unfinished_games_per_user(db_url):
    async with running_app(make_settings(db_url, max_active_games_per_user=2)) as api:
        ada, bob = await api.user("ada"), await api.user("bob")
        await api.toy_game(ada, start=False)
        await api.toy_game(ada, others=[bob])  # running
        r = await ada.post("/api/games", json={"game": "toy", "seats": 2})
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_quota"
        assert r.json()["error"]["limit"] == 2
        # another user is not affected
        assert (await bob.post("/api/games", json={"game": "toy", "seats": 2})).status_code == 201


async def test_bot_seats_and_search_bots_per_user(db_url):
    settings = make_settings(db_url, max_bot_seats_per_user=3, max_mcts_seats_per_user=2)
    async with running_app(settings) as api:
        ada = await api.user("ada")
        r = await ada.post("/api/games", json={"game": "toy", "seats": 3, "bots": [1, 2],
                                               "bot": "mcts"})
        assert r.status_code == 201, r.text
        r = await ada.post("/api/games", json={"game": "toy", "seats": 2, "bots": [1],
                                               "bot": "mcts"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "bot_quota"
        r = await ada.post("/api/games", json={"game": "toy", "seats": 2, "bots": [1],
                                               "time_control": {"mode": "move", "seconds": 60,
                                                                "bot": "mcts"}})
        assert r.status_code == 409 and r.json()["error"]["code"] == "bot_quota"
        r = await ada.post("/api/games", json={"game": "toy", "seats": 3, "bots": [1, 2]})
        assert r.status_code == 409 and r.json()["error"]["code"] == "bot_quota"  # 4 > 3
        r = await ada.post("/api/games", json={"game": "toy", "seats": 2, "bots": [1]})
        assert r.status_code == 201, r.text  # 3 bot seats, 2 of them mcts


async def test_every_searching_level_counts_against_the_search_quota(db_url):
    """The quota named after mcts covers every level that searches at a move start (``heavy``:
    search at 1 s, plan at 0.2-1 s per turn start); before, only ``mcts`` was counted, so a
    user could seat a dozen search bots."""
    from engine.bots import heavy_kinds

    assert heavy_kinds() == {"mcts", "search", "plan"}
    settings = make_settings(db_url, max_bot_seats_per_user=10, max_mcts_seats_per_user=2)
    async with running_app(settings) as api:
        ada = await api.user("ada")
        r = await ada.post("/api/games", json={"game": "toy", "seats": 3, "bots": [1, 2],
                                               "bot": "plan"})
        assert r.status_code == 201, r.text
        for bot in ("search", "mcts", "plan"):
            r = await ada.post("/api/games", json={"game": "toy", "seats": 2, "bots": [1],
                                                   "bot": bot})
            assert r.status_code == 409 and r.json()["error"]["code"] == "bot_quota", r.text
            assert r.json()["error"]["limit"] == 2
        r = await ada.post("/api/games", json={"game": "toy", "seats": 2,
                                               "time_control": {"mode": "move", "seconds": 60,
                                                                "bot": "search"}})
        assert r.status_code == 409 and r.json()["error"]["code"] == "bot_quota", r.text
        # the cheap levels still fit (the seats quota is 10)
        r = await ada.post("/api/games", json={"game": "toy", "seats": 3, "bots": [1, 2],
                                               "bot": "fast"})
        assert r.status_code == 201, r.text


async def _finished_with_a_bot(api, owner, bot: str = "random") -> int:
    """A toy game of ``owner`` against a bot (seat 1), played to its end."""
    r = await owner.post("/api/games", json={"game": "toy", "seats": 2, "bots": [1],
                                             "bot": bot, "options": {"rounds": 2}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert (await owner.post(f"/api/games/{gid}/start")).status_code == 200
    await play_to_end(api, gid, [owner])
    return gid


async def test_a_rematch_counts_against_the_same_quotas_as_creation(db_url):
    """Issue #31, finding 6: with games and bot seats at their caps, a rematch used to be
    created and started anyway (11 unfinished games, 4 search-bot seats)."""
    settings = make_settings(db_url, max_active_games_per_user=2, max_bot_seats_per_user=2,
                             max_mcts_seats_per_user=1)
    async with running_app(settings) as api:
        ada = await api.user("ada")
        done = await _finished_with_a_bot(api, ada, "mcts")
        # two unfinished games: the game quota is full
        await api.toy_game(ada, start=False)
        await api.toy_game(ada, start=False)
        before = (await ada.get("/api/games", params={"mine": "true"})).json()
        r = await ada.post(f"/api/games/{done}/rematch")
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_quota", r.text
        async with api.services.db.read() as s:
            assert await s.scalar(select(func.count()).select_from(Game)
                                  .where(Game.rematch_of == done)) == 0
        assert (await ada.get("/api/games", params={"mine": "true"})).json() == before

    settings = make_settings(db_url, max_active_games_per_user=10, max_bot_seats_per_user=10,
                             max_mcts_seats_per_user=1)
    async with running_app(settings) as api:
        cy = await api.user("cyd")
        done = await _finished_with_a_bot(api, cy, "mcts")
        # one mcts seat in an unfinished game: the search-bot quota (1) is full
        r = await cy.post("/api/games", json={"game": "toy", "seats": 2, "bots": [1],
                                              "bot": "mcts"})
        assert r.status_code == 201, r.text
        r = await cy.post(f"/api/games/{done}/rematch")
        assert r.status_code == 409 and r.json()["error"]["code"] == "bot_quota", r.text
        # under the quotas, the rematch is made (and starts) as before
        dee = await api.user("dee")
        done = await _finished_with_a_bot(api, dee, "mcts")
        r = await dee.post(f"/api/games/{done}/rematch")
        assert r.status_code == 201, r.text
        assert r.json()["status"] == "running"


async def test_bots_never_play_a_game_alone(db_url):
    """Every person of a running game handed to the bot: the bots stop (a game of bots only
    would take the server's CPU for nobody) until someone reclaims a seat."""
    async with running_app(make_settings(db_url)) as api:
        ada = await api.user("ada")
        gid = await api.toy_game(ada, bots=[1], options={"rounds": 3})
        await api.idle()
        before = await ada.game(gid)
        assert before["status"] == "running"
        assert await api.services.games.set_away(gid, 0, True)
        await api.idle()
        after = await ada.game(gid)
        assert after["status"] == "running" and after["version"] == before["version"]
        r = await ada.post(f"/api/games/{gid}/reclaim")
        assert r.status_code == 200, r.text


async def test_imports_per_user(db_url):
    settings = make_settings(db_url, rate_imports_burst=2, rate_imports_per_minute=0.5)
    async with running_app(settings) as api:
        ada, bob = await api.user("ada"), await api.user("bob")
        record = bot_record("zoocracy")
        for _ in range(2):
            assert (await ada.post("/api/games/import", json=record)).status_code == 201
        r = await ada.post("/api/games/import", json=record)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert (await bob.post("/api/games/import", json=record)).status_code == 201


async def _refused(ws: Socket) -> dict:
    msg = await ws.recv()
    assert msg["type"] == "error", msg
    with contextlib.suppress(Exception):
        await ws.ws.wait_closed()
    assert ws.ws.close_code == 4429
    return msg["error"]


async def test_sockets_per_user_and_per_address(db_url):
    settings = make_settings(db_url, ws_per_user=2, ws_per_address=3)
    async with live_server(settings) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            first = await Socket.open(host, gid, ada.token)
            second = await Socket.open(host, gid, ada.token)
            for ws in (first, second):
                assert (await ws.recv())["type"] == "hello"
            third = await Socket.open(host, gid, ada.token)
            assert (await _refused(third))["code"] == "too_many_sockets"
            # the address (all from 127.0.0.1): one more socket of another user, then none
            bobs = await Socket.open(host, gid, bob.token)
            assert (await bobs.recv())["type"] == "hello"
            anonymous = await Socket.open(host, gid)
            assert (await _refused(anonymous))["code"] == "too_many_sockets"
            # a closed socket gives its place back
            await first.ws.close()
            await asyncio.sleep(0.2)
            again = await Socket.open(host, gid, ada.token)
            assert (await again.recv())["type"] == "hello"
            for ws in (second, bobs, again):
                await ws.ws.close()


async def test_sync_messages_are_rate_limited(db_url):
    settings = make_settings(db_url, rate_sync_burst=3, rate_sync_per_second=0.01)
    async with live_server(settings) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            ws = await Socket.open(host, gid)
            await ws.recv()
            answers = []
            for _ in range(5):
                await ws.send({"type": "sync", "after": -1})
                msg = await ws.recv()
                while msg["type"] == "state":
                    msg = await ws.recv()
                answers.append(msg["type"] if msg["type"] != "error"
                               else msg["error"]["code"])
            assert answers == ["synced"] * 3 + ["rate_limited"] * 2
            await ws.send({"type": "ping"})  # the socket stays open
            assert (await ws.recv_type("pong"))[0] == {"type": "pong"}
            await ws.ws.close()


async def test_unfinished_headers_are_dropped(tmp_path):
    """A connection that never finishes its request headers is closed after the header
    timeout (uvicorn alone keeps it open as long as the client likes)."""
    from app.serving import uvicorn_options  # what ``menagerie serve`` runs uvicorn with

    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", header_timeout=0.5)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           lifespan="off", **uvicorn_options(settings)))
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(500):
            if server.started:
                break
            await asyncio.sleep(0.01)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed, nothing answered
        writer.close()
        # a connection that sends nothing at all is closed too
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)
