"""Policy files and agent specs from anyone (issue 33): mutants of a real ``.npz`` and a
real ``.onnx`` policy load as a policy or are refused with one
:class:`~trashcards.envs.policyfiles.PolicyFileError` line, never another exception; any
text that is not ``module:function`` (nor a level, a bot or a policy file) is refused
with one :class:`~trashcards.arena.AgentError` line.

CI tries 2,000 mutants of each file and 500 spec texts; ``--fuzz-scale 10`` ten times as
many."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from fuzzkit import tally
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trashcards.arena import AgentError, resolve_agent
from trashcards.arena.agents import SPEC
from trashcards.envs.observation import OBSERVATION_SIZE
from trashcards.envs.policy import MLPPolicy
from trashcards.envs.policyfiles import PolicyFileError, load_policy_file

SEED = 33


def npz_bytes(tmp: Path) -> bytes:
    rng = np.random.default_rng(0)
    policy = MLPPolicy([(rng.normal(size=(OBSERVATION_SIZE, 4)), np.zeros(4)),
                        (rng.normal(size=(4, 15)), np.zeros(15))], meta={"seed": [0, {"a": 1}]})
    policy.save(tmp / "seed.npz")
    return (tmp / "seed.npz").read_bytes()


def onnx_bytes() -> bytes:
    onnx = pytest.importorskip("onnx", reason="the ONNX fuzz builds its model with onnx")
    helper, numpy_helper = onnx.helper, onnx.numpy_helper
    w = np.random.default_rng(0).normal(size=(OBSERVATION_SIZE, 15)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["obs", "w"], ["z"]), helper.make_node("Tanh", ["z"],
                                                                          ["logits"])],
        "policy", [helper.make_tensor_value_info("obs", onnx.TensorProto.FLOAT,
                                                 ["M", OBSERVATION_SIZE])],
        [helper.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, ["M", 15])],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four edits: flipped bytes, a cut, a repeated or inserted block, or an
    "interesting" value (0, 0xFF, 0x7F, 0x80) written over a length field's bytes."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(5)
        at = rng.randrange(len(out)) if out else 0
        if kind == 0 and out:
            out[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            del out[at:]
        elif kind == 2:
            size = rng.randint(1, 64)
            out[at:at] = out[at: at + size] * rng.randint(1, 8)
        elif kind == 3:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif out:
            for k in range(rng.randint(1, 4)):
                if at + k < len(out):
                    out[at + k] = rng.choice((0, 0xFF, 0x7F, 0x80))
    return bytes(out)


@pytest.mark.parametrize("kind", ["npz", "onnx"])
def test_mutated_policy_files_load_or_are_refused_in_one_line(kind: str, tmp_path: Path,
                                                               fuzz_scale: float) -> None:
    seed = npz_bytes(tmp_path) if kind == "npz" else onnx_bytes()
    count = int(2000 * fuzz_scale)
    result = tally(f"policy files (mutants of an .{kind})")
    rng = random.Random(f"{SEED}/{kind}")
    path = tmp_path / f"mutant.{kind}"
    for index in range(count):
        path.write_bytes(mutate(seed, rng))
        try:
            policy, _digest = load_policy_file(path)
        except PolicyFileError as exc:
            if "\n" in str(exc):
                result.fail(f"{kind} mutant {index}", f"two lines: {exc!s:.200}")
            else:
                result.ok("refused")
            continue
        except Exception as exc:
            result.fail(f"{kind} mutant {index}", f"{type(exc).__name__}: {exc!s:.200}")
            continue
        obs = np.zeros((3, OBSERVATION_SIZE), dtype=np.float32)
        mask = np.ones((3, 15), dtype=np.int8)
        try:
            acts = np.asarray(policy(obs, mask))
        except PolicyFileError:
            result.ok("refused when run")
            continue
        except Exception as exc:
            result.fail(f"{kind} mutant {index} (run)", f"{type(exc).__name__}: {exc!s:.200}")
            continue
        result.ok("plays" if acts.shape == (3,) else "odd shape")
    assert not result.failures, result.failures
    assert result.outcomes["refused"] > 0


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from("ab_.:/\\-0 ~$é\x00") | st.characters(), max_size=40))
def test_text_that_is_no_agent_is_refused_in_one_line(text: str) -> None:
    if SPEC.fullmatch(text):  # a real import: not for a fuzzer to try
        return
    result = tally("agent specs (hypothesis)")
    try:
        resolve_agent(text)
    except (AgentError, PolicyFileError) as exc:
        message = str(exc)
    else:
        result.ok("an agent")
        return
    result.ok("refused")
    assert "\n" not in message, message
