"""The check, at start, that the embedding model matches the one the database was built
with."""

from __future__ import annotations

import logging

from cognimem.errors import UsageError
from cognimem.providers.embeddings import Embedder
from cognimem.providers.factory import same_weights, spec_of
from cognimem.store import Store

log = logging.getLogger(__name__)


async def check_embedding_model(store: Store, embedder: Embedder) -> None:
    """Record the model and its dimension in a new database; refuse (``UsageError``
    naming the settings to change) another model than the database's, of any dimension:
    the vectors of two models cannot be compared, so they may not share one index. The
    one exception is the same model file computed another way (``same_weights``: MiniLM's
    float and int8 products), which is logged."""
    model = embedder.model_id
    dim = await embedder.dimension()
    stored_model = await store.get_meta("embedding_model")
    stored_dim = await store.get_meta("embedding_dim")
    if stored_model is None:
        await store.set_meta("embedding_model", model)
        await store.set_meta("embedding_dim", str(dim))
        return
    other_dim = stored_dim is not None and int(stored_dim) != dim
    if not other_dim and stored_model != model and same_weights(stored_model, model):
        log.warning(
            "embedding model changed from %s to %s, the same weights computed another way; "
            "their vectors share the index (set COGNIMEM_EMBEDDING__MODEL to %s to keep "
            "embedding with the database's model, or run `cognimem reembed --model %s`)",
            stored_model,
            model,
            spec_of(stored_model),
            spec_of(model),
        )
        return
    if other_dim or stored_model != model:
        raise UsageError(
            f"this database was built with embedding model {stored_model!r} "
            f"({stored_dim} dimensions) but {model!r} ({dim} dimensions) is configured, and "
            f"the vectors of two models cannot share one index: set "
            f"COGNIMEM_EMBEDDING__MODEL to {spec_of(stored_model)!r}, or move the "
            f"database to the new model with `cognimem reembed --model {spec_of(model)}` "
            "(docs/operations.md)"
        )
