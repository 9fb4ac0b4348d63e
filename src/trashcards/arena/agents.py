"""What the arena plays: an agent from its name, its ``module:function`` spec or its
policy file.

An **agent** is a level's or a bot's name (:data:`trashcards.bots.BOTS`, ``learned``
included), a batched policy ``(obs float32[M, 233], mask int8[M, 15]) -> int[M]`` (by
object, or as ``module:function``), an object with ``choose(view)``, or a policy file:
``.npz`` (:meth:`trashcards.envs.policy.MLPPolicy.save`) or ``.onnx`` (read within
bounds by :mod:`trashcards.envs.policyfiles`; the agent keeps the file's SHA-256).

A ``module:function`` spec is dotted names only (``pkg.mod:obj`` or ``pkg.mod:obj.attr``);
the current folder is importable for it, last on ``sys.path``, as ``python -m`` makes it
(first there), so ``trashcards arena mymod:act`` finds ``mymod.py`` in the folder it is
run from without shadowing an installed module of the same name.
"""

from __future__ import annotations

import importlib
import os
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, cast

from ..ai.levels import LEVELS
from ..bots import BOTS, make_bot
from ..envs import learned as _learned  # registers the bot ``learned`` (numpy only)
from ..envs.gymnasium import KERNEL_BOTS
from ..envs.policy import BatchedPolicy
from ..envs.policyfiles import ACCEPTED, PolicyFileError, load_policy_file
from ..errors import TrashError
from ..session import Chooser

__all__ = ["Agent", "AgentError", "PolicyFileError", "resolve_agent"]

#: ``module:function``: dotted Python names on both sides of one colon.
_NAME: Final = r"[A-Za-z_][A-Za-z0-9_]*"
SPEC: Final = re.compile(rf"{_NAME}(?:\.{_NAME})*:{_NAME}(?:\.{_NAME})*")
_FILE_LIKE: Final = re.compile(r".*\.[A-Za-z0-9]{1,8}")


class AgentError(TrashError):
    """A spec that names no agent the arena can play (one line)."""


@dataclass(frozen=True, slots=True)
class Agent:
    """What plays: a batched policy, or a bot factory (a fresh bot per table, from a
    seeded ``random.Random``) and, for a bot the kernel has, its name. ``sha256`` is the
    policy file's, for an agent read from one."""

    name: str
    kernel_bot: str | None = None
    bot: Callable[[random.Random], Chooser] | None = None
    policy: BatchedPolicy | None = None
    sha256: str | None = None


def resolve_agent(spec: str) -> Agent:
    """The agent named by ``spec``: a level, a bot, ``module:function`` or a policy file
    (``.npz``, ``.onnx``); an :class:`AgentError` (or a
    :class:`~trashcards.envs.policyfiles.PolicyFileError`) in one line otherwise."""
    key = spec.strip().lower()
    for level in LEVELS:
        if key == level.name:
            return _bot_agent(spec, level.bot)
    if key in BOTS:
        return _bot_agent(spec, key)
    path = Path(spec)
    if path.suffix.lower() in (".npz", ".onnx") or path.is_file():
        policy, digest = load_policy_file(path)
        return Agent(path.stem, policy=policy, sha256=digest)
    if SPEC.fullmatch(spec):
        return _imported(spec)
    if ":" in spec:
        raise AgentError(f"{spec[:80]!r} is not module:function (dotted Python names, "
                         "e.g. mypkg.policies:act)")
    if _FILE_LIKE.fullmatch(spec) and "/" not in spec and os.sep not in spec:
        raise AgentError(f"no such policy file: {spec[:80]} (the arena takes an {ACCEPTED})")
    raise AgentError(f"unknown agent {spec[:80]!r}: give a level ("
                     f"{', '.join(level.name for level in LEVELS)}), a bot ("
                     f"{', '.join(BOTS)}), module:function or a policy file (.npz, .onnx)")


def _imported(spec: str) -> Agent:
    module_name, _, attrs = spec.partition(":")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)  # as python -m does, but after the installed packages
    try:
        target: object = importlib.import_module(module_name)
        for attr in attrs.split("."):
            target = getattr(target, attr)
    except Exception as exc:  # the user's module may raise anything while it loads
        text = " ".join(str(exc).split())[:200]
        raise AgentError(f"cannot load {spec}: {type(exc).__name__}: {text}") from None
    if hasattr(target, "choose"):
        bot = cast(Chooser, target)
        return Agent(spec, bot=lambda _rng: bot)
    if not callable(target):
        raise AgentError(f"{spec} is neither a batched policy nor a bot")
    return Agent(spec, policy=target)


def _bot_agent(spec: str, bot: str) -> Agent:
    if bot in KERNEL_BOTS:  # on the kernel, or from its views against the expert
        return Agent(spec, kernel_bot=bot, bot=lambda rng: make_bot(bot, rng))
    if bot == "learned":
        return Agent(spec, policy=_learned.learned_policy())
    return Agent(spec, bot=lambda rng: make_bot(bot, rng))

