"""The item and fact decoders both backends share (``store/records.py``) read a row of
``ITEM_COLUMNS`` / ``FACT_COLUMNS`` by position, from a given column on: the same models,
field for field, as the generic by-name reader (``records.RowReader``) makes of the same
values, with every field set and with the empty defaults."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from cognimem.models import MemoryItem
from cognimem.models.knowledge import Fact
from cognimem.store import records
from cognimem.store.records import FACT_COLUMNS, ITEM_COLUMNS
from cognimem.store.sqlite import rows

DAY = 86_400_000_000  # a day in microseconds, as SQLite stores times

ITEM_FULL: dict[str, Any] = {
    "id": "mem_1", "tenant_id": "t", "namespace": "n", "user_id": "u", "agent_id": "a",
    "session_id": "s", "text": "I keep bees.", "kind": "fact", "key": "user:bees",
    "entities": '["ent_1"]', "source_event_ids": '["evt_1", "evt_2"]',
    "external_ids": '["x1"]', "author": "Ann", "occurred_at": 3 * DAY,
    "recorded_at": 4 * DAY, "importance": 0.9, "confidence": 0.8, "tier": "high",
    "status": "archived", "token_count": 5, "access_count": 3, "last_accessed_at": 5 * DAY,
    "loaded_count": 2, "cited_count": 1, "success_count": 1, "failure_count": 4,
    "consolidated": 1, "supersedes": "mem_0", "superseded_by": "mem_2",
    "embedding_model": "m", "metadata": '{"source": "chat", "n": [1, 2]}',
    "event_start": 1 * DAY, "event_end": 2 * DAY, "novelty": 0.25,
}  # fmt: skip
ITEM_EMPTY = {
    **ITEM_FULL,
    "agent_id": None, "session_id": None, "kind": "episode", "key": None, "entities": "[]",
    "external_ids": "[]", "author": None, "tier": "medium", "status": "active",
    "last_accessed_at": None, "consolidated": 0, "supersedes": None, "superseded_by": None,
    "embedding_model": None, "metadata": "{}", "event_start": None, "event_end": None,
    "novelty": None,
}  # fmt: skip
FACT_FULL: dict[str, Any] = {
    "id": "fct_1", "tenant_id": "t", "namespace": "n", "user_id": "u", "agent_id": "a",
    "session_id": "s", "key": "user:diet", "subject": "user", "subject_entity_id": "ent_1",
    "predicate": "diet", "category": "preference", "value": "vegan", "polarity": 0,
    "object_entity_id": "ent_2", "text": "The user is not vegan.",
    "scope_tags": '["area:food"]', "confidence": 0.6,
    "confidence_factors": '{"extraction": 0.6}', "reinforcement_count": 2,
    "last_validated_at": 3 * DAY, "status": "superseded", "superseded_by": "fct_2",
    "valid_from": 1 * DAY, "valid_to": 2 * DAY, "recorded_at": 4 * DAY,
    "evidence_item_ids": '["mem_1"]', "evidence_event_ids": '["evt_1"]', "importance": 0.7,
    "revision": 3, "embedding_model": "m", "provenance": '{"coreference": []}',
    "recorded_to": 5 * DAY,
}  # fmt: skip
FACT_EMPTY = {
    **FACT_FULL,
    "agent_id": None, "session_id": None, "subject_entity_id": None, "polarity": 1,
    "object_entity_id": None, "scope_tags": "[]", "confidence_factors": "{}",
    "status": "active", "superseded_by": None, "valid_from": None, "valid_to": None,
    "evidence_item_ids": "[]", "evidence_event_ids": "[]", "embedding_model": None,
    "provenance": "{}", "recorded_to": None,
}  # fmt: skip


def _row(columns: str, values: dict[str, Any], select: str | None = None) -> sqlite3.Row:
    names = [c.strip() for c in columns.split(",")]
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE TABLE r ({columns})")
    conn.execute(
        f"INSERT INTO r VALUES ({', '.join('?' * len(names))})", [values[n] for n in names]
    )
    return rows.query(conn, f"SELECT {select or columns} FROM r", ())[0]


def _by_name(row: sqlite3.Row) -> dict[str, Any]:
    return dict(zip(row.keys(), row, strict=True))


_ITEMS_BY_NAME = records.RowReader(MemoryItem, ITEM_COLUMNS)
_FACTS_BY_NAME = records.RowReader(Fact, FACT_COLUMNS)


@pytest.mark.parametrize("values", [ITEM_FULL, ITEM_EMPTY], ids=["every field", "defaults"])
def test_an_item_read_by_position_is_the_item_read_by_name(values: dict[str, Any]) -> None:
    row = _row(ITEM_COLUMNS, values)
    by_name = _ITEMS_BY_NAME(_by_name(row), rows.decode_time)
    item = records.item_from_row(row, rows.decode_time)
    assert item == by_name
    assert item.model_dump() == by_name.model_dump()
    assert item.model_fields_set == by_name.model_fields_set
    assert rows.item_from_row(row) == item


@pytest.mark.parametrize("values", [FACT_FULL, FACT_EMPTY], ids=["every field", "defaults"])
def test_a_fact_read_by_position_is_the_fact_read_by_name(values: dict[str, Any]) -> None:
    row = _row(FACT_COLUMNS, values)
    by_name = _FACTS_BY_NAME(_by_name(row), rows.decode_time)
    fact = records.fact_from_row(row, rows.decode_time)
    assert fact == by_name
    assert fact.model_dump() == by_name.model_dump()
    assert fact.model_fields_set == by_name.model_fields_set
    assert rows.fact_from_row(row) == fact


def test_the_columns_are_read_from_the_given_position_on() -> None:
    """An export page's row: ``seq`` first, the model's columns, then one more."""
    item = {**ITEM_FULL, "seq": 7, "search_text": "bees"}
    row = _row(f"seq, {ITEM_COLUMNS}, search_text", item)
    expected = records.item_from_row(_row(ITEM_COLUMNS, ITEM_FULL), rows.decode_time)
    assert records.item_from_row(row, rows.decode_time, at=1) == expected
    fact = {**FACT_FULL, "seq": 7, "embedding": b"\0\0\0\0"}
    row = _row(f"seq, {FACT_COLUMNS}, embedding", fact)
    expected_fact = records.fact_from_row(_row(FACT_COLUMNS, FACT_FULL), rows.decode_time)
    assert records.fact_from_row(row, rows.decode_time, at=1) == expected_fact


def test_a_bad_stored_value_is_refused_as_before() -> None:
    with pytest.raises(ValueError, match="not a valid ItemKind"):
        rows.item_from_row(_row(ITEM_COLUMNS, {**ITEM_FULL, "kind": "no such kind"}))
    with pytest.raises(ValueError, match="not a valid FactStatus"):
        rows.fact_from_row(_row(FACT_COLUMNS, {**FACT_FULL, "status": "no such status"}))


@pytest.mark.parametrize(
    "micros",
    [0, 1, -1, 999_999, 1_700_000_000_123_457, 4_102_444_800_000_001, -86_400_000_000_001],
)
def test_sqlite_times_decode_as_from_micros(micros: int) -> None:
    """SQLite's ``decode_time`` holds ``from_micros``' formula in its one call: the
    same datetime, NULL as None."""
    from cognimem.models.clock import from_micros

    assert rows.decode_time(micros) == from_micros(micros)
    assert rows.decode_time(micros).tzinfo == from_micros(micros).tzinfo
    assert rows.decode_time(None) is None
