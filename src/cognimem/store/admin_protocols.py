"""The store's administrative roles, beside the write and read roles of
``store/protocols.py`` (whose ``Store`` composes them all): moving a tenant's rows out
and in and erasing a user (``TransferStore``), the embedding cache, sessions, API keys,
the ingest jobs the worker's sweep queues again, lifecycle leases, the dashboard's
listings and the forgetting policy's rows. As there, all methods are coroutines (but
``TransferStore.export_records``, an async iterator); none block the event loop.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime
from typing import Protocol

import numpy as np

from cognimem.models import MemoryItem, Scope
from cognimem.models.admin import ApiKey, ErasureReport, ExportRecord, Session
from cognimem.models.directory import ItemText, LevelScope, UserScope
from cognimem.models.knowledge import HistoryEntry
from cognimem.store.retention import Decay, RetentionRow
from cognimem.store.types import DueScope, ItemFilter, PendingJob, ScopeLease


class TransferStore(Protocol):
    """Moving a tenant's rows out and in, and erasing a user."""

    def export_records(
        self, scope: Scope, *, all_namespaces: bool = False, level_only: bool = False
    ) -> AsyncIterator[ExportRecord]:
        """Every stored row of the scope (its tenant and namespace, or every namespace
        with ``all_namespaces``; the user's rows when ``scope.user_id`` is set, agent and
        session are ignored; with ``level_only`` and no user, one shared level's rows:
        no user and exactly ``scope.agent_id``, entities and aliases of no user),
        without the header line, streamed in pages: sessions,
        events, items, entities, aliases, facts, relations, conflicts, history,
        procedures. Aliases
        of a user are theirs and the shared aliases of their entities; history is that
        of the exported items, facts and conflicts."""

    async def held_ids(self, tenant_id: str, ids: Sequence[str]) -> set[str]:
        """Which of ``ids`` are rows of the tenant: events, items, entities, facts,
        relations, conflicts, history entries or procedures."""

    async def import_records(
        self, tenant_id: str, records: Sequence[ExportRecord], embeddings: Mapping[str, np.ndarray]
    ) -> dict[str, int]:
        """Insert the records (their tenant replaced by ``tenant_id``) that are not
        stored yet, by id (ids are unique across the database, so a row whose id is
        held in another tenant is skipped too: ``Memory`` makes an import's ids the
        tenant's first, ``store.transfer.TenantIds``; aliases and sessions by their
        keys), in one transaction; ``embeddings`` maps item and fact ids to vectors.
        Returns how many rows of each type were inserted; importing twice inserts
        nothing."""

    async def erase_user(self, tenant_id: str, user_id: str) -> ErasureReport:
        """Remove everything derived from this user, in every namespace, in one
        transaction: events, items and their index rows and vectors, facts, the user's
        entities and aliases, relations, conflicts, history, sessions, idempotency
        records, the user's cache version counters. Cached vector matrices and fact
        lists of the user are dropped. The report's ``content_hashes`` are the
        embedding-cache keys of the erased texts (see ``delete_embeddings``)."""

    async def erase_level(
        self, tenant_id: str, agent_id: str | None, namespace: str | None
    ) -> ErasureReport:
        """Remove one shared level of the tenant in one transaction: the rows of no user
        and exactly ``agent_id`` (``None``: no agent) in ``namespace`` (``None``: every
        namespace, an agent's level; a namespace's level names its own, the
        organisation's ``ORGANISATION_NAMESPACE``) — events, items and their index rows,
        facts, relations, conflicts, history, sessions, procedures, lifecycle runs — and
        the entities of no user that only the level's facts and relations named, with
        their aliases. No user's row and no other level's changes. Cached rows of the
        tenant are dropped; ``content_hashes`` as ``erase_user``'s."""

    async def flush_deleted(self) -> None:
        """Make what was deleted unreadable in the database's files too (the last step
        of an erasure). SQLite zeroes freed space as it deletes (``secure_delete``);
        this copies the WAL into the main file and truncates it, so no old page
        version keeps the text (``StoreUnavailable`` if a reader blocks it: retry).
        PostgreSQL keeps dead tuples until it vacuums; this does nothing there."""


class EmbeddingStore(Protocol):
    """The embedding cache: vectors by model and content hash."""

    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Embedding cache lookup, one query for the whole batch."""

    async def put_embeddings(self, model: str, vectors: Mapping[str, np.ndarray]) -> None: ...

    async def delete_embeddings(self, hashes: Sequence[str]) -> int:
        """Drop cached embeddings of these content hashes (every model)."""


class SessionStore(Protocol):
    """Conversation sessions."""

    async def put_session(self, session: Session) -> None:
        """Insert or replace a session (by tenant, namespace and id)."""

    async def get_session(
        self, tenant_id: str, namespace: str, session_id: str
    ) -> Session | None: ...

    async def list_sessions(self, scope: Scope, limit: int) -> list[Session]:
        """Sessions in the scope (user / agent filter when set), newest first."""


class KeyStore(Protocol):
    """API keys (their hashes only)."""

    async def put_api_key(self, key: ApiKey) -> None: ...

    async def find_api_key(self, key_hash: str) -> ApiKey | None: ...

    async def api_key_changes(self) -> int:
        """How many times the keys have changed (issued, revoked, edited or deleted, by
        any process): a key found while this stood at one value is still as found while
        it stands there."""

    async def list_api_keys(self, tenant_id: str | None) -> list[ApiKey]: ...

    async def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        """Mark a key revoked (``NotFound`` if there is no such key); returns it."""


class JobStore(Protocol):
    """Raw events committed without their items (async ingestion) and the ingest
    jobs that derive them: what it takes to queue a job again."""

    async def unprocessed(self, tenant_id: str, event_ids: Sequence[str]) -> list[str]:
        """Which of these events have not had their items derived yet."""

    async def pending_jobs(self, tenant_id: str, event_ids: Sequence[str]) -> list[PendingJob]:
        """The jobs of those of these events not processed yet, each with all of its
        unprocessed events (what a duplicate of an unprocessed event answers with)."""

    async def stranded_jobs(self, recorded_before: datetime, limit: int) -> list[PendingJob]:
        """Jobs, in every tenant, with events recorded before ``recorded_before`` and
        still unprocessed, oldest first, found from at most ``limit`` such events
        (the worker's sweep queues them again: a crash between committing the events
        and queuing their job must not strand them)."""


class LifecycleStore(Protocol):
    """Leases on (user scope, lifecycle operation), so at most one run of an operation
    holds a scope at a time and a dead worker's lease runs out, and what the scheduler
    needs to decide which scopes are due."""

    async def take_lease(self, lease: ScopeLease, *, now: datetime, until: datetime) -> str | None:
        """Hold the scope for ``lease`` until ``until`` unless another run holds it past
        ``now``: None when held now, else the job id of the run holding it. A lease of
        the same job is taken over (the queue delivers a job again only when its last
        delivery's lease ran out: that run is dead)."""

    async def renew_lease(self, lease: ScopeLease, *, until: datetime) -> bool:
        """Extend a lease still held by its token; False when it was lost."""

    async def release_lease(
        self, lease: ScopeLease, *, done_from: datetime | None, job_id: str | None
    ) -> None:
        """Let the scope go (only if ``lease`` still holds it); ``done_from``: the run
        completed, and what was recorded from then on is new to the next run."""

    async def drop_lease(self, lease: ScopeLease) -> None:
        """Remove the scope's row if ``lease`` still holds it: a run whose job an erasure
        purged leaves no lease or schedule state of the erased level behind."""

    async def drop_runs(self, tenant_id: str, holder: str) -> int:
        """Remove every row (each operation, every namespace) of one level of the
        tenant — ``holder`` as a lease names it: a user's id, ``#agent/<id>`` or
        ``#organisation`` — after an erasure; how many."""

    async def lifecycle_due(self, op: str, *, limit: int, levels: bool = True) -> list[DueScope]:
        """Levels, in every tenant and namespace, with memories recorded or sessions
        closed since the last completed run of ``op`` began, most new first: users
        (active episodes) and, with ``levels``, the shared levels — each agent's own and
        the organisation's (active items of every kind but summaries) —
        (``store/lifecycle_due.py``)."""


class ListingStore(Protocol):
    """What a person browses (the dashboard): a tenant's users, and items by every field
    one filters on."""

    async def list_users(self, tenant_id: str, limit: int) -> list[UserScope]:
        """The (namespace, user) pairs of the tenant's raw events, with their event
        counts, the most recently recorded first, at most ``limit``."""

    async def list_levels(self, tenant_id: str, limit: int) -> list[LevelScope]:
        """The shared levels of the tenant's raw events of no user — (namespace, agent
        or none) — with their event counts, the most recently recorded first, at most
        ``limit``."""

    async def list_items(self, flt: ItemFilter, text: ItemText, limit: int) -> list[MemoryItem]:
        """The items ``flt`` admits that also have one of ``text.tiers`` and contain
        ``text.contains`` (ASCII letters without regard to case), newest first (by
        ``occurred_at``), at most ``limit``."""


class RetentionStore(Protocol):
    """What the forgetting policy reads and writes (``store/retention.py``)."""

    async def retention_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, *, agent_id: str | None = None
    ) -> list[RetentionRow]:
        """Every item of the user (every agent and session) that is active, silent or
        archived, with its live dependents counted (facts, constraints, relations,
        summaries), in ONE query; in no particular order. With no user: one shared
        level's, those of no user and exactly ``agent_id`` (``None``: the
        organisation's), never every user's."""

    async def decay_items(
        self, tenant_id: str, decays: Sequence[Decay], history: Sequence[HistoryEntry]
    ) -> list[str]:
        """Lower the importance of the tenant's items, each only if it is still
        ``before`` (a concurrent edit wins), and append the history entries of the items
        changed, in one transaction; returns the ids changed."""
