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
