"""Suite-wide fixtures: tests never touch the user's settings or files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from models import examples
from models.design import Design

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
