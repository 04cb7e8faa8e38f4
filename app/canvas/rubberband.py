"""Rubber-band selection: drag on empty canvas to select every item the band touches
(Ctrl+drag adds to the selection; Qt's built-in rubber band does the work).  A host card or
a site's box is taken only when the band holds the whole of it: a band round a few VMs does
not take their host."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsView

from app.canvas.cards import ContainerItem, HostItem
from app.canvas.protocol import Canvas, Interaction


class RubberBand(Interaction):
    """The band of ``view`` over ``canvas``; it trims what Qt selected before the document
    hears of it."""

    def __init__(self, canvas: Canvas, view: QGraphicsView):
        self.canvas = canvas
        self.view = view
        view.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        view.setRubberBandSelectionMode(Qt.ItemSelectionMode.IntersectsItemShape)

    def band(self) -> QRectF | None:
        """The scene area of the band being dragged, if any."""
        rect = self.view.rubberBandRect()
        return None if rect.isNull() else self.view.mapToScene(rect).boundingRect()

    def selecting(self) -> None:
        band = self.band()
        if band is None:
            return
        for it in self.canvas.selected_components():
            if isinstance(it, (HostItem, ContainerItem)) and not band.contains(it.scene_body()):
                it.setSelected(False)
