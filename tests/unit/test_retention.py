"""The forgetting policy's pure decisions (``lifecycle/retention.py``): the score's
signals, every action by its band, protections, and statuses already reached."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem.config import ForgettingPolicy, Settings
from cognimem.lifecycle.retention import ForgetAction, decide, plan, score
from cognimem.models import ItemKind, ItemStatus, Tier
from cognimem.store.retention import RetentionRow

NOW = datetime(2024, 3, 1, tzinfo=UTC)
POLICY = ForgettingPolicy()


def row(days: float = 0.0, **kw: object) -> RetentionRow:
    then = NOW - timedelta(days=days)
    base = RetentionRow(
        id="mem_1", kind=ItemKind.EPISODE, status=ItemStatus.ACTIVE, tier=Tier.MEDIUM,
        importance=0.3, novelty=0.5, confidence=1.0, occurred_at=then, recorded_at=then,
        last_accessed_at=None, access_count=0, consolidated=False,
    )  # fmt: skip
    return base._replace(**kw)


def test_each_signal_moves_the_score_its_way() -> None:
    plain = score(row(10), POLICY, NOW)
    assert score(row(10, importance=0.9), POLICY, NOW) > plain
    assert score(row(1), POLICY, NOW) > plain  # recency
    assert score(row(10, access_count=5), POLICY, NOW) > plain
    assert score(row(10, confidence=0.2), POLICY, NOW) < plain
    assert score(row(10, kind=ItemKind.FACT), POLICY, NOW) > plain
    assert score(row(10, novelty=1.0), POLICY, NOW) > plain
    assert score(row(10, facts=2), POLICY, NOW) > plain
    # a read refreshes recency: last use, not when it was written
    read = row(10, last_accessed_at=NOW - timedelta(days=1))
    assert score(read, POLICY, NOW) == pytest.approx(score(row(1), POLICY, NOW))
    # half-life by kind: a summary ages slower than an episode
    summary = row(30, kind=ItemKind.SUMMARY, importance=0.3)
    assert score(summary, POLICY, NOW) - score(row(30, kind=ItemKind.SUMMARY), POLICY, NOW) == 0
    assert 0.0 <= score(row(10_000, importance=0.0, confidence=0.0), POLICY, NOW) <= 1.0


@pytest.mark.parametrize(
    ("action", "band"),
    [
        (ForgetAction.DECAY, (0.3, 0.2, 0.2, 0.2, 0.2)),
        (ForgetAction.SILENCE, (0.3, 0.3, 0.2, 0.2, 0.2)),
        (ForgetAction.COMPRESS, (0.3, 0.3, 0.3, 0.2, 0.2)),
        (ForgetAction.ARCHIVE, (0.3, 0.3, 0.3, 0.3, 0.2)),
        (ForgetAction.DELETE, (0.3, 0.3, 0.3, 0.3, 0.3)),
    ],
)
def test_the_most_severe_band_an_item_is_in_wins(
    action: ForgetAction, band: tuple[float, ...]
) -> None:
    # the row scores about 0.27 at 30 days; each case puts the bands around it
    names = ("decay", "silence", "compress", "archive", "delete")
    policy = POLICY.model_copy(
        update={n: getattr(POLICY, n).model_copy(update={"below": b, "min_age_days": 0})
                for n, b in zip(names, band, strict=True)}
    )  # fmt: skip
    assert 0.2 < score(row(30), policy, NOW) < 0.3
    decided = decide(row(30), policy, NOW)
    assert decided.action is action
    assert "score" in decided.reason


def test_an_action_waits_for_its_minimum_age_and_compress_is_for_episodes() -> None:
    policy = POLICY.model_copy(
        update={"archive": POLICY.archive.model_copy(update={"below": 0.99, "min_age_days": 60}),
                "compress": POLICY.compress.model_copy(update={"below": 0.99, "min_age_days": 5}),
                "silence": POLICY.silence.model_copy(update={"below": 0.99, "min_age_days": 1}),
                "delete": POLICY.delete.model_copy(update={"below": None})}
    )  # fmt: skip
    assert decide(row(30), policy, NOW).action is ForgetAction.COMPRESS
    assert decide(row(61), policy, NOW).action is ForgetAction.ARCHIVE
    # not an episode: the next milder action
    assert decide(row(30, kind=ItemKind.FACT), policy, NOW).action is ForgetAction.SILENCE
    assert decide(row(2), policy, NOW).action is ForgetAction.SILENCE
    assert decide(row(0), policy, NOW).action is ForgetAction.KEEP
    # already consolidated: compress archives it, and says why
    assert "already in a summary" in decide(row(30, consolidated=True), policy, NOW).reason


def test_a_status_already_reached_is_kept() -> None:
    policy = POLICY.model_copy(
        update={"silence": POLICY.silence.model_copy(update={"below": 0.99, "min_age_days": 0}),
                "delete": POLICY.delete.model_copy(update={"below": None})}
    )  # fmt: skip
    silent = decide(row(1, status=ItemStatus.SILENT), policy, NOW)
    assert (silent.action, silent.reason.endswith("already silent")) == (ForgetAction.KEEP, True)
    archived = decide(row(40, status=ItemStatus.ARCHIVED), POLICY, NOW)
    assert archived.action is ForgetAction.KEEP


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"kind": ItemKind.MANDATE}, "mandate"),
        ({"kind": ItemKind.GUARDRAIL}, "mandate"),
        ({"tier": Tier.ALWAYS}, "mandate"),
        ({"kind": ItemKind.CONSTRAINT}, "active constraint"),
        ({"facts": 1, "constraints": 1}, "active constraint"),
        ({"facts": 1}, "live dependents"),
        ({"summaries": 1}, "live dependents"),
        ({"relations": 1}, "live dependents"),
    ],
)
def test_protected_items_are_kept_whatever_their_score(
    changes: dict[str, object], why: str
) -> None:
    everything = Settings().lifecycle.forgetting.model_copy(
        update={n: getattr(POLICY, n).model_copy(update={"below": 1.0, "min_age_days": 0})
                for n in ("decay", "silence", "compress", "archive", "delete")}
    )  # fmt: skip
    old = row(3650, importance=0.0, confidence=0.0)
    assert decide(old, everything, NOW).action is ForgetAction.DELETE
    kept = decide(old._replace(**changes), everything, NOW)
    assert kept.action is ForgetAction.KEEP
    assert kept.reason.startswith(f"protected: {why}")


def test_a_summary_ages_from_when_it_was_written_not_the_period_it_tells_of() -> None:
    # written today about a period 700 days ago: fresh, not silenced by its first run
    written = row(700, kind=ItemKind.SUMMARY, recorded_at=NOW)
    fresh = decide(written, POLICY, NOW)
    assert (fresh.action, fresh.idle_s) == (ForgetAction.KEEP, 0.0)
    assert score(written, POLICY, NOW) == score(row(0, kind=ItemKind.SUMMARY), POLICY, NOW)
    # a read refreshes it as any item's
    read = written._replace(recorded_at=NOW - timedelta(days=90), last_accessed_at=NOW)
    assert decide(read, POLICY, NOW).idle_s == 0.0
    # an episode still ages from when it happened, whenever it was written
    assert decide(row(700, recorded_at=NOW), POLICY, NOW).idle_s == 700 * 86_400


def test_plan_decides_every_row_in_order() -> None:
    rows = [row(i, id=f"mem_{i}") for i in range(5)]
    assert [d.row.id for d in plan(rows, POLICY, NOW)] == [r.id for r in rows]


def test_an_empty_below_turns_its_action_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGNIMEM_LIFECYCLE__FORGETTING__DELETE__BELOW", "")
    policy = Settings().lifecycle.forgetting
    assert (policy.delete.below, policy.delete.min_age_days) == (None, 90.0)
    assert policy.archive.below == 0.22  # the other bands keep their defaults


def test_policy_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGNIMEM_LIFECYCLE__FORGETTING__ARCHIVE__BELOW", "0.3")
    monkeypatch.setenv("COGNIMEM_LIFECYCLE__FORGETTING__HALF_LIFE_DAYS__EPISODE", "30")
    policy = Settings().lifecycle.forgetting
    assert (policy.archive.below, policy.archive.min_age_days) == (0.3, 14.0)
    assert policy.half_life_days["episode"] == 30.0
    assert policy.half_life_days["summary"] == 90.0  # the other kinds keep their defaults
    monkeypatch.setenv("COGNIMEM_LIFECYCLE__FORGETTING__HALF_LIFE_DAYS__EPISODES", "3")
    with pytest.raises(ValueError, match="unknown item kinds"):
        Settings()
