"""Suite-wide fixtures: tests never touch the user's settings or files."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from models.document.design import Design
from models.examples import bundled as examples

# The suite is deterministic (same examples every run, in CI and locally); explore new ones
# with HYPOTHESIS_PROFILE=explore.
settings.register_profile("default", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    yield


@pytest.fixture
def example() -> Design:
    return examples.load(examples.DEFAULT_EXAMPLE)
