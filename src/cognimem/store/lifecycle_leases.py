"""The statements both backends run on ``lifecycle_runs``' leases
(``store/{sqlite,postgres}/lifecycle.py``), written once. ``param(n)`` spells the n-th
placeholder: ``$n`` on PostgreSQL; ``?`` on SQLite, which binds its values in the order
the text names them. Parameters 1 to 4 are a lease's row, ``lease_key``
(``store/lifecycle_due.py``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class LeaseStatements:
    """The lease statements with one backend's placeholders."""

    holder: str  # the job holding the row: the key
    take_on_conflict: str  # after an INSERT of a new lease: take a free or lapsed one
    renew: str  # 5: the new deadline, 6: the token
    release: str  # 5: done_from (None: not done), 6: the job id done, 7: the token
    drop: str  # 5: the token
    drop_runs: str  # 1: the tenant, 2: the holder's user_key


def lease_statements(param: Callable[[int], str]) -> LeaseStatements:
    """The statements, ``param(n)`` the n-th placeholder."""
    key = (
        f"tenant_id = {param(1)} AND namespace = {param(2)} AND user_key = {param(3)}"
        f" AND op = {param(4)}"
    )
    return LeaseStatements(
        holder=f"SELECT job_id FROM lifecycle_runs WHERE {key}",
        take_on_conflict=(
            " ON CONFLICT (tenant_id, namespace, user_key, op) DO UPDATE SET"
            " job_id = excluded.job_id, holder = excluded.holder,"
            " lease_token = excluded.lease_token, lease_until = excluded.lease_until"
            " WHERE lifecycle_runs.lease_token IS NULL OR lifecycle_runs.lease_until"
            f" < {param(10)} OR lifecycle_runs.job_id = excluded.job_id"
            " RETURNING lease_token"
        ),
        renew=f"UPDATE lifecycle_runs SET lease_until = {param(5)} WHERE {key}"
        f" AND lease_token = {param(6)}",
        release="UPDATE lifecycle_runs SET holder = NULL, lease_token = NULL,"
        f" lease_until = NULL, done_from = coalesce({param(5)}, done_from),"
        f" last_job_id = coalesce({param(6)}, last_job_id) WHERE {key}"
        f" AND lease_token = {param(7)}",
        drop=f"DELETE FROM lifecycle_runs WHERE {key} AND lease_token = {param(5)}",
        drop_runs="DELETE FROM lifecycle_runs WHERE tenant_id ="
        f" {param(1)} AND user_key = {param(2)}",
    )
