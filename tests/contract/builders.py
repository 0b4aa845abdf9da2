"""Records the store contract tests write: facts, entities, aliases, relations,
read sets, history, sessions, and a user's whole footprint (``seed``)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from cognimem.models import MemoryItem, MessageResult, Scope
from cognimem.models.admin import Session
from cognimem.models.ids import content_hash, new_id
from cognimem.models.knowledge import (
    Alias,
    AliasSource,
    ConflictStrategy,
    Entity,
    EntityType,
    Fact,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
    Relation,
)
from cognimem.models.procedures import (
    ActionKind,
    Procedure,
    ProcedureAction,
    ToolCall,
    procedure_confidence,
)
from cognimem.store import ItemFilter, PendingMessage, Store
from cognimem.store.arguments import ItemEdit
from cognimem.store.types import (
    FactQuery,
    KeyState,
    Knowledge,
    PendingFact,
)
from tests.contract.conftest import EMBEDDER, T0, message, vec

ALICE = Scope(tenant_id="t1", user_id="alice", session_id="s1")


BOB = Scope(tenant_id="t1", user_id="bob")


SHARED = Scope(tenant_id="t1")  # the namespace's, no user


OTHER_TENANT = Scope(tenant_id="t2", user_id="alice")


OTHER_NAMESPACE = Scope(tenant_id="t1", user_id="alice", namespace="work")


WINDOW = 300.0


CUISINE = "user:preference:cuisine"


def fact(
    key: str,
    value: str,
    scope: Scope = ALICE,
    *,
    category: FactCategory = FactCategory.PREFERENCE,
    status: FactStatus = FactStatus.ACTIVE,
    at: datetime = T0,
    **extra: Any,
) -> Fact:
    return Fact(
        id=new_id("fact"),
        scope=scope,
        key=key,
        subject="user",
        predicate=key.rsplit(":", 1)[-1],
        category=category,
        value=value,
        text=f"the user's {key} is {value}",
        last_validated_at=at,
        status=status,
        recorded_at=at,
        **extra,
    )


def new(*facts: Fact) -> list[PendingFact]:
    return [PendingFact(fact=f, embedding=vec(f.text), embed_text=f.text) for f in facts]


def entity(name: str, scope: Scope = ALICE) -> Entity:
    return Entity(
        id=new_id("ent"),
        tenant_id=scope.tenant_id,
        namespace=scope.namespace,
        user_id=scope.user_id,
        name=name,
        type=EntityType.PERSON,
        created_at=T0,
    )


def alias(e: Entity, text: str, user_id: str | None, confidence: float = 0.8) -> Alias:
    return Alias(
        entity_id=e.id,
        alias=text,
        user_id=user_id,
        source=AliasSource.EXACT,
        confidence=confidence,
    )


def relation(a: Entity, b: Entity, scope: Scope = ALICE, fact_id: str | None = None) -> Relation:
    return Relation(
        id=new_id("rel"),
        scope=scope,
        source_entity_id=a.id,
        relation="sister_of",
        target_entity_id=b.id,
        fact_id=fact_id,
        created_at=T0,
    )


def saw(key: str, scope: Scope = ALICE, *facts: Fact) -> KeyState:
    """The read set of a reconciliation that found ``facts`` live under ``key``."""
    return KeyState(
        tenant_id=scope.tenant_id,
        namespace=scope.namespace,
        user_id=scope.user_id,
        key=key,
        facts=frozenset((f.id, f.revision) for f in facts),
    )


def query(scope: Scope = ALICE, **kw: Any) -> FactQuery:
    return FactQuery(
        tenant_id=scope.tenant_id, namespace=scope.namespace, user_id=scope.user_id, **kw
    )


async def put(store: Store, **kw: Any) -> None:
    """Write knowledge alone (no message)."""
    await store.commit([], WINDOW, Knowledge(**kw))


async def warm_up(store: Store) -> None:
    """Open a few pooled connections first, so concurrent writers really overlap rather
    than the second one waiting for a connection to be set up."""
    await asyncio.gather(*(store.unprocessed("t1", ["evt_none"]) for _ in range(4)))


def bare(text: str, scope: Scope = ALICE) -> tuple[PendingMessage, list[Any]]:
    """An async-mode message (raw event only) and the items a worker derives later."""
    pending = message(text, scope)
    items, pending.items, pending.processed = pending.items, [], False
    return pending, items


def history(target: str, action: str = "created", tenant_id: str = "t1") -> HistoryEntry:
    return HistoryEntry(
        id=new_id("hst"),
        tenant_id=tenant_id,
        target_type="item",
        target_id=target,
        action=action,
        at=T0,
        after={"note": action},
    )


def text_edit(item: MemoryItem, edited: MemoryItem) -> ItemEdit:
    """The edit that gives ``item`` the text of ``edited``, embedded and indexed anew."""
    return ItemEdit(
        edited,
        expected=item,
        history=history(item.id, "updated"),
        embedding=vec(edited.text),
        search_text=edited.text,
    )


def session(session_id: str, scope: Scope = ALICE, minutes: int = 0, **kw: Any) -> Session:
    return Session(
        id=session_id,
        scope=scope.model_copy(update={"session_id": session_id}),
        created_at=T0 + timedelta(minutes=minutes),
        **kw,
    )


async def ids_for(store: Store, scope: Scope, word: str) -> tuple[list[str], list[str]]:
    flt = ItemFilter(scope=scope)
    lexical = [c.item_id for c in await store.lexical_search(flt, [word], 10)]
    vector = [c.item_id for c in await store.vector_search(flt, vec(word), 10) if c.score > 0.2]
    return lexical, vector


async def seed(store: Store, scope: Scope, word: str) -> dict[str, Any]:
    """A user's whole footprint: events and items (one merged into by a second event),
    facts (a constraint with its evidence), entities with own and shared aliases, a
    relation, a conflict, history, a session, a procedure learnt from their events and
    a cached embedding of their text."""
    said = f"I keep a {word} in the garden"
    first = message(said, scope, name="Al")
    second = message(f"the {word} is old now", scope, at=T0 + timedelta(minutes=1))
    [a, b] = await store.commit([first, second], WINDOW)
    e1, e2 = entity(f"{word}-friend", scope), entity(f"{word}-pal", scope)
    old = fact("user:state:garden", f"{word} present", scope, category=FactCategory.STATE)
    rival = fact("user:state:garden", f"{word} gone", scope, category=FactCategory.STATE)
    old = old.model_copy(update={"evidence_item_ids": a.item_ids})
    cfl = FactConflict(
        id=new_id("cfl"),
        scope=scope,
        key=old.key,
        fact_ids=[old.id, rival.id],
        strategy=ConflictStrategy.ASK_USER,
        created_at=T0,
        note=f"{word} or not",
    )
    await put(
        store,
        entities=[e1, e2],
        aliases=[alias(e1, f"{word}-friend", scope.user_id), alias(e2, f"{word}-pal", None)],
        facts=new(old, rival),
        relations=[relation(e1, e2, scope, fact_id=old.id)],
        conflicts=[cfl],
        history=[
            history(a.item_ids[0], tenant_id=scope.tenant_id),
            history(old.id, tenant_id=scope.tenant_id),
        ],
    )
    await store.put_session(session(f"{word}-session", scope))
    await store.put_embeddings(EMBEDDER.model_id, {content_hash(said): vec(said)})
    call = ToolCall(name="water", arguments={"plant": word})
    learnt = Procedure(
        id=new_id("prc"),
        scope=scope.model_copy(update={"session_id": None}),
        trigger=f"water the {word}",
        trigger_terms=["water", word[:5]],
        action=ProcedureAction(kind=ActionKind.TOOL, tools=[call]),
        observed_count=1,
        trigger_count=1,
        confidence=procedure_confidence(1, 1),
        request_event_ids=[a.event_id],
        source_event_ids=[a.event_id, b.event_id],
        first_seen_at=T0,
        last_seen_at=T0,
        created_at=T0,
        updated_at=T0,
    )
    await store.save_procedures([learnt], [])
    return {
        "items": a.item_ids + b.item_ids,
        "events": [a.event_id, b.event_id],
        "facts": [old.id, rival.id],
        "conflict": cfl,
        "entities": [e1.id, e2.id],
        "procedure": learnt.id,
    }


async def counters_carried_into_item_usage(
    s: Store, used: MessageResult, unused: MessageResult
) -> None:
    """Open ``s``, a database migration 14 just upgraded, on which ``used`` had its
    counters set on the items row (access 3, loaded 2, cited 1, success 1, last read
    at T0) and ``unused`` none, and check that they were carried into ``item_usage``
    and go on counting there; close it."""
    await s.open()
    try:
        [a, b] = await s.get_items("t1", [*used.item_ids, *unused.item_ids])
        assert (a.access_count, a.loaded_count, a.cited_count, a.success_count) == (3, 2, 1, 1)
        assert a.last_accessed_at == T0
        assert (b.access_count, b.last_accessed_at) == (0, None)
        await s.record_access("t1", used.item_ids, T0)
        assert (await s.get_items("t1", used.item_ids))[0].access_count == 4
    finally:
        await s.close()
