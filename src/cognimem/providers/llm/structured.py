"""Structured answers from a chat LLM: ask, validate, and ask once more with the error.

The extractor and the query classifier both send a JSON schema, validate the answer
with pydantic, and on an invalid answer retry once with the model's answer and the
validation error in the conversation; a second invalid answer raises
:class:`~cognimem.errors.ProviderOutputError`. Provider errors propagate unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cognimem.errors import ProviderOutputError
from cognimem.providers.llm.base import ChatLLM, ChatMessage

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

_MAX_ERRORS_SHOWN = 10
_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n(.*)\n\s*```$", re.DOTALL)


class InvalidAnswer(Exception):
    """An answer that does not validate; the message is what the model is told."""


def validated(answer: str, model: type[M]) -> M:
    """``answer`` as ``model``; :class:`InvalidAnswer` describing what is wrong."""
    text = answer.strip()
    fenced = _FENCE.match(text)
    if fenced:  # some servers wrap JSON in a markdown fence despite the schema
        text = fenced.group(1)
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        raise InvalidAnswer(describe_errors(exc)) from exc


def describe_errors(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False)
    lines = []
    for error in errors[:_MAX_ERRORS_SHOWN]:
        location = ".".join(str(part) for part in error["loc"]) or "(top level)"
        shown = repr(error.get("input"))
        shown = shown if len(shown) <= 80 else shown[:80] + "..."
        lines.append(f"{location}: {error['msg']} (got {shown})")
    if len(errors) > _MAX_ERRORS_SHOWN:
        lines.append(f"... and {len(errors) - _MAX_ERRORS_SHOWN} more error(s)")
    return f"{len(errors)} validation error(s): " + "; ".join(lines)


async def ask(
    llm: ChatLLM,
    prompt: list[ChatMessage],
    parse: Callable[[str], T],
    correction: Callable[[str], str],
    *,
    json_schema: dict[str, Any],
    schema_name: str,
    echo_chars: int,
    what: str,
    details: Mapping[str, Any] | None = None,
) -> T:
    """``parse`` of the LLM's answer to ``prompt``. When ``parse`` raises
    :class:`InvalidAnswer`, the LLM is asked once more with its answer (cut to
    ``echo_chars``) and ``correction(error)``; a second invalid answer raises
    ``ProviderOutputError("the LLM's <what> was invalid twice; …")``."""
    answer = await llm.complete(prompt, json_schema=json_schema, schema_name=schema_name)
    try:
        return parse(answer)
    except InvalidAnswer as exc:
        first_error = str(exc)
    retry = [
        *prompt,
        ChatMessage(role="assistant", content=answer[:echo_chars]),
        ChatMessage(role="user", content=correction(first_error)),
    ]
    answer = await llm.complete(retry, json_schema=json_schema, schema_name=schema_name)
    try:
        return parse(answer)
    except InvalidAnswer as exc:
        raise ProviderOutputError(
            f"the LLM's {what} was invalid twice; last error: {exc}",
            provider="llm",
            model=llm.model_id,
            details={
                "validation_error": str(exc),
                "first_validation_error": first_error,
                "attempts": 2,
                **(details or {}),
            },
        ) from exc
