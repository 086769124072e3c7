"""Health check and metrics."""

from __future__ import annotations

import hmac
import os

from fastapi import APIRouter, Request
from starlette.responses import Response

from .. import metrics
from ..errors import ApiError, JSONResponse
from .common import services

router = APIRouter(tags=["system"])


@router.get("/healthz")
async def healthz(request: Request):
    """200 when the database answers (and, on PostgreSQL, the LISTEN connection is up)."""
    svc = services(request)
    checks = {"database": "ok", "realtime": "ok"}
    try:
        await svc.db.ping()
    except Exception:
        checks["database"] = "down"
    if not getattr(svc.bus, "listening", True):
        checks["realtime"] = "reconnecting"
    healthy = all(v == "ok" for v in checks.values())
    body = {"status": "ok" if healthy else "degraded", **checks,
            "backend": svc.db.backend, "sockets": svc.hub.connection_count(),
            "pid": os.getpid()}
    return JSONResponse(body, status_code=200 if healthy else 503)


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(request: Request):
    """Prometheus metrics of this process (text exposition format)."""
    wanted = services(request).settings.metrics_token
    if wanted:
        sent = request.headers.get("authorization", "")
        if not hmac.compare_digest(sent.encode("utf-8", "surrogatepass"),
                                   f"Bearer {wanted}".encode()):
            raise ApiError(401, "unauthorized", "Metrics need the metrics token.")
    body, content_type = metrics.render()
    return Response(body, media_type=content_type)
