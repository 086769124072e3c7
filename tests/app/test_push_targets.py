"""Issue #31, finding 10: Web Push with ``MENAGERIE_PUSH_HOSTS`` empty (the documented "any
public https host" mode) used to store loopback and internal endpoints and connect to them
(``https://0x7f000001:P/``), and the sender followed redirects (a 307 led to a POST at an
internal port). Each attack is performed here and refused, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from aiohttp import web

from app.models_delivery import PushDelivery, PushSubscription
from app.netcheck import literal_address, numeric_ipv4
from app.times import utcnow

from .conftest import free_port, make_settings, running_app
from .test_push import FAST, Browser, PushEndpoint, rows, settle, subscribe

ANY_HOST = {**FAST, "push_hosts": "", "push_allow_loopback": False, "push_max_attempts": 1}


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections made to it (and closes them)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.connections = 0
        self.server: asyncio.AbstractServer | None = None

    async def _accept(self, reader, writer) -> None:
        self.connections += 1
        writer.close()

    async def __aenter__(self) -> Listener:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        return self

    async def __aexit__(self, *exc) -> None:
        assert self.server is not None
        self.server.close()
        with contextlib.suppress(Exception):
            await self.server.wait_closed()


def test_numeric_forms_name_their_address():
    for form in ("0x7f000001", "2130706433", "127.1", "0177.0.0.1", "0x7f.1"):
        assert str(numeric_ipv4(form)) == "127.0.0.1", form
    for name in ("push.example", "cafe.bad", "dead.beef", "fcm.googleapis.com", "1e100.net"):
        assert numeric_ipv4(name) is None, name
    assert str(literal_address("[::ffff:7f00:1]")) == "::ffff:7f00:1"


@pytest.mark.parametrize("host", [
    "0x7f000001", "2130706433", "127.1", "0177.0.0.1", "127.0.0.1", "localhost.", "localhost",
    "app.localhost", "[::1]", "[::ffff:7f00:1]", "[64:ff9b::a00:1]", "10.0.0.1", "0x0a000001",
    "169.254.169.254", "0xa9fea9fe", "192.168.1.1", "100.64.0.1", "0"])
async def test_any_host_mode_refuses_internal_endpoints(db_url, host):
    async with running_app(make_settings(db_url, **ANY_HOST)) as api:
        ada = await api.user("ada")
        r = await subscribe(ada, f"https://{host}:8443/push/x", Browser())
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "push_service_not_allowed"
        assert await rows(api, PushSubscription) == []


async def test_any_host_mode_rechecks_every_send(db_url):
    """Endpoints stored while their names were public (here: written into the table) and
    internal by the time of the send: no connection reaches the internal port."""
    async with running_app(make_settings(db_url, **ANY_HOST)) as api, Listener() as internal:
        ada = await api.user("ada")
        browser = Browser()
        endpoints = [f"https://{host}:{internal.port}/push/x"
                     for host in ("0x7f000001", "localhost", "127.0.0.1", "[::ffff:7f00:1]")]
        async with api.services.db.write() as s:
            for endpoint in endpoints:
                s.add(PushSubscription(user_id=ada.id, endpoint=endpoint,
                                       p256dh=browser.keys()["p256dh"],
                                       auth=browser.keys()["auth"], lang="en",
                                       created_at=utcnow()))
            await s.commit()
        queued = await api.services.push.enqueue_for_user(
            ada.id, lambda lang: {"title": "t", "body": "b", "url": "./", "tag": "x"})
        assert queued == len(endpoints)
        await settle(api)
        done = await rows(api, PushDelivery)
        assert [d.status for d in done] == ["failed"] * len(endpoints)
        assert {d.last_error for d in done} == {"refused: the host resolves to a private address"}
        assert internal.connections == 0


async def test_the_push_sender_follows_no_redirect(db_url):
    async with running_app(make_settings(db_url, **FAST, push_max_attempts=1)) as api:
        ada = await api.user("ada")
        internal = PushEndpoint()

        async def redirect(request: web.Request) -> web.Response:
            raise web.HTTPTemporaryRedirect(internal.url("secret"))

        app = web.Application()
        app.router.add_post("/push/{name}", redirect)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            async with internal:
                r = await subscribe(ada, f"http://127.0.0.1:{port}/push/ada", Browser())
                assert r.status_code == 201, r.text
                await api.services.push.enqueue_for_user(
                    ada.id, lambda lang: {"title": "t", "body": "b", "url": "./", "tag": "x"})
                await settle(api)
                assert internal.requests == []
        finally:
            await runner.cleanup()
        [d] = await rows(api, PushDelivery)
        assert d.status == "failed" and d.last_error == "HTTP 307"
