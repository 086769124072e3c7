"""Accounts: register, login, logout, who am I."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, StrictStr

from ..auth import COOKIE, UserInfo, require_user
from ..errors import JSONResponse
from .common import services

router = APIRouter(prefix="/api", tags=["auth"])


class Credentials(BaseModel):
    model_config = ConfigDict(json_schema_extra={
        "examples": [{"username": "ada", "password": "correct horse battery"}]})
    username: StrictStr
    password: StrictStr


class AuthOut(BaseModel):
    user: dict
    token: str


def _with_cookie(request: Request, body: dict, status: int, token: str) -> JSONResponse:
    settings = services(request).settings
    response = JSONResponse(body, status_code=status)
    response.set_cookie(COOKIE, token, max_age=settings.token_ttl_days * 86400, httponly=True,
                        samesite="lax", secure=settings.cookie_secure, path="/")
    return response


@router.post("/auth/register", status_code=201, response_model=AuthOut)
async def register(body: Credentials, request: Request):
    """Create an account; answers with the user and a login token (also set as a cookie)."""
    user, token = await services(request).auth.register(body.username, body.password)
    return _with_cookie(request, {"user": user.as_dict(), "token": token}, 201, token)


@router.post("/auth/login", response_model=AuthOut)
async def login(body: Credentials, request: Request):
    user, token = await services(request).auth.login(body.username, body.password)
    return _with_cookie(request, {"user": user.as_dict(), "token": token}, 200, token)


@router.post("/auth/logout")
async def logout(request: Request, user: UserInfo = Depends(require_user)):
    """Revoke the token this request was made with."""
    await services(request).auth.logout(request.state.token)
    response = JSONResponse({"ok": True})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.get("/me")
async def me(user: UserInfo = Depends(require_user)):
    return {"user": user.as_dict()}


__all__ = ["router", "Response"]
