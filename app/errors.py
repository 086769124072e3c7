"""API errors: every refusal is ``{"error": {"code", "message"}}`` with a 4xx status.

Handlers installed by :func:`install` turn validation errors, unknown routes, wrong methods,
malformed JSON and oversized bodies into that shape, so bad input never produces a 500.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from . import jsonutil

log = logging.getLogger("menagerie.errors")


class ApiError(Exception):
    """An expected refusal with an HTTP status, a stable code and a sentence."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def not_found(what: str = "resource") -> ApiError:
    return ApiError(404, "not_found", f"No such {what}.")


class BodyTooLarge(StarletteHTTPException):
    """Raised by the body-size middleware while a request body is being read."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=f"The request body is larger than {limit} bytes.")


class JSONResponse(Response):
    """JSON via orjson (int dict keys allowed, e.g. result scores by seat)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return jsonutil.dumps(content)


def error_response(status: int, code: str, message: str, headers: dict | None = None,
                   **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}},
                        status_code=status, headers=headers)


_HTTP_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 406: "not_acceptable", 409: "conflict", 413: "too_large",
    415: "unsupported_media_type", 422: "invalid_request", 429: "too_many_requests",
}


def _describe_validation(errors: list[dict]) -> tuple[str, str, list[dict]]:
    details = []
    for err in errors[:20]:
        loc = [str(p) for p in err.get("loc", ())]
        details.append({"loc": loc, "message": str(err.get("msg", "invalid"))})
    if any(err.get("type") == "json_invalid" for err in errors):
        return "malformed_json", "The request body is not valid JSON.", details
    first = details[0] if details else {"loc": [], "message": "invalid request"}
    where = ".".join(first["loc"]) or "request"
    return "invalid_request", f"{where}: {first['message']}", details


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError):
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError):
        code, message, details = _describe_validation(list(exc.errors()))
        status = 400 if code == "malformed_json" else 422
        return error_response(status, code, message, details=details)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException):
        status = exc.status_code
        code = _HTTP_CODES.get(status, "http_error")
        if status == 404:
            message = "Not found."
        elif status == 405:
            message = "Method not allowed here."
        elif isinstance(exc.detail, str) and exc.detail:
            message = exc.detail
        else:
            message = code.replace("_", " ").capitalize() + "."
        headers = dict(exc.headers) if exc.headers else None
        return error_response(status, code, message, headers=headers)
