"""Revision (reconsolidation): after a turn, and as a lifecycle operation over a
scope's recent turns, the facts a read retrieved are checked against the user's message
that followed it (decisions in ``lifecycle/revise.py``) and the changes committed in one
transaction, each fact update guarded by the revision it was decided from: a concurrent
change makes it load the facts again and decide again, so no update is lost."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from cognimem.errors import InvalidInput, ProviderError, StaleKnowledge
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.lifecycle.revise import (
    ACTOR,
    REVISION_SCHEMA,
    SCHEMA_NAME,
    Reply,
    Revision,
    RevisionOutput,
    Verdict,
    revise,
    revision_prompt,
    statements,
    unjudged,
    verdicts_of,
)
from cognimem.models import ContextPacket, Event, ItemStatus, Role, Scope, WriteResult
from cognimem.models.extraction import ExtractionInput
from cognimem.models.fact_changes import silenced_entries
from cognimem.models.knowledge import HistoryEntry
from cognimem.models.lifecycle import RevisionResult, TurnRevision
from cognimem.models.requests import ReadArgs
from cognimem.providers.llm import structured
from cognimem.recall import Reader, RecallConfig
from cognimem.services.components import Components
from cognimem.store.arguments import Attachment
from cognimem.store.types import ItemFilter, Knowledge

log = logging.getLogger(__name__)

# how often a revision decides again when a concurrent change hit the same facts
MAX_REVISION_ATTEMPTS = 20
RECENT_TURNS = timedelta(days=1)  # the window a scheduled run reads again by default
MAX_TURNS = 1_000  # the most user messages one run reads again


class RevisionService:
    """``Memory.revise`` and the revision at the end of ``Memory.turn``."""

    def __init__(
        self, parts: Components, reader: Reader, recall_config: Callable[[], RecallConfig]
    ) -> None:
        self._parts = parts
        self._reader = reader
        self._recall_config = recall_config
        self._rules = RuleExtractor()

    async def after_turn(
        self, packet: ContextPacket, stored: WriteResult, target: Scope
    ) -> TurnRevision:
        """Revise what ``packet`` retrieved against the turn's user message (the first
        of ``stored``), and report what the turn did to those facts."""
        retrieved = list(dict.fromkeys(e.id for e in packet.sections.entries()))
        if not retrieved or not stored.messages:
            return TurnRevision()
        store = self._parts.store
        events = await store.get_events(target.tenant_id, [stored.messages[0].event_id])
        if not events:
            return TurnRevision()
        revision = await self._apply(target.tenant_id, [(events[0], retrieved)], dry_run=False)
        report = stored.knowledge
        ours = set(retrieved)
        conflicts = []
        for conflict_id in report.conflicts_opened:
            conflict = await store.get_conflict(target.tenant_id, conflict_id)
            if conflict is not None and ours & set(conflict.fact_ids):
                conflicts.append(conflict_id)
        invalidated = set(revision.invalidated)
        return TurnRevision(
            reinforced=list(
                dict.fromkeys(
                    [*(f for f in report.facts_reinforced if f in ours), *revision.reinforced]
                )
            ),
            superseded=[f for f in report.facts_superseded if f in ours and f not in invalidated],
            conflicts_opened=conflicts,
            invalidated=revision.invalidated,
        )

    async def revise(
        self,
        scope: Scope,
        *,
        dry_run: bool,
        progress: Callable[[float], None] | None = None,
        since: datetime | None = None,
        use_llm: bool = True,
    ) -> RevisionResult:
        """Read again for each of the scope's user messages since ``since`` (default:
        the last day; at most ``MAX_TURNS``, the newest), at the time each was said,
        and revise what each read retrieves against it; with ``use_llm`` and an LLM
        configured, the facts the rules find nothing about are put to it (a failed call
        leaves the rules' verdicts and is reported in ``degraded``). With ``dry_run``
        nothing is written and the result says what would change."""
        parts = self._parts
        parts.require_open()
        if scope.user_id is None:
            raise InvalidInput(
                "revise works on one user's facts: scope.user_id is required",
                field="scope.user_id",
            )
        start = since if since is not None else parts.clock() - RECENT_TURNS
        turns = await self._recent_turns(scope, start)
        read = await self._read_again(scope, turns, progress)
        degraded: list[str] = []
        asked: dict[tuple[str, str], Verdict] = {}
        if use_llm and parts.llm is not None:
            asked = await self._ask(scope.tenant_id, read, degraded)
        attempts: list[int] = []
        revision = await self._apply(
            scope.tenant_id, read, dry_run=dry_run, attempts=attempts, asked=asked
        )
        if progress is not None:
            progress(1.0)
        return RevisionResult(
            dry_run=dry_run,
            turns=len(turns),
            reinforced=list(dict.fromkeys(revision.reinforced)),
            invalidated=list(dict.fromkeys(revision.invalidated)),
            items_silenced=revision.silence_items,
            retries=len(attempts),
            degraded=degraded,
        )

    async def _read_again(
        self,
        scope: Scope,
        turns: Sequence[Event],
        progress: Callable[[float], None] | None,
    ) -> list[tuple[Event, list[str]]]:
        """Each turn with what a read of it, at the time it was said, retrieves."""
        config = self._recall_config()
        settings = self._parts.settings.recall
        read: list[tuple[Event, list[str]]] = []
        for i, event in enumerate(turns):
            packet = await self._reader.read(
                ReadArgs(query=event.content, scope=scope),
                scope,
                config=config,
                limit=settings.default_limit,
                max_tokens=settings.default_max_tokens,
                reference_time=event.occurred_at,
            )
            read.append((event, list(dict.fromkeys(e.id for e in packet.sections.entries()))))
            if progress is not None:
                progress((i + 1) / (len(turns) + 1))
        return read

    async def _ask(
        self, tenant_id: str, turns: Sequence[tuple[Event, Sequence[str]]], degraded: list[str]
    ) -> dict[tuple[str, str], Verdict]:
        """The LLM's verdicts on the facts the rules find nothing about, one call per
        turn; on a provider error the remaining turns keep the rules' verdicts."""
        llm = self._parts.llm
        assert llm is not None
        ids = list(dict.fromkeys(f for _, retrieved in turns for f in retrieved))
        by_id = {f.id: f for f in await self._parts.store.get_facts(tenant_id, ids)}
        out: dict[tuple[str, str], Verdict] = {}
        for event, retrieved in turns:
            reply = self._reply(event)
            facts = unjudged([by_id[f] for f in retrieved if f in by_id], reply)
            if not facts:
                continue
            try:
                output = await structured.ask(
                    llm,
                    revision_prompt(event.content, facts),
                    lambda answer: structured.validated(answer, RevisionOutput),
                    _correction,
                    json_schema=REVISION_SCHEMA,
                    schema_name=SCHEMA_NAME,
                    echo_chars=4_000,
                    what="fact revision",
                )
            except ProviderError as exc:
                log.warning("LLM revision failed, the rules' verdicts stand: %s", exc.message)
                degraded.append(
                    f"llm revision failed ({exc.type}: {exc.message}); rule verdicts used"
                )
                return out
            for fact_id, verdict in verdicts_of(output, facts).items():
                out[event.id, fact_id] = verdict
        return out

    async def _recent_turns(self, scope: Scope, since: datetime) -> list[Event]:
        """The scope's user messages said since ``since`` that have their items (an
        event still waiting for its ingest job is revised by a later run)."""
        store = self._parts.store
        flt = ItemFilter(
            scope=scope,
            statuses=(ItemStatus.ACTIVE, ItemStatus.SILENT, ItemStatus.ARCHIVED),
            since=since,
        )
        item_ids = await store.list_item_ids(flt, MAX_TURNS)
        items = await store.get_items(scope.tenant_id, item_ids)
        event_ids = list(dict.fromkeys(e for i in items for e in i.source_event_ids))
        events = await store.get_events(scope.tenant_id, event_ids)
        users = [e for e in events if e.role is Role.USER and e.occurred_at >= since]
        return sorted(users, key=lambda e: (e.occurred_at, e.id))[-MAX_TURNS:]

    async def _apply(
        self,
        tenant_id: str,
        turns: Sequence[tuple[Event, Sequence[str]]],
        *,
        dry_run: bool,
        attempts: list[int] | None = None,
        asked: dict[tuple[str, str], Verdict] | None = None,
    ) -> Revision:
        """Decide from the facts' current state and commit; decide again when a
        concurrent change came first."""
        replies = [(self._reply(event), retrieved) for event, retrieved in turns]
        fact_ids = list(dict.fromkeys(f for _, retrieved in turns for f in retrieved))
        if not fact_ids:
            return Revision()
        store = self._parts.store
        for attempt in range(MAX_REVISION_ATTEMPTS):
            facts = await store.get_facts(tenant_id, fact_ids)
            now = self._parts.clock()
            revision, _ = revise(facts, replies, now, asked)
            if dry_run or revision.is_empty():
                return revision
            knowledge = Knowledge(
                fact_updates=list(revision.fact_updates.values()),
                history=revision.history + _silenced(tenant_id, revision.silence_items, now),
                silence_items=revision.silence_items,
                stale_items=revision.stale_items,
            )
            try:
                await store.add_items(Attachment([], knowledge))
            except StaleKnowledge:
                if attempt == MAX_REVISION_ATTEMPTS - 1:
                    raise
                if attempts is not None:
                    attempts.append(attempt)
                log.info("a concurrent change hit the facts being revised; revising again")
                continue
            return revision
        raise AssertionError("unreachable")

    def _reply(self, event: Event) -> Reply:
        """The message as revision reads it, with the statements the write path's rule
        extractor reads from it."""
        extraction = self._rules.extract_one(
            ExtractionInput(
                text=event.content,
                occurred_at=event.occurred_at,
                author=event.name,
                role=event.role.value,
            )
        )
        return Reply(event.id, event.content, event.occurred_at, statements(extraction))


def _correction(error: str) -> str:
    return (
        f"Your answer was invalid: {error}\n"
        "Answer again with one JSON object following the schema, and nothing else."
    )


def _silenced(tenant_id: str, item_ids: Sequence[str], now: datetime) -> list[HistoryEntry]:
    return silenced_entries(tenant_id, item_ids, now, "its constraint was corrected", actor=ACTOR)
