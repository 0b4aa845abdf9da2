"""The summaries and facts an alias removal corrects, in PostgreSQL, with the semantics
of ``store/sqlite/relinking.py`` (``EditStore.remove_aliases``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from cognimem.models import ItemKind, ItemStatus
from cognimem.models.fact_changes import NO_LONGER_TRUE
from cognimem.models.items import CONSOLIDATION_META
from cognimem.models.knowledge import Entity, Fact
from cognimem.store.arguments import (
    AliasDeletion,
    Moved,
    Relinked,
    Resummarised,
    SummarySources,
)
from cognimem.store.postgres import knowledge_writes
from cognimem.store.postgres.knowledge import fact_from_row
from cognimem.store.postgres.rows import decode_time
from cognimem.store.records import FACT_COLUMNS, HISTORY_COLUMNS, history_from_row
from cognimem.store.relinking import (
    GONE_ITEMS,
    PROFILE_GROUP,
    corrections,
    covered_ids,
    edge_moves,
    moves,
    profiles_stale,
    relinked_ids,
    restored_evidence,
    touched_keys,
    unmarks,
    unsilences,
)
from cognimem.text.names import normalize_name

if TYPE_CHECKING:
    from asyncpg import Connection


async def relink_summaries(
    conn: Connection,
    entity: Entity,
    relinked: Sequence[Relinked],
    resummarise: Callable[[SummarySources], list[str] | None],
) -> list[Resummarised]:
    """The summaries' step of ``store/relinking.py``: the summaries read ``FOR UPDATE``
    and the entities of the items they cover in one query."""
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


async def move_facts(
    conn: Connection,
    entity: Entity,
    user_id: str | None,
    move: Callable[[Fact, Collection[str]], Fact | None],
) -> list[Moved]:
    """The facts' step of ``store/relinking.py``: the facts read ``FOR UPDATE``, each
    written back only at the revision it was read at."""
    rows = await conn.fetch(
        "SELECT alias FROM aliases WHERE tenant_id = $1 AND entity_id = $2",
        entity.tenant_id, entity.id,
    )  # fmt: skip
    names = [normalize_name(entity.name)] + [r["alias"] for r in rows]
    found = await conn.fetch(
        f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant_id = $1 AND namespace = $2"
        " AND user_id IS NOT DISTINCT FROM $3 AND (subject_entity_id = $4"
        " OR object_entity_id = $4) ORDER BY recorded_at, seq FOR UPDATE",
        entity.tenant_id, entity.namespace, user_id, entity.id,
    )  # fmt: skip
    out = moves([fact_from_row(r) for r in found], names, move)
    for before, after in out:
        await conn.execute(
            "UPDATE facts SET key = $1, subject = $2, subject_entity_id = $3,"
            " object_entity_id = $4, revision = $5 WHERE tenant_id = $6 AND id = $7"
            " AND revision = $8",
            after.key, after.subject, after.subject_entity_id, after.object_entity_id,
            after.revision, entity.tenant_id, after.id, before.revision,
        )  # fmt: skip
    for fact_id, side, old, new in edge_moves(out):
        await conn.execute(
            f"UPDATE relations SET {side}_entity_id = $1 WHERE tenant_id = $2 AND fact_id = $3"
            f" AND {side}_entity_id = $4",
            new, entity.tenant_id, fact_id, old,
        )  # fmt: skip
    return out


async def settle_facts(conn: Connection, deletion: AliasDeletion, moved: Sequence[Moved]) -> None:
    """The supersessions' step of ``store/relinking.py``, as in SQLite: the facts read
    ``FOR UPDATE``."""
    keys = touched_keys(moved)
    if not keys:
        return
    e = deletion.entity
    rows = await conn.fetch(
        f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant_id = $1 AND namespace = $2"
        " AND user_id IS NOT DISTINCT FROM $3 AND key = ANY($4::text[])"
        " ORDER BY recorded_at, seq FOR UPDATE",
        e.tenant_id, e.namespace, deletion.user_id, keys,
    )  # fmt: skip
    found = [fact_from_row(r) for r in rows]
    settled = deletion.settle(list(moved), found)
    await knowledge_writes.apply(conn, settled)
    await knowledge_writes.mark_stale(conn, settled.stale_items)
    await _set_status(conn, e.tenant_id, settled.silence_items, ItemStatus.SILENT)
    for fact_id, by in unmarks(found, settled):
        await conn.execute(
            "UPDATE items SET superseded_by = NULL, metadata = metadata - $1::text"
            " WHERE tenant_id = $2 AND superseded_by = $3"
            " AND metadata -> $1::text ->> 'fact_id' = $4",
            NO_LONGER_TRUE, e.tenant_id, by, fact_id,
        )  # fmt: skip
        await conn.execute(
            "UPDATE relations SET active = true WHERE tenant_id = $1 AND fact_id = $2",
            e.tenant_id, fact_id,
        )  # fmt: skip
    await _unsilence(conn, deletion, restored_evidence(found, settled))


async def _unsilence(conn: Connection, deletion: AliasDeletion, evidence: dict[str, str]) -> None:
    """The evidence items of the constraints made live again that their supersession
    silenced, active again, as in SQLite: the silent ones read ``FOR UPDATE``."""
    if not evidence:
        return
    t = deletion.entity.tenant_id
    silent = [
        r["id"] for r in await conn.fetch(
            "SELECT id FROM items WHERE tenant_id = $1 AND status = $2"
            " AND id = ANY($3::text[]) ORDER BY id FOR UPDATE",
            t, ItemStatus.SILENT.value, sorted(evidence),
        )
    ]  # fmt: skip
    found = await conn.fetch(
        f"SELECT {HISTORY_COLUMNS} FROM history WHERE tenant_id = $1"
        " AND target_id = ANY($2::text[]) ORDER BY seq",
        t, silent,
    )  # fmt: skip
    latest = {h.target_id: h for h in (history_from_row(r, decode_time) for r in found)}
    back = unsilences({i: evidence[i] for i in silent}, latest)
    await _set_status(conn, t, [i for i, _ in back], ItemStatus.ACTIVE)
    await knowledge_writes.apply(conn, deletion.unsilence(back))


async def _set_status(conn: Connection, tenant_id: str, ids: list[str], status: ItemStatus) -> None:
    if ids:
        await conn.execute(
            "UPDATE items SET status = $1 WHERE tenant_id = $2 AND id = ANY($3::text[])",
            status.value, tenant_id, ids,
        )  # fmt: skip


async def archive_profiles(
    conn: Connection, deletion: AliasDeletion, moved: Sequence[Moved]
) -> list[str]:
    """The profiles' step of ``store/relinking.py``, as in SQLite: the profiles read
    ``FOR UPDATE``."""
    if not profiles_stale(deletion, moved):
        return []
    e = deletion.entity
    found = await conn.fetch(
        "SELECT id FROM items WHERE tenant_id = $1 AND namespace = $2"
        " AND user_id IS NOT DISTINCT FROM $3 AND kind = $4 AND status = $5"
        " AND metadata -> $6::text ->> 'group' = $7 AND entities ?| $8::text[]"
        " ORDER BY occurred_at, id FOR UPDATE",
        e.tenant_id, e.namespace, deletion.user_id, ItemKind.SUMMARY.value,
        ItemStatus.ACTIVE.value, CONSOLIDATION_META, PROFILE_GROUP, list(deletion.profiles),
    )  # fmt: skip
    ids = [r["id"] for r in found]
    await conn.execute(
        "UPDATE items SET status = $1 WHERE tenant_id = $2 AND id = ANY($3::text[])",
        ItemStatus.ARCHIVED.value, e.tenant_id, ids,
    )  # fmt: skip
    return ids


async def hold_entity(conn: Connection, entity: Entity) -> None:
    """Lock the row of ``entity``, which this transaction may delete (``retire_entity``),
    before anything else: a write naming it holds it ``FOR SHARE`` (``check_read_set``)
    and commits first, or waits and finds it gone."""
    await conn.execute(
        "SELECT 1 FROM entities WHERE tenant_id = $1 AND id = $2 FOR UPDATE",
        entity.tenant_id, entity.id,
    )  # fmt: skip


async def retire_entity(conn: Connection, entity: Entity) -> bool:
    """Delete ``entity`` when nothing names it any more, as in SQLite
    (``store/sqlite/relinking.py``); whether it went."""
    t, e = entity.tenant_id, entity.id
    named = await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM aliases WHERE tenant_id = $1 AND entity_id = $2)"
        " OR EXISTS (SELECT 1 FROM facts WHERE tenant_id = $1"
        " AND (subject_entity_id = $2 OR object_entity_id = $2))"
        " OR EXISTS (SELECT 1 FROM relations WHERE tenant_id = $1"
        " AND (source_entity_id = $2 OR target_entity_id = $2))"
        " OR EXISTS (SELECT 1 FROM items WHERE tenant_id = $1 AND namespace = $3"
        " AND entities ? $2 AND status <> ALL($4::text[]))",
        t, e, entity.namespace, list(GONE_ITEMS),
    )  # fmt: skip
    if named:
        return False
    done = await conn.execute("DELETE FROM entities WHERE tenant_id = $1 AND id = $2", t, e)
    return bool(done != "DELETE 0")
