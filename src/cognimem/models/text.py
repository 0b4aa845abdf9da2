"""Text that can be stored: the one check every entry point (HTTP edge, write funnel,
sessions, import) runs on caller text before it goes anywhere near a database.

Two things are refused everywhere, on every backend: a NUL character (PostgreSQL cannot
store it in text or JSON) and an unpaired UTF-16 surrogate such as ``"\\ud800"`` (not
Unicode at all: it cannot be encoded as UTF-8, so such a row could never be exported).
Refused, not stripped: nothing a caller sent is silently changed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from cognimem.errors import InvalidInput


def unstorable(text: str) -> str | None:
    """Why ``text`` cannot be stored, or ``None`` when it can."""
    if "\x00" in text:
        return f"contains a NUL character (U+0000) at position {text.index(chr(0))}"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"is not valid Unicode (an unpaired surrogate at position {exc.start})"
    return None


def printable(text: str) -> str:
    """``text`` safe to echo in an error: NUL and surrogates as ``\\uXXXX`` escapes."""
    return text if unstorable(text) is None else json.dumps(text)[1:-1]


def _child(field: str, key: str) -> str:
    return f"{field}.{printable(key)}" if field else printable(key)


def check_storable(value: object, field: str) -> None:
    """Raise ``InvalidInput`` naming the field (``metadata.notes[2].text``) when a string
    anywhere in ``value`` (mapping keys and values, list items, at any depth) cannot be
    stored. Other values (numbers, dates, models) are left to their own checks."""
    if isinstance(value, str):
        problem = unstorable(value)
        if problem is not None:
            raise InvalidInput(f"{field or 'the value'} {problem}", field=field or "body")
    elif isinstance(value, Mapping):
        for key, inner in value.items():
            if isinstance(key, str):
                problem = unstorable(key)
                if problem is not None:
                    name = _child(field, key)
                    raise InvalidInput(f"the key of {name} {problem}", field=name)
                check_storable(inner, _child(field, key))
    elif isinstance(value, list | tuple):
        for index, inner in enumerate(value):
            check_storable(inner, f"{field}[{index}]")
