"""The ``LifecycleStore`` role on every backend: a scope's lease per lifecycle operation
(held by one run at a time, lost when it runs out, taken over by a redelivery of the same
job) and when the last completed run began."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from cognimem.store import Store
from cognimem.store.types import ScopeLease

T0 = datetime(2024, 1, 1, tzinfo=UTC)
LEASE = ScopeLease("t1", "default", "ada", "consolidate", "w1", "token-1", "job-1")


async def test_one_run_holds_a_scope_until_its_lease_runs_out(store: Store) -> None:
    other = replace(LEASE, holder="w2", token="token-2", job_id="job-2")
    assert await store.take_lease(LEASE, now=T0, until=T0 + timedelta(seconds=60)) is None
    # another job is refused while the lease holds, and told whose it is
    assert await store.take_lease(other, now=T0, until=T0 + timedelta(seconds=60)) == "job-1"
    # another operation, or another user's scope, is not held
    assert await store.take_lease(replace(other, op="revise"), now=T0, until=T0) is None
    assert await store.take_lease(replace(other, user_id="bob"), now=T0, until=T0) is None

    assert await store.renew_lease(LEASE, until=T0 + timedelta(seconds=120)) is True
    later = T0 + timedelta(seconds=90)
    assert await store.take_lease(other, now=later, until=later) == "job-1"
    # run out: the next run takes it, and the old holder has lost it
    gone = T0 + timedelta(seconds=121)
    assert await store.take_lease(other, now=gone, until=gone + timedelta(seconds=60)) is None
    assert await store.renew_lease(LEASE, until=gone + timedelta(seconds=600)) is False


async def test_a_redelivery_of_the_same_job_takes_its_lease_over(store: Store) -> None:
    assert await store.take_lease(LEASE, now=T0, until=T0 + timedelta(seconds=60)) is None
    redelivered = replace(LEASE, holder="w2", token="token-2")
    assert await store.take_lease(redelivered, now=T0, until=T0 + timedelta(seconds=60)) is None
    assert await store.renew_lease(LEASE, until=T0) is False


async def test_release_frees_the_scope_and_records_a_completed_run(store: Store) -> None:
    assert await store.lifecycle_due("consolidate", limit=10) == []
    assert await store.take_lease(LEASE, now=T0, until=T0 + timedelta(seconds=60)) is None
    stale = replace(LEASE, token="old")
    await store.release_lease(stale, done_from=T0, job_id="job-0")  # not the holder: nothing
    other = replace(LEASE, holder="w2", token="token-2", job_id="job-2")
    assert await store.take_lease(other, now=T0, until=T0) == "job-1"
    await store.release_lease(LEASE, done_from=T0, job_id="job-1")
    assert await store.take_lease(other, now=T0, until=T0 + timedelta(seconds=60)) is None
    await store.release_lease(other, done_from=None, job_id="job-2")  # failed: not done
    assert await store.take_lease(LEASE, now=T0, until=T0 + timedelta(seconds=60)) is None


async def test_an_erased_levels_leases_and_last_runs_are_dropped(store: Store) -> None:
    until = T0 + timedelta(seconds=60)
    agent = replace(LEASE, user_id="#agent/ops", token="token-a", job_id="job-a")
    others = [
        replace(LEASE, op="decay", namespace="other", token="token-2", job_id="job-2"),
        replace(LEASE, user_id="bob", token="token-b", job_id="job-b"),
        replace(LEASE, tenant_id="t2", token="token-t", job_id="job-t"),
        agent,
    ]
    for lease in (LEASE, *others):
        assert await store.take_lease(lease, now=T0, until=until) is None
    await store.release_lease(others[0], done_from=T0, job_id="job-2")

    await store.drop_lease(replace(LEASE, token="not-its-token"))  # not the holder: nothing
    assert await store.renew_lease(LEASE, until=until) is True
    await store.drop_lease(LEASE)
    assert await store.renew_lease(LEASE, until=until) is False
    # every operation and namespace of the user's level, and no one else's
    assert await store.drop_runs("t1", "ada") == 1  # the released decay row in "other"
    assert await store.drop_runs("t1", "ada") == 0
    for lease in others[1:]:
        assert await store.renew_lease(lease, until=until) is True
    assert await store.drop_runs("t1", "#agent/ops") == 1
    assert await store.renew_lease(agent, until=until) is False
