"""Layer 5, procedural memory: what the agent was seen to do, again and again, when
asked for something — "deploy the staging build" → ``deploy(env="staging")``.

A :class:`Procedure` is learnt from repetition (``lifecycle/procedures.py``), never
written by a caller: its trigger is the request as first said with the words every
matching request shares, its action the tool calls (or the answer, or the instruction
a tool-discovery write gave) that followed, and its provenance the events it was
learnt from, one request per observation.
"""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from cognimem.models.scope import Scope

# an argument whose value differed between observations of the same procedure
VARIES = "<varies>"


class ActionKind(StrEnum):
    TOOL = "tool"  # tool calls (the assistant's ``tool_calls`` or tool-role messages)
    ANSWER = "answer"  # the assistant's answer, when it called no tool
    INSTRUCTION = "instruction"  # what a tool-discovery write said to do


class ToolCall(BaseModel):
    """One tool call of an action; an argument that differed between observations is
    ``"<varies>"``."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)

    def render(self) -> str:
        args = ", ".join(f"{k}={json.dumps(v)}" for k, v in self.arguments.items())
        return f"{self.name}({args})"


class ProcedureAction(BaseModel):
    """What was done: tool calls in order (``tool``), or a text (``answer``,
    ``instruction``)."""

    kind: ActionKind
    tools: list[ToolCall] = Field(default_factory=list)
    text: str = ""

    def render(self) -> str:
        """The action as one prompt phrase."""
        if self.kind is ActionKind.TOOL:
            return "call " + ", then ".join(t.render() for t in self.tools)
        if self.kind is ActionKind.ANSWER:
            return f'answer "{self.text}"'
        return self.text


class Procedure(BaseModel):
    """A learnt request → action pattern of one user.

    ``trigger``: the request as first said; ``trigger_terms``: its features, the content
    words (first five letters) most requests of it share — a request matches when it
    holds most of them. ``observed_count``: the requests followed by this action
    (``request_event_ids``, one each); ``trigger_count``: the requests of this trigger
    seen with any action. ``confidence`` = count / (count + 1) × count / trigger_count:
    up with each repetition, down when the same request was met with something else.
    ``source_event_ids``: every event it was learnt from (requests, answers, tool
    messages, tool-discovery writes)."""

    id: str
    scope: Scope
    trigger: str
    trigger_terms: list[str]
    action: ProcedureAction
    observed_count: int
    trigger_count: int
    confidence: float
    request_event_ids: list[str]
    source_event_ids: list[str]
    first_seen_at: datetime
    last_seen_at: datetime
    created_at: datetime
    updated_at: datetime
    revision: int = 0  # bumped by every stored change (optimistic concurrency)


def procedure_confidence(observed: int, triggered: int) -> float:
    """``observed / (observed + 1) × observed / triggered`` (see :class:`Procedure`)."""
    if observed <= 0:
        return 0.0
    share = observed / max(triggered, observed)
    return round(observed / (observed + 1) * share, 4)
