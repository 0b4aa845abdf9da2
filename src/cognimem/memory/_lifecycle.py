"""``Memory``'s lifecycle and job calls (a mixin, so ``memory/_facade.py`` keeps to the write,
read and browse surface): consolidation and revision called directly, an operation run
as a job or as a dry run, the job listing, the operation table, one scheduler tick, and
the worker's calls (a job's state, one job, the stranded-job sweep, the worker loop).
The work is the services' (``consolidation``, ``revision``, ``procedures``,
``lifecycle.operations``, ``jobs``). ``Memory.reembed`` moves a database to another embedding
model (``reembedding``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Unpack

from cognimem.config import Settings
from cognimem.errors import UsageError
from cognimem.models import MemoryItem
from cognimem.models.admin import ReembedResult
from cognimem.models.arguments import (
    ScopeLike,
    make_level_scope,
    make_read_scope,
    make_scope,
    make_write_scope,
)
from cognimem.models.lifecycle import (
    ConsolidationResult,
    DecayResult,
    ForgettingResult,
    LifecycleRun,
    MandateCandidate,
    ProcedureResult,
    PromotionResult,
    RevisionResult,
)
from cognimem.models.lifecycle_requests import (
    ConsolidateKeywords,
    JobListArgs,
    JobListKeywords,
    LevelRunKeywords,
    MandateKeywords,
    PolicyRunKeywords,
    ProcedureListKeywords,
    ProcedureRunKeywords,
    ReviseKeywords,
    ReviseOptions,
    RunLifecycleKeywords,
    UserRunKeywords,
    run_of,
)
from cognimem.models.procedures import Procedure
from cognimem.providers.embeddings import Embedder
from cognimem.queue import Job
from cognimem.services.components import configured_embedder
from cognimem.services.jobs import SWEEP_LIMIT, JobObserver, JobService
from cognimem.services.lifecycle.consolidation import ConsolidationService
from cognimem.services.lifecycle.decay import DecayService
from cognimem.services.lifecycle.forgetting_policy import ForgettingPolicyService
from cognimem.services.lifecycle.operations import (
    LifecycleJobService,
    LifecycleObserver,
    Operation,
)
from cognimem.services.lifecycle.procedures import ProcedureService
from cognimem.services.lifecycle.promotion import PromotionService
from cognimem.services.lifecycle.revision import RevisionService
from cognimem.services.reembedding import reembed
from cognimem.store import open_store


class LifecycleCalls:
    _lifecycle: LifecycleJobService
    _consolidation: ConsolidationService
    _revision: RevisionService
    _procedures: ProcedureService
    _decay: DecayService
    _promotion: PromotionService
    _forgetting: ForgettingPolicyService
    _jobs: JobService

    # -- lifecycle: services.consolidation ---------------------------------------------
    async def consolidate(
        self, scope: ScopeLike = None, **options: Unpack[ConsolidateKeywords]
    ) -> ConsolidationResult:
        """Consolidate one user's unconsolidated episodes into summaries (a gist per
        session window and per recurring topic) and the user's facts into profiles (one
        per subject), every sentence carrying the events it states; the episodes are
        marked consolidated, never deleted. Extractive without an LLM, one structured
        call per group with one (a failed call is written extractively and listed in
        ``degraded``). Running it again changes nothing unless something new came in; a
        group whose summary changes replaces it (the old one archived, in history).
        ``dry_run`` returns what would change and writes nothing; ``progress`` receives
        the fraction done. Needs ``user_id``, or one shared level: ``agent_id`` alone
        (the agent's memories), or ``scope={"level": "namespace"}`` or
        ``{"level": "organisation"}`` (the namespace's, the organisation's); a shared
        level's run reads and writes that level alone."""
        target, run = run_of(make_write_scope, scope, options)
        return await self._consolidation.run(target, **run.keywords())

    # -- lifecycle: services.revision ---------------------------------------------------
    async def revise(self, **options: Unpack[ReviseKeywords]) -> RevisionResult:
        """Revision over one user's recent turns: each user message said since ``since``
        (default: the last day) is read for again at its time, and the facts the read
        retrieves are checked against it — an affirmation reinforces a fact, a
        correction invalidates it (``docs/lifecycle.md``). ``turn`` does the same for
        its own message. With ``use_llm`` and an LLM configured, it is asked about the
        facts the rules find nothing about (a failure is reported in ``degraded``). With
        ``dry_run`` nothing changes and the result says what would."""
        target, run = run_of(make_read_scope, None, options, ReviseOptions)
        return await self._revision.revise(target, **run.keywords())

    # -- lifecycle: services.procedures -------------------------------------------------
    async def detect_procedures(
        self, scope: ScopeLike = None, **options: Unpack[ProcedureRunKeywords]
    ) -> ProcedureResult:
        """Learn one user's procedures: requests met again and again with the same
        action (the same tool calls, from an assistant message's
        ``metadata["tool_calls"]`` or tool-role messages; else the same answer) become
        procedures, and procedures seen again are reinforced (observed count and
        confidence up, the events added to their provenance). Tool-discovery writes
        that say "To X, do Y" count as observations too. No LLM. Running it again over
        the same events changes nothing; ``dry_run`` says what would change
        (``docs/lifecycle.md``). The ``procedures`` lifecycle operation. With
        ``agent_id`` the procedures are the agent's, learnt from its turns with the user
        (or with every user: ``all_users=True``), and every user's read made with that
        agent matches them."""
        target, run = run_of(make_read_scope, scope, options)
        return await self._procedures.run(target, **run.keywords())

    async def procedures(self, **options: Unpack[ProcedureListKeywords]) -> list[Procedure]:
        """The user's learnt procedures (every user's with ``all_users=True``; an
        agent's with ``agent_id`` and ``all_users=True``), most confident first, each
        with its trigger, action, observed count, confidence and the events it was
        learnt from."""
        return await self._procedures.list_procedures(options)

    # -- lifecycle: services.decay, services.promotion ---------------------------------
    async def decay(
        self, scope: ScopeLike = None, **options: Unpack[LevelRunKeywords]
    ) -> DecayResult:
        """Passive decay of one user's live facts, recorded as their status
        (``docs/lifecycle.md``): a fact whose confidence decayed below 0.35 since it was
        last validated (half-life by category) becomes ``aging``, an aging one above it
        again ``active``, and one whose every evidence item was marked incorrect
        ``invalidated``. Reads compute the decay at their own reference time whether
        this ran or not. ``dry_run`` returns exactly the changes it would make (each
        with its effective confidence and reason) and writes nothing. One shared level's
        facts alone with ``agent_id`` and no user, or ``scope={"level": "namespace"}``
        or ``{"level": "organisation"}``."""
        target, run = run_of(make_level_scope, scope, options)
        return await self._decay.run(target, **run.keywords())

    async def promote(
        self, scope: ScopeLike = None, **options: Unpack[UserRunKeywords]
    ) -> PromotionResult:
        """Promotion by utility over one user's used items (``docs/lifecycle.md``):
        items used often (cited by answers, marked correct) move up a tier, items loaded
        often and never used, or high ones unused for 90 days, move down; mandate
        candidates are listed in the result, never applied. ``dry_run`` returns the
        changes it would make and writes nothing."""
        target, run = run_of(make_scope, scope, options)
        return await self._promotion.run(target, **run.keywords())

    async def mandate_candidates(
        self, scope: ScopeLike = None, **options: Unpack[MandateKeywords]
    ) -> list[MandateCandidate]:
        """The user's memories proposed as mandates: tier ``high``, used (cited or
        marked correct) at least 10 times, never marked incorrect. Nothing is applied:
        an admin accepts one with :meth:`accept_mandate`."""
        return await self._promotion.mandate_candidates(make_scope(scope, **options))

    async def accept_mandate(self, item_id: str, *, tenant_id: str = "default") -> MemoryItem:
        """Accept a mandate candidate: the memory becomes a mandate (kind ``mandate``,
        tier ``always``: in every packet's Always section), with a history entry
        (``mandate_accepted``, actor ``api``). A memory that is not a current candidate
        is ``InvalidInput(field="item_id")``; an unknown or inactive one ``NotFound``."""
        return await self._promotion.accept_mandate(item_id, tenant_id=tenant_id)

    # -- lifecycle: services.forgetting_policy ----------------------------------------
    async def forget_by_policy(self, **options: Unpack[PolicyRunKeywords]) -> ForgettingResult:
        """Apply the forgetting policy (``settings.lifecycle.forgetting``) to one user's
        memories: every item is scored (importance, recency by kind, access, confidence,
        kind, novelty, live dependents counted by the store) and kept, decayed,
        silenced, compressed into a summary, archived or deleted by its score band;
        mandates, active constraints and items with live dependents are always kept.
        ``dry_run`` returns the plan (each item's score, action and reason) and changes
        nothing. The scheduled lifecycle operation ``forget_policy`` runs this;
        :meth:`forget` (by ids, query or time range) is the user's own call. One shared
        level's memories alone with ``agent_id`` and no user, or ``scope={"level":
        "namespace"}`` or ``{"level": "organisation"}``: never a user's."""
        target, run = run_of(make_level_scope, None, options)
        return await self._forgetting.run(target, **run.keywords())

    # -- the embedding model: services.reembedding --------------------------------------
    @classmethod
    async def reembed(
        cls,
        url: str | None = None,
        *,
        model: str | None = None,
        embedder: Embedder | None = None,
        settings: Settings | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> ReembedResult:
        """Move the database at ``url`` (else ``settings.database_url``) to another
        embedding model: ``model`` (a spec, as ``COGNIMEM_EMBEDDING__MODEL`` takes),
        ``embedder``, or else the configured model. Every item and fact is embedded
        again, ``settings.embedding.batch_size`` texts a call (``progress`` gets rows
        done and rows in all), while everything else keeps
        reading and writing with the old model; then one transaction switches every
        vector and the database's model. Stopped midway, the database is as it was and
        the next run embeds only what is left. Afterwards a process must open the
        database with the new model (the old one is refused)."""
        if model is not None and embedder is not None:
            raise UsageError("reembed takes a model spec or an embedder, not both")
        settings = settings or Settings()
        if embedder is None:
            embedder = configured_embedder(settings.embedding, model)
        store = open_store(url or settings.database_url)
        try:
            await store.open()
            return await reembed(
                store, embedder, batch_size=settings.embedding.batch_size, progress=progress
            )
        finally:
            await embedder.aclose()
            await store.close()

    @property
    def lifecycle_operations(self) -> list[str]:
        """The names of the registered lifecycle operations."""
        return self._lifecycle.operations

    def register_lifecycle_operation(self, name: str, operation: Operation) -> None:
        """Add a lifecycle operation: ``async def op(scope, *, dry_run, progress=None)``
        returning a model with ``dry_run``, ``summary()`` and ``touched()``. A name taken
        already is a
        ``UsageError``."""
        self._lifecycle.register(name, operation)

    def observe_lifecycle(self, observer: LifecycleObserver) -> None:
        """Call ``observer(op, seconds, touched)`` after every lifecycle run in this
        process (dry runs, and the jobs it runs); ``touched`` is ``None`` when the run
        failed. ``Metrics`` observes the app's Memory so."""
        self._lifecycle.observe(observer)

    def observe_jobs(self, observer: JobObserver) -> None:
        """Call ``observer(kind, degraded, steps)`` after every ingest job this process
        runs and acknowledges (``process_next_job``, ``run_worker``); ``degraded`` is
        what the job's write said (empty when nothing was), ``steps`` the latencies of
        its write steps (as a write's ``WriteResult.steps``; empty when its events were
        processed already). ``Metrics`` observes the app's Memory so."""
        self._jobs.observe(observer)

    async def run_lifecycle(self, op: str, **options: Unpack[RunLifecycleKeywords]) -> LifecycleRun:
        """Run lifecycle operation ``op`` (``consolidate``, ``revise``, ...) on one user's
        memories. A dry run runs it here and now, changes nothing and returns what it
        would change (``result``, ``summary``; ``progress`` gets the share done). Else a
        durable job is queued and returned (``job``) for a worker (``cognimem worker``)
        to run; ``key`` makes the call idempotent: the same op, scope and key give the
        same job. One shared level: ``agent_id`` with no user (the agent's memories), or
        ``scope={"level": "namespace"}`` / ``{"level": "organisation"}`` (the
        namespace's, the organisation's). An unknown op is
        ``NotFound``; a scope with a session, a user with an agent, or no user, agent or
        level is ``InvalidInput``."""
        return await self._lifecycle.run_lifecycle(op, options)

    async def list_jobs(self, **options: Unpack[JobListKeywords]) -> list[Job]:
        """The tenant's jobs, newest first (ingest and lifecycle; one ``kind`` and
        ``state`` when given), each with its state, attempts, progress and result
        summary. Empty when no job queue is configured."""
        return await self._lifecycle.list_jobs(JobListArgs(**options))

    async def schedule_lifecycle(self) -> list[Job]:
        """One scheduler tick (a worker runs one every ``lifecycle.tick_s``): queue each
        scheduled operation on the levels due by ``settings.lifecycle`` — users, and
        each agent's own level, each namespace's and the organisation's
        (``shared_levels``); returns the
        jobs queued (or found queued already)."""
        return await self._lifecycle.schedule()

    # -- async ingestion: services.jobs ------------------------------------------------
    async def get_job(self, job_id: str, *, tenant_id: str = "default") -> Job:
        """The state of a job (ingestion or lifecycle: queued / running / done / failed,
        with its progress and result summary). ``NotFound`` for an unknown id, and always
        when no queue is configured (PostgreSQL without a queue URL: no jobs)."""
        return await self._jobs.get_job(job_id, tenant_id=tenant_id)

    async def process_next_job(self, worker: str, *, block_s: float = 0.0) -> Job | None:
        """Claim one job, run it, acknowledge it; ``None`` when the queue is empty.

        A job that raises is returned to the queue (retried until its attempts run out,
        then dead-lettered) and the error is logged and recorded on the job.
        """
        return await self._jobs.process_next_job(worker, block_s=block_s)

    async def requeue_stranded(self, *, limit: int = SWEEP_LIMIT) -> list[str]:
        """Queue the ingest jobs of events left unprocessed for longer than
        ``settings.ingest.sweep_grace_s`` that the queue does not know (a process died
        between committing a write's events and queuing their job); returns their ids.
        Idempotent: a job the queue has is left as it is. Every worker runs this at
        start and every ``sweep_interval_s``."""
        return await self._jobs.requeue_stranded(limit=limit)

    async def run_worker(self, worker: str, *, stop: asyncio.Event, poll_s: float = 1.0) -> int:
        """Process jobs (ingest and lifecycle) until ``stop`` is set; returns how many
        jobs were handled. Sweeps for stranded jobs (:meth:`requeue_stranded`) at start
        and on an interval, and queues scheduled lifecycle jobs
        (:meth:`schedule_lifecycle`) every ``settings.lifecycle.tick_s``."""
        return await self._jobs.run_worker(worker, stop=stop, poll_s=poll_s)
