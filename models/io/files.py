"""Reading and writing designs by file extension: ``.json`` documents and ``.headroom`` files.

Writes are atomic (:mod:`models.io.atomic`): an interrupted write never leaves a half-written
design behind.
"""

from __future__ import annotations

from pathlib import Path

from models.core.platform import pin_work
from models.document.codec import design_to_json, load_json, refuse_invalid_text
from models.document.design import Design, DesignError, Issue
from models.io import store
from models.io.atomic import write_atomic
from models.io.paths import require_regular_file

EXTENSIONS = (".json", ".headroom")


def load_design(path: str | Path) -> Design:
    """Load a design from a ``.json`` or ``.headroom`` file, or raise :class:`DesignError`;
    a file whose VMs' CPU shares name no processor reads them as entered on their hosts
    (:func:`~models.core.platform.pin_work`), so that they read as before there."""
    p = require_regular_file(path)
    ext = p.suffix.lower()
    if ext == ".json":
        return pin_work(load_json(p))
    if ext == ".headroom":
        return pin_work(store.load(p))
    raise DesignError([Issue(str(p), f"unknown file type '{p.suffix}': expected "
                             + " or ".join(EXTENSIONS))])


def save_design(design: Design, path: str | Path) -> None:
    """Save ``design`` to ``path``; the extension picks the format."""
    p = Path(path)
    ext = p.suffix.lower()
    refuse_invalid_text(design)
    if ext == ".json":
        write_atomic(p, design_to_json(design).encode("utf-8"))
    elif ext == ".headroom":
        store.save(design, p)
    else:
        raise DesignError([Issue(str(p), f"unknown file type '{p.suffix}': expected "
                                 + " or ".join(EXTENSIONS))])
