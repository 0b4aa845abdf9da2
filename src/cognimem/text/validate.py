"""Input validation for writes and reads: typed errors that name the field, before
anything is written or looked up."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from cognimem.config import IngestSettings
from cognimem.errors import InvalidInput
from cognimem.models import Message
from cognimem.models.text import check_storable
from cognimem.models.wire import FIRST_YEAR, LAST_YEAR, year_out_of_range


def check_text(value: str, field: str, max_chars: int) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be a string", field=field)
    if not value.strip():
        raise InvalidInput(f"{field} is empty", field=field)
    if len(value) > max_chars:
        raise InvalidInput(
            f"{field} has {len(value)} characters; the maximum is {max_chars}", field=field
        )
    check_storable(value, field)
    return value


def check_time(value: datetime | None, field: str) -> None:
    """A time a caller gives must say its UTC offset (a naive one is ambiguous) and lie
    in the years 1900-9000."""
    if value is None:
        return
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInput(
            f"{field} has no UTC offset: give one, e.g. {value.isoformat()}+00:00", field=field
        )
    if not (FIRST_YEAR <= value.year <= LAST_YEAR):
        raise InvalidInput(f"{field}: {year_out_of_range(value.year)}", field=field)


def check_period(since: datetime | None, until: datetime | None) -> None:
    """``since`` and ``until`` are times a caller may give (``check_time``), and
    ``since`` is not after ``until``: a range that holds nothing is a mistake."""
    check_time(since, "since")
    check_time(until, "until")
    if since is not None and until is not None and since > until:
        raise InvalidInput("since is after until", field="since")


def check_metadata(value: Mapping[str, Any], field: str, max_bytes: int) -> None:
    """Metadata is a JSON object of storable text, at most ``max_bytes`` serialised."""
    check_storable(value, field)
    try:
        size = len(json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8"))
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{field} is not JSON-serialisable: {exc}", field=field) from exc
    if size > max_bytes:
        raise InvalidInput(
            f"{field} is {size} bytes as JSON; the maximum is {max_bytes}"
            " (setting ingest.max_metadata_bytes)",
            field=field,
        )


def check_message(message: Message, prefix: str, settings: IngestSettings) -> None:
    """Every field of one message; ``prefix`` (``messages[2].``) leads each field name."""
    check_text(message.content, f"{prefix}content", settings.max_content_chars)
    check_time(message.occurred_at, f"{prefix}occurred_at")
    for name in ("name", "idempotency_key", "external_id"):
        value = getattr(message, name)
        if value is not None:
            check_text(value, f"{prefix}{name}", 200)
    check_metadata(message.metadata, f"{prefix}metadata", settings.max_metadata_bytes)


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
        check_message(message, f"messages[{index}]." if many else "", settings)
