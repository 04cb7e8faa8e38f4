"""Checks on a path a user names, before Headroom opens it for reading.

A named pipe (``headroom evaluate <(generate)``), a device or a socket would block a read
forever or yield endless bytes; a folder is not a file.  Each is refused with a message saying
what the path is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from models.document.design import DesignError, Issue

MAX_BYTES = 1 << 30
"""No design, export or store file Headroom reads is anywhere near 1 GiB."""


def require_regular_file(path: str | Path, what: str = "design file",
                         folder_ok: bool = False) -> Path:
    """``path`` as a Path when it names a regular file of sane size (or, with ``folder_ok``,
    a folder), else DesignError."""
    p = Path(path)
    try:
        mode = os.stat(p).st_mode
        size = os.stat(p).st_size
    except FileNotFoundError:
        raise DesignError([Issue(str(p), "no such file")]) from None
    except OSError as err:
        raise DesignError([Issue(str(p), f"cannot be read: {err.strerror or err}")]) from None
    if stat.S_ISDIR(mode) and folder_ok:
        return p
    if stat.S_ISDIR(mode):
        raise DesignError([Issue(str(p), f"is a folder, not a {what}")])
    if not stat.S_ISREG(mode):
        kind = ("a named pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device")
        raise DesignError([Issue(str(p), f"is {kind}, not a {what}: save it to a file first")])
    if size > MAX_BYTES:
        raise DesignError([Issue(str(p), f"is {size / 2**30:.1f} GiB, too large for a {what}")])
    return p
