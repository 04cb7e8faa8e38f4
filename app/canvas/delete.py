"""Delete: remove the selected components (with their links) and selected links, as one
undo step (the Delete key, Edit > Delete and the context menu); refused while the canvas
shows a refresh (:mod:`app.canvas.readonly`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.canvas.protocol import Canvas


def delete_selection(canvas: Canvas) -> int:
    """Delete what is selected; returns how many components and links went."""
    why = canvas.read_only()
    if why:
        canvas.tell(f"Not deleted: {why}")
        return 0
    doc = canvas.document
    ids = list(doc.selection)
    links = [lk for lk in canvas.selected_links()
             if lk.source not in ids and lk.target not in ids]
    doc.remove_components(ids, links)
    return len(ids) + len(links)
