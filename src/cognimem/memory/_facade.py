"""The ``Memory`` facade: the whole system behind one async object.

Each public method hands its call to the service that owns that job
(``cognimem.services``); this module wires them together, opens and closes what they
share, and holds the public signatures and their documentation."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Mapping, Sequence
from typing import Any, Self, Unpack

from cognimem.config import Settings
from cognimem.domain.layer import Domains
from cognimem.memory._directory import DirectoryCalls
from cognimem.memory._knowledge import KnowledgeCalls
from cognimem.memory._lifecycle import LifecycleCalls
from cognimem.memory._sessions import SessionCalls
from cognimem.memory._writes import WriteCalls
from cognimem.models import (
    ContextPacket,
    Event,
    MemoryItem,
    Turn,
)
from cognimem.models.admin import ErasureReport, ExportRecord, ForgetResult, ScopeStats
from cognimem.models.arguments import ScopeLike
from cognimem.models.browse_requests import (
    ExportKeywords,
    ForgetKeywords,
    UpdateArgs,
    UpdateKeywords,
)
from cognimem.models.clock import Clock, utc_now
from cognimem.models.knowledge import (
    FactConflict,
    HistoryEntry,
)
from cognimem.models.requests import (
    MessageLike,
    ReadArgs,
    ReadKeywords,
    ReadScopeKeywords,
    TurnArgs,
    TurnKeywords,
    split_scope,
)
from cognimem.providers.embeddings import Embedder
from cognimem.providers.llm import ChatLLM
from cognimem.queue import JobQueue
from cognimem.recall.packing import SectionSink
from cognimem.services.browsing import BrowseService
from cognimem.services.components import Components, open_parts
from cognimem.services.directory import DirectoryService
from cognimem.services.editing import EditService
from cognimem.services.jobs import JobService
from cognimem.services.lifecycle.consolidation import ConsolidationService
from cognimem.services.lifecycle.decay import DecayService
from cognimem.services.lifecycle.forgetting_policy import ForgettingPolicyService
from cognimem.services.lifecycle.operations import LifecycleJobService, Operation
from cognimem.services.lifecycle.promotion import PromotionService
from cognimem.services.reading import ReadService
from cognimem.services.sessions import SessionService
from cognimem.services.transfer import TransferService
from cognimem.services.writing import WriteService
from cognimem.store import Store


class Memory(WriteCalls, KnowledgeCalls, LifecycleCalls, DirectoryCalls, SessionCalls):
    """cognimem's engine. Open it with :meth:`open` and use it as an async context manager::

    async with Memory.open("sqlite:///memory.db") as mem:
        await mem.write("I'm allergic to shellfish", user_id="u1")
        packet = await mem.read("what should I cook?", user_id="u1")
    """

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: Settings | None = None,
        *,
        clock: Clock = utc_now,
        queue: JobQueue | None = None,
        llm: ChatLLM | None = None,
        domains: Domains | None = None,
    ) -> None:
        self._parts = parts = Components(
            store, embedder, settings or Settings(), clock, queue, llm, domains
        )
        self._sessions = SessionService(parts)
        self._writing = WriteService(parts, self._sessions)
        self._reading = ReadService(parts, self._writing)
        self._revision = self._reading.revision
        self._procedures = self._reading.procedures
        self._browsing = BrowseService(parts)
        self._directory = DirectoryService(parts)
        self._editing = EditService(parts, self._browsing, self._reading)
        self._transfer = TransferService(parts)
        self._consolidation = ConsolidationService(parts)
        self._decay = DecayService(parts)
        self._promotion = PromotionService(parts)
        self._forgetting = ForgettingPolicyService(parts, self._consolidation)
        # the lifecycle operations by name: one table, each a service's ``run`` (an
        # ``OperationService``'s) or revision's ``revise``, each an ``Operation``
        operations: dict[str, Operation] = {
            "consolidate": self._consolidation.run,
            "revise": self._revision.revise,
            "procedures": self._reading.procedures.run,
            "decay": self._decay.run,
            "promote": self._promotion.run,
            "forget_policy": self._forgetting.run,
        }
        self._lifecycle = LifecycleJobService(parts, operations)
        self._jobs = JobService(parts, self._writing, self._lifecycle)

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        clock: Clock = utc_now,
        llm: ChatLLM | None = None,
    ) -> Memory:
        """Build a Memory from a database URL and settings (read from the environment).

        The internal LLM comes from ``settings.llm`` unless ``llm`` is given; with none,
        rule-based extraction does the work. With ``settings.domain_mapping`` the domain
        layers are read from that file, or from each mapping file of that folder (one per
        tenant; connected, and checked against the live schema, when the Memory opens)."""
        settings = settings or Settings()
        domains = None
        if settings.domain_mapping is not None:
            domains = Domains.from_path(settings.domain_mapping)
        store, cached, queue, llm = open_parts(url, settings, embedder=embedder, llm=llm)
        return cls(store, cached, settings, clock=clock, queue=queue, llm=llm, domains=domains)

    @property
    def settings(self) -> Settings:
        return self._parts.settings

    @property
    def store(self) -> Store:
        return self._parts.store

    @property
    def embedder(self) -> Embedder:
        return self._parts.embedder

    @property
    def queue(self) -> JobQueue | None:
        return self._parts.queue

    @property
    def llm(self) -> ChatLLM | None:
        return self._parts.llm

    @property
    def domains(self) -> Domains | None:
        """The domain layers by tenant (``settings.domain_mapping``), if one is mapped."""
        return self._parts.domains

    @property
    def background_failures(self) -> dict[str, int]:
        """How many times each background task of this process failed, by task:
        ``access_flush`` (writing the reads' access counts) and, on PostgreSQL,
        ``planner_analyze`` (the ANALYZE after bulk writes). Each was logged."""
        failures = {"access_flush": self._parts.access.failures}
        analyze = getattr(self._parts.store, "analyze_failures", None)
        if isinstance(analyze, int):
            failures["planner_analyze"] = analyze
        return failures

    @property
    def is_open(self) -> bool:
        """Whether ``start`` has connected this Memory (and ``aclose`` has not closed it)."""
        return self._parts.opened

    async def start(self) -> None:
        """Connect, migrate and check the embedding model against the database."""
        await self._parts.open()

    async def aclose(self) -> None:
        """Close the reader's cross-encoders, the store, the queue, the embedder and
        the LLM."""
        await self._reading.aclose()
        await self._parts.close()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- reads: services.reading -------------------------------------------------------
    async def read(
        self,
        query: str,
        *,
        on_section: SectionSink | None = None,
        **options: Unpack[ReadKeywords],
    ) -> ContextPacket:
        """The memories that matter for ``query``, best first, inside ``max_tokens``,
        with the relevant constraints and facts in sections. A query naming a period
        ("last week") reads it, at ``reference_time`` (default now) in the user's
        ``timezone`` (IANA; UTC). ``ranking``: ``RankingOverrides`` over the preset and
        ``recall.ranking``. ``explain=True`` adds each candidate's signals, score and
        step, and the effective config. One user's read (``user_id``), the tenant's
        (``all_users``), or one shared level's alone — an agent's (``agent_id`` with no
        user), the namespace's (``scope={"level": "namespace"}``) or the organisation's
        (``scope={"level": "organisation"}``), no user's memories; none of them is
        ``InvalidInput``. A ``session_id`` ranks that session up, reading the user's
        others too (``session_only=True``: it alone). ``on_section(name, entries)`` is
        awaited with each section once final.

        Time (bi-temporal): ``as_of`` reads the facts valid then (superseded ones too)
        and the items that tell of it or earlier, as a question naming a period does.
        ``as_of_recorded`` reads what the memory knew then, for audit: facts recorded by
        then, later supersessions ignored, items said by then. Both need a UTC offset
        (``InvalidInput``); ``meta["time_filter"]`` says which filter applied."""
        where, rest = split_scope(options)
        target, level = self._reading.read_scope(query, **where)
        args = ReadArgs(query=query, scope=target, **rest)
        return await self._reading.read(args, on_section, level=level)

    async def turn(
        self,
        user_message: MessageLike,
        assistant_message: MessageLike | None = None,
        **options: Unpack[TurnKeywords],
    ) -> Turn:
        """One conversational turn: the packet for the user's message (read before the
        turn is stored, at the message's time), then both messages remembered. Both are
        checked before anything is read or written. It reads like :meth:`read` (a user,
        or ``all_users=True``) and stores both messages under the scope's user (none
        with ``all_users``). Its read treats ``session_id`` as :meth:`read` does
        (``session_only=True``: that session alone)."""
        where, rest = split_scope(options)
        target = self._reading.turn_scope(user_message, assistant_message, **where)
        args = TurnArgs(
            user_message=user_message, assistant_message=assistant_message, scope=target, **rest
        )
        return await self._reading.turn(args)

    # -- lookups and listings: services.browsing ---------------------------------------
    async def get(
        self, item_id: str, *, tenant_id: str = "default", scope: ScopeLike = None
    ) -> MemoryItem:
        """One memory item by id (``NotFound``), whatever its status. With ``scope``
        (its namespace, and its user, agent and session when named) an item outside it
        is ``NotFound``, as over HTTP, where a call by id names its namespace."""
        return await self._browsing.get(item_id, tenant_id=tenant_id, scope=scope)

    async def get_events(
        self, event_ids: Sequence[str], *, tenant_id: str = "default"
    ) -> list[Event]:
        """The raw events of these ids that exist."""
        return await self._browsing.get_events(event_ids, tenant_id=tenant_id)

    async def history(self, target_id: str, *, tenant_id: str = "default") -> list[HistoryEntry]:
        """Every recorded change to an item or a fact, oldest first."""
        return await self._browsing.history(target_id, tenant_id=tenant_id)

    async def stats(self, **options: Unpack[ReadScopeKeywords]) -> ScopeStats:
        """What the scope holds: events, items by status and kind, facts by status,
        entities, active relations, open conflicts, sessions by status. One user's, or
        every user's of the tenant with ``all_users=True``."""
        return await self._browsing.stats(options)

    # -- edits, forgetting, conflicts: services.editing --------------------------------
    async def update(self, item_id: str, **options: Unpack[UpdateKeywords]) -> MemoryItem:
        """Edit one memory, or say what it got right or wrong; returns its new state.

        ``text`` is checked like a write (and its PII redacted as configured), then
        embedded and indexed again; facts already derived from the old text stay.
        ``feedback``: ``correct`` counts a success and nudges the confidence up,
        ``incorrect`` counts a failure and silences the memory (kept, never recalled),
        ``outdated`` archives it. Each call that changes something appends one history
        entry (actor ``api``) with the changed fields before and after."""
        return await self._editing.update(item_id, UpdateArgs(**options))

    async def delete(self, item_id: str, *, tenant_id: str = "default") -> None:
        """Delete one memory item (its raw events stay in L1), with the facts, graph edges
        and summaries derived from it alone, as ``forget`` does."""
        await self._editing.delete(item_id, tenant_id=tenant_id)

    async def forget(self, **options: Unpack[ForgetKeywords]) -> ForgetResult:
        """Forget memories of the scope chosen by ``ids``, by ``query`` or by a time range
        (``since``/``until`` on when they happened) — exactly one of the three.

        ``mode``: ``delete`` removes the rows (their raw events stay), ``archive`` keeps
        them out of every read (``get`` shows them archived), ``silence`` keeps them but
        they are never recalled. A query forgets what a read of it returns (the items,
        not the sections; active memories only), scoring at least ``FORGET_FLOOR`` of the
        best one, and of those only the ones whose own text holds a content word of the
        query or whose similarity to it is at least ``FORGET_MIN_SIMILARITY``: a query
        that matches nothing forgets nothing. At most ``limit`` memories (newest first
        for a time range); ``dry_run`` only says which. Each memory forgotten gets a
        history entry; a forget that matches nothing returns an empty list. Like a read,
        it needs ``user_id``, or ``all_users=True`` to forget across every user."""
        return await self._editing.forget(options)

    async def resolve_conflict(
        self,
        conflict_id: str,
        *,
        winner_fact_id: str | None = None,
        note: str = "",
        tenant_id: str = "default",
    ) -> FactConflict:
        """Settle a conflict between facts. With ``winner_fact_id`` the conflict's other
        facts are superseded by it (as reconciliation supersedes an older value); without
        it both stay live (``both_valid``). Resolving a conflict again the same way
        returns it unchanged; another way is a ``Conflict``."""
        return await self._editing.resolve_conflict(
            conflict_id, winner_fact_id=winner_fact_id, note=note, tenant_id=tenant_id
        )

    # -- erasure, export, import: services.transfer ------------------------------------
    async def erase_user(self, user_id: str, *, tenant_id: str = "default") -> ErasureReport:
        """Erase a user from the tenant, in every namespace: every stored row derived
        from them (events, items with their index entries, facts, their entities and
        aliases, relations, conflicts, history, sessions), then their jobs, then the
        cached embeddings of their texts (the store's table, the Redis tier, this
        process's memory), and last the deleted bytes in the database files (SQLite's
        WAL is truncated). ``removed`` counts rows per table, ``jobs`` and
        ``embeddings`` included."""
        return await self._transfer.erase_user(user_id, tenant_id=tenant_id)

    async def erase_level(
        self, *, scope: ScopeLike = None, agent_id: str | None = None
    ) -> ErasureReport:
        """Erase one shared level of the tenant: an agent's in every namespace
        (``agent_id`` with no user), a namespace's (``scope={"level": "namespace",
        "namespace": ...}``) or the organisation's (``scope={"level": "organisation"}``,
        every namespace's; never a namespace's level) — its events, items, facts,
        relations, conflicts, history, sessions, procedures and lifecycle runs, the
        entities only it named, in one transaction; then its jobs (ingest and lifecycle,
        in any state: ``removed["jobs"]``) and the cached embeddings of its texts. No
        user's memory and no other level changes. A user or a session in the scope is
        ``InvalidInput`` (a user: ``erase_user``)."""
        return await self._transfer.erase_level(scope, agent_id=agent_id)

    def export(self, **options: Unpack[ExportKeywords]) -> AsyncIterator[ExportRecord]:
        """Every stored row of the scope as export records, streamed: a ``header`` first
        (format version, schema version, embedding model), then sessions, events, items,
        entities, aliases, facts, relations, conflicts, history and procedures. The user's
        rows, or with ``all_users=True`` every row of the namespace (every namespace with
        ``all_namespaces``). ``import_records`` takes the same records back."""
        return self._transfer.export(options)

    async def import_records(
        self,
        records: Iterable[ExportRecord | Mapping[str, Any]]
        | AsyncIterable[ExportRecord | Mapping[str, Any]],
        *,
        tenant_id: str = "default",
    ) -> dict[str, int]:
        """Import export records into ``tenant_id`` (whatever tenant they came from), in
        batches: each batch is validated first (``InvalidInput`` names the bad line and
        nothing of its batch is stored), its item and fact texts are embedded with this
        Memory's embedder, its ids are made the tenant's (one it holds stays, any other
        becomes one derived from the tenant and the id, references included:
        ``store.transfer.TenantIds``), and rows already stored (by id) are skipped, so
        importing twice inserts nothing and another tenant's export imports whole.
        Returns how many rows of each type were inserted."""
        return await self._transfer.import_records(records, tenant_id=tenant_id)
