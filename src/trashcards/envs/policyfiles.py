"""Policy files from elsewhere, read within bounds: ``.npz`` (:meth:`MLPPolicy.save
<trashcards.envs.policy.MLPPolicy.save>`) and ``.onnx`` (any network exported to ONNX,
run by ``onnxruntime``), each with the SHA-256 of its bytes.

A policy file is whatever a stranger submits, so nothing in it is trusted:

* the file's size is checked before it is read (at most :data:`MAX_FILE_BYTES`);
* an ``.npz`` is opened as the zip archive it is: only the members ``w0`` … ``w{k}``,
  ``b0`` … ``b{k}`` and ``meta`` (``.npy`` each) are accepted, each one read at most
  :data:`MAX_FILE_BYTES` bytes whatever its header claims; each array's header (dtype and
  shape) is checked before its data is read, so no declared shape allocates anything;
  floats only (no pickles, no objects); the ``meta`` is JSON text read by
  :func:`trashcards.boundedjson.parse` (size and nesting bounded);
* an ``.onnx`` model is loaded by ``onnxruntime`` from the bytes read, one thread, and
  must map ``float32[M, 233]`` observations to ``[M, 15]`` logits (one input, one output;
  checked on a batch before it plays);
* any other file is refused, naming the files that are accepted.

Every refusal is one :class:`PolicyFileError` (a :class:`~trashcards.errors.TrashError`)
whose text is one line.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from .actions import NUM_ACTIONS
from .npz import (
    MAX_FILE_BYTES,
    MAX_LAYERS,
    MAX_WEIGHTS,
    PolicyFileError,
    file_sha256,
    one_line,
    parse_npz,
    read_bounded,
    read_npz,
)
from .observation import OBSERVATION_SIZE
from .policy import MLPPolicy, masked_argmax

__all__ = ["ACCEPTED", "MAX_FILE_BYTES", "MAX_LAYERS", "MAX_WEIGHTS", "OnnxPolicy",
           "PolicyFileError", "file_sha256", "load_npz", "load_policy_file", "read_npz"]

#: What the arena takes as a policy file, for the error that refuses anything else.
ACCEPTED: Final = (".npz (saved by trashcards.envs.policy.MLPPolicy.save) or .onnx "
                   f"(float32[M, {OBSERVATION_SIZE}] observations in, [M, {NUM_ACTIONS}] "
                   "logits out)")

def load_npz(path: str | Path, sample: bool = False, seed: int = 0,
             data: bytes | None = None) -> MLPPolicy:
    """An :class:`MLPPolicy` from an ``.npz`` file (see :func:`read_npz`), or from its
    ``data`` already read."""
    path = Path(path)
    layers, meta = parse_npz(read_bounded(path) if data is None else data, path)
    try:
        return MLPPolicy(layers, sample=sample, seed=seed, meta=meta)
    except ValueError as exc:
        raise PolicyFileError(f"{path}: {one_line(exc)}") from None


class OnnxPolicy:
    """An ONNX model as a batched policy: its most likely legal action. The model maps
    ``float32[M, 233]`` observations (its one input) to ``[M, 15]`` logits (its first
    output); ``onnxruntime`` runs it on one thread. ``sha256`` is that of its bytes."""

    def __init__(self, model: bytes, name: str = "onnx") -> None:
        try:
            import onnxruntime
        except ImportError as exc:
            raise PolicyFileError(f"{name}: ONNX policies need onnxruntime (the envs extra: "
                                  f"pip install 'trashcards[envs]'; {exc})") from None
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 4  # its warnings would break the one-line errors
        try:
            self.session = onnxruntime.InferenceSession(model, options,
                                                        providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime's errors have no common base to name
            raise PolicyFileError(f"{name}: not an ONNX model onnxruntime can run "
                                  f"({one_line(exc)})") from None
        inputs = self.session.get_inputs()
        if len(inputs) != 1 or len(inputs[0].shape) != 2 \
                or inputs[0].shape[1] not in (OBSERVATION_SIZE, None) \
                or isinstance(inputs[0].shape[1], str) or inputs[0].type != "tensor(float)":
            shown = [(i.name, i.type, i.shape) for i in inputs]
            raise PolicyFileError(f"{name}: an ONNX policy takes one float32[M, "
                                  f"{OBSERVATION_SIZE}] input; this one takes {shown}")
        self.input = inputs[0].name
        self.name = name
        self.sha256 = hashlib.sha256(model).hexdigest()
        probe = self.logits(np.zeros((2, OBSERVATION_SIZE), dtype=np.float32))
        if probe.shape != (2, NUM_ACTIONS):
            raise PolicyFileError(f"{name}: an ONNX policy gives [M, {NUM_ACTIONS}] logits; "
                                  f"this one gave {list(probe.shape)} for M = 2")

    def logits(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        try:
            out = self.session.run(None, {self.input: np.ascontiguousarray(obs, np.float32)})
        except Exception as exc:  # onnxruntime's errors have no common base to name
            raise PolicyFileError(f"{self.name}: the model failed to run "
                                  f"({one_line(exc)})") from None
        logits: npt.NDArray[np.float32] = np.asarray(out[0], dtype=np.float32)
        return logits

    def __call__(self, obs: npt.NDArray[np.float32],
                 mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        return masked_argmax(self.logits(obs), mask)


def load_policy_file(path: str | Path) -> tuple[MLPPolicy | OnnxPolicy, str]:
    """The batched policy in ``path`` (``.npz`` or ``.onnx``) and the SHA-256 of its bytes;
    :class:`PolicyFileError` for any other file, or one that breaks the bounds."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".npz", ".onnx"):
        raise PolicyFileError(f"{path}: not a policy file the arena takes: give an {ACCEPTED}")
    if not path.is_file():
        raise PolicyFileError(f"no such policy file: {path}")
    if suffix == ".npz":
        data = read_bounded(path)
        return load_npz(path, data=data), hashlib.sha256(data).hexdigest()
    model = OnnxPolicy(read_bounded(path), name=str(path))
    return model, model.sha256
