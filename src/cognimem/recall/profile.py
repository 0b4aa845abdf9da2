"""The standing constraint profile: a user's live constraints consolidated into a short
list, and the entries of it a decision-like request carries (pure). What it holds is
here; how it is built and read is in two modules, one job each:

- ``recall/profile_consolidate.py``: the profile of a user's constraints, once per
  version of their fact rows (paraphrases merged, a newer stance superseding an older
  one, each entry's crowding among the user's others);
- ``recall/profile_choose.py``: per read, the entries that bear on the request (stale
  states decayed out, ranked by relevance to the request, carried while they stand out).

Only a decision-like, planning or recommendation request gets a profile
(``recall/reader.py``, ``recall/profile_read.py``); it fills the constraint sections
after the constraint step's best pick, up to ``max_entries`` entries in all
(``recall/assemble.py``), never twice: a constraint the step picked shows as its entry
(paraphrases once, with their provenance; a superseded stance as the newer one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

import numpy as np

from cognimem.models.fact_decay import effective_confidence, half_life
from cognimem.models.knowledge import BINDING_CATEGORIES, Fact

__all__ = [
    "Profile",
    "ProfileChoice",
    "ProfileColumns",
    "ProfileConfig",
    "ProfileEntry",
    "Standing",
]


@dataclass(frozen=True)
class ProfileConfig:
    """How the profile is consolidated and what of it a request carries."""

    # the profile's own token cap in a packet (0: no profile). On
    # benchmarks/cue_trigger_long.py (tune / check), cue in the packet without the
    # profile 0.462 / 0.449 with 3.2 / 3.2 unrelated constraints per packet; 120 tokens
    # (absolute floors, no crowding, no entry cap) 0.554 / 0.480 with 5.9 / 5.5
    max_tokens: int = 120
    # the constraint entries a decision's packet shows in all, the constraint step's
    # best pick included (docs/constraints.md says what was measured)
    max_entries: int = 4
    # ... and one more when its score is within this of the last entry's that went in
    # (None: never): on the tune half of benchmarks/cue_trigger_long.py, replayed from
    # the captured profile inputs, 4 of 125 packets took a fifth entry and the cue came
    # in for one more pair (0.823 -> 0.831)
    tie: float | None = 0.005
    # an entry is carried when its score is within this of the best entry's, and only
    # with some evidence of bearing on the request: a shared scope tag, or at least
    # evidence_floor close in meaning (nothing is carried for being a constraint alone).
    # 0.4 -> 0.35 on the tune half of benchmarks/cue_trigger_long.py, replayed from the
    # captured profile inputs: the same cues (0.723), unrelated constraints 2.52 -> 2.42
    # a packet; as scopes of 7 (the cue and 6 others of its scope), the same cues with
    # 0.92 -> 0.85 other entries (0.3: a pair of cues lost)
    within: float = 0.35
    evidence_floor: float = 0.05
    # ... and when it stands out among the user's live constraints: its score at least
    # their mean plus this many standard deviations. Among a few constraints every
    # score is within `within` of the best, and the relative floor alone carried three
    # of seven unrelated ones (benchmarks/cue_trigger.py); among a conversation's ~80
    # the mean is far below the best and this floor changes nothing. On the tune half
    # of benchmarks/cue_trigger_long.py replayed as scopes of 7 constraints (the cue and
    # 6 others of its scope, 5 draws each), 0 / 0.25 / 0.5 / 1.0 kept the cue
    # 0.898 / 0.882 / 0.858 / 0.784 of the time (0.911 without) with 0.91 / 0.75 /
    # 0.58 / 0.30 other entries (1.21 without); None: no such floor
    stand_out: float | None = 0.0
    # ... and each after the best this many standard deviations above it by its score or
    # its closeness alone (None: no such floor): among ten preferences on ten topics half
    # are above the mean, and a travel request carried the food and music ones (tune
    # halves, replayed and read: docs/constraints.md). 0.5 -> 0.6 with stance_hub and
    # then_close: on the tune halves, replayed, the same cues with fewer others shown
    # (preference_requests 1.98 -> 1.88 a packet, ..._more 2.22 -> 2.08; 0.65 loses a
    # preference_requests pair, 0.75 one of cue_trigger)
    then_stand_out: float | None = 0.6
    # ... the closeness alone this many (None: then_stand_out). 0.5 -> 0.3 with
    # stance_hub, on the tune halves replayed: the stances reordered cost a
    # cue_trigger pair ("Because of my back I can't sit for long flights." for the
    # cheapest way to Sydney), and a goal close to its request whose crowding holds its
    # score down now comes in ("I'm learning Spanish and want to practise whenever I
    # can." for a show this evening); 0.25 carries the same cues, 0.4 not that goal
    then_close: float | None = 0.3
    # an entry that shares a scope tag and a decision area with the request is carried
    # within `within` without having to stand out: the floor judges entries whose only
    # evidence is closeness in meaning, and with two close constraints that both bear on
    # a request ("I'm vegetarian", "I am allergic to shellfish" for "any ideas for
    # dinner tonight?") the mean of the two kept only one. On the tune half of
    # benchmarks/cue_trigger_long.py it changed nothing (docs/constraints.md)
    topic_exempt: bool = True
    # the hubness correction: the score loses this times the mean cosine of the entry's
    # crowding_k nearest entries of the same user. On the tune half of
    # benchmarks/cue_trigger_long.py, read: 2.0 -> 2.5 moved the cue in the packet
    # 0.700 -> 0.723 with 2.55 -> 2.45 unrelated constraints a packet (replayed from the
    # captured candidates: 2.25 / 2.5 / 2.75 / 3.0 all within a pair of it)
    crowding_weight: float = 2.5
    crowding_k: int = 5
    # a stance's (rule's, value's) crowding is this much its hubness against the things
    # the decision areas list (its mean cosine with them, text/areas.py), the stances'
    # mean crowding kept (recall/profile_consolidate.py: stance_hubness; 0: none). On
    # the tune halves, replayed with then_close 0.3, cue in the packet:
    # preference_requests 0.933 -> 0.942, ..._more 0.889 -> 0.903, cue_trigger_long
    # 0.846 -> 0.854 (mid 0.700 -> 0.723), cue_trigger 0.771 -> 0.771 (docs/constraints.md)
    stance_hub: float = 0.35
    paraphrase: float = 0.85  # cosine: one stance said again in other words
    same_subject: float = 0.6  # cosine: two stances about one subject
    # a shared decision area tag (all or nothing): no weight of its own since the graded
    # affinity below took its place; it still exempts an entry that also shares a scope
    # tag from standing out (topic_exempt), and explain shows it
    area_weight: float = 0.0
    # the closeness an entry is ranked by is its cosine with the request plus this times
    # how much the two fall in the same decision areas (the dot product of their
    # area_shares at area_temperature, text/areas.py): graded, where the shared area
    # tag is all or nothing, and from the embedder alone. On the tune halves, replayed
    # from the captured profile inputs, in place of the tag's 0.15: cue_trigger_long
    # 0.823 -> 0.831, preference_requests 0.908 -> 0.933 (others shown 2.02 -> 2.04),
    # cue_trigger 0.714 -> 0.771 (docs/constraints.md)
    area_affinity: float = 0.15
    area_temperature: float = 0.02
    # ... and this times how much they fall on the same things the areas list (the dot
    # product of their softmaxes over the 122 listed things at thing_temperature,
    # text/areas.py: thing_shares): finer than the areas, two texts of one area can lie
    # near different things of it. On the tune halves, replayed from the captured
    # profile inputs (benchmarks/profile_replay_implied.py): preference_requests 0.942 ->
    # 0.950 (1.93 -> 1.91 others shown), ..._more 2.08 -> 2.03 others, cue_trigger_long
    # the same cues with 2.44 -> 2.42 (mid 2.73 -> 2.68) unrelated constraints a packet,
    # cue_trigger and dilution the same cues; at temperature 0.05 the mid setting lost a
    # pair, at 0.08 the gain went (docs/constraints.md, "What a constraint implies")
    thing_affinity: float = 0.3
    thing_temperature: float = 0.06
    # a statement the request is nearer to than to any statement of the user's other
    # entries (of other messages, at least crowding_k of them) — the request is its
    # nearest neighbour — gains this in closeness (0: none). Raising the best raises
    # the margin and the floors after it, so fewer others come along. On the tune
    # halves, replayed from the captured profile inputs
    # (benchmarks/profile_replay_mutual.py), the same cues on every set with fewer
    # others shown (read: preference_requests 1.77 -> 1.67, ..._more 1.94 -> 1.82,
    # ..._third 1.97 -> 1.93, ..._fourth 2.42 -> 2.40; replayed: cue_trigger_long 2.42
    # -> 2.38 unrelated constraints, mid 2.69 -> 2.68); 0.03-0.06 keep every cue, 0.07
    # loses a cue_trigger pair, 0.08 one of preference_requests too. Without the
    # crowding_k entries it lost a dilution scenario (3 constraints: the request was
    # nearer to a chatty one than to its two others; that check set no longer judges
    # it) (docs/constraints.md, "The request as a statement's nearest neighbour")
    reciprocal: float = 0.05
    # a memory drawn from a constraint the profile left out keeps its place among the
    # items only with evidence of its own: a shared word, among this many memories
    # nearest the request, or as close as the closest one behind a carried entry
    # (recall/profile_items.py; None: off). On the tune halves, read: other preferences
    # shown 1.90 -> 1.77 (preference_requests), 2.06 -> 1.94 (..._more), the same cues
    # on every set (1: two cues lost, 3: 1.87 / 2.01 others; docs/constraints.md)
    declined_near: int | None = 2
    # ... and a memory no constraint was drawn from (a preference the write path did not
    # record, small talk) the same, with this many nearest memories kept (None: off): the
    # profile never weighed it, so the test is looser. On the tune halves, read
    # (benchmarks/preference_requests_misses.py unstated N): the fifth preference set's
    # other preferences shown 2.35 -> 2.25, the other sets' as before, every cue kept;
    # cue_trigger_long at the end 0.854 -> 0.862 (the cue in the ten items 0.346 ->
    # 0.377), mid-conversation 0.723 (items 0.308 -> 0.346); dilution's chatty items
    # 3.21 -> 3.07 a packet. 3 (and 2) lost a fifth-set cue that reaches the packet only
    # as an item; 6 kept the long set's gain and showed as many preferences as before
    # (benchmarks/results/preference_requests_fifth.md)
    unstated_near: int | None = 4
    tag_weight: float = 0.15
    importance_weight: float = 0.1
    recency_weight: float = 0.1
    recency_days: float = 90.0  # the recency signal halves every this many days
    kind_weight: float = 0.05  # binding (value, policy) before goal, state, causal


@dataclass(frozen=True)
class Standing:
    """One consolidated entry: the stance as last said, and what it absorbed."""

    fact: Fact  # the newest statement
    row: int  # its row among the fact rows
    paraphrases: tuple[Fact, ...] = ()  # older statements of the same stance
    rows: tuple[int, ...] = ()  # the rows of the statement and its paraphrases
    supersedes: tuple[Fact, ...] = ()  # older opposite stances on the same subject
    # the mean cosine of its nearest entries of the same user (ProfileConfig.crowding_k)
    crowding: float = 0.0

    @property
    def statements(self) -> tuple[Fact, ...]:
        return (self.fact, *self.paraphrases)

    def event_ids(self) -> list[str]:
        return list(dict.fromkeys(e for f in self.statements for e in f.evidence_event_ids))

    def item_ids(self) -> list[str]:
        return list(dict.fromkeys(i for f in self.statements for i in f.evidence_item_ids))

    def confidence_at(self, at: datetime) -> float:
        return max(effective_confidence(f, at) for f in self.statements)


@dataclass(frozen=True)
class Profile:
    """A user's consolidated live constraints, newest stance first."""

    entries: tuple[Standing, ...]
    # per statement, in the columns' order (entries in turn, each one's statements): how
    # it divides among the decision areas (text/areas.py: area_shares); None: unknown
    areas: np.ndarray | None = field(default=None, compare=False, repr=False)
    # ... and among the things the areas list (text/areas.py: thing_shares)
    things: np.ndarray | None = field(default=None, compare=False, repr=False)
    # ... and its greatest cosine with a statement of another entry of other messages
    # (recall/profile_consolidate.py: nearest_other; +inf with fewer than crowding_k
    # such entries); None: no embeddings
    nearest: np.ndarray | None = field(default=None, compare=False, repr=False)

    def by_fact(self) -> dict[str, Standing]:
        """Every constraint's entry by fact id: the entry a statement is in, or the one
        whose newer stance superseded it."""
        out: dict[str, Standing] = {}
        for s in self.entries:
            for f in (*s.statements, *s.supersedes):
                out[f.id] = s
        return out

    @cached_property
    def columns(self) -> ProfileColumns:
        """The entries as arrays, built once per profile, so a read scores them all in
        a few numpy operations (a scope may hold hundreds of constraints)."""
        return ProfileColumns.of(self.entries)


@dataclass(frozen=True)
class ProfileColumns:
    """Per statement (grouped by entry, in entry order): its entry, fact row, stored
    confidence, half-life and validation time; per entry: where its statements start,
    whether it binds, its crowding, importance and newest validation time."""

    entry: np.ndarray
    rows: np.ndarray
    confidence: np.ndarray
    half_life_s: np.ndarray
    validated: np.ndarray
    starts: np.ndarray
    binding: np.ndarray
    crowding: np.ndarray
    importance: np.ndarray
    newest: np.ndarray

    @classmethod
    def of(cls, entries: Sequence[Standing]) -> ProfileColumns:
        statements = [
            (i, r, f)
            for i, s in enumerate(entries)
            for r, f in zip(s.rows, s.statements, strict=True)
        ]
        validated = np.array([f.last_validated_at.timestamp() for _, _, f in statements])
        entry = np.array([i for i, _, _ in statements], dtype=np.int64)
        starts = np.searchsorted(entry, np.arange(len(entries)))
        return cls(
            entry=entry,
            rows=np.array([r for _, r, _ in statements], dtype=np.int64),
            confidence=np.array([f.confidence for _, _, f in statements]),
            half_life_s=np.array([half_life(f) * 86_400 for _, _, f in statements]),
            validated=validated,
            starts=starts,
            binding=np.array([s.fact.category in BINDING_CATEGORIES for s in entries]),
            crowding=np.array([s.crowding for s in entries]),
            importance=np.array([max(f.importance for f in s.statements) for s in entries]),
            newest=np.maximum.reduceat(validated, starts) if len(entries) else validated,
        )


@dataclass(frozen=True)
class ProfileEntry:
    """An entry a request carries, with the signals that put it there."""

    standing: Standing
    score: float
    signals: dict[str, float]

    def reason(self) -> str:
        why = []
        if self.signals.get("area"):
            why.append("shares a decision area with the request")
        if self.signals.get("tags"):
            why.append("shares a scope tag with the request")
        if not why:
            why.append(
                f"close in meaning ({self.signals.get('semantic', 0.0):.2f}, its "
                f"crowding {self.signals.get('crowding', 0.0):.2f})"
            )
        s = self.standing
        if s.paraphrases:
            why.append(f"{len(s.paraphrases)} paraphrase(s) merged")
        if s.supersedes:
            why.append("supersedes " + ", ".join(f.id for f in s.supersedes))
        return "standing profile: " + "; ".join(why)


@dataclass
class ProfileChoice:
    """What a request gets of the profile: the entries that bear on it, best first, and
    every constraint's entry (so a constraint the constraint step picked shows as its
    entry: paraphrases once, a superseded stance not at all)."""

    entries: list[ProfileEntry] = field(default_factory=list)
    by_fact: dict[str, Standing] = field(default_factory=dict)
    # how many memories nearest the request a memory no constraint was drawn from may be
    # among to keep its place with no other evidence (ProfileConfig.unstated_near)
    unstated_near: int | None = None
