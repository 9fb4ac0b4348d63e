"""Fixtures of the environment tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def sb3_logs_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stable-Baselines3 makes a log folder for every model it trains, in the system's
    temporary folder unless ``SB3_LOGDIR`` names one: the tests (and the examples they
    run) leave theirs in their own ``tmp_path``."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3-logs"))
