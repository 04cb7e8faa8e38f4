"""Reading and writing designs by file extension: ``.json`` documents and ``.headroom`` files.

Writes are atomic: a temporary file in the same folder, flushed and fsynced, then renamed over
the target, so an interrupted write never leaves a half-written design behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from models import store
from models.design import Design, DesignError, Issue, design_to_json, load_json

EXTENSIONS = (".json", ".headroom")


def load_design(path: str | Path) -> Design:
    """Load a design from a ``.json`` or ``.headroom`` file, or raise :class:`DesignError`."""
    p = Path(path)
    if not p.exists():
        raise DesignError([Issue(str(p), "no such file")])
    if p.is_dir():
        raise DesignError([Issue(str(p), "is a folder, not a design file")])
    ext = p.suffix.lower()
    if ext == ".json":
        return load_json(p)
    if ext == ".headroom":
        return store.load(p)
    raise DesignError([Issue(str(p), f"unknown file type '{p.suffix}': expected "
                             + " or ".join(EXTENSIONS))])


def save_design(design: Design, path: str | Path) -> None:
    """Save ``design`` to ``path``; the extension picks the format."""
    p = Path(path)
    ext = p.suffix.lower()
    if ext == ".json":
        write_atomic(p, design_to_json(design).encode("utf-8"))
    elif ext == ".headroom":
        store.save(design, p)
    else:
        raise DesignError([Issue(str(p), f"unknown file type '{p.suffix}': expected "
                                 + " or ".join(EXTENSIONS))])


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half."""
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
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
