"""The ``Store`` protocol: what every backend (SQLite, PostgreSQL) provides.

Stores return candidates with raw scores; ranking is done by pure functions in
``cognimem.recall``. Every scope, kind, status and time filter is applied inside the
store's query, never after it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from cognimem.models import Event, ItemKind, ItemStatus, MemoryItem, MessageResult, Scope
from cognimem.models.admin import ApiKey, ErasureReport, ExportRecord, ScopeStats, Session
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
from cognimem.store.forgetting import Forgotten


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


@dataclass(frozen=True)
class Candidate:
    """An item id with the raw score one retrieval method gave it (higher is better)."""

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

    def payload(self) -> dict[str, Any]:
        """The job's payload (``WriteFunnel.process`` reads it); it names the user and
        namespace so an erasure can purge the job (``JobQueue.purge_user``)."""
        return {
            "event_ids": list(self.event_ids),
            "profile": self.profile,
            "user_id": self.user_id,
            "namespace": self.namespace,
        }


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
        )
        for job_id, ms in grouped.items()
    ]


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
    revisions. The commit checks it still holds, else raises ``StaleKnowledge``."""

    tenant_id: str
    namespace: str
    user_id: str | None
    key: str
    facts: frozenset[tuple[str, int]]


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
    read_set: list[KeyState] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (
            self.entities or self.aliases or self.facts or self.fact_updates or self.relations
            or self.conflicts or self.history or self.silence_items
        )  # fmt: skip


@dataclass
class FactRows:
    """The user's live facts in the compact form a read scores them in: parallel
    lists, newest first, and their embeddings as one matrix (a zero row where a fact
    has none)."""

    ids: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    scope_tags: list[list[str]] = field(default_factory=list)
    words: list[frozenset[str]] = field(default_factory=list)  # of text, value, predicate
    matrix: np.ndarray | None = None
    # word / tag / category → row numbers, built on first use: a cached FactRows serves
    # many reads, and each read then scores every row with a few array operations
    _postings: tuple[dict[str, np.ndarray], dict[str, np.ndarray], np.ndarray] | None = field(
        default=None, repr=False, compare=False
    )

    def _index(self) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], np.ndarray]:
        if self._postings is None:
            words: dict[str, list[int]] = {}
            tags: dict[str, list[int]] = {}
            pairs = zip(self.words, self.scope_tags, strict=True)
            for i, (row_words, row_tags) in enumerate(pairs):
                for w in row_words:
                    words.setdefault(w, []).append(i)
                for t in set(row_tags):
                    tags.setdefault(t, []).append(i)
            self._postings = (
                {w: np.asarray(rows, dtype=np.int64) for w, rows in words.items()},
                {t: np.asarray(rows, dtype=np.int64) for t, rows in tags.items()},
                np.asarray(self.categories, dtype=object),
            )
        return self._postings

    def word_share(self, terms: frozenset[str]) -> np.ndarray:
        """Per row: the share of ``terms`` among the row's words (0 without terms)."""
        counts = np.zeros(len(self.ids), dtype=np.float64)
        if not terms:
            return counts
        words = self._index()[0]
        for term in terms:
            rows = words.get(term)
            if rows is not None:
                counts[rows] += 1.0
        return counts / len(terms)

    def tagged(self, domains: frozenset[str]) -> np.ndarray:
        """Per row: whether one of its scope tags is among ``domains``."""
        hit = np.zeros(len(self.ids), dtype=bool)
        tags = self._index()[1]
        for domain in domains:
            rows = tags.get(domain)
            if rows is not None:
                hit[rows] = True
        return hit

    def in_categories(self, values: frozenset[str]) -> np.ndarray:
        """Per row: whether its category is one of ``values``."""
        return np.isin(self._index()[2], list(values))


@dataclass(frozen=True)
class FactQuery:
    """Which facts to list. Facts belong to the user: (tenant, namespace, user_id);
    agent and session are provenance, not filters. ``keys`` match exactly or as a prefix
    of multi-valued keys (``user:preference:cuisine`` finds ``...:cuisine:italian``).
    ``all_users`` lists every user's facts and those of no user (``user_id`` is then
    ignored); without it ``user_id=None`` means the facts of no user."""

    tenant_id: str
    namespace: str
    user_id: str | None
    all_users: bool = False
    keys: tuple[str, ...] | None = None
    statuses: tuple[FactStatus, ...] | None = (FactStatus.ACTIVE, FactStatus.AGING)
    categories: tuple[FactCategory, ...] | None = None
    limit: int = 1_000


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


class Store(Protocol):
    """A storage backend. All methods are coroutines; none block the event loop."""

    async def open(self) -> None:
        """Connect and run pending migrations."""

    async def close(self) -> None: ...

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

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

    async def previous_event(
        self, scope: Scope, before: datetime, *, exclude: Sequence[str] = ()
    ) -> Event | None:
        """The latest event of exactly this scope with ``occurred_at <= before``, other
        than the ``exclude`` ids."""

    async def add_items(
        self,
        items: Sequence[PendingItem],
        knowledge: Knowledge | None = None,
        merges: Mapping[str, Sequence[str]] | None = None,
        *,
        event_ids: Sequence[str] = (),
    ) -> list[str]:
        """Attach items, merges (event id → existing item ids) and ``knowledge`` to raw
        events that are already stored (async ingestion), and mark those events and
        ``event_ids`` (the job's events that yield no item, e.g. all secret) processed.

        In one transaction. Events already processed are skipped — and if any event of
        the call was, nothing is written at all — so a job applied twice changes nothing.
        Nor is anything written when an event no longer exists (its user was erased
        while the job waited). A stale ``knowledge.read_set`` raises ``StaleKnowledge``.
        Returns the ids inserted.
        """

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

    async def get_items(self, tenant_id: str, ids: Sequence[str]) -> list[MemoryItem]:
        """Items by id within a tenant, in the order asked; missing ids are left out."""

    async def get_events(self, tenant_id: str, ids: Sequence[str]) -> list[Event]: ...

    async def delete_items(self, tenant_id: str, ids: Sequence[str]) -> int:
        """Remove items (and their index entries); returns how many existed."""

    async def forget_items(
        self,
        tenant_id: str,
        ids: Sequence[str],
        status: ItemStatus,
        *,
        now: datetime,
        dry_run: bool = False,
    ) -> Forgotten:
        """Forget the tenant's items ``ids`` into ``status`` (``deleted``: remove the rows
        and their index entries) with what was derived from them alone, in one
        transaction: facts whose every evidence item is forgotten are deleted or
        invalidated, with their graph edges; facts keeping a live source lose the
        forgotten ones from their evidence; summaries whose every source event is gone
        are forgotten like the items (rules in ``store/forgetting.py``). Writes one
        history entry per change (actor ``api``). ``dry_run`` reads the same and writes
        nothing. Ids that do not exist in the tenant are left out of the answer."""

    async def count_items(self, flt: ItemFilter) -> int: ...

    async def lexical_search(
        self, flt: ItemFilter, terms: Sequence[str], limit: int
    ) -> list[Candidate]:
        """BM25 over item text for any of ``terms``; best first."""

    async def vector_search(
        self, flt: ItemFilter, vector: np.ndarray, limit: int
    ) -> list[Candidate]:
        """Exact cosine similarity (vectors are L2-normalised); best first."""

    async def vector_searches(
        self, searches: Sequence[tuple[ItemFilter, int]], vector: np.ndarray
    ) -> list[list[Candidate]]:
        """Several :meth:`vector_search` calls for one query vector and one (tenant,
        namespace, user) in one round trip: a read's main search and its per-kind
        sections (mandates, summaries, procedures)."""

    async def nearest(self, flt: ItemFilter, queries: np.ndarray) -> list[Candidate | None]:
        """For each row of ``queries``, the single most similar item (or None): the
        near-duplicate check of a whole write in one call."""

    async def record_access(self, tenant_id: str, ids: Sequence[str], at: datetime) -> None:
        """Bulk: access_count + 1, loaded_count + 1, last_accessed_at = at."""

    # -- knowledge (facts, entities, relations, conflicts, history) ------------------
    async def find_facts(self, query: FactQuery) -> list[Fact]:
        """Facts matching ``query``, newest first."""

    async def get_facts(self, tenant_id: str, ids: Sequence[str]) -> list[Fact]: ...

    async def fact_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> FactRows:
        """The user's live (active, aging) facts, newest first, in one query."""

    async def set_item_status(
        self, tenant_id: str, ids: Sequence[str], status: ItemStatus
    ) -> int: ...

    async def find_aliases(
        self,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        names: Sequence[str] | None,
        *,
        all_users: bool = False,
    ) -> list[Alias]:
        """Aliases visible to the user (theirs and the namespace's shared ones; every
        user's with ``all_users``) whose normalised text is one of ``names`` (``None``:
        all of them, for fuzzy matching)."""

    async def get_entities(self, tenant_id: str, ids: Sequence[str]) -> list[Entity]: ...

    async def find_relations(
        self,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        entity_ids: Sequence[str],
        *,
        all_users: bool = False,
    ) -> list[Relation]:
        """Active edges touching any of ``entity_ids``, visible to the user (theirs and
        the shared ones; every user's with ``all_users``)."""

    async def graph_edges(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> list[GraphEdge]:
        """The active edges visible to the user (theirs and the namespace's shared ones),
        newest first, at most ``limit``, with their facts' evidence items: the whole
        graph a read expands over, in one query."""

    async def find_conflicts(
        self,
        tenant_id: str,
        namespace: str,
        user_id: str | None,
        *,
        open_only: bool = True,
        all_users: bool = False,
    ) -> list[FactConflict]:
        """The user's conflicts (of no user for ``None``; every user's with
        ``all_users``), oldest first."""

    async def get_history(self, tenant_id: str, target_id: str) -> list[HistoryEntry]:
        """Every recorded change to an item or fact, oldest first."""

    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Embedding cache lookup, one query for the whole batch."""

    async def put_embeddings(self, model: str, vectors: Mapping[str, np.ndarray]) -> None: ...

    # -- lifecycle: edits, listing, sessions, statistics, erasure, export ------------
    async def list_item_ids(self, flt: ItemFilter, limit: int) -> list[str]:
        """Ids of the items ``flt`` admits (``since``/``until`` on ``occurred_at``;
        ``period`` on ``occurred_at`` or the event period),
        newest first, at most ``limit``: "forget everything from last week"."""

    async def update_item(
        self,
        item: MemoryItem,
        *,
        expected: MemoryItem,
        history: HistoryEntry,
        embedding: np.ndarray | None = None,
        search_text: str | None = None,
    ) -> None:
        """Store ``item``'s new state (text, importance, tier, status, confidence,
        counters, metadata) and append ``history``, in one transaction. With
        ``search_text`` the text changed: the lexical index and the embedding
        (``embedding``) are replaced too. ``expected`` is the state the edit was made
        from: when the stored text, importance, confidence, tier, status or counters
        are no longer its, nothing is written and ``StaleKnowledge`` is raised (another
        edit came first; edit the new state). ``NotFound`` when the item does not exist
        in ``item.scope.tenant_id``."""

    async def get_conflict(self, tenant_id: str, conflict_id: str) -> FactConflict | None: ...

    async def resolve_conflict(
        self,
        conflict: FactConflict,
        fact_updates: Sequence[FactUpdate],
        history: Sequence[HistoryEntry],
        silence_items: Sequence[str] = (),
    ) -> None:
        """Store a conflict's resolved state and the facts it changes (the losers
        superseded; ``silence_items``: the items of superseded constraints, as
        reconciliation silences them) in one transaction. A stale fact revision raises
        ``StaleKnowledge``; a conflict that is no longer open ``Conflict``, a missing
        one ``NotFound``."""

    async def append_history(self, entries: Sequence[HistoryEntry]) -> None:
        """Record changes made by other calls (forget's status changes and deletions)."""

    async def put_session(self, session: Session) -> None:
        """Insert or replace a session (by tenant, namespace and id)."""

    async def get_session(
        self, tenant_id: str, namespace: str, session_id: str
    ) -> Session | None: ...

    async def list_sessions(self, scope: Scope, limit: int) -> list[Session]:
        """Sessions in the scope (user / agent filter when set), newest first."""

    async def scope_stats(self, scope: Scope) -> ScopeStats: ...

    async def erase_user(self, tenant_id: str, user_id: str) -> ErasureReport:
        """Remove everything derived from this user, in every namespace, in one
        transaction: events, items and their index rows and vectors, facts, the user's
        entities and aliases, relations, conflicts, history, sessions, idempotency
        records, the user's cache version counters. Cached vector matrices and fact
        lists of the user are dropped. The report's ``content_hashes`` are the
        embedding-cache keys of the erased texts (see ``delete_embeddings``)."""

    async def schema_version(self) -> int:
        """The highest migration applied (the export header records it)."""

    def export_records(
        self, scope: Scope, *, all_namespaces: bool = False
    ) -> AsyncIterator[ExportRecord]:
        """Every stored row of the scope (its tenant and namespace, or every namespace
        with ``all_namespaces``; the user's rows when ``scope.user_id`` is set, agent and
        session are ignored), without the header line, streamed in pages: sessions,
        events, items, entities, aliases, facts, relations, conflicts, history. Aliases
        of a user are theirs and the shared aliases of their entities; history is that
        of the exported items, facts and conflicts."""

    async def held_ids(self, tenant_id: str, ids: Sequence[str]) -> set[str]:
        """Which of ``ids`` are rows of the tenant: events, items, entities, facts,
        relations, conflicts or history entries."""

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

    async def delete_embeddings(self, hashes: Sequence[str]) -> int:
        """Drop cached embeddings of these content hashes (every model)."""

    async def flush_deleted(self) -> None:
        """Make what was deleted unreadable in the database's files too (the last step
        of an erasure). SQLite zeroes freed space as it deletes (``secure_delete``);
        this copies the WAL into the main file and truncates it, so no old page
        version keeps the text (``StoreUnavailable`` if a reader blocks it: retry).
        PostgreSQL keeps dead tuples until it vacuums; this does nothing there."""

    # -- API keys ----------------------------------------------------------------------
    async def put_api_key(self, key: ApiKey) -> None: ...

    async def find_api_key(self, key_hash: str) -> ApiKey | None: ...

    async def list_api_keys(self, tenant_id: str | None) -> list[ApiKey]: ...

    async def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey:
        """Mark a key revoked (``NotFound`` if there is no such key); returns it."""
