"""The standing constraint profile's consolidation (pure): a user's live constraints
(newest first) as a short list of entries, once per version of the user's fact rows (the
stores keep one copy of the rows while no fact changes, and the profile is kept on it;
``recall/profile_read.py``):

- **paraphrases merge**: two constraints of one stance whose embeddings are at least
  ``ProfileConfig.paraphrase`` close, or whose values hold the same words, are one
  entry, shown as the newest statement, its provenance the union of theirs;
- **a newer stance supersedes**: an older constraint of the opposite stance on the
  same subject (the same predicate, and values that share words or embeddings at least
  ``same_subject`` close) leaves the profile; the fact itself stays stored, with its
  history, and the entry names it (``supersedes``);
- **the nearest other statement**: per statement, its cosine with the nearest statement
  of another entry of other messages (``Profile.nearest``; with at least
  ``crowding_k`` such entries): a request nearer to it than that is the statement's own
  nearest neighbour (``ProfileConfig.reciprocal``);
- **crowding**: each entry's mean cosine to its ``crowding_k`` nearest entries of other
  messages, the hubness correction the per-read ranking subtracts
  (``recall/profile_choose.py``); a stance's (a rule's or a value's) is blended with
  how near it sits to everyday topics at large (:func:`stance_hubness`): among the
  user's stances the words of stance they share ("I can't stand", "I'd rather not")
  made every refusal near every other, which says nothing about what one bears on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from cognimem.blas import single_threaded
from cognimem.models.knowledge import BINDING_CATEGORIES, Fact
from cognimem.recall.analyze import query_terms
from cognimem.recall.profile import Profile, ProfileConfig, Standing

__all__ = ["consolidate", "crowding_of", "nearest_other", "stance_hubness"]

# a value opening with one of these is a stance against what follows ("no pork")
_REFUSALS = frozenset(
    ["no", "not", "never", "avoid", "avoiding", "without", "skip", "stop", "quit", "none"]
)


def _stance(fact: Fact) -> bool:
    words = fact.value.lower().split()
    against = bool(words) and words[0].strip(",.") in _REFUSALS
    return fact.polarity != against


def _words(fact: Fact) -> frozenset[str]:
    return frozenset(w for w in query_terms(fact.value) if w not in _REFUSALS)


def _same_words(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def consolidate(
    facts: Sequence[Fact], rows: Sequence[int], matrix: np.ndarray | None, config: ProfileConfig
) -> Profile:
    """The profile of ``facts`` (the user's live constraints, newest first; ``rows`` their
    rows in the fact rows, whose embeddings are ``matrix``'s rows)."""
    n = len(facts)
    if matrix is not None and n:
        vectors = matrix[list(rows)]
        with single_threaded():
            cosine = vectors @ vectors.T
    else:
        cosine = np.zeros((n, n), dtype=np.float32)
    words = [_words(f) for f in facts]
    stances = [_stance(f) for f in facts]
    owner: list[int | None] = [None] * n  # the entry a fact joined, by its first fact
    gone: set[int] = set()  # superseded by a newer opposite stance
    absorbed: dict[int, list[int]] = {}
    superseded: dict[int, list[int]] = {}
    for i in range(n):  # newest first: a fact joins or is superseded by a newer one
        for j in range(i):
            if (owner[j] is not None and owner[j] != j) or j in gone:
                continue
            shared = _same_words(words[i], words[j])
            same = cosine[i, j] >= config.paraphrase or (shared == 1.0 and words[i] == words[j])
            if same and (stances[i] == stances[j] or _one_statement(facts[i], facts[j])):
                owner[i] = j
                absorbed.setdefault(j, []).append(i)
                break
            if (
                stances[i] != stances[j]
                and facts[i].predicate == facts[j].predicate
                and (shared >= 0.5 or cosine[i, j] >= config.same_subject)
            ):
                gone.add(i)
                superseded.setdefault(j, []).append(i)
                break
        if owner[i] is None and i not in gone:
            owner[i] = i
    groups = [_binding_first(facts, i, absorbed.get(i, [])) for i in range(n) if owner[i] == i]
    heads = [g[0] for g in groups]
    one_message = _one_message(facts, groups)
    crowding = crowding_of(cosine[np.ix_(heads, heads)], config.crowding_k, one_message)
    entries = []
    for group, crowded in zip(groups, crowding, strict=True):
        older = [k for j in group for k in superseded.get(j, [])]
        entries.append(
            Standing(
                fact=facts[group[0]],
                row=rows[group[0]],
                paraphrases=tuple(facts[k] for k in group[1:]),
                rows=tuple(rows[k] for k in group),
                supersedes=tuple(facts[k] for k in older),
                crowding=crowded,
            )
        )
    if matrix is None:
        nearest = None
    else:
        nearest = nearest_other(cosine, groups, one_message, config.crowding_k)
    return Profile(tuple(entries), nearest=nearest)


def nearest_other(
    cosine: np.ndarray, groups: Sequence[Sequence[int]], one_message: np.ndarray, least: int
) -> np.ndarray:
    """Per statement, in the profile's columns order (entries in turn, each one's
    statements): its greatest cosine with a statement of another entry, leaving out
    entries drawn from one of its own messages (as ``crowding_of`` does); +inf (no
    request is nearer) with fewer than ``least`` such entries: among two or three
    others, being nearer than them says little (a request 0.19 from "My phone battery
    dies so fast these days" was nearer than its two others)."""
    statements = [k for group in groups for k in group]
    entry = np.array([at for at, group in enumerate(groups) for _ in group], dtype=np.int64)
    if not statements:
        return np.zeros(0)
    apart = ~one_message[np.ix_(entry, entry)] & (entry[:, None] != entry[None, :])
    others = np.where(apart, np.asarray(cosine[np.ix_(statements, statements)]), -np.inf)
    entries = ~one_message & ~np.eye(len(groups), dtype=bool)
    out: np.ndarray = others.max(axis=1).astype(np.float64)
    out[entries.sum(axis=1)[entry] < max(least, 1)] = np.inf
    return out


def _one_statement(a: Fact, b: Fact) -> bool:
    """Whether two facts were drawn from one message: with embeddings paraphrase-close
    they are one sentence read twice ("I'm not eating out more than once a week because
    I'm saving for a house" gives a rule and a goal of opposite stances), one entry."""
    return not set(a.evidence_event_ids).isdisjoint(b.evidence_event_ids)


def _binding_first(facts: Sequence[Fact], head: int, merged: Sequence[int]) -> list[int]:
    """An entry's statements, the one it is shown as first: its newest, or a binding
    statement (a rule, a value) drawn from the same message when the newest is not one,
    so the sentence that gave both shows as the rule to follow."""
    group = [head, *merged]
    if facts[head].category in BINDING_CATEGORIES:
        return group
    rule = next(
        (
            k
            for k in merged
            if facts[k].category in BINDING_CATEGORIES and _one_statement(facts[head], facts[k])
        ),
        None,
    )
    return group if rule is None else [rule, *(k for k in group if k != rule)]


def _one_message(facts: Sequence[Fact], groups: Sequence[Sequence[int]]) -> np.ndarray:
    """Which pairs of entries (each a group of statements) share an evidence event (were
    drawn from one message)."""
    holders: dict[str, set[int]] = {}
    for at, group in enumerate(groups):
        for k in group:
            for event in facts[k].evidence_event_ids:
                holders.setdefault(event, set()).add(at)
    shared = np.zeros((len(groups), len(groups)), dtype=bool)
    for together in (sorted(g) for g in holders.values() if len(g) > 1):
        shared[np.ix_(together, together)] = True
    return shared


def crowding_of(cosine: np.ndarray, k: int, one_message: np.ndarray) -> list[float]:
    """Per entry, the mean cosine of its ``k`` nearest other entries, leaving out those
    drawn from one of its own messages (0 with none): two facts of one sentence ("I avoid
    flying because I get panic attacks" gives a rule and a cause) are one statement, not
    a crowd of the user's constraints around it."""
    n = len(cosine)
    if n < 2 or k <= 0:
        return [0.0] * n
    others = np.array(cosine, dtype=np.float64)
    others[one_message] = -np.inf
    np.fill_diagonal(others, -np.inf)
    nearest = -np.sort(-others, axis=1)[:, : min(k, n - 1)]
    counted = np.isfinite(nearest)
    total = np.where(counted, nearest, 0.0).sum(axis=1)
    many = counted.sum(axis=1)
    mean = np.divide(total, many, out=np.zeros(n), where=many > 0)
    return [round(float(v), 4) for v in mean]


def stance_hubness(
    profile: Profile, heads: np.ndarray, reference: np.ndarray, mix: float
) -> Profile:
    """``profile`` with each stance's (rule's, value's) crowding blended, ``mix`` of it,
    with its hubness against a fixed reference: its mean cosine with ``reference`` (the
    things the decision areas list, ``text/areas.py``: ``AREA_PHRASES``), shifted so
    the stances' mean crowding is what it was. ``heads``: each entry's statement vector,
    in entry order. A stance near everything is near every request too; its crowding
    among the user's own stances measured that by the stance words they share as much
    as by what it is about. The shift keeps the stances as a group where they were
    against goals, states and causes, which keep their crowding (the hubness only
    reorders the stances among themselves)."""
    stances = np.array([s.fact.category in BINDING_CATEGORIES for s in profile.entries])
    if mix <= 0 or stances.sum() < 2:
        return profile
    with single_threaded():
        hub = (heads[stances] @ reference.T).mean(axis=1).astype(np.float64)
    crowding = np.array([s.crowding for s in profile.entries])
    own = crowding[stances]
    crowding[stances] = (1.0 - mix) * own + mix * (hub - hub.mean() + own.mean())
    entries = tuple(
        replace(s, crowding=float(c)) if stance else s
        for s, c, stance in zip(profile.entries, crowding, stances, strict=True)
    )
    return replace(profile, entries=entries)
