"""The seam to the internal LLM: :class:`ChatLLM`, its message type and the model string.

cognimem calls an LLM only when one is configured (``COGNIMEM_LLM__MODEL``); the model
string is either ``openai:<model>`` or just ``<model>``, both served by an
OpenAI-compatible ``/chat/completions`` endpoint at ``COGNIMEM_LLM__BASE_URL``. Only the
``openai:`` prefix is recognised: anything else is the model name as the endpoint knows
it (Ollama tags such as ``llama3.1:8b`` contain colons). A configured LLM is never
swapped for another model when it fails.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from cognimem.errors import UsageError

ChatRole = Literal["system", "user", "assistant"]


class ChatMessage(BaseModel):
    """One turn of a chat completion request."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: ChatRole
    content: str


@runtime_checkable
class ChatLLM(Protocol):
    """A chat model that answers a list of messages with the assistant's text."""

    @property
    def model_id(self) -> str:
        """Stable id of the model, e.g. ``openai:gpt-4o-mini``."""
        ...

    async def complete(
        self,
        messages: list[ChatMessage],
        *,
        json_schema: dict[str, Any] | None = None,
        schema_name: str = "output",
    ) -> str:
        """The assistant message's content.

        With ``json_schema`` the provider is asked for JSON matching it (structured output,
        not strict); checking the answer is the caller's job. Raises
        :class:`~cognimem.errors.ProviderUnavailable` when the provider cannot be reached
        or keeps failing, :class:`~cognimem.errors.ProviderOutputError` when its answer
        has no usable content.
        """
        ...

    async def aclose(self) -> None:
        """Release connections; the object may be used again afterwards."""
        ...


def parse_llm_model(spec: str) -> str:
    """The model name in ``spec``: ``openai:<model>`` or ``<model>`` (stripped)."""
    text = spec.strip()
    prefix, sep, rest = text.partition(":")
    if sep and prefix.lower() == "openai":
        text = rest.strip()
        if not text:
            raise UsageError(
                f"LLM model {spec!r} names no model: use 'openai:<model>', e.g. "
                "COGNIMEM_LLM__MODEL=openai:gpt-4o-mini"
            )
    return text


__all__ = ["ChatLLM", "ChatMessage", "ChatRole", "parse_llm_model"]
