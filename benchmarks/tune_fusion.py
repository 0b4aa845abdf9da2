"""Fusion tuning on the LoCoMo dev set: ingest once, then score fusion variants offline.

Fusion is a pure function of the per-method candidate lists, so every variant is
evaluated on the same candidates. Usage:

    python benchmarks/tune_fusion.py /path/to/locomo10_dev.json
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import numpy as np

from cognimem import Memory
from cognimem.eval import locomo
from cognimem.recall.analyze import query_terms
from cognimem.store.base import Candidate, ItemFilter


def minmax(c: list[Candidate]) -> dict[str, float]:
    if not c:
        return {}
    s = np.array([x.score for x in c])
    lo, hi = s.min(), s.max()
    return {x.item_id: (x.score - lo) / (hi - lo) if hi > lo else 1.0 for x in c}


def bymax(c: list[Candidate]) -> dict[str, float]:
    if not c:
        return {}
    hi = max(x.score for x in c)
    return {x.item_id: x.score / hi if hi > 0 else 0.0 for x in c}


def raw(c: list[Candidate]) -> dict[str, float]:
    return {x.item_id: x.score for x in c}


def combine(parts: list[tuple[float, dict[str, float]]]) -> list[str]:
    total: dict[str, float] = {}
    for w, d in parts:
        for k, v in d.items():
            total[k] = total.get(k, 0.0) + w * v
    return [k for k, _ in sorted(total.items(), key=lambda kv: -kv[1])]


def rrf(
    lists: list[list[Candidate]], k: int = 60, weights: tuple[float, ...] = (1, 1)
) -> list[str]:
    total: dict[str, float] = {}
    for w, lst in zip(weights, lists, strict=True):
        for r, c in enumerate(lst, 1):
            total[c.item_id] = total.get(c.item_id, 0.0) + w / (k + r)
    return [k_ for k_, _ in sorted(total.items(), key=lambda kv: -kv[1])]


async def main(path: Path) -> None:
    convs = locomo.load(path)
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/t.db") as mem:
            for c in convs:
                await locomo.ingest(mem, c)
            rows = []
            for c in convs:
                ref = c.last_time + timedelta(days=1)
                for q in c.questions:
                    if q.category == 5:
                        continue
                    scope = mem_scope(c.sample_id)
                    flt = ItemFilter(scope=scope, until=ref)
                    lex = await mem.store.lexical_search(flt, query_terms(q.text), 100)
                    v = (await mem.embedder.embed([q.text], "query"))[0]
                    vec = await mem.store.vector_search(flt, v, 100)
                    ids = {x.item_id for x in lex} | {x.item_id for x in vec}
                    items = await mem.store.get_items("default", list(ids))
                    ext = {i.id: set(i.external_ids) for i in items}
                    rows.append((q, lex, vec, ext))
    variants = {
        "lexical": lambda lex, vec: [c.item_id for c in lex],
        "vector": lambda lex, vec: [c.item_id for c in vec],
        "rrf60": lambda lex, vec: rrf([lex, vec]),
        "rrf60 w2:1": lambda lex, vec: rrf([lex, vec], weights=(2, 1)),
    }
    for wv in (0.1, 0.2, 0.3, 0.4, 0.5):
        variants[f"bymax lex+{wv} vec(bymax)"] = lambda lex, vec, wv=wv: combine(
            [(1 - wv, bymax(lex)), (wv, bymax(vec))]
        )
        variants[f"bymax lex+{wv} vec(minmax)"] = lambda lex, vec, wv=wv: combine(
            [(1 - wv, bymax(lex)), (wv, minmax(vec))]
        )
        variants[f"minmax both {wv}"] = lambda lex, vec, wv=wv: combine(
            [(1 - wv, minmax(lex)), (wv, minmax(vec))]
        )
        variants[f"bymax lex+{wv} raw cos"] = lambda lex, vec, wv=wv: combine(
            [(1 - wv, bymax(lex)), (wv, raw(vec))]
        )
    print(f"{'variant':<32}{'frac@5':>8}{'frac@10':>8}{'frac@20':>8}  per-cat@10")
    for name, fn in variants.items():
        fr = {5: 0.0, 10: 0.0, 20: 0.0}
        cat: dict[int, list[float]] = {}
        for q, lex, vec, ext in rows:
            ranked = fn(lex, vec)
            ev = set(q.evidence)
            for k in fr:
                cov = set().union(*(ext[i] for i in ranked[:k]))
                fr[k] += len(ev & cov) / len(ev)
                if k == 10:
                    cat.setdefault(q.category, []).append(len(ev & cov) / len(ev))
        n = len(rows)
        cats = " ".join(f"{c}:{np.mean(v):.3f}" for c, v in sorted(cat.items()))
        print(f"{name:<32}{fr[5] / n:>8.4f}{fr[10] / n:>8.4f}{fr[20] / n:>8.4f}  {cats}")


def mem_scope(user: str):
    from cognimem.models import Scope

    return Scope(user_id=user)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
