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
    ids = sorted({before.item_id for before, _ in relinked})
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
    covered = sorted({c for _, _, made in summaries for c in made.get("covers", [])})
    stored = await conn.fetch(
        "SELECT id, entities::text AS entities FROM items"
        " WHERE tenant_id = $1 AND id = ANY($2::text[])",
        entity.tenant_id, covered,
    )  # fmt: skip
    sources = {r["id"]: json.loads(r["entities"]) for r in stored}
    out: list[Resummarised] = []
    for summary_id, entities, made in summaries:
        covers = [c for c in made.get("covers", []) if c in sources]
        summary = SummarySources(
            summary_id, entities, str(made.get("group")), {c: sources[c] for c in covers}
        )
        after = resummarise(summary)
        if after is None:
            continue
        await conn.execute(
            "UPDATE items SET entities = $1::jsonb WHERE tenant_id = $2 AND id = $3",
            json.dumps(after), entity.tenant_id, summary_id,
        )  # fmt: skip
        out.append((summary, after))
    return out
