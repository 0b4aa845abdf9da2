"""Procedure detection and matching as pure functions: what a turn's action is, what a
tool-discovery sentence states, which requests group together, when a group is a
procedure, and which queries match its trigger."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from cognimem.lifecycle.procedures import (
    DetectionConfig,
    detect,
    hint_observation,
    tool_calls,
    turn_observations,
)
from cognimem.models import Event, ItemKind, MemoryItem, Role, Scope
from cognimem.models.ids import content_hash, new_id
from cognimem.models.procedures import ActionKind, procedure_confidence
from cognimem.recall.procedures import match
from cognimem.text.tokens import trigger_terms

T0 = datetime(2024, 1, 1, tzinfo=UTC)
ADA = Scope(user_id="ada")
CONFIG = DetectionConfig()


def ev(role: Role, text: str, minute: int, session: str = "s1", **kw: Any) -> Event:
    return Event(
        id=f"evt_{minute:04d}_{role.value}",
        scope=Scope(user_id="ada", session_id=session),
        role=role,
        name=kw.get("name"),
        content=text,
        content_hash=content_hash(text),
        idempotency_key=None,
        external_id=None,
        occurred_at=T0 + timedelta(minutes=minute),
        recorded_at=T0,
        metadata=kw.get("metadata", {}),
    )


def calls(*names_args: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"tool_calls": [{"name": n, "arguments": a} for n, a in names_args]}


def test_tool_calls_are_read_in_both_shapes_and_bad_entries_counted() -> None:
    found, bad = tool_calls(
        {
            "tool_calls": [
                {"name": "deploy", "arguments": {"env": "staging"}},
                {"type": "function", "function": {"name": "notify", "arguments": '{"to": "ops"}'}},
                {"name": "", "arguments": {}},
                {"name": "broken", "arguments": "{not json"},
                "nonsense",
            ]
        }
    )
    assert [(c.name, c.arguments) for c in found] == [
        ("deploy", {"env": "staging"}),
        ("notify", {"to": "ops"}),
    ]
    assert bad == 3
    assert tool_calls({}) == ([], 0)
    assert tool_calls({"tool_calls": "deploy"}) == ([], 1)


def test_a_turn_is_the_request_and_what_answered_it_in_its_conversation() -> None:
    events = [
        ev(Role.USER, "Deploy the staging build", 0),
        ev(Role.USER, "What's the weather?", 1, session="s2"),  # another conversation
        ev(Role.ASSISTANT, "Deploying.", 2, metadata=calls(("deploy", {"env": "staging"}))),
        ev(Role.ASSISTANT, "Sunny.", 3, session="s2"),
        ev(Role.USER, "Run the tests", 4),
        ev(Role.TOOL, "42 passed", 5, name="pytest", metadata={"arguments": {"k": "fast"}}),
        ev(Role.USER, "thanks", 6),  # nothing answered it
    ]
    found, bad = turn_observations(events)
    assert bad == 0
    assert [(o.request, o.action.kind) for o in found] == [
        ("Deploy the staging build", ActionKind.TOOL),
        ("What's the weather?", ActionKind.ANSWER),
        ("Run the tests", ActionKind.TOOL),
    ]
    assert found[0].event_ids == ["evt_0000_user", "evt_0002_assistant"]
    assert found[1].action.text == "Sunny."
    assert [t.name for t in found[2].action.tools] == ["pytest"]
    # an excluded event (a tool-discovery write) starts no turn
    excluded, _ = turn_observations(events, exclude=frozenset({"evt_0000_user"}))
    assert [o.request for o in excluded] == ["What's the weather?", "Run the tests"]


def hint(text: str) -> MemoryItem:
    return MemoryItem(
        id=new_id("mem"),
        scope=ADA,
        text=text,
        kind=ItemKind.PROCEDURE_HINT,
        source_event_ids=["evt_hint"],
        occurred_at=T0,
        recorded_at=T0,
    )


def test_tool_discovery_sentences_that_state_a_request_and_an_instruction() -> None:
    for text, request, instruction in (
        ("To deploy the staging build, run deploy --env staging.", "deploy the staging build",
         "run deploy --env staging"),
        ("When asked to rotate the keys: use the vault tool", "rotate the keys",
         "use the vault tool"),
        ("restart the cache -> call flush_cache", "restart the cache", "call flush_cache"),
    ):  # fmt: skip
        o = hint_observation(hint(text))
        assert o is not None, text
        assert (o.request, o.action.text, o.action.kind) == (
            request,
            instruction,
            ActionKind.INSTRUCTION,
        )
        assert o.event_ids == ["evt_hint"]
    assert hint_observation(hint("The deploy tool can also roll back a release.")) is None


def _repeat(request: str, tool: str, args: dict[str, Any], times: int, start: int) -> list[Event]:
    out = []
    for i in range(times):
        minute = start + 10 * i
        out.append(ev(Role.USER, request, minute, session=f"s{minute}"))
        out.append(
            ev(Role.ASSISTANT, "ok", minute + 1, session=f"s{minute}", metadata=calls((tool, args)))
        )
    return out


def test_different_requests_or_actions_are_different_procedures() -> None:
    events = [
        *_repeat("Deploy the staging build", "deploy", {"env": "staging"}, 2, 0),
        *_repeat("Deploy the production build", "deploy", {"env": "production"}, 2, 100),
        *_repeat("Run the tests", "pytest", {}, 1, 200),  # once: no procedure
    ]
    found, _ = turn_observations(events)
    detection = detect(ADA, found, [], T0, CONFIG)
    triggers = sorted((p.trigger, p.observed_count) for p in detection.created)
    assert triggers == [("Deploy the production build", 2), ("Deploy the staging build", 2)]


def test_a_long_request_is_kept_cut() -> None:
    long = "Deploy the staging build " + " ".join(f"note{i}" for i in range(200))
    events = _repeat(long, "deploy", {"env": "staging"}, 2, 0)
    (p,) = detect(ADA, turn_observations(events)[0], [], T0, CONFIG).created
    assert len(p.trigger) == 300
    assert p.trigger.startswith("Deploy the staging build note0")
    assert p.trigger.endswith("…")


def test_answers_need_more_repetitions_than_tool_calls() -> None:
    events = []
    for i in range(3):
        events += [
            ev(Role.USER, "What is the office wifi password?", 10 * i, session=f"s{i}"),
            ev(Role.ASSISTANT, "The office wifi password is on the fridge.", 10 * i + 1,
               session=f"s{i}"),
        ]  # fmt: skip
    found, _ = turn_observations(events)
    assert detect(ADA, found[:2], [], T0, CONFIG).created == []
    (p,) = detect(ADA, found, [], T0, CONFIG).created
    assert p.action.kind is ActionKind.ANSWER
    assert p.observed_count == 3


def test_confidence_grows_with_repetition_and_falls_with_other_answers() -> None:
    assert procedure_confidence(2, 2) < procedure_confidence(3, 3) < procedure_confidence(9, 9)
    assert procedure_confidence(3, 6) < procedure_confidence(3, 3)
    assert procedure_confidence(0, 0) == 0.0


def test_a_query_matches_a_trigger_by_most_of_its_words() -> None:
    events = _repeat("Deploy the staging build", "deploy", {"env": "staging"}, 3, 0)
    (p,) = detect(ADA, turn_observations(events)[0], [], T0, CONFIG).created
    assert p.trigger_terms == trigger_terms("deploy staging build")
    for query in ("deploy the staging build", "Deploying staging builds now please"):
        (m,) = match(query, [p])
        assert m.procedure is p
    for query in ("what did I deploy?", "tell me about the staging server and its build farm"):
        assert match(query, [p]) == [], query
    unsure = p.model_copy(update={"confidence": 0.4})
    assert match("deploy the staging build", [unsure]) == []
