"""Issue #15, items 1 and 3: each attack performed, and refused (SQLite and PostgreSQL; the
seat change and the revocation also across two server processes on PostgreSQL).

1. A game socket follows the game's current seats: a player who opened the socket, then gave
   the seat away (declined the rematch), never sees the next holder's private view.
3. Sessions: a socket dies with its login (logout, log out everywhere, a password change);
   tokens never travel in URLs; the login cookie counts only from this site's pages; cookies
   are Secure and HSTS is sent when the request came over https through a trusted proxy.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed

from app.main import create_app

from .conftest import PASSWORD, Player, free_port, make_settings, play_to_end
from .wsclient import Socket


async def closed_with(ws: Socket, timeout: float = 5.0) -> tuple[int, list[dict]]:
    """Read until the server closes the socket: (close code, the messages read before)."""
    before = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            before.append(await ws.recv(timeout))
    return closed.value.rcvd.code, before


async def rematch_with_b_invited(api) -> tuple[int, Player, Player, Player]:
    """A finished two-player toy game of a and b; a asks for the rematch (b invited to seat
    1); c is a third user. Returns (the rematch's id, a, b, c)."""
    a, b, c = await api.user(), await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b], options={"rounds": 2})
    await play_to_end(api, gid, [a, b])
    r = await a.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    assert r.json()["invited"] == [1]
    return r.json()["id"], a, b, c


async def declined_seat_attack(host_b: str, host_c: str, new: int, a, b, c) -> None:
    """b opens the rematch's socket (on ``host_b``) as seat 1, declines, c takes seat 1, the
    game starts and c answers: b's socket shows nothing of c's (hand, secret card)."""
    ws_b = await Socket.open(host_b, new, b.token)
    hello = await ws_b.recv()
    assert hello["type"] == "hello" and hello["seat"] == 1
    ws_c = await Socket.open(host_c, new, c.token)
    assert (await ws_c.recv())["seat"] is None
    try:
        assert (await b.post(f"/api/games/{new}/rematch/decline")).status_code == 200
        told, _ = await ws_b.recv_type("seat")
        assert told == {"type": "seat", "game": new, "seat": None}
        r = await c.post(f"/api/games/{new}/join")
        assert r.status_code == 200 and r.json()["seat"] == 1, r.text
        told, _ = await ws_c.recv_type("seat")
        assert told["seat"] == 1
        # the spectators' channel is for spectators: c, seated now, no longer reads it
        # (b, a spectator now, does)
        spect = await a.api.user()  # a fourth user, a spectator
        r = await spect.post(f"/api/games/{new}/chat", json={"channel": "spectators",
                                                            "text": "only for spectators"})
        assert r.status_code == 201, r.text
        line, _ = await ws_b.recv_type("chat")
        assert line["message"]["text"] == "only for spectators"
        assert (await a.post(f"/api/games/{new}/start")).status_code == 200
        state_c = (await ws_c.states_until(0))[-1]
        hand_c = state_c["view"]["private"]["hand"]
        assert len(hand_c) == 3
        state_b = (await ws_b.states_until(0))[-1]
        assert state_b["view"]["private"] is None
        # c answers secretly: b's socket hears that c chose, never what
        card = hand_c[0]
        r = await c.act(new, {"type": "play", "card": card}, 0)
        assert r.status_code == 200, r.text
        state_b = (await ws_b.states_until(1))[-1]
        assert state_b["view"]["private"] is None
        for text in ws_b.raw:
            msg = json.loads(text)
            assert msg["type"] != "state" or msg["view"]["private"] is None, msg
            assert '"hand"' not in text and '"chosen":' + str(card) not in text
        for text in ws_c.raw:
            assert "only for spectators" not in text
        # b's socket may not act for seat 1 either
        await ws_b.send({"type": "action", "version": 1, "action": {"type": "play", "card": 1}})
        err, _ = await ws_b.recv_type("error")
        assert err["error"]["code"] == "no_seat"
    finally:
        await ws_b.close()
        await ws_c.close()


async def test_a_socket_that_gave_its_seat_away_never_streams_the_next_holder(server):
    host, api = server
    new, a, b, c = await rematch_with_b_invited(api)
    await declined_seat_attack(host, host, new, a, b, c)


async def test_a_socket_seated_later_gets_its_view(server):
    """The other direction: a socket opened before its user sat down (a spectator then) gets
    the seat's private view once the user holds the seat."""
    host, api = server
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, start=False)
    ws = await Socket.open(host, gid, b.token)
    assert (await ws.recv())["seat"] is None
    assert (await b.post(f"/api/games/{gid}/join")).status_code == 200
    told, _ = await ws.recv_type("seat")
    assert told["seat"] == 1
    assert (await a.post(f"/api/games/{gid}/start")).status_code == 200
    state = (await ws.states_until(0))[-1]
    assert state["view"]["private"]["hand"] == (await b.game(gid))["view"]["private"]["hand"]
    await ws.close()


# --------------------------------------------------------------------------- sessions


async def test_logout_closes_the_sockets_of_that_login(server):
    host, api = server
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b])
    game_ws = await Socket.open(host, gid, b.token)
    feed_ws = await Socket.open_path(host, "/api/me/ws", b.token, via="cookie")
    other_ws = await Socket.open(host, gid, a.token)  # another login: untouched
    for ws in (game_ws, feed_ws, other_ws):
        assert (await ws.recv())["type"] == "hello"
    r = await b.post("/api/auth/logout")
    assert r.status_code == 200
    for ws in (game_ws, feed_ws):
        code, said = await closed_with(ws)
        assert code == 4401
        assert said and said[-1]["error"]["code"] == "signed_out"
    # nothing more was sent to them: a's move reaches a's socket only
    r = await a.act(gid, (await a.legal(gid))["actions"][0], 0)
    assert r.status_code == 200
    state, _ = await other_ws.recv_type("state")
    assert state["version"] == 1
    assert all(json.loads(t)["type"] != "state" or json.loads(t)["version"] < 1
               for t in game_ws.raw)
    # the revoked token opens no socket either
    ws = await Socket.open(host, gid, b.token)
    code, said = await closed_with(ws)
    assert code == 4401 and said[0]["error"]["code"] == "bad_token"
    await other_ws.close()


async def test_a_revoked_socket_accepts_no_action(server):
    """The socket of a login revoked a moment ago (its close on the way) refuses to act:
    every action re-checks the login."""
    host, api = server
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b])
    ws = await Socket.open(host, gid, b.token)
    await ws.recv_type("hello")
    # revoke behind the socket's back: the row goes, the announcement does not reach it (on
    # PostgreSQL it also comes back by NOTIFY a moment later: kept away until the socket acted)
    services = api.services
    announced, services.sessions.announced = services.sessions.announced, lambda payload: 0
    try:
        assert (await b.post("/api/auth/logout")).status_code == 200
        hand = (await api.services.games.current(gid)).state["hands"][1]
        await ws.send({"type": "action", "version": 0,
                       "action": {"type": "play", "card": hand[0]}})
        code, said = await closed_with(ws)
    finally:
        services.sessions.announced = announced
    assert code == 4401 and said[-1]["error"]["code"] == "signed_out"
    assert (await a.game(gid))["version"] == 0  # nothing was played


async def test_password_change_and_logout_everywhere(server):
    host, api = server
    a = await api.user()
    gid = await api.toy_game(a, start=False)
    r = await api.client.post("/api/auth/login", json={"username": a.name, "password": PASSWORD})
    api.client.cookies.clear()
    second = Player(api, a.name, r.json()["token"], a.id)  # the same account, another device
    mine = await Socket.open(host, gid, a.token)
    theirs = await Socket.open_path(host, "/api/me/ws", second.token, via="message")
    await mine.recv_type("hello")
    await theirs.recv_type("hello")
    # a wrong current password changes nothing
    r = await a.post("/api/auth/password", json={"current": "not-it-at-all", "new": "x" * 12})
    assert r.status_code == 403 and r.json()["error"]["code"] == "wrong_password"
    r = await a.post("/api/auth/password", json={"current": PASSWORD, "new": "short"})
    assert r.status_code == 422
    r = await a.post("/api/auth/password", json={"current": PASSWORD, "new": "a new secret 1"})
    assert r.status_code == 200 and r.json()["revoked"] == 1, r.text
    code, said = await closed_with(theirs)
    assert code == 4401 and said[-1]["error"]["code"] == "signed_out"
    assert (await second.get("/api/me")).status_code == 401
    # this login goes on
    assert (await a.get("/api/me")).status_code == 200
    await mine.send({"type": "ping"})
    assert (await mine.recv_type("pong"))[0] == {"type": "pong"}
    r = await api.client.post("/api/auth/login", json={"username": a.name, "password": PASSWORD})
    assert r.status_code == 401
    r = await api.client.post("/api/auth/login", json={"username": a.name,
                                                       "password": "a new secret 1"})
    assert r.status_code == 200
    api.client.cookies.clear()
    third = Player(api, a.name, r.json()["token"], a.id)
    # log out everywhere: every login of the account, this one included
    r = await a.post("/api/auth/logout-everywhere")
    assert r.status_code == 200 and r.json()["revoked"] == 2
    code, _ = await closed_with(mine)
    assert code == 4401
    for p in (a, third):
        assert (await p.get("/api/me")).status_code == 401


async def test_tokens_never_travel_in_the_url(server):
    host, api = server
    a = await api.user()
    gid = await api.toy_game(a, bots=(1,))
    for path in (f"/api/games/{gid}/ws", "/api/me/ws"):
        ws = await Socket.open_path(host, path, a.token, via="url")
        code, said = await closed_with(ws)
        assert code == 4400 and said[0]["error"]["code"] == "token_in_url"
    # the first message instead: nothing is sent before it, then the seat's hello
    ws = await Socket.open(host, gid, a.token, via="message")
    hello = await ws.recv()
    assert hello["type"] == "hello" and hello["seat"] == 0 and hello["user"]["id"] == a.id
    await ws.close()
    # a wrong token in the first message, or another first message: 4401
    ws = await Socket.open(host, gid, "not-a-token", via="message")
    code, said = await closed_with(ws)
    assert code == 4401 and said[0]["error"]["code"] == "bad_token"
    ws = await Socket.open_path(host, f"/api/games/{gid}/ws", query="auth=message")
    await ws.send({"type": "sync", "after": 0})
    code, said = await closed_with(ws)
    assert code == 4401 and said[0]["error"]["code"] == "auth_expected"
    # "auth" later on an ordinary socket is refused (a spectator stays a spectator)
    ws = await Socket.open(host, gid)
    assert (await ws.recv())["seat"] is None
    await ws.send({"type": "auth", "token": a.token})
    err, _ = await ws.recv_type("error")
    assert err["error"]["code"] == "bad_message"
    await ws.close()


async def test_the_first_message_must_come_in_time(db_url):
    from .conftest import live_server

    async with live_server(make_settings(db_url, ws_auth_timeout=0.2)) as (host, _app):
        ws = await Socket.open_path(host, "/api/games/1/ws", query="auth=message")
        code, said = await closed_with(ws)
        assert code == 4401 and said[0]["error"]["code"] == "auth_expected"


async def test_the_login_cookie_counts_only_from_this_site(server):
    """Cross-site WebSocket hijacking: a page of another site opening the socket sends the
    cookie too, but with its own Origin; the socket is a spectator's."""
    host, api = server
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b])
    ws = await Socket.open(host, gid, a.token, via="cookie")
    hello = await ws.recv()
    assert hello["seat"] == 0
    await ws.send({"type": "sync", "after": -1})
    state, _ = await ws.recv_type("state")
    assert state["view"]["private"]["hand"]
    await ws.close()
    evil = await Socket.open(host, gid, a.token, via="cookie",
                             additional_headers={"Origin": "http://evil.example"})
    hello = await evil.recv()
    assert hello["seat"] is None and hello["user"] is None
    await evil.send({"type": "sync", "after": -1})
    state, _ = await evil.recv_type("state")
    assert state["view"]["private"] is None
    await evil.send({"type": "action", "version": 0, "action": {"type": "play", "card": 1}})
    err, _ = await evil.recv_type("error")
    assert err["error"]["code"] == "unauthorized"
    await evil.close()
    feed = await Socket.open_path(host, "/api/me/ws", a.token, via="cookie",
                                  additional_headers={"Origin": "http://evil.example"})
    code, said = await closed_with(feed)
    assert code == 4401 and said[0]["error"]["code"] == "unauthorized"


async def _login_over(base: str, headers: dict) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base) as c:
        name = f"h{free_port()}"
        return await c.post("/api/auth/register", json={"username": name, "password": PASSWORD},
                            headers=headers)


async def test_secure_cookie_and_hsts_behind_a_trusted_proxy(db_url):
    """Over https (a trusted proxy's X-Forwarded-Proto) the cookies are Secure and every
    response carries HSTS; the same header from an untrusted peer changes nothing."""
    for trusted in ("127.0.0.1", "10.9.9.9"):
        app = create_app(make_settings(db_url))
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                               log_config=None, access_log=False,
                                               proxy_headers=True, forwarded_allow_ips=trusted))
        task = asyncio.create_task(server.serve())
        while not server.started:
            assert not task.done()
            await asyncio.sleep(0.01)
        try:
            base = f"http://127.0.0.1:{port}"
            https = await _login_over(base, {"X-Forwarded-Proto": "https"})
            plain = await _login_over(base, {})
            assert https.status_code == plain.status_code == 201
            cookies = https.headers.get_list("set-cookie")
            assert len(cookies) == 2
            if trusted == "127.0.0.1":
                assert all("Secure" in c for c in cookies)
                assert https.headers["strict-transport-security"].startswith("max-age=")
            else:
                assert not any("Secure" in c for c in cookies)
                assert "strict-transport-security" not in https.headers
            assert not any("Secure" in c for c in plain.headers.get_list("set-cookie"))
            assert "strict-transport-security" not in plain.headers
        finally:
            server.should_exit = True
            await asyncio.wait_for(task, 10)


# --------------------------------------------------------------------------- two processes


@pytest.fixture
def pg_url(pg_session_url):
    from .conftest import TABLES, _pg_admin

    asyncio.run(_pg_admin(pg_session_url, f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    return pg_session_url


async def test_two_processes_seat_change_and_revocation(pg_url):
    """Two server processes on one PostgreSQL database: the sockets live on process two,
    everything else happens through process one. The seat given away and the logins revoked
    there reach process two's sockets (LISTEN/NOTIFY)."""
    from .test_processes import Remote, server_process

    async with server_process(pg_url) as p1, server_process(pg_url) as p2:
        async with httpx.AsyncClient(base_url=f"http://{p1.base}") as c1:
            one = Remote(c1)
            new, a, b, c = await rematch_with_b_invited(one)
            await declined_seat_attack(p2.base, p2.base, new, a, b, c)
            # revocation: b's sockets on process two close when b logs out through one
            game_ws = await Socket.open(p2.base, new, b.token)
            feed_ws = await Socket.open_path(p2.base, "/api/me/ws", b.token, via="message")
            for ws in (game_ws, feed_ws):
                assert (await ws.recv())["type"] == "hello"
            assert (await b.post("/api/auth/logout")).status_code == 200
            for ws in (game_ws, feed_ws):
                code, said = await closed_with(ws)
                assert code == 4401 and said[-1]["error"]["code"] == "signed_out"
            # a password change through process one closes c's other login on process two
            r = await c1.post("/api/auth/login", json={"username": c.name, "password": PASSWORD})
            other = r.json()["token"]
            c1.cookies.clear()
            ws = await Socket.open(p2.base, new, other)
            assert (await ws.recv())["seat"] == 1
            r = await c.post("/api/auth/password", json={"current": PASSWORD,
                                                         "new": "another secret 2"})
            assert r.status_code == 200 and r.json()["revoked"] == 1
            code, said = await closed_with(ws)
            assert code == 4401 and said[-1]["error"]["code"] == "signed_out"
            async with httpx.AsyncClient(base_url=f"http://{p2.base}") as c2:
                r = await c2.get("/api/me", headers={"Authorization": f"Bearer {other}"})
                assert r.status_code == 401
                r = await c2.get("/api/me", headers=c.headers)
                assert r.status_code == 200


async def test_a_revocation_missed_while_not_listening_closes_the_socket(pg_url):
    """A process whose LISTEN connection was down may have missed revocations: when it
    listens again it re-checks the logins of its sockets and closes those that are gone."""
    import asyncpg

    from app.auth import hash_token

    from .conftest import _asyncpg_dsn, live_server

    async with live_server(make_settings(pg_url)) as (host, app):
        services = app.state.services
        async with httpx.AsyncClient(base_url=f"http://{host}") as client:
            from .test_processes import Remote

            api = Remote(client)
            a, b = await api.user(), await api.user()
            gid = await api.toy_game(a, others=[b])
            ws_a = await Socket.open(host, gid, a.token)
            ws_b = await Socket.open(host, gid, b.token)
            for ws in (ws_a, ws_b):
                await ws.recv_type("hello")
            reconnects = services.bus.reconnects
            conn = await asyncpg.connect(_asyncpg_dsn(pg_url))
            try:
                # b's login revoked by a process whose announcement this one never hears
                await conn.execute("DELETE FROM tokens WHERE token_hash = $1", hash_token(b.token))
                killed = await conn.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = 'menagerie-listen' "
                    "AND datname = current_database()")
            finally:
                await conn.close()
            assert killed >= 1
            code, said = await closed_with(ws_b, timeout=20)
            assert code == 4401 and said[-1]["error"]["code"] == "signed_out"
            assert services.bus.reconnects > reconnects
            await ws_a.send({"type": "ping"})
            assert (await ws_a.recv_type("pong"))[0]["type"] == "pong"
            await ws_a.close()
