"""Re-embedding a database with another embedding model, in two steps.

1. Every text a vector of the database embeds (items with their author, facts) is
   embedded with the new model into the embedding cache (``embedding_cache``, keyed by
   model and text), in batches, with progress. Nothing a read uses changes: the
   database's own vectors, its model and every running process stay as they were.
2. One transaction of the store (``ReembedStore.switch_vectors``) replaces every vector
   with the new model's from the cache and records the new model. Rows written
   meanwhile (by processes still on the old model) whose text the cache does not hold
   make the switch change nothing and name them; they are embedded and the switch tried
   again.

A run stopped at any point (killed, an error) leaves the database on the old model with
its old vectors; the next run finds the new model's vectors it already made in the
cache and embeds only the rest. The old model's cached vectors stay too, so switching
back costs no embedding.
"""

from __future__ import annotations

from collections.abc import Callable

from cognimem.errors import Conflict
from cognimem.models.admin import ReembedResult
from cognimem.providers.embeddings import CachedEmbedder, Embedder
from cognimem.store import Store
from cognimem.store.reembedding import MODEL_META, VECTOR_TABLES

BATCH = 256  # texts per call to the model
SWITCH_ATTEMPTS = 5  # switches that found rows written meanwhile, before giving up

Progress = Callable[[int, int], None]
"""Told ``(rows done, rows in all)`` after each batch."""


async def reembed(
    store: Store,
    embedder: Embedder,
    *,
    batch_size: int = BATCH,
    progress: Progress | None = None,
) -> ReembedResult:
    """Re-embed every vector of the open ``store`` with ``embedder`` and switch the
    database to it (see the module docstring); raises ``Conflict`` when writes with
    the old model keep coming faster than they are embedded."""
    model = embedder.model_id
    dim = await embedder.dimension()
    previous = await store.get_meta(MODEL_META)
    # the cache is where the new vectors wait for the switch (no LRU: each text once)
    staging = CachedEmbedder(embedder, store, lru_size=0)
    total = await store.count_vectors()
    done = 0
    if progress is not None:
        progress(done, total)
    for table in VECTOR_TABLES:
        after = ""
        while rows := await store.vector_texts(table, after, batch_size):
            await staging.embed([r.text for r in rows])
            after = rows[-1].id
            done += len(rows)
            total = max(total, done)  # rows written since the count
            if progress is not None:
                progress(done, total)
    for _ in range(SWITCH_ATTEMPTS):
        switch = await store.switch_vectors(model, dim)
        if not switch.missing:
            return ReembedResult(
                model=model,
                dimension=dim,
                previous_model=previous,
                items=switch.items,
                facts=switch.facts,
                embedded=staging.misses,
            )
        for start in range(0, len(switch.missing), batch_size):
            await staging.embed(list(switch.missing[start : start + batch_size]))
    raise Conflict(
        f"memories written with the old embedding model kept arriving during "
        f"{SWITCH_ATTEMPTS} switches to {model!r}; nothing was switched. Stop the "
        "processes that write with the old model (or start them with the new one, which "
        "they refuse until the switch) and run reembed again: it embeds only what is new"
    )
