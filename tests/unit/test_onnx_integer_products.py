"""The rewrites of a model quantized as onnxruntime's ``quantize_dynamic`` writes it
(the cross-encoder's file): its integer products on unsigned weights, or as float
products by the dequantized weights. On small graphs built here, run by onnxruntime."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cognimem.errors import UsageError
from cognimem.providers.onnx_int8 import integer_products

RNG = np.random.default_rng(11)
WEIGHT = RNG.integers(-127, 128, size=(32, 8), dtype=np.int8)
WEIGHT_SCALE = np.float32(0.004)


def _graph(weight: Any = WEIGHT, *, products: int = 1) -> bytes:
    """``y<i> = x @ ((weight - 0) * scale)`` as ``quantize_dynamic`` writes it: the
    activations quantized once (``DynamicQuantizeLinear``) and read by ``products``
    ``MatMulInteger`` nodes, each cast to float and multiplied by both scales."""
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["x_q", "x_scale", "x_zero"])]
    outputs = []
    for i in range(products):
        nodes += [
            helper.make_node("Mul", ["x_scale", "w_scale"], [f"scales{i}"]),
            helper.make_node(
                "MatMulInteger", ["x_q", "w_q", "x_zero", "w_zero"], [f"p{i}"], name=f"mm{i}"
            ),
            helper.make_node("Cast", [f"p{i}"], [f"p{i}_f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [f"p{i}_f", f"scales{i}"], [f"y{i}"]),
        ]
        outputs.append(helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, None))
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, weight.shape[0]])],
        outputs,
        [
            numpy_helper.from_array(weight, "w_q"),
            numpy_helper.from_array(np.array(0, dtype=weight.dtype), "w_zero"),
            numpy_helper.from_array(np.array(WEIGHT_SCALE), "w_scale"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString()


def _run(data: bytes, x: Any) -> Any:
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    return session.run(["y0"], {"x": x})[0]


def _integer_reference(x: Any, weight: Any) -> Any:
    """What the graph computes, in exact integers: ``DynamicQuantizeLinear`` as the
    ONNX standard defines it, then the product of the quantized values."""
    low, high = min(0.0, float(x.min())), max(0.0, float(x.max()))
    scale = np.float32((high - low) / 255)
    zero = np.clip(np.round(-low / scale), 0, 255)
    quantized = np.clip(np.round(x / scale) + zero, 0, 255)
    products = (quantized.astype(np.int64) - int(zero)) @ weight.astype(np.int64)
    return products.astype(np.float32) * (scale * WEIGHT_SCALE)


def test_unsigned_weights_give_the_exact_integer_products() -> None:
    # large activations by large weights: two adjacent products add up past 16 bits,
    # where a CPU without VNNI may saturate unsigned-by-signed 8-bit products
    weight = np.full((32, 8), 127, dtype=np.int8)
    weight[::2, ::3] = -127
    x = RNG.uniform(0.5, 1.0, size=(4, 32)).astype(np.float32)
    data, changed = integer_products(_graph(weight), form="unsigned")
    assert changed == 1
    arrays = {
        t.name: numpy_helper.to_array(t) for t in onnx.load_from_string(data).graph.initializer
    }
    (node,) = [n for n in onnx.load_from_string(data).graph.node if n.op_type == "MatMulInteger"]
    assert arrays[node.input[1]].dtype == np.uint8
    assert np.array_equal(arrays[node.input[1]].astype(np.int16) - 128, weight)
    assert arrays[node.input[3]].tolist() == 128
    assert "w_q" not in arrays  # the signed copy is read by nothing any more
    assert np.allclose(_run(data, x), _integer_reference(x, weight), rtol=1e-6, atol=0)


def test_float_products_multiply_by_the_dequantized_weights() -> None:
    x = RNG.normal(size=(5, 32)).astype(np.float32)
    data, changed = integer_products(_graph(products=2), form="float")
    assert changed == 2
    model = onnx.load_from_string(data)
    # no activation is quantized any more: the quantizer, casts and scales are gone
    assert [n.op_type for n in model.graph.node] == ["MatMul", "MatMul"]
    assert {t.name for t in model.graph.initializer}.isdisjoint({"w_q", "w_zero", "w_scale"})
    exact = x @ (WEIGHT.astype(np.float32) * WEIGHT_SCALE)
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    for y in session.run(None, {"x": x}):
        assert np.allclose(y, exact, rtol=1e-5, atol=1e-6)
    # the exact integer form is close to it, never equal (activations quantized to 8
    # bits); the signed weights' products saturate on a CPU without VNNI (here: 1.08
    # off in 3.68)
    int8 = _run(integer_products(_graph(), form="unsigned")[0], x)
    assert not np.array_equal(int8, exact)
    assert np.abs(int8 - exact).max() < 0.02 * np.abs(exact).max()


def test_a_row_of_the_float_form_depends_on_that_row_only() -> None:
    x = RNG.normal(size=(3, 32)).astype(np.float32)
    beside = np.vstack([x, 50 * RNG.normal(size=(1, 32)).astype(np.float32)])
    floats = integer_products(_graph(), form="float")[0]
    assert np.array_equal(_run(floats, beside)[:3], _run(floats, x))
    # the integer form quantizes a run's activations with one scale: a large row
    # beside the others changes theirs
    assert not np.array_equal(_run(_graph(), beside)[:3], _run(_graph(), x))


@pytest.mark.parametrize("form", ["unsigned", "float"])
def test_other_products_are_left_as_they_are(form: Any) -> None:
    unsigned_already = _graph((WEIGHT.astype(np.int16) + 128).astype(np.uint8))
    assert integer_products(unsigned_already, form=form) == (unsigned_already, 0)


def test_bytes_that_are_not_a_model_are_a_usage_error() -> None:
    with pytest.raises(UsageError, match="not an ONNX model"):
        integer_products(b"\xff\xfe not protobuf", form="float")
