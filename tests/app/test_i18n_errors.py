"""Server text outside ApiError, in the caller's language: request validation, malformed JSON,
the framework's 404/405, the middlewares' own replies (body too large, a bad Content-Length, the
rate limit, CSRF), and the game socket's error messages and close reasons (``?lang=`` or the
handshake's Accept-Language). The code of each error never changes; only its sentence does.
"""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed

from app import i18n
from app.auth import COOKIE, CSRF_COOKIE

from .conftest import PASSWORD, make_settings, running_app
from .wsclient import Socket

LANGS = ("en", "uk", "de")


def said(lang: str, key: str, **params) -> str:
    """The sentence of a locale key, filled."""
    return i18n.fill(i18n.catalogue(lang)[key], params)


def error(r, status: int) -> dict:
    assert r.status_code == status, r.text
    return r.json()["error"]


OR = {"en": "or", "uk": "або", "de": "oder"}  # a list of choices in the reader's language


@pytest.mark.parametrize("lang", LANGS)
async def test_validation_errors_are_translated(api, lang):
    c = api.client
    head = {"Accept-Language": {"en": "en-GB", "uk": "uk-UA,uk;q=0.9", "de": "de-DE"}[lang]}
    cases = [
        (c.post("/api/auth/login", json={}, headers=head), "invalid_request.missing",
         {"where": "body.username"}, 422),
        (c.post("/api/auth/login", json={"username": 1, "password": "x"}, headers=head),
         "invalid_request.string_type", {"where": "body.username"}, 422),
        (c.get("/api/games?limit=0", headers=head), "invalid_request.ge",
         {"where": "query.limit", "n": 1}, 422),
        (c.get("/api/games?limit=abc", headers=head), "invalid_request.int_parsing",
         {"where": "query.limit"}, 422),
        (c.get("/api/games?status=zzz", headers=head), "invalid_request.literal",
         {"where": "query.status",
          "choices": f"'open', 'running' {OR[lang]} 'finished'"}, 422),
        (c.get("/api/games?mine=maybe", headers=head), "invalid_request.bool_parsing",
         {"where": "query.mine"}, 422),
        (c.post("/api/auth/login", content=b"{bad", headers={**head, "Content-Type": "application/json"}),
         "malformed_json", {}, 400),
    ]
    for call, key, params, status in cases:
        body = error(await call, status)
        assert body["code"] == key.split(".")[0]
        assert body["message"] == said(lang, key, **params), (lang, key, body)
    # the field details say the same, without the field's name
    body = error(await c.post("/api/auth/login", json={}, headers=head), 422)
    assert body["details"][0]["loc"] == ["body", "username"]
    assert body["details"][0]["message"] == said(lang, "invalid_request.missing", where="x")[3:]
    if lang != "en":
        assert body["message"] != said("en", "invalid_request.missing", where="body.username")


async def test_every_validation_message_of_the_api_is_translated(api):
    """All the validation sentences the app's own models produce have a translation (no
    English sentence comes back in uk or de)."""
    c = api.client
    r = await c.post("/api/auth/register", json={"username": "i18n_user", "password": PASSWORD})
    token = r.json()["token"]
    c.cookies.clear()
    auth = {"Authorization": f"Bearer {token}"}
    bad = [
        ("post", "/api/games", {"game": "x" * 70, "seats": 1}),
        ("post", "/api/games", {"game": "toy", "seats": "2"}),
        ("post", "/api/games", {"game": "toy", "seats": 2, "bots": "x"}),
        ("post", "/api/games", [1]),
        ("post", "/api/games", {"game": "toy", "seats": 2, "options": []}),
        ("post", "/api/games", {"game": "toy", "seats": 2, "bots": [1.5]}),
        ("post", "/api/games", {"game": "toy", "seats": 99}),
        ("post", "/api/games/1/actions", {"version": -1, "action": {}}),
        ("post", "/api/games/1/actions", {"version": 1, "action": []}),
    ]
    for method, url, payload in bad:
        english = error(await c.request(method, url, json=payload, headers=auth), 422)
        for lang in ("uk", "de"):
            body = error(await c.request(method, url, json=payload,
                                         headers={**auth, "Accept-Language": lang}), 422)
            assert body["code"] == english["code"] == "invalid_request"
            assert body["message"] != english["message"], (lang, url, payload, body)
            assert body["message"] == i18n.translate("invalid_request", english["message"], lang)


@pytest.mark.parametrize("lang", ["uk", "de"])
async def test_framework_and_middleware_replies_are_translated(api, lang):
    c = api.client
    head = {"Accept-Language": lang}
    cases = [
        (await c.get("/no-such-page.html", headers=head), 404, "not_found", "not_found", {}),
        (await c.get("/api/no/such/route", headers=head), 404, "not_found", "not_found.api_route", {}),
        (await c.delete("/api/auth/login", headers=head), 405, "method_not_allowed",
         "method_not_allowed", {}),
        (await c.post("/api/auth/login", content=b"x" * (70 * 1024),
                      headers={**head, "Content-Type": "application/json"}),
         413, "too_large", "too_large.body", {"limit": 65536}),
        (await c.post("/api/auth/login", content=b"{}",
                      headers={**head, "Content-Type": "application/json", "Content-Length": "abc"}),
         400, "bad_request", "bad_request.content_length", {}),
    ]
    for r, status, code, key, params in cases:
        body = error(r, status)
        assert body["code"] == code
        assert body["message"] == said(lang, key, **params), (key, body)
        english = said("en", key, **params)
        assert body["message"] != english


async def _stream(chunks):
    for chunk in chunks:
        yield chunk


@pytest.mark.parametrize("lang", ["uk", "de"])
async def test_a_streamed_body_too_large_is_translated(api, lang):
    """No Content-Length: the limit is found while reading (the middleware answers itself)."""
    r = await api.client.post("/api/auth/login", content=_stream([b"x" * 40_000] * 3),
                              headers={"Accept-Language": lang, "Content-Type": "application/json"})
    body = error(r, 413)
    assert body == {"code": "too_large", "message": said(lang, "too_large.body", limit=65536)}


@pytest.mark.parametrize("lang", ["uk", "de"])
async def test_rate_limit_and_csrf_refusals_are_translated(db_url, lang):
    settings = make_settings(db_url, rate_auth_burst=1, rate_auth_per_minute=1)
    async with running_app(settings) as api:
        c = api.client
        r = await c.post("/api/auth/register", json={"username": f"csrf_{lang}", "password": PASSWORD})
        token, csrf = r.json()["token"], r.cookies.get(CSRF_COOKIE)
        c.cookies.clear()
        r = await c.post("/api/auth/register", json={"username": f"more_{lang}", "password": PASSWORD},
                         headers={"Accept-Language": lang})
        body = error(r, 429)
        seconds = int(r.headers["retry-after"])
        assert body["code"] == "rate_limited" and body["retry_after"] == seconds
        assert body["message"] == said(lang, "rate_limited", seconds=seconds)
        jar = {"Cookie": f"{COOKIE}={token}; {CSRF_COOKIE}={csrf}", "Accept-Language": lang}
        body = error(await c.post("/api/games", headers=jar, json={"game": "toy", "seats": 2}), 403)
        assert body == {"code": "csrf_failed", "message": said(lang, "csrf_failed")}


# --------------------------------------------------------------------------- the game socket
async def closed_with(ws) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        await ws.recv()
    return closed.value.rcvd.code, closed.value.rcvd.reason


@pytest.mark.parametrize("lang", ["uk", "de"])
async def test_socket_refusals_and_close_reasons_are_translated(server, lang):
    host, api = server
    ada = await api.user()
    gid = await api.toy_game(ada, start=False)
    # ?lang= picks the language
    ws = await Socket.open(host, gid, "not-a-token", query=f"lang={lang}")
    msg = await ws.recv()
    assert msg == {"type": "error", "error": {"code": "bad_token", "message": said(lang, "bad_token.token")}}
    assert await closed_with(ws) == (4401, said(lang, "bad_token.token"))
    # ... and so does the handshake's Accept-Language
    ws = await Socket.open(host, 999999, additional_headers={"Accept-Language": f"{lang};q=0.9, fr"})
    msg = await ws.recv()
    assert msg["error"] == {"code": "not_found", "message": said(lang, "not_found.game")}
    assert await closed_with(ws) == (4404, said(lang, "not_found.game"))
    # ?lang= wins over the header (the page's choice, not the browser's)
    other = "de" if lang == "uk" else "uk"
    ws = await Socket.open(host, 999999, query=f"lang={lang}",
                           additional_headers={"Accept-Language": other})
    assert (await ws.recv())["error"]["message"] == said(lang, "not_found.game")
    # an unknown ?lang= falls back to the header
    ws = await Socket.open(host, 999999, query="lang=xx", additional_headers={"Accept-Language": lang})
    assert (await ws.recv())["error"]["message"] == said(lang, "not_found.game")


@pytest.mark.parametrize("lang", ["uk", "de"])
async def test_socket_messages_are_translated(server, lang, monkeypatch):
    host, api = server
    ada = await api.user()
    gid = await api.toy_game(ada, bots=(1,))
    # the app's message limit below the server's frame limit, so that the app itself answers
    monkeypatch.setattr(api.services.settings, "max_body_bytes", 1000)
    ws = await Socket.open(host, gid, query=f"lang={lang}")  # a spectator
    await ws.recv_type("hello")
    cases = [
        ("{not json", "malformed_json", "malformed_json.ws", {}),
        (json.dumps([1]), "bad_message", "bad_message.type", {}),
        (json.dumps({"type": "dance"}), "bad_message", "bad_message", {"kind": "'dance'"}),
        (json.dumps({"type": "sync", "after": "x"}), "invalid_request", "invalid_request.after", {}),
        (json.dumps({"type": "action", "version": "x"}), "invalid_request", "invalid_request.action", {}),
        (json.dumps({"type": "action", "version": 0, "action": {"type": "x"}}), "unauthorized",
         "unauthorized.play", {}),
    ]
    for data, code, key, params in cases:
        await ws.send(data)
        msg, _ = await ws.recv_type("error")
        assert msg["error"] == {"code": code, "message": said(lang, key, **params)}, (data, msg)
    # a player's refused action: the engine's error, translated, its extra fields kept
    player = await Socket.open(host, gid, ada.token, query=f"lang={lang}")
    hello, _ = await player.recv_type("hello")
    await player.send({"type": "action", "version": hello["version"] + 5, "action": {"type": "x"}})
    msg, _ = await player.recv_type("error")
    assert msg["error"] == {"code": "stale_version", "version": msg["error"]["version"],
                            "message": said(lang, "stale_version", version=msg["error"]["version"])}
    # an oversized message: the error and the close reason in the socket's language
    await ws.send("x" * 2000)
    msg, _ = await ws.recv_type("error")
    assert msg["error"] == {"code": "too_large", "message": said(lang, "too_large.message", limit=1000)}
    code, reason = await closed_with(ws)
    assert code == 1009 and reason == said(lang, "too_large.message", limit=1000)
    await player.close()


def test_close_reasons_fit_the_protocol():
    text = "й" * 100  # 200 bytes of UTF-8
    cut = i18n.close_reason(text)
    assert len(cut.encode()) <= 123 and text.startswith(cut) and len(cut) == 61
    assert i18n.close_reason("short") == "short"


@pytest.mark.parametrize("lang", ["uk", "de"])
async def test_the_handlers_own_sentences_are_translated(lang):
    """The database being away (503), text that is not Unicode (400): sentences of the
    exception handlers themselves."""
    import httpx
    from fastapi import FastAPI
    from sqlalchemy.exc import OperationalError

    from app import errors

    app = FastAPI()
    errors.install(app)

    @app.get("/db")
    async def db():
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("down"))

    @app.get("/text")
    async def text():
        raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        r = await client.get("/db", headers={"Accept-Language": lang})
        assert error(r, 503) == {"code": "database_unavailable", "message": said(lang, "database_unavailable")}
        assert r.headers["retry-after"] == "1"
        r = await client.get("/text", headers={"Accept-Language": lang})
        assert error(r, 400) == {"code": "bad_text", "message": said(lang, "bad_text")}
        r = await client.get("/text")
        assert error(r, 400) == {"code": "bad_text", "message": said("en", "bad_text")}
