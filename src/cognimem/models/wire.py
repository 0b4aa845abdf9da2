"""Field types whose validation accepts exactly what their JSON Schema says, so the
OpenAPI schema tells the truth: an ``integer`` is not the string ``"5"`` or ``true``
(pydantic's lax mode takes both), a ``date-time`` is an ISO 8601 string (not a number
of seconds), inside the years a time may have (``text.validate.check_time``)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

# years 1900-9000, as check_time allows
YEARS_PATTERN = r"^(19\d\d|[2-8]\d\d\d|9000)-"


def _number_not_text(value: Any) -> Any:
    if isinstance(value, str | bool):
        raise ValueError("Input should be a JSON number")
    return value


def _time_not_number(value: Any) -> Any:
    # pydantic reads a number, and text of digits ("0", "1700000000"), as seconds since
    # 1970; the schema's pattern (a year, then "-") refuses both, and so does this
    if isinstance(value, int | float) or (
        isinstance(value, str) and re.match(YEARS_PATTERN, value) is None
    ):
        raise ValueError("Input should be an ISO 8601 date-time with a UTC offset")
    return value


JSON_NUMBER = BeforeValidator(_number_not_text)
"""Put after the bounds: ``Annotated[int, Field(ge=1), JSON_NUMBER]`` is a JSON number
(``5`` or ``5.0`` for an int), never ``"5"`` or ``true``. (Bounds after the validator
are left out of the JSON Schema by pydantic.)"""

IsoTime = Annotated[
    datetime,
    BeforeValidator(_time_not_number),
    Field(json_schema_extra={"pattern": YEARS_PATTERN}),
]
"""A time as ISO 8601 text (or a ``datetime``), never a number of seconds."""
