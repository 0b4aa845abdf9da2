"""Scopes: the hard walls around every read and write."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:@\-]{0,127}$"
# the namespace the organisation's level is stored under: the tenant's memory of no
# user and no agent in every namespace. No id matches it (``ID_PATTERN``) and
# ``models/arguments.py`` refuses it from callers: only ``scope.level = "organisation"``
# names it, so no caller reaches it by a namespace value
ORGANISATION_NAMESPACE = "*"
_NAMESPACE_PATTERN = r"^(\*|[A-Za-z0-9][A-Za-z0-9_.:@\-]{0,127})$"
# whose memory a scope is, closest first: a user's read takes the closer level's fact
# of a key over a farther one's (``recall/levels.py``)
LEVELS = ("user", "agent", "namespace", "organisation")


class Scope(BaseModel):
    """Where a memory lives: tenant → user / agent / session / namespace.

    ``tenant_id`` and ``namespace`` always filter. ``user_id``, ``agent_id`` and
    ``session_id`` filter reads when set; a read with ``session_id=None`` sees every
    session of the user. Writes store whatever is set. An id is never empty: ``""`` is
    refused like any other id outside the pattern, never read as "no user" (``Memory``
    refuses a read without a user unless it says ``all_users``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    tenant_id: str = Field(default="default", pattern=ID_PATTERN)
    user_id: str | None = Field(default=None, pattern=ID_PATTERN)
    agent_id: str | None = Field(default=None, pattern=ID_PATTERN)
    session_id: str | None = Field(default=None, pattern=ID_PATTERN)
    # ORGANISATION_NAMESPACE: the organisation's level (tenant-wide, no user, no agent)
    namespace: str = Field(default="default", pattern=_NAMESPACE_PATTERN)

    def label(self) -> str:
        parts = [f"tenant={self.tenant_id}", f"ns={self.namespace}"]
        for name in ("user_id", "agent_id", "session_id"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name.removesuffix('_id')}={value}")
        return " ".join(parts)

    @property
    def level(self) -> str:
        """Whose memory this scope is (``LEVELS``): a user's; of no user an agent's
        (in its namespace), the namespace's (no agent) or the organisation's (no
        agent, ``ORGANISATION_NAMESPACE``: every namespace's)."""
        if self.user_id is not None:
            return "user"
        if self.agent_id is not None:
            return "agent"
        return "organisation" if self.namespace == ORGANISATION_NAMESPACE else "namespace"

    def organisation(self) -> Scope:
        """The organisation's level of this scope's tenant."""
        return Scope(tenant_id=self.tenant_id, namespace=ORGANISATION_NAMESPACE)

    def shares_facts_with(self, other: Scope) -> bool:
        """Whether a fact stored in ``other`` is one of this scope's facts, which a new
        fact of the same key supersedes. A user's facts are the user's whatever the
        agent (the agent is provenance); of no user, an agent's facts are that agent's
        and a namespace's (or the organisation's, another namespace) those of no agent,
        so no level supersedes another's (a user's read sees all, the closer winning:
        ``recall/levels.py``). Facts are looked up by namespace first."""
        if self.user_id is not None:
            return other.user_id == self.user_id
        return other.user_id is None and other.agent_id == self.agent_id
