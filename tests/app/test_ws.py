"""The game WebSocket against a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import asyncio

import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import live_server, make_settings
from .wsclient import Socket


async def _two_player_game(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    return ada, bob, gid


async def test_spectator_gets_public_views_only(server):
    host, api = server
    ada, bob, gid = await _two_player_game(api)
    spect = await Socket.open(host, gid)
    spect2 = await Socket.open(host, gid)
    bob_ws = await Socket.open(host, gid, bob.token)
    hello = await spect.recv()
    assert hello == {"type": "hello", "game": gid, "seat": None, "status": "running",
                     "version": 0, "user": None}
    await spect2.recv()
    hello_b = await bob_ws.recv()
    assert hello_b["seat"] == 1 and hello_b["user"]["username"] == "bob"

    a = (await ada.legal(gid))["actions"][0]
    assert (await ada.act(gid, a, version=0)).status_code == 200
    m = await spect.recv()
    assert m["type"] == "state" and m["version"] == 1
    assert m["view"]["private"] is None
    assert m["events"] == [{"kind": "chose", "data": {"seat": 0}}]
    assert m["waiting_for"] == [1] and m["status"] == "running"
    mb = await bob_ws.recv()
    assert mb["view"]["public"] == m["view"]["public"]
    assert mb["view"]["private"]["hand"] == (await bob.game(gid))["view"]["private"]["hand"]
    await spect2.recv()
    assert spect.raw[-1] == spect2.raw[-1]  # one shared encoding for spectators

    b = (await bob.legal(gid))["actions"][0]
    r = await bob.act(gid, b, version=1)
    winner_seat = r.json()["waiting_for"][0]
    winner = (ada, bob)[winner_seat]
    r = await winner.act(gid, {"type": "draw"}, version=2)
    assert r.status_code == 200
    drawn = next(e for e in r.json()["events"] if e["kind"] == "drew_card")["data"]["card"]

    spect_states = await spect.states_until(3)
    bob_states = await bob_ws.states_until(3)
    assert [s["version"] for s in spect_states] == [2, 3]
    assert [s["version"] for s in bob_states] == [2, 3]
    for s in spect_states:
        assert s["view"]["private"] is None
        assert all("private" not in e and "only" not in e for e in s["events"])
        assert "drew_card" not in str(s)
    bob_kinds = [e["kind"] for e in bob_states[-1]["events"]]
    if winner_seat == 1:
        assert "drew_card" in bob_kinds and drawn in bob_states[-1]["view"]["private"]["hand"]
    else:
        assert "drew_card" not in bob_kinds
        assert drawn not in bob_states[-1]["view"]["private"]["hand"]
    # the spectator never received any seat's hand
    hands = [(await p.game(gid))["view"]["private"]["hand"] for p in (ada, bob)]
    for text in spect.raw:
        assert '"hand"' not in text
    assert hands
    for ws in (spect, spect2, bob_ws):
        await ws.close()


async def test_sync_after_reconnect_returns_exactly_the_missed_versions(server):
    host, api = server
    ada, bob, gid = await _two_player_game(api)
    ws = await Socket.open(host, gid, ada.token)
    await ws.recv()  # hello v0
    a = (await ada.legal(gid))["actions"]
    assert (await ada.act(gid, a[0], version=0)).status_code == 200
    got = await ws.states_until(1)
    assert [m["version"] for m in got] == [1]
    await ws.close()

    # three versions happen while ada is away
    b = (await bob.legal(gid))["actions"]
    r = await bob.act(gid, b[0], version=1)
    players = (ada, bob)
    winner = players[r.json()["waiting_for"][0]]
    assert (await winner.act(gid, {"type": "score"}, version=2)).status_code == 200
    assert (await ada.act(gid, (await ada.legal(gid))["actions"][0], version=3)).status_code == 200

    ws = await Socket.open(host, gid, ada.token)
    hello = await ws.recv()
    assert hello["version"] == 4
    await ws.send({"type": "sync", "after": 1})
    synced, missed = await ws.recv_type("synced")
    assert synced["version"] == 4
    assert [m["type"] for m in missed] == ["state"] * 3
    assert [m["version"] for m in missed] == [2, 3, 4]
    # each is the view at that version, for this seat
    assert missed[0]["view"]["public"]["phase"] == "reward"
    assert missed[1]["view"]["public"]["round"] == 2
    assert missed[2]["view"]["private"]["chosen"] is not None
    assert [e["kind"] for e in missed[0]["events"]] == ["chose", "revealed"]
    log = (await ada.get(f"/api/games/{gid}/log?after=1")).json()
    assert [m["events"] for m in missed] == [e["events"] for e in log["entries"]]
    # up to date: a sync sends nothing but "synced"
    await ws.send({"type": "sync", "after": 4})
    synced, missed = await ws.recv_type("synced")
    assert missed == [] and synced["version"] == 4
    # live updates continue after the sync, no duplicates
    assert (await bob.act(gid, (await bob.legal(gid))["actions"][0], version=4)).status_code == 200
    got = await ws.states_until(5)
    assert [m["version"] for m in got] == [5]
    await ws.nothing()
    # ?after= on the URL syncs at once
    ws2 = await Socket.open(host, gid, None, query="after=3")
    assert (await ws2.recv())["type"] == "hello"
    synced, missed = await ws2.recv_type("synced")
    assert [m["version"] for m in missed] == [4, 5]
    assert all(m["view"]["private"] is None for m in missed)
    await ws.close()
    await ws2.close()


async def test_far_behind_gets_one_full_state(db_url):
    settings = make_settings(db_url, sync_window=2, frame_cache=2)
    async with live_server(settings) as (host, app):
        import httpx

        from .conftest import Api

        async with httpx.AsyncClient(base_url=f"http://{host}") as client:
            api = Api(client, app)
            ada = await api.user("ada")
            gid = await api.toy_game(ada, bots=[1])
            for _ in range(3):
                await api.idle()
                g = await ada.game(gid)
                if 0 not in g["waiting_for"]:
                    break
                await ada.act(gid, (await ada.legal(gid))["actions"][0], version=g["version"])
            await api.idle()
            version = (await ada.game(gid))["version"]
            assert version > 3
            ws = await Socket.open(host, gid, ada.token)
            await ws.recv()
            await ws.send({"type": "sync", "after": 0})
            synced, missed = await ws.recv_type("synced")
            assert len(missed) == 1 and missed[0]["full"] is True
            assert missed[0]["version"] == version == synced["version"]
            assert missed[0]["view"] == (await ada.game(gid))["view"]
            # within the window: every version, rebuilt from snapshots + log
            await ws.send({"type": "sync", "after": version - 2})
            synced, missed = await ws.recv_type("synced")
            assert [m["version"] for m in missed] == [version - 1, version]
            await ws.close()


async def test_actions_over_the_socket(server):
    host, api = server
    ada, bob, gid = await _two_player_game(api)
    ws = await Socket.open(host, gid, ada.token)
    await ws.recv()
    legal = (await ada.legal(gid))["actions"]
    await ws.send({"type": "action", "version": 0, "action": legal[0]})
    ack, before = await ws.recv_type("ack")
    assert ack["version"] == 1 and ack["view"]["private"]["chosen"] == legal[0]["card"]
    states = [m for m in before if m["type"] == "state"]
    if not states:
        states = await ws.states_until(1)
    assert [m["version"] for m in states] == [1]
    # stale, illegal, not your turn: the same codes as over HTTP
    await ws.send({"type": "action", "version": 0, "action": legal[1]})
    err, _ = await ws.recv_type("error")
    assert err["error"]["code"] == "stale_version"
    await ws.send({"type": "action", "version": 1, "action": legal[1]})
    err, _ = await ws.recv_type("error")
    assert err["error"]["code"] == "not_your_turn"
    bob_ws = await Socket.open(host, gid, bob.token)
    await bob_ws.recv()
    await bob_ws.send({"type": "action", "version": 1, "action": {"type": "play", "card": 99}})
    err, _ = await bob_ws.recv_type("error")
    assert err["error"]["code"] == "not_in_hand"
    # garbage never closes the socket
    for junk in ("{", "[]", '"x"', '{"type": 3}', '{"type": "dance"}',
                 '{"type": "sync", "after": "x"}', '{"type": "sync", "after": -7}',
                 '{"type": "action"}', '{"type": "action", "version": 1, "action": []}',
                 '{"type": "action", "version": true, "action": {}}', b"\x00\xff"):
        await bob_ws.send(junk)
        err = await bob_ws.recv()
        assert err["type"] == "error" and err["error"]["code"], junk
    await bob_ws.send({"type": "ping"})
    assert (await bob_ws.recv()) == {"type": "pong"}
    # a spectator cannot act
    spect = await Socket.open(host, gid)
    await spect.recv()
    await spect.send({"type": "action", "version": 1, "action": {"type": "play", "card": 1}})
    err, _ = await spect.recv_type("error")
    assert err["error"]["code"] == "unauthorized"
    # a signed-in non-seat cannot either
    eve = await api.user("eve")
    eve_ws = await Socket.open(host, gid, eve.token)
    assert (await eve_ws.recv())["seat"] is None
    await eve_ws.send({"type": "action", "version": 1, "action": {"type": "play", "card": 1}})
    err, _ = await eve_ws.recv_type("error")
    assert err["error"]["code"] == "no_seat"
    for s in (ws, bob_ws, spect, eve_ws):
        await s.close()


async def test_socket_refusals(server):
    host, api = server
    ada = await api.user()
    gid = await api.toy_game(ada, start=False)
    for target, token, code in ((gid, "not-a-token", 4401), (999999, None, 4404),
                                ("abc", None, 4404)):
        ws = await Socket.open(host, target, token)
        msg = await ws.recv()
        assert msg["type"] == "error"
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd.code == code
    # an open game: hello with version -1, then the start arrives as version 0
    ws = await Socket.open(host, gid)
    hello = await ws.recv()
    assert hello["status"] == "open" and hello["version"] == -1
    bob = await api.user()
    await bob.post(f"/api/games/{gid}/join")
    await ada.post(f"/api/games/{gid}/start")
    m = await ws.recv()
    assert m["type"] == "state" and m["version"] == 0 and m["events"] == []
    # an oversized message closes the socket
    await ws.send("x" * (70 * 1024))
    with pytest.raises(ConnectionClosed):
        for _ in range(3):
            await ws.recv()
    for _ in range(100):  # every refused or closed socket has left the hub
        if (await api.client.get("/healthz")).json()["sockets"] == 0:
            break
        await asyncio.sleep(0.02)
    assert (await api.client.get("/healthz")).json()["sockets"] == 0


async def test_bot_moves_stream_in_order(server):
    host, api = server
    ada = await api.user()
    gid = await api.toy_game(ada, seats=3, bots=[1, 2], start=False)
    ws = await Socket.open(host, gid, ada.token)
    await ws.recv()
    await ada.post(f"/api/games/{gid}/start")
    states = await ws.states_until(2)
    assert [m["version"] for m in states] == [0, 1, 2]
    await api.idle()
    last = 2
    while True:
        g = await ada.game(gid)
        if g["status"] == "finished":
            break
        r = await ada.act(gid, (await ada.legal(gid))["actions"][0], version=g["version"])
        assert r.status_code == 200
        await api.idle()
        version = (await ada.game(gid))["version"]
        got = await ws.states_until(version)
        assert [m["version"] for m in got] == list(range(last + 1, version + 1))
        last = version
    assert got[-1]["status"] == "finished" and got[-1]["result"]["ranking"]
    await ws.close()
    await asyncio.sleep(0)
