"""Outbound webhooks: registration (validation, limits, ownership), signed deliveries to a real
HTTP receiver on 127.0.0.1, retries with backoff, giving up, surviving a restart, and one send
per delivery with two processes on PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import time

import pytest
from sqlalchemy import select

from app.models_delivery import WebhookDelivery
from app.signals import YourTurn

from .conftest import free_port, make_settings, running_app

FAST = dict(webhook_allow_private=True, webhook_backoff_base=0.02, webhook_poll_seconds=0.05,
            webhook_timeout=2.0)


@pytest.fixture
def settings(db_url):
    return make_settings(db_url, **FAST)


# --------------------------------------------------------------------------- a receiver
class Receiver:
    """A tiny HTTP/1.1 server on 127.0.0.1: records each request, answers the next status of
    ``statuses`` (the last one repeats)."""

    def __init__(self, statuses=(200,), delay: float = 0.0) -> None:
        self.statuses = list(statuses)
        self.delay = delay
        self.requests: list[dict] = []
        self.port = free_port()
        self.server = None
        self.arrived = asyncio.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def __aenter__(self) -> Receiver:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def __aexit__(self, *exc) -> None:
        self.server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.server.wait_closed(), 2)

    async def _serve(self, reader, writer) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    k, v = line.split(":", 1)
                    headers[k.strip().lower()] = v.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            if self.delay:
                await asyncio.sleep(self.delay)
            status = self.statuses[min(len(self.requests), len(self.statuses) - 1)]
            self.requests.append({"method": method, "path": path, "headers": headers,
                                  "body": body, "status": status})
            self.arrived.set()
            writer.write(f"HTTP/1.1 {status} X\r\nContent-Length: 2\r\nConnection: close"
                         f"\r\n\r\nok".encode())
            await writer.drain()
        finally:
            writer.close()

    async def wait_for(self, n: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.requests) < n:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(self.requests)} requests, wanted {n}")
            self.arrived.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), 0.2)


async def _deliveries(api) -> list[WebhookDelivery]:
    async with api.services.db.read() as s:
        return list((await s.execute(select(WebhookDelivery).order_by(WebhookDelivery.id)))
                    .scalars().all())


async def _wait_status(api, status: str, n: int = 1, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while True:
        rows = await _deliveries(api)
        if len([r for r in rows if r.status == status]) >= n:
            return rows
        if time.monotonic() > deadline:
            raise AssertionError([(r.id, r.status, r.attempts, r.last_error) for r in rows])
        await asyncio.sleep(0.05)


def _turn(gid: int, *users: int, version: int = 1) -> YourTurn:
    return YourTurn(game_id=gid, version=version, game="toy",
                    title="Hidden high card (test game)", users=tuple(users),
                    deadline="2030-01-01T00:00:00+00:00")


async def _hook(player, url) -> dict:
    r = await player.post("/api/me/webhooks", json={"url": url})
    assert r.status_code == 201, r.text
    return r.json()


# --------------------------------------------------------------------------- registration
async def test_register_list_and_delete_own_webhooks_only(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    made = await _hook(ada, "https://example.org/ada-hook")
    assert made["url"] == "https://example.org/ada-hook" and made["active"] is True
    assert made["secret"].startswith("whsec_") and len(made["secret"]) > 40
    listed = (await ada.get("/api/me/webhooks")).json()
    assert [w["id"] for w in listed["webhooks"]] == [made["id"]] and listed["limit"] == 5
    assert "secret" not in listed["webhooks"][0] and made["secret"] not in json.dumps(listed)
    assert listed["webhooks"][0]["last_delivery"] is None

    # another user neither sees nor deletes it
    assert (await bob.get("/api/me/webhooks")).json()["webhooks"] == []
    r = await api.client.delete(f"/api/me/webhooks/{made['id']}", headers=bob.headers)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert len((await ada.get("/api/me/webhooks")).json()["webhooks"]) == 1
    # nor does anybody anonymous
    assert (await api.client.get("/api/me/webhooks")).status_code == 401
    assert (await api.client.post("/api/me/webhooks",
                                  json={"url": "https://example.org/x"})).status_code == 401
    assert (await api.client.delete(f"/api/me/webhooks/{made['id']}")).status_code == 401

    r = await api.client.delete(f"/api/me/webhooks/{made['id']}", headers=ada.headers)
    assert r.status_code == 204
    assert (await ada.get("/api/me/webhooks")).json()["webhooks"] == []
    r = await api.client.delete(f"/api/me/webhooks/{made['id']}", headers=ada.headers)
    assert r.status_code == 404
    r = await api.client.delete("/api/me/webhooks/abc", headers=ada.headers)
    assert r.status_code == 404


async def test_validation_errors_have_stable_codes(api):
    ada = await api.user("ada")
    for bad in ("ftp://example.org/x", "example.org/hook", "http://", "javascript:alert(1)",
                "https://exa mple.org/", "http://example.org:99999/", "https://x.org/a\nb",
                "https://example.org/" + "x" * 2000):
        r = await ada.post("/api/me/webhooks", json={"url": bad})
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["error"]["code"] == "bad_webhook_url"
    r = await ada.post("/api/me/webhooks", json={"url": 42})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"

    for i in range(5):
        await _hook(ada, f"https://example.org/hook/{i}")
    r = await ada.post("/api/me/webhooks", json={"url": "https://example.org/hook/0"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "webhook_exists"
    r = await ada.post("/api/me/webhooks", json={"url": "https://example.org/hook/6"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "webhook_limit"
    r = await ada.post("/api/me/webhooks", json={"url": "https://example.org/hook/6"},
                       headers={"Accept-Language": "uk"})
    assert r.json()["error"]["code"] == "webhook_limit" and "вебхук" in r.json()["error"]["message"]


async def test_private_targets_are_refused_unless_allowed(db_url):
    async with running_app(make_settings(db_url)) as api:
        ada = await api.user("ada")
        for url in ("http://127.0.0.1:9/x", "http://localhost/x", "http://10.1.2.3/",
                    "http://[::1]/x", "http://169.254.169.254/latest/meta-data",
                    "http://192.168.0.1/"):
            r = await ada.post("/api/me/webhooks", json={"url": url})
            assert r.status_code == 422, url
            assert r.json()["error"]["code"] == "webhook_private_address"


# --------------------------------------------------------------------------- deliveries
async def test_signed_delivery_reaches_the_receiver(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    async with Receiver() as rx:
        hook = await _hook(bob, rx.url)
        await _hook(ada, rx.url + "?ada")  # not ada's turn: nothing for her
        api.services.signals.emit_your_turn(_turn(gid, bob.id, version=3))
        await rx.wait_for(1)
        await _wait_status(api, "delivered")
        await asyncio.sleep(0.2)
    assert len(rx.requests) == 1
    req = rx.requests[0]
    assert req["method"] == "POST" and req["path"] == "/hook"
    h = req["headers"]
    assert h["content-type"] == "application/json" and h["x-menagerie-event"] == "your_turn"
    # the receiver's check: HMAC-SHA256 of "<timestamp>.<body>" with the secret
    expected = hmac.new(hook["secret"].encode(), h["x-menagerie-timestamp"].encode() + b"." +
                        req["body"], hashlib.sha256).hexdigest()
    assert hmac.compare_digest(h["x-menagerie-signature"], f"sha256={expected}")
    assert abs(int(h["x-menagerie-timestamp"]) - time.time()) < 60
    body = json.loads(req["body"])
    assert body["event"] == "your_turn"
    assert body["game"] == {"id": gid, "game": "toy", "title": "Hidden high card (test game)",
                            "version": 3, "url": f"/game.html?id={gid}"}
    assert body["user"] == {"id": bob.id, "username": "bob"}
    assert body["deadline"] == "2030-01-01T00:00:00+00:00"
    assert str(body["delivery"]) == h["x-menagerie-delivery"] and body["sent_at"]
    # a tampered body does not verify
    forged = hmac.new(hook["secret"].encode(), h["x-menagerie-timestamp"].encode() + b"." +
                      req["body"].replace(b"bob", b"eve"), hashlib.sha256).hexdigest()
    assert forged != expected

    rows = await _deliveries(api)
    assert [(r.status, r.attempts) for r in rows] == [("delivered", 1)]
    last = (await bob.get("/api/me/webhooks")).json()["webhooks"][0]["last_delivery"]
    assert last["status"] == "delivered" and last["attempts"] == 1


async def test_failures_are_retried_with_backoff_then_delivered(api):
    bob = await api.user("bob")
    async with Receiver(statuses=(500, 503, 204)) as rx:
        await _hook(bob, rx.url)
        api.services.signals.emit_your_turn(_turn(7, bob.id))
        await rx.wait_for(3)
        rows = await _wait_status(api, "delivered")
        await asyncio.sleep(0.3)
    assert len(rx.requests) == 3
    assert len({r["headers"]["x-menagerie-delivery"] for r in rx.requests}) == 1
    assert [(r.status, r.attempts) for r in rows] == [("delivered", 3)]
    assert rows[0].last_error is None and rows[0].delivered_at is not None


async def test_gives_up_after_the_last_attempt(db_url):
    settings = make_settings(db_url, **{**FAST, "webhook_max_attempts": 3})
    async with running_app(settings) as api:
        bob = await api.user("bob")
        async with Receiver(statuses=(500,)) as rx:
            await _hook(bob, rx.url)
            await _hook(bob, f"http://127.0.0.1:{free_port()}/nobody-listens")
            api.services.signals.emit_your_turn(_turn(7, bob.id))
            rows = await _wait_status(api, "failed", n=2)
            await asyncio.sleep(0.3)
        assert len(rx.requests) == 3
        assert sorted((r.attempts, r.last_error.split(":")[0]) for r in rows) == \
            [(3, "HTTP 500"), (3, "connection failed")]


async def test_pending_deliveries_survive_a_restart(db_url):
    settings = make_settings(db_url, **{**FAST, "webhook_backoff_base": 0.5})
    async with Receiver(statuses=(500, 200)) as rx:
        async with running_app(settings) as api:
            bob = await api.user("bob")
            await _hook(bob, rx.url)
            api.services.signals.emit_your_turn(_turn(7, bob.id))
            await rx.wait_for(1)
        # stopped after one failed attempt: the row waits in the database
        async with running_app(settings) as api:
            rows = await _deliveries(api)
            assert [(r.status, r.attempts) for r in rows] == [("pending", 1)]
            rows = await _wait_status(api, "delivered")
            assert [(r.status, r.attempts) for r in rows] == [("delivered", 2)]
    assert len(rx.requests) == 2


async def test_two_processes_never_send_one_delivery_twice(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serves one process")
    settings = make_settings(db_url, **FAST)
    async with Receiver(delay=0.05) as rx, running_app(settings) as one, \
            running_app(settings) as two:
        users = [await one.user() for _ in range(4)]
        for u in users:
            for i in range(5):
                await _hook(u, f"{rx.url}?{u.name}-{i}")
        ids = tuple(u.id for u in users)
        for v in range(1, 6):
            one.services.signals.emit_your_turn(_turn(9, *ids, version=v))
            two.services.signals.emit_your_turn(_turn(10, *ids, version=v))
        await rx.wait_for(200, timeout=30)
        await _wait_status(one, "delivered", n=200, timeout=30)
        await asyncio.sleep(0.3)
    sent = [r["headers"]["x-menagerie-delivery"] for r in rx.requests]
    assert len(sent) == 200 and len(set(sent)) == 200


async def test_a_move_that_makes_it_your_turn_posts_to_your_webhook(api):
    """End to end: the game service signals whose turn it became after a move (not the one who
    moved, not a seat that already owed a decision); their webhooks get the POST."""
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob], start=False)
    async with Receiver() as rx:
        hooks = {p.name: await _hook(p, f"{rx.url}?{p.name}") for p in (ada, bob)}

        def posts(name):
            return [json.loads(r["body"]) for r in rx.requests
                    if r["path"].endswith(f"?{name}")]

        # the start: both owe their first card
        assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
        await rx.wait_for(2)
        assert [b["game"]["version"] for b in posts("ada")] == [0]
        assert [b["game"]["version"] for b in posts("bob")] == [0]

        # both play a card (each already owed it: no new notice), the winner of the trick
        # then owes the reward decision, and after it the loser owes the next card
        for p, v in ((ada, 0), (bob, 1)):
            card = (await p.legal(gid))["actions"][0]
            assert (await p.act(gid, card, version=v)).status_code == 200
        winner_seat = (await ada.game(gid))["waiting_for"][0]
        winner, loser = (ada, bob) if winner_seat == 0 else (bob, ada)
        assert (await winner.act(gid, {"type": "score"}, version=2)).status_code == 200
        await api.services.signals.drain()
        await rx.wait_for(3 + (winner is ada))
        await _wait_status(api, "delivered", n=3 + (winner is ada))
        await asyncio.sleep(0.2)
    got = posts(loser.name)
    assert [b["game"]["version"] for b in got] == [0, 3]
    assert got[-1]["user"] == {"id": loser.id, "username": loser.name}
    assert got[-1]["game"]["url"] == f"/game.html?id={gid}"
    # bob moved at version 2: a winning ada was told, bob never about his own move
    assert [b["game"]["version"] for b in posts(winner.name)] == ([0, 2] if winner is ada else [0])
    last = next(r for r in reversed(rx.requests) if r["path"].endswith(f"?{loser.name}"))
    h = last["headers"]
    assert h["x-menagerie-signature"] == "sha256=" + hmac.new(
        hooks[loser.name]["secret"].encode(),
        h["x-menagerie-timestamp"].encode() + b"." + last["body"], hashlib.sha256).hexdigest()


async def test_a_resignation_posts_to_the_other_players_webhooks(api):
    """Issue #33: the other players' webhooks get event "resigned" (with who resigned); the
    one who resigned gets nothing about it."""
    ada, bob, cyd = await api.user("ada"), await api.user("bob"), await api.user("cyd")
    gid = await api.toy_game(ada, seats=3, others=[bob, cyd])
    async with Receiver() as rx:
        for p in (ada, bob, cyd):
            await _hook(p, f"{rx.url}?{p.name}")
        assert (await cyd.post(f"/api/games/{gid}/resign")).status_code == 200
        await api.idle()
        await api.services.signals.drain()
        await rx.wait_for(2)
        await _wait_status(api, "delivered", n=2)
        await asyncio.sleep(0.2)
    got = sorted((r["path"].split("?")[1], json.loads(r["body"])) for r in rx.requests)
    assert [name for name, _ in got] == ["ada", "bob"]
    for name, body in got:
        assert body["event"] == "resigned" and body["by"] == "cyd"
        assert body["game"]["id"] == gid and body["user"]["username"] == name
    assert {r["headers"]["x-menagerie-event"] for r in rx.requests} == {"resigned"}


async def test_a_private_target_is_refused_when_delivering(db_url):
    """A host that resolves to a loopback address (here registered while allowed) gets no
    POST once private targets are refused: the attempt fails without a connection."""
    settings = make_settings(db_url, **{**FAST, "webhook_max_attempts": 1})
    async with running_app(settings) as api:
        bob = await api.user("bob")
        async with Receiver() as rx:
            await _hook(bob, rx.url.replace("127.0.0.1", "localhost"))
            api.services.settings.webhook_allow_private = False
            api.services.signals.emit_your_turn(_turn(7, bob.id))
            rows = await _wait_status(api, "failed")
            await asyncio.sleep(0.2)
        assert rx.requests == []
        assert "private address" in rows[0].last_error


# --------------------------------------------------------------------------- issue #15: SSRF

class _Rebinding:
    """A resolver for ``rebind.test``: a public address on the first look-up, 127.0.0.1 on
    every later one (DNS rebinding); other names resolve as usual."""

    PUBLIC = "93.184.216.34"

    def __init__(self, monkeypatch, first=PUBLIC, then="127.0.0.1") -> None:
        import socket

        self.real = socket.getaddrinfo
        self.first, self.then = first, then
        self.lookups = 0
        monkeypatch.setattr(socket, "getaddrinfo", self)

    def __call__(self, host, port, *args, **kw):
        name = host.decode() if isinstance(host, bytes) else host
        if name != "rebind.test":
            return self.real(host, port, *args, **kw)
        self.lookups += 1
        import socket

        address = self.first if self.lookups == 1 else self.then
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        sockaddr = (address, int(port or 80), 0, 0) if family == socket.AF_INET6 \
            else (address, int(port or 80))
        return [(family, socket.SOCK_STREAM, 6, "", sockaddr)]


async def test_a_rebinding_name_gets_no_post(db_url, monkeypatch):
    """The name is public when checked and loopback a moment later: the POST goes to the
    address that was checked (here unreachable), never to the one resolved afterwards."""
    settings = make_settings(db_url, **{**FAST, "webhook_max_attempts": 1,
                                        "webhook_timeout": 1.0})
    async with running_app(settings) as api:
        bob = await api.user("bob")
        async with Receiver() as rx:
            await _hook(bob, f"http://rebind.test:{rx.port}/hook")
            api.services.settings.webhook_allow_private = False
            resolver = _Rebinding(monkeypatch)
            api.services.signals.emit_your_turn(_turn(7, bob.id))
            rows = await _wait_status(api, "failed")
            await asyncio.sleep(0.2)
        assert rx.requests == []
        assert resolver.lookups == 1
        # coarse; the checked public address is unreachable here on most ports, but this
        # machine's network answers some ports of public addresses itself (HTTP 404 seen on a
        # random receiver port): either way the POST failed at the checked address
        error = rows[0].last_error
        assert error in ("connection failed", "timeout") or error.startswith("HTTP 4"), error


async def test_the_checked_address_is_used_with_the_original_host(db_url, monkeypatch):
    """Allowed private targets (tests) go the same way: one look-up, the connection to that
    address, the Host header of the URL's name."""
    settings = make_settings(db_url, **FAST)
    async with running_app(settings) as api:
        bob = await api.user("bob")
        async with Receiver() as rx:
            await _hook(bob, f"http://rebind.test:{rx.port}/hook")
            resolver = _Rebinding(monkeypatch, first="127.0.0.1", then="192.0.2.1")
            api.services.signals.emit_your_turn(_turn(7, bob.id))
            await rx.wait_for(1)
        assert resolver.lookups == 1
        assert rx.requests[0]["headers"]["host"] == f"rebind.test:{rx.port}"


@pytest.mark.parametrize("address", ["64:ff9b::7f00:1", "::ffff:127.0.0.1", "2002:7f00:1::",
                                     "64:ff9b:1::a00:1", "2001:0:4136:e378:8000:63bf:80ff:fffe",
                                     "::127.0.0.1"])
async def test_embedded_ipv4_addresses_are_refused(api, address, monkeypatch):
    """NAT64, IPv4-mapped, 6to4, Teredo and IPv4-compatible addresses may reach any IPv4
    address: refused when registered (a literal) and when a name resolves to one."""
    api.services.settings.webhook_allow_private = False
    bob = await api.user("bob")
    r = await bob.post("/api/me/webhooks", json={"url": f"http://[{address}]/hook"})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "webhook_private_address"
    from app.webhooks import RefusedTarget

    _Rebinding(monkeypatch, first=address, then=address)
    with pytest.raises(RefusedTarget):
        await api.services.webhooks._pin_target("https://rebind.test/hook")
