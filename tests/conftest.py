"""Suite-wide fixtures: tests never touch the user's settings or files."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from models.document.design import Component, Design
from models.examples import bundled as examples
from models.io.importers import ImportReport, Progress, registry
from models.io.importers.importer import Importer, Option, Options

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


FAKE_SIGNATURE = b"FAKE-INVENTORY 1\n"


def _read_fake(source: str, options: Options,
               progress: Progress | None) -> tuple[Design, ImportReport]:
    design = Design(name=f"Fake estate from {Path(source).name}")
    design.components.append(Component("h-fake", "host", "fake-01"))
    return design, ImportReport(f"Fake {Path(source).name}", counts={"hosts": 1})


FAKE = Importer(
    id="fake", name="Fake", title="Fake inventory", description="a fake inventory (*.fake)",
    source=Option("source", "path", help="the .fake file"), command="import-fake",
    help="import a fake inventory as a design", menu_text="&Fake Inventory",
    tip="Import a fake inventory", patterns=("*.fake",), suffixes=(".fake",),
    sniff=lambda path: path.read_bytes()[:len(FAKE_SIGNATURE)] == FAKE_SIGNATURE,
    read_design=_read_fake,
)
"""An import format of the tests' own: one entry, as a new format adds one."""


@pytest.fixture
def fake_importer(monkeypatch: pytest.MonkeyPatch) -> Importer:
    """:data:`FAKE` listed in the importer registry for the length of one test."""
    monkeypatch.setattr(registry, "IMPORTERS", [*registry.IMPORTERS, FAKE])
    return FAKE
