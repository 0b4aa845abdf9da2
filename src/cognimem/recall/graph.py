"""Graph expansion: from the entities a query names to the items that back the facts
around them, by personalized PageRank over the scope's entity graph.

The store hands over the whole visible graph in one query (``Store.graph_edges``);
everything here is pure in-process math, so a read never walks the graph one entity
at a time. PageRank rather than a fixed number of hops: mass fades with distance and
splits at hubs, so a two-hop neighbour counts, but less than a direct one, and an
entity linked to everything does not drag everything in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from cognimem.recall.analyze import STOP_WORDS
from cognimem.store.types import Candidate, GraphEdge
from cognimem.text.names import normalize_name

MAX_WINDOW = 3  # words in the longest name looked up
MAX_NAMES = 40

# a name never spans these; periods are allowed ("St. Louis", "J. R. R. Tolkien")
_BREAK = re.compile(r"[,;:!?()\[\]{}\"\n]+")
_TOKEN = re.compile(r"\w+(?:'\w+)*")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


def personalized_pagerank(
    edges: Sequence[GraphEdge],
    seeds: Mapping[str, float],
    *,
    damping: float = 0.85,
    iterations: int = 30,
    tolerance: float = 1e-6,
) -> dict[str, float]:
    """PageRank mass of each entity reachable from ``seeds`` (entity id → weight).

    Edges are undirected (a relation read either way links the same two entities) and
    weighted by confidence. Every jump, and all mass at an entity with no edges (a seed
    absent from the graph), returns to the seeds in proportion to their weights, so
    the result sums to 1 and stays around them. Entities with no mass are left out."""
    walk = _Walk(edges, seeds, damping, iterations, tolerance)
    if not walk.nodes:
        return {}
    return {
        node: mass for node, mass in zip(walk.nodes, walk.rank.tolist(), strict=True) if mass > 0
    }


def expand(
    edges: Sequence[GraphEdge],
    seeds: Mapping[str, float],
    *,
    limit: int,
    min_score: float = 0.0,
) -> list[Candidate]:
    """The evidence items of the edges nearest the ``seeds``, best first (ties by id).

    An edge scores the PageRank mass of its two ends times its confidence; an item
    scores the best edge that cites it. Edges out of the seeds' reach give nothing."""
    if limit <= 0 or not edges:
        return []
    walk = _Walk(edges, seeds)
    if not walk.nodes:
        return []
    scores = (walk.rank[walk.sources] + walk.rank[walk.targets]) * walk.confidence
    best: dict[str, float] = {}
    floor = -1.0  # the score of the limit-th item once there are that many
    for i in np.argsort(-scores, kind="stable"):
        score = float(scores[i])
        if not score > 0 or score < min_score or score < floor:
            break  # edges come best first: the rest cannot place
        for item_id in edges[i].item_ids:
            best.setdefault(item_id, score)
        if floor < 0 and len(best) >= limit:
            floor = score  # keep going only for items tied with it (ties go by id)
    ranked = sorted(best.items(), key=lambda pair: (-pair[1], pair[0]))[:limit]
    return [Candidate(item_id=item_id, score=score) for item_id, score in ranked]


class _Walk:
    """The random walk behind both functions: the entities, their mass, and every edge
    as indices into them (parallel arrays, so numpy does the sparse arithmetic)."""

    def __init__(
        self,
        edges: Sequence[GraphEdge],
        seeds: Mapping[str, float],
        damping: float = 0.85,
        iterations: int = 30,
        tolerance: float = 1e-6,
    ) -> None:
        teleport_of = {node: float(w) for node, w in seeds.items() if w > 0}
        total = sum(teleport_of.values())
        if not total > 0:
            teleport_of = {}
        ends = [e.source_entity_id for e in edges] + [e.target_entity_id for e in edges]
        position = {node: i for i, node in enumerate({**teleport_of, **dict.fromkeys(ends)})}
        codes = np.fromiter(map(position.__getitem__, ends), np.intp, len(ends))
        m = len(edges)
        self.nodes = list(position) if teleport_of else []
        self.sources, self.targets = codes[:m], codes[m:]
        confidence = np.fromiter((e.confidence for e in edges), float, m)
        # a non-positive (or NaN) confidence carries nothing
        self.confidence = np.where(confidence > 0, confidence, 0.0)
        n = len(position)
        teleport = np.zeros(n)
        if teleport_of:
            teleport[: len(teleport_of)] = np.fromiter(teleport_of.values(), float) / total
        self.rank = teleport
        if not teleport_of or not m:
            return
        # both directions of every edge
        tail = np.concatenate([self.sources, self.targets])
        head = np.concatenate([self.targets, self.sources])
        weight = np.concatenate([self.confidence, self.confidence])
        degree = np.bincount(tail, weights=weight, minlength=n)
        dangling = degree == 0
        # most graphs have no entity without edges (only a seed absent from the graph
        # has none): then the returned mass is 0 and adding it changes nothing
        returns = bool(dangling.any())
        share = np.divide(weight, degree[tail], out=np.zeros_like(weight), where=weight > 0)
        restart = (1.0 - damping) * teleport
        rank = teleport
        for _ in range(iterations):
            spread = np.bincount(head, weights=rank[tail] * share, minlength=n)
            if returns:
                spread += rank[dangling].sum() * teleport
            step = damping * spread + restart
            converged = float(np.abs(step - rank).sum()) < tolerance
            rank = step
            if converged:
                break
        self.rank = rank


def candidate_names(query: str) -> list[str]:
    """Normalised names the query may mention, for an exact alias lookup, in order.

    Every run of one to three words within a clause, unless it starts or ends with a
    stop word: "my mom" normalises to "mom" anyway, and "where does" names nobody,
    while "bank of america" keeps its inner "of". A trailing possessive is tried
    without and then with its "'s" ("Caroline's" → "caroline", "caroline's"; the
    second keeps "McDonald's")."""
    names: dict[str, None] = {}
    for clause in _BREAK.split(query.translate(_APOSTROPHES)):
        tokens = list(_TOKEN.finditer(clause))
        stop = [_is_stop(t.group()) for t in tokens]
        for first in range(len(tokens)):
            if stop[first]:
                continue
            for last in range(first, min(first + MAX_WINDOW, len(tokens))):
                if stop[last]:
                    continue
                start, end = tokens[first].start(), tokens[last].end()
                word = tokens[last].group()
                if word[-2:].casefold() == "'s":
                    _add(names, normalize_name(clause[start : end - 2]))
                _add(names, normalize_name(clause[start:end]))
                if len(names) >= MAX_NAMES:
                    return list(names)[:MAX_NAMES]
    return list(names)


def _is_stop(word: str) -> bool:
    folded = word.casefold()
    return folded in STOP_WORDS or folded.removesuffix("'s") in STOP_WORDS


def _add(names: dict[str, None], name: str) -> None:
    if name and name not in STOP_WORDS:
        names.setdefault(name, None)
