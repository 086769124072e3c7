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
from starlette.responses import JSONResponse as StarletteJSONResponse

from engine.core import NOT_YOUR_DECISION

from . import jsonutil
from .refusal import BadLink, InvalidInput, Refusal, RulesRefusal, say

log = logging.getLogger("menagerie.errors")


class ApiError(Refusal):
    """The older form of a refusal: the raiser names the HTTP status. New code raises
    :class:`~app.refusal.Refusal` and adds its code to ``REFUSAL_STATUS``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(code, message, **extra)
        self.status = status


# The HTTP status of each refusal code (the edge decides, once; the domain raises Refusal with
# no status). A code not named here answers 422 (an engine's rule codes, say).
REFUSAL_STATUS: dict[str, int] = {
    # invitations, friends, profiles (issue #33: app/invites.py, app/friends.py)
    **dict.fromkeys(("unknown_player", "no_invitation"), 404),
    **dict.fromkeys(("invitation_quota", "follow_quota"), 409),
    **dict.fromkeys(("no_invitees", "self_invite", "too_many_invites", "cannot_follow_self"), 422),
    # 401: who you are is not known
    **dict.fromkeys(("unauthorized", "bad_credentials", "bad_token"), 401),
    # 403: known, but not allowed
    **dict.fromkeys((
        "forbidden", "chat_forbidden", "chat_hidden", "csrf_failed", "game_sealed", "hints_off",
        "no_seat", "not_a_player", "not_creator", "not_invited", "not_your_turn_to_confirm",
        "wrong_password"), 403),
    **dict.fromkeys(("not_found", "day_not_started", "unknown_challenge"), 404),
    # 409: the state of things does not allow it (now)
    **dict.fromkeys((
        "conflict", "abort_too_late", "already_resigned", "already_seated",
        "analysis_not_running", "bot_quota", "cannot_undo", "creator_cannot_leave",
        "email_unavailable", "game_full", "game_not_finished", "game_over", "game_quota",
        "no_decision", "nothing_to_confirm", "not_away", "not_cancellable", "not_expired", "not_finished", "not_open",
        "not_running", "not_started", "push_subscription_busy", "resigned", "seat_away",
        "seat_taken", "seats_empty", "seats_invited", "stale_version", "turn_unconfirmed",
        "username_lookalike",
        "username_taken", "vacation_limit", "vacation_over", "vacation_overlap",
        "webhook_exists", "webhook_limit"), 409),
    # 422: what was sent cannot be used
    **dict.fromkeys((
        "bad_bots", "bad_channel", "bad_chat_text", "bad_email", "bad_language", "bad_options",
        "bad_password", "bad_preferences", "bad_push_subscription", "bad_record", "bad_seat",
        "bad_time_zone", "bad_username", "bad_vacation", "bad_version", "bad_webhook_url",
        "common_password", "malformed", "push_service_not_allowed", "rejected",
        "result_mismatch", "unknown_bot", "unknown_game", "username_reserved", "vacation_past",
        "vacation_too_far", "webhook_private_address"), 422),
    **dict.fromkeys(("too_many_requests", "analysis_pending", "hint_pending", "rate_limited",
                     "too_many_sockets"), 429),
    # 503: the server cannot do it now; try again later
    **dict.fromkeys(("crowded", "game_unavailable", "hint_timeout", "hint_unavailable",
                     "server_busy"), 503),
    # quick match (app/seeks/)
    **dict.fromkeys(("seek_quota", "seek_closed", "own_seek", "seek_not_direct",
                     "seek_out_of_range"), 409),
    **dict.fromkeys(("bad_seek", "bad_rating_range", "bad_seats"), 422),
}

# Kinds of refusal whose status does not depend on the code.
_KIND_STATUS: tuple[tuple[type[Refusal], int], ...] = ((InvalidInput, 422), (BadLink, 400))

def status_of(exc: Refusal) -> int:
    """The HTTP status of a refusal: its own for an ``ApiError``; by kind for the rules' own
    refusals (the engine's contract: 403 for :data:`engine.core.NOT_YOUR_DECISION`, else
    422), an invalid input (422) or a bad e-mail link (400); else the table's (422 for a code
    the table does not name)."""
    if isinstance(exc, ApiError):
        return exc.status
    if isinstance(exc, RulesRefusal):
        return 403 if exc.code in NOT_YOUR_DECISION else 422
    for kind, status in _KIND_STATUS:
        if isinstance(exc, kind):
            return status
    return REFUSAL_STATUS.get(exc.code, 422)


def headers_of(exc: Refusal) -> dict[str, str] | None:
    """The HTTP headers of a refusal: ``Retry-After`` for a rate limit."""
    if exc.code == "rate_limited" and "retry_after" in exc.params:
        return {"Retry-After": str(exc.params["retry_after"])}
    return getattr(exc, "headers", None)


def scrub(data: Any) -> Any:
    """Replace what cannot be encoded as UTF-8 (lone surrogates) by U+FFFD."""
    if isinstance(data, str):
        return data.encode("utf-8", "replace").decode("utf-8")
    if isinstance(data, dict):
        return {scrub(k): scrub(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [scrub(v) for v in data]
    return data


class BodyTooLarge(StarletteHTTPException):
    """Raised by the body-size middleware while a request body is being read."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=f"The request body is larger than {limit} bytes.")


class JSONResponse(StarletteJSONResponse):
    """JSON via orjson (int dict keys allowed, e.g. result scores by seat).

    A subclass of Starlette's JSONResponse, so the OpenAPI description says the routes answer
    JSON (not a string)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        try:
            return jsonutil.dumps(content)
        except TypeError:
            # text that is not valid Unicode (a lone surrogate echoed from the request)
            return jsonutil.dumps(scrub(content))


def database_unavailable(exc: BaseException) -> bool:
    """True for errors meaning "the database cannot be reached now" (down, restarting,
    connection lost, pool exhausted), as opposed to a bug in a query."""
    from sqlalchemy import exc as sa

    if isinstance(exc, (OSError, ConnectionError, sa.TimeoutError, sa.InterfaceError,
                        sa.OperationalError)):
        return True
    if isinstance(exc, sa.DBAPIError) and exc.connection_invalidated:
        return True
    orig = getattr(exc, "orig", None) or exc
    try:
        import asyncpg
    except ImportError:  # pragma: no cover
        return False
    names = {c.__name__ for c in type(orig).__mro__}
    if isinstance(orig, (asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
                         asyncpg.CannotConnectNowError, asyncpg.AdminShutdownError,
                         asyncpg.CrashShutdownError, asyncpg.InternalClientError)):
        return True
    # wrapped by SQLAlchemy's adapter: look at the asyncpg exception behind it
    cause = getattr(orig, "__cause__", None)
    if cause is not None and cause is not orig:
        return database_unavailable(cause)
    return "ConnectionDoesNotExistError" in names


def error_response(status: int, code: str, message: str, headers: dict | None = None,
                   request: Any = None, **extra: Any) -> JSONResponse:
    """An error body; with ``request``, the sentence in the language of its
    ``Accept-Language`` (the code never changes)."""
    body = {"error": {"code": code, "message": str(message), **extra}}
    if request is not None:
        from .i18n import localize

        body = localize(body, request, getattr(message, "key", None),
                        getattr(message, "text", None))
    return JSONResponse(body, status_code=status, headers=headers)


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
    @app.exception_handler(Refusal)
    async def _api_error(_request: Request, exc: Refusal):
        from .i18n import localize  # the sentence in the caller's language; the code stays

        return JSONResponse(localize(exc.body(), _request, exc.key, exc.text), status_code=status_of(exc),
                            headers=headers_of(exc))

    async def _database(request: Request, exc: Exception):
        if not database_unavailable(exc):
            log.error("database error on %s %s", request.method, request.url.path,
                      exc_info=exc)
            return error_response(500, "internal", say("internal"),
                                  request=request)
        from . import metrics

        metrics.DB_UNAVAILABLE.inc()
        log.warning("database unavailable on %s %s: %s", request.method, request.url.path,
                    exc.__class__.__name__)
        return error_response(503, "database_unavailable",
                              say("database_unavailable"),
                              headers={"Retry-After": "1"}, request=request)

    @app.exception_handler(UnicodeError)
    async def _bad_text(request: Request, exc: UnicodeError):
        # a JSON string with a lone surrogate ("\ud800") is valid JSON but not text
        log.info("refused invalid text on %s %s", request.method, request.url.path)
        return error_response(400, "bad_text", say("bad_text"), request=request)

    from sqlalchemy.exc import SQLAlchemyError

    app.add_exception_handler(SQLAlchemyError, _database)
    app.add_exception_handler(OSError, _database)
    try:
        import asyncpg

        app.add_exception_handler(asyncpg.PostgresError, _database)
        app.add_exception_handler(asyncpg.InterfaceError, _database)
        # a pooled connection left mid-operation (a restart interrupted it): not a
        # PostgresError, a plain Exception ("cannot switch to state ...")
        app.add_exception_handler(asyncpg.InternalClientError, _database)
    except ImportError:  # pragma: no cover
        pass

    # Anything else: still the error body (never Starlette's plain-text page), still 503 when
    # it means the database is away. Starlette re-raises it after answering, so it is logged.
    async def _unexpected(request: Request, exc: Exception):
        if database_unavailable(exc):
            return await _database(request, exc)
        return error_response(500, "internal", say("internal"),
                              request=request)

    app.add_exception_handler(Exception, _unexpected)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        from .i18n import request_language, translate

        code, message, details = _describe_validation(list(exc.errors()))
        status = 400 if code == "malformed_json" else 422
        lang = request_language(request)
        for d in details:  # each field's sentence too ("<where>: <sentence>", where unchanged)
            where = ".".join(d["loc"]) or "request"
            said = translate("invalid_request", f"{where}: {d['message']}", lang)
            if said.startswith(f"{where}: "):
                d["message"] = said[len(where) + 2:]
        return error_response(status, code, message, details=details, request=request)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
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
        return error_response(status, code, message, headers=headers, request=request)


ERROR_SCHEMA = {
    "title": "Error",
    "type": "object",
    "required": ["error"],
    "properties": {"error": {
        "type": "object",
        "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "additionalProperties": True,
    }},
    "additionalProperties": False,
}


def document_errors(schema: dict) -> dict:
    """Describe the error bodies as they are: ``{"error": {"code", "message", ...}}`` for
    every 4xx (FastAPI's default describes a 422 ``{"detail": [...]}`` we never send)."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    components["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for ops in schema.get("paths", {}).values():
        for op in ops.values():
            responses = op.setdefault("responses", {})
            responses.pop("422", None)
            responses["4XX"] = {"description": "Refused; ``error.code`` says why.",
                                "content": {"application/json": {"schema": ref}}}
    return schema
