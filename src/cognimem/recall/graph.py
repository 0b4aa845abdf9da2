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
import threading
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
    if not walk.nodes_count:
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


class _Graph:
    """What a walk needs of the edges alone, whatever its seeds: the entities in the
    order the edges name them, every edge's two ends as indices into them, and each
    direction's share of its tail's weight. The store hands a scope's edges over as
    one list it keeps while no fact changes, so a read prepares them once
    (``_prepared``) and each walk only renumbers them for its seeds."""

    def __init__(self, edges: Sequence[GraphEdge]) -> None:
        ends = [e.source_entity_id for e in edges] + [e.target_entity_id for e in edges]
        self.position = {node: i for i, node in enumerate(dict.fromkeys(ends))}
        self.entities = list(self.position)
        m = len(edges)
        self.edges = m
        # the tail of each direction: every edge from its source, then from its target
        self.tail = np.fromiter(map(self.position.__getitem__, ends), np.intp, len(ends))
        self.head = np.concatenate([self.tail[m:], self.tail[:m]])
        confidence = np.fromiter((e.confidence for e in edges), float, m)
        # a non-positive (or NaN) confidence carries nothing
        self.confidence = np.where(confidence > 0, confidence, 0.0)
        weight = np.concatenate([self.confidence, self.confidence])
        self.degree = np.bincount(self.tail, weights=weight, minlength=len(self.position))
        self.share = np.divide(
            weight, self.degree[self.tail], out=np.zeros_like(weight), where=weight > 0
        )


_PREPARED: dict[int, tuple[Sequence[GraphEdge], _Graph]] = {}
_MAX_PREPARED = 8  # scopes' graphs kept (a graph holds its edges' list alive)
_prepared_lock = threading.Lock()


def _prepared(edges: Sequence[GraphEdge]) -> _Graph:
    """The edges prepared, kept by the identity of the list (held, so its id is not
    reused) while it is the one the store hands over."""
    with _prepared_lock:
        kept = _PREPARED.get(id(edges))
    if kept is not None and kept[0] is edges and kept[1].edges == len(edges):
        return kept[1]
    graph = _Graph(edges)
    with _prepared_lock:
        if len(_PREPARED) >= _MAX_PREPARED:
            del _PREPARED[next(iter(_PREPARED))]
        _PREPARED[id(edges)] = (edges, graph)
    return graph


class _Walk:
    """The random walk behind both functions: the entities (the seeds first), their
    mass, and every edge as indices into them (parallel arrays, so numpy does the sparse
    arithmetic)."""

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
        graph = _prepared(edges)
        # the seeds first, then the graph's other entities in its order
        seeded = [graph.position.get(node, -1) for node in teleport_of]
        in_graph = np.zeros(len(graph.entities), dtype=bool)
        renumber = np.empty(len(graph.entities), dtype=np.intp)
        for i, at in enumerate(seeded):
            if at >= 0:
                in_graph[at] = True
                renumber[at] = i
        rest = np.flatnonzero(~in_graph)
        renumber[rest] = len(teleport_of) + np.arange(len(rest))
        self._order = (list(teleport_of), graph.entities, rest)
        m = graph.edges
        n = len(teleport_of) + len(rest)
        self.nodes_count = n if teleport_of else 0
        tail = renumber[graph.tail]
        self.sources, self.targets = tail[:m], tail[m:]
        self.confidence = graph.confidence
        teleport = np.zeros(n)
        if teleport_of:
            teleport[: len(teleport_of)] = np.fromiter(teleport_of.values(), float) / total
        self.rank = teleport
        if not teleport_of or not m:
            return
        head = renumber[graph.head]
        share = graph.share
        degree = np.zeros(n)
        degree[renumber] = graph.degree
        dangling = degree == 0
        # most graphs have no entity without edges (only a seed absent from the graph
        # has none): then the returned mass is 0 and adding it changes nothing
        returns = bool(dangling.any())
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

    @property
    def nodes(self) -> list[str]:
        """The entities, in the order of ``rank`` (none without seeds)."""
        if not self.nodes_count:
            return []
        seeds, entities, rest = self._order
        return seeds + [entities[i] for i in rest.tolist()]


def candidate_names(query: str) -> list[str]:
    """Normalised names the query may mention, for an exact alias lookup, in order.

    Every run of one to three words within a clause, unless it starts or ends with a
    stop word: "my mom" normalises to "mom" anyway, and "where does" names nobody,
    while "bank of america" keeps its inner "of". A trailing possessive is tried
    without and then with its "'s" ("Rosa's" → "rosa", "rosa's"; the
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
