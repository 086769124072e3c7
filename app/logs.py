"""Structured logs: one JSON object per line, carrying the id of the request being served."""

from __future__ import annotations

import logging
import re
import sys
import time
from contextvars import ContextVar

from . import jsonutil

#: tokens passed in a URL (WebSocket ``?token=``) never reach the logs
_TOKEN_IN_URL = re.compile(r"(token=)[^&\s\"']+")

request_id: ContextVar[str | None] = ContextVar("menagerie_request_id", default=None)

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime", "color_message"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                  + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": _TOKEN_IN_URL.sub(r"\1[redacted]", record.getMessage()),
        }
        rid = request_id.get()
        if rid:
            data["request_id"] = rid
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                data[key] = value
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        try:
            return jsonutil.dumps_str(data)
        except TypeError:
            return jsonutil.dumps_str({k: str(v) for k, v in data.items()})


def configure(level: str = "INFO") -> None:
    """Send every log record to stderr as JSON (uvicorn's loggers included)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True
    # the app writes its own access line (with the request id)
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
