"""The lifecycle scheduler's view of what is new, per level, as one SQL text both
backends run (``store/{sqlite,postgres}/lifecycle.py``: ``lifecycle_due``), and the key
of a level's row in ``lifecycle_runs``.

``lifecycle_runs`` has one row per (level, operation): the lease of the run holding it
(token and deadline) and when the last completed run began (``done_from``).

A level is a user's memories (every agent's turns with the user), or with
``levels`` a shared level's: an agent's own (no user, that agent), the namespace's
(no user, no agent) or the organisation's (no user, no agent, in
``ORGANISATION_NAMESPACE``: one group of its own, as the namespace tells levels
apart). ``lifecycle_runs`` records each under its
``user_key``: ``u:<user id>``, or — characters no id has, as
``services/lifecycle/operations.py`` (``level_key``) and ``store/transfer.py``
(``level_holder``) name them — ``u:#agent/<id>`` and ``u:#organisation`` (the
namespace's and the organisation's, in their own namespaces), so a level is never
read as a user and no two levels share a row.

What is new since the last completed run began (``done_from``): for a user, active
episodes; for a shared level, which grows by deliberate writes (mandates, guardrails,
an agent's tool notes) more than by turns, its active items of every kind but
``summary`` (what a run writes itself, which must not make the level due again); for
both, sessions of the level closed since then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cognimem.store.records import user_key
from cognimem.store.types import ScopeLease


def lease_key(lease: ScopeLease) -> tuple[str, str, str, str]:
    """The ``lifecycle_runs`` key of the row a lease holds: tenant, namespace,
    ``user_key`` and operation."""
    return (lease.tenant_id, lease.namespace, user_key(lease.user_id), lease.op)


# the lifecycle_runs key of a shared level's row aliased ``x`` (see the docstring)
_LEVEL_KEY = (
    "CASE WHEN {x}.agent_id IS NULL THEN 'u:#organisation' ELSE 'u:#agent/' || {x}.agent_id END"
)


def _runs(x: str, key: str, op: str) -> str:
    return (
        f" LEFT JOIN lifecycle_runs r ON r.tenant_id = {x}.tenant_id"
        f" AND r.namespace = {x}.namespace AND r.user_key = {key} AND r.op = {op}"
    )


@dataclass(frozen=True)
class _Whose:
    """One kind of level, as SQL over a row aliased ``{x}``."""

    key: str  # its ``lifecycle_runs.user_key``
    owner: str  # its user and agent columns
    rows: str  # the rows that belong to such a level
    counted: str  # which of its items are new memories
    group: str  # the column that tells two such levels apart


_USERS = _Whose(
    key="'u:' || {x}.user_id",
    owner="{x}.user_id AS user_id, NULL AS agent_id",
    rows="{x}.user_id IS NOT NULL",
    counted="i.kind = 'episode'",
    group="{x}.user_id",
)
_SHARED = _Whose(
    key=_LEVEL_KEY,
    owner="NULL AS user_id, {x}.agent_id AS agent_id",
    rows="{x}.user_id IS NULL",
    counted="i.kind <> 'summary'",
    group="{x}.agent_id",
)


def _branch(op: str, whose: _Whose) -> tuple[str, str]:
    """What is new at each level of one kind: its items, and its closed sessions."""

    def new_rows(table: str, x: str, counts: str, where: str, since: str) -> str:
        """``counts`` over the rows of ``table`` aliased ``x`` that match ``where`` and
        came (by their column ``since``) after the level's last run began."""
        key = whose.key.format(x=x)
        return (
            f"SELECT {x}.tenant_id, {x}.namespace, {whose.owner.format(x=x)}, {key} AS who"
            f", {counts} FROM {table} {x}"
            + _runs(x, key, op)
            + f" WHERE {whose.rows.format(x=x)} AND {where}"
            f" AND (r.done_from IS NULL OR {x}.{since} > r.done_from)"
            f" GROUP BY {x}.tenant_id, {x}.namespace, {whose.group.format(x=x)}"
        )

    items = new_rows(
        "items",
        "i",
        "count(*) AS n, min(i.recorded_at) AS first",
        f"{whose.counted} AND i.status = 'active'",
        "recorded_at",
    )
    closed = new_rows("sessions", "s", "count(*) AS n", "s.status = 'closed'", "closed_at")
    return items, closed


def due_sql(param: Callable[[int], str], *, levels: bool) -> str:
    """The query: parameter 1 is the operation, 2 the row limit (``param(n)`` spells
    the n-th placeholder: ``?n`` on SQLite, ``$n`` on PostgreSQL). Its rows: tenant,
    namespace, user (None for a shared level), agent (a shared level's; None for a user
    and for the organisation), new items, closed sessions, ``done_from``, the first new
    item's ``recorded_at``; most new items first."""
    op = param(1)
    items, closed = _branch(op, _USERS)
    if levels:
        level_items, level_closed = _branch(op, _SHARED)
        items += " UNION ALL " + level_items
        closed += " UNION ALL " + level_closed
    return (
        f"WITH new_items AS ({items}), closed AS ({closed}),"
        " scopes AS (SELECT tenant_id, namespace, who, user_id, agent_id FROM new_items"
        "  UNION SELECT tenant_id, namespace, who, user_id, agent_id FROM closed)"
        " SELECT s.tenant_id, s.namespace, s.user_id, s.agent_id, coalesce(i.n, 0) AS n,"
        "  coalesce(c.n, 0) AS c, r.done_from, i.first FROM scopes s"
        " LEFT JOIN new_items i ON i.tenant_id = s.tenant_id AND i.namespace = s.namespace"
        "  AND i.who = s.who"
        " LEFT JOIN closed c ON c.tenant_id = s.tenant_id AND c.namespace = s.namespace"
        "  AND c.who = s.who"
        + _runs("s", "s.who", op)
        + f" ORDER BY 5 DESC, s.tenant_id, s.namespace, s.who LIMIT {param(2)}"
    )
