"""What lifecycle operations answer: one result model per operation, each with
``dry_run`` and a ``summary()`` for job listings."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ConsolidationResult(BaseModel):
    """What a consolidation pass did (or, with ``dry_run``, would do).

    ``episodes``: unconsolidated episodes it took; ``written``: summaries and profiles
    new to their group; ``replaced``: groups whose earlier summary was replaced (kept in
    history, archived); ``unchanged``: groups whose summary already says the same;
    ``consolidated``: episodes marked consolidated; ``facts_created`` /
    ``facts_reinforced``: facts an LLM's gists read from the groups, new or already
    known. ``degraded`` names every group whose
    LLM gist failed and was written extractively instead, with the reason."""

    dry_run: bool
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

    def summary(self) -> dict[str, int | str]:
        return {
            "mode": self.mode,
            "episodes": self.episodes,
            "groups": self.groups,
            "written": self.written,
            "replaced": self.replaced,
            "unchanged": self.unchanged,
            "profiles": self.profiles,
            "consolidated": self.consolidated,
            "facts_created": self.facts_created,
            "facts_reinforced": self.facts_reinforced,
            "degraded": len(self.degraded),
        }
