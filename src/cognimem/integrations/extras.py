"""The error for an integration whose framework is not installed: it names the extra
that installs it, so the fix is in the message."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def needs(extra: str, framework: str) -> Iterator[None]:
    """Around an integration's framework imports: an ``ImportError`` naming the extra."""
    try:
        yield
    except ImportError as exc:
        raise ImportError(
            f"this cognimem integration needs {framework} ({exc.name or exc}):"
            f" pip install 'cognimem[{extra}]'"
        ) from exc
