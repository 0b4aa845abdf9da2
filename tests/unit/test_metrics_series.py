"""Metrics looks each labelled series up once: later observations of the same series
reach it without ``labels()`` (a lock and a check of every value), and count the same."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from prometheus_client.metrics import MetricWrapperBase

from cognimem.metrics import Metrics
from cognimem.models.packets import ContextPacket, StepReport

T = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def counted_labels(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[str, ...]]]:
    calls: list[tuple[str, tuple[str, ...]]] = []
    plain = MetricWrapperBase.labels

    def labels(self: MetricWrapperBase, *values: Any, **named: Any) -> Any:
        calls.append((self._name, tuple(str(v) for v in values)))
        return plain(self, *values, **named)

    monkeypatch.setattr(MetricWrapperBase, "labels", labels)
    return calls


def packet() -> ContextPacket:
    return ContextPacket(
        query="q",
        items=[],
        token_count=3,
        max_tokens=100,
        reference_time=T,
        preset="p",
        degraded=["vector: down"],
        steps=[
            StepReport(name="lexical", latency_ms=2.0, results=3),
            StepReport(name="vector", latency_ms=1.0, results=0, error="down"),
            StepReport(name="graph", latency_ms=0.0, results=0, skipped="budget"),
        ],
    )


def test_a_series_is_looked_up_once_and_counts_every_observation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = counted_labels(monkeypatch)
    metrics = Metrics()
    for _ in range(3):
        metrics.observe_http("POST", "/v1/memory/read", 200, 0.01)
        metrics.observe_read(packet(), 0.002)
    # the HTTP series; with_facts, two step durations, two incomplete steps, degraded
    assert len(calls) == len(set(calls)) == 7

    registry = metrics.registry
    http = {"method": "POST", "route": "/v1/memory/read", "status": "200"}
    assert registry.get_sample_value("cognimem_http_request_duration_seconds_count", http) == 3
    step = registry.get_sample_value(
        "cognimem_retrieval_step_duration_seconds_count", {"step": "lexical"}
    )
    assert step == 3
    for reason in ("error", "skipped"):
        name = "vector" if reason == "error" else "graph"
        labels = {"step": name, "reason": reason}
        assert registry.get_sample_value("cognimem_retrieval_steps_incomplete_total", labels) == 3
