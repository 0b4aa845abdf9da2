"""The summaries an alias removal corrects, in PostgreSQL, with the semantics of
``store/sqlite/relinking.py`` (``EditStore.remove_aliases``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cognimem.models import ItemKind
from cognimem.models.items import CONSOLIDATION_META
from cognimem.models.knowledge import Entity
from cognimem.store.arguments import Relinked, Resummarised, SummarySources
from cognimem.store.relinking import corrections, covered_ids, relinked_ids

if TYPE_CHECKING:
    from asyncpg import Connection


async def relink_summaries(
    conn: Connection,
    entity: Entity,
    relinked: Sequence[Relinked],
    resummarise: Callable[[SummarySources], list[str] | None],
) -> list[Resummarised]:
    """Set the entities of the summaries in ``entity``'s namespace covering an item of
    ``relinked`` as ``resummarise`` says; each summary changed, with its new entities."""
    ids = relinked_ids(relinked)
    if not ids:
        return []
    found = await conn.fetch(
        "SELECT id, entities::text AS entities, (metadata -> $4::text)::text AS made"
        " FROM items WHERE tenant_id = $1 AND namespace = $2 AND kind = $3"
        " AND (metadata -> $4::text -> 'covers') ?| $5::text[]"
        " ORDER BY occurred_at, id FOR UPDATE",
        entity.tenant_id, entity.namespace, ItemKind.SUMMARY.value, CONSOLIDATION_META, ids,
    )  # fmt: skip
    summaries = [(r["id"], json.loads(r["entities"]), json.loads(r["made"])) for r in found]
    stored = await conn.fetch(
        "SELECT id, entities::text AS entities FROM items"
        " WHERE tenant_id = $1 AND id = ANY($2::text[])",
        entity.tenant_id, covered_ids(summaries),
    )  # fmt: skip
    sources = {r["id"]: json.loads(r["entities"]) for r in stored}
    out = corrections(summaries, sources, resummarise)
    for summary, after in out:
        await conn.execute(
            "UPDATE items SET entities = $1::jsonb WHERE tenant_id = $2 AND id = $3",
            json.dumps(after), entity.tenant_id, summary.summary_id,
        )  # fmt: skip
    return out
