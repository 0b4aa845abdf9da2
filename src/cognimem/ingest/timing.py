"""How long each step of a write took (``WriteResult.steps``): wall-clock time the write
waited on it, summed over the step's runs (a write that reconciles again runs its steps
again). Work overlapped with another step (the embedder running while an LLM extracts)
counts in the step the write was waiting on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from cognimem.models import WriteStepReport

GATE = "gate"  # dedupe lookup, chunking, the secret and PII gate
EXTRACTION = "extraction"  # rule or LLM extraction, tagging the facts' areas
EMBEDDING = "embedding"  # the items' and the facts' texts (what was not overlapped)
RECONCILIATION = "reconciliation"  # near-duplicate merging, entities, facts against stored
STORE = "store"  # the commit


class StepTimer:
    """Milliseconds by step, in the order the steps first ran."""

    def __init__(self) -> None:
        self._ms: dict[str, float] = {}

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            elapsed = (time.perf_counter() - start) * 1000
            self._ms[name] = self._ms.get(name, 0.0) + elapsed

    def reports(self) -> list[WriteStepReport]:
        return [WriteStepReport(name=n, latency_ms=round(ms, 3)) for n, ms in self._ms.items()]


__all__ = ["EMBEDDING", "EXTRACTION", "GATE", "RECONCILIATION", "STORE", "StepTimer"]
