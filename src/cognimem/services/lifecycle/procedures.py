"""Procedural memory: the ``procedures`` lifecycle operation (detection over a user's
turns and tool-discovery writes, ``lifecycle/procedures.py``), the listing, and the
reinforcement at the end of a turn whose read matched a procedure and whose answer did
the same again (cheap: one lookup by id, only when the packet showed a procedure)."""

from __future__ import annotations

import logging

from cognimem.errors import InvalidInput, StaleKnowledge
from cognimem.lifecycle.procedures import (
    DetectionConfig,
    Observation,
    detect,
    hint_observation,
    reinforce,
    turn_observations,
)
from cognimem.models import ContextPacket, ItemKind, Scope, WriteResult
from cognimem.models.arguments import make_read_scope
from cognimem.models.lifecycle import ProcedureResult
from cognimem.models.lifecycle_requests import ProcedureListKeywords
from cognimem.models.procedures import Procedure
from cognimem.models.requests import check_keywords, split_scope
from cognimem.services.components import Components
from cognimem.services.lifecycle.operations import OperationService, Progress
from cognimem.store.arguments import ProcedureQuery
from cognimem.store.types import ItemFilter

log = logging.getLogger(__name__)

MAX_EVENTS = 5_000  # the newest events of the user one pass reads
MAX_HINTS = 1_000  # the newest tool-discovery writes one pass reads
MAX_PROCEDURES = 1_000  # the stored procedures one pass reconciles against
MAX_ATTEMPTS = 5  # a concurrent change to the same procedures: decide again
MAX_LIST = 1_000


def _learner(scope: Scope) -> tuple[Scope, Scope]:
    """Who owns what a detection learns, and whose turns it learns from: a user's
    procedures from the user's turns; with an agent, the agent's procedures (no user:
    they help every user of the agent) from the agent's turns with the scope's user, or
    with every user (``all_users``)."""
    if scope.user_id is None and scope.agent_id is None:
        raise InvalidInput(
            "procedures are learnt from one user's turns or one agent's: scope.user_id"
            " (or scope.agent_id) is required",
            field="scope.user_id",
        )
    tenant, namespace = scope.tenant_id, scope.namespace
    if scope.agent_id is None:
        owner = Scope(tenant_id=tenant, namespace=namespace, user_id=scope.user_id)
        return owner, owner
    owner = Scope(tenant_id=tenant, namespace=namespace, agent_id=scope.agent_id)
    return owner, owner.model_copy(update={"user_id": scope.user_id})


class ProcedureService(OperationService[ProcedureResult]):
    """``Memory.detect_procedures`` (the ``procedures`` lifecycle operation),
    ``Memory.procedures`` and the reinforcement at the end of ``Memory.turn``."""

    def __init__(self, parts: Components, config: DetectionConfig | None = None) -> None:
        super().__init__(parts)
        self._config = config or DetectionConfig()

    async def _operate(
        self, scope: Scope, dry_run: bool, progress: Progress | None
    ) -> ProcedureResult:
        owner, source = _learner(scope)
        observations, result = await self._observations(
            owner, source, dry_run=dry_run, progress=progress
        )
        await self._reconcile(owner, observations, result, dry_run=dry_run)
        return result

    async def _observations(
        self,
        owner: Scope,
        source: Scope,
        *,
        dry_run: bool,
        progress: Progress | None,
    ) -> tuple[list[Observation], ProcedureResult]:
        """What the learner's turns (``source``) and tool-discovery writes observed, and
        the result counting what was read."""
        store = self._parts.store
        events = await store.conversation_events(source, MAX_EVENTS, by_agent=True)
        hint_ids = await store.list_item_ids(
            ItemFilter(scope=source, kinds=(ItemKind.PROCEDURE_HINT,)), MAX_HINTS
        )
        hints = await store.get_items(owner.tenant_id, hint_ids)
        if progress is not None:
            progress(0.5)
        from_hints = [o for o in (hint_observation(i) for i in hints) if o is not None]
        not_turns = frozenset(e for i in hints for e in i.source_event_ids)
        observations, unreadable = turn_observations(events, exclude=not_turns)
        observations += from_hints
        result = ProcedureResult(
            dry_run=dry_run,
            events=len(events),
            hints=len(hints),
            observations=len(observations),
            unreadable_tool_calls=unreadable,
        )
        return observations, result

    async def _reconcile(
        self,
        owner: Scope,
        observations: list[Observation],
        result: ProcedureResult,
        *,
        dry_run: bool,
    ) -> None:
        """Decide the new and reinforced procedures against the stored ones and (unless
        ``dry_run``) save them, deciding again when a concurrent change hit them; what
        was decided goes into ``result``."""
        parts = self._parts
        store = parts.store
        for attempt in range(MAX_ATTEMPTS):
            stored = await store.list_procedures(
                ProcedureQuery(
                    owner.tenant_id,
                    owner.namespace,
                    owner.user_id,
                    MAX_PROCEDURES,
                    agent_id=owner.agent_id,
                )
            )
            found = detect(owner, observations, stored, parts.clock(), self._config)
            result.created = [p.id for p in found.created]
            result.reinforced = [p.id for p, _ in found.reinforced]
            result.unchanged = found.unchanged
            result.procedures = [*found.created, *(p for p, _ in found.reinforced)]
            if dry_run or not (found.created or found.reinforced):
                break
            try:
                await store.save_procedures(found.created, found.reinforced)
            except StaleKnowledge:
                if attempt == MAX_ATTEMPTS - 1:
                    raise
                result.retries += 1
                log.info("a concurrent change hit the procedures of %s; deciding again",
                         owner.label())  # fmt: skip
                continue
            if not dry_run:
                # what was stored: the revision each now has
                result.procedures = await store.get_procedures(
                    owner.tenant_id, [p.id for p in result.procedures]
                )
            break

    async def list_procedures(self, options: ProcedureListKeywords) -> list[Procedure]:
        self._parts.require_open()
        check_keywords(options, ProcedureListKeywords)
        where, rest = split_scope(options)
        target = make_read_scope(**where)
        limit = rest.get("limit", 100)
        if not 1 <= limit <= MAX_LIST:
            raise InvalidInput(f"limit must be between 1 and {MAX_LIST}", field="limit")
        return await self._parts.store.list_procedures(
            ProcedureQuery(
                target.tenant_id, target.namespace, target.user_id, limit, agent_id=target.agent_id
            )
        )

    async def after_turn(
        self, packet: ContextPacket, stored: WriteResult, target: Scope
    ) -> list[str]:
        """Reinforce the procedures the turn's read matched whose action the turn did
        again; returns their ids. Nothing is read when the packet matched none."""
        shown = [e.id for e in packet.sections.learned_procedures]
        if not shown or target.user_id is None or not stored.messages:
            return []
        store = self._parts.store
        events = await store.get_events(target.tenant_id, [m.event_id for m in stored.messages])
        observations, _ = turn_observations(sorted(events, key=lambda e: e.occurred_at))
        if not observations:
            return []
        observation = observations[0]
        for _ in range(MAX_ATTEMPTS):
            now = self._parts.clock()
            changed = [
                (p, new)
                for p in await store.get_procedures(target.tenant_id, shown)
                if (new := reinforce(p, observation, now, self._config)) is not None
            ]
            if not changed:
                return []
            try:
                await store.save_procedures([], [(new, p.revision) for p, new in changed])
            except StaleKnowledge:
                continue
            return [p.id for p, _ in changed]
        log.warning("procedures of %s kept changing; this turn did not reinforce them",
                    target.label())  # fmt: skip
        return []
