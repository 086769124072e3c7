"""Small ASGI middlewares: request ids with an access log line, and the request body limit."""

from __future__ import annotations

import logging
import re
import time
import uuid

from . import jsonutil
from .errors import BodyTooLarge
from .logs import request_id

access_log = logging.getLogger("menagerie.access")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


class RequestContextMiddleware:
    """Give every request an id (``X-Request-ID``, echoed back) and log one line per request."""

    def __init__(self, app, *, log_requests: bool = True) -> None:
        self.app = app
        self.log_requests = log_requests

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

        async def send_with_id(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.log_requests:
                access_log.info(
                    "%s %s %s", scope.get("method"), scope.get("path"), status,
                    extra={"method": scope.get("method"), "path": scope.get("path"),
                           "status": status,
                           "duration_ms": round((time.perf_counter() - started) * 1000, 2)})


class BodyLimitMiddleware:
    """Refuse request bodies above ``limit`` bytes with 413 ``too_large``.

    Checks the declared ``Content-Length`` first, then counts the bytes actually streamed
    (chunked uploads have no length).
    """

    def __init__(self, app, *, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return await _reply(send, 400, "bad_request", "Invalid Content-Length header.")
                if declared > self.limit:
                    return await _reply(send, 413, "too_large",
                                        f"The request body is larger than {self.limit} bytes.")
                break

        received = 0
        response_started = False

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
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
                         f"The request body is larger than {self.limit} bytes.")


async def _reply(send, status: int, code: str, message: str) -> None:
    body = jsonutil.dumps({"error": {"code": code, "message": message}})
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
