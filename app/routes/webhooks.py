"""The caller's outbound webhooks ("your turn" notifications; see ``app/webhooks.py``)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from starlette.responses import Response

from ..errors import JSONResponse
from .deps import CurrentUser, Svc, WebhookId

router = APIRouter(prefix="/api/me/webhooks", tags=["webhooks"])


class CreateWebhook(BaseModel):
    model_config = ConfigDict(json_schema_extra={
        "examples": [{"url": "https://example.org/menagerie-hook"}]})
    #: an http:// or https:// address that receives the signed POSTs
    url: StrictStr = Field(max_length=4000)


@router.get("")
async def list_webhooks(user: CurrentUser, svc: Svc):
    """Your webhooks (without their secrets), each with its latest delivery."""
    return JSONResponse(await svc.webhooks.list(user))


@router.post("", status_code=201)
async def create_webhook(body: CreateWebhook, user: CurrentUser, svc: Svc):
    """Register a URL; the reply holds its ``secret``, shown this once (it signs every POST).
    422 ``bad_webhook_url`` / ``webhook_private_address``, 409 ``webhook_exists`` /
    ``webhook_limit``."""
    return JSONResponse(await svc.webhooks.create(user, body.url), status_code=201)


@router.delete("/{webhook_id}", status_code=204)
async def delete_webhook(user: CurrentUser, webhook_id: WebhookId, svc: Svc):
    """Remove one of your webhooks (its pending deliveries too); 404 for anyone else's."""
    await svc.webhooks.delete(user, webhook_id)
    return Response(status_code=204)
