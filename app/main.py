"""The FastAPI application: ``create_app(settings)``."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from starlette.routing import Match
from starlette.staticfiles import StaticFiles

from . import errors
from .errors import JSONResponse
from .logs import request_id
from .middleware import (
    BodyLimitMiddleware,
    RequestContextMiddleware,
    StrictJSONMiddleware,
    content_security_policy,
)
from .refusal import not_found, say
from .routes import (
    analysis,
    auth,
    catalog,
    chat,
    daily,
    friends,
    games,
    me,
    notify,
    push,
    ratings,
    records,
    rematch,
    seeks,
    system,
    vacations,
    webhooks,
    ws,
)
from .services import Services
from .settings import Settings, get_settings
from .static import ClientFiles
from .transport import HstsOverHttps

log = logging.getLogger("menagerie.app")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        services = Services(settings)
        app.state.services = services
        await services.start()
        try:
            yield
        finally:
            await services.stop()

    app = FastAPI(
        title="Menagerie",
        summary="A multiplayer server for board games: lobby, moves, spectators, bots.",
        version="0.1.0",
        lifespan=lifespan,
        default_response_class=JSONResponse,
    )
    app.state.settings = settings
    errors.install(app)

    def openapi() -> dict:
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi

            app.openapi_schema = errors.document_errors(get_openapi(
                title=app.title, version=app.version, summary=app.summary, routes=app.routes))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):  # pragma: no cover - a real bug
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        rid = request_id.get()
        return errors.error_response(500, "internal", say("internal"),
                                     headers={"X-Request-ID": rid} if rid else None,
                                     request=request)

    app.add_middleware(StrictJSONMiddleware)  # inside the body limit: reads at most that
    app.add_middleware(BodyLimitMiddleware, limit=settings.max_body_bytes,
                       routes={"/api/games/import": settings.max_import_bytes})
    app.add_middleware(HstsOverHttps)
    app.add_middleware(RequestContextMiddleware, log_requests=settings.access_log,
                       csp=content_security_policy(settings.static_dir),
                       hsts=settings.cookie_secure)
    if settings.trusted_proxies.strip():
        # outermost: the client address every other part sees is the rightmost untrusted hop
        # of X-Forwarded-For, believed only from these proxies (uvicorn's own middleware)
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=[
            x.strip() for x in settings.trusted_proxies.split(",") if x.strip()])

    for module in (system, auth, catalog, games, ws, me, chat, webhooks, records, ratings,
                   rematch, notify, push, daily, analysis, vacations, friends, seeks):
        app.include_router(module.router)

    @app.api_route("/api/{path:path}", include_in_schema=False,
                   methods=["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
    async def _no_such_api(request: Request, path: str):
        # a known path with another method is a 405, anything else a 404
        scope = {**request.scope, "path": request.url.path}
        for route in app.router.routes:
            if getattr(route, "endpoint", None) is _no_such_api:
                break
            try:
                match, _ = route.matches(scope)
            except Exception:  # pragma: no cover - a route type that cannot tell
                continue
            if match == Match.PARTIAL:
                raise errors.ApiError(405, "method_not_allowed", say("method_not_allowed"))
        raise not_found("API route")

    rules = settings.static_dir.parent / "docs" / "rules"
    if rules.is_dir():  # the rules pages (Markdown, in every language) the client renders
        app.mount("/rules", StaticFiles(directory=rules), name="rules")
    if settings.static_dir.is_dir():
        app.mount("/", ClientFiles(directory=settings.static_dir, html=True), name="static")
    return app


def app_from_env() -> FastAPI:
    """The application configured from the environment, logging set up (uvicorn workers)."""
    from . import logs

    settings = get_settings()
    logs.configure(settings.log_level)
    return create_app(settings)
