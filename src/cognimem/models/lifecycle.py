"""Lifecycle operations' results and runs.

Each operation (``consolidate``, ``revise``, ...) returns its own result model here, with
``dry_run``, a ``summary()`` of counts for job listings and ``touched()`` (the records
it went through, for ``/metrics``); :class:`LifecycleRun` is what
an admin call answers: the queued job, or a dry run's result inline.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, Field

from cognimem.models.jobs import Job
from cognimem.models.procedures import Procedure
from cognimem.models.scope import Scope


class RunResult(BaseModel):
    """What every lifecycle run's result shares: ``dry_run`` (what it would do, changing
    nothing); ``touched()``, the count in the field ``TOUCHED`` names; ``summary()``, the
    fields ``SUMMARY`` names (a list by its length)."""

    TOUCHED: ClassVar[str]
    SUMMARY: ClassVar[tuple[str, ...]] = ()

    dry_run: bool

    def touched(self) -> int:
        """How many records the run went through (``cognimem_lifecycle_items_total``)."""
        return int(getattr(self, self.TOUCHED))

    def summary(self) -> dict[str, int | str]:
        """A few counts (and words) for job listings: what changed, or would."""
        values = {name: getattr(self, name) for name in self.SUMMARY}
        return {k: len(v) if isinstance(v, list) else v for k, v in values.items()}


def _tally(values: Sequence[str], names: tuple[str, ...]) -> dict[str, int | str]:
    """How many of ``values`` are each of ``names`` (a summary's counts by outcome)."""
    return {name: values.count(name) for name in names}


class ConsolidationResult(RunResult):
    """What a consolidation pass did (or, with ``dry_run``, would do).

    ``episodes``: unconsolidated episodes it took; ``written``: summaries and profiles
    new to their group; ``replaced``: groups whose earlier summary was replaced (kept in
    history, archived); ``unchanged``: groups whose summary already says the same;
    ``consolidated``: episodes marked consolidated; ``facts_created`` /
    ``facts_reinforced``: facts read from the groups (by an LLM's gists; without an LLM,
    from a question and its answer in consecutive turns), new or already known.
    ``degraded`` names every group whose LLM gist (or profile) failed and was written
    extractively instead, with the reason."""

    mode: str = "extractive"  # "llm" when an LLM writes the gists
    episodes: int = 0
    groups: int = 0
    written: int = 0
    replaced: int = 0
    unchanged: int = 0
    profiles: int = 0
    consolidated: int = 0
    facts_created: int = 0
    facts_reinforced: int = 0
    summary_ids: list[str] = Field(default_factory=list)
    degraded: list[str] = Field(default_factory=list)

    TOUCHED = "episodes"  # the episodes it took
    SUMMARY = (
        "mode",
        "episodes",
        "groups",
        "written",
        "replaced",
        "unchanged",
        "profiles",
        "consolidated",
        "facts_created",
        "facts_reinforced",
        "degraded",
    )


class TurnRevision(BaseModel):
    """What a turn did to the facts its read retrieved (ids of retrieved facts).

    ``reinforced``: confirmed — restated by the message (the write path's reconciliation
    reinforced it) or affirmed ("yes, that's right"; revision reinforced it);
    ``superseded``: a new value superseded it, or it was said to no longer hold (ended),
    by the write path's reconciliation; ``conflicts_opened``: conflicts the message's
    statements opened over it; ``invalidated``: the message said it was wrong."""

    reinforced: list[str] = Field(default_factory=list)
    superseded: list[str] = Field(default_factory=list)
    conflicts_opened: list[str] = Field(default_factory=list)
    invalidated: list[str] = Field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.reinforced or self.superseded or self.conflicts_opened or self.invalidated)


class RevisionResult(RunResult):
    """What a revision run over a scope's recent turns did (with ``dry_run``: would
    do): the user messages it read again (``turns``), the facts it reinforced and
    invalidated, the items it silenced (evidence of invalidated constraints), and what
    went wrong with the LLM, if one was asked."""

    turns: int = 0
    reinforced: list[str] = Field(default_factory=list)
    invalidated: list[str] = Field(default_factory=list)
    items_silenced: list[str] = Field(default_factory=list)
    retries: int = 0  # concurrent changes to the same facts that made it decide again
    degraded: list[str] = Field(default_factory=list)  # a failed LLM call, the rules used

    TOUCHED = "turns"  # the turns it revised from
    SUMMARY = ("turns", "reinforced", "invalidated", "items_silenced")


class FactStatusChange(BaseModel):
    """One fact's status change by passive decay: what it was, what it becomes, why."""

    fact_id: str
    key: str
    text: str
    category: str
    before: str  # its status: active, aging
    after: str  # aging, active, invalidated
    confidence: float  # as stored
    effective_confidence: float  # after decay, when the pass ran
    last_validated_at: datetime
    reason: str


class DecayResult(RunResult):
    """What a decay pass over one user's live facts did (with ``dry_run``: would do):
    how many live facts it weighed (``facts``) at ``reference_time``, and every status
    change (``changes``: to ``aging``, back to ``active``, ``invalidated``)."""

    reference_time: datetime
    facts: int = 0
    changes: list[FactStatusChange] = Field(default_factory=list)
    retries: int = 0  # concurrent changes to the same facts that made it decide again

    TOUCHED = "facts"  # the facts it checked

    def summary(self) -> dict[str, int | str]:
        after = [c.after for c in self.changes]
        return {"facts": self.facts, **_tally(after, ("aging", "active", "invalidated"))}


class TierChange(BaseModel):
    """One item moved a tier by promotion, and why."""

    item_id: str
    text: str
    action: Literal["promoted", "demoted"]
    before: str  # its tier
    after: str
    utility: float
    reason: str


class MandateCandidate(BaseModel):
    """An item proposed as a mandate (used often, never marked incorrect): an admin may
    accept it (``Memory.accept_mandate``); nothing applies it by itself."""

    item_id: str
    text: str
    kind: str
    tier: str
    cited_count: int
    success_count: int
    loaded_count: int
    utility: float


class PromotionResult(RunResult):
    """What a promotion pass over one user's used items did (with ``dry_run``: would
    do): how many it weighed (``items``), the tier changes, and the mandate candidates
    after it (proposed, not applied)."""

    items: int = 0
    changes: list[TierChange] = Field(default_factory=list)
    mandate_candidates: list[MandateCandidate] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)  # edited meanwhile: left to the next pass

    TOUCHED = "items"  # the items it weighed

    def summary(self) -> dict[str, int | str]:
        actions = [c.action for c in self.changes]
        return {
            "items": self.items,
            **_tally(actions, ("promoted", "demoted")),
            "mandate_candidates": len(self.mandate_candidates),
        }


class ForgetDecision(BaseModel):
    """The forgetting policy's decision for one item: its retention score, the action
    and why (``lifecycle/retention.py``)."""

    id: str
    kind: str
    status: str  # before the run
    score: float
    action: str  # keep, decay, silence, compress, archive, delete
    reason: str
    dependents: int = 0


class ForgettingResult(RunResult):
    """What a forgetting-policy run did (or, with ``dry_run``, would do): the items
    scored, how many took each action, the summaries compression wrote, and the plan —
    every item with its score, action and reason. ``protected``: kept because they are
    mandates, active constraints or have live dependents. A non-dry run counts what it
    changed: an item a concurrent edit changed first is left alone (``skipped``)."""

    scored: int = 0
    protected: int = 0
    kept: int = 0
    decayed: int = 0
    silenced: int = 0
    compressed: int = 0
    archived: int = 0
    deleted: int = 0
    skipped: int = 0
    summaries_written: int = 0
    summary_ids: list[str] = Field(default_factory=list)
    facts_orphaned: list[str] = Field(default_factory=list)
    plan: list[ForgetDecision] = Field(default_factory=list)
    degraded: list[str] = Field(default_factory=list)

    TOUCHED = "scored"  # the memories it scored
    SUMMARY = (
        "scored",
        "protected",
        "kept",
        "decayed",
        "silenced",
        "compressed",
        "archived",
        "deleted",
        "summaries_written",
    )


class OperationResult(Protocol):
    """What every lifecycle operation returns (a pydantic model of its own)."""

    dry_run: bool

    def summary(self) -> dict[str, int | str]:
        """A few counts (and words) for job listings: what changed, or would."""
        ...

    def touched(self) -> int:
        """How many records the run went through (``cognimem_lifecycle_items_total``)."""
        ...

    def model_dump(self, *, mode: str = ...) -> dict[str, Any]: ...


class LifecycleRun(BaseModel):
    """An admin call of a lifecycle operation on one user's memories: the job it queued
    (``job``), or for a dry run, which changes nothing, what the operation would do
    (``result``, the operation's own result model as JSON, and its ``summary``)."""

    op: str
    scope: Scope
    dry_run: bool
    job: Job | None = None
    result: dict[str, Any] | None = None
    summary: dict[str, int | str] | None = None


class ProcedureResult(RunResult):
    """What a procedure detection pass did (with ``dry_run``: would do): the events and
    tool-discovery writes it read, the request → action observations it found in them,
    the procedures it created and reinforced (``procedures``: their new state) and
    those it found again with nothing new. ``unreadable_tool_calls``: entries of an
    assistant message's ``metadata["tool_calls"]`` that name no tool or whose arguments
    are not an object (left out of the action)."""

    events: int = 0
    hints: int = 0
    observations: int = 0
    created: list[str] = Field(default_factory=list)
    reinforced: list[str] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list)
    procedures: list[Procedure] = Field(default_factory=list)
    unreadable_tool_calls: int = 0
    retries: int = 0

    TOUCHED = "events"  # the events it read
    SUMMARY = ("events", "observations", "created", "reinforced", "unchanged")
