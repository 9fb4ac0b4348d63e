"""Policy files from anyone: ``.npz`` and ``.onnx`` play as their network says, and every
malformed one is refused in one line before anything is allocated (issue 33: a broken
zip, a deeply nested ``meta``, an array declared at 298 GiB)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from trashcards.envs.observation import OBSERVATION_SIZE
from trashcards.envs.policy import MLPPolicy
from trashcards.envs.policyfiles import (
    MAX_FILE_BYTES,
    OnnxPolicy,
    PolicyFileError,
    load_policy_file,
)

from .onnxmodels import linear, mlp, onnx_of


def npy(shape: tuple[int, ...], descr: str = "<f4", body: bytes = b"") -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(out, {"descr": descr, "fortran_order": False,
                                               "shape": shape})
    return out.getvalue() + body


def zipped(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def refused(path: Path, text: str) -> str:
    with pytest.raises(PolicyFileError) as caught:
        load_policy_file(path)
    message = str(caught.value)
    assert text in message, message
    assert "\n" not in message
    return message


def test_an_onnx_export_of_an_mlp_plays_exactly_as_its_npz(tmp_path: Path):
    policy = mlp(1, hidden=16)
    policy.save(tmp_path / "p.npz")
    (tmp_path / "p.onnx").write_bytes(onnx_of(policy))
    from_npz, npz_hash = load_policy_file(tmp_path / "p.npz")
    from_onnx, onnx_hash = load_policy_file(tmp_path / "p.onnx")
    rng = np.random.default_rng(0)
    obs = rng.random((2000, OBSERVATION_SIZE), dtype=np.float32)
    mask = (rng.random((2000, 15)) < 0.4).astype(np.int8)
    mask[:, 0] = 1
    assert np.array_equal(from_npz(obs, mask), from_onnx(obs, mask))
    assert len({npz_hash, onnx_hash}) == 2
    assert isinstance(from_onnx, OnnxPolicy)


def test_a_broken_npz_is_refused_in_one_line(tmp_path: Path):
    (tmp_path / "text.npz").write_text("nope", encoding="utf-8")
    refused(tmp_path / "text.npz", "not a policy saved by MLPPolicy.save")
    good = tmp_path / "good.npz"
    mlp(0).save(good)
    data = good.read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    refused(tmp_path / "cut.npz", "not a policy saved by MLPPolicy.save")
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0xFF
    (tmp_path / "flipped.npz").write_bytes(bytes(flipped))
    refused(tmp_path / "flipped.npz", "not a policy saved by MLPPolicy.save")


def test_a_deeply_nested_meta_is_refused_before_it_is_parsed(tmp_path: Path):
    policy = mlp(0)
    arrays = {f"{kind}{k}": a for k, (w, b) in enumerate(policy.layers)
              for kind, a in (("w", w), ("b", b))}
    np.savez_compressed(tmp_path / "deep.npz", **arrays,
                        meta=np.array("[" * 200_000 + "]" * 200_000))
    refused(tmp_path / "deep.npz", "nested 200000 deep")
    np.savez_compressed(tmp_path / "list.npz", **arrays, meta=np.array(json.dumps([1])))
    refused(tmp_path / "list.npz", "not a JSON object")


def test_an_array_declared_at_298_gib_is_refused_from_its_header(tmp_path: Path):
    huge = npy((400_000, 200_000))  # 298 GiB of float32, in a 128-byte header
    path = zipped(tmp_path / "huge.npz", {"w0.npy": huge, "b0.npy": npy((15,))})
    refused(path, "declares 80,000,000,000 values")


@pytest.mark.parametrize(("members", "text"), [
    ({"w0.npy": npy((2,), "|O")}, "not a matrix of floats"),
    ({"w0.npy": npy((2, 2), "<i8", bytes(32)), "b0.npy": npy((2,), body=bytes(8))},
     "not a matrix of floats"),
    ({"../evil.npy": npy((1,))}, "that no MLP policy has"),
    ({"w0.npy": b"\x93NUMPY\x09\x00"}, "version"),
    ({"w0.npy": npy((OBSERVATION_SIZE, 15), body=bytes(4 * OBSERVATION_SIZE * 15))},
     "lacks its bias"),
    ({f"w{k}.npy": npy((1, 1), body=bytes(4)) for k in range(40)}, "more than an MLP"),
])
def test_malformed_members_are_refused(tmp_path: Path, members: dict[str, bytes],
                                       text: str):
    refused(zipped(tmp_path / "bad.npz", members), text)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path):
    path = tmp_path / "big.npz"
    with open(path, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    refused(path, "more than the")


def test_a_zip_bomb_is_read_no_further_than_the_limit(tmp_path: Path):
    path = tmp_path / "bomb.npz"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive, \
            archive.open("w0.npy", "w") as member:
        for _ in range(80):
            member.write(bytes(1 << 20))
    assert path.stat().st_size < 1 << 20
    refused(path, "not a policy saved by MLPPolicy.save")


def test_onnx_models_of_the_wrong_shape_or_not_onnx_are_refused(tmp_path: Path):
    (tmp_path / "narrow.onnx").write_bytes(linear(100, 15))
    refused(tmp_path / "narrow.onnx", "takes one float32[M, 233] input")
    (tmp_path / "short.onnx").write_bytes(linear(OBSERVATION_SIZE, 14))
    refused(tmp_path / "short.onnx", "gave [2, 14]")
    (tmp_path / "junk.onnx").write_bytes(b"\x08\x07junk")
    refused(tmp_path / "junk.onnx", "not an ONNX model onnxruntime can run")
    refused(tmp_path / "missing.onnx", "no such policy file")


def test_the_mlp_loader_is_the_bounded_one(tmp_path: Path):
    path = zipped(tmp_path / "huge.npz", {"w0.npy": npy((400_000, 200_000)),
                                         "b0.npy": npy((15,))})
    with pytest.raises(PolicyFileError, match="declares"):
        MLPPolicy.load(path)
