"""Builds the internal LLM that :class:`~cognimem.config.LLMSettings` configure.

Above the clients, which import their base types from ``llm/base.py``, so nothing imports
back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cognimem.errors import UsageError
from cognimem.providers.llm.base import ChatLLM, parse_llm_model
from cognimem.providers.llm.openai import OpenAICompatibleChat

if TYPE_CHECKING:
    import httpx

    from cognimem.config import LLMSettings


def build_llm(
    settings: LLMSettings, *, transport: httpx.AsyncBaseTransport | None = None
) -> ChatLLM | None:
    """The LLM that ``settings`` configure, or ``None`` when ``settings.model`` is unset.

    Nothing is contacted here. ``transport`` replaces the network (tests only).
    """
    if settings.model is None or not settings.model.strip():
        return None
    model = parse_llm_model(settings.model)
    if not settings.base_url:
        raise UsageError(
            f"LLM model {settings.model!r} needs the endpoint's base URL: set "
            "COGNIMEM_LLM__BASE_URL to an OpenAI-compatible API root, e.g. "
            "http://127.0.0.1:11434/v1 (or unset COGNIMEM_LLM__MODEL to use the rule-based "
            "extractor)"
        )
    return OpenAICompatibleChat(
        model,
        settings.base_url,
        api_key=settings.api_key.get_secret_value() if settings.api_key else None,
        timeout_s=settings.timeout_s,
        max_retries=settings.max_retries,
        temperature=settings.temperature,
        max_output_tokens=settings.max_output_tokens,
        transport=transport,
    )


__all__ = ["build_llm"]
