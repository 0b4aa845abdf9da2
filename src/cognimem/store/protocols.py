"""The store's roles: one protocol per job the storage does, and ``Store``, the
composition every backend (SQLite, PostgreSQL) implements. The roles of a write, a read
and an edit are here; the administrative ones (transfer, the embedding cache, sessions,
keys, jobs, leases, listings, retention) are in ``store/admin_protocols.py``.

A caller that needs one role says so (``KeyStore`` for authentication, ``JobStore`` for
the worker's sweep, ``EditStore`` for forgetting, ...); ``Memory`` and the write funnel
take the whole ``Store``. Each backend implements each role in a module of its own
(``store/sqlite/items.py``, ``store/postgres/items.py``, ...). All methods are
coroutines; none block the event loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

import numpy as np

from cognimem.models import Event, MemoryItem, MessageResult, Scope
from cognimem.models.admin import ScopeStats
from cognimem.models.knowledge import (
    Alias,
    Entity,
    Fact,
    FactConflict,
    HistoryEntry,
    Relation,
)
from cognimem.models.procedures import Procedure
from cognimem.store.admin_protocols import (
    EmbeddingStore,
    JobStore,
    KeyStore,
    LifecycleStore,
    ListingStore,
    RetentionStore,
    SessionStore,
    TransferStore,
)
from cognimem.store.arguments import (
    AliasDeletion,
    AliasesRemoved,
    AliasGiving,
    Attachment,
    ConflictResolution,
    ItemEdit,
    ItemsForgetting,
    KnowledgeView,
    ProcedureQuery,
)
from cognimem.store.forgetting import Forgotten
from cognimem.store.reembedding import ReembedStore
from cognimem.store.types import (
    Access,
    Candidate,
    ConsolidationWrite,
    FactQuery,
    FactRows,
    GraphEdge,
    ItemFilter,
    Knowledge,
    PendingMessage,
    ScopeFacts,
)


class Database(Protocol):
    """The database itself: connecting, its schema version, a few settings, and
    counts of what a scope holds."""

    async def open(self) -> None:
        """Connect and run pending migrations."""

    async def close(self) -> None: ...

    async def schema_version(self) -> int:
        """The highest migration applied (the export header records it)."""

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    async def scope_stats(self, scope: Scope) -> ScopeStats: ...


class ItemStore(Protocol):
    """Events and items: the write funnel's commits and the searches over items.

    Stores return candidates with raw scores; ranking is done by pure functions in
    ``cognimem.recall``. Every scope, kind, status and time filter is applied inside
    the store's query, never after it."""

    async def find_duplicates(
        self, messages: Sequence[Event], dedupe_window_s: float
    ) -> dict[int, MessageResult]:
        """Which of these (not yet stored) events are already stored, by index.

        A message is a duplicate when its idempotency key was used before in the tenant,
        or when the same scope already holds an event with the same role and content hash
        whose ``occurred_at`` is within ``dedupe_window_s``. A reused idempotency key
        with other content raises ``Conflict``.
        """

    async def commit(
        self,
        messages: Sequence[PendingMessage],
        dedupe_window_s: float,
        knowledge: Knowledge | None = None,
    ) -> list[MessageResult]:
        """Write events, their items and ``knowledge`` in one transaction.

        Duplicates (rechecked inside the transaction, also within the batch) are not
        written; their result carries the original ids. Either everything new is
        written or nothing is. With ``knowledge``: if a message turned out to be a
        duplicate inside the transaction, or a key's live facts are no longer what
        ``knowledge.read_set`` saw, nothing is written and ``StaleKnowledge`` is raised
        (the caller reconciles again). Unprocessed messages record their ``job_id`` and
        ``profile``; when the store holds the job queue's outbox (the embedded SQLite
        queue in the same file), that job is queued in this same transaction.
        """

    async def add_items(self, attached: Attachment) -> list[str]:
        """Attach items, merges (event id → existing item ids) and ``knowledge`` to raw
        events that are already stored (async ingestion), and mark those events and
        ``event_ids`` (the job's events that yield no item, e.g. all secret) processed.

        In one transaction. Events already processed are skipped — and if any event of
        the call was, nothing is written at all — so a job applied twice changes nothing.
        Nor is anything written when an event no longer exists (its user was erased
        while the job waited). A stale ``knowledge.read_set`` raises ``StaleKnowledge``.
        Returns the ids inserted.
        """

    async def previous_events(
        self, scope: Scope, before: datetime, *, exclude: Sequence[str] = (), limit: int = 1
    ) -> list[Event]:
        """The latest ``limit`` events of exactly this scope with ``occurred_at <=
        before``, other than the ``exclude`` ids, newest first."""

    async def get_events(self, tenant_id: str, ids: Sequence[str]) -> list[Event]: ...

    async def get_items(self, tenant_id: str, ids: Sequence[str]) -> list[MemoryItem]:
        """Items by id within a tenant, in the order asked; missing ids are left out."""

    async def count_items(self, flt: ItemFilter) -> int: ...

    async def list_item_ids(self, flt: ItemFilter, limit: int) -> list[str]:
        """Ids of the items ``flt`` admits (``since``/``until`` on ``occurred_at``;
        ``period`` on ``occurred_at`` or the event period),
        newest first, at most ``limit``: "forget everything from last week"."""

    async def load_scope(self, scope: Scope) -> None:
        """Bring what the searches of ``scope``'s (tenant, namespace, user) read up to
        date: SQLite loads the vector matrix and lexical index of a scope it has not
        cached (a cached one is refreshed by the searches), PostgreSQL has nothing to
        load. A read calls it before its steps' timeouts start, so the first read of a
        large scope is slow, never timed out."""

    async def lexical_search(
        self, flt: ItemFilter, terms: Sequence[str], limit: int
    ) -> list[Candidate]:
        """BM25 over item text for any of ``terms``; best first."""

    async def vector_search(
        self, flt: ItemFilter, vector: np.ndarray, limit: int
    ) -> list[Candidate]:
        """Exact cosine similarity (vectors are L2-normalised); best first. A search that
        fell back (SQLite: a large scope whose index failed, scanned exactly) returns a
        ``store.degraded.Candidates`` whose ``degraded`` says so."""

    async def vector_searches(
        self, searches: Sequence[tuple[ItemFilter, int]], vector: np.ndarray
    ) -> list[list[Candidate]]:
        """Several :meth:`vector_search` calls for one query vector and one (tenant,
        namespace, user) in one round trip: a read's main search and its per-kind
        sections (mandates, summaries, procedures)."""

    async def nearest(self, flt: ItemFilter, queries: np.ndarray) -> list[Candidate | None]:
        """For each row of ``queries``, the single most similar item (or None): the
        near-duplicate check of a whole write in one call. A search that fell back
        returns a ``store.degraded.Nearest`` whose ``degraded`` says so."""


class UsageStore(Protocol):
    """How items were used, counted in bulk in a narrow table of their own (``item_usage``,
    not the item rows): returned by a read (``access_count``), loaded into the packet of
    a turn with an answer (``loaded_count``), cited by that answer, marked correct or
    incorrect. ``ItemStore.get_items`` (and export) read the counters into
    ``MemoryItem.access_count``, ``loaded_count``, ``cited_count``, ``success_count``,
    ``failure_count`` and ``last_accessed_at``. Ids of another tenant, or of no item,
    are ignored."""

    async def record_access(self, tenant_id: str, ids: Sequence[str], at: datetime) -> None:
        """A read returned these items: access_count + 1, last_accessed_at = ``at``
        (unless later already)."""

    async def record_accesses(self, accesses: Sequence[Access]) -> None:
        """Reads counted together (one entry per item, of any tenants), in one
        transaction: each item's access_count + its ``count``, last_accessed_at = its
        ``at`` (unless later already); two entries for one item are a ``ValueError``."""

    async def record_usage(
        self, tenant_id: str, ids: Sequence[str], counts: Mapping[str, int]
    ) -> None:
        """Add ``counts`` (``cited_count``, ``success_count``, ... → increment) to each
        item; a name that is not a counter is a ``ValueError``."""

    async def usage_candidates(
        self, tenant_id: str, namespace: str, user_id: str, limit: int
    ) -> list[MemoryItem]:
        """The user's active items that were ever used or are of tier ``high`` (what
        promotion weighs), newest first, at most ``limit``, counters read in."""


class KnowledgeStore(Protocol):
    """Reading knowledge: facts, entities and aliases, relations, conflicts and
    history (written with the messages they come from: ``ItemStore.commit``)."""

    async def find_facts(self, query: FactQuery) -> list[Fact]:
        """Facts matching ``query``, newest first."""

    async def get_facts(self, tenant_id: str, ids: Sequence[str]) -> list[Fact]: ...

    async def fact_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> FactRows:
        """The user's live (active, aging) facts, newest first, in one query."""

    async def fact_rows_by_ids(self, tenant_id: str, ids: Sequence[str]) -> FactRows:
        """The facts ``ids`` (any status) in the form ``fact_rows`` gives, in the order
        asked: the shared levels' facts a user's read scores (``recall/levels.py``)."""

    async def scope_facts(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> ScopeFacts:
        """The user's facts of any status, newest first (at most ``limit``), decoded with
        their rows: what a read with a time filter picks from. This process's copy
        while no fact of the scope changed, in whatever process."""

    async def get_entities(self, tenant_id: str, ids: Sequence[str]) -> list[Entity]: ...

    async def find_aliases(self, view: KnowledgeView, names: Sequence[str] | None) -> list[Alias]:
        """Aliases in ``view`` whose normalised text is one of ``names`` (``None``: all of
        them, for fuzzy matching)."""

    async def find_relations(
        self, view: KnowledgeView, entity_ids: Sequence[str]
    ) -> list[Relation]:
        """Active edges in ``view`` touching any of ``entity_ids``."""

    async def graph_edges(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> list[GraphEdge]:
        """The active edges visible to the user (theirs and the namespace's shared ones),
        newest first, at most ``limit``, with their facts' evidence items: the whole
        graph a read expands over, in one query."""

    async def find_conflicts(
        self, view: KnowledgeView, *, open_only: bool = True
    ) -> list[FactConflict]:
        """The conflicts of ``view``'s user alone (of no user for ``None``; every user's
        with ``all_users``), oldest first."""

    async def get_conflict(self, tenant_id: str, conflict_id: str) -> FactConflict | None: ...

    async def get_history(self, tenant_id: str, target_id: str) -> list[HistoryEntry]:
        """Every recorded change to an item or fact, oldest first."""


class RecallFetchStore(Protocol):
    """What one read asks of the store in a single call where it would otherwise make
    two (each call is a thread hop on SQLite, a round trip on PostgreSQL)."""

    async def fact_rows_and_conflicts(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> tuple[FactRows, list[FactConflict]]:
        """``KnowledgeStore.fact_rows`` and the user's open conflicts
        (``find_conflicts``): what the read's constraint and fact steps need."""

    async def fact_rows_conflicts_shared(
        self, tenant_id: str, namespace: str, user_id: str, limit: int
    ) -> tuple[FactRows, list[FactConflict], FactRows]:
        """``fact_rows_and_conflicts`` of a user and the fact rows of no user (the
        namespace's and its agents', then the organisation's, ``recall/levels.py``), in
        one call: what a user's read needs."""

    async def aliases_and_graph(
        self, view: KnowledgeView, names: Sequence[str], limit: int
    ) -> tuple[list[Alias], list[GraphEdge]]:
        """``KnowledgeStore.find_aliases`` for ``names`` and, when any is found, the graph
        visible to ``view``'s user (``graph_edges``, at most ``limit`` edges; else none;
        ``all_users`` is not read): what the read's graph step needs."""

    async def items_and_facts(
        self, tenant_id: str, item_ids: Sequence[str], fact_ids: Sequence[str]
    ) -> tuple[list[MemoryItem], list[Fact]]:
        """``ItemStore.get_items`` and ``KnowledgeStore.get_facts``: what the read's
        packet shows."""


class EditStore(Protocol):
    """Changing what is stored after the fact: an item's edit, forgetting items
    with what was derived from them alone, a conflict's resolution, and history."""

    async def update_item(self, edit: ItemEdit) -> None:
        """Store ``edit.item``'s new state (text, importance, tier, status, kind,
        confidence, metadata; counters it raised are added to its usage) and append
        ``edit.history``, in one transaction. With ``edit.search_text`` the text changed:
        the lexical index and the embedding (``edit.embedding``) are replaced too.
        ``edit.expected`` is the state the edit was made from: when the stored text,
        importance, confidence, tier or status are no longer its, nothing is written and
        ``StaleKnowledge`` is raised (another edit came first; edit the new state).
        ``NotFound`` when the item does not exist in ``item.scope.tenant_id``."""

    async def forget_items(self, forgetting: ItemsForgetting) -> Forgotten:
        """Forget the tenant's items ``forgetting.ids`` into ``forgetting.status``
        (``deleted``: remove the rows and their index entries) with what was derived from
        them alone, in one transaction: facts whose every evidence item is forgotten are
        deleted or invalidated, with their graph edges; facts keeping a live source lose
        the forgotten ones from their evidence; summaries whose every source event is gone
        are forgotten like the items (rules in ``store/forgetting.py``). Writes one
        history entry per change (by ``forgetting.actor``: ``api``, or ``forgetting``
        for the policy). ``dry_run`` reads the same and writes nothing. Ids that do not
        exist in the tenant are left out of the answer."""

    async def resolve_conflict(self, resolution: ConflictResolution) -> None:
        """Store a conflict's resolved state and what it changes (``changes``: the losers
        superseded; ``silence_items``: the items of superseded constraints, as
        reconciliation silences them; ``stale_items``: the other losers' items, marked
        no longer true as reconciliation marks them) in one transaction. A stale fact
        revision raises ``StaleKnowledge``; a conflict that is no longer open
        ``Conflict``, a missing one ``NotFound``."""

    async def remove_aliases(self, deletion: AliasDeletion) -> AliasesRemoved:
        """Delete ``deletion.entity``'s alias rows of the normalised name
        ``deletion.alias`` that ``deletion.user_id``'s words use (``None``: the
        namespace's shared rows), rewrite the links of the same user's items (the items
        of no user for ``None``) linked to the entity as ``deletion.relink`` says, set
        the entities of the summaries covering an item rewritten as
        ``deletion.resummarise`` says, set the same user's facts of the entity as
        ``deletion.move`` says (their graph edges with them), and write
        ``deletion.then(removed, relinked, summaries, moved)`` (the history entries, a
        split-off entity and its alias), in one transaction; returns the rows removed
        and the profiles archived.
        ``NotFound("alias", alias)`` when there are none (nothing is written)."""

    async def give_alias(self, giving: AliasGiving) -> None:
        """Set the entities of the summaries covering an item of ``giving.relinked`` as
        ``giving.resummarise`` says and write ``giving.then(summaries)`` (the alias row,
        the items' links, the history), in one transaction."""

    async def append_history(self, entries: Sequence[HistoryEntry]) -> None:
        """Record changes made by other calls (forget's status changes and deletions)."""

    async def apply_consolidation(self, write: ConsolidationWrite) -> None:
        """Store a consolidation pass in one transaction: insert ``write.summaries``
        (with their index entries and provenance links), archive each replaced summary
        with ``superseded_by`` its successor, mark ``write.consolidated`` items
        consolidated (never deleting or copying them), append ``write.history`` and
        write ``write.knowledge`` (facts read from the groups, as ``commit`` writes a
        message's: its ``silence_items`` silenced, its ``stale_items`` marked no longer
        true). A replaced summary that is no longer active, an item of
        ``write.consolidated`` that no longer exists (deleted, or erased while the pass
        ran: its summaries would state it again), or a stale ``knowledge.read_set``,
        raises ``StaleKnowledge`` and nothing is written (another pass or write came
        first; run again)."""


class ProcedureStore(Protocol):
    """Procedural memory: learnt request → action patterns (``models/procedures.py``)
    and the conversation procedure detection reads them from."""

    async def conversation_events(
        self, scope: Scope, limit: int, *, by_agent: bool = False
    ) -> list[Event]:
        """The newest ``limit`` events of the scope's user (every role), oldest first:
        in ``occurred_at`` order, events of one time in the order they were stored.
        ``by_agent``: only the events of the scope's agent (of the user, or of every
        user when the scope has none)."""

    async def list_procedures(self, asked: ProcedureQuery) -> list[Procedure]:
        """The procedures ``asked`` names, most confident first (then most observed, then
        id), at most ``asked.limit``; with ``levels`` the limit counts only those."""

    async def get_procedures(self, tenant_id: str, ids: Sequence[str]) -> list[Procedure]:
        """Procedures by id within a tenant, in the order asked; missing ids left out."""

    async def save_procedures(
        self, created: Sequence[Procedure], updated: Sequence[tuple[Procedure, int]]
    ) -> None:
        """Insert ``created`` and store each of ``updated`` (a procedure and the revision
        it was read at; stored with that revision + 1), in one transaction. When an
        updated procedure's stored revision is no longer the one given (another run
        changed it first) or it is gone, or when an event a created procedure was
        learnt from no longer exists (erased with its user or level while the run
        decided), nothing is written and ``StaleKnowledge`` is raised: read again and
        decide again."""


class Store(
    Database,
    ItemStore,
    KnowledgeStore,
    RecallFetchStore,
    EditStore,
    TransferStore,
    EmbeddingStore,
    SessionStore,
    KeyStore,
    JobStore,
    LifecycleStore,
    ProcedureStore,
    ListingStore,
    UsageStore,
    RetentionStore,
    ReembedStore,
    Protocol,
):
    """A storage backend: every role."""
