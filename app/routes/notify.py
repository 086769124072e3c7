"""Notification preferences, the email address and the links in mails (issue #21; see
``app/notify/`` and docs/notifications.md)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr
from starlette.responses import HTMLResponse, RedirectResponse

from .. import i18n
from ..credentials import check_email
from ..errors import JSONResponse
from ..notify.mail import unsubscribe_page
from ..refusal import Refusal
from .deps import CurrentUser, Svc

router = APIRouter(tags=["notifications"])

PREFS_EXAMPLE = {
    "preferences": {
        "channels": {"email": True, "push": True, "webhook": True},
        "kinds": {"your_turn": True, "game_over": True, "invitation": True,
                  "daily_challenge": True, "chat_mention": False},
        "quiet_hours": {"start": "22:00", "end": "07:00"},
        "only_when_away": True, "throttle_minutes": 0, "digest": False,
        "confirm_turn": True},
    "lang": "uk", "time_zone": "Europe/Kyiv",
    "email": {"available": True, "address": "ada@example.org", "verified": True}}


class QuietHours(BaseModel):
    start: StrictStr = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    end: StrictStr = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")


class PrefsChange(BaseModel):
    """Only the parts sent change; ``quiet_hours: null`` removes the window."""
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "kinds": {"chat_mention": False}, "channels": {"email": True},
        "quiet_hours": {"start": "22:00", "end": "07:00"}, "time_zone": "Europe/Kyiv",
        "lang": "uk", "only_when_away": True, "throttle_minutes": 60, "digest": True}]})
    channels: dict[Literal["email", "push", "webhook"], StrictBool] | None = None
    kinds: dict[Literal["your_turn", "game_over", "invitation", "daily_challenge",
                        "chat_mention"], StrictBool] | None = None
    quiet_hours: QuietHours | None = None
    only_when_away: StrictBool | None = None
    #: 0: the first notice of a waiting period only; N: also at most one per game per N minutes
    throttle_minutes: int | None = Field(None, ge=0, le=10080)
    digest: StrictBool | None = None
    #: the table's "Confirm turn": a turn you end waits for your confirm (or restart) when your
    #: client asks for it (a move's ``hold``); on unless turned off
    confirm_turn: StrictBool | None = None
    lang: Literal["en", "uk", "de"] | None = None
    #: an IANA time zone name (quiet hours and the digest hour are read in it)
    time_zone: StrictStr | None = Field(None, max_length=64)


class SetEmail(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"address": "ada@example.org"}]})
    address: StrictStr = Field(max_length=254)


class VerifyEmail(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"token": "eyJ1IjoxLCJlIjoi..."}]})
    token: StrictStr = Field(max_length=1000)


@router.get("/api/me/notifications",
            responses={200: {"content": {"application/json": {"example": PREFS_EXAMPLE}}}})
async def get_preferences(request: Request, user: CurrentUser, svc: Svc):
    """Your notification preferences, your language and time zone, and your email address
    (``email.available`` is false when this server sends no mail)."""
    return JSONResponse(await svc.notify.get(user, i18n.request_language(request)))


@router.put("/api/me/notifications",
            responses={200: {"content": {"application/json": {"example": PREFS_EXAMPLE}}}})
async def put_preferences(body: PrefsChange, request: Request, user: CurrentUser, svc: Svc):
    """Change some of your preferences; the answer is all of them. 422 ``bad_time_zone``."""
    change = body.model_dump(exclude_unset=True)
    return JSONResponse(await svc.notify.put(user, change, i18n.request_language(request)))


@router.post("/api/me/email",
             responses={200: {"content": {"application/json": {"example": PREFS_EXAMPLE}}}})
async def set_email(body: SetEmail, request: Request, user: CurrentUser, svc: Svc):
    """Set your address (unverified until its link is opened) and send it a verification
    mail. 409 ``email_unavailable`` when this server sends no mail, 422 ``bad_email``, 429
    ``rate_limited`` after a few verification mails in a row from one account or to one
    address (whichever accounts ask)."""
    address = body.address
    if svc.notify.email.available:
        address = check_email(address)
        await svc.limits.verify_mail(user.id, address)
    return JSONResponse(await svc.notify.set_email(user, address,
                                                   i18n.request_language(request)))


@router.post("/api/email/verify",
             responses={200: {"content": {"application/json": {
                 "example": {"verified": True, "address": "ada@example.org"}}}}})
async def verify_email(body: VerifyEmail, svc: Svc):
    """Confirm an address with the token of its verification link. 400 ``bad_token``."""
    return JSONResponse(await svc.notify.verify(body.token))


@router.get("/api/email/verify", response_class=RedirectResponse, status_code=303)
async def verify_email_link(svc: Svc, token: str = Query(max_length=1000)):
    """The link in the verification mail: confirms the address, then opens the lobby
    (``/?email=verified``). 400 ``bad_token``."""
    await svc.notify.verify(token)
    return RedirectResponse("/?email=verified#notifications", status_code=303)


@router.post("/api/email/unsubscribe",
             responses={200: {"content": {"application/json": {
                 "example": {"unsubscribed": "your_turn"}}, "text/html": {}}}})
async def unsubscribe(request: Request, svc: Svc, token: str = Query(max_length=1000)):
    """One-click unsubscribe (RFC 8058: mail clients POST ``List-Unsubscribe=One-Click`` to the
    ``List-Unsubscribe`` link): turns off the kind of mail the signed token names. No login
    needed. 400 ``bad_token``. A browser's form post (``Accept: text/html``) gets a page."""
    if _wants_html(request):
        lang = i18n.request_language(request)
        try:
            await svc.notify.unsubscribe(token)
        except Refusal:
            return HTMLResponse(unsubscribe_page(lang, "bad"), status_code=400)
        return HTMLResponse(unsubscribe_page(lang, "done"))
    return JSONResponse(await svc.notify.unsubscribe(token))


@router.get("/api/email/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_link(request: Request, token: str = Query(max_length=1000)):
    """The unsubscribe link opened in a browser: a page with one button that POSTs to the same
    address (opening a link never unsubscribes: mail scanners open links too)."""
    return HTMLResponse(unsubscribe_page(i18n.request_language(request), "ask"))


def _wants_html(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "application/json" not in accept
