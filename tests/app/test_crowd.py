"""Socket caps from the first byte (issue #31, findings 1-2) and players first under a crowd of
spectators (issue #37). Each test performs the attack, against a real uvicorn server run with
the options of ``menagerie serve`` (its connection limit included), with the caps set small.
"""

from __future__ import annotations

import asyncio
import contextlib

import httpx
from websockets.asyncio.client import connect

from .conftest import Api, live_server, make_settings
from .wsclient import Socket


async def _closed(ws: Socket) -> tuple[dict, int]:
    """The error a refused socket got, and its close code."""
    msg = await ws.recv()
    assert msg["type"] == "error", msg
    with contextlib.suppress(Exception):
        await ws.ws.wait_closed()
    return msg["error"], ws.ws.close_code


async def _open_from(host: str, path: str, address: str, **kw) -> Socket:
    """A socket from the local address ``address`` (127.0.0.x: all of 127/8 is this machine)."""
    url = f"ws://{host}{path}"
    return Socket(await connect(url, open_timeout=5, local_addr=(address, 0), **kw))


async def _still_serves(c: httpx.AsyncClient, ada, bob, gid: int) -> None:
    """/healthz and a player's move still answer."""
    assert (await c.get("/healthz")).status_code == 200
    legal = await ada.legal(gid)
    r = await (ada if legal["seat"] == 0 else bob).act(gid, legal["actions"][0], legal["version"])
    assert r.status_code == 200, r.text
    assert r.json()["version"] == legal["version"] + 1


async def test_sockets_waiting_for_their_login_are_capped_per_address(db_url):
    # the attack: sockets opened with ?auth=message that never log in, for a game that does
    # not exist, from one address. HTTP has only 5 connections of its own here: if the
    # waiting sockets counted against them (they did, 2,050 of 2,000), /healthz answered 503
    settings = make_settings(db_url, ws_per_address=6, ws_max_sockets=40, max_connections=5,
                             ws_auth_timeout=60)
    async with live_server(settings, serving=True) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            waiting = [await Socket.open_path(host, "/api/games/999999/ws", query="auth=message")
                       for _ in range(6)]
            assert app.state.services.sockets.total == 6  # counted before any login
            refused = []
            for i in range(30):  # game sockets and notice sockets alike
                path = "/api/games/999999/ws" if i % 2 else "/api/me/ws"
                refused.append(await Socket.open_path(host, path, query="auth=message"))
            for ws in refused:
                error, code = await _closed(ws)
                assert (error["code"], code) == ("too_many_sockets", 4429)
                assert error["message"] == "At most 6 game connections per address."
            # another address is not affected; the server still answers
            other = await _open_from(host, f"/api/games/{gid}/ws", "127.0.0.2")
            assert (await other.recv())["type"] == "hello"
            await _still_serves(c, ada, bob, gid)
            # the waiting ones still get their 10 s (here 60 s): one logs in and is a player
            await waiting[0].send({"type": "auth", "token": ada.token})
            error, code = await _closed(waiting[0])
            assert (error["code"], code) == ("not_found", 4404)  # that game does not exist
            await asyncio.sleep(0)
            for ws in (*waiting[1:], other):
                await ws.ws.close()


async def test_the_process_cap_keeps_http_alive(db_url):
    # sockets from many addresses (a botnet): past ws_max_sockets every new one is refused
    # with 4503 server_busy, and HTTP keeps its own connections
    settings = make_settings(db_url, ws_per_address=3, ws_max_sockets=9, max_connections=4,
                             ws_auth_timeout=60)
    async with live_server(settings, serving=True) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            held, refused = [], []
            for i in range(15):
                ws = await _open_from(host, "/api/me/ws?auth=message", f"127.0.0.{10 + i // 3}")
                (held if i < 9 else refused).append(ws)
            for ws in refused:
                error, code = await _closed(ws)
                assert (error["code"], code) == ("server_busy", 4503)
                assert error["retry_after"] == settings.ws_crowded_retry
            await _still_serves(c, ada, bob, gid)
            for ws in held:
                await ws.ws.close()
            await asyncio.sleep(0.2)
            # places given back: a player's socket is admitted again
            ws = await Socket.open(host, gid, ada.token)
            assert (await ws.recv())["seat"] == 0
            await ws.ws.close()


async def test_notice_sockets_are_capped_per_user(db_url):
    settings = make_settings(db_url, ws_me_per_user=3)
    async with live_server(settings, serving=True) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            mine = [await Socket.open_path(host, "/api/me/ws", ada.token) for _ in range(3)]
            for ws in mine:
                assert (await ws.recv())["type"] == "hello"
            for via in ("header", "message"):
                extra = await Socket.open_path(host, "/api/me/ws", ada.token, via=via)
                error, code = await _closed(extra)
                assert (error["code"], code) == ("too_many_sockets", 4429)
                assert error["message"] == "At most 3 notice connections per user."
            # another user, and Ada's game sockets, are not affected
            bobs = await Socket.open_path(host, "/api/me/ws", bob.token)
            assert (await bobs.recv())["type"] == "hello"
            game = await Socket.open(host, gid, ada.token)
            assert (await game.recv())["type"] == "hello"
            await _still_serves(c, ada, bob, gid)
            await mine[0].ws.close()
            await asyncio.sleep(0.2)
            again = await Socket.open_path(host, "/api/me/ws", ada.token)
            assert (await again.recv())["type"] == "hello"
            for ws in (*mine[1:], bobs, game, again):
                await ws.ws.close()


async def test_a_crowd_of_spectators_never_costs_a_player_a_move(db_url):
    # a small process: 12 sockets before spectators are shed, 20 in all
    settings = make_settings(db_url, ws_spectator_limit=12, ws_max_sockets=20,
                             ws_per_address=1000, ws_crowded_retry=30)
    async with live_server(settings, serving=True) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            svc = app.state.services
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            crowd = [await Socket.open(host, gid) for _ in range(12)]
            hellos = [await ws.recv() for ws in crowd]
            assert {(h["type"], h["seat"], h["version"]) for h in hellos} == {("hello", None, 0)}
            # one database read for the whole crowd (one game, one version)
            assert svc.spectators.reads == 1
            # the 13th spectator is shed, told why and when to come back
            late = await Socket.open(host, gid)
            error, code = await _closed(late)
            assert (error["code"], code) == ("crowded", 4503)
            assert 30 <= error["retry_after"] <= 60
            assert error["message"] == f"Many people are watching; try again in " \
                                       f"{error['retry_after']} s."
            # ... in the socket's language too
            late = await Socket.open(host, gid, query="lang=de")
            error, code = await _closed(late)
            assert code == 4503 and error["message"].startswith("Sehr viele Leute schauen zu")
            # a signed-in viewer without a seat is a spectator: shed as well
            eve = await api.user("eve")
            error, code = await _closed(await Socket.open(host, gid, eve.token))
            assert (error["code"], code) == ("crowded", 4503)
            metrics = (await c.get("/metrics")).text
            assert "menagerie_spectators_shed_total 3.0" in metrics
            # the players are still admitted, and a move goes through at once
            ada_ws = await Socket.open(host, gid, ada.token)
            assert (await ada_ws.recv())["seat"] == 0
            legal = (await ada.legal(gid))["actions"]
            await ada_ws.send({"type": "action", "version": 0, "action": legal[0]})
            ack, _ = await ada_ws.recv_type("ack")
            assert ack["version"] == 1
            # every watcher already in was kept and gets the version
            for ws in crowd:
                states = await ws.states_until(1)
                assert states[-1]["version"] == 1 and states[-1]["view"]["private"] is None
            # a sync of the whole crowd: still no read per socket
            for ws in crowd:
                await ws.send({"type": "sync", "after": 0})
            for ws in crowd:
                synced, missed = await ws.recv_type("synced")
                assert synced["version"] == 1 and [m["version"] for m in missed] == [1]
            assert svc.spectators.reads == 2  # the hello's version, then version 1
            for ws in (*crowd, ada_ws):
                await ws.ws.close()


async def test_spectators_database_work_has_its_own_budget(db_url):
    settings = make_settings(db_url, ws_spectator_db=2)
    async with live_server(settings, serving=True) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            desk = app.state.services.spectators
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            # the spectators' budget all taken (a crowd's reads in flight)
            for _ in range(2):
                await desk.budget.acquire()
            waiting = await Socket.open(host, gid)
            await waiting.nothing(0.3)  # its hello waits for the budget ...
            # ... while the players' sockets and moves do not
            ada_ws = await Socket.open(host, gid, ada.token)
            assert (await ada_ws.recv())["seat"] == 0
            legal = await ada.legal(gid)
            r = await ada.act(gid, legal["actions"][0], legal["version"])
            assert r.status_code == 200 and r.json()["version"] == 1
            assert (await c.get("/healthz")).status_code == 200
            desk.budget.release()
            hello = await waiting.recv()
            assert (hello["type"], hello["version"]) == ("hello", 1)
            desk.budget.release()
            for ws in (waiting, ada_ws):
                await ws.ws.close()


async def test_a_process_short_of_cpu_sheds_new_spectators_first(db_url):
    # the event loop running late (a machine short of CPU) sheds new spectators as a full
    # process does, while players are still admitted
    settings = make_settings(db_url, ws_shed_lag=0.5)
    async with live_server(settings, serving=True) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            svc = app.state.services
            ada, bob = await api.user("ada"), await api.user("bob")
            gid = await api.toy_game(ada, others=[bob])
            watcher = await Socket.open(host, gid)
            assert (await watcher.recv())["type"] == "hello"
            svc._lag.cancel()  # the measurement stands still at what we set
            with contextlib.suppress(asyncio.CancelledError):
                await svc._lag
            svc.sockets.lag = 0.8
            error, code = await _closed(await Socket.open(host, gid))
            assert (error["code"], code) == ("crowded", 4503)
            ada_ws = await Socket.open(host, gid, ada.token)
            assert (await ada_ws.recv())["seat"] == 0
            await _still_serves(c, ada, bob, gid)
            assert (await watcher.states_until(1))[-1]["version"] == 1  # the watcher stays
            svc.sockets.lag = 0.1
            again = await Socket.open(host, gid)
            assert (await again.recv())["type"] == "hello"
            for ws in (watcher, ada_ws, again):
                await ws.ws.close()
