"""cognimem as LangGraph's long-term memory: ``CognimemStore``, a ``BaseStore``, and
``MemoryHooks``, a pre-model hook that puts the packet into the prompt and a post-model
hook that writes the turn (``pip install 'cognimem[langgraph]'``).

A LangGraph namespace is a cognimem scope, label by label: ``(namespace, user_id,
session_id)``, so ``store.search(("memories", user_id), query=...)`` is a cognimem read
of that user's memories, ranked as every read is. A shorter namespace spans what is
under it (``("memories",)`` every user's); a longer one is an ``InvalidNamespaceError``,
as is a label that is not a cognimem id. The tenant is the ``Memory``'s (``tenant_id``)
or, over HTTP, the API key's.

``put(ns, key, value)`` writes one message whose text is the value's indexed fields,
carrying ``key`` as its external id and the value in its metadata; a put to a key
replaces what the key held (the old memory is deleted, then the new one written: two
calls, not one transaction). Items the store did not write (a turn written by the
hooks, a memory written through the API) are listed and found too: their key is their
cognimem item id and their value ``{"text", "kind"}``."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from langchain_core.messages import AnyMessage, BaseMessage, SystemMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    get_text_at_path,
    validate_op_namespace,
)

from cognimem.errors import NotFound, UsageError
from cognimem.integrations.bridge import AnyFacade, AsyncFacade, Bridge
from cognimem.models import ItemStatus, MemoryItem, Message, Role
from cognimem.models.scope import ID_PATTERN, Scope

# which scope field each label of a namespace fills, in order
SCOPE_LABELS = ("namespace", "user_id", "session_id")
# the metadata key under which a stored value (and when its key was first put) is kept
META = "langgraph"
# the most items a listing without a query looks through, and a read returns
MAX_LISTED = 1_000
MAX_READ = 200
_ID = re.compile(ID_PATTERN)
_DEFAULT_TENANT = "default"
ItemT = TypeVar("ItemT", bound=Item)


def scope_of(namespace: tuple[str, ...], tenant_id: str = _DEFAULT_TENANT) -> dict[str, str]:
    """The cognimem scope fields a LangGraph namespace names (``InvalidNamespaceError``
    for one that is empty, too deep, or has a label that is not a cognimem id)."""
    if not namespace:
        raise InvalidNamespaceError("a cognimem namespace names at least its first label")
    if len(namespace) > len(SCOPE_LABELS):
        raise InvalidNamespaceError(
            f"{namespace}: a cognimem namespace has at most {len(SCOPE_LABELS)} labels"
            f" ({', '.join(SCOPE_LABELS)})"
        )
    for label in namespace:
        if not isinstance(label, str) or not _ID.match(label):
            raise InvalidNamespaceError(
                f"{namespace}: label {label!r} is not a cognimem id (letters, digits and"
                " _.:@- , starting with a letter or digit, at most 128)"
            )
    fields = dict(zip(SCOPE_LABELS, namespace, strict=False))
    if tenant_id != _DEFAULT_TENANT:
        fields["tenant_id"] = tenant_id
    return fields


def namespace_of(scope: Scope) -> tuple[str, ...]:
    """The LangGraph namespace of a cognimem scope: its labels up to the first unset."""
    labels: list[str] = []
    for name in SCOPE_LABELS:
        value = getattr(scope, name)
        if value is None:
            break
        labels.append(value)
    return tuple(labels)


def text_of(value: Mapping[str, Any], fields: Sequence[str]) -> str:
    """What is written (and so embedded and indexed) for a value: the text at each of
    ``fields`` (LangGraph's paths; ``$`` is the whole value as JSON)."""
    texts = [t for path in fields for t in get_text_at_path(value, path) if t.strip()]
    if not texts:
        raise ValueError(f"the value has no text at {list(fields)} to remember")
    return "\n".join(texts)


def _under(namespace: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    return namespace[: len(prefix)] == prefix


def _matches(value: Mapping[str, Any], conditions: Mapping[str, Any] | None) -> bool:
    """LangGraph's filter: each field equals its value, or meets its operators
    (``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``)."""
    for field, wanted in (conditions or {}).items():
        have = value.get(field)
        if isinstance(wanted, Mapping):
            for op, operand in wanted.items():
                if not _compare(op, have, operand):
                    return False
        elif have != wanted:
            return False
    return True


def _compare(op: str, have: Any, operand: Any) -> bool:
    if op == "$eq":
        return bool(have == operand)
    if op == "$ne":
        return bool(have != operand)
    if have is None:
        return False
    try:
        if op == "$gt":
            return bool(have > operand)
        if op == "$gte":
            return bool(have >= operand)
        if op == "$lt":
            return bool(have < operand)
        if op == "$lte":
            return bool(have <= operand)
    except TypeError:
        return False
    raise ValueError(f"unknown filter operator {op!r} (one of $eq $ne $gt $gte $lt $lte)")


def _listed_path(path: Sequence[str], namespace: tuple[str, ...], from_end: bool) -> bool:
    if len(path) > len(namespace):
        return False
    part = namespace[len(namespace) - len(path) :] if from_end else namespace[: len(path)]
    return all(p in ("*", label) for p, label in zip(path, part, strict=True))


def _meets(namespace: tuple[str, ...], conditions: Sequence[MatchCondition] | None) -> bool:
    return all(_listed_path(c.path, namespace, c.match_type == "suffix") for c in conditions or ())


class CognimemStore(BaseStore):
    """A LangGraph ``BaseStore`` over cognimem (see the module's docstring).

    ``fields`` are the paths of a value whose text is written (LangGraph's ``index``
    fields; a put's own ``index`` list overrides them). ``profile`` is the ingest profile
    of each write (``chat`` extracts facts and constraints from it)."""

    def __init__(
        self,
        memory: AnyFacade,
        *,
        tenant_id: str = _DEFAULT_TENANT,
        fields: Sequence[str] = ("$",),
        profile: str = "chat",
    ) -> None:
        self._bridge = Bridge(memory)
        self._tenant_id = tenant_id
        self._fields = tuple(fields)
        self._profile = profile

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        todo = list(ops)
        return self._bridge.run(
            lambda mem: self._batch(mem, todo),
            instead="the async methods (aget, aput, asearch, abatch)",
        )

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        todo = list(ops)
        return await self._bridge.arun(lambda mem: self._batch(mem, todo))

    async def _batch(self, mem: AsyncFacade, ops: Sequence[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, GetOp):
                results.append(await self._get(mem, op.namespace, op.key))
            elif isinstance(op, PutOp):
                await self._put(mem, op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(await self._search(mem, op))
            elif isinstance(op, ListNamespacesOp):
                results.append(await self._namespaces(mem, op))
            else:
                raise TypeError(f"unknown store operation {type(op).__name__}")
        return results

    # -- one key -------------------------------------------------------------------------
    def _listing(self, namespace: tuple[str, ...]) -> dict[str, Any]:
        """A listing's scope for everything under ``namespace``: the user's, or every
        user's of the cognimem namespace when it names none."""
        fields = scope_of(namespace, self._tenant_id)
        return {"scope": fields, "all_users": "user_id" not in fields}

    async def _keyed(
        self, mem: AsyncFacade, namespace: tuple[str, ...], key: str
    ) -> list[MemoryItem]:
        """The live memories the store wrote under exactly ``(namespace, key)``."""
        found = await mem.list_items(
            **self._listing(namespace),
            external_id=key,
            statuses=[ItemStatus.ACTIVE],
            limit=MAX_LISTED,
        )
        return [i for i in found if namespace_of(i.scope) == namespace and META in i.metadata]

    async def _get(self, mem: AsyncFacade, namespace: tuple[str, ...], key: str) -> Item | None:
        keyed = await self._keyed(mem, namespace, key)
        if keyed:
            return self._item(keyed[0], Item)
        try:
            item = await mem.get(
                key, tenant_id=self._tenant_id, scope=scope_of(namespace, self._tenant_id)
            )
        except NotFound:
            return None
        if (
            namespace_of(item.scope) != namespace
            or item.status is not ItemStatus.ACTIVE
            or META in item.metadata
        ):
            return None
        return self._item(item, Item)

    async def _put(self, mem: AsyncFacade, op: PutOp) -> None:
        if op.ttl is not None:
            raise NotImplementedError("CognimemStore keeps no TTL: forgetting is cognimem's")
        old = await self._keyed(mem, op.namespace, op.key)
        if not old and op.value is None:
            await self._delete_foreign(mem, op.namespace, op.key)
        created: str | None = None
        for item in old:
            kept = item.metadata[META].get("created_at") or item.recorded_at.isoformat()
            created = created or kept
        await self._forget(mem, op.namespace, [item.id for item in old])
        if op.value is None:
            return
        fields = op.index if isinstance(op.index, list) else self._fields
        value = dict(op.value)
        scope = scope_of(op.namespace, self._tenant_id)
        if "session_id" in scope:
            # a session the store names is created, so list_namespaces finds it
            owner = {k: v for k, v in scope.items() if k != "session_id"}
            await mem.create_session(scope["session_id"], scope=owner)
        await mem.write(
            text_of(value, fields),
            scope=scope,
            external_id=op.key,
            # each put is new content for its key: never a duplicate of an earlier one
            idempotency_key=f"langgraph:{uuid.uuid4().hex}",
            metadata={META: {"value": value, "created_at": created}},
            profile=self._profile,
        )

    async def _delete_foreign(self, mem: AsyncFacade, namespace: tuple[str, ...], key: str) -> None:
        """Delete a memory the store did not write, by its item id."""
        if await self._get(mem, namespace, key) is not None:
            await self._forget(mem, namespace, [key])

    async def _forget(self, mem: AsyncFacade, namespace: tuple[str, ...], ids: list[str]) -> None:
        """Delete these memories (of ``namespace``: over HTTP a call names its namespace)."""
        if ids:
            await mem.forget(ids=ids, **self._listing(namespace), mode="delete")

    # -- many ----------------------------------------------------------------------------
    async def _search(self, mem: AsyncFacade, op: SearchOp) -> list[SearchItem]:
        prefix = op.namespace_prefix
        wanted = op.offset + op.limit
        found: list[SearchItem] = []
        if op.query:
            # a filter is applied to what the read ranks: read more than asked for
            limit = min(MAX_READ, wanted * 4 if op.filter else wanted)
            within = scope_of(prefix, self._tenant_id)
            # a namespace spans what is under it: a session's, that session alone
            packet = await mem.read(
                op.query,
                **self._listing(prefix),
                limit=limit,
                session_only="session_id" in within,
            )
            for ranked in packet.items:
                item = await mem.get(ranked.id, tenant_id=self._tenant_id, scope=within)
                found.append(self._item(item, SearchItem, score=ranked.score))
        else:
            listed = await mem.list_items(
                **self._listing(prefix), statuses=[ItemStatus.ACTIVE], limit=MAX_LISTED
            )
            found = [self._item(item, SearchItem) for item in listed]
        seen: set[tuple[tuple[str, ...], str]] = set()
        kept = []
        for hit in found:
            where = (hit.namespace, hit.key)
            if where in seen or not _under(hit.namespace, prefix):
                continue  # a long value's other chunks; a memory of no user
            seen.add(where)
            if _matches(hit.value, op.filter):
                kept.append(hit)
        return kept[op.offset : wanted]

    async def _namespaces(self, mem: AsyncFacade, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        overview = await mem.users(tenant_id=self._tenant_id, limit=MAX_LISTED)
        names: set[tuple[str, ...]] = {
            (u.namespace, u.user_id) for u in overview.users if u.user_id is not None
        }
        for space in sorted({ns for ns, _ in names}):
            sessions = await mem.list_sessions(
                scope=scope_of((space,), self._tenant_id), all_users=True, limit=MAX_LISTED
            )
            names |= {namespace_of(s.scope) for s in sessions if s.scope.user_id is not None}
        listed = {
            ns[: op.max_depth] if op.max_depth is not None else ns
            for ns in names
            if _meets(ns, op.match_conditions)
        }
        return sorted(listed)[op.offset : op.offset + op.limit]

    # -- rows ----------------------------------------------------------------------------
    def _item(self, item: MemoryItem, kind: type[ItemT], **extra: Any) -> ItemT:
        kept = item.metadata.get(META)
        if isinstance(kept, dict):
            key = item.external_ids[0]
            value = kept["value"]
            created = kept.get("created_at") or item.recorded_at.isoformat()
        else:
            key, value = item.id, {"text": item.text, "kind": item.kind.value}
            created = item.recorded_at.isoformat()
        return kind(
            namespace=namespace_of(item.scope),
            key=key,
            value=value,
            created_at=datetime.fromisoformat(created),
            updated_at=item.recorded_at,
            **extra,
        )


class MemoryHooks:
    """A pre-model hook that reads cognimem for the last user message and puts the packet
    (constraints first) before the conversation, and a post-model hook that writes the
    turn (the last user message and the model's answer).

    Both are runnables taking the graph state (``{"messages": [...]}``) and the run's
    config, whose ``configurable`` names the ``user_id`` (required) and optionally the
    ``thread_id``, written as the cognimem session. ``pre_model_hook`` returns
    ``{"llm_input_messages": [...]}``: what the model is called with, the state's
    messages left as they are (the contract of LangGraph's prebuilt agents)."""

    def __init__(
        self,
        memory: AnyFacade,
        *,
        namespace: str = "default",
        max_tokens: int | None = None,
        tenant_id: str = _DEFAULT_TENANT,
    ) -> None:
        self._bridge = Bridge(memory)
        self._namespace = namespace
        self._max_tokens = max_tokens
        self._tenant_id = tenant_id
        self.pre_model_hook = RunnableLambda(self._recall_sync, afunc=self._recall)
        self.post_model_hook = RunnableLambda(self._remember_sync, afunc=self._remember)

    def _scope(self, config: RunnableConfig) -> dict[str, str]:
        configurable = config.get("configurable") or {}
        user_id = configurable.get("user_id")
        if not user_id:
            raise UsageError("the run's config names no user: configurable={'user_id': ...}")
        labels = [self._namespace, str(user_id)]
        if configurable.get("thread_id"):
            labels.append(str(configurable["thread_id"]))
        return scope_of(tuple(labels), self._tenant_id)

    async def _prompt(
        self, mem: AsyncFacade, messages: Sequence[AnyMessage], scope: dict[str, str]
    ) -> dict[str, list[BaseMessage]]:
        asked = _last(messages, "human")
        if asked is None:
            return {"llm_input_messages": list(messages)}
        reading = {k: v for k, v in scope.items() if k != "session_id"}  # every session
        packet = await mem.read(asked, scope=reading, max_tokens=self._max_tokens)
        return {"llm_input_messages": [SystemMessage(packet.to_markdown()), *messages]}

    async def _write(
        self, mem: AsyncFacade, messages: Sequence[AnyMessage], scope: dict[str, str]
    ) -> dict[str, Any]:
        said = [
            Message(role=role, content=text)
            for role, kind in ((Role.USER, "human"), (Role.ASSISTANT, "ai"))
            if (text := _last(messages, kind))
        ]
        if said:
            await mem.write_batch(said, scope=scope)
        return {}

    def _recall_sync(
        self, state: Mapping[str, Any], config: RunnableConfig
    ) -> dict[str, list[BaseMessage]]:
        scope = self._scope(config)
        messages = state["messages"]
        return self._bridge.run(lambda mem: self._prompt(mem, messages, scope), instead="ainvoke")

    async def _recall(
        self, state: Mapping[str, Any], config: RunnableConfig
    ) -> dict[str, list[BaseMessage]]:
        scope = self._scope(config)
        messages = state["messages"]
        return await self._bridge.arun(lambda mem: self._prompt(mem, messages, scope))

    def _remember_sync(self, state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        scope = self._scope(config)
        messages = state["messages"]
        return self._bridge.run(lambda mem: self._write(mem, messages, scope), instead="ainvoke")

    async def _remember(self, state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        scope = self._scope(config)
        messages = state["messages"]
        return await self._bridge.arun(lambda mem: self._write(mem, messages, scope))


def _last(messages: Sequence[AnyMessage], kind: str) -> str | None:
    """The text of the last message of this type (``human``, ``ai``), if any."""
    for message in reversed(messages):
        if message.type == kind:
            return message.text or None
    return None


__all__ = ["CognimemStore", "MemoryHooks", "namespace_of", "scope_of", "text_of"]
