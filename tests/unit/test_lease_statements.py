"""The lease statements on ``lifecycle_runs`` are written once (``store/lifecycle_leases.py``)
and each backend renders them with its placeholders: numbered on PostgreSQL, ``?`` in
the order of the text on SQLite."""

from __future__ import annotations

from cognimem.store.lifecycle_leases import lease_statements

_KEY_PG = "tenant_id = $1 AND namespace = $2 AND user_key = $3 AND op = $4"
_KEY_SQ = "tenant_id = ? AND namespace = ? AND user_key = ? AND op = ?"


def test_postgres_numbers_the_key_first_and_the_rest_after_it() -> None:
    sql = lease_statements(lambda n: f"${n}")
    assert sql.holder == f"SELECT job_id FROM lifecycle_runs WHERE {_KEY_PG}"
    assert sql.renew == (
        f"UPDATE lifecycle_runs SET lease_until = $5 WHERE {_KEY_PG} AND lease_token = $6"
    )
    assert sql.release == (
        "UPDATE lifecycle_runs SET holder = NULL, lease_token = NULL, lease_until = NULL,"
        " done_from = coalesce($5, done_from), last_job_id = coalesce($6, last_job_id)"
        f" WHERE {_KEY_PG} AND lease_token = $7"
    )
    assert sql.drop == f"DELETE FROM lifecycle_runs WHERE {_KEY_PG} AND lease_token = $5"
    assert sql.drop_runs == "DELETE FROM lifecycle_runs WHERE tenant_id = $1 AND user_key = $2"
    assert "lifecycle_runs.lease_until < $10 OR" in sql.take_on_conflict


def test_sqlite_writes_the_same_statements_with_question_marks() -> None:
    sql = lease_statements(lambda _: "?")
    assert sql.renew == (
        f"UPDATE lifecycle_runs SET lease_until = ? WHERE {_KEY_SQ} AND lease_token = ?"
    )
    assert sql.drop == f"DELETE FROM lifecycle_runs WHERE {_KEY_SQ} AND lease_token = ?"
    assert sql.take_on_conflict == (
        " ON CONFLICT (tenant_id, namespace, user_key, op) DO UPDATE SET"
        " job_id = excluded.job_id, holder = excluded.holder,"
        " lease_token = excluded.lease_token, lease_until = excluded.lease_until"
        " WHERE lifecycle_runs.lease_token IS NULL OR lifecycle_runs.lease_until < ?"
        " OR lifecycle_runs.job_id = excluded.job_id RETURNING lease_token"
    )
