"""Copy, cut and paste of components (with the links among them) through the clipboard.

The clipboard carries a small ``headroom-design`` document, so a selection pasted into a text
editor is readable JSON and JSON copied from a design file pastes back.  What the canvas
shows is copied (a refresh's hosts too); while it shows a refresh nothing is cut or pasted
(:mod:`app.canvas.readonly`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication

from app.canvas.drop import unique_name
from app.canvas.readonly import read_only
from models.document import numbers as fmt
from models.document.codec import design_to_dict, loads
from models.document.design import Design, DesignError
from models.io.arrange import free_spot, top_level_rects
from models.io.placement import holdings

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

MIME = "application/x-headroom-components"
OFFSET = 30.0


def place_pasted(design: Design, part: Design) -> None:
    """Shift the pasted components together to the free spot nearest where they were asked
    to go, so that they overlap nothing already on the canvas."""
    held = holdings(part)
    _, rects = top_level_rects(part, held)
    if not len(rects):
        return
    left, top = rects[:, 0].min(), rects[:, 1].min()
    right, bottom = rects[:, 2].max(), rects[:, 3].max()
    centre = ((left + right) / 2, (top + bottom) / 2)
    x, y = free_spot(design, (right - left, bottom - top), centre)
    dx, dy = x - centre[0], y - centre[1]
    for comp in part.components:
        comp.x += dx
        comp.y += dy


def copy_selection(doc: DesignDocument) -> int:
    """Put the selected components and the links among them on the clipboard."""
    ids = set(doc.selection)
    if not ids:
        return 0
    shown = doc.shown_design()
    part = Design(name=shown.name, components=[c for c in shown.components if c.id in ids],
                  links=[lk for lk in shown.links if lk.source in ids and lk.target in ids])
    text = json.dumps(design_to_dict(part), indent=2)
    mime = QMimeData()
    mime.setData(MIME, text.encode("utf-8"))
    mime.setText(text)
    QGuiApplication.clipboard().setMimeData(mime)
    return len(part.components)


def cut_selection(doc: DesignDocument) -> int:
    """Copy and delete what is selected; returns how many components went (none while the
    canvas shows a refresh)."""
    if read_only(doc):
        return 0
    n = copy_selection(doc)
    if n:
        doc.remove_components(list(doc.selection))
    return n


def paste(doc: DesignDocument) -> str:
    """Paste the clipboard's components with fresh ids, offset from the originals and moved
    on to free canvas if they would overlap anything; returns a status message."""
    why = read_only(doc)
    if why:
        return f"Not pasted: {why}"
    mime = QGuiApplication.clipboard().mimeData()
    if mime is None:
        return "Nothing to paste"
    if mime.hasFormat(MIME):
        raw = bytes(mime.data(MIME).data()).decode("utf-8", errors="replace")
    else:
        raw = mime.text()
    if '"headroom-design"' not in raw:
        return "The clipboard holds no Headroom components"
    try:
        part = loads(raw)  # repairs text that is not valid Unicode, names what it refuses
    except DesignError as err:
        return f"Could not paste: {err.issues[0]}"
    if not part.components:
        return "Nothing to paste"
    renamed: dict[str, str] = {}
    taken = {c.id for c in doc.design.components}
    names = {c.name for c in doc.design.components}
    for comp in part.components:
        new = doc.new_id(comp.kind, taken)
        taken.add(new)
        renamed[comp.id] = new
        comp.id = new
        comp.name = unique_name(names, comp.name)  # a pasted copy of db-01 is db-01 2
        names.add(comp.name)
        comp.x += OFFSET
        comp.y += OFFSET
    for lk in part.links:
        lk.source, lk.target = renamed[lk.source], renamed[lk.target]
    place_pasted(doc.design, part)
    try:
        doc.add_components(part.components, part.links, f"Paste {len(part.components)}")
    except DesignError as err:
        return f"Could not paste: {err}"
    doc.set_selection([c.id for c in part.components])
    repaired = (f"; {len(part.repairs)} text(s) that were not valid Unicode repaired"
                if part.repairs else "")
    return f"Pasted {fmt.count(len(part.components), 'component')}{repaired}"
