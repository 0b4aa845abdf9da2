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
a constraint)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cognimem.ingest.extract.schema import ExtractedFact
from cognimem.lifecycle.consolidate import (
    Claim,
    ConsolidationPolicy,
    ConstraintTag,
    Gist,
    Group,
    StatedFact,
    day,
    episode_claim,
    heading_of,
)
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


def gist_prompt(group: Group, policy: ConsolidationPolicy) -> list[ChatMessage]:
    """The messages asking for ``group``'s gist; episodes are numbered from 0."""
    episodes = [
        {
            "index": i,
            "date": day(m.occurred_at),
            "speaker": m.author or "unknown",
            "text": m.text,
        }
        for i, m in enumerate(group.members)
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
    """``answer`` as a gist of ``size`` episodes; ``InvalidAnswer`` when a sentence cites
    an episode that is not listed."""
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
) -> Gist:
    """``group``'s gist from one structured LLM call (raises ``ProviderError`` on
    failure)."""
    members = group.members
    output = await structured.ask(
        llm,
        gist_prompt(group, policy),
        lambda answer: parse_gist(answer, len(members)),
        _correction,
        json_schema=GIST_SCHEMA,
        schema_name=SCHEMA_NAME,
        echo_chars=_MAX_ECHO_CHARS,
        what="consolidation gist",
        details={"group": group.key},
    )
    claims: list[Claim] = []
    for sentence in output.sentences:
        cited = [members[i] for i in dict.fromkeys(sentence.sources)]
        claims.append(
            Claim(
                text=sentence.text.strip(),
                event_ids=tuple(dict.fromkeys(e for m in cited for e in m.source_event_ids)),
                external_ids=tuple(dict.fromkeys(x for m in cited for x in m.external_ids)),
                item_ids=tuple(m.id for m in cited),
                occurred_at=max(m.occurred_at for m in cited),
            )
        )
    claims += [episode_claim(m, policy, constraints[m.id]) for m in members if m.id in constraints]
    facts = [
        StatedFact(f.fact, tuple(members[i].id for i in dict.fromkeys(f.sources)))
        for f in output.facts
    ]
    return Gist(heading_of(group), claims, facts)
