"""The check, at start, that the embedding model matches the one the database was built
with."""

from __future__ import annotations

import logging

from cognimem.errors import UsageError
from cognimem.providers.embeddings import Embedder
from cognimem.providers.factory import spec_of
from cognimem.store import Store

log = logging.getLogger(__name__)


async def check_embedding_model(store: Store, embedder: Embedder) -> None:
    """Record the model and its dimension in a new database; refuse (``UsageError``
    naming the setting to change) a model of another dimension than the database's; warn
    when another model of the same dimension takes over the index."""
    model = embedder.model_id
    dim = await embedder.dimension()
    stored_model = await store.get_meta("embedding_model")
    stored_dim = await store.get_meta("embedding_dim")
    if stored_model is None:
        await store.set_meta("embedding_model", model)
        await store.set_meta("embedding_dim", str(dim))
        return
    if stored_dim is not None and int(stored_dim) != dim:
        raise UsageError(
            f"this database was built with embedding model {stored_model!r} "
            f"({stored_dim} dimensions) but {model!r} gives {dim}: set "
            f"COGNIMEM_EMBEDDING__MODEL to {spec_of(stored_model)!r} or use a new database"
        )
    if stored_model != model:
        log.warning(
            "embedding model changed from %s to %s with the same dimension (%d); "
            "vectors from both models now share one index (set "
            "COGNIMEM_EMBEDDING__MODEL to %s to keep embedding with the database's model)",
            stored_model,
            model,
            dim,
            spec_of(stored_model),
        )
