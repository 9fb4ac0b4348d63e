"""ONNX policies built without torch, with the ``onnx`` package's helper API: an
:class:`~trashcards.envs.policy.MLPPolicy`'s exact network (``Gemm``, ``Tanh``, …), so a
test can check that the ONNX file plays as the ``.npz`` does."""

from __future__ import annotations

import numpy as np
import pytest

from trashcards.envs.observation import OBSERVATION_SIZE
from trashcards.envs.policy import MLPPolicy

onnx = pytest.importorskip("onnx", reason="ONNX tests build models with the onnx package "
                                          "(the test extra)")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402


def mlp(seed: int, hidden: int = 8) -> MLPPolicy:
    rng = np.random.default_rng(seed)
    return MLPPolicy([(rng.normal(size=(OBSERVATION_SIZE, hidden)), rng.normal(size=hidden)),
                      (rng.normal(size=(hidden, 15)), rng.normal(size=15))])


def onnx_of(policy: MLPPolicy) -> bytes:
    """The serialized ONNX model of ``policy``'s network (observations ``obs`` in, logits
    out)."""
    nodes, weights = [], []
    x = "obs"
    last = len(policy.layers) - 1
    for k, (w, b) in enumerate(policy.layers):
        weights += [numpy_helper.from_array(w, f"w{k}"), numpy_helper.from_array(b, f"b{k}")]
        y = "logits" if k == last else f"h{k}"
        nodes.append(helper.make_node("Gemm", [x, f"w{k}", f"b{k}"],
                                      [y if k == last else f"z{k}"]))
        if k < last:
            nodes.append(helper.make_node("Tanh", [f"z{k}"], [y]))
        x = y
    graph = helper.make_graph(
        nodes, "policy",
        [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["M", OBSERVATION_SIZE])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["M", 15])],
        weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def linear(inputs: int, outputs: int) -> bytes:
    """A one-layer model of other widths than a policy's, for the refusals."""
    rng = np.random.default_rng(0)
    w = rng.normal(size=(inputs, outputs)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["obs", "w"], ["logits"])], "linear",
        [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["M", inputs])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["M", outputs])],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return bytes(model.SerializeToString())
