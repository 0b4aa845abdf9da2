"""Structured logs: one JSON object per line, with the request id of the HTTP request
being served (see ``docs/metrics.md``).

::

    {"time": "2024-05-01T12:00:00.123Z", "level": "INFO", "logger": "cognimem.access",
     "message": "POST /v1/memory/read 200", "request_id": "3f2a...", "method": "POST",
     "path": "/v1/memory/read", "status": 200, "duration_ms": 12.4, "tenant_id": "acme"}

Fields passed with ``extra=`` become top-level keys. Bearer tokens and cognimem API key
secrets that end up in a message are masked; nothing here logs headers.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Literal, TextIO

request_id_var: ContextVar[str | None] = ContextVar("cognimem_request_id", default=None)

_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}$")
_SECRETS = re.compile(r"(?i)(bearer\s+)\S+|\bcm_[A-Za-z0-9_\-]{8,}")
# attributes every LogRecord has; anything else came in through ``extra=``
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",  # uvicorn's ANSI-coloured copy of the message
}


def current_request_id() -> str | None:
    """The id of the HTTP request being served in this context, if any."""
    return request_id_var.get()


def request_id_from(header: str | None) -> str:
    """An incoming ``X-Request-ID`` if it is a sane token (≤ 128 characters of letters,
    digits and ``._:-``), else a new random id."""
    if header is not None and _SANE_REQUEST_ID.match(header):
        return header
    return uuid.uuid4().hex


def mask_secrets(text: str) -> str:
    """``text`` with bearer tokens and API key secrets replaced by ``***``."""
    return _SECRETS.sub(lambda m: f"{m.group(1)}***" if m.group(1) else "cm_***", text)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message,
    request_id, then the record's extra fields and ``exception`` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        at = datetime.fromtimestamp(record.created, UTC)
        entry: dict[str, Any] = {
            "time": at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": mask_secrets(record.getMessage()),
            "request_id": getattr(record, "request_id", None) or current_request_id(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = mask_secrets(self.formatException(record.exc_info))
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """Human-readable lines with the request id: ``time LEVEL logger [rid] message``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        if getattr(record, "request_id", None) is None:
            record.request_id = current_request_id() or "-"
        return mask_secrets(super().format(record))


def configure_logging(
    format: Literal["json", "text"] = "json",
    level: str = "INFO",
    *,
    stream: TextIO | None = None,
) -> logging.Handler:
    """Send every log record (cognimem's, uvicorn's, ...) to ``stream`` (stderr) in
    ``format``, replacing the root logger's handlers. Returns the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if format == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # uvicorn's loggers propagate to the root; its own access log is replaced by ours
    for name in ("uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    access = logging.getLogger("uvicorn.access")
    access.handlers.clear()
    access.propagate = False
    access.disabled = True
    return handler


__all__ = [
    "JsonFormatter",
    "TextFormatter",
    "configure_logging",
    "current_request_id",
    "mask_secrets",
    "request_id_from",
    "request_id_var",
]
