"""The ``ProcedureStore`` role on every backend: a user's conversation in order, and
learnt procedures stored, listed most confident first within the scope's walls, and
updated only from the revision they were read at."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem.errors import StaleKnowledge
from cognimem.models import Event, Role, Scope
from cognimem.models.ids import content_hash, new_id
from cognimem.models.procedures import (
    ActionKind,
    Procedure,
    ProcedureAction,
    ToolCall,
    procedure_confidence,
)
from cognimem.store import PendingMessage, Store
from cognimem.store.arguments import ProcedureQuery

T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
ADA = Scope(tenant_id="t1", user_id="ada")


def procedure(
    scope: Scope, trigger: str, count: int, *, at: datetime = T0, events: list[str] | None = None
) -> Procedure:
    """A procedure learnt from ``count`` requests and an answer: ``events`` (stored
    already), else ids no event has (a procedure that cannot be stored new)."""
    events = events or [new_id("evt") for _ in range(count + 1)]
    requests, answer = events[:-1], events[-1]
    return Procedure(
        id=new_id("prc"),
        scope=scope,
        trigger=trigger,
        trigger_terms=trigger.split(),
        action=ProcedureAction(
            kind=ActionKind.TOOL, tools=[ToolCall(name="deploy", arguments={"env": "staging"})]
        ),
        observed_count=count,
        trigger_count=count,
        confidence=procedure_confidence(count, count),
        request_event_ids=requests,
        source_event_ids=[*requests, answer],
        first_seen_at=at,
        last_seen_at=at + timedelta(days=1),
        created_at=at,
        updated_at=at,
    )


async def learnt(store: Store, scope: Scope, trigger: str, count: int) -> Procedure:
    """A procedure learnt from ``count`` requests and an answer stored in ``store``."""
    said = [event(scope, Role.USER, f"{trigger} please ({n})", T0) for n in range(count)]
    said.append(event(scope, Role.ASSISTANT, f"done: {trigger}", T0))
    await store.commit(said, 0.0)
    return procedure(scope, trigger, count, events=[m.event.id for m in said])


def event(scope: Scope, role: Role, text: str, at: datetime) -> PendingMessage:
    return PendingMessage(
        event=Event(
            id=new_id("evt"),
            scope=scope,
            role=role,
            name=None,
            content=text,
            content_hash=content_hash(text),
            idempotency_key=None,
            external_id=None,
            occurred_at=at,
            recorded_at=at,
            metadata={"tool_calls": [{"name": "deploy"}]} if role is Role.ASSISTANT else {},
        )
    )


async def test_procedures_are_stored_listed_and_kept_within_their_scope(store: Store) -> None:
    weak = await learnt(store, ADA, "deplo stagi build", 2)
    strong = await learnt(store, ADA, "run tests", 5)
    bob = await learnt(store, Scope(tenant_id="t1", user_id="bob"), "deplo stagi build", 3)
    other_tenant = await learnt(store, Scope(tenant_id="t2", user_id="ada"), "deplo stagi build", 3)
    await store.save_procedures([weak, strong, bob, other_tenant], [])

    listed = await store.list_procedures(ProcedureQuery("t1", "default", "ada", 10))
    assert [p.id for p in listed] == [strong.id, weak.id]  # most confident first
    assert listed[1] == weak  # every field round-trips
    assert [
        p.id for p in await store.list_procedures(ProcedureQuery("t1", "default", "ada", 1))
    ] == [strong.id]
    assert await store.list_procedures(ProcedureQuery("t1", "other", "ada", 10)) == []
    everyone = await store.list_procedures(ProcedureQuery("t1", "default", None, 10))
    assert {p.id for p in everyone} == {weak.id, strong.id, bob.id}
    got = await store.get_procedures("t1", [bob.id, "prc_missing", weak.id, other_tenant.id])
    assert [p.id for p in got] == [bob.id, weak.id]


async def test_a_shared_levels_procedures_are_listed_by_that_level_alone(store: Store) -> None:
    users = [await learnt(store, ADA, f"chore {n}", 5) for n in range(3)]
    org = await learnt(store, Scope(tenant_id="t1"), "deplo stagi build", 2)
    ops = await learnt(store, Scope(tenant_id="t1", agent_id="ops"), "deplo stagi build", 2)
    ops_ada = await learnt(store, Scope(tenant_id="t1", user_id="ada", agent_id="ops"), "x", 5)
    await store.save_procedures([*users, org, ops, ops_ada], [])

    def ids(listed: list[Procedure]) -> list[str]:
        return [p.id for p in listed]

    # the limit counts the level's rows alone (the users' are more confident)
    assert ids(
        await store.list_procedures(ProcedureQuery("t1", "default", None, 1, levels=[None]))
    ) == [org.id]
    assert ids(
        await store.list_procedures(ProcedureQuery("t1", "default", None, 1, levels=["ops"]))
    ) == [ops.id]
    both = await store.list_procedures(
        ProcedureQuery("t1", "default", None, 5, levels=["ops", None])
    )
    assert sorted(ids(both)) == sorted([org.id, ops.id])
    assert (
        await store.list_procedures(ProcedureQuery("t1", "default", None, 5, levels=["sales"]))
        == []
    )
    assert (
        await store.list_procedures(ProcedureQuery("t2", "default", None, 5, levels=[None])) == []
    )


async def test_an_update_needs_the_revision_it_was_read_at(store: Store) -> None:
    p = await learnt(store, ADA, "deplo stagi build", 2)
    await store.save_procedures([p], [])
    grown = p.model_copy(
        update={"observed_count": 3, "trigger_count": 3, "confidence": 0.75,
                "request_event_ids": [*p.request_event_ids, "evt_3"]}
    )  # fmt: skip
    await store.save_procedures([], [(grown, 0)])
    (stored,) = await store.get_procedures("t1", [p.id])
    assert (stored.observed_count, stored.revision) == (3, 1)
    assert stored.request_event_ids[-1] == "evt_3"

    # read at revision 0, changed since: nothing of the call is written
    newcomer = await learnt(store, ADA, "run tests", 2)
    with pytest.raises(StaleKnowledge):
        await store.save_procedures(
            [newcomer], [(grown.model_copy(update={"observed_count": 9}), 0)]
        )
    assert [
        x.id for x in await store.list_procedures(ProcedureQuery("t1", "default", "ada", 10))
    ] == [p.id]
    (still,) = await store.get_procedures("t1", [p.id])
    assert still.observed_count == 3
    with pytest.raises(StaleKnowledge):  # gone
        await store.save_procedures([], [(procedure(ADA, "x", 2), 0)])


async def test_conversation_events_are_the_users_newest_oldest_first(store: Store) -> None:
    session = Scope(tenant_id="t1", user_id="ada", session_id="s1")
    msgs = [
        event(session, Role.USER, "deploy the staging build", T0),
        event(session, Role.ASSISTANT, "deploying", T0),  # same time: stored order holds
        event(ADA, Role.USER, "run the tests", T0 + timedelta(hours=1)),
        event(Scope(tenant_id="t1", user_id="bob"), Role.USER, "not ada's", T0),
    ]
    await store.commit(msgs, 0.0)
    found = await store.conversation_events(Scope(tenant_id="t1", user_id="ada"), 10)
    assert [e.content for e in found] == ["deploy the staging build", "deploying", "run the tests"]
    assert found[1].metadata == {"tool_calls": [{"name": "deploy"}]}
    assert found[0].scope.session_id == "s1"
    newest = await store.conversation_events(Scope(tenant_id="t1", user_id="ada"), 2)
    assert [e.content for e in newest] == ["deploying", "run the tests"]


async def test_erasing_a_user_removes_their_procedures(store: Store) -> None:
    mine = await learnt(store, ADA, "deplo stagi build", 2)
    bobs = await learnt(store, Scope(tenant_id="t1", user_id="bob"), "deplo stagi build", 2)
    await store.save_procedures([mine, bobs], [])
    report = await store.erase_user("t1", "ada")
    assert report.removed["procedures"] == 1
    assert await store.list_procedures(ProcedureQuery("t1", "default", None, 10)) == [
        (await store.get_procedures("t1", [bobs.id]))[0]
    ]


async def test_a_new_procedure_needs_the_events_it_was_learnt_from(store: Store) -> None:
    # erased with their user or level while a run decided: nothing of the call is written
    with pytest.raises(StaleKnowledge):
        await store.save_procedures([procedure(ADA, "deplo stagi build", 2)], [])
    kept = await learnt(store, ADA, "run tests", 2)
    gone = kept.model_copy(update={"id": new_id("prc"), "source_event_ids": ["evt_gone"]})
    with pytest.raises(StaleKnowledge):
        await store.save_procedures([kept, gone], [])
    assert await store.list_procedures(ProcedureQuery("t1", "default", "ada", 10)) == []
    await store.save_procedures([kept], [])
    assert [
        p.id for p in await store.list_procedures(ProcedureQuery("t1", "default", "ada", 10))
    ] == [kept.id]
