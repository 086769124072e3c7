"""Accounts and tokens."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from app.auth import COOKIE, CSRF_COOKIE, csrf_for
from app.models import Token, User

from .conftest import PASSWORD


async def test_register_login_me_logout(api):
    c = api.client
    r = await c.post("/api/auth/register", json={"username": "Ada.L-1", "password": PASSWORD})
    assert r.status_code == 201
    body = r.json()
    assert body["user"]["username"] == "Ada.L-1"
    token = body["token"]
    assert len(token) >= 32  # 256 random bits, url-safe
    cookie = r.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    # the CSRF value for cookie-authenticated writes, readable by the page's script
    assert r.cookies.get(CSRF_COOKIE) == csrf_for(token)

    r = await c.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json()["user"]["username"] == "Ada.L-1"

    # only the SHA-256 of the token is stored; the password is an argon2 hash
    async with api.services.db.read() as s:
        stored = (await s.execute(select(Token.token_hash))).scalars().all()
        user = (await s.execute(select(User))).scalar_one()
    assert stored == [hashlib.sha256(token.encode()).hexdigest()]
    assert user.password_hash.startswith("$argon2id$") and PASSWORD not in user.password_hash

    # duplicate name, whatever the case
    r = await c.post("/api/auth/register", json={"username": "ada.l-1", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"]["code"] == "username_taken"

    # a second login gives a second, different token
    r = await c.post("/api/auth/login", json={"username": "ADA.L-1", "password": PASSWORD})
    assert r.status_code == 200
    token2 = r.json()["token"]
    assert token2 != token

    r = await c.post("/api/auth/logout", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    r = await c.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    # the other token still works
    r = await c.get("/api/me", headers={"Authorization": f"Bearer {token2}"})
    assert r.status_code == 200


async def test_bad_logins(api):
    c = api.client
    await api.user("bob")
    for body in ({"username": "bob", "password": "wrong password"},
                 {"username": "nobody", "password": PASSWORD}):
        r = await c.post("/api/auth/login", json=body)
        assert r.status_code == 401
        assert r.json() == {"error": {"code": "bad_credentials",
                                      "message": "Wrong username or password."}}


async def test_username_and_password_rules(api):
    c = api.client
    for name in ("ab", "x" * 33, "has space", "émile", "semi;colon", ""):
        r = await c.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_username", name
    r = await c.post("/api/auth/register", json={"username": "shorty", "password": "short"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_password"
    r = await c.post("/api/auth/register", json={"username": 123, "password": PASSWORD})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


async def test_cookie_auth_and_stale_cookie(api):
    c = api.client
    r = await c.post("/api/auth/register", json={"username": "carol", "password": PASSWORD})
    token = r.json()["token"]
    c.cookies.clear()
    r = await c.get("/api/me", headers={"Cookie": f"{COOKIE}={token}"})
    assert r.status_code == 200
    r = await c.post("/api/auth/logout", headers={"Cookie": f"{COOKIE}={token}",
                                                  "X-CSRF-Token": csrf_for(token)})
    assert r.status_code == 200
    assert COOKIE in r.headers.get("set-cookie", "")  # cleared
    # a revoked cookie is ignored (anonymous), a revoked bearer token is refused
    r = await c.get("/api/me", headers={"Cookie": f"{COOKIE}={token}"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = await c.get("/api/games", headers={"Cookie": f"{COOKIE}={token}"})
    assert r.status_code == 200
    for header in ("Bearer", "Basic abc", "Bearer nonsense", "Token x"):
        r = await c.get("/api/me", headers={"Authorization": header})
        assert r.status_code == 401, header
        assert r.json()["error"]["code"] == "bad_token"
