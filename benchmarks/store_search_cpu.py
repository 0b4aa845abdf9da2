"""CPU of a store's vector and lexical searches alone, on a scope ``growth.py`` grew.

What it measures: the store opened on DB (a copy: searches store nothing, but use one),
the growth user's scope loaded and, on SQLite past the index threshold, its vector index
built; then for 50 LoCoMo dev questions (embedded beforehand, outside the timing) the
process CPU (every thread: a search on a reader thread counts) of ``vector_searches`` at
depth 100 (a read's vector step) and 300 (an event question's), and of
``lexical_search`` at depth 100.

Usage: ``python benchmarks/store_search_cpu.py DB --questions LOCOMO.json``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import numpy as np
from growth import USER, questions

from cognimem.models import Scope
from cognimem.providers.factory import build_embedder
from cognimem.store import ItemFilter, open_store
from cognimem.text.tokens import query_terms


async def main(db: Path, path: Path) -> dict[str, float]:
    texts = questions(path)[:60]
    vecs = np.asarray(await build_embedder("onnx:minilm").embed(texts, "query"), np.float32)
    store = open_store(f"sqlite:///{db}")
    await store.open()
    scope = Scope(tenant_id="default", user_id=USER)
    flt = ItemFilter(scope=scope, with_organisation=True)
    await store.load_scope(scope)
    await store.vector_searches([(flt, 100)], vecs[0])
    wait = getattr(store, "wait_for_vector_indexes", None)
    if wait is not None:
        wait()
    for v in vecs[:5]:
        await store.vector_searches([(flt, 100)], v)
    calls: dict[str, Callable[[int], Awaitable[object]]] = {
        "vector_searches(100)": lambda i: store.vector_searches([(flt, 100)], vecs[i]),
        "vector_searches(300)": lambda i: store.vector_searches([(flt, 300)], vecs[i]),
        "lexical_search(100)": lambda i: store.lexical_search(flt, query_terms(texts[i]), 100),
    }
    out = {}
    for name, call in calls.items():
        cpu = time.process_time()
        for i in range(10, 60):
            await call(i)
        out[name] = round((time.process_time() - cpu) / 50 * 1000, 3)
    await store.close()
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--questions", type=Path, required=True)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.database, args.questions))))
