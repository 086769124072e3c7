"""Rate limits: 429 ``rate_limited`` with Retry-After on register/login per address and on
actions per token and per address (HTTP and WebSocket)."""

from __future__ import annotations

import contextlib
import re

import httpx

from app.main import create_app
from app.ratelimit import Limiter

from .conftest import PASSWORD, Api, live_server, make_settings
from .test_processes import pg_url  # noqa: F401  (fixture)
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


async def test_password_change_guesses_are_limited_per_address(db_url):
    # guessing the current password through "change password" costs login tokens (the check
    # was once called without await: no guess was ever refused)
    async with app_with(db_url, rate_auth_burst=3, rate_auth_per_minute=1) as (app, client):
        a = client("10.9.0.1")
        r = await a.post("/api/auth/register", json={"username": "pw0", "password": PASSWORD})
        assert r.status_code == 201
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        for _ in range(3):
            r = await a.post("/api/auth/password", headers=auth,
                             json={"current": "not it at all", "new": "battery staple horse"})
            assert r.status_code == 403, r.text
        assert_limited(await a.post("/api/auth/password", headers=auth,
                                    json={"current": PASSWORD, "new": "battery staple horse"}))


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


# ------------------------------------------------------------------ issue #15: fair play

async def test_a_rotating_forwarded_for_does_not_escape_the_limit(tmp_path):
    """A real server process, no proxy configured: X-Forwarded-For from the loopback peer is
    ignored (uvicorn alone believes it from 127.0.0.1), the peer address is the key."""
    from .test_processes import server_process

    url = f"sqlite+aiosqlite:///{tmp_path / 'xff.db'}"
    from app.migrate import upgrade

    await upgrade(url)
    limits = {"MENAGERIE_RATE_AUTH_BURST": "3", "MENAGERIE_RATE_AUTH_PER_MINUTE": "1"}
    async with server_process(url, **limits) as proc:
        async with httpx.AsyncClient(base_url=f"http://{proc.base}") as c:
            codes = []
            for i in range(6):
                r = await c.post("/api/auth/register",
                                 json={"username": f"xff{i}", "password": PASSWORD},
                                 headers={"X-Forwarded-For": f"198.51.100.{i}"})
                codes.append(r.status_code)
    assert codes == [201, 201, 201, 429, 429, 429]


async def test_a_trusted_proxy_gives_the_rightmost_untrusted_hop(db_url):
    """Behind a configured proxy, the client is the address the proxy saw (the rightmost one
    it appended), not the leftmost one the client wrote itself."""
    async with app_with(db_url, rate_auth_burst=2, rate_auth_per_minute=1,
                        trusted_proxies="127.0.0.1, 10.9.0.0/16") as (app, client):
        proxy = client("127.0.0.1")
        codes = []
        for i in range(4):
            r = await proxy.post("/api/auth/register",
                                 json={"username": f"tp{i}", "password": PASSWORD},
                                 headers={"X-Forwarded-For": f"1.2.3.{i}, 203.0.113.7, 10.9.0.3"})
            codes.append(r.status_code)
        assert codes == [201, 201, 429, 429]
        # another client behind the same proxy has its own bucket
        r = await proxy.post("/api/auth/register", json={"username": "tp9", "password": PASSWORD},
                             headers={"X-Forwarded-For": "203.0.113.8"})
        assert r.status_code == 201
        # an untrusted peer's header is ignored: it is limited by its own address
        other = client("192.0.2.1")
        for i in range(2):
            r = await other.post("/api/auth/register",
                                 json={"username": f"up{i}", "password": PASSWORD},
                                 headers={"X-Forwarded-For": f"203.0.113.{50 + i}"})
            assert r.status_code == 201
        assert_limited(await other.post("/api/auth/register",
                                        json={"username": "up9", "password": PASSWORD},
                                        headers={"X-Forwarded-For": "203.0.113.99"}))


def test_trusting_every_forwarder_is_refused():
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        make_settings("sqlite+aiosqlite:///x.db", trusted_proxies="*")
    with pytest.raises(ValidationError):
        make_settings("sqlite+aiosqlite:///x.db", trusted_proxies="not-an-address")


async def test_failed_logins_back_off_per_account(db_url):
    """Guessing one account's password from many addresses: after the free failures every
    attempt waits (doubling), even with the right password; other accounts are unaffected."""
    import asyncio

    async with app_with(db_url, login_free_failures=3) as (app, client):
        api = Api(client("10.1.0.1"), app)
        await api.user("victim")
        await api.user("bystander")
        for i in range(3):
            r = await client(f"10.2.0.{i}").post("/api/auth/login", json={
                "username": "victim", "password": "wrong pass"})
            assert r.status_code == 401
        r = await client("10.3.0.1").post("/api/auth/login", json={
            "username": "VICTIM", "password": PASSWORD})
        assert_limited(r)
        assert (await client("10.3.0.1").post("/api/auth/login", json={
            "username": "bystander", "password": PASSWORD})).status_code == 200
        await asyncio.sleep(1.1)  # the first wait (1 s) is over: one more guess
        r = await client("10.4.0.1").post("/api/auth/login", json={
            "username": "victim", "password": "wrong again"})
        assert r.status_code == 401
        r = await client("10.4.0.2").post("/api/auth/login", json={
            "username": "victim", "password": PASSWORD})
        assert_limited(r)
        assert r.json()["error"]["retry_after"] == 2  # doubled


async def test_actions_are_limited_per_user_not_per_token(db_url):
    async with app_with(db_url, rate_actions_burst=3, rate_actions_per_second=0.01) as (
            app, client):
        api, ada, bob, gid = await _game(client("10.0.0.1"), app)
        r = await api.client.post("/api/auth/login", json={"username": "ada",
                                                            "password": PASSWORD})
        api.client.cookies.clear()
        second = ada.__class__(api, "ada", r.json()["token"], ada.id)
        for player in (ada, second, ada):
            assert (await player.act(gid, {"type": "play", "card": 99},
                                     version=0)).status_code == 422
        assert_limited(await second.act(gid, {"type": "play", "card": 99}, version=0))


async def test_password_hashing_is_bounded(db_url):
    """24 logins at once: at most ``hash_concurrency`` argon2 computations run together (the
    rest queue), and every login is answered."""
    import asyncio
    import threading
    import time as _time

    async with app_with(db_url, hash_concurrency=2, login_free_failures=1000) as (app, client):
        api = Api(client("10.5.0.1"), app)
        await api.user("hasher")
        auth = app.state.services.auth
        lock, running, peak = threading.Lock(), [0], [0]
        verify = auth._verify

        def counting(stored, password):
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            try:
                _time.sleep(0.02)
                return verify(stored, password)
            finally:
                with lock:
                    running[0] -= 1

        auth._verify = counting
        replies = await asyncio.gather(*(
            client(f"10.6.0.{i}").post("/api/auth/login", json={
                "username": "hasher", "password": PASSWORD if i % 2 else "wrong pass"})
            for i in range(24)))
        assert sorted(r.status_code for r in replies) == [200] * 12 + [401] * 12
        assert 1 <= peak[0] <= 2


async def test_limits_hold_across_two_processes(pg_url):
    """Two server processes on one PostgreSQL: the register bucket and the login backoff are
    shared, so alternating between the processes gains nothing."""
    from .test_processes import server_process

    limits = {"MENAGERIE_RATE_AUTH_BURST": "4", "MENAGERIE_RATE_AUTH_PER_MINUTE": "1",
              "MENAGERIE_LOGIN_FREE_FAILURES": "2"}
    async with server_process(pg_url, **limits) as one, server_process(pg_url, **limits) as two:
        async with httpx.AsyncClient(base_url=f"http://{one.base}") as a, \
                httpx.AsyncClient(base_url=f"http://{two.base}") as b:
            codes = []
            for i in range(8):
                r = await (a, b)[i % 2].post("/api/auth/register", json={
                    "username": f"pp{i}", "password": PASSWORD})
                codes.append(r.status_code)
            assert codes == [201] * 4 + [429] * 4  # one process alone would have allowed 8
            # the login backoff: two failures on one process, then the other refuses
            for client in (a, b):
                r = await client.post("/api/auth/login", json={"username": "pp0",
                                                                "password": "wrong pass"})
                assert r.status_code == 401
            seen = set()
            for client in (a, b):
                r = await client.post("/api/auth/login", json={"username": "pp0",
                                                                "password": PASSWORD})
                seen.add(r.status_code)
            assert seen == {429}
