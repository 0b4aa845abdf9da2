"""The conditions on whose rows an export reads (``ExportReach.owned_sql`` and
``alias_sql``), written once for both backends: each renders them with its own
placeholders, and the values come back in the order the SQL names them."""

from __future__ import annotations

from cognimem.models import Scope
from cognimem.store.export_reach import ExportReach
from cognimem.store.postgres.rows import Params as NumberedParams
from cognimem.store.sqlite.rows import Params as QuestionParams


def _reach(user: str | None, agent: str | None, **kw: bool) -> ExportReach:
    scope = Scope(tenant_id="t", namespace="ns", user_id=user, agent_id=agent)
    return ExportReach(scope, **kw)


def test_a_users_rows_are_the_users_of_the_namespace() -> None:
    params = QuestionParams()
    sql = _reach("u1", "a1").owned_sql(params.add, lambda a: f"IS {params.add(a)}")
    assert sql == "tenant_id = ? AND namespace = ? AND user_id = ?"
    assert params.values == ["t", "ns", "u1"]


def test_a_levels_rows_are_no_users_and_its_agents_where_the_table_has_one() -> None:
    reach = _reach(None, "a1", level_only=True)
    params = QuestionParams()
    sql = reach.owned_sql(params.add, lambda a: f"IS {params.add(a)}", "i.")
    assert sql == "i.tenant_id = ? AND i.namespace = ? AND i.user_id IS NULL AND i.agent_id IS ?"
    assert params.values == ["t", "ns", "a1"]
    entities = QuestionParams()
    assert reach.owned_sql(entities.add, None) == (
        "tenant_id = ? AND namespace = ? AND user_id IS NULL"
    )
    assert entities.values == ["t", "ns"]


def test_every_namespace_drops_the_namespace_and_numbers_follow_the_text() -> None:
    params = NumberedParams()
    sql = _reach(None, None, all_namespaces=True, level_only=True).owned_sql(
        params.add, lambda a: "IS NULL" if a is None else f"= {params.add(a)}"
    )
    assert sql == "tenant_id = $1 AND user_id IS NULL AND agent_id IS NULL"
    assert params.values == ["t"]


def test_a_users_aliases_take_the_shared_aliases_of_the_users_entities() -> None:
    params = NumberedParams()
    sql = _reach("u1", "a1").alias_sql(params.add)
    assert sql == (
        "tenant_id = $1 AND namespace = $2 AND (user_key = $3 OR entity_id IN"
        " (SELECT id FROM entities WHERE tenant_id = $4 AND namespace = $5 AND user_id = $6))"
    )
    assert params.values == ["t", "ns", "u:u1", "t", "ns", "u1"]


def test_a_levels_aliases_are_those_of_no_user_and_every_users_are_unfiltered() -> None:
    level = QuestionParams()
    sql = _reach(None, "a1", level_only=True).alias_sql(level.add)
    assert sql == "tenant_id = ? AND namespace = ? AND user_key = ?"
    assert level.values == ["t", "ns", ""]
    everyone = QuestionParams()
    assert _reach(None, None).alias_sql(everyone.add) == "tenant_id = ? AND namespace = ?"
    assert everyone.values == ["t", "ns"]
