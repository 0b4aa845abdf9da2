"""store/records.py's RowReader: a model read from the row whose columns bear its
fields' names, each decoded by the field's type."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from cognimem.models.knowledge import FactConflict, HistoryEntry
from cognimem.models.procedures import Procedure
from cognimem.store.procedure_records import PROCEDURE_COLUMNS
from cognimem.store.records import CONFLICT_COLUMNS, RowReader


def _time(value: Any) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


def test_each_field_is_decoded_by_its_type() -> None:
    row = {
        "id": "c1",
        "tenant_id": "t",
        "namespace": "n",
        "user_id": "u",
        "agent_id": None,
        "session_id": "s",
        "key": "user.diet",
        "fact_ids": '["f1", "f2"]',
        "strategy": "ask_user",
        "status": "open",
        "winner_fact_id": None,
        "created_at": 86_400,
        "resolved_at": None,
        "note": "",
    }
    conflict = RowReader(FactConflict, CONFLICT_COLUMNS)(row, _time)
    assert conflict.scope.session_id == "s"
    assert conflict.scope.agent_id is None
    assert conflict.fact_ids == ["f1", "f2"]  # JSON text
    assert conflict.strategy.value == "ask_user"  # an enum from its value
    assert conflict.created_at == datetime(1970, 1, 2, tzinfo=UTC)  # the backend's decoder
    assert conflict.resolved_at is None


def test_a_renamed_column_a_model_and_an_optional_json_are_read() -> None:
    row = {
        "id": "p1",
        "tenant_id": "t",
        "namespace": "n",
        "user_id": "u",
        "agent_id": "a",
        "trigger_text": "deploy the app",
        "trigger_terms": '["deploy"]',
        "action": '{"kind": "answer", "tools": [], "text": "run make deploy"}',
        "observed_count": 3,
        "trigger_count": 1,
        "confidence": 0.6,
        "request_event_ids": '["e1"]',
        "source_event_ids": "[]",
        "first_seen_at": 1,
        "last_seen_at": 2,
        "created_at": 3,
        "updated_at": 4,
        "revision": 2,
    }
    read = RowReader(
        Procedure, PROCEDURE_COLUMNS, session=None, renamed={"trigger": "trigger_text"}
    )
    procedure = read(row, _time)
    assert procedure.trigger == "deploy the app"
    assert procedure.action.text == "run make deploy"  # a model from its JSON
    assert procedure.scope.agent_id == "a"
    assert procedure.scope.session_id is None
    history = RowReader(
        HistoryEntry,
        "id, tenant_id, target_type, target_id, action, actor, at, before, after, event_id",
    )
    entry = history(
        {"id": "h", "tenant_id": "t", "target_type": "fact", "target_id": "f", "action": "x",
         "actor": "api", "at": 5, "before": None, "after": '{"v": 1}', "event_id": None},
        _time,
    )  # fmt: skip
    assert (entry.before, entry.after) == (None, {"v": 1})


def test_a_field_with_no_column_is_refused_when_the_reader_is_made() -> None:
    with pytest.raises(ValueError, match=r"FactConflict\.note"):
        RowReader(FactConflict, CONFLICT_COLUMNS.replace(", note", ""))
