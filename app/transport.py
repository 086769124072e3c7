"""HSTS for requests that arrived over https.

Behind a TLS-terminating proxy the app sees plain HTTP; uvicorn's ``ProxyHeadersMiddleware``
(installed by app.main when ``MENAGERIE_TRUSTED_PROXIES`` is set) rewrites the request's scheme
from ``X-Forwarded-Proto`` only when the peer is one of those proxies. Every response to such an https request carries ``Strict-Transport-Security``, so a
browser that once reached the site over https never falls back to http (where the login
cookie, Secure on those same requests, would not be sent anyway). ``MENAGERIE_COOKIE_SECURE``
turns HSTS on for every response (app/middleware.py).
"""

from __future__ import annotations

HSTS = (b"strict-transport-security", b"max-age=31536000")


class HstsOverHttps:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("scheme") != "https":
            return await self.app(scope, receive, send)

        async def send_hsts(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == HSTS[0] for name, _ in headers):
                    headers.append(HSTS)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_hsts)
