"""Who may do what: the authorization matrix over every endpoint, CSRF for cookie logins, the
security headers and the Content-Security-Policy, and hidden information in every response of
real Ark Nova games (HTTP and WebSocket)."""

from __future__ import annotations

import base64
import random
import re

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.auth import COOKIE, CSRF_COOKIE, csrf_for
from app.middleware import content_security_policy, inline_script_hashes

from .conftest import PASSWORD, Api, live_server, make_settings
from .wsclient import Socket

# --------------------------------------------------------------------------- the matrix

ROLES = ("anonymous", "other_player", "spectator", "own_seat")

#: (method, path template, body) -> expected status per role. The game {gid} is a running
#: two-seat toy game where "own_seat" (seat 0, the creator) owes the decision, "other_player"
#: sits in seat 1 and has already answered, "spectator" is signed in without a seat;
#: {open} is an open game created by "own_seat" with a free seat.
MATRIX = {
    ("POST", "/api/auth/register", "new_user"): dict(anonymous=201, other_player=201,
                                                     own_seat=201, spectator=201),
    ("POST", "/api/auth/login", "login_self"): dict(anonymous=401, other_player=200,
                                                    own_seat=200, spectator=200),
    ("POST", "/api/auth/logout", None): dict(anonymous=401, other_player=200, own_seat=200,
                                             spectator=200),
    ("POST", "/api/auth/logout-everywhere", None): dict(anonymous=401, other_player=200,
                                                        own_seat=200, spectator=200),
    ("POST", "/api/auth/password", "password"): dict(anonymous=401, other_player=200,
                                                     own_seat=200, spectator=200),
    ("GET", "/api/me", None): dict(anonymous=401, other_player=200, own_seat=200,
                                   spectator=200),
    ("GET", "/api/catalog", None): dict(anonymous=200, other_player=200, own_seat=200,
                                        spectator=200),
    ("GET", "/api/catalog/{game}", None): dict(anonymous=200, other_player=200, own_seat=200,
                                               spectator=200),
    ("GET", "/api/bots", None): dict(anonymous=200, other_player=200, own_seat=200,
                                     spectator=200),
    ("GET", "/api/games", None): dict(anonymous=200, other_player=200, own_seat=200,
                                      spectator=200),
    ("GET", "/api/games?mine=1", None): dict(anonymous=401, other_player=200, own_seat=200,
                                             spectator=200),
    # the caller's own next game (issue #33)
    ("GET", "/api/games/next", None): dict(anonymous=401, other_player=200, own_seat=200,
                                           spectator=200),
    ("POST", "/api/games", "create"): dict(anonymous=401, other_player=201, own_seat=201,
                                           spectator=201),
    ("GET", "/api/games/{gid}", None): dict(anonymous=200, other_player=200, own_seat=200,
                                            spectator=200),
    ("POST", "/api/games/{open}/join", None): dict(anonymous=401, other_player=200,
                                                   own_seat=409, spectator=200),
    ("POST", "/api/games/{open}/start", None): dict(anonymous=401, other_player=403,
                                                    own_seat=409, spectator=403),
    ("GET", "/api/games/{gid}/legal", None): dict(anonymous=401, other_player=200,
                                                  own_seat=200, spectator=403),
    ("POST", "/api/games/{gid}/actions", "own_move"): dict(anonymous=401, other_player=403,
                                                           own_seat=200, spectator=403),
    ("GET", "/api/games/{gid}/log", None): dict(anonymous=200, other_player=200, own_seat=200,
                                                spectator=200),
    # nothing to take back here (seat 1's secret answer was a barrier; seat 0 has not decided)
    ("POST", "/api/games/{gid}/undo", "undo"): dict(anonymous=401, other_player=409,
                                                    own_seat=409, spectator=403),
    # Confirm turn / Restart turn (issue #30): no turn of anybody's is held here (409
    # nothing_to_confirm / stale_version), nothing to take back; a spectator has no seat
    ("POST", "/api/games/{gid}/confirm", "undo"): dict(anonymous=401, other_player=409,
                                                       own_seat=409, spectator=403),
    ("POST", "/api/games/{gid}/restart", "undo"): dict(anonymous=401, other_player=409,
                                                       own_seat=409, spectator=403),
    # no seat of this game is played by a bot
    ("POST", "/api/games/{gid}/reclaim", None): dict(anonymous=401, other_player=409,
                                                     own_seat=409, spectator=403),
    # the ways out (issue #33): a resignation ends this two-seat game at once (seat 1 first:
    # then seat 0 finds the game over); an abort too (nobody has decided past the opening);
    # cancel and leave concern the open game, before its start (its creator cancels, cannot
    # leave; a player without a seat can do neither)
    ("POST", "/api/games/{gid}/resign", None): dict(anonymous=401, other_player=200,
                                                    own_seat=409, spectator=403),
    ("POST", "/api/games/{gid}/abort", None): dict(anonymous=401, other_player=200,
                                                   own_seat=409, spectator=403),
    ("POST", "/api/games/{open}/cancel", None): dict(anonymous=401, other_player=403,
                                                     own_seat=204, spectator=403),
    ("POST", "/api/games/{open}/leave", None): dict(anonymous=401, other_player=403,
                                                    own_seat=409, spectator=403),
    ("GET", "/api/games/{gid}/chat", None): dict(anonymous=200, other_player=200,
                                                 own_seat=200, spectator=200),
    # the spectators' channel is hidden from the players while the game runs
    ("GET", "/api/games/{gid}/chat?channel=spectators", None): dict(
        anonymous=200, other_player=403, own_seat=403, spectator=200),
    ("POST", "/api/games/{gid}/chat", "chat"): dict(anonymous=401, other_player=201,
                                                    own_seat=201, spectator=201),
    # vacations are the caller's own (issue #33): each role declares one day from now;
    # nobody's vacation 999999
    ("GET", "/api/me/vacations", None): dict(anonymous=401, other_player=200, own_seat=200,
                                             spectator=200),
    ("POST", "/api/me/vacations", "vacation"): dict(anonymous=401, other_player=201,
                                                    own_seat=201, spectator=201),
    ("DELETE", "/api/me/vacations/{vacation_id}", None): dict(
        anonymous=401, other_player=404, own_seat=404, spectator=404),
    # quick match (issue #33): the open seeks are public; each role posts one (the roles'
    # seeks pair with each other: 201 either way); nobody's seek 999999
    ("GET", "/api/seeks", None): dict(anonymous=200, other_player=200, own_seat=200,
                                      spectator=200),
    ("POST", "/api/seeks", "seek"): dict(anonymous=401, other_player=201, own_seat=201,
                                         spectator=201),
    ("POST", "/api/seeks/{seek_id}/accept", None): dict(anonymous=401, other_player=404,
                                                        own_seat=404, spectator=404),
    ("DELETE", "/api/seeks/{seek_id}", None): dict(anonymous=401, other_player=404,
                                                   own_seat=404, spectator=404),
    ("GET", "/api/me/webhooks", None): dict(anonymous=401, other_player=200, own_seat=200,
                                            spectator=200),
    ("POST", "/api/me/webhooks", "webhook"): dict(anonymous=401, other_player=201,
                                                  own_seat=201, spectator=201),
    # nobody's webhook (deleting another user's is tested in test_webhooks.py)
    ("DELETE", "/api/me/webhooks/{webhook_id}", None): dict(anonymous=401, other_player=404,
                                                            own_seat=404, spectator=404),
    # notification preferences are the caller's own; this test server sends no mail (409)
    ("GET", "/api/me/notifications", None): dict(anonymous=401, other_player=200, own_seat=200,
                                                 spectator=200),
    ("PUT", "/api/me/notifications", "prefs"): dict(anonymous=401, other_player=200,
                                                    own_seat=200, spectator=200),
    ("POST", "/api/me/email", "email"): dict(anonymous=401, other_player=409, own_seat=409,
                                             spectator=409),
    # the links in mails carry their own signed token (none here: refused for everyone)
    ("POST", "/api/email/verify", "token"): dict(anonymous=400, other_player=400, own_seat=400,
                                                 spectator=400),
    ("GET", "/api/email/verify", None): dict(anonymous=422, other_player=422, own_seat=422,
                                             spectator=422),
    ("POST", "/api/email/unsubscribe", None): dict(anonymous=422, other_player=422,
                                                   own_seat=422, spectator=422),
    ("GET", "/api/email/unsubscribe", None): dict(anonymous=422, other_player=422,
                                                  own_seat=422, spectator=422),
    # the VAPID public key is public; a browser's subscription belongs to the caller
    ("GET", "/api/push/key", None): dict(anonymous=200, other_player=200, own_seat=200,
                                         spectator=200),
    ("POST", "/api/me/push", "push_sub"): dict(anonymous=401, other_player=201, own_seat=201,
                                               spectator=201),
    # nobody's subscription (another user's endpoint is not theirs to drop: test_push.py)
    ("DELETE", "/api/me/push", "push_gone"): dict(anonymous=401, other_player=404,
                                                  own_seat=404, spectator=404),
    # ratings are public
    ("GET", "/api/ratings/{game}", None): dict(anonymous=200, other_player=200, own_seat=200,
                                               spectator=200),
    ("GET", "/api/users/{name}/ratings", None): dict(anonymous=200, other_player=200,
                                                     own_seat=200, spectator=200),
    # a running game has no record (the seed, secret answers), not even for its players
    ("GET", "/api/games/{gid}/record", None): dict(anonymous=409, other_player=409,
                                                   own_seat=409, spectator=409),
    ("POST", "/api/games/import", None): dict(anonymous=401, other_player=422, own_seat=422,
                                              spectator=422),
    # the public view of any version (privates only once the game is over)
    ("GET", "/api/games/{gid}/history", None): dict(anonymous=200, other_player=200,
                                                    own_seat=200, spectator=200),
    # post-game analysis (issue #19): a running game has none; cancel is the players' own;
    # this game has no hints (403 hints_off for everyone signed in: test_analysis_api.py)
    ("POST", "/api/games/{gid}/analysis", None): dict(anonymous=401, other_player=409,
                                                      own_seat=409, spectator=409),
    ("GET", "/api/games/{gid}/analysis", None): dict(anonymous=200, other_player=200,
                                                     own_seat=200, spectator=200),
    ("DELETE", "/api/games/{gid}/analysis", None): dict(anonymous=401, other_player=404,
                                                        own_seat=404, spectator=403),
    ("GET", "/api/games/{gid}/hint", None): dict(anonymous=401, other_player=403,
                                                 own_seat=403, spectator=403),
    ("POST", "/api/games/{gid}/rematch", None): dict(anonymous=401, other_player=409,
                                                     own_seat=409, spectator=403),
    ("GET", "/api/games/{gid}/rematch", None): dict(anonymous=200, other_player=200,
                                                    own_seat=200, spectator=200),
    ("POST", "/api/games/{gid}/rematch/accept", None): dict(anonymous=401, other_player=403,
                                                            own_seat=403, spectator=403),
    ("POST", "/api/games/{gid}/rematch/decline", None): dict(anonymous=401, other_player=403,
                                                             own_seat=403, spectator=403),
    ("GET", "/api/rematch/invitations", None): dict(anonymous=401, other_player=200,
                                                    own_seat=200, spectator=200),
    # the daily challenge (a toy kind here): today and past days are public, a start is the
    # caller's own attempt (each role's first: 201)
    ("GET", "/api/daily", None): dict(anonymous=200, other_player=200, own_seat=200,
                                      spectator=200),
    ("POST", "/api/daily/{kind}/start", None): dict(anonymous=401, other_player=201,
                                                    own_seat=201, spectator=201),
    ("GET", "/api/daily/{day}/{kind}/leaderboard", None): dict(
        anonymous=200, other_player=200, own_seat=200, spectator=200),
    ("GET", "/api/daily/history", None): dict(anonymous=200, other_player=200, own_seat=200,
                                              spectator=200),
    # invitations (issue #33): {inv} is an unlisted three-seat game of "own_seat" where seat 1
    # is kept for "other_player" and seat 2 is free; "own_seat" invites "other_player" (the
    # body), who cannot invite themselves; only the creator invites more or withdraws; only
    # the invited player answers; only an invited player joins an unlisted game
    ("POST", "/api/invitations", "invite"): dict(anonymous=401, other_player=422,
                                                 own_seat=201, spectator=201),
    ("GET", "/api/invitations", None): dict(anonymous=401, other_player=200, own_seat=200,
                                            spectator=200),
    ("POST", "/api/games/{inv}/invitations", "more"): dict(anonymous=401, other_player=403,
                                                           own_seat=200, spectator=403),
    ("POST", "/api/games/{inv}/invitation/accept", None): dict(
        anonymous=401, other_player=200, own_seat=403, spectator=403),
    ("POST", "/api/games/{inv}/invitation/decline", None): dict(
        anonymous=401, other_player=200, own_seat=403, spectator=403),
    ("DELETE", "/api/games/{inv}/invitations/{invitee}", None): dict(
        anonymous=401, other_player=403, own_seat=200, spectator=403),
    ("POST", "/api/games/{inv}/join", None): dict(anonymous=401, other_player=409,
                                                  own_seat=409, spectator=403),
    # friends are the caller's own list; following oneself is refused; profiles are public
    # (what they list depends on the viewer: test_profile.py)
    ("GET", "/api/me/following", None): dict(anonymous=401, other_player=200, own_seat=200,
                                             spectator=200),
    ("PUT", "/api/me/following/{name}", None): dict(anonymous=401, other_player=200,
                                                    own_seat=422, spectator=200),
    ("DELETE", "/api/me/following/{name}", None): dict(anonymous=401, other_player=204,
                                                       own_seat=204, spectator=204),
    ("GET", "/api/me/friends/games", None): dict(anonymous=401, other_player=200,
                                                 own_seat=200, spectator=200),
    ("GET", "/api/players/{name}", None): dict(anonymous=200, other_player=200, own_seat=200,
                                               spectator=200),
    ("GET", "/healthz", None): dict(anonymous=200, other_player=200, own_seat=200,
                                    spectator=200),
    ("GET", "/metrics", None): dict(anonymous=200, other_player=200, own_seat=200,
                                    spectator=200),
}
#: every HTTP route of the app must be in the matrix (a new endpoint needs its row)
NOT_IN_SCHEMA = {("GET", "/metrics")}


def _covered() -> set[tuple[str, str]]:
    out = set()
    for method, path, _ in MATRIX:
        path = path.split("?")[0].replace("{gid}", "{game_id}").replace("{open}", "{game_id}") \
            .replace("{inv}", "{game_id}").replace("{invitee}", "{name}")
        out.add((method, path))
    return out


def test_every_endpoint_is_in_the_matrix(tmp_path):
    from app.main import create_app

    app = create_app(make_settings(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"))
    routes = {(m.upper(), p) for p, ops in app.openapi()["paths"].items() for m in ops}
    assert routes | NOT_IN_SCHEMA == _covered(), "add the new endpoint to MATRIX"


def _push_subscription() -> dict:
    """A browser's subscription as ``pushManager.subscribe`` gives it (a fresh P-256 key)."""
    key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()  # noqa: E731
    return {"endpoint": f"https://fcm.googleapis.com/fcm/send/{random.randrange(10**12)}",
            "keys": {"p256dh": b64(key), "auth": b64(random.randbytes(16))}}


async def _scene(api: Api) -> dict:
    own, other, spect = await api.user(), await api.user(), await api.user()
    gid = await api.toy_game(own, others=[other])
    # seat 1 answers first, so seat 0 alone owes the decision
    card = (await other.legal(gid))["actions"][0]
    assert (await other.act(gid, card, version=0)).status_code == 200
    r = await own.post("/api/games", json={"game": "toy", "seats": 3})
    open_gid = r.json()["id"]
    r = await own.post("/api/invitations", json={"game": "toy", "seats": 3,
                                                 "invite": [other.name]})
    assert r.status_code == 201, r.text
    return {"own_seat": own, "other_player": other, "spectator": spect, "gid": gid,
            "open": open_gid, "inv": r.json()["id"]}


#: rows whose requests change the scene (each gets a fresh one; the others share one)
CHANGES = {"/api/auth/logout", "/api/auth/logout-everywhere", "/api/auth/password",
           "/api/games/{open}/join", "/api/games/{gid}/actions", "/api/games/{gid}/resign",
           "/api/games/{gid}/abort", "/api/games/{open}/cancel",
           "/api/games/{inv}/invitations", "/api/games/{inv}/invitation/accept",
           "/api/games/{inv}/invitation/decline", "/api/games/{inv}/invitations/{invitee}"}


async def test_authorization_matrix(api):
    from app.daily.calendar import day_of
    from app.daily.kinds import DailyKind
    from app.times import utcnow

    api.services.daily.kinds = (DailyKind("toy", "toy", 2, bots=(1,), bot="random"),)
    shared = await _scene(api)
    for (method, template, body_kind), expected in MATRIX.items():
        # the role that changes the scene comes last
        scene = await _scene(api) if template in CHANGES else shared
        for role in ROLES:
            player = scene.get(role)
            headers = player.headers if player else {}
            path = template.format(gid=scene["gid"], open=scene["open"], game="toy",
                                   name=scene["own_seat"].name, inv=scene["inv"],
                                   invitee=scene["other_player"].name,
                                   webhook_id=999999, vacation_id=999999, seek_id=999999,
                                   kind="toy",
                                   day=day_of(utcnow()).isoformat())
            body = None
            if body_kind == "new_user":
                body = {"username": f"n{random.randrange(10**9)}", "password": PASSWORD}
            elif body_kind == "login_self":
                name = player.name if player else "nobody_here"
                body = {"username": name, "password": PASSWORD}
            elif body_kind == "chat":
                body = {"text": "hello"}
            elif body_kind == "webhook":
                body = {"url": f"https://example.invalid/hook/{random.randrange(10**9)}"}
            elif body_kind == "prefs":
                body = {"digest": True}
            elif body_kind == "email":
                body = {"address": "someone@example.org"}
            elif body_kind == "token":
                body = {"token": "forged"}
            elif body_kind == "push_sub":
                body = _push_subscription()
            elif body_kind == "push_gone":
                body = {"endpoint": "https://fcm.googleapis.com/fcm/send/nobody"}
            elif body_kind == "seek":
                body = {"game": "toy", "seats": 2, "minutes": 5}
            elif body_kind == "vacation":
                body = {"days": 1}
            elif body_kind == "undo":
                body = {"version": 1}
            elif body_kind == "password":
                body = {"current": PASSWORD, "new": PASSWORD + "-new"}
            elif body_kind == "invite":
                body = {"game": "toy", "seats": 2, "invite": [scene["other_player"].name]}
            elif body_kind == "more":
                body = {"invite": [scene["spectator"].name]}
            elif body_kind == "create":
                body = {"game": "toy", "seats": 2}
            elif body_kind == "own_move":
                hand = (await scene["own_seat"].game(scene["gid"]))["view"]["private"]["hand"]
                body = {"version": 1, "action": {"type": "play", "card": hand[0]}}
            r = await api.client.request(method, path, headers=headers, json=body)
            api.client.cookies.clear()
            assert r.status_code == expected[role], (method, template, role, r.status_code,
                                                     r.text)
            if r.status_code >= 400:
                assert set(r.json()) == {"error"}


async def test_private_views_only_for_their_seat(api):
    scene = await _scene(api)
    gid = scene["gid"]
    own, other, spect = scene["own_seat"], scene["other_player"], scene["spectator"]
    g_own, g_other = await own.game(gid), await other.game(gid)
    assert g_own["your_seat"] == 0 and g_other["your_seat"] == 1
    mine, theirs = g_own["view"]["private"], g_other["view"]["private"]
    assert set(mine["hand"]).isdisjoint(theirs["hand"])
    assert (await spect.game(gid))["view"]["private"] is None
    anon = (await api.client.get(f"/api/games/{gid}")).json()
    assert anon["view"]["private"] is None
    # the log shows a seat its own answers only
    log_other = (await other.get(f"/api/games/{gid}/log")).json()["entries"]
    log_own = (await own.get(f"/api/games/{gid}/log")).json()["entries"]
    assert "action" in log_other[0] and "action" not in log_own[0]


async def test_websocket_roles(server):
    host, api = server
    scene = await _scene(api)
    gid = scene["gid"]
    expect = {"anonymous": None, "spectator": None, "own_seat": 0, "other_player": 1}
    for role, seat in expect.items():
        player = scene.get(role)
        ws = await Socket.open(host, gid, player.token if player else None, query="after=0")
        hello = await ws.recv()
        assert hello["seat"] == seat, role
        state, _ = await ws.recv_type("state")
        assert (state["view"]["private"] is None) == (seat is None), role
        if seat is not None:
            own_view = (await scene[role].game(gid))["view"]["private"]
            assert state["view"]["private"]["hand"] != [] or own_view["hand"] == []
        # the own seat answers at a stale version (nothing changes), the others at the current
        version = 0 if role == "own_seat" else 1
        await ws.send({"type": "action", "version": version,
                       "action": {"type": "play", "card": 1}})
        err, _ = await ws.recv_type("error")
        assert err["error"]["code"] == {"anonymous": "unauthorized", "spectator": "no_seat",
                                        "other_player": "not_your_turn",
                                        "own_seat": "stale_version"}[role], (role, err)
        await ws.close()


# --------------------------------------------------------------------------- CSRF and cookies


async def test_cookie_writes_need_the_csrf_header(api):
    c = api.client
    r = await c.post("/api/auth/register", json={"username": "cookie_user", "password": PASSWORD})
    token = r.json()["token"]
    csrf = r.cookies.get(CSRF_COOKIE)
    assert csrf == csrf_for(token) and len(csrf) >= 32
    c.cookies.clear()
    jar = {"Cookie": f"{COOKIE}={token}; {CSRF_COOKIE}={csrf}"}
    # reads with the cookie alone are fine
    assert (await c.get("/api/me", headers=jar)).status_code == 200
    # an unsafe request with the cookie but without the header is refused
    for headers in (jar, {**jar, "X-CSRF-Token": "wrong"},
                    {**jar, "X-CSRF-Token": csrf_for("another-token")}):
        r = await c.post("/api/games", headers=headers, json={"game": "toy", "seats": 2})
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    # with the matching header it works
    r = await c.post("/api/games", headers={**jar, "X-CSRF-Token": csrf},
                     json={"game": "toy", "seats": 2})
    assert r.status_code == 201
    gid = r.json()["id"]
    # a cookie planted by another site (without the token) cannot help: the value is bound to
    # the login token
    r = await c.post(f"/api/games/{gid}/start",
                     headers={"Cookie": f"{COOKIE}={token}; {CSRF_COOKIE}=planted",
                              "X-CSRF-Token": "planted"})
    assert r.status_code == 403
    # Bearer requests are exempt (the browser client uses them), even with a stale cookie
    r = await c.post("/api/games", headers={"Authorization": f"Bearer {token}", **jar},
                     json={"game": "toy", "seats": 2})
    assert r.status_code == 201
    r = await c.post("/api/auth/logout", headers=jar)
    assert r.status_code == 403
    r = await c.post("/api/auth/logout", headers={**jar, "X-CSRF-Token": csrf})
    assert r.status_code == 200


async def test_cookie_flags(db_url):
    async with _app(db_url, cookie_secure=True) as api:
        r = await api.client.post("/api/auth/register",
                                  json={"username": "secure_user", "password": PASSWORD})
        cookies = r.headers.get_list("set-cookie")
        session = next(x for x in cookies if x.startswith(COOKIE + "="))
        csrf = next(x for x in cookies if x.startswith(CSRF_COOKIE + "="))
        assert "HttpOnly" in session and "Secure" in session and "SameSite=strict" in session
        assert "HttpOnly" not in csrf and "Secure" in csrf and "SameSite=strict" in csrf
        assert r.headers["strict-transport-security"].startswith("max-age=")


def _app(db_url, **overrides):
    from .conftest import running_app

    return running_app(make_settings(db_url, **overrides))


# --------------------------------------------------------------------------- headers and CSP


async def test_security_headers_on_api_and_pages(db_url, tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text(
        '<!doctype html><script type="module" src="js/app.js"></script>'
        '<button onclick="document.body.classList.remove(\'x\')">x</button>'
        '<div style="margin:0">client</div>')
    async with _app(db_url, static_dir=static) as api:
        for path in ("/", "/api/catalog", "/api/games/999", "/healthz", "/games/3"):
            r = await api.client.get(path)
            h = r.headers
            assert h["x-content-type-options"] == "nosniff", path
            assert h["x-frame-options"] == "DENY", path
            assert h["referrer-policy"] == "same-origin", path
            csp = h["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp, path
            assert "object-src 'none'" in csp and "base-uri 'none'" in csp
            script_src = re.search(r"script-src ([^;]*)", csp).group(1)
            assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
        assert (await api.client.get("/api/catalog")).headers["cache-control"] == "no-store"
        # the inline handler of the page is allowed by its hash, nothing else inline
        csp = (await api.client.get("/")).headers["content-security-policy"]
        assert "'unsafe-hashes'" in csp and "'sha256-" in csp
        # the API docs page may load Swagger UI
        r = await api.client.get("/docs")
        assert "cdn.jsdelivr.net" in r.headers["content-security-policy"]


def test_csp_allows_exactly_the_inline_code_of_the_client():
    """The real client (static/): ES modules, no inline scripts; its few inline handlers are
    allowed by hash, so the pages still work under the policy."""
    from app.settings import REPO_ROOT

    static = REPO_ROOT / "static"
    if not static.is_dir():
        pytest.skip("no static/ client in this checkout")
    handlers, scripts = inline_script_hashes(static)
    assert scripts == []  # the client has no inline <script> blocks
    csp = content_security_policy(static)
    for page in static.glob("*.html"):
        html = page.read_text()
        for src in re.findall(r'<script[^>]*src="([^"]+)"', html):
            assert not src.startswith(("http:", "https:", "//")), (page, src)  # same origin
        for m in re.finditer(r"""\son[a-z]+="([^"]*)\"""", html):
            import base64
            import hashlib

            digest = base64.b64encode(hashlib.sha256(m.group(1).encode()).digest()).decode()
            assert f"'sha256-{digest}'" in csp, (page, m.group(1))


# --------------------------------------------------------------------------- hidden information

CARD = re.compile(r'"([A-Z]\d{2,3})"')


def _card_ids(text: str) -> set[str]:
    return set(CARD.findall(text))


def _secrets(private: dict) -> set[str]:
    out = set(private.get("hand") or []) | set(private.get("final") or [])
    decision = private.get("decision") or {}
    if decision.get("kind") == "keep":
        out |= set(decision.get("offer") or [])
    return out


async def test_hidden_information_in_arknova_responses(db_url):
    if db_url.startswith("sqlite"):
        pytest.skip("one game is enough: it runs on PostgreSQL (the views are the same)")
    """Play random Ark Nova moves; after each, collect every response a viewer can get (the
    game for each viewer, the log, the legal answers, the hints (the game allows them: every
    third version, for each seat that owes a decision), every WebSocket message) and check that
    no card another seat holds secretly (hand, final-scoring cards, cards on offer to keep)
    appears in it, unless that card was public before (taken from the display)."""
    rng = random.Random(11 if db_url.startswith("sqlite") else 29)  # one game per database
    # this test reads the hints for leaks, not their rate limit (test_analysis_fairness.py and
    # the per-user hint bucket test that): a hint every third version is far past 6 a minute
    settings = make_settings(db_url, hint_playouts=1, rate_hints_per_minute=100_000,
                             rate_hints_burst=1_000)
    async with live_server(settings) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as client:
            api = Api(client, app)
            p0, p1, watcher = await api.user(), await api.user(), await api.user()
            r = await p0.post("/api/games", json={"game": "arknova", "seats": 2,
                                                  "hints": True})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            assert (await p1.post(f"/api/games/{gid}/join")).status_code == 200
            assert (await p0.post(f"/api/games/{gid}/start")).status_code == 200
            sockets = {
                0: await Socket.open(host, gid, p0.token),
                1: await Socket.open(host, gid, p1.token),
                "spectator": await Socket.open(host, gid),
                "watcher": await Socket.open(host, gid, watcher.token),
            }
            for who in (p0, p1):
                r = await client.put(f"/api/me/following/{who.name}", headers=watcher.headers)
                assert r.status_code == 200, r.text
            players = {0: p0, 1: p1}
            secrets_at: dict[int, dict[int, set[str]]] = {}
            public_ever: set[str] = set()
            public_upto: dict[int, set[str]] = {}  # cards seen in a public view by version v
            responses: list[tuple[object, int, str]] = []  # (viewer, version, text)
            hints: list[int] = []

            async def snapshot():
                g0, g1 = await p0.game(gid), await p1.game(gid)
                v = g0["version"]
                public_ever.update(_card_ids(r_text(g0["view"]["public"])))
                public_upto[v] = set(public_ever)
                secrets_at[v] = {0: _secrets(g0["view"]["private"]),
                                 1: _secrets(g1["view"]["private"])}
                responses.append((0, v, r_text(g0)))
                responses.append((1, v, r_text(g1)))
                for viewer, who in (("watcher", watcher), ("spectator", None)):
                    r = await (who.get(f"/api/games/{gid}") if who else
                               client.get(f"/api/games/{gid}"))
                    responses.append((viewer, v, r.text))
                # issue #33: the players' profiles and the watcher's friends' games (every
                # third version, like the hints: the sockets wait meanwhile)
                if v % 3 == 1:
                    for viewer, who, name in (("watcher", watcher, p0.name),
                                              ("watcher", watcher, p1.name), (1, p1, p0.name)):
                        r = await who.get(f"/api/players/{name}")
                        responses.append((viewer, v, r.text))
                    r = await watcher.get("/api/me/friends/games")
                    assert r.status_code == 200 and [x["id"] for x in r.json()] == [gid]
                    responses.append(("watcher", v, r.text))
                for viewer, who in ((0, p0), (1, p1), ("watcher", watcher)):
                    r = await who.get(f"/api/games/{gid}/log?after={max(v - 1, 0)}")
                    responses.append((viewer, v, r.text))
                    if viewer in (0, 1):
                        r = await who.get(f"/api/games/{gid}/legal")
                        responses.append((viewer, v, r.text))
                        if v % 3 == 0 and viewer in g0["waiting_for"]:
                            r = await who.get(f"/api/games/{gid}/hint")
                            assert r.status_code == 200, r.text
                            responses.append((viewer, v, r.text))
                            hints.append(v)
                return g0

            g = await snapshot()
            moves = 0
            while g["status"] == "running" and moves < 40:
                seat = g["waiting_for"][0]
                legal = await players[seat].legal(gid)
                action = rng.choice(legal["actions"])
                r = await players[seat].act(gid, action, version=legal["version"])
                assert r.status_code == 200, r.text
                responses.append((seat, r.json()["version"], r.text))
                g = await snapshot()
                moves += 1
            version = g["version"]
            for viewer, ws in sockets.items():
                got = []
                while not got or got[-1]["version"] < version:
                    msg = await ws.recv(timeout=10)
                    if msg["type"] == "state":
                        got.append(msg)
                for raw in ws.raw:
                    m = re.match(r'\{"type":"state","version":(\d+)', raw)
                    if m:
                        responses.append((viewer, int(m.group(1)), raw))
                await ws.close()
            # the full log, as each viewer gets it, entry by entry
            for viewer, who in ((0, p0), (1, p1), ("watcher", watcher)):
                entries = (await who.get(f"/api/games/{gid}/log?after=0")).json()["entries"]
                for e in entries:
                    responses.append((viewer, e["version"], r_text(e)))

    checked = 0
    for viewer, v, text in responses:
        secret = secrets_at.get(v)
        if secret is None:
            continue
        for seat, cards in secret.items():
            if seat == viewer:
                continue
            leaked = (cards - public_upto[v]) & _card_ids(text)
            assert not leaked, (f"seat {seat}'s secret cards {leaked} reached viewer {viewer} "
                                f"at version {v}: {text[:300]}")
            checked += 1
    assert checked > 100 and moves > 10 and len(hints) > 5
    assert sum(len(c) for sec in secrets_at.values() for c in sec.values()) > 50


def r_text(game: dict) -> str:
    import json

    return json.dumps(game)


async def test_hidden_information_around_a_resignation_and_an_abort(db_url):
    """Issue #33's endpoints in the hidden-information sweep: a three-seat Ark Nova game where
    seat 2 resigns during the opening keep (its bot keeps for it) and a two-seat one that seat
    1 aborts after seat 0 kept. Every answer (the resignation's and the abort's, the game for
    each viewer, the log, every WebSocket message) is checked: no card on offer to another
    seat (secret until kept) reaches a viewer while the game runs."""
    settings = make_settings(db_url)
    async with live_server(settings) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as client:
            api = Api(client, app)
            p = [await api.user() for _ in range(3)]
            r = await p[0].post("/api/games", json={"game": "arknova", "seats": 3})
            gid = r.json()["id"]
            for q in p[1:]:
                assert (await q.post(f"/api/games/{gid}/join")).status_code == 200
            assert (await p[0].post(f"/api/games/{gid}/start")).status_code == 200
            sockets = {i: await Socket.open(host, gid, p[i].token) for i in range(3)}
            sockets["spectator"] = await Socket.open(host, gid)
            offers = {i: _secrets((await p[i].game(gid))["view"]["private"]) for i in range(3)}
            public = _card_ids(r_text((await p[0].game(gid))["view"]["public"]))
            assert all(offers[i] and not offers[i] & public for i in range(3))
            responses: list[tuple[object, str]] = []
            r = await p[2].post(f"/api/games/{gid}/resign")
            assert r.status_code == 200, r.text
            responses.append((2, r.text))
            await api.idle()  # the bot keeps for seat 2
            g = await p[0].game(gid)
            assert g["status"] == "running" and 2 not in g["waiting_for"] and g["version"] == 2
            # (the cards seat 2 gave back are public once kept: on the display or discarded)
            public_at = {0: public, 1: public, 2: _card_ids(r_text(g["view"]["public"]))}
            for i in range(3):
                responses.append((i, (await p[i].get(f"/api/games/{gid}")).text))
                responses.append((i, (await p[i].get(f"/api/games/{gid}/log")).text))
            responses.append(("spectator", (await client.get(f"/api/games/{gid}")).text))
            responses.append(("spectator", (await client.get(f"/api/games/{gid}/log")).text))
            for viewer, ws in sockets.items():
                await ws.states_until(2, timeout=10)
                responses += [(viewer, raw) for raw in ws.raw]
                await ws.close()
            # seat 0 keeps, seat 1 aborts the other game (nobody played yet)
            r = await p[0].post("/api/games", json={"game": "arknova", "seats": 2})
            other = r.json()["id"]
            assert (await p[1].post(f"/api/games/{other}/join")).status_code == 200
            assert (await p[0].post(f"/api/games/{other}/start")).status_code == 200
            offer1 = _secrets((await p[1].game(other))["view"]["private"])
            keep = (await p[0].legal(other))["actions"][0]
            assert (await p[0].act(other, keep, version=0)).status_code == 200
            r = await p[1].post(f"/api/games/{other}/abort")
            assert r.status_code == 200 and r.json()["result"]["aborted"] == 1
            aborted = [(0, r.text)]  # (the game is over: its privates are no secret now)
    checked = 0
    for viewer, text in responses:
        version = int(re.search(r'"version":(\d+)', text).group(1))
        for seat, cards in offers.items():
            if seat == viewer:
                continue
            leaked = (cards - public_at[version]) & _card_ids(text)
            assert not leaked, (f"seat {seat}'s offer {leaked} reached viewer {viewer}: "
                                f"{text[:300]}")
            checked += 1
    assert not offer1 & _card_ids(aborted[0][1])
    assert checked > 30


async def test_hidden_information_around_a_quick_match(db_url):
    """Issue #33's quick match in the hidden-information sweep: two players' Ark Nova seeks pair
    into a started game. Every answer (both posts, the seek lists for each player and for
    nobody, every message of their ``/api/me/ws`` pages) is checked: no card on offer to the
    other seat, never the game's seed."""
    from sqlalchemy import select

    from app.models import Game

    settings = make_settings(db_url)
    async with live_server(settings) as (host, app):
        async with httpx.AsyncClient(base_url=f"http://{host}") as client:
            api = Api(client, app)
            p = [await api.user() for _ in range(2)]
            pages = [await Socket.open_path(host, "/api/me/ws", q.token) for q in p]
            for page in pages:
                assert (await page.recv())["type"] == "hello"
            body = {"game": "arknova", "seats": 2, "minutes": 10}
            responses: list[tuple[int | None, str]] = []
            r = await p[0].post("/api/seeks", json=body)
            assert r.status_code == 201 and r.json()["game"] is None
            responses.append((0, r.text))
            r = await p[1].post("/api/seeks", json=body)
            assert r.status_code == 201, r.text
            responses.append((1, r.text))
            gid = r.json()["game"]["id"]
            for i, page in enumerate(pages):
                await page.recv_type("seek")
                responses += [(i, raw) for raw in page.raw]
                await page.ws.close()
            for i in range(2):
                responses.append((i, (await p[i].get("/api/seeks")).text))
            responses.append((None, (await client.get("/api/seeks")).text))
            offers = {i: _secrets((await p[i].game(gid))["view"]["private"]) for i in range(2)}
            async with app.state.services.db.read() as s:
                seed = await s.scalar(select(Game.seed).where(Game.id == gid))
    assert all(offers.values()) and seed
    checked = 0
    for viewer, text in responses:
        assert seed not in text
        for seat, cards in offers.items():
            if seat != viewer:
                assert not cards & _card_ids(text), (seat, viewer, text[:300])
                checked += 1
    assert checked >= 8
