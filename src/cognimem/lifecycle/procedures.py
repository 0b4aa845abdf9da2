"""Procedure detection (pure): repeated request → action patterns in a user's turns and
tool-discovery writes become procedures (``models/procedures.py``); no LLM.

1. **Observations.** Each user message with what answered it in the same conversation
   (same agent and session) up to the next user message: the tool calls of the
   assistant's messages (``metadata["tool_calls"]``: ``{"name", "arguments"}`` or the
   OpenAI shape ``{"function": {"name", "arguments"}}``), else the tool-role messages
   (``name``: the tool; ``metadata["arguments"]``), else the assistant's answer. A
   tool-discovery or tool-gotcha write (a ``procedure_hint`` item) that says "To X, Y",
   "When X: Y", "If asked to X, Y" or "X -> Y" is an observation of request X with the
   instruction Y.
2. **Groups.** In time order, an observation joins the first group whose first request
   shares at least ``trigger_similarity`` of its words (Jaccard, ``text/tokens``)
   and whose action is the same: the same tools in the same order, texts sharing at
   least ``action_similarity`` of their words, an instruction that names every tool of a
   tool action.
3. **Procedures.** A group observed ``min_observations`` times (an answer with no tool,
   ``min_answer_observations``) becomes a procedure, or reinforces the stored one it
   matches (an observation in common, or the same action and a similar trigger): the
   observations are a set of request events, so running again over the same events
   changes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cognimem.models import Event, MemoryItem, Role, Scope
from cognimem.models.ids import new_id
from cognimem.models.procedures import (
    VARIES,
    ActionKind,
    Procedure,
    ProcedureAction,
    ToolCall,
    procedure_confidence,
)
from cognimem.text.tokens import similarity, trigger_terms

MAX_ACTION_CHARS = 300


@dataclass(frozen=True)
class DetectionConfig:
    min_observations: int = 2
    min_answer_observations: int = 3  # an answer repeats by chance more than a tool call
    trigger_similarity: float = 0.6
    action_similarity: float = 0.5


@dataclass
class Observation:
    """One request and the action that followed it."""

    request: str
    terms: list[str]
    action: ProcedureAction
    request_event_id: str
    event_ids: list[str]
    at: datetime


@dataclass
class Group:
    seed: Observation
    members: list[Observation] = field(default_factory=list)
    triggered: int = 0  # observations of a similar request with any action

    @property
    def request_ids(self) -> list[str]:
        return list(dict.fromkeys(o.request_event_id for o in self.members))


@dataclass
class Detection:
    """What a detection pass found: procedures to store (new and reinforced, each with
    the revision it was read at) and the stored ones it found again unchanged."""

    observations: int = 0
    created: list[Procedure] = field(default_factory=list)
    reinforced: list[tuple[Procedure, int]] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    unreadable_tool_calls: int = 0


# -- 1. observations ---------------------------------------------------------------------
def _arguments(value: Any) -> dict[str, Any] | None:
    if value is None:
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else {}
        except ValueError:
            return None
    return dict(value) if isinstance(value, Mapping) else None


def tool_calls(metadata: Mapping[str, Any]) -> tuple[list[ToolCall], int]:
    """The tool calls a message's metadata carries, and how many entries could not be
    read as one (no name, arguments that are not an object)."""
    raw = metadata.get("tool_calls")
    if not isinstance(raw, list):
        return [], 0 if raw is None else 1
    calls: list[ToolCall] = []
    bad = 0
    for entry in raw:
        spec = entry.get("function", entry) if isinstance(entry, Mapping) else None
        name = spec.get("name") if isinstance(spec, Mapping) else None
        args = _arguments(spec.get("arguments")) if isinstance(spec, Mapping) else None
        if not isinstance(name, str) or not name.strip() or args is None:
            bad += 1
            continue
        calls.append(ToolCall(name=name.strip(), arguments=args))
    return calls, bad


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_ACTION_CHARS else text[: MAX_ACTION_CHARS - 1] + "…"


def turn_observations(
    events: Sequence[Event], exclude: frozenset[str] = frozenset()
) -> tuple[list[Observation], int]:
    """Observations from a user's events in time order (``exclude``: events that are
    not conversation, e.g. tool-discovery writes); and the unreadable tool calls."""
    open_turns: dict[tuple[str | None, str | None], list[Event]] = {}
    turns: list[list[Event]] = []
    for e in events:
        if e.id in exclude:
            continue
        conversation = (e.scope.agent_id, e.scope.session_id)
        if e.role is Role.USER:
            turn = [e]
            open_turns[conversation] = turn
            turns.append(turn)
        elif e.role in (Role.ASSISTANT, Role.TOOL) and conversation in open_turns:
            open_turns[conversation].append(e)
    out: list[Observation] = []
    unreadable = 0
    for request, *replies in turns:
        terms = trigger_terms(request.content)
        if not terms or not replies:
            continue
        calls: list[ToolCall] = []
        for r in replies:
            if r.role is Role.ASSISTANT:
                found, bad = tool_calls(r.metadata)
                calls += found
                unreadable += bad
        if not calls:
            for r in replies:
                args = _arguments(r.metadata.get("arguments"))
                if r.role is Role.TOOL and r.name and args is not None:
                    calls.append(ToolCall(name=r.name, arguments=args))
        if calls:
            action = ProcedureAction(kind=ActionKind.TOOL, tools=calls)
        else:
            answers = [r.content for r in replies if r.role is Role.ASSISTANT]
            if not answers:
                continue
            action = ProcedureAction(kind=ActionKind.ANSWER, text=_clip(" ".join(answers)))
        out.append(
            Observation(
                request=request.content,
                terms=terms,
                action=action,
                request_event_id=request.id,
                event_ids=[request.id, *(r.id for r in replies)],
                at=request.occurred_at,
            )
        )
    return out, unreadable


_INSTRUCTION = re.compile(
    r"^\s*(?:(?:to|when(?:\s+asked\s+to)?|if(?:\s+asked\s+to)?|for)\s+(?P<a>[^,:;]+?)\s*[,:;]"
    r"\s*(?P<b>.+)|(?P<c>[^>]+?)\s*(?:->|=>|→)\s*(?P<d>.+))$",
    re.IGNORECASE | re.DOTALL,
)


def hint_observation(item: MemoryItem) -> Observation | None:
    """The request → instruction a tool-discovery write states, if it states one."""
    m = _INSTRUCTION.match(item.text)
    if m is None:
        return None
    request = (m.group("a") or m.group("c") or "").strip()
    instruction = (m.group("b") or m.group("d") or "").strip().rstrip(".")
    terms = trigger_terms(request)
    if not terms or not instruction:
        return None
    return Observation(
        request=request,
        terms=terms,
        action=ProcedureAction(kind=ActionKind.INSTRUCTION, text=_clip(instruction)),
        request_event_id=item.source_event_ids[0] if item.source_event_ids else item.id,
        event_ids=list(item.source_event_ids),
        at=item.occurred_at,
    )


# -- 2. groups ---------------------------------------------------------------------------
def _names(action: ProcedureAction) -> list[str]:
    return [t.name for t in action.tools]


def _tool_words(name: str) -> set[str]:
    return set(trigger_terms(re.sub(r"[_.\-/]+", " ", name)))


def same_action(a: ProcedureAction, b: ProcedureAction, config: DetectionConfig) -> bool:
    """Whether two actions are the same (see the module docstring)."""
    if a.kind is ActionKind.TOOL and b.kind is ActionKind.TOOL:
        return _names(a) == _names(b)
    if ActionKind.TOOL in (a.kind, b.kind):
        tool, other = (a, b) if a.kind is ActionKind.TOOL else (b, a)
        if other.kind is not ActionKind.INSTRUCTION:
            return False
        words = set(trigger_terms(re.sub(r"[_.\-/]+", " ", other.text)))
        return all(_tool_words(n) and _tool_words(n) <= words for n in _names(tool))
    if a.kind is not b.kind:
        return False
    return similarity(trigger_terms(a.text), trigger_terms(b.text)) >= config.action_similarity


def group(observations: Sequence[Observation], config: DetectionConfig) -> list[Group]:
    """Group observations in time order (see the module docstring)."""
    groups: list[Group] = []
    for o in sorted(observations, key=lambda o: (o.at, o.request_event_id)):
        for g in groups:
            if similarity(o.terms, g.seed.terms) >= config.trigger_similarity and same_action(
                o.action, g.seed.action, config
            ):
                g.members.append(o)
                break
        else:
            groups.append(Group(seed=o, members=[o]))
    for g in groups:
        g.triggered = len(
            {
                o.request_event_id
                for o in observations
                if similarity(o.terms, g.seed.terms) >= config.trigger_similarity
            }
        )
    return groups


def _merged_action(members: Sequence[Observation]) -> ProcedureAction:
    """The group's action: its tool calls (an argument that differed is ``<varies>``),
    else the first text."""
    tools = [o.action for o in members if o.action.kind is ActionKind.TOOL]
    if not tools:
        return members[0].action
    # an instruction seed may gather tool actions naming other tools: keep the first's
    tools = [a for a in tools if _names(a) == _names(tools[0])]
    calls: list[ToolCall] = []
    for i, first in enumerate(tools[0].tools):
        args: dict[str, Any] = {}
        for key, value in first.arguments.items():
            same = all(key in a.tools[i].arguments and a.tools[i].arguments[key] == value
                       for a in tools)  # fmt: skip
            args[key] = value if same else VARIES
        for a in tools[1:]:
            for key in a.tools[i].arguments:
                args.setdefault(key, VARIES)
        calls.append(ToolCall(name=first.name, arguments=args))
    return ProcedureAction(kind=ActionKind.TOOL, tools=calls)


def _features(g: Group) -> list[str]:
    """The words at least half of the group's requests hold, in the first's order."""
    counts: dict[str, int] = {}
    for o in g.members:
        for t in set(o.terms):
            counts[t] = counts.get(t, 0) + 1
    common = [t for t in g.seed.terms if 2 * counts.get(t, 0) >= len(g.members)]
    return common or list(g.seed.terms)


# -- 3. procedures -----------------------------------------------------------------------
def _stored_match(
    g: Group, stored: Sequence[Procedure], config: DetectionConfig
) -> Procedure | None:
    ids = set(g.request_ids)
    action = _merged_action(g.members)
    for p in stored:
        if ids & set(p.request_event_ids):
            return p
    for p in stored:
        if same_action(action, p.action, config) and (
            similarity(_features(g), p.trigger_terms) >= config.trigger_similarity
        ):
            return p
    return None


def detect(
    scope: Scope,
    observations: Sequence[Observation],
    stored: Sequence[Procedure],
    now: datetime,
    config: DetectionConfig = DetectionConfig(),
) -> Detection:
    """New procedures and reinforcements of ``stored`` from ``observations``."""
    out = Detection(observations=len(observations))
    claimed: set[str] = set()
    for g in group(observations, config):
        found = _stored_match(g, [p for p in stored if p.id not in claimed], config)
        events = list(dict.fromkeys(e for o in g.members for e in o.event_ids))
        last = max(o.at for o in g.members)
        if found is not None:
            claimed.add(found.id)
            changed = _reinforced(found, g, events, last, now)
            if changed is None:
                out.unchanged.append(found.id)
            else:
                out.reinforced.append((changed, found.revision))
            continue
        created = _created(scope, g, events, last, now, config)
        if created is not None:
            out.created.append(created)
    return out


def _reinforced(
    found: Procedure, g: Group, events: list[str], last: datetime, now: datetime
) -> Procedure | None:
    """``found`` with the group's requests and source events added, or None when the
    group adds none of either."""
    requests = list(dict.fromkeys([*found.request_event_ids, *g.request_ids]))
    sources = list(dict.fromkeys([*found.source_event_ids, *events]))
    new = len(requests) - len(found.request_event_ids)
    triggered = max(found.trigger_count + new, g.triggered, len(requests))
    if sources == found.source_event_ids and triggered == found.trigger_count:
        return None
    return _observed(found, requests, triggered, sources, last, now)


def _observed(
    procedure: Procedure,
    requests: list[str],
    triggered: int,
    sources: list[str],
    last: datetime,
    now: datetime,
) -> Procedure:
    """``procedure`` observed for the ``requests`` (``triggered`` of them by its
    trigger), learnt from the events ``sources``, the latest seen at ``last``."""
    return procedure.model_copy(
        update={
            "observed_count": len(requests),
            "trigger_count": triggered,
            "confidence": procedure_confidence(len(requests), triggered),
            "request_event_ids": requests,
            "source_event_ids": sources,
            "last_seen_at": max(procedure.last_seen_at, last),
            "updated_at": now,
        }
    )


def _created(
    scope: Scope,
    g: Group,
    events: list[str],
    last: datetime,
    now: datetime,
    config: DetectionConfig,
) -> Procedure | None:
    """A new procedure of the user from the group, or None when it was observed too
    few times."""
    count = len(g.request_ids)
    action = _merged_action(g.members)
    needed = (
        config.min_answer_observations
        if action.kind is ActionKind.ANSWER
        else config.min_observations
    )
    if count < needed:
        return None
    triggered = max(g.triggered, count)
    return Procedure(
        id=new_id("prc"),
        scope=scope.model_copy(update={"session_id": None}),
        trigger=_clip(g.seed.request),  # a long request is shown cut
        trigger_terms=_features(g),
        action=action,
        observed_count=count,
        trigger_count=triggered,
        confidence=procedure_confidence(count, triggered),
        request_event_ids=g.request_ids,
        source_event_ids=events,
        first_seen_at=min(o.at for o in g.members),
        last_seen_at=last,
        created_at=now,
        updated_at=now,
    )


def reinforce(
    procedure: Procedure, observation: Observation, now: datetime, config: DetectionConfig
) -> Procedure | None:
    """``procedure`` with one more observation (a turn that matched its trigger and did
    the same), or None when the turn did something else or was counted already."""
    if observation.request_event_id in procedure.request_event_ids:
        return None
    if not same_action(observation.action, procedure.action, config):
        return None
    requests = [*procedure.request_event_ids, observation.request_event_id]
    triggered = procedure.trigger_count + 1
    sources = list(dict.fromkeys([*procedure.source_event_ids, *observation.event_ids]))
    return _observed(procedure, requests, triggered, sources, observation.at, now)
