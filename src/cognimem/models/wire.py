"""Field types whose validation accepts exactly what their JSON Schema says, so the
OpenAPI schema tells the truth: an ``integer`` is not the string ``"5"`` or ``true``
(pydantic's lax mode takes both), a ``date-time`` is an ISO 8601 string (not a number
of seconds), inside the years a time may have (``text.validate.check_time``)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

FIRST_YEAR, LAST_YEAR = 1900, 9000
"""The years a time may have (``text.validate.check_time``; the schema's pattern)."""
YEARS_PATTERN = r"^(19\d\d|[2-8]\d\d\d|9000)-"
# an ISO 8601 date's year, in range or not
_YEAR = re.compile(r"^(\d{4,})-")


def year_out_of_range(year: int) -> str:
    """What is wrong with a time in another year than ``FIRST_YEAR``-``LAST_YEAR``."""
    return f"year {year} is out of range: a time lies in the years {FIRST_YEAR}-{LAST_YEAR}"


def _number_not_text(value: Any) -> Any:
    if isinstance(value, str | bool):
        raise ValueError("Input should be a JSON number")
    return value


def _time_not_number(value: Any) -> Any:
    # pydantic reads a number, and text of digits ("0", "1700000000"), as seconds since
    # 1970; the schema's pattern (a year, then "-") refuses both, and so does this
    if isinstance(value, str):
        if re.match(YEARS_PATTERN, value) is not None:
            return value
        year = _YEAR.match(value)
        if year is not None:
            raise PydanticCustomError("time_year", year_out_of_range(int(year.group(1))))
    elif not isinstance(value, int | float):
        return value
    raise PydanticCustomError(
        "time_format", "Input should be an ISO 8601 date-time with a UTC offset"
    )


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
