"""Request bodies parsed strictly: ``NaN``, ``Infinity`` and lone surrogates (``"\\ud800"``)
are not JSON and get 400 ``malformed_json``, like any other bad body.

FastAPI parses a body with :func:`json.loads`, which accepts ``NaN`` and ``Infinity`` and lets
lone surrogates through (they then fail deep inside, as a 500). The routes' request handlers
are given a request whose ``json()`` uses orjson (strict RFC 8259, valid UTF-8 only); orjson's
error is a :class:`json.JSONDecodeError`, which FastAPI already turns into ``json_invalid``.
The WebSocket messages are read with orjson already (app.jsonutil).
"""

from __future__ import annotations

import orjson
from fastapi import FastAPI
from fastapi.routing import APIRoute, request_response
from starlette.requests import Request


class StrictJSONRequest(Request):
    async def json(self):
        if not hasattr(self, "_json"):
            self._json = orjson.loads(await self.body())
        return self._json


def _strict(handler):
    async def handle(request: Request):
        return await handler(StrictJSONRequest(request.scope, request.receive))

    return handle


def install(app: FastAPI) -> None:
    """Give every HTTP route of ``app`` the strict parser (call after including the routers)."""
    for route in app.router.routes:
        if isinstance(route, APIRoute):
            route.app = request_response(_strict(route.get_route_handler()))
