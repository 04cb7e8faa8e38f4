"""Every import format, in one list: the command line, the File menu, the start page, the
import dialog and the Calibration dock read it and name no format themselves.

A format is one module that declares one :class:`~models.io.importers.importer.Importer`
(``IMPORTER``) and one line in :data:`IMPORTERS`.  The order is the order of menus and lists,
and of detection: sniffs are tried first to last, so a format whose sniff is loose (an Aria
view is any csv with a name column) goes after those whose files carry a signature.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from models.document.design import DesignError, Issue
from models.io.importers import aria, esxtop, liveoptics, rvtools, vcenter
from models.io.importers.importer import Importer, Product

IMPORTERS: list[Importer] = [
    rvtools.IMPORTER,
    vcenter.IMPORTER,
    liveoptics.IMPORTER,
    esxtop.IMPORTER,
    aria.IMPORTER,
]


def importers(produces: Product | None = None) -> list[Importer]:
    """The importers (those that make ``produces``), in the registry's order."""
    return [i for i in IMPORTERS if produces is None or produces in i.produces]


def get(importer_id: str) -> Importer:
    """The importer called ``importer_id``."""
    for i in IMPORTERS:
        if i.id == importer_id:
            return i
    raise DesignError([Issue("import", f"no import format '{importer_id}' (known: "
                             + ", ".join(i.id for i in IMPORTERS) + ")")])


def recognise(path: str | Path, produces: Product | None = None) -> Importer | None:
    """The first importer whose sniff says ``path`` is one of its own, or None."""
    p = Path(path)
    return next((i for i in importers(produces) if i.recognises(p)), None)


def detect(path: str | Path, produces: Product | None = None) -> Importer | None:
    """The importer that reads ``path``: the first whose sniff recognises it, else the first
    that claims its suffix (or a folder), so that its reader says what is wrong; None when no
    importer reads such a file."""
    p = Path(path)
    return recognise(p, produces) or next((i for i in importers(produces) if i.claims(p)), None)


def listed(words: Sequence[str], last: str = "or") -> str:
    """``a, b or c``."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
