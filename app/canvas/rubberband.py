"""Rubber-band selection: drag on empty canvas to select every item the band touches
(Ctrl+drag adds to the selection; Qt's built-in rubber band does the work).  A host card or
a site's box is taken only when the band holds the whole of it (the scene checks with
:func:`band_rect`): a band round a few VMs does not take their host."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView


def enable_rubber_band(view: QGraphicsView) -> None:
    view.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
    view.setRubberBandSelectionMode(Qt.ItemSelectionMode.IntersectsItemShape)


def band_rect(scene: QGraphicsScene) -> QRectF | None:
    """The scene area of a rubber band being dragged in one of ``scene``'s views, if any."""
    for view in scene.views():
        rect = view.rubberBandRect()
        if not rect.isNull():
            return view.mapToScene(rect).boundingRect()
    return None
