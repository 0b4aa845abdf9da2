"""An int8 copy of a scope's matrix that picks the rows an exact scan can return.

The exact scan of a 10k-row scope reads its 14.6 MiB float32 matrix once per query,
at memory speed: ~1.35 ms of a read's CPU (``benchmarks/results/read_profile.md``).
This copy holds the same rows in int8 (each column scaled to its largest value, 3.7
MiB), multiplied by onnxruntime's integer product (``MatMulInteger`` with the matrix
packed once, when the copy is made): ~0.4 ms cold. The integer scores are not the
scores a search returns; each row's error is bounded:

    q · x_i = w · X_i + q · r_i,     w = q ⊙ s (the query times the column scales)
    w = s_q · Q + e                  (Q: the query in 7 bits, s_q its scale)
    |q · x_i − s_q (Q · X_i)| ≤ |e| |X_i| + |q| |r_i|

(``r_i``: the row's rounding residual; ``X_i`` its int8 values), plus a margin for the
float32 product's own rounding, far above its worst case. A row whose upper bound is
below the ``limit``-th highest lower bound cannot be among the ``limit`` highest
scores; the others (a few more than ``limit``) are then scored exactly in float32.

Exactly as the whole product scores them, to the bit: OpenBLAS's product scores rows
in groups (of 4 here) and the last ``rows % 4`` on their own, and a row's float32 score
can differ in its last bit between those paths. So the candidates are gathered and
padded to a whole number of groups (of 16), the matrix's last partial group kept last,
and a copy is made only after checking on the matrix itself that this gives the whole
product's bits (:func:`build` returns None otherwise: the scan stays the whole
product).

The query's 7 bits (and the zero point 64) keep every unsigned byte ≤ 127, so no
pair of byte products can saturate a 16-bit sum in any of onnxruntime's kernels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cognimem.blas import single_threaded

# the fewest rows a copy is made for: below, the float32 product is already cheap
MIN_ROWS = 4096
# the most: a larger scope is searched through its index (``ann.py``) by default, and
# its copy would cost 2 × 384 bytes a row
MAX_ROWS = 20_000
# rows scored together by the float32 product, tried in turn (OpenBLAS's Haswell
# kernels score 4 rows at a time, each alike whatever its place among the 4)
GROUPS = (16, 8, 4)
# the float32 product's rounding, as a share of |q| |x_i| (its worst case at 384
# dimensions is ~2.3e-5)
_MARGIN = 1e-4
_ZERO = 64  # the query's zero point: its bytes are 1..127
_QMAX = 63
_CHECKS = 3
_BLOCK = 4096  # queries the group scoring is checked with when a copy is made


@dataclass(frozen=True)
class Quantized:
    """The int8 copy of a matrix's first ``rows`` rows, packed in an onnxruntime
    session, with what each row's error bound needs."""

    rows: int
    group: int  # rows scored together (:func:`exact`)
    scales: np.ndarray  # float64 (dim,): column j's int8 step (a float32 value)
    int_norms: np.ndarray  # float32 (rows,): |X_i|
    residuals: np.ndarray  # float32 (rows,): |r_i| + the float32 product's margin
    session: Any  # onnxruntime.InferenceSession
    nbytes: int

    def scores(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """(estimate, bound) of every row's score: each exact float32 score lies within
        ``bound`` of ``estimate``; None for a query that is not finite."""
        if not np.isfinite(query).all():
            return None
        w = query.astype(np.float64) * self.scales
        high, high_step = _bytes(w)
        rest = w - (high - _ZERO) * high_step
        low, low_step = _bytes(rest)
        error = float(np.linalg.norm(rest - (low - _ZERO) * low_step))
        products = self.session.run(None, {"q": np.stack([high, low]).astype(np.uint8)})[0]
        estimate = products[0].astype(np.float32) * np.float32(high_step)
        estimate += products[1].astype(np.float32) * np.float32(low_step)
        norm = float(np.linalg.norm(query.astype(np.float64)))
        bound = self.int_norms * np.float32(error) + self.residuals * np.float32(norm)
        # the float32 arithmetic of the estimate and the bound themselves
        bound += np.float32(1e-6 * (norm + 1))
        return estimate, bound


def _bytes(w: np.ndarray) -> tuple[np.ndarray, float]:
    """``w`` as bytes 1..127 (zero point 64) and their step."""
    top = float(np.abs(w).max())
    step = top / _QMAX if top > 0 else 1.0
    return np.rint(w / step) + _ZERO, step


def candidates(
    q: Quantized, estimate: np.ndarray, bound: np.ndarray, idx: np.ndarray, limit: int
) -> np.ndarray:
    """The rows of ``idx`` (ascending) that can be among the ``limit`` highest scores
    of the rows of ``idx``: every row past the copy's, and each copied row whose upper
    bound reaches the ``limit``-th highest lower bound of the copied rows."""
    cut = int(np.searchsorted(idx, q.rows))
    inside = idx[:cut]
    if inside.size <= limit:
        return idx
    every = inside.size == q.rows
    est = estimate if every else estimate[inside]
    b = bound if every else bound[inside]
    low = est - b
    # the limit-th highest lower bound, sorted out of those at or above the least of
    # ``limit`` block maxima (``limit`` different rows: at most the limit-th highest)
    blocks = low.size // limit
    if blocks >= 8:
        low = low[low >= low[: limit * blocks].reshape(limit, blocks).max(axis=1).min()]
    floor = np.partition(low, low.size - limit)[low.size - limit]
    kept = inside[est + b >= floor]
    return kept if cut == idx.size else np.concatenate([kept, idx[cut:]])


def exact(matrix: np.ndarray, rows: np.ndarray, vector: np.ndarray, group: int) -> np.ndarray:
    """The float32 scores of ``rows`` (ascending) of ``matrix``, bit for bit those of
    ``matrix @ vector`` (when :func:`build` found ``group`` right): the rows before the
    matrix's last partial group of ``group`` rows are gathered and padded to a whole
    number of groups, that last partial group (when a row of it is asked) after them."""
    n = len(matrix)
    body = n - n % group
    cut = int(np.searchsorted(rows, body))
    inner = rows[:cut]
    pad = -cut % group
    parts = [inner, np.full(pad, inner[-1] if cut else 0, dtype=inner.dtype)]
    if cut < rows.size:
        parts.append(np.arange(body, n, dtype=inner.dtype))
    scores: np.ndarray = matrix[np.concatenate(parts)] @ vector
    if cut == rows.size:
        return scores[:cut]
    return np.concatenate([scores[:cut], scores[cut + pad + (rows[cut:] - body)]])


def build(matrix: np.ndarray) -> Quantized | None:
    """The int8 copy of ``matrix`` (float32, rows × dim); None when it has fewer than
    ``MIN_ROWS`` rows or when scoring rows in their groups does not give the whole
    product's bits on it."""
    n = len(matrix)
    if not MIN_ROWS <= n <= MAX_ROWS or matrix.ndim != 2 or not np.isfinite(matrix).all():
        return None
    group = next((g for g in GROUPS if _grouped_is_exact(matrix, g)), None)
    if group is None:
        return None
    top = np.abs(matrix).max(axis=0).astype(np.float64)
    steps = np.where(top > 0, top / 127, 1.0).astype(np.float32)
    ints = np.empty(matrix.shape, dtype=np.int8)
    int_norms = np.empty(n, dtype=np.float32)
    residuals = np.empty(n, dtype=np.float32)
    for start in range(0, n, _BLOCK):  # a block at a time (float32: its rounding, ~1e-7
        rows = matrix[start : start + _BLOCK]  # of a row's norm, is far below the margin)
        block = np.rint(rows / steps)
        np.clip(block, -127, 127, out=block)
        ints[start : start + _BLOCK] = block
        int_norms[start : start + _BLOCK] = np.linalg.norm(block, axis=1)
        residual = np.linalg.norm(rows - block * steps, axis=1)
        residuals[start : start + _BLOCK] = residual + _MARGIN * np.linalg.norm(rows, axis=1)
    packed = np.ascontiguousarray(ints.T)
    return Quantized(
        rows=n,
        group=group,
        scales=steps.astype(np.float64),  # the very steps the residuals are of
        int_norms=int_norms,
        residuals=residuals,
        session=_session(packed),
        # the packed copy and onnxruntime's own packing of it
        nbytes=2 * int(packed.nbytes) + int_norms.nbytes + residuals.nbytes,
    )


def _grouped_is_exact(matrix: np.ndarray, group: int) -> bool:
    """Whether :func:`exact` gives ``matrix @ vector``'s bits on ``matrix``, with one
    BLAS thread as every search runs (several threads split the rows otherwise)."""
    rng = np.random.default_rng(0)
    n = len(matrix)
    with single_threaded():
        for _ in range(_CHECKS):
            vector = np.asarray(rng.standard_normal((matrix.shape[1],)), dtype=np.float32)
            rows = np.unique(np.concatenate([rng.integers(0, n, 64), [n - 1]]))
            if not np.array_equal(exact(matrix, rows, vector, group), (matrix @ vector)[rows]):
                return False
    return True


def _session(packed: np.ndarray) -> Any:
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    dim, n = packed.shape
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["q", "x", "zero"], ["y"])],
        "scan",
        [helper.make_tensor_value_info("q", TensorProto.UINT8, [2, dim])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, [2, n])],
        initializer=[
            numpy_helper.from_array(packed, "x"),
            numpy_helper.from_array(np.array(_ZERO, dtype=np.uint8), "zero"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
