"""The summaries an alias removal corrects, in SQLite (``EditStore.remove_aliases``):
the summaries covering an item the removal rewrote, read with the entities of the items
they cover, and written as ``store/relinking.py`` decides."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence

from cognimem.models import ItemKind
from cognimem.models.items import CONSOLIDATION_META
from cognimem.models.knowledge import Entity
from cognimem.store.arguments import Relinked, Resummarised, SummarySources
from cognimem.store.relinking import corrections, covered_ids, relinked_ids

_COVERS = f"$.{CONSOLIDATION_META}.covers"


def relink_summaries(
    conn: sqlite3.Connection,
    entity: Entity,
    relinked: Sequence[Relinked],
    resummarise: Callable[[SummarySources], list[str] | None],
) -> list[Resummarised]:
    """Set the entities of the summaries in ``entity``'s namespace covering an item of
    ``relinked`` as ``resummarise`` says; each summary changed, with its new entities."""
    ids = relinked_ids(relinked)
    if not ids:
        return []
    marks = ", ".join("?" * len(ids))
    found = conn.execute(
        "SELECT id, entities, metadata FROM items WHERE tenant_id = ? AND namespace = ?"
        " AND kind = ? AND EXISTS (SELECT 1 FROM json_each(items.metadata, ?) AS c"
        f" WHERE c.value IN ({marks})) ORDER BY occurred_at, id",
        (entity.tenant_id, entity.namespace, ItemKind.SUMMARY.value, _COVERS, *ids),
    ).fetchall()
    summaries = [(i, json.loads(e), json.loads(m)[CONSOLIDATION_META]) for i, e, m in found]
    sources = _entities_of(conn, entity.tenant_id, covered_ids(summaries))
    out = corrections(summaries, sources, resummarise)
    for summary, after in out:
        conn.execute(
            "UPDATE items SET entities = ? WHERE tenant_id = ? AND id = ?",
            (json.dumps(after), entity.tenant_id, summary.summary_id),
        )
    return out


def _entities_of(conn: sqlite3.Connection, tenant_id: str, ids: list[str]) -> dict[str, list[str]]:
    """The stored entities of the items ``ids`` (those still stored), by id."""
    out: dict[str, list[str]] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        for item_id, entities in conn.execute(
            f"SELECT id, entities FROM items WHERE tenant_id = ? AND id IN ({marks})",
            (tenant_id, *chunk),
        ):
            out[item_id] = json.loads(entities)
    return out
