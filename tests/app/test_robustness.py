"""Garbage in never gives a 500: every refusal is a 4xx with {"error": {"code", "message"}}."""

from __future__ import annotations

import pytest


def assert_error(r, status, code=None):
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert set(body) == {"error"} and isinstance(body["error"]["message"], str)
    if code:
        assert body["error"]["code"] == code, body


async def test_garbage_bodies(api):
    ada = await api.user()
    gid = await api.toy_game(ada, others=[await api.user()])
    h = {**ada.headers, "content-type": "application/json"}
    c = api.client
    url = f"/api/games/{gid}/actions"
    for raw in (b"{", b"not json", b"\xff\xfe\x00", b'{"version": 0, "action": ', b"[1, 2",
                b"nul", b'{"a": "\\ud800"}'):
        r = await c.post(url, content=raw, headers=h)
        assert r.status_code in (400, 422), raw
        assert "error" in r.json()
    r = await c.post(url, content=b"{", headers=h)
    assert_error(r, 400, "malformed_json")
    cases = [
        [], "x", 3, None, {"version": "0", "action": {}}, {"version": 0.5, "action": {}},
        {"version": True, "action": {"type": "play"}}, {"version": 0, "action": []},
        {"version": 0, "action": "play"}, {"version": -1, "action": {"type": "play"}},
        {"version": 10**30, "action": {"type": "play"}}, {"action": {"type": "play"}},
        {"version": 0},
    ]
    for body in cases:
        r = await c.post(url, json=body, headers=ada.headers)
        assert_error(r, 422, "invalid_request")
    # well-formed but nonsense actions: the engine's codes
    for action in ({}, {"type": 5}, {"type": "play", "card": {"deep": [1, 2, 3]}},
                   {"type": "play", "card": "7"}, {"type": "play", "card": 10**40},
                   {"type": "play", "card": 1.5}, {"type": "x" * 5000}):
        r = await c.post(url, json={"version": 0, "action": action}, headers=ada.headers)
        assert r.status_code == 422, (action, r.text)
    # lookalikes of a legal action (7.0 for 7) are refused, not stored with the wrong type
    hand = (await ada.game(gid))["view"]["private"]["hand"]
    r = await c.post(url, json={"version": 0, "action": {"type": "play", "card": float(hand[0])}},
                     headers=ada.headers)
    assert_error(r, 422, "malformed")
    if 1 in hand:
        r = await c.post(url, json={"version": 0, "action": {"type": "play", "card": True}},
                         headers=ada.headers)
        assert_error(r, 422, "malformed")
    deep = {"type": "play"}
    for _ in range(200):
        deep = {"type": "play", "x": deep}
    r = await c.post(url, json={"version": 0, "action": deep}, headers=ada.headers)
    assert_error(r, 422)
    very_deep = b'{"version": 0, "action": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = await c.post(url, content=very_deep, headers=h)
    assert r.status_code in (400, 422) and "error" in r.json()
    # wrong content type
    r = await c.post(url, content=b'{"version": 0, "action": {}}',
                     headers={**ada.headers, "content-type": "text/plain"})
    assert r.status_code in (415, 422) and "error" in r.json()
    # nothing was written
    assert (await ada.game(gid))["version"] == 0


async def test_huge_bodies(api):
    ada = await api.user()
    big = b'{"username": "' + b"a" * (70 * 1024) + b'", "password": "x"}'
    r = await api.client.post("/api/auth/register", content=big,
                              headers={"content-type": "application/json"})
    assert_error(r, 413, "too_large")

    async def chunks():  # no Content-Length: counted while streamed
        yield b'{"game": "toy", "seats": 2, "options": {"x": "'
        for _ in range(100):
            yield b"y" * 1024
        yield b'"}}'

    r = await api.client.post("/api/games", content=chunks(),
                              headers={**ada.headers, "content-type": "application/json"})
    assert_error(r, 413, "too_large")
    r = await api.client.post("/api/games", content=b"{}",
                              headers={**ada.headers, "content-length": "abc",
                                       "content-type": "application/json"})
    assert r.status_code == 400


@pytest.mark.parametrize("path", [
    "/api/games/0", "/api/games/999999", "/api/games/abc", "/api/games/-1",
    "/api/games/99999999999999999999999", "/api/games/1.5", "/api/games/%00",
    "/api/games/999999/legal", "/api/games/999999/log", "/api/nothing", "/api/",
    "/api/catalog/%2e%2e", "/api/games/1/log?after=abc",
])
async def test_unknown_ids_and_paths(api, path):
    ada = await api.user()
    r = await ada.get(path)
    assert r.status_code in (404, 422), (path, r.status_code, r.text)
    assert "error" in r.json()


async def test_unknown_ids_on_writes_and_methods(api):
    ada = await api.user()
    for path in ("/api/games/999999/join", "/api/games/999999/start",
                 "/api/games/nope/start"):
        assert_error(await ada.post(path), 404, "not_found")
    r = await ada.post("/api/games/999999/actions", json={"version": 0, "action": {"type": "x"}})
    assert_error(r, 404, "not_found")
    r = await api.client.delete("/api/games")
    assert_error(r, 405, "method_not_allowed")
    r = await api.client.get("/api/auth/login")
    assert_error(r, 405, "method_not_allowed")
    r = await api.client.put("/api/whatever")
    assert_error(r, 404, "not_found")
    for q in ("after=-5", "after=99999999999999", "limit=0", "limit=5000"):
        r = await api.client.get(f"/api/games/1/log?{q}")
        assert_error(r, 422, "invalid_request")
    r = await api.client.get("/api/games?offset=-1")
    assert_error(r, 422, "invalid_request")


async def test_actions_before_start_and_join_rules(api):
    ada, bob = await api.user(), await api.user()
    gid = await api.toy_game(ada, start=False)
    r = await ada.act(gid, {"type": "play", "card": 1}, version=0)
    assert_error(r, 409, "not_started")
    r = await ada.get(f"/api/games/{gid}/legal")
    assert_error(r, 409, "not_started")
    g = (await api.client.get(f"/api/games/{gid}")).json()
    assert g["view"] is None and g["status"] == "open"
    r = await bob.post(f"/api/games/{gid}/join", json={"seat": "1"})
    assert_error(r, 422, "invalid_request")
    r = await bob.post(f"/api/games/{gid}/join", content=b"[",
                       headers={"content-type": "application/json"})
    assert r.status_code == 400


async def test_request_id_and_health(api):
    r = await api.client.get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert r.status_code == 200 and r.json()["status"] == "ok"
    assert r.headers["x-request-id"] == "abc-123"
    r = await api.client.get("/api/games/xyz")
    assert len(r.headers["x-request-id"]) == 32
    r = await api.client.get("/healthz", headers={"X-Request-ID": "bad id with spaces"})
    assert r.headers["x-request-id"] != "bad id with spaces"
    r = await api.client.get("/openapi.json")
    assert r.status_code == 200 and "/api/games/{game_id}/actions" in r.json()["paths"]


async def test_static_client_and_fallbacks(db_url, tmp_path):
    from .conftest import make_settings, running_app

    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>client</title>")
    (static / "app.js").write_text("console.log(1)")
    async with running_app(make_settings(db_url, static_dir=static)) as api:
        c = api.client
        r = await c.get("/")
        assert r.status_code == 200 and "client" in r.text
        r = await c.get("/app.js")
        assert r.status_code == 200 and "console" in r.text
        r = await c.get("/games/12")  # client route: the page itself
        assert r.status_code == 200 and "client" in r.text
        assert_error(await c.get("/missing.js"), 404, "not_found")
        assert_error(await c.get("/api/missing"), 404, "not_found")
        assert_error(await c.post("/"), 405, "method_not_allowed")
        assert (await c.get("/healthz")).json()["status"] == "ok"


# --------------------------------------------------------------------------- more bad input

ODD_STRINGS = ["\u0000", "\ud800", "\U0010ffff" * 10, "\u202e\u0301" * 50, "😀" * 1000,
               "a\nb\rc\td", "%00%ff", "../../etc/passwd", "<script>alert(1)</script>",
               "'; DROP TABLE users; --", "\ufeff", "\x7f" * 10]
HUGE_NUMBERS = [10**30, -(10**30), 2**63, -(2**63) - 1, 1e308, -1e308, 1.7976931348623157e308]


async def test_odd_unicode_and_huge_numbers_over_http(api):
    ada = await api.user()
    gid = await api.toy_game(ada, others=[await api.user()])
    c = api.client
    h = {**ada.headers, "content-type": "application/json"}
    for text in ODD_STRINGS:
        for url, body in (("/api/auth/register", {"username": text, "password": text}),
                          ("/api/auth/login", {"username": text, "password": "x" * 8}),
                          ("/api/games", {"game": text, "seats": 2}),
                          ("/api/games", {"game": "toy", "seats": 2, "options": {text: text}}),
                          ("/api/games", {"game": "toy", "seats": 2, "bot": text}),
                          (f"/api/games/{gid}/actions", {"version": 0,
                                                         "action": {"type": text}}),
                          (f"/api/games/{gid}/actions", {"version": 0,
                                                         "action": {text: 1, "type": "play"}})):
            import json as _json

            raw = _json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
            r = await c.post(url, content=raw, headers=h)
            assert 400 <= r.status_code < 500, (url, text, r.status_code, r.text)
            assert "error" in r.json()
        from urllib.parse import quote

        q = quote(text.encode("utf-8", "surrogatepass"), safe="")
        for path in (f"/api/games/{q}", f"/api/catalog/{q}", f"/api/games?status={q}"):
            r = await c.get(path, headers=ada.headers)
            assert 400 <= r.status_code < 500, (path, r.status_code)
    for n in HUGE_NUMBERS:
        for body in ({"version": n, "action": {"type": "play", "card": 1}},
                     {"version": 0, "action": {"type": "play", "card": n}},
                     {"game": "toy", "seats": n}, {"game": "toy", "seats": 2, "bots": [n]},
                     {"game": "toy", "seats": 2, "options": {"rounds": n}}):
            url = f"/api/games/{gid}/actions" if "version" in body else "/api/games"
            r = await c.post(url, json=body, headers=ada.headers)
            assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
        r = await c.get(f"/api/games/{gid}/log?after={n}")
        assert r.status_code == 422
    # JSON the standard forbids: NaN, Infinity, duplicate keys, a BOM, trailing garbage
    for raw in (b'{"version": NaN, "action": {}}', b'{"version": Infinity, "action": {}}',
                b'{"version": 0, "version": 1, "action": {"type": "x"}}',
                b'\xef\xbb\xbf{"version": 0, "action": {}}', b'{"version": 0, "action": {}} xx',
                b'{"version": 1e999, "action": {}}', b"\x00" * 100, "ü".encode("latin-1")):
        r = await c.post(f"/api/games/{gid}/actions", content=raw, headers=h)
        assert 400 <= r.status_code < 500, (raw, r.status_code, r.text)
    # wide and deep: many keys, long arrays, deep nesting in options and actions
    wide = {f"k{i}": i for i in range(3000)}
    r = await c.post("/api/games", json={"game": "toy", "seats": 2, "options": wide},
                     headers=ada.headers)
    assert 400 <= r.status_code < 500
    deep = []
    for _ in range(100):
        deep = [deep]
    r = await c.post("/api/games", json={"game": "toy", "seats": 2, "options": {"x": deep}},
                     headers=ada.headers)
    assert 400 <= r.status_code < 500
    r = await c.post(f"/api/games/{gid}/actions",
                     json={"version": 0, "action": {"type": "play", "card": list(range(8000))}},
                     headers=ada.headers)
    assert 400 <= r.status_code < 500
    # headers: absurd content types, a huge header value, a bad Authorization
    r = await c.post("/api/games", content=b"{}", headers={**ada.headers,
                                                           "content-type": "application/x-evil"})
    assert 400 <= r.status_code < 500
    r = await c.get("/api/me", headers={"Authorization": "Bearer " + "x" * 5000})
    assert r.status_code == 401
    r = await c.get("/api/me", headers={"Authorization": "Bearer \u00e9t\u00e9".encode()})
    assert r.status_code == 401
    assert (await ada.game(gid))["version"] == 0
    assert (await c.get("/healthz")).status_code == 200


async def test_bad_input_over_the_socket(server):
    from websockets.exceptions import ConnectionClosed

    from .wsclient import Socket

    host, api = server
    ada = await api.user()
    gid = await api.toy_game(ada, others=[await api.user()])
    ws = await Socket.open(host, gid, ada.token)
    await ws.recv()
    deep = "[" * 5000 + "]" * 5000
    junk = [deep, '{"type": "action", "version": 0, "action": ' + "{\"a\":" * 500 + "1" +
            "}" * 500 + "}",
            '{"type": "sync", "after": 1e999}', '{"type": "sync", "after": NaN}',
            '{"type": "sync", "after": 99999999999999999999999}',
            '{"type": "action", "version": 99999999999999999999, "action": {"type": "play"}}',
            '{"type": "action", "version": -5, "action": {"type": "play"}}',
            '{"type": "\ud800"}'.encode("utf-8", "surrogatepass"), b"\xff\xfe\xfd",
            '{"type": "' + "\u202e" * 1000 + '"}', '{"type": "ping", "x": ' + "1" * 4000 + "}",
            '{"type": "action", "version": 0, "action": {"type": "play", "card": 1e308}}',
            "null", "true", "1", '""', "{}"]
    for message in junk:
        await ws.send(message)
        reply = await ws.recv()
        assert reply["type"] in ("error", "pong", "synced"), (message[:80], reply)
    await ws.send({"type": "ping"})
    assert (await ws.recv_type("pong"))[0]["type"] == "pong"
    # the token and the game id in the URL
    for gid_text, token in (("1e3", None), ("%F0%9F%98%80", None), (str(gid), "\u00e9" * 10),
                            (str(gid), "x" * 5000)):
        try:
            s = await Socket.open(host, gid_text, token)
        except Exception:  # refused at the handshake: fine too
            continue
        msg = await s.recv()
        assert msg["type"] == "error"
        import pytest as _pytest

        with _pytest.raises(ConnectionClosed):
            await s.recv()
    # a binary frame larger than the limit closes the socket cleanly (1009)
    await ws.send(b"x" * (70 * 1024))
    import pytest as _pytest

    with _pytest.raises(ConnectionClosed) as closed:
        for _ in range(3):
            await ws.recv()
    assert closed.value.rcvd is None or closed.value.rcvd.code in (1009, 1000, 1006)
    assert (await api.client.get("/healthz")).status_code == 200


async def test_database_away_is_503_and_bugs_are_500_with_an_error_body():
    """Every way a driver says "the connection is gone" is a 503 with Retry-After, including
    asyncpg's InternalClientError for a pooled connection a restart left mid-operation (once
    a 500 under a PostgreSQL restart); a plain bug is a 500 with the same error body."""
    import asyncpg
    import httpx
    from fastapi import FastAPI
    from sqlalchemy.exc import OperationalError

    from app import errors

    app = FastAPI()
    errors.install(app)
    away = {
        "internal_client": asyncpg.InternalClientError(
            "cannot switch to state 12; another operation (2) is in progress"),
        "lost": asyncpg.ConnectionDoesNotExistError("connection was closed"),
        "starting": asyncpg.CannotConnectNowError("the database system is starting up"),
        "shutdown": asyncpg.AdminShutdownError("terminating connection"),
        "reset": ConnectionResetError("reset by peer"),
        "wrapped": OperationalError("SELECT 1", {}, ConnectionRefusedError("down")),
    }

    @app.get("/away/{kind}")
    async def down(kind: str):
        raise away[kind]

    @app.get("/bug")
    async def bug():
        raise KeyError("a bug")

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for kind in away:
            r = await client.get(f"/away/{kind}")
            assert_error(r, 503, "database_unavailable")
            assert r.headers["retry-after"] == "1", kind
        r = await client.get("/bug")
        assert_error(r, 500, "internal")
