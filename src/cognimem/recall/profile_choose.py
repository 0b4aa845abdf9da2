"""The standing constraint profile per read (pure): the entries of a user's profile
(``recall/profile_consolidate.py``) that bear on a decision-like request.

- **stale states decay**: an entry whose effective confidence at the read's reference
  time (``models/fact_decay.py``: the half-life of its category since the latest of its
  statements was validated) fell below ``AGING_BELOW`` is left out — a binding one
  (value, policy) never decays out, as in the sections;
- **what bears on the request**: every live entry is ranked by relevance to the
  request — its closeness (its cosine with the request plus ``area_affinity`` times how
  much the two fall in the same decision areas, graded, and ``thing_affinity`` times
  how much they fall on the same things the areas list: ``text/areas.py``, and
  ``reciprocal`` when the request is nearer to it than any statement of the user's
  other entries: the request is its nearest neighbour) *less how
  close it sits to the user's other constraints* (``crowding``: the mean cosine of its
  ``crowding_k`` nearest entries of other messages), a shared scope tag, importance,
  recency and kind (binding first) — and those within ``within`` of the best and at
  least ``stand_out`` standard deviations above the mean score of the user's live
  entries (after the best, ``then_stand_out`` by score or ``then_close`` by closeness)
  are carried, best first, while they fit ``max_tokens``; an entry needs a shared scope tag or
  ``evidence_floor`` closeness to be ranked at all, and one that shares both a scope
  tag and a decision area with the request need not stand out (``topic_exempt``: two
  close constraints that both bear on it, "I'm vegetarian" and "I am allergic to
  shellfish" for "any ideas for dinner tonight?", are both carried; the mean of the
  two kept one). The mean is what keeps a small scope's profile short: among seven
  constraints every score is within ``within`` of the best. The crowding term is the
  hubness correction of nearest-neighbour retrieval: a constraint that is near all of
  the user's others ("I want to save money") is near every request too, and an
  absolute closeness floor let it into every packet while the one constraint that
  stands out for this request ("I've got gout" for "pick a place for the guys'
  night") stayed below the floor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

import numpy as np

from cognimem.models.fact_decay import AGING_BELOW
from cognimem.recall.profile import (
    Profile,
    ProfileColumns,
    ProfileConfig,
    ProfileEntry,
    Standing,
)

__all__ = ["choose", "part_config"]


def part_config(config: ProfileConfig) -> ProfileConfig:
    """How one part of a request that asks for several things (``recall/parts.py``)
    ranks the profile: only the entries that share a scope tag with the part, by
    closeness, area, importance, recency and kind, those within ``within`` of the
    part's best. The crowding correction and the stand-out floor are off: the entries
    that share a part's tags are one topic's cluster, whose members crowd each other —
    among "I'm vegetarian", "I'm allergic to peanuts" and "I never fly on Sundays" the
    correction put the lone travel rule first even for "book me a dinner". Nor do the
    listed things count (``thing_affinity``): among one topic's entries they only tell
    apart which of the topic's things each lies on, and for "a dinner" ranked "I'm
    allergic to peanuts." out of the margin below "I'm vegetarian."."""
    return replace(
        config,
        crowding_weight=0.0,
        stand_out=None,
        then_stand_out=None,
        evidence_floor=math.inf,
        thing_affinity=0.0,
    )


def choose(
    profile: Profile,
    semantic: np.ndarray,
    area: np.ndarray,
    tagged: np.ndarray,
    at: datetime,
    config: ProfileConfig,
    request_areas: np.ndarray | None = None,
    request_things: np.ndarray | None = None,
) -> list[ProfileEntry]:
    """The entries that bear on a request, best first: ``semantic``, ``area`` and
    ``tagged`` are per fact row (cosine with the request, shares one of its decision
    areas, shares one of its scope tags); ``at`` is the read's reference time;
    ``request_areas`` and ``request_things`` how the request divides among the decision
    areas and among the things they list (``text/areas.py``: ``area_shares``,
    ``thing_shares``)."""
    entries = profile.entries
    if not entries:
        return []
    c = profile.columns
    t = at.timestamp()
    with np.errstate(over="ignore"):
        decayed = c.confidence * 0.5 ** (np.maximum(t - c.validated, 0.0) / c.half_life_s)
    confidence = np.maximum.reduceat(decayed, c.starts)
    closeness = _closeness(profile, semantic, (request_areas, request_things), config)
    sem = np.maximum.reduceat(closeness, c.starts)
    shares_area = np.logical_or.reduceat(np.asarray(area, dtype=bool)[c.rows], c.starts)
    shares_tag = np.logical_or.reduceat(np.asarray(tagged, dtype=bool)[c.rows], c.starts)
    recency = 0.5 ** (np.maximum(t - c.newest, 0.0) / 86_400 / config.recency_days)
    score = (
        sem
        - config.crowding_weight * c.crowding
        + config.area_weight * shares_area
        + config.tag_weight * shares_tag
        + config.importance_weight * c.importance
        + config.recency_weight * recency
        + config.kind_weight * c.binding
    )
    live = c.binding | (confidence >= AGING_BELOW)  # a stale one decayed out
    evident = shares_tag | (sem >= config.evidence_floor)  # some evidence of bearing
    candidates = np.flatnonzero(live & evident)
    if not len(candidates):
        return []
    rounded = np.round(score, 4)
    margin = float(rounded[candidates].max() - config.within)
    floor = margin
    if config.stand_out is not None:  # stand out of the user's live constraints
        pool = rounded[live]
        floor = max(floor, float(pool.mean() + config.stand_out * pool.std()))
    carried = candidates[rounded[candidates] >= floor]
    if config.then_stand_out is not None and len(carried) > 1:
        close = config.then_stand_out if config.then_close is None else config.then_close
        spreads = (config.then_stand_out, close)
        carried = _then_stand_out(carried, rounded, sem, live, spreads)
    if config.topic_exempt:  # the lexicon's topic and area are evidence of their own
        on_topic = candidates[shares_tag[candidates] & shares_area[candidates]]
        carried = np.union1d(carried, on_topic[rounded[on_topic] >= margin])
    out = _carried_entries(entries, c, carried, rounded, sem, shares_area, shares_tag, recency)
    out.sort(key=lambda e: -e.score)  # a tie to the older entry: see _carried_entries
    return out


def _closeness(
    profile: Profile,
    semantic: np.ndarray,
    request: tuple[np.ndarray | None, np.ndarray | None],
    config: ProfileConfig,
) -> np.ndarray:
    """Per statement: its cosine with the request (``reciprocal`` more when the request
    is nearer to it than any statement of the user's other entries), plus
    ``area_affinity`` times how much
    the two fall in the same decision areas and ``thing_affinity`` times how much they
    fall on the same things the areas list (``request``: the request's area and thing
    shares, None when unknown)."""
    cosine: np.ndarray = np.asarray(semantic)[profile.columns.rows].astype(np.float64)
    if config.reciprocal and profile.nearest is not None:  # the request its nearest
        cosine = cosine + config.reciprocal * (cosine >= profile.nearest)
    areas, things = request
    if config.area_affinity and areas is not None and profile.areas is not None:
        cosine = cosine + config.area_affinity * (profile.areas @ areas)
    if config.thing_affinity and things is not None and profile.things is not None:
        cosine = cosine + config.thing_affinity * (profile.things @ things)
    return cosine


def _then_stand_out(
    carried: np.ndarray,
    rounded: np.ndarray,
    sem: np.ndarray,
    live: np.ndarray,
    spreads: tuple[float, float],
) -> np.ndarray:
    """Of the ``carried`` positions, the best (a tie to the older, as the entries are
    ordered) and those whose score or closeness is as many σ above its live mean as
    ``spreads`` says (the score's, the closeness's)."""
    top = rounded[carried].max()
    best = int(carried[rounded[carried] == top].max())
    keep = carried == best
    for values, spread in zip((rounded, sem), spreads, strict=True):
        pool = values[live]
        keep |= values[carried] >= float(pool.mean() + spread * pool.std())
    kept: np.ndarray = carried[keep]
    return kept


def _carried_entries(
    entries: Sequence[Standing],
    c: ProfileColumns,
    carried: np.ndarray,
    rounded: np.ndarray,
    sem: np.ndarray,
    shares_area: np.ndarray,
    shares_tag: np.ndarray,
    recency: np.ndarray,
) -> list[ProfileEntry]:
    """The entries at the ``carried`` positions, each with its score and signals, the
    older first (the entries are newest first), which breaks a tie of scores as the ids'
    time order did: not the fact id itself, whose tail is random, so facts written in
    one millisecond took turns."""
    # the signals as Python numbers in one conversion per column: converting them one
    # numpy scalar at a time was most of choose's cost (~0.5 ms for 27 entries)
    carried = carried[::-1]
    columns = zip(
        carried.tolist(),
        rounded[carried].tolist(),
        np.round(sem[carried], 4).tolist(),
        shares_area[carried].tolist(),
        shares_tag[carried].tolist(),
        np.round(c.importance[carried], 4).tolist(),
        np.round(recency[carried], 4).tolist(),
        c.binding[carried].tolist(),
        strict=True,
    )
    out = []
    for i, scored, close, in_area, tagged_, important, recent, binds in columns:
        st = entries[i]
        signals = {
            "profile": 1.0,
            "semantic": close,
            "crowding": st.crowding,
            "area": 1.0 if in_area else 0.0,
            "tags": 1.0 if tagged_ else 0.0,
            "importance": important,
            "recency": recent,
            "binding": 1.0 if binds else 0.0,
            "merged": float(len(st.paraphrases)),
            "supersedes": float(len(st.supersedes)),
        }
        out.append(ProfileEntry(st, scored, signals))
    return out
