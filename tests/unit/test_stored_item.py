"""Models built from stored values without validation (``models.items.trusted``): a
value of a shape never written (an integer in a float column, an event period with one
end) is validated as before, so it converts or raises as a validated model would; the
SQLite time decoder is ``from_micros(int(value))``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from cognimem.models import MemoryItem, Scope
from cognimem.models.clock import from_micros, to_micros
from cognimem.models.items import stored_item, trusted
from cognimem.models.knowledge import Fact, FactCategory
from cognimem.store import records, row_values
from cognimem.store.records import FACT_COLUMNS, ITEM_COLUMNS
from cognimem.store.sqlite.rows import decode_time, encode_time

AT = datetime(2024, 5, 4, 10, 30, 0, 250_001, tzinfo=UTC)
SCOPE = Scope(tenant_id="t1", user_id="alice")


def _item(**kw: Any) -> MemoryItem:
    return MemoryItem(id="mem_1", scope=SCOPE, text="hi", occurred_at=AT, recorded_at=AT, **kw)


def _values(item: MemoryItem, **changed: Any) -> dict[str, Any]:
    return {**item.__dict__, **changed}


def test_a_trusted_model_is_the_validated_one() -> None:
    item = _item(entities=["a"], metadata={"k": [1]}, novelty=0.5)
    made = trusted(MemoryItem, dict(item.__dict__))
    assert made == item
    assert made.model_dump_json() == item.model_dump_json()
    assert made.model_fields_set == set(MemoryItem.model_fields)  # every field given
    with pytest.raises(ValidationError):  # frozen, as a validated one
        made.text = "changed"


def test_a_float_column_holding_an_integer_is_validated() -> None:
    item = stored_item(_values(_item(), importance=1, confidence=0, novelty=1))
    assert (type(item.importance), type(item.confidence), type(item.novelty)) == (float,) * 3
    validated = _item(importance=1.0, confidence=0.0, novelty=1.0)
    assert item.model_dump_json() == validated.model_dump_json()


@pytest.mark.parametrize(
    "period", [{"event_start": AT, "event_end": None}, {"event_start": AT, "event_end": AT}]
)
def test_an_event_period_never_written_raises_as_before(period: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="event_"):
        stored_item(_values(_item(), **period))


def _fact_row(fact: Fact, **changed: Any) -> tuple[Any, ...]:
    columns = [c.strip() for c in FACT_COLUMNS.split(",")]
    values = {**row_values.fact_values(fact, encode_time), **changed}
    return tuple(values[c] for c in columns)


def test_a_fact_factor_stored_as_an_integer_is_validated() -> None:
    fact = Fact(
        id="fact_1",
        scope=SCOPE,
        key="user:pet",
        subject="user",
        predicate="pet",
        category=FactCategory.POSSESSION,
        value="cat",
        text="the user has a cat",
        confidence_factors={"extraction": 1.0},
        last_validated_at=AT,
        recorded_at=AT,
    )
    got = records.fact_from_row(_fact_row(fact), decode_time)
    assert got == fact
    assert got.model_dump_json() == fact.model_dump_json()
    loose = records.fact_from_row(
        _fact_row(fact, confidence_factors='{"extraction": 1}'), decode_time
    )
    assert type(loose.confidence_factors["extraction"]) is float
    assert loose.model_dump_json() == fact.model_dump_json()


def test_an_item_row_decodes_to_the_item_written() -> None:
    item = _item(event_start=AT, event_end=AT.replace(year=2025), metadata={"x": {"y": None}})
    row = row_values.item_values(item, encode_time)
    assert len(row) == len(ITEM_COLUMNS.split(","))
    assert records.item_from_row(row, decode_time) == item


@pytest.mark.parametrize("micros", [0, 1, -1, 1_714_818_600_250_001, -62_135_596_800_000_000])
def test_the_sqlite_time_decoder_is_from_micros(micros: int) -> None:
    assert decode_time(micros) == from_micros(micros)
    assert decode_time(float(micros)) == from_micros(micros)
    assert decode_time(str(micros)) == from_micros(micros)
    assert decode_time(None) is None
    assert to_micros(from_micros(micros)) == micros
