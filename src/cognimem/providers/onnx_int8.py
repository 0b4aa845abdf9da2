"""Int8 matrix products for a model whose weights ship as int8.

The int8 models cognimem uses store each weight matrix as int8 with a float scale per
output column; the graph dequantizes it (``Cast`` to float, then ``Mul`` by the scale)
and feeds a float ``MatMul``. onnxruntime folds that dequantization when it loads the
model, so every run multiplies by float weights: ~42 MB for MiniLM-L6, more than this
class of machine's last-level cache, read from memory again on every query.

:func:`int8_matmuls` rewrites each such product as onnxruntime's
``DynamicQuantizeMatMul``: the weights stay int8 (a quarter of the bytes) and each run
quantizes its activations (uint8, one scale per tensor) for an integer product. On a
2-core EPYC, one query on one thread took 3.3 ms before and 0.9 ms after, a batch of
64 × 24 tokens 205 and 105 ms. The vectors change a little (cosine to the float
products ≥ 0.986 on LoCoMo questions and turns, median 0.995), so a model run this way
has a name of its own (:mod:`cognimem.providers.onnx_models`).

The rewrite is a pure function of the checked file's bytes and one choice: the same
file always gives the same vectors. The choice is how the weights are stored. 8-bit
dot-product instructions older than x86's VNNI add pairs of unsigned-by-signed products
in 16 bits, which can saturate (onnxruntime's quantizer offers 7-bit weights for such
CPUs). With VNNI (:func:`u8s8_exact`) the weights stay signed; without it they are
stored unsigned (plus 128, zero point 128), a product onnxruntime widens before adding.
Both give the same integers: on a VNNI machine the two graphs give identical vectors
(150 LoCoMo questions), the unsigned one ~1.6× slower.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cognimem.errors import UsageError

CPU_INFO = Path("/proc/cpuinfo")
VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})

IntegerForm = Literal["unsigned", "float"]
"""How :func:`integer_products` rewrites a quantized model's integer products."""

MICROSOFT_DOMAIN = "com.microsoft"
"""onnxruntime's contrib operators, where ``DynamicQuantizeMatMul`` lives."""


@functools.cache
def u8s8_exact() -> bool:
    """Whether this CPU's products of unsigned 8-bit activations by signed 8-bit weights
    are exact: x86 with VNNI (``avx512_vnni`` or ``avx_vnni`` in ``/proc/cpuinfo``).
    Anything else, or a CPU that cannot be read, counts as not."""
    return vnni_in(_read_cpu_info())


def vnni_in(cpu_info: str) -> bool:
    """Whether a ``/proc/cpuinfo`` text lists a VNNI flag."""
    for line in cpu_info.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "flags" and VNNI_FLAGS & set(value.split()):
            return True
    return False


def _read_cpu_info() -> str:
    try:
        return CPU_INFO.read_text(errors="replace")
    except OSError:  # not Linux: the unsigned weights are exact everywhere
        return ""


def int8_matmuls(data: bytes, *, signed_weights: bool) -> tuple[bytes, int]:
    """The model in ``data`` with every ``MatMul`` by a dequantized int8 weight turned
    into a ``DynamicQuantizeMatMul`` on the int8 weight, and how many were rewritten.
    With ``signed_weights=False`` each weight is stored as uint8 (plus 128) with a zero
    point of 128: the same products, for CPUs whose signed ones may saturate. No default:
    signed weights are right only where :func:`u8s8_exact` holds.

    A product qualifies when its second input is ``Mul(Cast(W), s)`` with ``W`` an int8
    initializer of shape ``(K, N)`` and ``s`` a float initializer of ``N`` scales (shape
    ``(N,)`` or ``(1, N)``) or of one. The ``Cast`` and ``Mul`` that fed only rewritten
    products are dropped, with the initializers nothing reads any more. Raises
    ``UsageError`` if ``data`` is not an ONNX model."""
    onnx, helper, numpy_helper = _onnx()
    model = _load(onnx, data)
    graph = model.graph
    initializers = {t.name: t for t in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}
    nodes: list[Any] = []
    added: list[Any] = []
    dequantizers: list[tuple[Any, Any]] = []
    for node in graph.node:
        dequantizer = _dequantizer(node, producer, initializers)
        if dequantizer is None:
            nodes.append(node)
            continue
        dequantizers.append(dequantizer)
        mul, cast = dequantizer
        quantized = cast.input[0]
        scales = numpy_helper.to_array(initializers[mul.input[1]])
        scales = scales.reshape(()) if scales.size == 1 else scales.reshape(-1)
        label = node.name or node.output[0]  # a node's name may be empty
        scale_name = f"{label}_b_scale"
        added.append(numpy_helper.from_array(scales, scale_name))
        inputs = [node.input[0], quantized, scale_name]
        if not signed_weights:
            unsigned = numpy_helper.to_array(initializers[quantized]).astype(np.int16) + 128
            inputs[1] = f"{label}_b_u8"
            added.append(numpy_helper.from_array(unsigned.astype(np.uint8), inputs[1]))
            inputs.append(f"{label}_b_zero_point")
            zero = np.full(scales.shape, 128, dtype=np.uint8)
            added.append(numpy_helper.from_array(zero, inputs[3]))
        nodes.append(
            helper.make_node(
                "DynamicQuantizeMatMul",
                inputs,
                list(node.output),
                name=f"{label}_int8",
                domain=MICROSOFT_DOMAIN,
            )
        )
    rewritten = len(dequantizers)
    if not rewritten:
        return data, 0
    _replace(graph, _without_unread(nodes, dequantizers, graph), added)
    if not any(op.domain == MICROSOFT_DOMAIN for op in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MICROSOFT_DOMAIN, 1))
    return model.SerializeToString(), rewritten


def integer_products(data: bytes, *, form: IntegerForm) -> tuple[bytes, int]:
    """The model in ``data`` (a model quantized as onnxruntime's ``quantize_dynamic``
    writes it) with every integer product in another form, and how many were changed.

    Such a model quantizes the activations of each run with one scale
    (``DynamicQuantizeLinear``) and multiplies them by int8 weights of one scale and
    zero point (``MatMulInteger``), then by both scales (``Cast``, ``Mul``). ``form``:

    - ``"unsigned"``: the weights and their zero point stored plus 128 as uint8. The
      same integers, for CPUs without VNNI, whose products of unsigned activations by
      signed weights may saturate (:func:`u8s8_exact`).
    - ``"float"``: each product a float ``MatMul`` of the activations themselves by
      the dequantized weights, ``(W - zero_point) * scale``. No activation is quantized,
      so a row's output depends on that row only; the reference the integer forms are
      measured against.

    Raises ``UsageError`` if ``data`` is not an ONNX model."""
    onnx, helper, numpy_helper = _onnx()
    model = _load(onnx, data)
    graph = model.graph
    initializers = {t.name: t for t in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}
    readers: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    replaced: dict[int, Any] = {}  # id of the node a new one stands in for -> the new one
    added: list[Any] = []
    for node in graph.node:
        product = _integer_product(node, producer, readers, initializers)
        if product is None:
            continue
        quantize, mul = product
        weights = numpy_helper.to_array(initializers[node.input[1]])
        zero = numpy_helper.to_array(initializers[node.input[3]])
        label = node.name or node.output[0]
        if form == "unsigned":
            replaced[id(node)] = _unsigned_product(
                helper, numpy_helper, node, weights, zero, label, added
            )
            continue
        scale_name = next(i for i in producer[mul.input[1]].input if i in initializers)
        scale = numpy_helper.to_array(initializers[scale_name])
        replaced[id(mul)] = _float_product(
            helper, numpy_helper, quantize, mul, (weights, zero, scale), label, added
        )
    changed = len(replaced)
    if not changed:
        return data, 0
    nodes = [replaced.get(id(node), node) for node in graph.node]
    _replace(graph, _read_only(nodes, graph), added)
    return model.SerializeToString(), changed


def _unsigned_product(
    helper: Any,
    numpy_helper: Any,
    node: Any,
    weights: np.ndarray,
    zero: np.ndarray,
    label: str,
    added: list[Any],
) -> Any:
    """The ``MatMulInteger`` standing in for ``node`` with its weights and zero point
    stored plus 128 as uint8 (the tensors appended to ``added``)."""
    for name, values in ((node.input[1], weights), (node.input[3], zero)):
        shifted = (values.astype(np.int16) + 128).astype(np.uint8)
        added.append(numpy_helper.from_array(shifted, f"{name}_u8"))
    inputs = [node.input[0], f"{node.input[1]}_u8", node.input[2], f"{node.input[3]}_u8"]
    return helper.make_node("MatMulInteger", inputs, list(node.output), name=f"{label}_u8")


def _float_product(
    helper: Any,
    numpy_helper: Any,
    quantize: Any,
    mul: Any,
    quantized: tuple[np.ndarray, np.ndarray, np.ndarray],
    label: str,
    added: list[Any],
) -> Any:
    """The float ``MatMul`` standing in for ``mul``: the activations ``quantize`` reads
    by the weights dequantized from ``quantized`` (weights, zero point, scale; the
    tensor appended to ``added``)."""
    weights, zero, scale = quantized
    dequantized = ((weights.astype(np.float32) - zero.astype(np.float32)) * scale).astype(
        np.float32
    )
    added.append(numpy_helper.from_array(dequantized, f"{label}_float_weight"))
    return helper.make_node(
        "MatMul",
        [quantize.input[0], f"{label}_float_weight"],
        list(mul.output),
        name=f"{label}_float",
    )


def _replace(graph: Any, nodes: list[Any], added: list[Any]) -> None:
    """Give ``graph`` the rewritten ``nodes`` and the ``added`` tensors, and drop every
    tensor no node or output reads any more."""
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(added)
    read = {out.name for out in graph.output}.union(*(_inputs(n) for n in graph.node))
    kept = [t for t in graph.initializer if t.name in read]
    del graph.initializer[:]
    graph.initializer.extend(kept)


def _integer_product(
    node: Any,
    producer: dict[str, Any],
    readers: dict[str, list[Any]],
    initializers: dict[str, Any],
) -> tuple[Any, Any] | None:
    """``(DynamicQuantizeLinear, Mul)`` around ``node`` if it is a ``MatMulInteger``
    of dynamically quantized activations by int8 weights (one scale, one zero point)
    whose output is cast to float and multiplied by both scales, else None."""
    from onnx import TensorProto

    if node.op_type != "MatMulInteger" or len(node.input) != 4:
        return None
    quantize = producer.get(node.input[0])
    if quantize is None or quantize.op_type != "DynamicQuantizeLinear":
        return None
    if list(quantize.output) != [node.input[0], quantize.output[1], node.input[2]]:
        return None
    weight, zero = (initializers.get(name) for name in node.input[1::2])
    if weight is None or zero is None or len(weight.dims) != 2 or math.prod(zero.dims) != 1:
        return None
    if weight.data_type != TensorProto.INT8 or zero.data_type != TensorProto.INT8:
        return None
    (cast, *others) = readers.get(node.output[0], [None])
    if others or cast is None or cast.op_type != "Cast":
        return None
    (mul, *others) = readers.get(cast.output[0], [None])
    if others or mul is None or mul.op_type != "Mul" or mul.input[0] != cast.output[0]:
        return None
    scales = producer.get(mul.input[1])  # Mul(activation scale, weight scale)
    if scales is None or scales.op_type != "Mul" or quantize.output[1] not in scales.input:
        return None
    other = [name for name in scales.input if name != quantize.output[1]]
    if len(other) != 1 or other[0] not in initializers:
        return None
    if math.prod(initializers[other[0]].dims) != 1:
        return None
    return quantize, mul


def _read_only(nodes: list[Any], graph: Any) -> list[Any]:
    """``nodes`` without those whose outputs nothing reads (the graph's outputs count),
    repeated until every node left is read."""
    while True:
        read = {out.name for out in graph.output}.union(*(_inputs(n) for n in nodes))
        kept = [n for n in nodes if any(out in read for out in n.output)]
        if len(kept) == len(nodes):
            return kept
        nodes = kept


def _onnx() -> tuple[Any, Any, Any]:
    """The ``onnx`` package and its ``helper`` and ``numpy_helper`` modules."""
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError as exc:
        raise UsageError(
            "rewriting a model's products needs the onnx package, a dependency of "
            "cognimem: pip install onnx"
        ) from exc
    return onnx, helper, numpy_helper


def _load(onnx: Any, data: bytes) -> Any:
    try:
        return onnx.load_from_string(data)
    except Exception as exc:  # protobuf's DecodeError and onnx's own
        raise UsageError(f"not an ONNX model ({exc})") from exc


def _dequantizer(
    node: Any, producer: dict[str, Any], initializers: dict[str, Any]
) -> tuple[Any, Any] | None:
    """The ``(Mul, Cast)`` nodes if ``node`` is a MatMul by ``Mul(Cast(weight), scale)``
    of an int8 weight and its scales, else None."""
    from onnx import TensorProto

    if node.op_type != "MatMul" or node.domain not in ("", "ai.onnx"):
        return None
    mul = producer.get(node.input[1])
    if mul is None or mul.op_type != "Mul" or mul.input[1] not in initializers:
        return None
    cast = producer.get(mul.input[0])
    if cast is None or cast.op_type != "Cast" or cast.input[0] not in initializers:
        return None
    weight = initializers[cast.input[0]]
    scale = initializers[mul.input[1]]
    if weight.data_type != TensorProto.INT8 or len(weight.dims) != 2:
        return None
    columns = weight.dims[1]
    per_column = list(scale.dims) in ([columns], [1, columns])
    if scale.data_type != TensorProto.FLOAT or not (per_column or math.prod(scale.dims) == 1):
        return None
    return mul, cast


def _without_unread(nodes: list[Any], dequantizers: list[tuple[Any, Any]], graph: Any) -> list[Any]:
    """``nodes`` without the dequantizing ``(Mul, Cast)`` pairs whose outputs nothing
    reads any more: a Mul another node still reads stays, and so does its Cast."""
    dequantizing = {id(node) for pair in dequantizers for node in pair}
    read = {out.name for out in graph.output}
    for node in nodes:
        if id(node) not in dequantizing:
            read.update(_inputs(node))
    muls = {id(mul): mul for mul, _ in dequantizers}
    for mul in muls.values():
        if mul.output[0] in read:
            read.update(mul.input)  # kept, and so its Cast is read
    dropped = {id(node) for pair in dequantizers for node in pair if node.output[0] not in read}
    return [node for node in nodes if id(node) not in dropped]


def _inputs(node: Any) -> set[str]:
    """The names ``node`` reads, its subgraphs' included (an If or Loop body may read
    the outer graph's values)."""
    from onnx import helper

    names = set(node.input)
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        for sub in value if isinstance(value, list) else [value]:
            if hasattr(sub, "node"):
                for inner in sub.node:
                    names |= _inputs(inner)
    return names


__all__ = [
    "MICROSOFT_DOMAIN",
    "IntegerForm",
    "int8_matmuls",
    "integer_products",
    "u8s8_exact",
    "vnni_in",
]
