"""Right-click menu on the canvas: actions on the item under the mouse (or the selection).
While the canvas shows a refresh (:mod:`app.canvas.readonly`) the edits are off and the
status bar says why."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QPointF
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QGraphicsSceneContextMenuEvent, QMenu

from app.canvas.delete import delete_selection
from app.canvas.items import ComponentItem
from app.canvas.protocol import Canvas, Interaction
from models.document.words import link_text

MAX_LISTED = 30
"""Links listed under "Remove link" (a host of 470 VMs has 470)."""

Extra = Callable[[ComponentItem, QMenu], None]
"""Adds the window's own actions for a component to its menu (Refresh this cluster...)."""


def build_menu(canvas: Canvas, pos: QPointF, extras: Sequence[Extra] = ()) -> QMenu | None:
    """The menu for a right-click at ``pos`` (scene units); None over empty canvas.
    ``extras`` add their actions for the component under the mouse."""
    doc = canvas.document
    name = doc.name_of
    hit = canvas.pick(pos)
    if hit is None:
        return None
    why = canvas.read_only()
    if why:
        canvas.tell(f"Delete and Remove link are off: {why}")
    menu = QMenu()
    if isinstance(hit, ComponentItem):
        cid = hit.cid
        if cid not in doc.selection:
            doc.set_selection([cid])
        linked = canvas.links_of(cid)
        select_linked = QAction(f"Select linked ({len(linked)})", menu)
        select_linked.triggered.connect(lambda: doc.set_selection(
            [cid] + [lk.target if lk.source == cid else lk.source for lk in linked]))
        menu.addAction(select_linked)
        unlink = menu.addMenu("Remove link")
        unlink.setEnabled(bool(linked) and not why)
        for lk in linked[:MAX_LISTED]:
            act = QAction(link_text(lk.kind, name(lk.source), name(lk.target), 2), unlink)
            act.triggered.connect(lambda _=False, link=lk: doc.remove_link(link))
            unlink.addAction(act)
        if len(linked) > MAX_LISTED:
            more = unlink.addAction(f"… and {len(linked) - MAX_LISTED:,} more")
            more.setEnabled(False)
        for extra in extras:
            extra(hit, menu)
        menu.addSeparator()
        delete = QAction(f"Delete {len(doc.selection)} component(s)", menu)
        delete.triggered.connect(lambda: delete_selection(canvas))
        delete.setEnabled(not why)
        menu.addAction(delete)
    else:
        link = hit.link
        fact = link_text(link.kind, name(link.source), name(link.target), 2)
        remove = QAction(f"Remove link: {fact}", menu)
        remove.triggered.connect(lambda: doc.remove_link(link))
        remove.setEnabled(not why)
        menu.addAction(remove)
    return menu


class ContextMenu(Interaction):
    """Shows :func:`build_menu` at a right-click and runs the action picked."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.extras: list[Extra] = []
        """Actions the window adds for a component (:data:`Extra`)."""

    def context_menu(self, event: QGraphicsSceneContextMenuEvent) -> bool:
        menu = build_menu(self.canvas, event.scenePos(), self.extras)
        if menu is None:
            return False
        menu.exec(event.screenPos())
        return True
