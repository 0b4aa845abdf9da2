"""Whose rows an export reads (:class:`ExportReach`, ``export_records``' arguments as
both backends' pages take them), and the SQL conditions that pick those rows, written
once and rendered with either backend's placeholders (``bind``: ``$n`` on PostgreSQL,
``?`` on SQLite)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cognimem.models import Scope
from cognimem.store import records

# a backend's placeholder for one bound value ("$3", "?"), the value kept in its list
Bind = Callable[[object], str]
# the test of an agent column for a level's agent (None: the agent of no agent's rows)
AgentTest = Callable[[str | None], str]


@dataclass(frozen=True)
class ExportReach:
    """Whose records an export reads (``export_records``' arguments, as both backends'
    pages take them): ``scope``'s namespace, or every namespace with ``all_namespaces``;
    the scope's user, or with none every user; ``level_only``: one shared level's rows
    (no user; the scope's agent, or none), entities of no user."""

    scope: Scope
    all_namespaces: bool = False
    level_only: bool = False

    @property
    def namespace(self) -> str | None:
        """The namespace read, or None for every one."""
        return None if self.all_namespaces else self.scope.namespace

    @property
    def level(self) -> bool:
        """Whether one shared level's rows alone are read (``level_only`` with no user)."""
        return self.level_only and self.scope.user_id is None

    @property
    def whole_tenant(self) -> bool:
        """Whether every row of the tenant is read: its history needs no target filter."""
        return self.scope.user_id is None and self.all_namespaces and not self.level

    def owned_sql(self, bind: Bind, agent: AgentTest | None, prefix: str = "") -> str:
        """The conditions (on ``prefix``ed columns) on the rows this export reads: the
        tenant's, the namespace's (unless every one), the user's; of a shared level, no
        user's and, where the table has an agent column (``agent`` renders the test of
        it: None for entities, which have none), the level's agent's. ``bind`` is the
        backend's placeholder for a value, in the order the SQL names them."""
        scope = self.scope
        clauses = [f"{prefix}tenant_id = {bind(scope.tenant_id)}"]
        if self.namespace is not None:
            clauses.append(f"{prefix}namespace = {bind(self.namespace)}")
        if scope.user_id is not None:
            clauses.append(f"{prefix}user_id = {bind(scope.user_id)}")
        elif self.level:
            clauses.append(f"{prefix}user_id IS NULL")
            if agent is not None:
                clauses.append(f"{prefix}agent_id {agent(scope.agent_id)}")
        return " AND ".join(clauses)

    def alias_sql(self, bind: Bind) -> str:
        """The conditions on the aliases this export reads: the user's and the shared
        aliases of the user's entities (every alias of the namespace without a user; of
        one level, those of no user alone)."""
        scope = self.scope
        clauses = [f"tenant_id = {bind(scope.tenant_id)}"]
        if self.namespace is not None:
            clauses.append(f"namespace = {bind(self.namespace)}")
        if scope.user_id is not None:
            key = bind(records.user_key(scope.user_id))
            entities = self.owned_sql(bind, None)
            clauses.append(
                f"(user_key = {key} OR entity_id IN (SELECT id FROM entities WHERE {entities}))"
            )
        elif self.level:  # a shared level: the aliases of no user
            clauses.append(f"user_key = {bind(records.user_key(None))}")
        return " AND ".join(clauses)
