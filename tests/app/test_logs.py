"""Structured logs: JSON lines with the request id; no token ever logged."""

from __future__ import annotations

import json
import logging

from app.logs import JsonFormatter, request_id


def test_json_lines_with_request_id_and_no_tokens():
    fmt = JsonFormatter()
    token = request_id.set("req-42")
    try:
        record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1,
                                   '%s - "WebSocket %s" [accepted]',
                                   ("127.0.0.1:1", "/api/games/1/ws?token=s3cr3t-TOKEN&after=2"),
                                   None)
        record.status = 200
        line = json.loads(fmt.format(record))
    finally:
        request_id.reset(token)
    assert line["request_id"] == "req-42" and line["level"] == "info" and line["status"] == 200
    assert "s3cr3t" not in line["msg"] and "token=[redacted]&after=2" in line["msg"]
