"""Web Push: the VAPID key (made once, shared), subscriptions (strict validation, per user),
and deliveries to a local push endpoint on 127.0.0.1 that does what a push service and the
browser do together: checks the VAPID token, and decrypts the message (RFC 8291, aes128gcm) with
the subscription's private key and auth secret, made here as a browser makes them."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
from datetime import UTC, datetime, timedelta

import http_ece
import pytest
from aiohttp import web
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from sqlalchemy import delete, select

from app.models_delivery import NoticeLog, PushDelivery, PushSubscription, ServerKey
from app.signals import YourTurn

from .conftest import free_port, make_settings, running_app

FAST = dict(push_allow_loopback=True, push_backoff_base=0.02, push_poll_seconds=0.05,
            push_timeout=2.0, push_subject="mailto:ops@menagerie.test")


@pytest.fixture
def settings(db_url):
    return make_settings(db_url, **FAST)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser keeps for one subscription: a P-256 key pair and a 16-byte auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"p256dh": b64(public), "auth": b64(self.auth)}

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        return json.loads(plain)


class PushEndpoint:
    """A push service on 127.0.0.1: one URL per browser (``/push/<name>``); records every POST
    and answers the next status of ``statuses`` for that browser (the last one repeats)."""

    def __init__(self, statuses=(201,)) -> None:
        self.statuses = list(statuses)
        self.port = free_port()
        self.requests: list[dict] = []
        self.runner: web.AppRunner | None = None

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    async def _handle(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        mine = [r for r in self.requests if r["name"] == name]
        status = self.statuses[min(len(mine), len(self.statuses) - 1)]
        self.requests.append({"name": name, "headers": {k.lower(): v for k, v in request.headers.items()},
                              "body": await request.read(), "status": status})
        return web.Response(status=status)

    async def __aenter__(self) -> PushEndpoint:
        app = web.Application()
        app.router.add_post("/push/{name}", self._handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.runner.cleanup()

    def to(self, name: str) -> list[dict]:
        return [r for r in self.requests if r["name"] == name]

    async def wait_for(self, n: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.requests) < n:
            assert time.monotonic() < deadline, f"{len(self.requests)} pushes, wanted {n}"
            await asyncio.sleep(0.02)


def vapid_claims(request: dict, public_key: str) -> dict:
    """Check the request's VAPID token as a push service does; return its claims."""
    header = request["headers"]["authorization"]
    assert header.startswith("vapid t=")
    parts = dict(p.split("=", 1) for p in header[len("vapid "):].split(","))
    assert parts["k"] == public_key  # signed with the key the page subscribed with
    assert Vapid.verify(header)  # the ES256 signature over the token
    payload = parts["t"].split(".")[1]
    return json.loads(unb64(payload))


async def subscribe(player, endpoint: str, browser: Browser, **extra):
    return await player.post("/api/me/push", json={"endpoint": endpoint, "expirationTime": None,
                                                   "keys": browser.keys()}, **extra)


async def rows(api, model):
    async with api.services.db.read() as s:
        return list((await s.execute(select(model).order_by(model.id))).scalars().all())


async def settle(api, timeout: float = 10.0) -> None:
    """Wait until the signal listeners have run and no push is pending."""
    await api.services.signals.drain()
    deadline = time.monotonic() + timeout
    while any(r.status == "pending" for r in await rows(api, PushDelivery)):
        assert time.monotonic() < deadline, "pushes still pending"
        await asyncio.sleep(0.02)


def turn(gid: int, *users: int) -> YourTurn:
    return YourTurn(game_id=gid, version=3, game="toy", title="Hidden high card (test game)",
                    users=tuple(users))


# --------------------------------------------------------------------------- the key
async def test_the_vapid_key_is_made_once_and_shared_by_every_process(settings):
    async with running_app(settings) as api:
        r = await api.client.get("/api/push/key")
        assert r.status_code == 200
        key = r.json()["key"]
        raw = unb64(key)
        assert len(raw) == 65 and raw[0] == 4  # an uncompressed P-256 point
        assert (await api.client.get("/api/push/key")).json()["key"] == key
        stored = await rows_by_name(api)
        assert list(stored) == ["vapid"] and "PRIVATE KEY" in stored["vapid"]
    # another process (or a restart) on the same database: the same key
    async with running_app(settings) as other:
        assert (await other.client.get("/api/push/key")).json()["key"] == key


async def rows_by_name(api) -> dict:
    async with api.services.db.read() as s:
        return {k.name: k.value for k in (await s.execute(select(ServerKey))).scalars()}


# --------------------------------------------------------------------------- subscriptions
async def test_bad_subscriptions_get_422_with_stable_codes(api):
    ada = await api.user("ada")
    good = Browser().keys()
    short_auth = b64(os.urandom(8))
    off_curve = b64(b"\x04" + b"\x01" * 64)
    cases = [
        ({"endpoint": "ftp://fcm.googleapis.com/x", "keys": good}, "bad_push_subscription"),
        ({"endpoint": "http://fcm.googleapis.com/x", "keys": good}, "bad_push_subscription"),
        ({"endpoint": "not a url", "keys": good}, "bad_push_subscription"),
        ({"endpoint": "https://fcm.googleapis.com/" + "x" * 1000, "keys": good},
         "bad_push_subscription"),
        ({"endpoint": "https://fcm.googleapis.com/a\nb", "keys": good}, "bad_push_subscription"),
        ({"endpoint": "https://fcm.googleapis.com/x",
          "keys": {**good, "auth": short_auth}}, "bad_push_subscription"),
        ({"endpoint": "https://fcm.googleapis.com/x",
          "keys": {**good, "p256dh": off_curve}}, "bad_push_subscription"),
        ({"endpoint": "https://fcm.googleapis.com/x",
          "keys": {**good, "p256dh": "!!!"}}, "bad_push_subscription"),
        ({"endpoint": "https://evil.example.org/x", "keys": good}, "push_service_not_allowed"),
        ({"endpoint": "https://10.0.0.1/x", "keys": good}, "push_service_not_allowed"),
        ({"endpoint": "http://127.0.0.2:9/x", "keys": good}, "bad_push_subscription"),
        # the shape: the framework's own code
        ({"endpoint": "https://fcm.googleapis.com/x"}, "invalid_request"),
        ({"endpoint": 42, "keys": good}, "invalid_request"),
        ({"endpoint": "https://fcm.googleapis.com/x", "keys": {**good, "extra": "1"}},
         "invalid_request"),
    ]
    for body, code in cases:
        r = await ada.post("/api/me/push", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["code"] == code, (body, r.text)
    r = await ada.post("/api/me/push", json=cases[0][0], headers={"Accept-Language": "de"})
    assert "Push-Dienst" in r.json()["error"]["message"]
    assert await rows(api, PushSubscription) == []
    # anonymous callers have none
    assert (await api.client.post("/api/me/push", json={"endpoint": "https://fcm.googleapis.com/"
                                                        "x", "keys": good})).status_code == 401


async def test_subscribe_refresh_move_and_unsubscribe(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    browser = Browser()
    endpoint = "https://fcm.googleapis.com/fcm/send/abc"
    r = await subscribe(ada, endpoint, browser)
    assert r.status_code == 201 and r.json()["endpoint"] == endpoint
    assert (await subscribe(ada, endpoint, browser)).status_code == 201  # again: one row
    assert [(s.user_id, s.endpoint) for s in await rows(api, PushSubscription)] == \
        [(ada.id, endpoint)]
    # bob signs in on the same browser: the subscription is his now
    assert (await subscribe(bob, endpoint, browser,
                            headers={"Accept-Language": "uk"})).status_code == 201
    subs = await rows(api, PushSubscription)
    assert [(s.user_id, s.lang) for s in subs] == [(bob.id, "uk")]
    # ada cannot remove it; bob can
    r = await api.client.request("DELETE", "/api/me/push", json={"endpoint": endpoint},
                                 headers=ada.headers)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = await api.client.request("DELETE", "/api/me/push", json={"endpoint": endpoint},
                                 headers=bob.headers)
    assert r.status_code == 204 and await rows(api, PushSubscription) == []


async def test_at_most_push_per_user_browsers_the_oldest_go(db_url):
    async with running_app(make_settings(db_url, **FAST, push_per_user=2)) as api:
        ada = await api.user("ada")
        for i in range(3):
            assert (await subscribe(ada, f"https://fcm.googleapis.com/s/{i}",
                                    Browser())).status_code == 201
        assert [s.endpoint for s in await rows(api, PushSubscription)] == \
            ["https://fcm.googleapis.com/s/1", "https://fcm.googleapis.com/s/2"]


# --------------------------------------------------------------------------- deliveries
async def test_a_move_that_makes_it_bobs_turn_pushes_once_to_bob(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    # both play a card; the trick's winner then owes the reward, and after it the loser plays
    for p, v in ((ada, 0), (bob, 1)):
        card = (await p.legal(gid))["actions"][0]
        assert (await p.act(gid, card, version=v)).status_code == 200
    await api.services.signals.drain()
    winner_seat = (await ada.game(gid))["waiting_for"][0]
    winner, loser = (ada, bob) if winner_seat == 0 else (bob, ada)
    key = (await api.client.get("/api/push/key")).json()["key"]
    browsers = {p.name: Browser() for p in (ada, bob)}
    async with PushEndpoint() as push:
        for p in (ada, bob):
            assert (await subscribe(p, push.url(p.name), browsers[p.name],
                                    headers={"Accept-Language": "de" if p is loser else "en"})
                    ).status_code == 201
        assert (await winner.act(gid, {"type": "score"}, version=2)).status_code == 200
        await settle(api)
        await asyncio.sleep(0.2)  # nothing more comes
    assert push.to(winner.name) == []  # the one who moved is not told
    [got] = push.to(loser.name)
    message = browsers[loser.name].decrypt(got["body"])
    assert message["url"] == f"game.html?id={gid}" and message["game"] == gid
    assert message["type"] == "your_turn" and message["tag"] == f"menagerie-turn-{gid}"
    assert message["title"] == "Du bist am Zug — Menagerie"  # the language it subscribed in
    assert "Hidden high card (test game)" in message["body"] and f"#{gid}" in message["body"]
    h = got["headers"]
    assert h["content-encoding"] == "aes128gcm" and int(h["ttl"]) == 24 * 3600
    assert h["urgency"] == "high"
    claims = vapid_claims(got, key)
    assert claims["aud"] == f"http://127.0.0.1:{push.port}"
    assert claims["sub"] == "mailto:ops@menagerie.test"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    [done] = [d for d in await rows(api, PushDelivery)]
    assert done.status == "delivered" and done.attempts == 1


async def test_a_410_drops_the_subscription_and_nothing_more_is_sent(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    await api.services.signals.drain()
    async with PushEndpoint(statuses=(410,)) as push:
        assert (await subscribe(bob, push.url("bob"), Browser())).status_code == 201
        assert (await subscribe(ada, push.url("ada"), Browser())).status_code == 201
        api.services.signals.emit_your_turn(turn(gid, bob.id))
        await settle(api)
        assert len(push.to("bob")) == 1
        subs = await rows(api, PushSubscription)
        assert [s.user_id for s in subs] == [ada.id]  # bob's is gone, ada's stays
        assert await rows(api, PushDelivery) == []  # and its messages with it
        api.services.signals.emit_your_turn(turn(gid, bob.id))
        await settle(api)
        await asyncio.sleep(0.2)
    assert len(push.to("bob")) == 1 and push.to("ada") == []


async def test_other_failures_are_retried_then_given_up(db_url):
    async with running_app(make_settings(db_url, **FAST, push_max_attempts=3)) as api:
        ada, bob = await api.user("ada"), await api.user("bob")
        gid = await api.toy_game(ada, others=[bob])
        await api.services.signals.drain()
        browser = Browser()
        async with PushEndpoint(statuses=(503, 500, 201)) as push:
            assert (await subscribe(bob, push.url("bob"), browser)).status_code == 201
            api.services.signals.emit_your_turn(turn(gid, bob.id))
            await settle(api)
        assert [r["status"] for r in push.requests] == [503, 500, 201]
        # every attempt carries the same message, freshly encrypted
        assert len({browser.decrypt(r["body"])["url"] for r in push.requests}) == 1
        [d] = await rows(api, PushDelivery)
        assert d.status == "delivered" and d.attempts == 3

        # a new waiting period (a second notice within one is throttled: tests/app/test_notify.py)
        async with api.services.db.write() as s:
            await s.execute(delete(NoticeLog))
            await s.commit()
        async with PushEndpoint(statuses=(500,)) as push:
            await subscribe(bob, push.url("bob2"), Browser())
            api.services.signals.emit_your_turn(turn(gid, bob.id))
            await settle(api)
        assert len(push.to("bob2")) == 3  # max attempts; the subscription stays
        # (the first endpoint is closed by now: its message failed too)
        assert sorted(d.status for d in await rows(api, PushDelivery)) == \
            ["delivered", "failed", "failed"]
        assert len(await rows(api, PushSubscription)) == 2


async def test_a_refused_connection_is_retried(db_url):
    async with running_app(make_settings(db_url, **FAST, push_max_attempts=2)) as api:
        ada, bob = await api.user("ada"), await api.user("bob")
        gid = await api.toy_game(ada, others=[bob])
        await api.services.signals.drain()
        closed = f"http://127.0.0.1:{free_port()}/push/nobody"
        assert (await subscribe(ada, closed, Browser())).status_code == 201
        api.services.signals.emit_your_turn(turn(gid, ada.id))
        await settle(api)
        [d] = await rows(api, PushDelivery)
        assert d.status == "failed" and d.attempts == 2 and d.last_error == "connection failed"


async def test_the_queue_survives_a_restart(settings):
    """A message queued by a process that stopped before sending it is sent by the next one."""
    browser = Browser()
    async with PushEndpoint() as push:
        async with running_app(settings) as api:
            ada = await api.user("ada")
            assert (await subscribe(ada, push.url("ada"), browser)).status_code == 201
            await api.services.push.stop()  # the worker is gone (a crash): the row waits
            queued = await api.services.push.enqueue_for_user(
                ada.id, lambda lang: {"url": "x", "lang": lang})
            assert queued == 1
            assert [d.status for d in await rows(api, PushDelivery)] == ["pending"]
        assert push.requests == []
        async with running_app(settings) as api:
            await settle(api)
            await asyncio.sleep(0.2)
        assert len(push.requests) == 1
        assert browser.decrypt(push.requests[0]["body"]) == {"url": "x", "lang": "en"}


async def test_an_operators_own_vapid_key_is_used_and_not_stored(db_url):
    own = Vapid()
    own.generate_keys()
    public = b64(own.public_key.public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.UncompressedPoint))
    number = own.private_key.private_numbers().private_value.to_bytes(32, "big")
    for given in (own.private_pem().decode(), b64(number)):
        async with running_app(make_settings(db_url, **FAST, vapid_private_key=given)) as api:
            assert (await api.client.get("/api/push/key")).json()["key"] == public
            assert await rows_by_name(api) == {}


async def test_two_processes_never_send_one_message_twice(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serves one process")
    settings = make_settings(db_url, **FAST)
    browsers = {}
    async with PushEndpoint() as push, running_app(settings) as one, \
            running_app(settings) as two:
        users = [await one.user() for _ in range(3)]
        # five real games (notices are recorded per game), made before any browser subscribes
        games = [await one.toy_game(users[0], others=[users[1]]) for _ in range(5)]
        await one.services.signals.drain()
        for u in users:
            for i in range(3):
                name = f"{u.name}-{i}"
                browsers[name] = Browser()
                assert (await subscribe(u, push.url(name), browsers[name])).status_code == 201
        ids = tuple(u.id for u in users)
        for i, gid in enumerate(games):  # 5 notices x 9 browsers, queued by both processes
            (one if i % 2 else two).services.signals.emit_your_turn(turn(gid, *ids))
        await one.services.signals.drain()
        await two.services.signals.drain()
        await push.wait_for(45, timeout=30)
        await settle(one)
        await asyncio.sleep(0.3)
    assert len(push.requests) == 45
    got = {(r["name"], browsers[r["name"]].decrypt(r["body"])["game"]) for r in push.requests}
    assert len(got) == 45  # each browser got each game's notice once


async def test_the_players_choices_apply_to_push(api):
    """Push is a channel of the dispatcher: the push switch, a kind switched off and quiet hours
    stop it like email; a user with a page open who chose "only when away" gets none."""
    ada, bob = await api.user("ada"), await api.user("bob")
    games = [await api.toy_game(ada, others=[bob]) for _ in range(4)]
    await api.services.signals.drain()

    async def choose(**prefs):
        r = await api.client.put("/api/me/notifications", json=prefs, headers=bob.headers)
        assert r.status_code == 200, r.text

    async with PushEndpoint() as push:
        assert (await subscribe(bob, push.url("bob"), Browser())).status_code == 201
        await choose(channels={"push": False})
        api.services.signals.emit_your_turn(turn(games[0], bob.id))
        await settle(api)
        await choose(channels={"push": True}, kinds={"your_turn": False})
        api.services.signals.emit_your_turn(turn(games[1], bob.id))
        await settle(api)
        now = datetime.now(UTC)  # bob's time zone is UTC (the default)
        asleep = {"start": f"{(now - timedelta(hours=1)):%H:%M}",
                  "end": f"{(now + timedelta(hours=1)):%H:%M}"}
        await choose(kinds={"your_turn": True}, quiet_hours=asleep)
        api.services.signals.emit_your_turn(turn(games[2], bob.id))
        await settle(api)
        assert push.requests == []
        await choose(quiet_hours=None)
        api.services.signals.emit_your_turn(turn(games[3], bob.id))
        await settle(api)
        assert [r["name"] for r in push.requests] == ["bob"]
