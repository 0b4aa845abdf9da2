"""Moving a user's memories out, in and away: export streams, imports, and the erasure
of a user or a shared level across the store, the job queue and every embedding
cache."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Mapping
from typing import Any

from cognimem.errors import InvalidInput
from cognimem.ingest.gate import forget_secrets
from cognimem.models import Scope
from cognimem.models.admin import ErasureReport, ExportRecord
from cognimem.models.arguments import ScopeLike, make_level_scope, make_reach_scope, make_scope
from cognimem.models.browse_requests import ExportKeywords
from cognimem.models.requests import check_keywords, split_scope
from cognimem.providers.embeddings import erase_embeddings
from cognimem.providers.tokens import forget_counts
from cognimem.services import transfer_streams
from cognimem.services.components import Components
from cognimem.services.lifecycle.operations import level_key
from cognimem.text.literals import forget_lowered
from cognimem.text.sentences import forget_spans


class TransferService:
    """``Memory.export``, ``import_records``, ``erase_user`` and ``erase_level``
    (documented there)."""

    def __init__(self, parts: Components) -> None:
        self._parts = parts

    async def erase_user(self, user_id: str, *, tenant_id: str) -> ErasureReport:
        parts = self._parts
        parts.require_open()
        target = make_scope(tenant_id=tenant_id, user_id=user_id)
        if target.user_id is None:
            raise InvalidInput("user_id is empty", field="user_id")
        report = await parts.store.erase_user(tenant_id, target.user_id)
        _forget_kept_texts()
        # after the events are gone: a worker's sweep then finds none of theirs to requeue
        purged = (
            0 if parts.queue is None else await parts.queue.purge_user(tenant_id, target.user_id)
        )
        await self._drop_runs(target)
        removed = {**report.removed, "jobs": purged}
        hashes = report.content_hashes
        removed["embeddings"] = await erase_embeddings(parts.store, parts.embedder, hashes)
        await parts.store.flush_deleted()
        return report.model_copy(update={"removed": removed})

    async def erase_level(self, scope: ScopeLike, *, agent_id: str | None) -> ErasureReport:
        parts = self._parts
        parts.require_open()
        target = make_level_scope(scope, agent_id=agent_id)
        if target.user_id is not None:
            raise InvalidInput(
                "erase_level erases a shared level (an agent's, the namespace's or the"
                " organisation's): leave"
                " out scope.user_id, or erase the user with erase_user",
                field="scope.user_id",
            )
        # an agent's level in every namespace; the namespace's or the organisation's in
        # its one namespace (the organisation's is ORGANISATION_NAMESPACE)
        namespace = None if target.agent_id is not None else target.namespace
        report = await parts.store.erase_level(target.tenant_id, target.agent_id, namespace)
        _forget_kept_texts()
        # after the events and the leases are gone, as for a user: the level's queued
        # ingest and lifecycle jobs go, and a sweep finds none of its events to requeue
        purged = (
            0
            if parts.queue is None
            else await parts.queue.purge_level(target.tenant_id, target.agent_id, namespace)
        )
        await self._drop_runs(target)
        hashes = report.content_hashes
        removed = {**report.removed, "jobs": purged}
        removed["embeddings"] = await erase_embeddings(parts.store, parts.embedder, hashes)
        await parts.store.flush_deleted()
        return report.model_copy(update={"removed": removed})

    async def _drop_runs(self, target: Scope) -> None:
        """After the purge, the level's lifecycle leases and last runs once more: a run
        whose job was claimed before the purge may have taken its lease after the
        store's erasure removed them (it drops its own when it finds its job purged;
        one that finished before the purge cannot)."""
        await self._parts.store.drop_runs(target.tenant_id, level_key(target))

    def export(self, options: ExportKeywords) -> AsyncIterator[ExportRecord]:
        """Checked when called; the records stream as they are iterated."""
        self._parts.require_open()
        check_keywords(options, ExportKeywords)
        where, rest = split_scope(options)
        target, level = make_reach_scope(**where)
        return self._export(target, rest.get("all_namespaces", False), level)

    async def _export(
        self, target: Scope, all_namespaces: bool, level: bool
    ) -> AsyncIterator[ExportRecord]:
        parts = self._parts
        await parts.access.flush()  # the export carries the reads counted so far
        yield transfer_streams.header(
            target,
            all_namespaces=all_namespaces,
            schema_version=await parts.store.schema_version(),
            embedding_model=parts.embedder.model_id,
            now=parts.clock(),
        )
        records = parts.store.export_records(
            target, all_namespaces=all_namespaces, level_only=level
        )
        async for record in records:
            yield record

    async def import_records(
        self,
        records: Iterable[ExportRecord | Mapping[str, Any]]
        | AsyncIterable[ExportRecord | Mapping[str, Any]],
        *,
        tenant_id: str,
    ) -> dict[str, int]:
        parts = self._parts
        parts.require_open()
        make_scope(tenant_id=tenant_id)
        return await transfer_streams.import_records(
            parts.store, parts.embedder, records, tenant_id
        )


def _forget_kept_texts() -> None:
    """This process's caches keyed by the texts themselves, emptied whole (the erased
    rows' hashes do not name every text they hold): the sentence spans, the token counts
    of short texts (a packet's lines), the gate's secret findings and the text a pattern
    gate lower-cased last."""
    forget_spans()
    forget_counts()
    forget_secrets()
    forget_lowered()
