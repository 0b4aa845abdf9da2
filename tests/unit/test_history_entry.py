"""``HistoryEntry.new`` is the one place history entries are made: it gives each a fresh
id and keeps what the caller passes, and no module of src/ builds one by hand (only the
stores' row reader rebuilds stored entries)."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

from cognimem.models import MemoryItem, Scope
from cognimem.models.knowledge import Entity, Fact, FactCategory, FactConflict, HistoryEntry

SRC = Path(__file__).resolve().parents[2] / "src" / "cognimem"
AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
# the model itself, and the store's reader that rebuilds an entry from its stored row
MAY_CALL_THE_CONSTRUCTOR = {"models/knowledge.py", "store/records.py"}


def test_new_fills_a_fresh_id_and_keeps_every_field() -> None:
    first = HistoryEntry.new(
        tenant_id="t1",
        target_type="fact",
        target_id="fct_1",
        action="superseded",
        at=AT,
        actor="api",
        before={"value": "Paris"},
        after={"value": "Lyon"},
        event_id="evt_1",
    )
    second = HistoryEntry.new(
        tenant_id="t1", target_type="fact", target_id="fct_1", action="superseded", at=AT
    )

    assert first.id.startswith("hst_")
    assert second.id.startswith("hst_")
    assert first.id != second.id
    assert first.model_dump(exclude={"id"}) == {
        "tenant_id": "t1",
        "target_type": "fact",
        "target_id": "fct_1",
        "action": "superseded",
        "actor": "api",
        "at": AT,
        "before": {"value": "Paris"},
        "after": {"value": "Lyon"},
        "event_id": "evt_1",
    }
    assert (second.actor, second.before, second.after, second.event_id) == (
        "ingest",
        None,
        None,
        None,
    )


def test_new_takes_another_id_prefix() -> None:
    entry = HistoryEntry.new(
        tenant_id="t1",
        target_type="item",
        target_id="mem_1",
        action="consolidated",
        at=AT,
        id_prefix="hist",
    )

    assert entry.id.startswith("hist_")


def test_target_names_each_kind_of_record_by_its_tenant_type_and_id() -> None:
    scope = Scope(tenant_id="t1", user_id="u1")
    item = MemoryItem(id="mem_1", scope=scope, text="x", occurred_at=AT, recorded_at=AT)
    fact = Fact(
        id="fct_1",
        scope=scope,
        key="user:location:home",
        subject="user",
        predicate="lives in",
        category=FactCategory.LOCATION,
        value="Lyon",
        text="I live in Lyon",
        last_validated_at=AT,
        recorded_at=AT,
    )
    conflict = FactConflict(
        id="cfl_1", scope=scope, key=fact.key, fact_ids=["fct_1"], created_at=AT
    )
    entity = Entity(
        id="ent_1", tenant_id="t2", namespace="default", user_id=None, name="Ann", created_at=AT
    )

    named = [HistoryEntry.target(r) for r in (item, fact, conflict, entity)]
    entry = HistoryEntry.new(**HistoryEntry.target(conflict), action="resolved", at=AT)

    assert named == [
        {"tenant_id": "t1", "target_type": "item", "target_id": "mem_1"},
        {"tenant_id": "t1", "target_type": "fact", "target_id": "fct_1"},
        {"tenant_id": "t1", "target_type": "conflict", "target_id": "cfl_1"},
        {"tenant_id": "t2", "target_type": "entity", "target_id": "ent_1"},
    ]
    assert (entry.tenant_id, entry.target_type, entry.target_id) == ("t1", "conflict", "cfl_1")


def test_no_module_builds_a_history_entry_by_hand() -> None:
    by_hand = []
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC).as_posix()
        if relative in MAY_CALL_THE_CONSTRUCTOR:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "HistoryEntry"
            ):
                by_hand.append(f"{relative}:{node.lineno}")

    assert by_hand == []


def passes_its_arguments_to_new(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``node`` only hands its own parameters to ``HistoryEntry.new``: a second
    factory with an argument order of its own."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    call = body[0].value
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "new"
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "HistoryEntry"
    ):
        return False
    params = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
    passed = [*call.args, *(k.value for k in call.keywords)]
    return all(isinstance(v, ast.Name) and v.id in params for v in passed)


def test_no_module_wraps_the_factory() -> None:
    wrappers = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
                passes_its_arguments_to_new(node) and node.name != "new"
            ):
                wrappers.append(f"{path.relative_to(SRC).as_posix()}:{node.name}")

    assert wrappers == []
