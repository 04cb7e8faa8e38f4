"""The Unplaced area: a labelled frame around the VMs that run on no host.

An import puts a VM whose host and cluster are both missing from the inventory on no host; the
auto-layout gathers such VMs right of the sites.  The frame follows them (recomputed on the
next event-loop turn after links or items change) and disappears when none is left.  A VM
leaves it by being dragged onto a host (the canvas links it) or by the Calibration view's
Place Unplaced VMs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsSimpleTextItem

if TYPE_CHECKING:
    from app.canvas.protocol import Canvas

MARGIN = 24.0


class UnplacedArea:
    """The frame, its label and when to recompute them, for one scene (``parent`` owns the
    timer: the scene itself)."""

    def __init__(self, canvas: Canvas, parent: QObject) -> None:
        self.canvas = canvas
        self.frame: QGraphicsRectItem | None = None
        self.label: QGraphicsSimpleTextItem | None = None
        self.count = 0
        self._timer = QTimer(parent)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)

    def reset(self) -> None:
        """The scene was cleared (its items are gone): start again."""
        self.frame = self.label = None
        self.schedule()

    def schedule(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def refresh(self) -> None:
        links = self.canvas.document.shown_design().links
        # a VM on a card runs on its host: the others have items of their own
        loose = [it for it in self.canvas.component_items() if it.kind == "vm" and not it.docked]
        placed = {lk.source for lk in links if lk.kind == "runs_on"} if loose else ()
        items = [it for it in loose if it.cid not in placed]
        self.count = len(items)
        if not items:
            if self.frame is not None:
                self.canvas.removeItem(self.frame)
            self.frame = self.label = None
            return
        rect = QRectF(items[0].sceneBoundingRect())
        for it in items[1:]:
            rect = rect.united(it.sceneBoundingRect())
        rect.adjust(-MARGIN, -MARGIN * 2, MARGIN, MARGIN)
        if self.frame is None:
            self.frame = QGraphicsRectItem()
            pen = QPen(QColor("#b9770e"), 2, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            self.frame.setPen(pen)
            self.frame.setBrush(QColor(185, 119, 14, 18))
            self.frame.setZValue(-10)
            self.frame.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.label = QGraphicsSimpleTextItem(self.frame)
            self.label.setBrush(QColor("#b9770e"))
            # a readable size on screen at any zoom, like every name on the canvas
            self.label.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            font = QFont()
            font.setPixelSize(12)
            font.setBold(True)
            self.label.setFont(font)
            self.canvas.addItem(self.frame)
        assert self.label is not None
        self.frame.setRect(rect)
        self.frame.setToolTip("VMs on no host: neither their host nor their cluster was in the"
                              " inventory. They count in demand and hosts needed; drag one onto"
                              " a host to place it, or use Calibration > Place Unplaced VMs.")
        self.label.setText(f"Unplaced: {len(items)} VM{'s' if len(items) != 1 else ''}"
                           " (drag onto a host to place)")
        self.label.setPos(rect.left() + 8, rect.top() + 6)
