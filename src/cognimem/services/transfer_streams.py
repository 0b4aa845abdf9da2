"""Export and import streams (JSON lines of :class:`ExportRecord`) that
``services/transfer.py`` (``Memory.export``, ``import_records``) runs.

An export is a ``header`` line (format version, schema version, embedding model, what
was exported) and then every stored row of the scope. An import reads any number of
lines in batches of ``IMPORT_BATCH``: each batch is validated as a whole (a bad line is
``InvalidInput`` naming it, and nothing of its batch is stored), its item and fact
texts are embedded again with the importing Memory's embedder (so an export made with
another model imports correctly; a consolidated summary's vector is the mean of what its
claims state, as consolidation made it: ``lifecycle.consolidate.stated_vector``), and
it is stored in one transaction. Its ids are made
the importing tenant's first (``store.transfer.TenantIds``): an id the tenant holds stays
(the same row), any other becomes one derived from the tenant and the id, the same every
time. Rows already stored are then skipped by id, so an import can be repeated, or
resumed after a bad line is fixed, without duplicates, and what another tenant holds
changes nothing an import does or answers. An export of any format this version reads
(``store.transfer.READABLE_FORMATS``) imports; one of a later format is refused.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Mapping
from datetime import datetime
from typing import Any, Protocol

import numpy as np
from pydantic import ValidationError

from cognimem.errors import InvalidInput
from cognimem.lifecycle.consolidate import stated_vector, unit_rows
from cognimem.models import Scope
from cognimem.models.admin import ExportRecord
from cognimem.models.packets import claims_of
from cognimem.models.text import check_storable
from cognimem.providers.embeddings import Embedder
from cognimem.store.admin_protocols import TransferStore
from cognimem.store.protocols import ItemStore
from cognimem.store.transfer import (
    FORMAT_VERSION,
    READABLE_FORMATS,
    ImportBatch,
    TenantIds,
    embedded_text,
    parse,
    zero_counts,
)

IMPORT_BATCH = 500

RecordLike = ExportRecord | Mapping[str, Any]


class ImportStore(TransferStore, ItemStore, Protocol):
    """What an import stores into: the rows, and the items an imported summary's claims
    state that an earlier batch (or the tenant) holds."""


def header(
    scope: Scope,
    *,
    all_namespaces: bool,
    schema_version: int,
    embedding_model: str,
    now: datetime,
) -> ExportRecord:
    return ExportRecord(
        type="header",
        data={
            "format_version": FORMAT_VERSION,
            "schema_version": schema_version,
            "embedding_model": embedding_model,
            "exported_at": now.isoformat(),
            "tenant_id": scope.tenant_id,
            "namespace": "*" if all_namespaces else scope.namespace,
            "user_id": scope.user_id,
        },
    )


def _record(raw: RecordLike, line: int) -> ExportRecord:
    try:
        rec = raw if isinstance(raw, ExportRecord) else ExportRecord.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InvalidInput(
            f"line {line}: not an export record ({first['msg']})", field=f"line {line}"
        ) from exc
    if rec.type == "header" and rec.data.get("format_version") not in READABLE_FORMATS:
        readable = ", ".join(str(v) for v in READABLE_FORMATS)
        raise InvalidInput(
            f"line {line}: export format {rec.data.get('format_version')!r} is not supported"
            f" (this cognimem reads formats {readable})",
            field=f"line {line}",
        )
    check_storable(rec.data, f"line {line}.data")
    return rec


async def _each(
    records: Iterable[RecordLike] | AsyncIterable[RecordLike],
) -> AsyncIterator[RecordLike]:
    if isinstance(records, AsyncIterable):
        async for rec in records:
            yield rec
    else:
        for rec in records:
            yield rec


async def import_records(
    store: ImportStore,
    embedder: Embedder,
    records: Iterable[RecordLike] | AsyncIterable[RecordLike],
    tenant_id: str,
) -> dict[str, int]:
    """Import ``records`` into ``tenant_id``; how many rows of each type were new."""
    totals = zero_counts()
    batch: list[ExportRecord] = []
    first_line = 1
    line = 0
    async for raw in _each(records):
        line += 1
        batch.append(_record(raw, line))
        if len(batch) >= IMPORT_BATCH:
            await _store(store, embedder, batch, tenant_id, first_line, totals)
            batch, first_line = [], line + 1
    if batch:
        await _store(store, embedder, batch, tenant_id, first_line, totals)
    return totals


async def _store(
    store: ImportStore,
    embedder: Embedder,
    batch: list[ExportRecord],
    tenant_id: str,
    first_line: int,
    totals: dict[str, int],
) -> None:
    ids = TenantIds(batch)
    batch = ids.rewrite(tenant_id, await store.held_ids(tenant_id, ids.candidates()))
    parsed = parse(batch, tenant_id, first_line=first_line)  # raises before anything is stored
    summaries = _summaries(parsed)
    texts = {
        item.id: embedded_text(item.author, item.text)
        for item, _ in parsed.items
        if item.id not in summaries
    }
    texts.update({f.id: f.text for f in parsed.facts})
    vectors = await _embedded(embedder, texts)
    if summaries:
        vectors.update(await _summary_vectors(store, embedder, tenant_id, summaries, vectors))
    model = embedder.model_id
    # the rows hold the model their vectors now come from, not the exporter's
    stamped = [
        rec.model_copy(update={"data": {**rec.data, "embedding_model": model}})
        if rec.type in ("item", "fact")
        else rec
        for rec in batch
    ]
    counts = await store.import_records(tenant_id, stamped, vectors)
    for name, n in counts.items():
        totals[name] = totals.get(name, 0) + n


async def _embedded(embedder: Embedder, texts: Mapping[str, str]) -> dict[str, np.ndarray]:
    """Each id's text embedded (each distinct text once)."""
    unique = list(dict.fromkeys(texts.values()))
    if not unique:
        return {}
    matrix = await embedder.embed(unique, "document")
    by_text = dict(zip(unique, matrix, strict=True))
    return {record_id: by_text[text] for record_id, text in texts.items()}


def _summaries(parsed: ImportBatch) -> dict[str, list[str]]:
    """The consolidated summaries of the batch: each one's id -> the items its claims
    state, once per statement."""
    out = {}
    for item, _ in parsed.items:
        stated = [i for c in claims_of(item) for i in c.item_ids]
        if stated:
            out[item.id] = stated
    return out


async def _summary_vectors(
    store: ImportStore,
    embedder: Embedder,
    tenant_id: str,
    summaries: Mapping[str, list[str]],
    vectors: Mapping[str, np.ndarray],
) -> dict[str, np.ndarray]:
    """Each summary's vector as consolidation made it (``stated_vector``) from the
    stated items' vectors: those of the batch, and of the items the tenant holds (an
    earlier batch's). A stated item that is stored nowhere is left out, as it was by
    consolidation."""
    wanted = {i for stated in summaries.values() for i in stated}
    have = {i: vectors[i] for i in wanted if i in vectors}
    held = await store.get_items(tenant_id, sorted(wanted - set(have)))
    have.update(await _embedded(embedder, {m.id: embedded_text(m.author, m.text) for m in held}))
    units = dict(zip(have, unit_rows(np.stack(list(have.values()))), strict=True)) if have else {}
    out = {}
    for summary_id, stated in summaries.items():
        vector = stated_vector(stated, units)
        if vector is not None:
            out[summary_id] = vector
    return out
