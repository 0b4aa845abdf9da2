"""The rewrite of float products by dequantized int8 weights into int8 products, on
small graphs built here and run by onnxruntime."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from cognimem.errors import UsageError
from cognimem.providers.onnx_int8 import MICROSOFT_DOMAIN, int8_matmuls, u8s8_exact, vnni_in

RNG = np.random.default_rng(7)
WEIGHT = RNG.integers(-127, 128, size=(16, 8), dtype=np.int8)
SCALES = RNG.uniform(0.001, 0.01, size=(1, 8)).astype(np.float32)


def _graph(*, also_read: bool = False, weight: Any = WEIGHT, scales: Any = SCALES) -> bytes:
    """``y = x @ (cast(weight) * scales)``, the pattern MiniLM's file uses; with
    ``also_read`` the dequantized weight is also an output of its own."""
    nodes = [
        helper.make_node("Cast", ["w_q"], ["w_f"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["w_f", "w_scale"], ["w"]),
        helper.make_node("MatMul", ["x", "w"], ["y"], name="product"),
    ]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    if also_read:
        nodes.append(helper.make_node("Identity", ["w"], ["w_out"]))
        outputs.append(helper.make_tensor_value_info("w_out", TensorProto.FLOAT, None))
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, weight.shape[0]])],
        outputs,
        [numpy_helper.from_array(weight, "w_q"), numpy_helper.from_array(scales, "w_scale")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString()


def _run(data: bytes, x: Any) -> Any:
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    return session.run(["y"], {"x": x})[0]


def test_the_product_runs_as_int8_on_the_int8_weight() -> None:
    data, rewritten = int8_matmuls(_graph(), signed_weights=True)
    assert rewritten == 1
    model = onnx.load_from_string(data)
    assert [(n.op_type, n.domain) for n in model.graph.node] == [
        ("DynamicQuantizeMatMul", MICROSOFT_DOMAIN)
    ]
    node = model.graph.node[0]
    assert node.input[:2] == ["x", "w_q"]  # the int8 weight itself, not a float copy
    names = {t.name for t in model.graph.initializer}
    assert "w_q" in names
    assert "w_scale" not in names  # nothing reads the old scale any more
    assert any(op.domain == MICROSOFT_DOMAIN for op in model.opset_import)


def test_int8_products_stay_close_to_the_float_products() -> None:
    # in the form this CPU is given: signed weights only where their products are exact
    # (without VNNI, 8-bit products of unsigned by signed values can saturate)
    x = RNG.normal(size=(5, 16)).astype(np.float32)
    exact = x @ (WEIGHT.astype(np.float32) * SCALES)
    float_run = _run(_graph(), x)
    int8_run = _run(int8_matmuls(_graph(), signed_weights=u8s8_exact())[0], x)
    assert np.allclose(float_run, exact, atol=1e-5)
    # the activations are quantized to 8 bits: close, not equal
    assert not np.array_equal(int8_run, float_run)
    assert np.abs(int8_run - exact).max() < 0.02 * np.abs(exact).max()


def test_unsigned_weights_hold_the_same_products() -> None:
    # for CPUs without VNNI, whose unsigned-by-signed 8-bit products may saturate
    data, rewritten = int8_matmuls(_graph(), signed_weights=False)
    assert rewritten == 1
    model = onnx.load_from_string(data)
    node = model.graph.node[0]
    arrays = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    assert len(node.input) == 4
    assert arrays[node.input[1]].dtype == np.uint8
    assert np.array_equal(arrays[node.input[1]].astype(np.int16) - 128, WEIGHT)
    assert set(arrays[node.input[3]].tolist()) == {128}
    assert "w_q" not in arrays  # the signed copy is read by nothing any more
    x = RNG.normal(size=(5, 16)).astype(np.float32)
    exact = x @ (WEIGHT.astype(np.float32) * SCALES)
    unsigned = _run(data, x)
    assert np.abs(unsigned - exact).max() < 0.02 * np.abs(exact).max()
    if u8s8_exact():  # this CPU's signed products are exact too: the same numbers
        assert np.array_equal(unsigned, _run(int8_matmuls(_graph(), signed_weights=True)[0], x))


@pytest.mark.parametrize(
    ("cpu_info", "vnni"),
    [
        ("processor\t: 0\nflags\t\t: fpu sse avx2 avx512f avx512_vnni\n", True),
        ("flags\t: fpu avx2 avx_vnni\n", True),
        ("flags\t: fpu sse avx2 avx512f avx512bw\n", False),  # AVX-512 without VNNI
        ("model name\t: avx512_vnni in a name is no flag\nflags\t: avx2\n", False),
        ("", False),  # not Linux, or unreadable
    ],
)
def test_vnni_is_read_from_the_cpu_flags(cpu_info: str, vnni: bool) -> None:
    assert vnni_in(cpu_info) is vnni


def test_one_scale_for_all_columns_is_kept_as_a_scalar() -> None:
    scale = np.array([[0.004]], dtype=np.float32)
    data, rewritten = int8_matmuls(_graph(scales=scale), signed_weights=u8s8_exact())
    assert rewritten == 1
    x = RNG.normal(size=(3, 16)).astype(np.float32)
    exact = x @ (WEIGHT.astype(np.float32) * 0.004)
    assert np.abs(_run(data, x) - exact).max() < 0.02 * np.abs(exact).max()


def test_a_dequantized_weight_read_elsewhere_keeps_its_cast_and_mul() -> None:
    data, rewritten = int8_matmuls(_graph(also_read=True), signed_weights=True)
    assert rewritten == 1
    ops = [n.op_type for n in onnx.load_from_string(data).graph.node]
    assert ops == ["Cast", "Mul", "DynamicQuantizeMatMul", "Identity"]
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    _, weight = session.run(None, {"x": np.ones((1, 16), np.float32)})
    assert np.allclose(weight, WEIGHT.astype(np.float32) * SCALES)


@pytest.mark.parametrize(
    ("weight", "scales"),
    [
        (WEIGHT.astype(np.float32), SCALES),  # a float weight: nothing to keep as int8
        (WEIGHT, np.ones((1, 3), np.float32)),  # scales for neither columns nor all
        (WEIGHT, SCALES.astype(np.float64)),  # not a float32 scale
    ],
)
def test_other_products_are_left_as_they_are(weight: Any, scales: Any) -> None:
    original = _graph(weight=weight, scales=scales)
    assert int8_matmuls(original, signed_weights=True) == (original, 0)


def test_bytes_that_are_not_a_model_are_a_usage_error() -> None:
    with pytest.raises(UsageError, match="not an ONNX model"):
        int8_matmuls(b"\xff\xfe not protobuf", signed_weights=True)
