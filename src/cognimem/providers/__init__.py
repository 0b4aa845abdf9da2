"""Providers: embedders, cross-encoders and token counting.

Concrete embedders are picked from configuration strings by :func:`build_embedder`;
:class:`HashingEmbedder` and :class:`FakeEmbeddingServer` are the shipped fakes for tests.
Heavy dependencies (onnxruntime, tokenizers, rank files) load on first use.
"""

from cognimem.providers.cross_encoder import CrossEncoder, OnnxCrossEncoder
from cognimem.providers.embeddings import (
    CachedEmbedder,
    Embedder,
    EmbeddingCacheBackend,
    EmbedKind,
    l2_normalize,
    text_hash,
)
from cognimem.providers.factory import build_embedder
from cognimem.providers.fakes import FakeEmbeddingServer, HashingEmbedder
from cognimem.providers.onnx import OnnxEmbedder, OnnxMiniLMEmbedder
from cognimem.providers.openai import OpenAICompatibleEmbedder
from cognimem.providers.tokens import count_tokens, truncate_to_tokens

__all__ = [
    "CachedEmbedder",
    "CrossEncoder",
    "EmbedKind",
    "Embedder",
    "EmbeddingCacheBackend",
    "FakeEmbeddingServer",
    "HashingEmbedder",
    "OnnxCrossEncoder",
    "OnnxEmbedder",
    "OnnxMiniLMEmbedder",
    "OpenAICompatibleEmbedder",
    "build_embedder",
    "count_tokens",
    "l2_normalize",
    "text_hash",
    "truncate_to_tokens",
]
