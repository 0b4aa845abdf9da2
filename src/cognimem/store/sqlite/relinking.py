"""The summaries and facts an alias removal corrects, in SQLite
(``EditStore.remove_aliases``): the summaries covering an item the removal rewrote, read
with the entities of the items they cover, and the user's facts of the entity, read with
the entity's names left; written as ``store/relinking.py`` decides."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection, Sequence

from cognimem.models import ItemKind, ItemStatus
from cognimem.models.fact_changes import NO_LONGER_TRUE
from cognimem.models.items import CONSOLIDATION_META
from cognimem.models.knowledge import Entity, Fact, HistoryEntry
from cognimem.store.arguments import (
    AliasDeletion,
    Moved,
    Relinked,
    Resummarised,
    SummarySources,
)
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
from cognimem.store.sqlite import knowledge_writes
from cognimem.store.sqlite.in_lists import in_chunks
from cognimem.store.sqlite.rows import decode_time, fact_from_row, query, set_status
from cognimem.text.names import normalize_name

_COVERS = f"$.{CONSOLIDATION_META}.covers"
_GROUP = f"$.{CONSOLIDATION_META}.group"


def relink_summaries(
    conn: sqlite3.Connection,
    entity: Entity,
    relinked: Sequence[Relinked],
    resummarise: Callable[[SummarySources], list[str] | None],
) -> list[Resummarised]:
    """The summaries' step of ``store/relinking.py``: the summaries found through their
    ``covers`` list (``json_each``), the entities of the items they cover 500 ids a
    query."""
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
    for chunk, marks in in_chunks(ids):
        for item_id, entities in conn.execute(
            f"SELECT id, entities FROM items WHERE tenant_id = ? AND id IN ({marks})",
            (tenant_id, *chunk),
        ):
            out[item_id] = json.loads(entities)
    return out


def move_facts(
    conn: sqlite3.Connection,
    entity: Entity,
    user_id: str | None,
    move: Callable[[Fact, Collection[str]], Fact | None],
) -> list[Moved]:
    """The facts' step of ``store/relinking.py``, on the writer's connection: each fact
    written back only at the revision it was read at."""
    names = [normalize_name(entity.name)] + [
        a for (a,) in conn.execute(
            "SELECT alias FROM aliases WHERE tenant_id = ? AND entity_id = ?",
            (entity.tenant_id, entity.id),
        )
    ]  # fmt: skip
    found = query(
        conn,
        f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant_id = ? AND namespace = ?"
        " AND user_id IS ? AND (subject_entity_id = ? OR object_entity_id = ?)"
        " ORDER BY recorded_at, rowid",
        (entity.tenant_id, entity.namespace, user_id, entity.id, entity.id),
    )
    out = moves([fact_from_row(r) for r in found], names, move)
    for before, after in out:
        conn.execute(
            "UPDATE facts SET key = ?, subject = ?, subject_entity_id = ?,"
            " object_entity_id = ?, revision = ? WHERE tenant_id = ? AND id = ? AND revision = ?",
            (after.key, after.subject, after.subject_entity_id, after.object_entity_id,
             after.revision, entity.tenant_id, after.id, before.revision),
        )  # fmt: skip
    for fact_id, side, old, new in edge_moves(out):
        conn.execute(
            f"UPDATE relations SET {side}_entity_id = ? WHERE tenant_id = ? AND fact_id = ?"
            f" AND {side}_entity_id = ?",
            (new, entity.tenant_id, fact_id, old),
        )
    return out


def settle_facts(conn: sqlite3.Connection, deletion: AliasDeletion, moved: Sequence[Moved]) -> None:
    """The supersessions' step of ``store/relinking.py``."""
    keys = touched_keys(moved)
    if not keys:
        return
    e = deletion.entity
    found = [
        fact_from_row(r)
        for r in query(
            conn,
            f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant_id = ? AND namespace = ?"
            f" AND user_id IS ? AND key IN ({', '.join('?' * len(keys))})"
            " ORDER BY recorded_at, rowid",
            (e.tenant_id, e.namespace, deletion.user_id, *keys),
        )
    ]
    settled = deletion.settle(list(moved), found)
    knowledge_writes.apply(conn, settled)
    knowledge_writes.mark_stale(conn, settled.stale_items)
    set_status(conn, settled.silence_items, ItemStatus.SILENT)
    for fact_id, by in unmarks(found, settled):
        conn.execute(
            "UPDATE items SET superseded_by = NULL, metadata = json_remove(metadata, ?)"
            " WHERE tenant_id = ? AND superseded_by = ? AND json_extract(metadata, ?) = ?",
            (f"$.{NO_LONGER_TRUE}", e.tenant_id, by, f"$.{NO_LONGER_TRUE}.fact_id", fact_id),
        )
        conn.execute(
            "UPDATE relations SET active = 1 WHERE tenant_id = ? AND fact_id = ?",
            (e.tenant_id, fact_id),
        )
    _unsilence(conn, deletion, restored_evidence(found, settled))


def _unsilence(conn: sqlite3.Connection, deletion: AliasDeletion, evidence: dict[str, str]) -> None:
    """The evidence items of the constraints made live again that their supersession
    silenced (``unsilences``, from the silent ones' latest history entry), active again."""
    ids = sorted(evidence)
    if not ids:
        return
    t, marks = deletion.entity.tenant_id, ", ".join("?" * len(ids))
    silent = [
        i for (i,) in conn.execute(
            f"SELECT id FROM items WHERE tenant_id = ? AND status = ? AND id IN ({marks})",
            (t, ItemStatus.SILENT.value, *ids),
        )
    ]  # fmt: skip
    latest: dict[str, HistoryEntry] = {}
    if silent:
        found = query(
            conn,
            f"SELECT {HISTORY_COLUMNS} FROM history WHERE tenant_id = ?"
            f" AND target_id IN ({', '.join('?' * len(silent))}) ORDER BY rowid",
            (t, *silent),
        )
        latest = {h.target_id: h for h in (history_from_row(r, decode_time) for r in found)}
    back = unsilences({i: evidence[i] for i in silent}, latest)
    set_status(conn, [i for i, _ in back], ItemStatus.ACTIVE)
    knowledge_writes.apply(conn, deletion.unsilence(back))


def archive_profiles(
    conn: sqlite3.Connection, deletion: AliasDeletion, moved: Sequence[Moved]
) -> list[str]:
    """The profiles' step of ``store/relinking.py``: the user's live profiles whose
    ``entities`` hold one of ``deletion.profiles``, archived; their ids."""
    if not profiles_stale(deletion, moved):
        return []
    e, wanted = deletion.entity, deletion.profiles
    found = [
        i for (i,) in conn.execute(
            "SELECT id FROM items WHERE tenant_id = ? AND namespace = ? AND user_id IS ?"
            " AND kind = ? AND status = ? AND json_extract(metadata, ?) = ?"
            " AND EXISTS (SELECT 1 FROM json_each(items.entities) AS x"
            f" WHERE x.value IN ({', '.join('?' * len(wanted))})) ORDER BY occurred_at, id",
            (e.tenant_id, e.namespace, deletion.user_id, ItemKind.SUMMARY.value,
             ItemStatus.ACTIVE.value, _GROUP, PROFILE_GROUP, *wanted),
        )
    ]  # fmt: skip
    set_status(conn, found, ItemStatus.ARCHIVED)
    return found


def retire_entity(conn: sqlite3.Connection, entity: Entity) -> bool:
    """Delete ``entity`` when nothing names it any more (an entity merged back): no alias
    row of any user, no fact or relation, no live item of its namespace (``entities``:
    an archived summary does not count); whether it went."""
    t, e = entity.tenant_id, entity.id
    named = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM aliases WHERE tenant_id = ? AND entity_id = ?)"
        " OR EXISTS (SELECT 1 FROM facts WHERE tenant_id = ?"
        " AND (subject_entity_id = ? OR object_entity_id = ?))"
        " OR EXISTS (SELECT 1 FROM relations WHERE tenant_id = ?"
        " AND (source_entity_id = ? OR target_entity_id = ?))"
        " OR EXISTS (SELECT 1 FROM items, json_each(items.entities) AS x"
        " WHERE items.tenant_id = ? AND items.namespace = ? AND x.value = ?"
        " AND items.status NOT IN (?, ?))",
        (t, e, t, e, e, t, e, e, t, entity.namespace, e, *GONE_ITEMS),
    ).fetchone()[0]
    if named:
        return False
    return conn.execute("DELETE FROM entities WHERE tenant_id = ? AND id = ?", (t, e)).rowcount > 0
