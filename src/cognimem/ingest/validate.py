"""Input validation for writes: typed errors that name the field, before anything is written."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from cognimem.config import IngestSettings
from cognimem.errors import InvalidInput
from cognimem.models import Message


def check_text(value: str, field: str, max_chars: int) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be a string", field=field)
    if not value.strip():
        raise InvalidInput(f"{field} is empty", field=field)
    if len(value) > max_chars:
        raise InvalidInput(
            f"{field} has {len(value)} characters; the maximum is {max_chars}", field=field
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{field} is not valid Unicode (unpaired surrogate at position {exc.start})",
            field=field,
        ) from exc
    if "\x00" in value:
        raise InvalidInput(f"{field} contains a NUL character", field=field)
    return value


def check_time(value: datetime | None, field: str) -> None:
    if value is not None and not (1900 <= value.year <= 9000):
        raise InvalidInput(f"{field} is out of range: {value.isoformat()}", field=field)


def validate_messages(messages: Sequence[Message], settings: IngestSettings) -> None:
    if not messages:
        raise InvalidInput("no messages to write", field="messages")
    if len(messages) > settings.max_batch:
        raise InvalidInput(
            f"batch of {len(messages)} messages exceeds the maximum of {settings.max_batch}",
            field="messages",
        )
    many = len(messages) > 1
    for index, message in enumerate(messages):
        prefix = f"messages[{index}]." if many else ""
        check_text(message.content, f"{prefix}content", settings.max_content_chars)
        check_time(message.occurred_at, f"{prefix}occurred_at")
        for name in ("name", "idempotency_key", "external_id"):
            value = getattr(message, name)
            if value is not None:
                check_text(value, f"{prefix}{name}", 200)
        try:
            json.dumps(message.metadata, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(
                f"{prefix}metadata is not JSON-serialisable: {exc}", field=f"{prefix}metadata"
            ) from exc
