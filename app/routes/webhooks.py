"""The caller's outbound webhooks ("your turn" notifications; see ``app/webhooks.py``)."""

from __future__ import annotations

import re

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from starlette.responses import Response

from ..auth import UserInfo, require_user
from ..errors import JSONResponse, not_found
from .common import services

router = APIRouter(prefix="/api/me/webhooks", tags=["webhooks"])

_ID = re.compile(r"^[1-9][0-9]{0,17}$")


class CreateWebhook(BaseModel):
    model_config = ConfigDict(json_schema_extra={
        "examples": [{"url": "https://example.org/menagerie-hook"}]})
    #: an http:// or https:// address that receives the signed POSTs
    url: StrictStr = Field(max_length=4000)


@router.get("")
async def list_webhooks(request: Request, user: UserInfo = Depends(require_user)):
    """Your webhooks (without their secrets), each with its latest delivery."""
    return JSONResponse(await services(request).webhooks.list(user))


@router.post("", status_code=201)
async def create_webhook(body: CreateWebhook, request: Request,
                         user: UserInfo = Depends(require_user)):
    """Register a URL; the reply holds its ``secret``, shown this once (it signs every POST).
    422 ``bad_webhook_url`` / ``webhook_private_address``, 409 ``webhook_exists`` /
    ``webhook_limit``."""
    return JSONResponse(await services(request).webhooks.create(user, body.url),
                        status_code=201)


@router.delete("/{webhook_id}", status_code=204)
async def delete_webhook(webhook_id: str, request: Request,
                         user: UserInfo = Depends(require_user)):
    """Remove one of your webhooks (its pending deliveries too); 404 for anyone else's."""
    if not _ID.match(webhook_id):
        raise not_found("webhook")
    await services(request).webhooks.delete(user, int(webhook_id))
    return Response(status_code=204)
