"""Items and facts read back on every backend are built from their rows without being
validated again (``models.items.trusted``): each must be the model a validation of the
same values makes (equal, the same types, fields in the same order, the same dump) and
the model that was written, for every shape of column: NULLs, empty and nested JSON,
times written in other zones, flags, enums and counters."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from pydantic import BaseModel

from cognimem.models import ItemKind, ItemStatus, MemoryItem, Tier
from cognimem.models.knowledge import Fact, FactCategory, FactStatus
from cognimem.store import Store
from cognimem.store.types import Knowledge
from tests.contract.builders import ALICE, WINDOW, fact, new
from tests.contract.conftest import T0, message

INDIA = timezone(timedelta(hours=5, minutes=30))
LIMA = timezone(timedelta(hours=-5))


def _same_as_validated(got: BaseModel) -> None:
    want = type(got)(**got.__dict__)
    assert got == want
    assert list(got.__dict__) == list(want.__dict__) == list(type(got).model_fields)
    assert [type(v) for v in got.__dict__.values()] == [type(v) for v in want.__dict__.values()]
    assert got.model_fields_set == want.model_fields_set
    assert got.model_dump_json() == want.model_dump_json()
    assert got.model_dump() == want.model_dump()
    for value in got.__dict__.values():
        if isinstance(value, datetime):
            assert value.tzinfo is UTC


def _full_item(base: MemoryItem) -> MemoryItem:
    at = datetime(2023, 7, 9, 23, 59, 58, 123457, tzinfo=INDIA)
    return base.model_copy(
        update={
            "kind": ItemKind.PREFERENCE,
            "key": "user:preference:drink",
            "entities": ["Ann", "café ☕"],
            "source_event_ids": [*base.source_event_ids, "evt_other"],
            "external_ids": ["ext-1"],
            "author": "Ann",
            "occurred_at": at,
            "recorded_at": at.astimezone(LIMA),
            "event_start": datetime(2023, 7, 8, tzinfo=LIMA),
            "event_end": datetime(2023, 7, 9, 0, 0, 0, 1, tzinfo=LIMA),
            "importance": 1.0,
            "novelty": 0.25,
            "confidence": 0.0,
            "tier": Tier.HIGH,
            "status": ItemStatus.SILENT,
            "token_count": 7,
            "consolidated": True,
            "supersedes": "mem_old",
            "superseded_by": "mem_new",
            "metadata": {"a": {"b": [1, 2.5, None, True]}, "ü": "x", "empty": {}},
        }
    )


async def test_items_read_back_are_the_validated_models(store: Store) -> None:
    bare, full, used = message("bare", ALICE), message("full", ALICE), message("used", ALICE)
    full.items[0] = replace(full.items[0], item=_full_item(full.items[0].item))
    written = {m.items[0].item.id: m.items[0].item for m in (bare, full, used)}
    ids = [r.item_ids[0] for r in await store.commit([bare, full, used], WINDOW)]
    await store.record_usage("t1", [ids[2]], {"loaded_count": 3, "cited_count": 2})
    await store.record_access("t1", [ids[2]], datetime(2024, 2, 1, 8, tzinfo=INDIA))
    items, _ = await store.items_and_facts("t1", ids, [])
    assert [i.id for i in items] == ids
    for got in items:
        _same_as_validated(got)
    assert items[0].key is items[0].event_start is items[0].last_accessed_at is None
    assert items[0].metadata == {}
    assert items[0].entities == []
    assert _utc(items[1]) == _utc(written[ids[1]])
    counted = {"loaded_count": 3, "cited_count": 2, "access_count": 1}
    assert items[2].last_accessed_at == datetime(2024, 2, 1, 2, 30, tzinfo=UTC)
    assert _utc(items[2]) == {
        **_utc(written[ids[2]]),
        **counted,
        "last_accessed_at": items[2].last_accessed_at,
    }


async def test_facts_read_back_are_the_validated_models(store: Store) -> None:
    bare = fact("user:pet", "cat")
    full = fact(
        "user:preference:drink:tea",
        "tea",
        category=FactCategory.GOAL,
        status=FactStatus.SUPERSEDED,
        at=datetime(2023, 7, 9, 23, 59, 58, 123457, tzinfo=INDIA),
        subject_entity_id="ent_a",
        object_entity_id="ent_b",
        polarity=False,
        scope_tags=["area:food", "ü"],
        confidence=1.0,
        confidence_factors={"extraction": 0.6, "repeat": 1.0},
        superseded_by="fact_next",
        valid_from=datetime(2020, 1, 1, tzinfo=LIMA),
        valid_to=datetime(2021, 1, 1, tzinfo=INDIA),
        recorded_to=T0 + timedelta(microseconds=1),
        evidence_item_ids=["mem_1", "mem_2"],
        evidence_event_ids=["evt_1"],
        importance=0.0,
        revision=3,
        embedding_model="hash-64",
        provenance={"coreference": [{"said": "She", "name": "Ann"}], "n": [1, 2.5]},
    )
    await store.commit([], WINDOW, Knowledge(facts=new(bare, full)))
    _, facts = await store.items_and_facts("t1", [], [bare.id, full.id])
    assert [f.id for f in facts] == [bare.id, full.id]
    for got, written in zip(facts, (bare, full), strict=True):
        _same_as_validated(got)
        assert got.model_dump() == _utc(written)
        assert isinstance(got, Fact)


def _utc(model: BaseModel) -> dict[str, Any]:
    """The model's values as a read gives them back: times in UTC."""
    return {
        k: v.astimezone(UTC) if isinstance(v, datetime) else v
        for k, v in model.model_dump().items()
    }
