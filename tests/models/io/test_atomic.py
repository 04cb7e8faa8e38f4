from __future__ import annotations

import os
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


def test_write_atomic_gives_usual_permissions_and_keeps_existing_ones(tmp_path: Path) -> None:
    """A temporary file is created 0600; the written file must not stay that way."""
    mask = os.umask(0o022)
    os.umask(mask)
    new = tmp_path / "new.bin"
    fsutil.write_atomic(new, b"x")
    assert new.stat().st_mode & 0o777 == 0o666 & ~mask
    kept = tmp_path / "kept.bin"
    kept.write_bytes(b"old")
    kept.chmod(0o600)
    fsutil.write_atomic(kept, b"new")
    assert kept.stat().st_mode & 0o777 == 0o600 and kept.read_bytes() == b"new"
