"""Serving the browser client from ``static/``."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles


class ClientFiles(StaticFiles):
    """Static files with a single-page-app fallback.

    A GET for a path that is not a file and has no extension (``/games/12``) gets
    ``index.html``, so the client's URLs can be shared and reloaded.
    """

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":  # no such socket
            await send({"type": "websocket.close", "code": 4404})
            return
        await super().__call__(scope, receive, send)

    async def get_response(self, path, scope):
        try:
            return await super().get_response(path, scope)
        except HTTPException as exc:
            last = path.rsplit("/", 1)[-1]
            if exc.status_code == 404 and "." not in last and not path.startswith("api"):
                return await super().get_response("index.html", scope)
            raise
