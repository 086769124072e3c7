"""HSTS for requests that arrived over https.

Behind a TLS-terminating proxy the app sees plain HTTP; uvicorn (``proxy_headers``, on in
``menagerie serve``) rewrites the request's scheme from ``X-Forwarded-Proto`` only when the
peer is a trusted proxy (``--forwarded-allow-ips`` / ``FORWARDED_ALLOW_IPS``, 127.0.0.1 by
default). Every response to such an https request carries ``Strict-Transport-Security``, so a
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
