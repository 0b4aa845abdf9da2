"""One write's messages sorted for the funnel: those an earlier write stored, those
that repeat a message earlier in the batch, and the fresh ones it writes; and their
results put back in message order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cognimem.ingest.timing import StepTimer
from cognimem.models import Event, Message, MessageResult, WriteOutcome
from cognimem.models.profiles import IngestProfile


@dataclass(frozen=True)
class WriteBatch:
    """One write's messages past the dedupe: their events, the results of those an
    earlier write stored (by index), the repeats of a message earlier in the batch (by
    index, the earlier one's index: ``store/repeats.py``), the write's profile and the
    timer of its steps."""

    messages: Sequence[Message]
    events: Sequence[Event]
    known: Mapping[int, MessageResult]
    repeats: Mapping[int, int]
    profile: IngestProfile
    timer: StepTimer

    def is_fresh(self, index: int) -> bool:
        """Whether the message at ``index`` is written: neither stored by an earlier
        write nor a repeat of one earlier in the batch."""
        return index not in self.known and index not in self.repeats

    def fresh(self) -> list[Event]:
        """The events this write stores, in order."""
        return [e for i, e in enumerate(self.events) if self.is_fresh(i)]

    def in_order(self, committed: Sequence[MessageResult]) -> list[MessageResult]:
        """One result per message: the known duplicates in their places, the commit's
        results (of the fresh events, in order) filling the rest, and each repeat the
        result of the message it repeats, as a duplicate."""
        rest = iter(committed)
        results = [
            self.known[i] if i in self.known else next(rest) if self.is_fresh(i) else None
            for i in range(len(self.events))
        ]
        for i, earlier in self.repeats.items():
            first = results[earlier]
            assert first is not None
            results[i] = first.model_copy(update={"outcome": WriteOutcome.DUPLICATE})
        return [r for r in results if r is not None]
