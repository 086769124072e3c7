"""Health check and metrics."""

from __future__ import annotations

import hmac
import ipaddress

from fastapi import APIRouter, Request
from starlette.responses import Response

from .. import metrics
from ..errors import ApiError, JSONResponse
from ..ratelimit import client_address
from ..refusal import not_found, say
from .deps import Svc

router = APIRouter(tags=["system"])


@router.get("/healthz")
async def healthz(svc: Svc):
    """200 when the database answers (and, on PostgreSQL, the LISTEN connection is up)."""
    checks = {"database": "ok", "realtime": "ok"}
    try:
        await svc.db.ping()
    except Exception:
        checks["database"] = "down"
    if not getattr(svc.bus, "listening", True):
        checks["realtime"] = "reconnecting"
    healthy = all(v == "ok" for v in checks.values())
    # "instance": a random id of this process (tells the workers apart, unlike a pid it says
    # nothing about the machine)
    body = {"status": "ok" if healthy else "degraded", **checks,
            "backend": svc.db.backend, "sockets": svc.hub.connection_count(),
            "instance": svc.instance}
    return JSONResponse(body, status_code=200 if healthy else 503)


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(request: Request, svc: Svc):
    """Prometheus metrics of this process (text exposition format): with the metrics token
    (``MENAGERIE_METRICS_TOKEN``), or without it only to the addresses of
    ``MENAGERIE_METRICS_ALLOW`` (by default this machine); to anyone else it does not exist."""
    settings = svc.settings
    wanted = settings.metrics_token
    if wanted:
        sent = request.headers.get("authorization", "")
        if not hmac.compare_digest(sent.encode("utf-8", "surrogatepass"),
                                   f"Bearer {wanted}".encode()):
            raise ApiError(401, "unauthorized", say("unauthorized.metrics"))
    elif not _allowed(client_address(request), settings.metrics_allow):
        raise not_found("page")
    body, content_type = metrics.render()
    return Response(body, media_type=content_type)


def _allowed(address: str | None, networks: str) -> bool:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(n.strip(), strict=False)
               for n in networks.split(",") if n.strip())
