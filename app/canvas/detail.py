"""Level of detail: which VMs on host cards get an item of their own (a card's few NICs
always have theirs).

A VM on a host card is an item only while it can be read (the view at :data:`DETAIL_ZOOM` or
closer, its slot near the visible part of the canvas) or while it is selected (at most
:data:`MAX_SELECTED` of them); otherwise its host card draws it.  The view reports what it
shows (:meth:`Detail.set_view`) after each zoom, scroll or resize; items come and go to
match, so a 50,000-VM estate holds a few hundred VM items at most, however it is viewed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt

from app.canvas.cards import DETAIL_ZOOM, HostItem

if TYPE_CHECKING:
    from app.canvas.scene import DesignScene

MAX_SELECTED = 200
"""Selected VMs shown as items wherever they are; beyond this their cards count them."""
MARGIN = 0.15
"""Items are made this fraction of the view beyond its edges (a short scroll finds them)."""


class Detail:
    """The docked items the scene shows, kept in step with the view."""

    def __init__(self, scene: DesignScene):
        self.scene = scene
        self.rect: QRectF | None = None
        self.zoom = 1.0
        self.shown: set[str] = set()
        self.lit: set[str] = set()
        """Selected components whose own lines are drawn because they are selected."""

    def set_view(self, rect: QRectF, zoom: float) -> None:
        """The view now shows ``rect`` (scene units) at ``zoom``."""
        self.rect, self.zoom = QRectF(rect), zoom
        self.refresh()

    def wanted(self) -> set[str]:
        sc = self.scene
        out: set[str] = set()
        if self.rect is not None and self.zoom >= DETAIL_ZOOM:
            m = max(self.rect.width(), self.rect.height()) * MARGIN
            r = self.rect.adjusted(-m, -m, m, m)
            for it in sc.items(r, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
                if isinstance(it, HostItem):
                    rel = r.translated(-it.pos())
                    rows = it.card.vm_range(rel.left(), rel.top(), rel.right(), rel.bottom())
                    if rows is not None:
                        cols = it.card.vm_cols
                        out.update(it.vm_ids[rows.start * cols:rows.stop * cols])
        docked = sc.holdings.host_of  # VMs and NICs (a NIC always has its item)
        out.update([c for c in sc.document.selection if c in docked
                    and ((item := sc.item(c)) is None or item.kind == "vm")][:MAX_SELECTED])
        return out

    def refresh(self) -> None:
        """Make and drop docked items to match the view and the selection."""
        want = self.wanted()
        for cid in self.shown - want:
            self.scene.drop_child(cid)
        for cid in want - self.shown:
            self.scene.make_child(cid)
        self.shown = {cid for cid in want if self.scene.item(cid) is not None}

    def after_selection(self) -> None:
        """Selected VMs get items and their own lines (in a large estate, selected hosts and
        arrays get their storage lines); cards count the rest."""
        self.refresh()
        sc, lines = self.scene, self.scene.lines
        doc = sc.document
        lit = {c for c in doc.selection if (it := sc.item(c)) is not None
               and (it.docked or (lines.sparse and it.kind in ("host", "storage_array")))}
        before = len(lines.links)
        for cid in self.lit - lit:
            for lk in sc.links_of(cid):
                if not lines.wants_line(lk):
                    lines.hide(lk)
        for cid in lit - self.lit:
            for lk in sc.links_of(cid):
                lines.show(lk)
        self.lit = lit
        if len(lines.links) != before and doc.prediction is not None:
            lines.apply(doc.prediction)
        counts: dict[str, int] = {}
        host_of = sc.holdings.host_of
        for cid in doc.selection:
            hid = host_of.get(cid)
            if hid is not None and (comp := doc.component(cid)) is not None \
                    and comp.kind == "vm":
                counts[hid] = counts.get(hid, 0) + 1
        for hid, host in sc.host_items().items():
            host.set_selected_vms(counts.get(hid, 0))

    def forget(self, cid: str) -> None:
        self.shown.discard(cid)

    def clear(self) -> None:
        self.shown.clear()
        self.lit.clear()
