"""Right-click menu on the canvas: actions on the item under the mouse (or the selection)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QGraphicsSceneContextMenuEvent, QMenu

from app.canvas.delete import delete_selection
from app.canvas.items import ComponentItem, LinkItem
from models.document.words import link_text

if TYPE_CHECKING:
    from app.canvas.scene import DesignScene

MAX_LISTED = 30
"""Links listed under "Remove link" (a host of 470 VMs has 470)."""


def build_menu(scene: DesignScene, event: QGraphicsSceneContextMenuEvent) -> QMenu | None:
    """The menu for a right-click at ``event``'s position; None over empty canvas."""
    doc = scene.document
    name = doc.name_of
    hit = next((it for it in scene.items(event.scenePos())
                if isinstance(it, ComponentItem) or (isinstance(it, LinkItem) and not it.bundle)),
               None)
    if hit is None:
        return None
    menu = QMenu()
    if isinstance(hit, ComponentItem):
        if hit.cid not in doc.selection:
            doc.set_selection([hit.cid])
        linked = doc.links_of(hit.cid)
        select_linked = QAction(f"Select linked ({len(linked)})", menu)
        select_linked.triggered.connect(lambda: doc.set_selection(
            [hit.cid] + [lk.target if lk.source == hit.cid else lk.source for lk in linked]))
        menu.addAction(select_linked)
        unlink = menu.addMenu("Remove link")
        unlink.setEnabled(bool(linked))
        for lk in linked[:MAX_LISTED]:
            act = QAction(link_text(lk.kind, name(lk.source), name(lk.target), 2), unlink)
            act.triggered.connect(lambda _=False, link=lk: doc.remove_link(link))
            unlink.addAction(act)
        if len(linked) > MAX_LISTED:
            more = unlink.addAction(f"… and {len(linked) - MAX_LISTED:,} more")
            more.setEnabled(False)
        menu.addSeparator()
        delete = QAction(f"Delete {len(doc.selection)} component(s)", menu)
        delete.triggered.connect(lambda: delete_selection(scene))
        menu.addAction(delete)
    else:
        link = hit.link
        fact = link_text(link.kind, name(link.source), name(link.target), 2)
        remove = QAction(f"Remove link: {fact}", menu)
        remove.triggered.connect(lambda: doc.remove_link(link))
        menu.addAction(remove)
    return menu
