"""Rate limits: 429 ``rate_limited`` with Retry-After on register/login per address and on
actions per token and per address (HTTP and WebSocket)."""

from __future__ import annotations

import contextlib
import re

import httpx

from app.main import create_app
from app.ratelimit import Limiter

from .conftest import PASSWORD, Api, live_server, make_settings
from .wsclient import Socket


def test_token_bucket_refills():
    lim = Limiter("t", rate=2.0, burst=3)
    assert [lim.take("a", now=0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert abs(lim.take("a", now=0.0) - 0.5) < 1e-9  # one token in 0.5 s
    assert lim.take("b", now=0.0) == 0.0  # other keys have their own bucket
    assert lim.take("a", now=0.5) == 0.0
    assert lim.take("a", now=0.5) > 0
    assert [lim.take("a", now=10.0) for _ in range(3)] == [0.0] * 3  # capped at the burst
    assert lim.take("a", now=10.0) > 0
    small = Limiter("s", rate=1.0, burst=1, max_keys=2)
    for key in "xyz":
        small.take(key, now=0.0)
    assert len(small._buckets) == 2  # bounded memory


@contextlib.asynccontextmanager
async def app_with(db_url, **limits):
    settings = make_settings(db_url, **limits)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        clients = {}

        def client(address: str) -> httpx.AsyncClient:
            if address not in clients:
                clients[address] = httpx.AsyncClient(
                    transport=httpx.ASGITransport(app=app, client=(address, 5555)),
                    base_url="http://test")
            return clients[address]

        try:
            yield app, client
        finally:
            for c in clients.values():
                await c.aclose()


def assert_limited(r):
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "rate_limited"
    assert int(r.headers["retry-after"]) >= 1
    assert r.json()["error"]["retry_after"] == int(r.headers["retry-after"])


async def test_register_and_login_per_address(db_url):
    async with app_with(db_url, rate_auth_burst=3, rate_auth_per_minute=1) as (app, client):
        a, b = client("10.0.0.1"), client("10.0.0.2")
        for i in range(3):
            r = await a.post("/api/auth/register", json={"username": f"ra{i}",
                                                         "password": PASSWORD})
            assert r.status_code == 201
        assert_limited(await a.post("/api/auth/register", json={"username": "ra9",
                                                                 "password": PASSWORD}))
        # another address is not affected; login has its own bucket
        r = await b.post("/api/auth/register", json={"username": "rb0", "password": PASSWORD})
        assert r.status_code == 201
        for _ in range(3):
            r = await a.post("/api/auth/login", json={"username": "ra0", "password": "wrong pass"})
            assert r.status_code == 401
        assert_limited(await a.post("/api/auth/login", json={"username": "ra0",
                                                              "password": PASSWORD}))
        r = await b.post("/api/auth/login", json={"username": "ra0", "password": PASSWORD})
        assert r.status_code == 200
        metrics = (await client("127.0.0.1").get("/metrics")).text
        m = re.search(r'menagerie_rate_limited_total\{limit="register_per_address"\} (\S+)',
                      metrics)
        assert m and float(m.group(1)) >= 1


async def _game(client, app):
    api = Api(client, app)
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    return api, ada, bob, gid


async def test_actions_per_token(db_url):
    async with app_with(db_url, rate_actions_burst=3, rate_actions_per_second=0.01) as (
            app, client):
        api, ada, bob, gid = await _game(client("10.0.0.1"), app)
        # refused or not, every attempt costs a token
        for _ in range(3):
            r = await ada.act(gid, {"type": "play", "card": 99}, version=0)
            assert r.status_code == 422
        assert_limited(await ada.act(gid, {"type": "play", "card": 99}, version=0))
        # bob's token has its own bucket
        card = (await bob.legal(gid))["actions"][0]
        assert (await bob.act(gid, card, version=0)).status_code == 200


async def test_actions_per_address(db_url):
    async with app_with(db_url, rate_address_actions_burst=4,
                        rate_address_actions_per_second=0.01) as (app, client):
        api, ada, bob, gid = await _game(client("10.0.0.7"), app)
        for player in (ada, bob, ada, bob):
            r = await player.act(gid, {"type": "play", "card": 99}, version=0)
            assert r.status_code == 422
        assert_limited(await bob.act(gid, {"type": "play", "card": 99}, version=0))
        # the same tokens from another address are fine
        other = Api(client("10.0.0.8"), app)
        bob.api = other
        card = (await bob.legal(gid))["actions"][0]
        assert (await bob.act(gid, card, version=0)).status_code == 200


async def test_socket_actions_are_limited_too(db_url):
    settings = make_settings(db_url, rate_actions_burst=2, rate_actions_per_second=0.01)
    async with live_server(settings) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api, ada, bob, gid = await _game(c, app)
            ws = await Socket.open(host, gid, ada.token)
            await ws.recv()
            codes = []
            for _ in range(4):
                await ws.send({"type": "action", "version": 0,
                               "action": {"type": "play", "card": 99}})
                err, _ = await ws.recv_type("error")
                codes.append(err["error"]["code"])
            assert codes == ["not_in_hand", "not_in_hand", "rate_limited", "rate_limited"]
            assert err["error"]["retry_after"] >= 1
            # the socket stays open
            await ws.send({"type": "ping"})
            assert (await ws.recv_type("pong"))[0] == {"type": "pong"}
            await ws.close()
