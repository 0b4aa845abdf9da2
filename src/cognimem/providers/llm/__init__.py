"""The internal LLM cognimem calls (for extraction), behind the :class:`ChatLLM` protocol.

:func:`build_llm` turns :class:`~cognimem.config.LLMSettings` into a client, or ``None``
when no model is configured (the rule-based path then does the work).
:class:`ScriptedLLM` and :class:`FakeChatServer` are the shipped fakes for tests.
"""

from cognimem.providers.llm.base import ChatLLM, ChatMessage, ChatRole
from cognimem.providers.llm.factory import build_llm
from cognimem.providers.llm.fakes import FakeChatServer, LLMCall, ScriptedLLM
from cognimem.providers.llm.openai import OpenAICompatibleChat

__all__ = [
    "ChatLLM",
    "ChatMessage",
    "ChatRole",
    "FakeChatServer",
    "LLMCall",
    "OpenAICompatibleChat",
    "ScriptedLLM",
    "build_llm",
]
