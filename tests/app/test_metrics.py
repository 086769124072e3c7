"""GET /metrics: Prometheus text with requests by route and status, action latency, sockets,
cached games and lock waits."""

from __future__ import annotations

import re

from .conftest import live_server, make_settings, running_app
from .wsclient import Socket


def value(text: str, name: str, labels: str = "", default: float | None = None) -> float:
    pattern = re.escape(name) + (re.escape("{" + labels + "}") if labels else r"(?:\{\})?")
    m = re.search("^" + pattern + r" (\S+)$", text, re.M)
    if m is None and default is not None:
        return default
    assert m, f"{name}{{{labels}}} missing"
    return float(m.group(1))


async def test_metrics_exposition(db_url):
    import httpx

    from .conftest import Api

    async with live_server(make_settings(db_url)) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            ada, bob = await api.user(), await api.user()
            gid = await api.toy_game(ada, others=[bob])
            before = (await c.get("/metrics")).text
            actions_before = value(before, "menagerie_action_duration_seconds_count")
            ws = await Socket.open(host, gid)
            await ws.recv()
            card = (await ada.legal(gid))["actions"][0]
            assert (await ada.act(gid, card, version=0)).status_code == 200
            await ws.recv_type("state")
            await c.get("/api/games/424242")
            r = await c.get("/metrics")
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
            text = r.text
            assert value(text, "menagerie_http_requests_total",
                         'method="POST",route="/api/games/{game_id}/actions",status="200"') >= 1
            assert value(text, "menagerie_http_requests_total",
                         'method="GET",route="/api/games/{game_id}",status="404"') >= 1
            assert value(text, "menagerie_action_duration_seconds_count") == actions_before + 1
            assert value(text, "menagerie_game_lock_wait_seconds_count") >= 1
            assert value(text, "menagerie_open_sockets") == 1
            assert value(text, "menagerie_games_cached") >= 1
            assert value(text, "menagerie_listen_connected") == 1
            assert value(text, "menagerie_ws_encodings_total", 'viewer="spectator"') >= 1
            assert "menagerie_http_request_duration_seconds_bucket" in text
            # unknown paths do not create a label per path
            await c.get("/api/nothing/here/1")
            await c.get("/api/nothing/here/2")
            text = (await c.get("/metrics")).text
            assert "/api/nothing" not in text
            await ws.close()


async def test_metrics_token(db_url):
    async with running_app(make_settings(db_url, metrics_token="s3cret")) as api:
        r = await api.client.get("/metrics")
        assert r.status_code == 401
        r = await api.client.get("/metrics", headers={"Authorization": "Bearer nope"})
        assert r.status_code == 401
        r = await api.client.get("/metrics", headers={"Authorization": "Bearer s3cret"})
        assert r.status_code == 200 and "menagerie_open_sockets" in r.text


async def test_one_encoding_per_version_for_every_spectator(db_url):
    """Fan-out: a version is encoded once for all the spectators of a game (and once per
    seat), however many sockets watch it."""
    import httpx

    from .conftest import Api

    async with live_server(make_settings(db_url)) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as c:
            api = Api(c, app)
            ada, bob = await api.user(), await api.user()
            gid = await api.toy_game(ada, others=[bob])
            sockets = [await Socket.open(host, gid) for _ in range(12)]
            seats = [await Socket.open(host, gid, p.token) for p in (ada, bob)]
            for s in sockets + seats:
                await s.recv()
            before = (await c.get("/metrics")).text
            card = (await ada.legal(gid))["actions"][0]
            assert (await ada.act(gid, card, version=0)).status_code == 200
            for s in sockets + seats:
                await s.states_until(1)
            after = (await c.get("/metrics")).text

            def delta(name, labels=""):
                return value(after, name, labels) - value(before, name, labels, default=0.0)

            assert delta("menagerie_ws_encodings_total", 'viewer="spectator"') == 1
            assert delta("menagerie_ws_encodings_total", 'viewer="seat"') == 2
            assert delta("menagerie_ws_messages_sent_total") >= 14
            assert len({s.raw[-1] for s in sockets}) == 1  # the very same bytes
            for s in sockets + seats:
                await s.close()


async def test_the_server_sets_the_collectors_thresholds(db_url):
    """A full collection stops the process for tens of ms under load: the server makes them
    rarer (settings.gc_thresholds) once it has started."""
    import gc

    from .conftest import make_settings, running_app

    before = gc.get_threshold()
    try:
        settings = make_settings(db_url, gc_thresholds=(12_345, 17, 19))
        async with running_app(settings):
            assert gc.get_threshold() == (12_345, 17, 19)
    finally:
        gc.set_threshold(*before)
