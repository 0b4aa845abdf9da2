"""The scheduler's pure decisions: when a scope is due for an operation and under which
job key, the retry backoff, and the lifecycle settings as the environment gives them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Settings
from cognimem.config import OperationSchedule
from cognimem.models import Scope
from cognimem.services.lifecycle.operations import backoff_s, due_trigger, lifecycle_job_id
from cognimem.store.types import DueScope

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


def due(
    new: int, closed: int = 0, done: datetime | None = None, first: datetime | None = None
) -> DueScope:
    return DueScope("t", "default", "ada", new, closed, done, first or NOW - timedelta(minutes=5))


def test_episodes_sessions_and_intervals_trigger_in_that_order() -> None:
    every = OperationSchedule(after_episodes=10, on_session_close=True, interval_s=3600)
    assert due_trigger(due(3), every, NOW) is None
    assert due_trigger(due(10), every, NOW).name == "episodes"  # type: ignore[union-attr]
    assert due_trigger(due(3, closed=1), every, NOW).name == "session_closed"  # type: ignore[union-attr]
    # the interval counts from the last run's start, or for a scope never run from its
    # first new episode; with nothing new, no interval triggers
    assert due_trigger(due(1, done=NOW - timedelta(hours=2)), every, NOW).name == "interval"  # type: ignore[union-attr]
    assert due_trigger(due(1, done=NOW - timedelta(minutes=59)), every, NOW) is None
    assert due_trigger(due(1, first=NOW - timedelta(hours=1)), every, NOW).name == "interval"  # type: ignore[union-attr]
    assert due_trigger(due(0, done=NOW - timedelta(days=9)), every, NOW) is None
    assert due_trigger(due(100, closed=5), OperationSchedule(), NOW) is None  # all off


def test_one_job_key_per_completed_run_and_interval_period() -> None:
    schedule = OperationSchedule(after_episodes=1, interval_s=3600)
    last = NOW - timedelta(days=1)
    first = due_trigger(due(5, done=last), schedule, NOW)
    later = due_trigger(due(9, closed=1, done=last), schedule, NOW + timedelta(minutes=1))
    assert first is not None
    assert later is not None
    assert first.key == later.key  # the same epoch: one job
    next_period = due_trigger(due(9, done=last), schedule, NOW + timedelta(hours=1))
    after_run = due_trigger(due(1, done=NOW), schedule, NOW)
    assert next_period is not None
    assert after_run is not None
    assert len({first.key, next_period.key, after_run.key}) == 3
    scope = Scope(tenant_id="t", user_id="ada")
    assert lifecycle_job_id("revise", scope, first.key) == lifecycle_job_id(
        "revise", scope, first.key
    )
    assert lifecycle_job_id("revise", scope, first.key) != lifecycle_job_id(
        "consolidate", scope, first.key
    )
    assert lifecycle_job_id("revise", scope, first.key) != lifecycle_job_id(
        "revise", Scope(tenant_id="t", user_id="bob"), first.key
    )


@pytest.mark.parametrize(("attempts", "wait"), [(1, 5.0), (2, 10.0), (3, 20.0), (9, 300.0)])
def test_backoff_doubles_up_to_its_cap(attempts: int, wait: float) -> None:
    assert backoff_s(attempts, 5.0, 300.0) == wait


def test_lifecycle_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGNIMEM_LIFECYCLE__TICK_S", "5")
    monkeypatch.setenv("COGNIMEM_LIFECYCLE__OPERATIONS__CONSOLIDATE__AFTER_EPISODES", "7")
    settings = Settings()
    assert settings.lifecycle.tick_s == 5
    schedules = settings.lifecycle.operations.by_name()
    assert schedules["consolidate"].after_episodes == 7
    assert schedules["consolidate"].interval_s == 86_400  # the rest keeps its defaults
    assert schedules["revise"].after_episodes == 20
    monkeypatch.setenv("COGNIMEM_LIFECYCLE__OPERATIONS__SUMMARISE__INTERVAL_S", "60")
    assert Settings().lifecycle.operations.by_name()["summarise"].interval_s == 60
    monkeypatch.setenv("COGNIMEM_LIFECYCLE__LEASE_S", "0")
    with pytest.raises(ValueError, match="lease_s"):
        Settings()
