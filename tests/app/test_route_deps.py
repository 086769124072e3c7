"""The routes' typed dependencies (app/routes/deps.py): the caller is resolved before an id of
the path, so a missing login (401) or a cookie write without its CSRF header (403) is refused
before a malformed id (404); a malformed id of a signed-in caller is 404 ``not_found``."""

from __future__ import annotations

import pytest

from app.auth import COOKIE, CSRF_COOKIE
from app.errors import status_of
from app.refusal import Refusal
from app.routes.deps import parse_id, socket_game_id

from .conftest import PASSWORD

# (method, path with a malformed id, what is not found)
MALFORMED = [
    ("post", "/api/games/abc/rematch", "game"),
    ("post", "/api/games/0/rematch/accept", "game"),
    ("post", "/api/games/-1/rematch/decline", "game"),
    ("post", "/api/games/01/chat", "game"),
    ("delete", "/api/me/webhooks/abc", "webhook"),
    ("delete", "/api/me/webhooks/0", "webhook"),
]


async def test_ids_are_positive_integers():
    assert parse_id("42", "game") == 42
    for raw in ("0", "-1", "01", "abc", "1e3", " 1", "1" * 19, ""):
        with pytest.raises(Refusal) as exc:
            parse_id(raw, "game")
        assert (status_of(exc.value), exc.value.code) == (404, "not_found")
        assert await socket_game_id(raw) is None
    assert await socket_game_id("7") == 7


def test_no_dependency_runs_in_the_thread_pool():
    """FastAPI runs a plain ``def`` dependency (or endpoint) in a worker thread: a thread
    hand-off per request for a function that only reads the request. Every dependency and
    endpoint of the app is ``async def`` (a profile under load found 5 % of the server's CPU in
    that hand-off)."""
    import inspect

    from fastapi.routing import APIRoute, APIWebSocketRoute

    from app.main import create_app

    sync = set()

    def walk(dependant):
        call = dependant.call
        if call is not None and not (inspect.iscoroutinefunction(call)
                                     or inspect.iscoroutinefunction(
                                         getattr(call, "__call__", None))):  # noqa: B004 (a callable object's method)
            sync.add(getattr(call, "__qualname__", repr(call)))
        for sub in dependant.dependencies:
            walk(sub)

    def flat(routes):  # FastAPI keeps an included router as one entry (original_router)
        for r in routes:
            inner = getattr(r, "original_router", None)
            if inner is not None:
                yield from flat(inner.routes)
            elif isinstance(r, (APIRoute, APIWebSocketRoute)):
                yield r

    routes = list(flat(create_app().routes))
    assert len(routes) > 40
    for route in routes:
        walk(route.dependant)
    assert not sync, f"sync dependencies or endpoints: {sorted(sync)}"


async def test_unauthorized_before_not_found(api):
    c = api.client
    for method, path, _ in MALFORMED:
        body = {"json": {"text": "hi"}} if method == "post" else {}
        r = await c.request(method.upper(), path, **body)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized", path


async def test_csrf_before_not_found(api):
    c = api.client
    r = await c.post("/api/auth/register", json={"username": "deps_cookie", "password": PASSWORD})
    token, csrf = r.json()["token"], r.cookies.get(CSRF_COOKIE)
    c.cookies.clear()
    jar = {"Cookie": f"{COOKIE}={token}; {CSRF_COOKIE}={csrf}"}
    for method, path, _ in MALFORMED:
        r = await c.request(method.upper(), path, headers=jar)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed", path


async def test_malformed_ids_are_not_found(api):
    ada = await api.user()
    for method, path, _what in MALFORMED:
        body = {"json": {"text": "hi"}} if method == "post" else {}
        r = await api.client.request(method.upper(), path, headers=ada.headers, **body)
        assert r.status_code == 404, (path, r.text)
        assert r.json()["error"]["code"] == "not_found", path
    # reads of a spectator too
    for path in ("/api/games/abc/chat", "/api/games/abc/history", "/api/games/abc/record",
                 "/api/games/abc/rematch"):
        r = await api.client.get(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", path
