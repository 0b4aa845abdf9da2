"""Ingest profiles: what a kind of write means (item kind, injection tier, dedupe window,
whether facts and constraints are extracted). Chosen per write by name."""

from __future__ import annotations

from dataclasses import dataclass

from cognimem.errors import InvalidInput
from cognimem.models.items import ItemKind, Tier


@dataclass(frozen=True)
class IngestProfile:
    name: str
    kind: ItemKind
    tier: Tier
    extract: bool  # run fact / constraint / entity extraction
    importance: float = 0.5
    # seconds within which an identical message is a duplicate; None: the setting's
    dedupe_window_s: float | None = None
    description: str = ""


_YEAR = 365 * 24 * 3600.0

PROFILES: dict[str, IngestProfile] = {
    p.name: p
    for p in (
        IngestProfile(
            "chat",
            ItemKind.EPISODE,
            Tier.MEDIUM,
            extract=True,
            description="conversation turns: episodes, with facts and constraints extracted",
        ),
        IngestProfile(
            "document",
            ItemKind.EPISODE,
            Tier.LOW,
            extract=False,
            importance=0.4,
            dedupe_window_s=_YEAR,
            description="reference text: chunked episodes, no extraction, deduplicated for a year",
        ),
        IngestProfile(
            "mandate",
            ItemKind.MANDATE,
            Tier.ALWAYS,
            extract=False,
            importance=1.0,
            dedupe_window_s=_YEAR,
            description="instructions that always go into the context packet",
        ),
        IngestProfile(
            "guardrail",
            ItemKind.GUARDRAIL,
            Tier.ALWAYS,
            extract=False,
            importance=1.0,
            dedupe_window_s=_YEAR,
            description="rules the agent must never break; always in the packet",
        ),
        IngestProfile(
            "tool_discovery",
            ItemKind.PROCEDURE_HINT,
            Tier.LOW,
            extract=False,
            importance=0.4,
            description="what a tool can do, found while using it",
        ),
        IngestProfile(
            "tool_gotcha",
            ItemKind.PROCEDURE_HINT,
            Tier.HIGH,
            extract=False,
            importance=0.8,
            description="a pitfall of a tool that must not be repeated",
        ),
        IngestProfile(
            "learning",
            ItemKind.FACT,
            Tier.HIGH,
            extract=True,
            importance=0.7,
            description="something the agent learned; facts extracted, kept high",
        ),
    )
}

DEFAULT_PROFILE = "chat"


def get_profile(name: str | IngestProfile | None) -> IngestProfile:
    """A profile by name (``None``: ``chat``); unknown names are an ``InvalidInput``."""
    if isinstance(name, IngestProfile):
        return name
    profile = PROFILES.get(name or DEFAULT_PROFILE)
    if profile is None:
        raise InvalidInput(
            f"unknown ingest profile {name!r}; known: {', '.join(sorted(PROFILES))}",
            field="profile",
        )
    return profile
