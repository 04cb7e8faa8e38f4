from __future__ import annotations

from pathlib import Path

import pytest

from models.io import atomic as fsutil


def test_write_atomic_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    folder = tmp_path / "designs"
    folder.mkdir()
    target = folder / "d.json"
    target.write_bytes(b"old")
    fsutil.write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in folder.iterdir()] == ["d.json"]


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "designs"
    folder.mkdir()
    target = folder / "d.json"
    target.write_bytes(b"old")

    def boom(*_a: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(fsutil.os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        fsutil.write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in folder.iterdir()] == ["d.json"]
