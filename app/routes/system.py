"""Health check."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..errors import JSONResponse
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
            "backend": svc.db.backend, "sockets": svc.hub.connection_count()}
    return JSONResponse(body, status_code=200 if healthy else 503)
