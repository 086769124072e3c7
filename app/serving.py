"""How ``menagerie serve`` runs uvicorn: connection limits and timeouts (issue #15).

uvicorn closes a keep-alive connection that stays idle (``timeout_keep_alive``), caps the
connections and requests at once (``limit_concurrency``: beyond it, 503) and the size of a
request's head (``h11_max_incomplete_event_size``), but it waits for a request's headers for as
long as the client likes: sixty connections that never finish their headers were held for as
long as the attacker wished. :class:`HeaderTimeoutProtocol` (uvicorn's httptools protocol, the
one ``uvicorn[standard]`` uses) closes a connection whose request headers have not all arrived
``MENAGERIE_HEADER_TIMEOUT`` seconds after the connection opened or the request began.

Forwarded addresses are handled by the app itself (app.main: uvicorn's ProxyHeadersMiddleware
with ``MENAGERIE_TRUSTED_PROXIES``), so uvicorn's own proxy-header handling (which by default
believes ``X-Forwarded-For`` from 127.0.0.1) is switched off.
"""

from __future__ import annotations

import asyncio
import contextlib

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .settings import Settings, get_settings


class HeaderTimeoutProtocol(HttpToolsProtocol):
    header_timeout: float | None = None

    def _arm(self) -> None:
        self._disarm()
        timeout = self.header_timeout
        if timeout is None:
            timeout = type(self).header_timeout = get_settings().header_timeout
        self._header_timer = self.loop.call_later(timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


def http_limit(settings: Settings) -> int | None:
    """uvicorn's ``limit_concurrency``: ``max_connections`` for HTTP *on top of* the
    WebSockets the app admits (``ws_max_sockets``). uvicorn counts an open WebSocket as a
    connection, so with one shared limit a crowd of sockets made every page and /healthz answer
    503 (issue #31); the app caps the sockets itself (app/quotas.py), so HTTP always keeps its
    own ``max_connections``. 0: no limit."""
    if not settings.max_connections:
        return None
    return settings.max_connections + settings.ws_max_sockets


def open_files(settings: Settings) -> int:
    """Raise this process's soft limit of open files to its hard limit (one file per socket:
    a soft limit of 1024, common under systemd, would refuse connections long before the
    socket caps), and warn when even that is below the caps plus a reserve. Returns the
    limit."""
    import logging
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        if hard == resource.RLIM_INFINITY or hard > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    needed = settings.ws_max_sockets + settings.max_connections + 256
    if soft != resource.RLIM_INFINITY and soft < needed:
        logging.getLogger("menagerie.serve").warning(
            "open files limited to %d, below MENAGERIE_WS_MAX_SOCKETS + MENAGERIE_MAX_CONNECTIONS "
            "+ 256 = %d: raise `ulimit -n` (LimitNOFILE) or lower the caps", soft, needed)
    return soft


def uvicorn_options(settings: Settings) -> dict:
    """The uvicorn settings ``menagerie serve`` (and the test launcher) use."""
    HeaderTimeoutProtocol.header_timeout = settings.header_timeout
    return dict(log_config=None, access_log=False, ws_max_size=settings.max_body_bytes,
                ws_per_message_deflate=settings.ws_compression, proxy_headers=False,
                server_header=False, timeout_graceful_shutdown=10,
                http="app.serving:HeaderTimeoutProtocol",
                timeout_keep_alive=settings.keepalive_timeout,
                limit_concurrency=http_limit(settings), backlog=settings.backlog,
                h11_max_incomplete_event_size=16 * 1024)
