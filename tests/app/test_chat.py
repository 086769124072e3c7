"""Chat per game: who writes and reads which channel (HTTP and WebSocket), the text as stored,
limits, and live delivery (in one process and, on PostgreSQL, across two)."""

from __future__ import annotations

import asyncio

import pytest

from .conftest import live_server, make_settings, running_app
from .wsclient import Socket


@pytest.fixture
def settings(db_url):
    # a generous chat limit here; test_rate_limit sets its own
    return make_settings(db_url, rate_chat_burst=1000)


async def _scene(api):
    ada, bob, spect = await api.user("ada"), await api.user("bob"), await api.user("sam")
    gid = await api.toy_game(ada, others=[bob], options={"rounds": 2})
    return ada, bob, spect, gid


async def _play_out(api, gid, players) -> None:
    """Both players answer with their first legal action until the game is over."""
    for _ in range(100):
        g = await players[0].game(gid)
        if g["status"] == "finished":
            return
        for p in players:
            legal = await p.get(f"/api/games/{gid}/legal")
            if legal.status_code == 200 and legal.json()["actions"]:
                r = await p.act(gid, legal.json()["actions"][0], version=legal.json()["version"])
                assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not finish")


async def _chat(who, gid, text, channel=None):
    body = {"text": text} if channel is None else {"text": text, "channel": channel}
    return await who.post(f"/api/games/{gid}/chat", json=body)


async def _lines(client_or_player, gid, channel="players", query=""):
    url = f"/api/games/{gid}/chat?channel={channel}{query}"
    return await client_or_player.get(url)


async def test_channels_permissions_and_visibility(api):
    ada, bob, spect, gid = await _scene(api)
    anon = api.client

    r = await _chat(ada, gid, "good luck")
    assert r.status_code == 201, r.text
    msg = r.json()
    assert msg["channel"] == "players" and msg["text"] == "good luck" and msg["game"] == gid
    assert msg["user"] == {"id": ada.id, "username": "ada"}
    assert isinstance(msg["id"], int) and msg["at"].endswith("Z")

    # the wrong channel for each, and nobody anonymous
    r = await _chat(spect, gid, "hi players", channel="players")
    assert r.status_code == 403 and r.json()["error"]["code"] == "chat_forbidden"
    r = await _chat(bob, gid, "psst", channel="spectators")
    assert r.status_code == 403 and r.json()["error"]["code"] == "chat_forbidden"
    r = await anon.post(f"/api/games/{gid}/chat", json={"text": "hello"})
    assert r.status_code == 401
    r = await _chat(spect, gid, "bob should play the 7")  # default: the spectators' channel
    assert r.status_code == 201 and r.json()["channel"] == "spectators"
    hint = r.json()

    # everyone reads the players' channel
    for who in (ada, bob, spect, anon):
        r = await _lines(who, gid)
        assert r.status_code == 200
        assert [m["text"] for m in r.json()["messages"]] == ["good luck"]
    # the spectators' channel: spectators (signed in or not) only, while the game runs
    for who in (spect, anon):
        r = await _lines(who, gid, "spectators")
        assert [m["id"] for m in r.json()["messages"]] == [hint["id"]]
    for who in (ada, bob):
        r = await _lines(who, gid, "spectators")
        assert r.status_code == 403 and r.json()["error"]["code"] == "chat_hidden"
        assert "bob should play" not in r.text
        assert (await _lines(who, gid)).json()["readable"] == ["players"]
    assert (await _lines(spect, gid)).json()["writable"] == "spectators"
    assert (await _lines(ada, gid)).json()["writable"] == "players"
    assert (await _lines(anon, gid)).json()["writable"] is None

    # once the game is over, everyone reads both
    await _play_out(api, gid, [ada, bob])
    for who in (ada, bob):
        r = await _lines(who, gid, "spectators")
        assert r.status_code == 200 and [m["text"] for m in r.json()["messages"]] == \
            ["bob should play the 7"]
    # no such game, bad channel
    assert (await _lines(ada, 999999)).status_code == 404
    r = await _lines(ada, gid, "everyone")
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    assert (await _chat(ada, 999999, "x")).status_code == 404


async def test_text_is_stored_exactly_and_checked(api):
    ada, bob, spect, gid = await _scene(api)
    tricky = '<script>alert("x")</script> & <b>bold</b> &amp; \'quotes\' é 😀 👩‍👩‍👧'
    r = await _chat(ada, gid, f"   {tricky}  ")
    assert r.status_code == 201, r.text
    assert r.json()["text"] == tricky  # trimmed, nothing escaped or mangled
    got = (await _lines(bob, gid)).json()["messages"]
    assert got[-1]["text"] == tricky

    assert (await _chat(ada, gid, "x" * 500)).status_code == 201
    for bad in ("", "   ", "x" * 501, "two\nlines", "tab\there", "bell\x07", "\u202e\u200b"):
        r = await _chat(ada, gid, bad)
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["error"]["code"] == "bad_chat_text"
    r = await ada.post(f"/api/games/{gid}/chat", json={"text": 5})
    assert r.status_code == 422
    r = await ada.post(f"/api/games/{gid}/chat", json={"text": "x", "channel": "all"})
    assert r.status_code == 422
    # the sentence in the caller's language, the code unchanged
    r = await ada.post(f"/api/games/{gid}/chat", json={"text": ""},
                       headers={"Accept-Language": "de"})
    assert r.json()["error"]["code"] == "bad_chat_text"
    assert "Zeichen" in r.json()["error"]["message"]


async def test_history_after_and_limit(api):
    ada, bob, spect, gid = await _scene(api)
    ids = []
    for i in range(7):
        ids.append((await _chat(ada if i % 2 else bob, gid, f"line {i}")).json()["id"])
    r = (await _lines(spect, gid, query="&limit=3")).json()
    assert [m["text"] for m in r["messages"]] == ["line 4", "line 5", "line 6"] and r["more"]
    r = (await _lines(spect, gid, query=f"&after={ids[1]}&limit=3")).json()
    assert [m["id"] for m in r["messages"]] == ids[2:5] and r["more"]
    r = (await _lines(spect, gid, query=f"&after={ids[4]}")).json()
    assert [m["id"] for m in r["messages"]] == ids[5:] and not r["more"]
    assert (await _lines(spect, gid, query="&limit=0")).status_code == 422


async def test_rate_limit(db_url):
    settings = make_settings(db_url, rate_chat_burst=5, rate_chat_per_second=0.01)
    async with running_app(settings) as api:
        ada, bob, spect, gid = await _scene(api)
        for i in range(5):
            assert (await _chat(ada, gid, f"spam {i}")).status_code == 201
        r = await _chat(ada, gid, "one more")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 1
        # per user: bob still talks
        assert (await _chat(bob, gid, "calm down")).status_code == 201
        assert len((await _lines(bob, gid)).json()["messages"]) == 6


async def _next(ws, kind: str) -> dict:
    """The next message of ``kind`` (other kinds, e.g. state or turn notices, are skipped)."""
    msg, _ = await ws.recv_type(kind, timeout=10)
    return msg


async def _no_chat(ws, wait: float = 0.4) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + wait
    while (left := end - loop.time()) > 0:
        try:
            msg = await ws.recv(left)
        except TimeoutError:
            return
        assert msg["type"] != "chat", msg


async def test_live_chat_over_the_socket(server):
    host, api = server
    ada, bob, spect, gid = await _scene(api)
    ws_ada = await Socket.open(host, gid, ada.token)
    ws_spect = await Socket.open(host, gid, spect.token)
    ws_anon = await Socket.open(host, gid)
    for ws in (ws_ada, ws_spect, ws_anon):
        await _next(ws, "hello")

    # a player's line (HTTP) reaches every socket
    sent = (await _chat(bob, gid, "<i>hello</i>")).json()
    for ws in (ws_ada, ws_spect, ws_anon):
        got = await _next(ws, "chat")
        assert got == {"type": "chat", "message": sent}

    # a spectator's line (over the socket) reaches the spectators, never a player
    await ws_spect.send({"type": "chat", "text": "ada holds the 19"})
    for ws in (ws_spect, ws_anon):
        got = await _next(ws, "chat")
        assert got["message"]["channel"] == "spectators"
        assert got["message"]["user"]["username"] == "sam"
    await _no_chat(ws_ada)
    assert all("ada holds the 19" not in raw for raw in ws_ada.raw)

    # refusals over the socket
    await ws_anon.send({"type": "chat", "text": "hi"})
    err = await _next(ws_anon, "error")
    assert err["error"]["code"] == "unauthorized"
    await ws_ada.send({"type": "chat", "channel": "spectators", "text": "hi"})
    err = await _next(ws_ada, "error")
    assert err["error"]["code"] == "chat_forbidden"
    await ws_ada.send({"type": "chat", "text": "x" * 501})
    err = await _next(ws_ada, "error")
    assert err["error"]["code"] == "bad_chat_text"
    await ws_ada.send({"type": "chat", "text": ["not", "text"]})
    assert (await _next(ws_ada, "error"))["error"]["code"] == "invalid_request"
    # a player's line over the socket comes back to the player too
    await ws_ada.send({"type": "chat", "text": "gg"})
    got = await _next(ws_ada, "chat")
    assert got["message"]["text"] == "gg"
    for ws in (ws_spect, ws_anon):
        assert (await _next(ws, "chat"))["message"]["text"] == "gg"

    # once the game is over, the players read the spectators' lines live too
    await _play_out(api, gid, [ada, bob])
    await ws_ada.ws.close()
    ws_ada = await Socket.open(host, gid, ada.token)
    await _next(ws_ada, "hello")
    await ws_spect.send({"type": "chat", "text": "well played"})
    got = await _next(ws_ada, "chat")
    assert got["message"]["text"] == "well played"
    for ws in (ws_ada, ws_spect, ws_anon):
        await ws.close()


async def test_live_chat_across_two_processes(db_url):
    """PostgreSQL: a line posted to one app process reaches the sockets of another."""
    if not db_url.startswith("postgresql"):
        pytest.skip("one process with SQLite")
    settings = make_settings(db_url, rate_chat_burst=1000)
    async with live_server(settings) as (host_a, app_a), \
            live_server(settings) as (host_b, _app_b):
        import httpx

        from .conftest import Api

        async with httpx.AsyncClient(base_url=f"http://{host_a}") as client:
            api = Api(client, app_a)
            ada, bob, spect, gid = await _scene(api)
            on_b = await Socket.open(host_b, gid, bob.token)
            spect_b = await Socket.open(host_b, gid, spect.token)
            for ws in (on_b, spect_b):
                await _next(ws, "hello")
            sent = (await _chat(ada, gid, "across")).json()
            for ws in (on_b, spect_b):
                assert await _next(ws, "chat") == {"type": "chat", "message": sent}
            hint = (await _chat(spect, gid, "hint")).json()
            assert (await _next(spect_b, "chat"))["message"] == hint
            await _no_chat(on_b)
            for ws in (on_b, spect_b):
                await ws.close()
        await asyncio.sleep(0)
