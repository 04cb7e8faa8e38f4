"""Delete: remove the selected components (with their links) and selected links, as one
undo step."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.canvas.scene import DesignScene


def delete_selection(scene: DesignScene) -> int:
    """Delete what is selected; returns how many components and links went."""
    doc = scene.document
    ids = list(doc.selection)
    links = [lk for lk in scene.selected_links()
             if lk.source not in ids and lk.target not in ids]
    doc.remove_components(ids, links)
    return len(ids) + len(links)
