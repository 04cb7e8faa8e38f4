"""Level of detail: which VMs on host cards get an item of their own (a card's few NICs
always have theirs).

Far out (below :data:`~app.canvas.cards.FAR_ZOOM`) each group of storage arrays is one item
(:mod:`app.canvas.storage`) and a card draws its NICs itself.  A VM on a host card is an item only
while it can be read (the view at :data:`DETAIL_ZOOM` or
closer, its slot near the visible part of the canvas) or while it is selected (at most
:data:`MAX_SELECTED` of them); otherwise its host card draws it.  The view installs it and
reports what it shows (:meth:`Detail.set_view`) after each zoom, scroll or resize; the scene
tells it when the selection or what holds what changed.  Items come and go to match, so a
50,000-VM estate holds a few hundred VM items at most, however it is viewed.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF

from app.canvas.cards import DETAIL_ZOOM, FAR_ZOOM
from app.canvas.protocol import Canvas, Interaction

MAX_SELECTED = 200
"""Selected VMs shown as items wherever they are; beyond this their cards count them."""
MARGIN = 0.15
"""Items are made this fraction of the view beyond its edges (a short scroll finds them)."""


class Detail(Interaction):
    """The docked VM items the scene shows, kept in step with the view and the selection."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.rect: QRectF | None = None
        self.zoom = 1.0
        self.shown: set[str] = set()
        """The docked VMs given an item here (those whose item is gone are forgotten)."""

    def set_view(self, rect: QRectF, zoom: float) -> None:
        """The view now shows ``rect`` (scene units) at ``zoom``."""
        self.rect, self.zoom = QRectF(rect), zoom
        self.canvas.set_far(zoom < FAR_ZOOM)
        self.refresh()

    def wanted(self) -> set[str]:
        sc = self.canvas
        out: set[str] = set()
        if self.rect is not None and self.zoom >= DETAIL_ZOOM:
            m = max(self.rect.width(), self.rect.height()) * MARGIN
            r = self.rect.adjusted(-m, -m, m, m)
            for it in sc.hosts_in(r):
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
        sc = self.canvas
        self.shown = {c for c in self.shown if (it := sc.item(c)) is not None and it.docked}
        want = self.wanted()
        for cid in self.shown - want:
            sc.drop_child(cid)
        for cid in want - self.shown:
            sc.make_child(cid)
        self.shown = {cid for cid in want if sc.item(cid) is not None}

    def shown_changed(self) -> None:
        self.refresh()
