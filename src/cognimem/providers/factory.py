"""Builds the embedder a configuration string names (``COGNIMEM_EMBEDDING__MODEL``).

The forms are listed in :mod:`cognimem.providers.embeddings`. This module sits above the
embedders, which import their base types from ``embeddings``, so nothing imports back.
"""

from __future__ import annotations

from cognimem.errors import UsageError
from cognimem.providers.embeddings import Embedder
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.onnx import OnnxEmbedder, OnnxMiniLMEmbedder
from cognimem.providers.onnx_models import EMBEDDING_MODELS, MINILM
from cognimem.providers.openai import OpenAICompatibleEmbedder

_VALID_SPECS = (
    "'onnx:minilm', 'onnx:minilm-float', 'onnx:bge-small', 'hashing', 'hashing:<dim>', "
    "'openai:<model-name>'"
)


def spec_of(model_id: str) -> str:
    """The spec (``COGNIMEM_EMBEDDING__MODEL``) that builds the embedder whose
    ``model_id`` this is: what to tell a user who must open a database with the model
    it was built with."""
    for model in EMBEDDING_MODELS.values():
        if model.model_id == model_id:
            return f"onnx:{model.spec}"
    return model_id


def same_weights(model_id: str, other: str) -> bool:
    """Whether two model ids are one local model file computed two ways (MiniLM's float
    and int8 products): their vectors of a text agree to cosine >= 0.986, so they may
    share an index. Any other two models may not."""
    by_id = {m.model_id: m for m in EMBEDDING_MODELS.values()}
    a, b = by_id.get(model_id), by_id.get(other)
    return (
        a is not None
        and b is not None
        and (a.sha256, a.pooling, a.query_prefix) == (b.sha256, b.pooling, b.query_prefix)
    )


def build_embedder(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout_s: float = 30.0,
    max_retries: int = 2,
    batch_size: int = 64,
) -> Embedder:
    """Build the embedder named by ``spec`` (see the module docstring for the forms).

    Nothing is loaded or contacted here: models load and endpoints are probed on first use.
    """
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "onnx":
        model = EMBEDDING_MODELS.get(arg.lower()) if arg else MINILM
        if model is MINILM:
            return OnnxMiniLMEmbedder(batch_size=batch_size)
        if model is not None:
            return OnnxEmbedder(model, batch_size=batch_size)
    if kind == "hashing":
        if not arg:
            return HashingEmbedder()
        width, _, salt = arg.partition(":")
        try:
            dim = int(width)
        except ValueError:
            dim = 0
        if dim <= 0:
            raise UsageError(
                f"invalid embedder spec {spec!r}: 'hashing:<dim>' needs a positive integer "
                f"dimension, e.g. 'hashing:256'"
            )
        return HashingEmbedder(dim=dim, salt=salt)
    if kind == "openai" and arg:
        if not base_url:
            raise UsageError(
                f"embedder {spec!r} needs the endpoint's base URL: set "
                "COGNIMEM_EMBEDDING__BASE_URL (e.g. http://127.0.0.1:11434/v1) or pass base_url"
            )
        return OpenAICompatibleEmbedder(
            arg,
            base_url,
            api_key=api_key,
            timeout_s=timeout_s,
            max_retries=max_retries,
            batch_size=batch_size,
        )
    raise UsageError(f"unknown embedder spec {spec!r}; valid forms: {_VALID_SPECS}")


__all__ = ["build_embedder", "spec_of"]
