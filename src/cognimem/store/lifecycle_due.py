"""The lifecycle scheduler's view of what is new, per level, as one SQL text both
backends run (``store/{sqlite,postgres}/lifecycle.py``: ``lifecycle_due``).

A level is a user's memories (every agent's turns with the user), or with
``levels`` a shared level's: an agent's own (no user, that agent) or the
organisation's (no user, no agent). ``lifecycle_runs`` records each under its
``user_key``: ``u:<user id>``, or — characters no id has, as
``services/lifecycle/operations.py`` (``level_key``) and ``store/transfer.py``
(``level_holder``) name them — ``u:#agent/<id>`` and ``u:#organisation``, so a level
is never read as a user and no two levels share a row.

What is new since the last completed run began (``done_from``): for a user, active
episodes; for a shared level, which grows by deliberate writes (mandates, guardrails,
an agent's tool notes) more than by turns, its active items of every kind but
``summary`` (what a run writes itself, which must not make the level due again); for
both, sessions of the level closed since then.
"""

from __future__ import annotations

from collections.abc import Callable

# the lifecycle_runs key of a shared level's row aliased ``x`` (see the docstring)
_LEVEL_KEY = (
    "CASE WHEN {x}.agent_id IS NULL THEN 'u:#organisation' ELSE 'u:#agent/' || {x}.agent_id END"
)


def _runs(x: str, key: str, op: str) -> str:
    return (
        f" LEFT JOIN lifecycle_runs r ON r.tenant_id = {x}.tenant_id"
        f" AND r.namespace = {x}.namespace AND r.user_key = {key} AND r.op = {op}"
    )


def _user_branch(op: str) -> tuple[str, str]:
    key = "'u:' || {x}.user_id"
    items = (
        "SELECT i.tenant_id, i.namespace, i.user_id, NULL AS agent_id,"
        f" {key.format(x='i')} AS who, count(*) AS n, min(i.recorded_at) AS first FROM items i"
        + _runs("i", key.format(x="i"), op)
        + " WHERE i.user_id IS NOT NULL AND i.kind = 'episode' AND i.status = 'active'"
        " AND (r.done_from IS NULL OR i.recorded_at > r.done_from)"
        " GROUP BY i.tenant_id, i.namespace, i.user_id"
    )
    closed = (
        "SELECT s.tenant_id, s.namespace, s.user_id, NULL AS agent_id,"
        f" {key.format(x='s')} AS who, count(*) AS n FROM sessions s"
        + _runs("s", key.format(x="s"), op)
        + " WHERE s.user_id IS NOT NULL AND s.status = 'closed'"
        " AND (r.done_from IS NULL OR s.closed_at > r.done_from)"
        " GROUP BY s.tenant_id, s.namespace, s.user_id"
    )
    return items, closed


def _level_branch(op: str) -> tuple[str, str]:
    items = (
        "SELECT i.tenant_id, i.namespace, NULL, i.agent_id,"
        f" {_LEVEL_KEY.format(x='i')}, count(*), min(i.recorded_at) FROM items i"
        + _runs("i", _LEVEL_KEY.format(x="i"), op)
        + " WHERE i.user_id IS NULL AND i.kind <> 'summary' AND i.status = 'active'"
        " AND (r.done_from IS NULL OR i.recorded_at > r.done_from)"
        " GROUP BY i.tenant_id, i.namespace, i.agent_id"
    )
    closed = (
        "SELECT s.tenant_id, s.namespace, NULL, s.agent_id,"
        f" {_LEVEL_KEY.format(x='s')}, count(*) FROM sessions s"
        + _runs("s", _LEVEL_KEY.format(x="s"), op)
        + " WHERE s.user_id IS NULL AND s.status = 'closed'"
        " AND (r.done_from IS NULL OR s.closed_at > r.done_from)"
        " GROUP BY s.tenant_id, s.namespace, s.agent_id"
    )
    return items, closed


def due_sql(param: Callable[[int], str], *, levels: bool) -> str:
    """The query: parameter 1 is the operation, 2 the row limit (``param(n)`` spells
    the n-th placeholder: ``?n`` on SQLite, ``$n`` on PostgreSQL). Its rows: tenant,
    namespace, user (None for a shared level), agent (a shared level's; None for a user
    and for the organisation), new items, closed sessions, ``done_from``, the first new
    item's ``recorded_at``; most new items first."""
    op = param(1)
    items, closed = _user_branch(op)
    if levels:
        level_items, level_closed = _level_branch(op)
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
