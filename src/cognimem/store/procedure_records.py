"""The ``procedures`` table's rows as both backends read and write them (times are
each backend's: see ``records.TimeDecoder``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from cognimem.models import Scope
from cognimem.models.procedures import Procedure
from cognimem.store.arguments import ProcedureQuery
from cognimem.store.records import RowReader

PROCEDURE_COLUMNS = (
    "id, tenant_id, namespace, user_id, trigger_text, trigger_terms, action, observed_count,"
    " trigger_count, confidence, request_event_ids, source_event_ids, first_seen_at,"
    " last_seen_at, created_at, updated_at, revision, agent_id"
)
_WIDTH = 18
# what a procedure's update sets: the columns from trigger_text to last_seen_at,
# updated_at and the revision (an update checks the revision it read)
_UPDATED = (
    "trigger_text", "trigger_terms", "action", "observed_count", "trigger_count",
    "confidence", "request_event_ids", "source_event_ids", "first_seen_at",
    "last_seen_at", "updated_at", "revision",
)  # fmt: skip


def insert_sql(place: Callable[[int], str]) -> str:
    """The INSERT of one procedure, whose ``n``-th parameter (from 1) ``place`` spells;
    its values are ``procedure_values``'."""
    places = ", ".join(place(n) for n in range(1, _WIDTH + 1))
    return f"INSERT INTO procedures ({PROCEDURE_COLUMNS}) VALUES ({places})"


def update_sql(place: Callable[[int], str]) -> str:
    """The UPDATE of one procedure at the revision it was read at, whose ``n``-th
    parameter (from 1) ``place`` spells; its values are ``update_values``'."""
    sets = ", ".join(f"{column} = {place(n)}" for n, column in enumerate(_UPDATED, 1))
    n = len(_UPDATED)
    return (
        f"UPDATE procedures SET {sets}"
        f" WHERE tenant_id = {place(n + 1)} AND id = {place(n + 2)} AND revision = {place(n + 3)}"
    )


def update_values(p: Procedure, time: Any, expected: int) -> tuple[Any, ...]:
    """The values of ``update_sql`` for ``p`` read at revision ``expected``."""
    values = procedure_values(p, time, expected + 1)
    return (*values[4:14], values[15], expected + 1, p.scope.tenant_id, p.id, expected)


def conversation_owner(scope: Scope, *, by_agent: bool) -> Scope:
    """Whose events ``ProcedureStore.conversation_events`` reads: the scope's user in
    every session, and its agent alone with ``by_agent``."""
    return Scope(
        tenant_id=scope.tenant_id,
        namespace=scope.namespace,
        user_id=scope.user_id,
        agent_id=scope.agent_id if by_agent else None,
    )


procedure_from_row = RowReader(
    Procedure, PROCEDURE_COLUMNS, session=None, renamed={"trigger": "trigger_text"}
)


def owners_sql(
    asked: ProcedureQuery, bind: Callable[[object], str], agent_in: Callable[[list[str]], str]
) -> str:
    """The condition, after the tenant's and namespace's, that picks ``asked``'s owners
    (see ``ProcedureQuery``; ``""`` for every user of the namespace): ``bind`` binds one
    value and gives its placeholder, ``agent_in`` binds agent ids and gives the SQL for
    "``agent_id`` is one of them"."""
    if asked.levels:
        agents = [a for a in asked.levels if a is not None]
        either = [agent_in(agents)] if agents else []
        either += ["agent_id IS NULL"] if None in asked.levels else []
        return f" AND user_id IS NULL AND ({' OR '.join(either)})"
    if asked.user_id is not None:
        return f" AND user_id = {bind(asked.user_id)}"
    if asked.agent_id is not None:
        return f" AND user_id IS NULL AND agent_id = {bind(asked.agent_id)}"
    return ""


def procedure_values(p: Procedure, time: Any, revision: int) -> tuple[Any, ...]:
    """The values of ``PROCEDURE_COLUMNS``; ``time`` encodes a datetime as stored."""
    s = p.scope
    return (
        p.id, s.tenant_id, s.namespace, s.user_id, p.trigger, json.dumps(p.trigger_terms),
        p.action.model_dump_json(), p.observed_count, p.trigger_count, p.confidence,
        json.dumps(p.request_event_ids), json.dumps(p.source_event_ids), time(p.first_seen_at),
        time(p.last_seen_at), time(p.created_at), time(p.updated_at), revision, s.agent_id,
    )  # fmt: skip


def source_events(procedures: Sequence[Procedure]) -> dict[str, list[str]]:
    """Every event the procedures were learnt from (requests and sources), per tenant,
    sorted: what must still exist when they are stored."""
    found: dict[str, set[str]] = {}
    for p in procedures:
        found.setdefault(p.scope.tenant_id, set()).update(p.request_event_ids, p.source_event_ids)
    return {tenant: sorted(ids) for tenant, ids in found.items()}
