"""Accounts: register, login, logout, who am I."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, StrictStr

from ..auth import COOKIE, CSRF_COOKIE, csrf_for
from ..credentials import valid_username
from ..errors import JSONResponse
from ..ratelimit import client_address
from ..refusal import Refusal
from ..settings import Settings
from .deps import CurrentUser, Svc

router = APIRouter(prefix="/api", tags=["auth"])


class Credentials(BaseModel):
    model_config = ConfigDict(json_schema_extra={
        "examples": [{"username": "ada", "password": "correct horse battery"}]})
    username: StrictStr
    password: StrictStr


class AuthOut(BaseModel):
    user: dict
    token: str


class PasswordChange(BaseModel):
    model_config = ConfigDict(json_schema_extra={
        "examples": [{"current": "correct horse battery", "new": "battery staple horse"}]})
    current: StrictStr
    new: StrictStr


def secure_cookies(request: Request, settings: Settings) -> bool:
    """Cookies are Secure when the request came over https: directly, or through a proxy
    uvicorn trusts (``--forwarded-allow-ips``) that said so in ``X-Forwarded-Proto``; or
    always, with ``MENAGERIE_COOKIE_SECURE``."""
    return settings.cookie_secure or request.url.scheme == "https"


def _with_cookie(request: Request, settings: Settings, body: dict, status: int,
                 token: str) -> JSONResponse:
    response = JSONResponse(body, status_code=status)
    age = settings.token_ttl_days * 86400
    secure = secure_cookies(request, settings)
    # SameSite=Strict: no cross-site request carries the login; the CSRF value is readable by
    # the page's script, which echoes it in X-CSRF-Token for cookie-authenticated writes
    response.set_cookie(COOKIE, token, max_age=age, httponly=True, samesite="strict",
                        secure=secure, path="/")
    response.set_cookie(CSRF_COOKIE, csrf_for(token), max_age=age, httponly=False,
                        samesite="strict", secure=secure, path="/")
    return response


def _without_cookie(request: Request, settings: Settings, body: dict) -> JSONResponse:
    secure = secure_cookies(request, settings)
    response = JSONResponse(body)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=secure)
    response.delete_cookie(CSRF_COOKIE, path="/", samesite="strict", secure=secure)
    return response


@router.post("/auth/register", status_code=201, response_model=AuthOut)
async def register(body: Credentials, request: Request, svc: Svc):
    """Create an account; answers with the user and a login token (also set as a cookie)."""
    await svc.limits.check(svc.limits.register, client_address(request))
    user, token = await svc.auth.register(body.username, body.password)
    return _with_cookie(request, svc.settings, {"user": user.as_dict(), "token": token}, 201,
                        token)


@router.post("/auth/login", response_model=AuthOut)
async def login(body: Credentials, request: Request, svc: Svc):
    """Sign in; answers with the user and a new login token (also set as a cookie)."""
    await svc.limits.check(svc.limits.login, client_address(request))
    # failed logins slow down per account (no such account can have an invalid name)
    account = body.username.lower() if valid_username(body.username) else None
    if account:
        await svc.limits.login_allowed(account)  # before any hashing
    try:
        user, token = await svc.auth.login(body.username, body.password)
    except Refusal as exc:
        if account and exc.code == "bad_credentials":
            await svc.limits.logins.failed(account)
        raise
    if account:
        await svc.limits.logins.succeeded(account)
    return _with_cookie(request, svc.settings, {"user": user.as_dict(), "token": token}, 200,
                        token)


@router.post("/auth/logout")
async def logout(request: Request, user: CurrentUser, svc: Svc):
    """Revoke the token this request was made with; its open WebSockets close (4401), in
    every process."""
    await svc.auth.logout(request.state.token)  # set by the user dependency
    return _without_cookie(request, svc.settings, {"ok": True})


@router.post("/auth/logout-everywhere")
async def logout_everywhere(request: Request, user: CurrentUser, svc: Svc):
    """Revoke every login token of the caller (every browser, every client, this one too);
    their open WebSockets close. ``{"ok": true, "revoked": N}``."""
    count = await svc.auth.logout_everywhere(user)
    return _without_cookie(request, svc.settings, {"ok": True, "revoked": count})


@router.post("/auth/password")
async def change_password(body: PasswordChange, request: Request, user: CurrentUser,
                          svc: Svc):
    """Change the password (403 ``wrong_password`` if ``current`` is not it). Every other
    login of the account is revoked and its sockets close; this one stays signed in.
    ``{"ok": true, "revoked": N}``."""
    await svc.limits.check(svc.limits.login, client_address(request))  # guesses of `current`
    count = await svc.auth.change_password(user, body.current, body.new, request.state.token)
    return JSONResponse({"ok": True, "revoked": count})


@router.get("/me")
async def me(user: CurrentUser):
    return {"user": user.as_dict()}


__all__ = ["router", "Response"]
