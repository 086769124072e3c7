"""Web Push: the server's public key and the caller's browser subscriptions (``app/push.py``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.responses import Response

from .. import i18n
from ..errors import JSONResponse
from .deps import CurrentUser, Svc

router = APIRouter(tags=["push"])


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: the browser's P-256 public key (base64url, 65 bytes)
    p256dh: StrictStr = Field(max_length=200)
    #: the browser's auth secret (base64url, 16 bytes)
    auth: StrictStr = Field(max_length=100)


class Subscription(BaseModel):
    """``PushSubscription.toJSON()`` of the browser."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc…", "expirationTime": None,
        "keys": {"p256dh": "BNc…", "auth": "tBH…"}}]})
    endpoint: StrictStr = Field(max_length=4000)
    expirationTime: StrictInt | None = None  # noqa: N815 - the browser's name
    keys: SubscriptionKeys


class Unsubscribe(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: StrictStr = Field(max_length=4000)


@router.get("/api/push/key")
async def push_key(svc: Svc):
    """The VAPID public key (base64url) for ``pushManager.subscribe({applicationServerKey})``."""
    return JSONResponse({"key": await svc.push.public_key()})


@router.post("/api/me/push", status_code=201)
async def subscribe(body: Subscription, request: Request, user: CurrentUser, svc: Svc):
    """Store this browser's push subscription for you (the notices come in the language of the
    request). 422 ``bad_push_subscription`` / ``push_service_not_allowed``."""
    made = await svc.push.subscribe(user, body.endpoint, body.keys.p256dh, body.keys.auth,
                                    i18n.request_language(request))
    return JSONResponse(made, status_code=201)


@router.delete("/api/me/push", status_code=204)
async def unsubscribe(body: Unsubscribe, user: CurrentUser, svc: Svc):
    """Forget one of your subscriptions (by its endpoint); 404 if you have none there."""
    await svc.push.unsubscribe(user, body.endpoint)
    return Response(status_code=204)
