"""Atomic file writes: a temporary file in the same folder, flushed and fsynced, renamed over
the target, then the folder fsynced, so readers see the old file or the new one, never half."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def mode_for(path: Path) -> int:
    """The permissions a file written to ``path`` gets: an existing file's own, a new file
    the usual 0666 minus the umask (a temporary file is created 0600, which would make a
    saved design or report unreadable to the user's group)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half;
    the file keeps its permissions (a new one gets :func:`mode_for`'s)."""
    folder = path.resolve().parent
    mode = mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(folder)


def fsync_dir(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
