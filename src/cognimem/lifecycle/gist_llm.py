"""A group's gist written by the internal LLM: the prompt, its output model and the
claims it becomes. One structured call per group, validated (every sentence cites the
numbered episodes it states, and only those), asked once more with the error when the
answer is invalid (``providers.llm.structured.ask``); a second invalid answer or a
provider failure raises, and the caller writes that group extractively and says so.

The answer also lists the facts the episodes state, as the write path's extraction
schema has them (``ExtractedFact``: a category, constraints with their scope tags), each
citing its episodes; the service reconciles them with the stored facts like a write's
(a fact already known is reinforced, a new one created with those episodes as its
evidence).

The sentences' provenance is the union of the events of the episodes each one cites;
every member that is the evidence of a live constraint is stated verbatim after the
LLM's sentences unless a sentence already cites it alone (a paraphrase never replaces
a constraint).

A **profile** is asked the same way, in one call with the same schema, validation and
retry: its numbered sources are the subject's facts and the episodes that mention it
(``consolidate.profile_episodes``), a sentence's provenance the union of the cited
facts' evidence and the cited episodes' events; its constraint facts are stated after
the LLM's sentences as the extractive profile states them, and the facts the answer
lists are not read (they are the store's already)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from cognimem.lifecycle.consolidate import (
    Claim,
    ConsolidationPolicy,
    ConstraintTag,
    Gist,
    Group,
    GroupKind,
    StatedFact,
    day,
    episode_claim,
    fact_claim,
    heading_of,
    profile_episodes,
)
from cognimem.models import MemoryItem
from cognimem.models.extraction import ExtractedFact
from cognimem.models.knowledge import Fact
from cognimem.providers.llm import structured
from cognimem.providers.llm.base import ChatLLM, ChatMessage

SCHEMA_NAME = "consolidation_gist"
_MAX_ECHO_CHARS = 4_000


class GistSentence(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=600)
    sources: list[int] = Field(min_length=1)


class GistFact(BaseModel):
    model_config = ConfigDict(extra="forbid")

    fact: ExtractedFact
    sources: list[int] = Field(min_length=1)


class GistOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sentences: list[GistSentence] = Field(min_length=1, max_length=12)
    facts: list[GistFact] = Field(default_factory=list, max_length=20)


GIST_SCHEMA: dict[str, Any] = GistOutput.model_json_schema()


@dataclass(frozen=True)
class Source:
    """One numbered thing the LLM may cite: an episode, or (in a profile) a fact."""

    kind: str  # "episode" | "fact"
    date: datetime
    speaker: str | None
    text: str
    claim: Claim  # what citing it states: its events, items and caller ids

    def prompt(self, index: int) -> dict[str, object]:
        out: dict[str, object] = {"index": index, "kind": self.kind, "date": day(self.date)}
        if self.kind == "episode":
            out["speaker"] = self.speaker or "unknown"
        out["text"] = self.text
        return out


def _episode(m: MemoryItem) -> Source:
    return Source("episode", m.occurred_at, m.author, m.text, Claim.said_in(m, m.text))


def _fact(f: Fact) -> Source:
    claim = fact_claim(f)
    return Source("fact", claim.occurred_at or f.recorded_at, None, f.text, claim)


def sources_of(
    group: Group, vectors: Mapping[str, np.ndarray], policy: ConsolidationPolicy
) -> list[Source]:
    """What the LLM is shown, numbered from 0: a group's members; a profile's facts
    (newest first) and then the episodes the extractive profile would state."""
    if group.kind is GroupKind.PROFILE:
        episodes = profile_episodes(group, vectors, policy)
        return [*(_fact(f) for f in group.facts), *(_episode(m) for m in episodes)]
    return [_episode(m) for m in group.members]


def gist_prompt(
    group: Group, policy: ConsolidationPolicy, sources: list[Source] | None = None
) -> list[ChatMessage]:
    """The messages asking for ``group``'s gist (``sources``: what it is shown,
    numbered from 0; a window's or topic's members by default)."""
    if sources is None:
        sources = [_episode(m) for m in group.members]
    numbered = [s.prompt(i) for i, s in enumerate(sources)]
    if group.kind is GroupKind.PROFILE:
        system = (
            "You write a profile from memories. Write at most "
            f"{policy.max_profile_sentences} sentences on {group.title.rstrip(':')}: who "
            "they are, what they do, like, plan and value, and when (give dates). The "
            "numbered sources are facts known about them and episodes that mention them. "
            "Each sentence lists in `sources` the indexes of exactly the sources it "
            "states; never state anything no cited source says. Keep rules, limits, "
            "allergies, goals and values in their own words: never soften them. Leave "
            "`facts` empty."
        )
        return [
            ChatMessage(role="system", content=system),
            ChatMessage(role="user", content=json.dumps({"sources": numbered})),
        ]
    system = (
        "You consolidate conversation memories. Write at most "
        f"{policy.max_sentences} sentences stating the gist of the numbered episodes: who "
        "did, said, planned or prefers what, and when (name the speakers and give dates). "
        "Each sentence lists in `sources` the indexes of exactly the episodes it states; "
        "never state anything no cited episode says. Keep rules, limits, allergies, "
        "goals and values in their own words: never soften them. In `facts`, list the "
        "lasting facts the episodes state, each in one of the schema's categories with "
        "the episodes that state it: a rule, limit or allergy is a policy, a goal a "
        "goal, a value a value, a temporary condition a state, a reason a causal fact, "
        "with their scope tags (the domains they bear on); `subject` is `user` for the "
        "speaker about themselves, else the name of whom it is about."
    )
    episodes = [{k: v for k, v in e.items() if k != "kind"} for e in numbered]
    return [
        ChatMessage(role="system", content=system),
        ChatMessage(role="user", content=json.dumps({"episodes": episodes})),
    ]


def _correction(error: str) -> str:
    return (
        f"That answer was invalid: {error}. Answer again with JSON matching the schema; "
        "every source must be the index of a listed episode."
    )


def parse_gist(answer: str, size: int) -> GistOutput:
    """``answer`` as a gist of ``size`` sources; ``InvalidAnswer`` when a sentence cites
    one that is not listed."""
    output = structured.validated(answer, GistOutput)
    cited = [("sentences", n, s.sources) for n, s in enumerate(output.sentences)]
    cited += [("facts", n, f.sources) for n, f in enumerate(output.facts)]
    for part, n, sources in cited:
        bad = [i for i in sources if not 0 <= i < size]
        if bad:
            raise structured.InvalidAnswer(
                f"{part}.{n}.sources: {bad} are not episode indexes (0 to {size - 1})"
            )
    return output


async def llm_gist(
    llm: ChatLLM,
    group: Group,
    constraints: Mapping[str, ConstraintTag],
    policy: ConsolidationPolicy,
    vectors: Mapping[str, np.ndarray] | None = None,
) -> Gist:
    """``group``'s gist, or a profile, from one structured LLM call (raises
    ``ProviderError`` on failure). ``vectors`` choose a profile's episodes as the
    extractive profile does."""
    sources = sources_of(group, vectors or {}, policy)
    output = await structured.ask(
        llm,
        gist_prompt(group, policy, sources),
        lambda answer: parse_gist(answer, len(sources)),
        _correction,
        json_schema=GIST_SCHEMA,
        schema_name=SCHEMA_NAME,
        echo_chars=_MAX_ECHO_CHARS,
        what="consolidation profile" if group.kind is GroupKind.PROFILE else "consolidation gist",
        details={"group": group.key},
    )
    claims: list[Claim] = []
    for sentence in output.sentences:
        cited = [sources[i].claim for i in dict.fromkeys(sentence.sources)]
        claims.append(
            Claim(
                text=sentence.text.strip(),
                event_ids=tuple(dict.fromkeys(e for c in cited for e in c.event_ids)),
                external_ids=tuple(dict.fromkeys(x for c in cited for x in c.external_ids)),
                item_ids=tuple(dict.fromkeys(i for c in cited for i in c.item_ids)),
                occurred_at=max((c.occurred_at for c in cited if c.occurred_at), default=None),
            )
        )
    if group.kind is GroupKind.PROFILE:
        # a constraint is stated as it is known, never only in the LLM's words
        claims += [fact_claim(f) for f in group.facts if f.is_constraint]
        return Gist(group.title, claims)
    members = group.members
    claims += [episode_claim(m, policy, constraints[m.id]) for m in members if m.id in constraints]
    facts = [
        StatedFact(f.fact, tuple(members[i].id for i in dict.fromkeys(f.sources)))
        for f in output.facts
    ]
    return Gist(heading_of(group), claims, facts)
