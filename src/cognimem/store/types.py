"""What crosses the store's boundary: search filters and candidates, the batches the
write path commits (messages, items, knowledge, jobs) and the compact rows a read
scores facts in (``FactRows``: ``store/fact_rows.py``, with how a kept copy is patched).
The protocols that take and return them are in ``store/protocols.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import numpy as np

from cognimem.models import Event, ItemKind, ItemStatus, MemoryItem, Scope
from cognimem.models.fact_changes import LIVE, StaleItem
from cognimem.models.knowledge import (
    Alias,
    Entity,
    Fact,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
    Relation,
)
from cognimem.models.references import ItemReference
from cognimem.store.fact_rows import FactRowParts as FactRowParts  # moved there
from cognimem.store.fact_rows import FactRows as FactRows
from cognimem.store.fact_rows import joined as joined


@dataclass(frozen=True)
class ItemFilter:
    """Which items a search may see. ``None`` means "any" for optional fields."""

    scope: Scope
    kinds: tuple[ItemKind, ...] | None = None
    statuses: tuple[ItemStatus, ...] = (ItemStatus.ACTIVE,)
    since: datetime | None = None  # on occurred_at, inclusive
    until: datetime | None = None
    # a period ``[start, end)`` the items must belong to: they occurred in it, or their
    # event period (what they tell of, ``MemoryItem.event_start``/``event_end``)
    # overlaps it ("what did I do on 3 May?" finds "made dinner last night" said on 4 May)
    period: tuple[datetime, datetime] | None = None
    consolidated: bool | None = None  # None: either
    # the shared levels' memories too, beside the scope's own: the organisation's (no
    # user, no agent, ``ORGANISATION_NAMESPACE``: every namespace's) and, with a user,
    # the namespace's (no user, no agent) and the agent's (no user, that agent): honoured
    # by the SQL listings (``list_items``, ``list_item_ids``) and, for a scope with a
    # user, the searches (each searches the user's rows and the shared ones:
    # ``own_and_shared``). A scope of every user takes the organisation's beside its own
    with_organisation: bool = False
    # only the shared levels a user's read reaches: the rows of no user, of no agent or
    # of the scope's agent (any session), in the namespace and the organisation's; the
    # scope's user and session are not matched
    shared_only: bool = False
    # with a user and an agent, the user's rows of no agent beside those of the agent
    # (what the user said to no particular agent is the user's own): honoured by the
    # SQL listings and the searches (``read_reach`` sets it for a user's read)
    own_of_no_agent: bool = False
    # one level's rows alone, for the lifecycle and erasure of a shared level: with no
    # user in the scope, the rows of no user and exactly the scope's agent (no agent: the
    # organisation's), never every user's (``user_id=None`` alone means every user)
    level_only: bool = False

    def own_and_shared(self) -> tuple[ItemFilter, list[ItemFilter]]:
        """This filter as several searches: the scope's own rows, and (with
        ``with_organisation``) the shared levels' rows, each search over the entry of
        the rows of no user of its scope's namespace, the closer first — for a user,
        the namespace's (and the agent's), then the organisation's; for every user,
        the organisation's."""
        if not self.with_organisation or (self.level_only and self.scope.user_id is None):
            return self, []
        own = replace(self, with_organisation=False)
        organisation = replace(
            own,
            scope=self.scope.organisation(),
            level_only=True,
            own_of_no_agent=False,
            shared_only=False,
        )
        if self.scope.user_id is None:
            return own, [organisation]
        return own, [replace(own, shared_only=True), organisation]


def best_of(found: Sequence[Sequence[tuple[str, float]]], limit: int) -> list[tuple[str, float]]:
    """The ``limit`` best of several searches' (id, score) lists, best first; a tie keeps
    the earlier list's row first (the user's own before the shared levels')."""
    nonempty = [rows for rows in found if rows]
    if len(nonempty) <= 1:  # one search found rows (a scope with no shared levels' rows)
        return list(nonempty[0][:limit]) if nonempty else []
    merged = [
        (score, n, i, item) for n, rows in enumerate(found) for i, (item, score) in enumerate(rows)
    ]
    merged.sort(key=lambda r: (-r[0], r[1], r[2]))
    return [(item, score) for score, _, _, item in merged[:limit]]


@dataclass(frozen=True)
class Access:
    """Reads of one item counted together: ``count`` reads, the latest at ``at``."""

    tenant_id: str
    item_id: str
    count: int
    at: datetime


@dataclass(slots=True, unsafe_hash=True)  # not frozen: a read makes ~240 (0.45 vs 1.1 µs)
class Candidate:
    """An item id with the raw score one retrieval method gave it (higher is better);
    never changed once made (a frozen dataclass sets its fields at twice the cost)."""

    item_id: str
    score: float


@dataclass
class PendingItem:
    """An item ready to be committed (already chunked, gated and embedded)."""

    item: MemoryItem
    embedding: np.ndarray | None
    embed_text: str  # what is embedded
    search_text: str  # what the lexical index holds (may include conversational context)


@dataclass
class PendingMessage:
    """One message's event and the items derived from it, committed together.

    ``merged_into``: existing items this message repeats (semantic near-duplicates); the
    event is added to their provenance instead of inserting new items."""

    event: Event
    items: list[PendingItem] = field(default_factory=list)
    merged_into: list[str] = field(default_factory=list)
    # False: only the raw event is written now; a worker derives its items later, in
    # the job ``job_id`` with the ingest profile ``profile`` (both stored on the event, so
    # the job can be queued again from the database alone: ``pending_jobs``)
    processed: bool = True
    job_id: str | None = None
    profile: str | None = None
    skipped_chunks: int = 0
    redactions: dict[str, int] = field(default_factory=dict)


INGEST_JOB = "ingest"


def job_id_for(event_id: str) -> str:
    """The id of the ingest job that starts with this event (the job of an unprocessed
    event stored without one, e.g. imported)."""
    return f"job_{event_id.removeprefix('evt_')}"


@dataclass(frozen=True)
class PendingJob:
    """Raw events committed without their items (async ingestion), in commit order, and
    the ingest job that derives them: what it takes to queue that job (again)."""

    id: str
    tenant_id: str
    namespace: str
    user_id: str | None
    profile: str | None
    event_ids: tuple[str, ...]
    agent_id: str | None = None

    def payload(self) -> dict[str, Any]:
        """The job's payload (``WriteFunnel.process`` reads it); it names the user (or,
        with no user, the shared level as a lifecycle job does: ``level`` and
        ``agent_id``) and the namespace, so an erasure can purge the job
        (``JobQueue.purge_user``, ``purge_level``)."""
        body: dict[str, Any] = {
            "event_ids": list(self.event_ids),
            "profile": self.profile,
            "user_id": self.user_id,
            "namespace": self.namespace,
        }
        if self.user_id is None:
            body["level"] = Scope(
                tenant_id=self.tenant_id, namespace=self.namespace, agent_id=self.agent_id
            ).level
            body["agent_id"] = self.agent_id
        return body


@dataclass(frozen=True)
class ScopeLease:
    """Who runs lifecycle operation ``op`` on one user's memories (``token``: this run's
    own; ``holder``: the worker, for people reading the table)."""

    tenant_id: str
    namespace: str
    user_id: str
    op: str
    holder: str
    token: str
    job_id: str


@dataclass(frozen=True)
class DueScope:
    """One level's memories as the lifecycle scheduler sees them for one operation: a
    user's (``user_id``), or a shared level's (no user; ``agent_id`` an agent's, None
    the namespace's, or the organisation's in ``ORGANISATION_NAMESPACE``). What was
    recorded since the last completed run began (``done_from``; None: never run) — a
    user's episodes, a shared level's items of every kind but summaries
    (``new_episodes``; and when the first of them was) — and the sessions of the level
    closed since then."""

    tenant_id: str
    namespace: str
    user_id: str | None
    new_episodes: int
    closed_sessions: int
    done_from: datetime | None
    first_new: datetime | None
    agent_id: str | None = None

    def scope(self) -> Scope:
        """The level as the scope a lifecycle run takes (a user's carries no agent)."""
        return Scope(
            tenant_id=self.tenant_id,
            namespace=self.namespace,
            user_id=self.user_id,
            agent_id=None if self.user_id is not None else self.agent_id,
        )


def jobs_of(stored: Sequence[PendingMessage]) -> list[PendingJob]:
    """The jobs of these messages (those stored unprocessed, with a job id), in order."""
    grouped: dict[str, list[PendingMessage]] = {}
    for m in stored:
        if not m.processed and m.job_id is not None:
            grouped.setdefault(m.job_id, []).append(m)
    return [
        PendingJob(
            id=job_id,
            tenant_id=ms[0].event.scope.tenant_id,
            namespace=ms[0].event.scope.namespace,
            user_id=ms[0].event.scope.user_id,
            profile=ms[0].profile,
            event_ids=tuple(m.event.id for m in ms),
            agent_id=ms[0].event.scope.agent_id,
        )
        for job_id, ms in grouped.items()
    ]


@dataclass
class ConsolidationWrite:
    """What one consolidation pass stores, in one transaction: new summaries (and
    profiles), the earlier summaries they replace (old id → new id: archived, with
    ``superseded_by``), the episodes now consolidated, and history entries."""

    tenant_id: str
    summaries: list[PendingItem] = field(default_factory=list)
    replaced: dict[str, str] = field(default_factory=dict)
    consolidated: list[str] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    # facts an LLM's gists read from the groups, reconciled like a write's
    knowledge: Knowledge | None = None


@dataclass
class PendingFact:
    """A new fact ready to be committed, with its embedding."""

    fact: Fact
    embedding: np.ndarray | None
    embed_text: str


@dataclass(frozen=True)
class FactUpdate:
    """A changed fact (its new state) and the revision it had when it was read."""

    fact: Fact
    expected_revision: int


@dataclass(frozen=True)
class KeyState:
    """What reconciliation saw under one key: the live (active or aging) facts' ids and
    revisions. The commit checks it still holds, else raises ``StaleKnowledge``. Of no
    user, the facts are ``agent_id``'s (``None``: the namespace's or organisation's), as
    ``Scope.shares_facts_with`` says; a user's facts are the user's whatever the agent."""

    tenant_id: str
    namespace: str
    user_id: str | None
    key: str
    facts: frozenset[tuple[str, int]]
    agent_id: str | None = None


@dataclass
class Knowledge:
    """What extraction and reconciliation decided, committed with the messages."""

    entities: list[Entity] = field(default_factory=list)
    aliases: list[Alias] = field(default_factory=list)  # upserted: use_count + 1 if known
    facts: list[PendingFact] = field(default_factory=list)
    fact_updates: list[FactUpdate] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    conflicts: list[FactConflict] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    silence_items: list[str] = field(default_factory=list)
    # items that state only a value that no longer holds (models/fact_changes.py)
    stale_items: list[StaleItem] = field(default_factory=list)
    read_set: list[KeyState] = field(default_factory=list)
    item_links: list[ItemReference] = field(default_factory=list)  # models/references.py

    def is_empty(self) -> bool:
        return not any((self.entities, self.aliases, self.facts, self.fact_updates,
                        self.relations, self.conflicts, self.history, self.silence_items,
                        self.stale_items, self.item_links))  # fmt: skip


# user scopes whose ScopeFacts (up to 5,000 full facts each) a process keeps
SCOPE_FACTS_KEPT = 16
_PICKS_KEPT = 8  # admitted subsets a ScopeFacts keeps built (each with its postings)


@dataclass
class ScopeFacts:
    """The user's facts of any status, newest first, decoded once: what a read with a
    time filter picks from (``recall/fact_time.py``). A store keeps one per scope while
    no fact of it changes, so a repeated read decodes nothing."""

    facts: list[Fact]
    parts: list[FactRowParts]  # parallel to ``facts``
    _picked: dict[tuple[int, ...], FactRows] = field(
        default_factory=dict, repr=False, compare=False
    )

    def rows(self, picked: Sequence[int]) -> FactRows:
        """``FactRows`` of the facts at positions ``picked``, in that order; built once
        per set of positions (the rows' postings then serve every read that picks it)."""
        key = tuple(picked)
        found = self._picked.get(key)
        if found is None:
            found = FactRows.of([self.parts[i] for i in key])
            if len(self._picked) >= _PICKS_KEPT:
                self._picked.pop(next(iter(self._picked)))
            self._picked[key] = found
        return found


@dataclass(frozen=True)
class FactQuery:
    """Which facts to list. Facts belong to the user: (tenant, namespace, user_id);
    agent and session are provenance, not filters. ``keys`` match exactly or as a prefix
    of multi-valued keys (``user:preference:cuisine`` finds ``...:cuisine:italian``).
    ``all_users`` lists every user's facts and those of no user (``user_id`` is then
    ignored); without it ``user_id=None`` means the facts of no user, and with
    ``level_only`` those of no user and exactly ``agent_id`` (``None``: the
    namespace's; the organisation's in ``ORGANISATION_NAMESPACE``), one level's facts."""

    tenant_id: str
    namespace: str
    user_id: str | None
    all_users: bool = False
    keys: tuple[str, ...] | None = None
    statuses: tuple[FactStatus, ...] | None = LIVE
    categories: tuple[FactCategory, ...] | None = None
    limit: int = 1_000
    agent_id: str | None = None
    level_only: bool = False


@dataclass(frozen=True)
class GraphEdge:
    """One active relation as graph expansion reads it: the edge and the items that
    back it (its fact's evidence, empty when it has no fact or the fact is no longer
    live)."""

    source_entity_id: str
    target_entity_id: str
    relation: str
    confidence: float
    fact_id: str | None
    item_ids: tuple[str, ...]
