"""Consolidation's decisions, pure: which episodes form a group (a session window, a
topic cluster, a subject's profile), which of a group's sentences state its gist, and
the summary each group becomes, every sentence with the events it states.

Nothing here reads or writes the store; ``services.consolidation`` loads, embeds, asks
the LLM and stores. A group is named by a stable key, so consolidating the same
episodes again yields the same key and the same text: the service replaces a summary
only when its text changed.

Rules:

- **Windows**: a scope's episodes of one session (``session_id``, or none), in time
  order, split where two consecutive episodes are more than ``window_gap`` apart and
  into runs of at most ``max_window`` episodes. The key is the session and the first
  episode's id.
- **Topics**: episodes whose embeddings lie within ``topic_similarity`` (cosine) of a
  cluster's centroid join it (greedily, in time order); a cluster of at least
  ``min_topic`` episodes spanning at least two windows is a topic group (one inside a
  window is already that window's gist). The key hashes its member ids.
- **Gist**: the members most central to the group (cosine to its centroid, less what
  an already chosen sentence says: maximal marginal relevance), about one in
  ``episodes_per_sentence``, at least one and at most ``max_sentences``; every member
  that is the evidence of a live constraint is stated too, verbatim and tagged with
  the constraint's category and scope tags, so a constraint is never weakened into a
  paraphrase. Sentences are in time order, dated, with the speaker named.
- **Profiles**: a subject (an entity, or a speaker) with at least ``min_profile_facts``
  live facts, or an entity the episodes mention at least ``min_profile_episodes``
  times, gets one profile: each fact's sentence, newest first, at most
  ``max_profile_facts``, each carrying the fact's evidence events; then the episodes
  that mention it (``mentions``: the graph's links, found by the service) most central
  to them, at most ``max_profile_episodes`` and none already the evidence of a stated
  fact, dated and with the speaker named, in time order.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

import numpy as np

from cognimem.models import MemoryItem
from cognimem.models.extraction import ExtractedFact
from cognimem.models.items import THEME_GROUP
from cognimem.models.knowledge import Fact


class GroupKind(StrEnum):
    WINDOW = "window"
    TOPIC = "topic"
    PROFILE = "profile"
    THEME = THEME_GROUP  # one speaker's turns on one topic across sessions (lifecycle.themes)


@dataclass(frozen=True)
class ConsolidationPolicy:
    """How episodes are grouped and how much of a group its summary states."""

    window_gap: timedelta = timedelta(hours=6)
    max_window: int = 40
    topic_similarity: float = 0.6
    min_topic: int = 3
    # a gist short enough that one fits the Summaries section of a default read
    # (a tenth of 2,000 tokens)
    episodes_per_sentence: int = 8
    max_sentences: int = 3
    max_sentence_chars: int = 160
    redundancy: float = 0.5  # MMR: how much similarity to a chosen sentence costs
    min_profile_facts: int = 2
    # a profile fits the Summaries section of a default read too (200 tokens)
    max_profile_facts: int = 6
    min_profile_episodes: int = 3
    max_profile_episodes: int = 2
    max_profile_mentions: int = 20  # episodes found under an entity's names, at most
    max_profile_sentences: int = 4  # an LLM's profile
    # themes (lifecycle.themes): one whole sentence per turn, at most max_claim_chars
    # long, and a run's claims at most max_theme_chars together, so a theme ranked
    # among the turns states several of them for the tokens of about two
    # 0.35: on the LoCoMo dev five (--consolidate) 0.5 read frac@10 0.790, 0.42 0.798,
    # 0.35 0.800 (best on both folds' check conversations), 0.25 0.798
    theme_similarity: float = 0.35
    min_theme: int = 3
    min_theme_words: int = 4
    max_theme_claims: int = 5
    max_claim_chars: int = 120
    max_theme_chars: int = 200


@dataclass(frozen=True)
class ConstraintTag:
    """The constraint a stated sentence is the evidence of."""

    category: str
    scope_tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """One sentence of a summary and exactly the events (and the items) it states."""

    text: str
    event_ids: tuple[str, ...]
    external_ids: tuple[str, ...] = ()
    item_ids: tuple[str, ...] = ()
    occurred_at: datetime | None = None
    constraint: ConstraintTag | None = None

    @classmethod
    def said_in(cls, item: MemoryItem, text: str, constraint: ConstraintTag | None = None) -> Claim:
        """``text`` as said in ``item``: the item's events and external ids, the item,
        and when it was said."""
        return cls(
            text=text,
            event_ids=tuple(item.source_event_ids),
            external_ids=tuple(item.external_ids),
            item_ids=(item.id,),
            occurred_at=item.occurred_at,
            constraint=constraint,
        )

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "text": self.text,
            "event_ids": list(self.event_ids),
            "item_ids": list(self.item_ids),
            "external_ids": list(self.external_ids),
        }
        if self.constraint is not None:
            out["constraint"] = {
                "category": self.constraint.category,
                "scope_tags": list(self.constraint.scope_tags),
            }
        return out


@dataclass(frozen=True)
class Group:
    """Episodes (or a subject's facts) that one summary covers."""

    kind: GroupKind
    key: str
    members: tuple[MemoryItem, ...] = ()
    facts: tuple[Fact, ...] = ()
    title: str = ""
    entity_id: str | None = None  # a profile's subject, when it is a known entity

    @property
    def member_ids(self) -> tuple[str, ...]:
        return tuple(m.id for m in self.members)


@dataclass(frozen=True)
class StatedFact:
    """A fact an LLM's gist reads from the group, with the members that state it."""

    fact: ExtractedFact
    item_ids: tuple[str, ...]


@dataclass
class Gist:
    """A group's summary: a heading and its claims (and, from an LLM, the facts it
    read from the group)."""

    heading: str
    claims: list[Claim] = field(default_factory=list)
    facts: list[StatedFact] = field(default_factory=list)

    def text(self) -> str:
        return " ".join([self.heading, *(c.text for c in self.claims)]).strip()

    def event_ids(self) -> list[str]:
        return list(dict.fromkeys(e for c in self.claims for e in c.event_ids))

    def external_ids(self) -> list[str]:
        return list(dict.fromkeys(e for c in self.claims for e in c.external_ids))


# -- grouping ------------------------------------------------------------------------------
def windows(episodes: Sequence[MemoryItem], policy: ConsolidationPolicy) -> list[Group]:
    """Session windows over ``episodes`` (any order), each in time order."""
    by_session: dict[str | None, list[MemoryItem]] = {}
    for e in sorted(episodes, key=lambda e: (e.occurred_at, e.id)):
        by_session.setdefault(e.scope.session_id, []).append(e)
    groups: list[Group] = []
    for session, items in by_session.items():
        run: list[MemoryItem] = []
        for e in items:
            if run and (
                e.occurred_at - run[-1].occurred_at > policy.window_gap
                or len(run) >= policy.max_window
            ):
                groups.append(_window(session, run))
                run = []
            run.append(e)
        if run:
            groups.append(_window(session, run))
    return groups


def _window(session: str | None, run: list[MemoryItem]) -> Group:
    start = run[0].occurred_at
    return Group(
        GroupKind.WINDOW,
        f"window:{session or '-'}:{run[0].id}",
        tuple(run),
        title=f"Conversation of {day(start)}",
    )


def topics(
    episodes: Sequence[MemoryItem],
    vectors: Mapping[str, np.ndarray],
    window_of: Mapping[str, str],
    policy: ConsolidationPolicy,
) -> list[Group]:
    """Topic clusters of ``episodes`` by embedding (``vectors``: item id → unit vector)
    that span at least two windows (``window_of``: item id → window key)."""
    clusters: list[tuple[np.ndarray, list[MemoryItem]]] = []
    for e in sorted(episodes, key=lambda e: (e.occurred_at, e.id)):
        v = vectors.get(e.id)
        if v is None:
            continue
        best, best_sim = -1, policy.topic_similarity
        for i, (centroid, _) in enumerate(clusters):
            sim = float(centroid @ v) / (float(np.linalg.norm(centroid)) or 1.0)
            if sim >= best_sim:
                best, best_sim = i, sim
        if best < 0:
            clusters.append((np.array(v, dtype=np.float32), [e]))
        else:
            centroid, members = clusters[best]
            members.append(e)
            clusters[best] = (centroid + v, members)
    groups = []
    for _, members in clusters:
        if len(members) < policy.min_topic or len({window_of.get(m.id) for m in members}) < 2:
            continue
        digest = hashlib.sha256("|".join(sorted(m.id for m in members)).encode()).hexdigest()
        groups.append(
            Group(
                GroupKind.TOPIC,
                f"topic:{digest[:16]}",
                tuple(members),
                title=f"Recurring topic, {day(members[0].occurred_at)} to "
                f"{day(members[-1].occurred_at)}",
            )
        )
    return groups


def profiles(
    facts: Sequence[Fact],
    policy: ConsolidationPolicy,
    mentions: Mapping[str, Sequence[MemoryItem]] | None = None,
    names: Mapping[str, str] | None = None,
) -> list[Group]:
    """One profile group per subject with enough live facts, or per entity with
    enough episodes mentioning it (``mentions``: entity id → those episodes; ``names``:
    entity id → its name, for an entity with no facts), newest facts first, episodes in
    time order."""
    mentions = mentions or {}
    by_subject: dict[str, list[Fact]] = {}
    for f in facts:
        by_subject.setdefault(f.subject_entity_id or f.subject, []).append(f)
    groups = []
    for subject in sorted({*by_subject, *mentions}):
        found = by_subject.get(subject, [])
        episodes = sorted(mentions.get(subject, ()), key=lambda e: (e.occurred_at, e.id))
        if len(found) < policy.min_profile_facts and len(episodes) < policy.min_profile_episodes:
            continue
        newest = sorted(found, key=lambda f: (f.recorded_at, f.id), reverse=True)
        name = (names or {}).get(subject) or (found[0].subject if found else subject)
        entity = found[0].subject_entity_id if found else subject
        groups.append(
            Group(
                GroupKind.PROFILE,
                f"profile:{subject}",
                members=tuple(episodes),
                facts=tuple(newest[: policy.max_profile_facts]),
                title=f"What is known about {name.replace('_', ' ')}:",
                entity_id=entity,
            )
        )
    return groups


def profile_episodes(
    group: Group, vectors: Mapping[str, np.ndarray], policy: ConsolidationPolicy
) -> list[MemoryItem]:
    """The episodes a profile states: the most central of those mentioning its subject
    that no stated fact already has as evidence, in time order."""
    stated = {i for f in group.facts for i in f.evidence_item_ids}
    others = [m for m in group.members if m.id not in stated]
    picked = representatives(others, vectors, policy.max_profile_episodes, policy.redundancy)
    return sorted(picked, key=lambda m: (m.occurred_at, m.id))


# -- gists ---------------------------------------------------------------------------------
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def day(at: datetime) -> str:
    return f"{at.day} {at:%B %Y}"


def sentence_of(text: str, limit: int) -> str:
    """``text`` cut to whole sentences within ``limit`` characters (at least the first
    sentence, itself cut at a word when longer)."""
    text = " ".join(text.split())
    out = ""
    for part in _SENTENCE_END.split(text):
        if out and len(out) + 1 + len(part) > limit:
            break
        out = f"{out} {part}".strip()
    if len(out) > limit:
        out = out[:limit].rsplit(" ", 1)[0] + "…"
    return out


def episode_claim(
    item: MemoryItem, policy: ConsolidationPolicy, constraint: ConstraintTag | None = None
) -> Claim:
    """A member stated as a dated sentence with its speaker (a constraint verbatim)."""
    limit = 10_000 if constraint is not None else policy.max_sentence_chars
    said = sentence_of(item.text, limit)
    who = f"{item.author} said" if item.author else "It was said"
    return Claim.said_in(item, f"On {day(item.occurred_at)}, {who}: {said}", constraint)


def representatives(
    members: Sequence[MemoryItem], vectors: Mapping[str, np.ndarray], count: int, redundancy: float
) -> list[MemoryItem]:
    """``count`` members by maximal marginal relevance to the group's centroid."""
    with_vectors = [m for m in members if m.id in vectors]
    if not with_vectors:
        return list(members[:count])
    matrix = np.stack([vectors[m.id] for m in with_vectors])
    centroid = matrix.mean(axis=0)
    centrality = matrix @ (centroid / (float(np.linalg.norm(centroid)) or 1.0))
    chosen: list[int] = []
    while len(chosen) < min(count, len(with_vectors)):
        penalty = (matrix @ matrix[chosen].T).max(axis=1) if chosen else np.zeros(len(with_vectors))
        score = centrality - redundancy * penalty
        score[chosen] = -np.inf
        chosen.append(int(np.argmax(score)))
    return [with_vectors[i] for i in chosen]


def extractive_gist(
    group: Group,
    vectors: Mapping[str, np.ndarray],
    constraints: Mapping[str, ConstraintTag],
    policy: ConsolidationPolicy,
) -> Gist:
    """A group's gist without an LLM (rules in the module docstring). ``constraints``:
    item id → the live constraint it is the evidence of."""
    if group.kind is GroupKind.PROFILE:
        claims = [fact_claim(f) for f in group.facts]
        claims += [episode_claim(m, policy) for m in profile_episodes(group, vectors, policy)]
        return Gist(group.title, claims)
    members = group.members
    count = max(
        1, min(policy.max_sentences, math.ceil(len(members) / policy.episodes_per_sentence))
    )
    picked = {m.id for m in representatives(members, vectors, count, policy.redundancy)}
    picked |= {m.id for m in members if m.id in constraints}
    claims = [episode_claim(m, policy, constraints.get(m.id)) for m in members if m.id in picked]
    return Gist(heading_of(group), claims)


def heading_of(group: Group) -> str:
    speakers = list(dict.fromkeys(m.author for m in group.members if m.author))
    who = f" ({', '.join(speakers)})" if speakers else ""
    return f"{group.title}{who}:"


def fact_claim(fact: Fact) -> Claim:
    # when it was last said to hold (recorded_at is when this process stored it)
    when = fact.valid_from or fact.last_validated_at
    tag = ConstraintTag(fact.category.value, tuple(fact.scope_tags)) if fact.is_constraint else None
    return Claim(
        text=f"{fact.text.rstrip('.')} (as of {day(when)}).",
        event_ids=tuple(fact.evidence_event_ids),
        item_ids=tuple(fact.evidence_item_ids),
        occurred_at=when,
        constraint=tag,
    )


def constraint_tags(facts: Sequence[Fact]) -> dict[str, ConstraintTag]:
    """Item id → the live constraint it is evidence of (the first one, by fact id)."""
    tags: dict[str, ConstraintTag] = {}
    for f in sorted(facts, key=lambda f: f.id):
        if not f.is_constraint:
            continue
        for item_id in f.evidence_item_ids:
            tags.setdefault(item_id, ConstraintTag(f.category.value, tuple(f.scope_tags)))
    return tags


def group_period(group: Group) -> tuple[datetime, datetime] | None:
    times = [m.occurred_at for m in group.members]
    if group.kind is GroupKind.PROFILE or not times:
        # when each fact held, as its claim dates it (not when this process stored it)
        times += [f.valid_from or f.last_validated_at for f in group.facts]
    return (min(times), max(times)) if times else None


def unit_rows(matrix: np.ndarray) -> list[np.ndarray]:
    """The rows of an embedding matrix as unit float32 vectors (a zero row stays)."""
    out = []
    for row in np.asarray(matrix, dtype=np.float32):
        norm = float(np.linalg.norm(row))
        out.append(row / norm if norm else row)
    return out


def stated_vector(item_ids: Iterable[str], vectors: Mapping[str, np.ndarray]) -> np.ndarray | None:
    """A summary's embedding: the normalised mean of the unit vectors (:func:`unit_rows`)
    of the items its sentences state, once per statement (what it says, weighed as said;
    embedding a long gist with the model costs a second a summary on a small CPU and
    blurs it no less). Items without a vector are left out; None when none has one.
    Consolidation writes it, and an import computes it again."""
    rows = [vectors[i] for i in item_ids if i in vectors]
    if not rows:
        return None
    mean = np.mean(np.stack(rows), axis=0).astype(np.float32)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm else None
