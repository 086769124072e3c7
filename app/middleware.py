"""Small ASGI middlewares: request ids with an access log line, metrics and security headers;
and the request body limit."""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import time
import uuid
from pathlib import Path

from . import jsonutil, metrics
from .errors import BodyTooLarge
from .logs import request_id

access_log = logging.getLogger("menagerie.access")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


_INLINE_HANDLER = re.compile(r"""\son[a-z]+\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc\s*=)[^>]*>(.*?)</script>", re.I | re.S)


def _sha256(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


def inline_script_hashes(static_dir: Path | None) -> tuple[list[str], list[str]]:
    """CSP hashes of the inline event handlers and inline scripts of the client's pages.

    The client loads its code as same-origin ES modules; whatever inline code its pages still
    carry (an ``onclick="..."`` attribute) is allowed by its exact hash, not by
    ``'unsafe-inline'``.
    """
    handlers: set[str] = set()
    scripts: set[str] = set()
    if static_dir is not None and static_dir.is_dir():
        for page in sorted(static_dir.glob("*.html")):
            try:
                html = page.read_text(encoding="utf-8", errors="replace")
            except OSError:  # pragma: no cover
                continue
            for m in _INLINE_HANDLER.finditer(html):
                handlers.add(_sha256(m.group(1) if m.group(1) is not None else m.group(2)))
            for m in _INLINE_SCRIPT.finditer(html):
                if m.group(1).strip():
                    scripts.add(_sha256(m.group(1)))
    return sorted(handlers), sorted(scripts)


def content_security_policy(static_dir: Path | None) -> str:
    handlers, scripts = inline_script_hashes(static_dir)
    script_src = ["'self'", *scripts]
    if handlers:
        script_src += ["'unsafe-hashes'", *handlers]
    return "; ".join([
        "default-src 'self'",
        "script-src " + " ".join(script_src),
        # style attributes (style="...", inline SVG) are used by the client; no inline script
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        # 'self' covers the same-origin ws:/wss: game sockets (CSP level 3)
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


#: the interactive API pages (/docs, /redoc) load Swagger UI / ReDoc from their CDN
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: "
            "https://fastapi.tiangolo.com https://cdn.redoc.ly; worker-src 'self' blob:; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


def security_headers(csp: str, *, hsts: bool) -> list[tuple[bytes, bytes]]:
    headers = [
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"same-origin"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"cross-origin-resource-policy", b"same-origin"),
        (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
    ]
    if hsts:
        headers.append((b"strict-transport-security", b"max-age=31536000"))
    return headers


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_label(scope) -> str:
    """The route template of a served request (bounded label values for the metrics)."""
    route = scope.get("route")
    if route is None:
        return "unmatched"
    path = getattr(route, "path", None)
    if path is None or path == "":
        return "static"
    return path


class RequestContextMiddleware:
    """Give every request an id (``X-Request-ID``, echoed back), log one line per request,
    count it in the metrics, and add the security headers to every HTTP response."""

    def __init__(self, app, *, log_requests: bool = True, csp: str = "default-src 'self'",
                 hsts: bool = False) -> None:
        self.app = app
        self.log_requests = log_requests
        self.headers = security_headers(csp, hsts=hsts)
        self.docs_headers = security_headers(DOCS_CSP, hsts=hsts)
        self.api_headers = self.headers + [(b"cache-control", b"no-store")]

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        rid = None
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                candidate = value.decode("latin-1")
                if _SAFE_ID.match(candidate):
                    rid = candidate
                break
        rid = rid or uuid.uuid4().hex
        request_id.set(rid)
        scope.setdefault("state", {})["request_id"] = rid
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)

        status = 500
        started = time.perf_counter()
        path = scope.get("path", "")
        if path.startswith("/api/"):
            extra_headers = self.api_headers
        elif path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
            extra_headers = self.docs_headers
        else:
            extra_headers = self.headers

        async def send_with_id(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in extra_headers if h[0] not in present)
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            elapsed = time.perf_counter() - started
            method = scope.get("method", "")
            if method not in _METHODS:
                method = "OTHER"
            route = route_label(scope)
            metrics.REQUESTS.labels(method, route, str(status)).inc()
            metrics.REQUEST_SECONDS.labels(method, route).observe(elapsed)
            if self.log_requests:
                access_log.info(
                    "%s %s %s", method, path, status,
                    extra={"method": method, "path": path, "route": route,
                           "status": status, "duration_ms": round(elapsed * 1000, 2)})


class BodyLimitMiddleware:
    """Refuse request bodies above ``limit`` bytes with 413 ``too_large``.

    Checks the declared ``Content-Length`` first, then counts the bytes actually streamed
    (chunked uploads have no length). ``routes`` gives some paths a limit of their own (a game
    record to import is larger than any move).
    """

    def __init__(self, app, *, limit: int, routes: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = limit
        self.routes = dict(routes or {})

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = self.routes.get(scope.get("path", ""), self.default)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return await _reply(send, 400, "bad_request", "Invalid Content-Length header.",
                                        scope)
                if declared > limit:
                    return await _reply(send, 413, "too_large",
                                        f"The request body is larger than {limit} bytes.",
                                        scope)
                break

        received = 0
        response_started = False

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message):
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if response_started:
                raise
            await _reply(send, 413, "too_large",
                         f"The request body is larger than {limit} bytes.", scope)


class StrictJSONMiddleware:
    """Refuse a JSON request body that is not strict JSON with 400 ``malformed_json``.

    FastAPI parses bodies with :func:`json.loads`, which accepts ``NaN`` and ``Infinity``
    (they then reached the engine) and lone surrogates (``"\\ud800"``, a 500 deep inside).
    This reads the body of an ``/api/`` request whose content type is JSON (or absent: FastAPI
    parses those as JSON too), checks it with orjson (RFC 8259, valid Unicode only) and hands
    the same bytes on. It sits inside :class:`BodyLimitMiddleware`, so it reads at most the
    allowed size.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope.get("path", "").startswith("/api/") or \
                scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        ctype = b""
        for name, value in scope.get("headers", ()):
            if name == b"content-type":
                ctype = value.split(b";")[0].strip().lower()
                break
        if ctype and ctype != b"application/json" and not ctype.endswith(b"+json"):
            return await self.app(scope, receive, send)
        chunks, more = [], True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body:
            try:
                jsonutil.loads(body)
            except ValueError:
                return await _reply(send, 400, "malformed_json",
                                    "The request body is not valid JSON.", scope)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _reply(send, status: int, code: str, message: str, scope=None) -> None:
    """An error answered by a middleware itself: the sentence in the language of the
    request's ``Accept-Language``, the code as it is."""
    from .i18n import localize_error, request_language

    error = localize_error(code, message, request_language(scope or {}))
    body = jsonutil.dumps({"error": error})
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
