"""Rubber-band selection: drag on empty canvas to select every item the band touches
(Ctrl+drag adds to the selection; Qt's built-in rubber band does the work)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsView


def enable_rubber_band(view: QGraphicsView) -> None:
    view.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
    view.setRubberBandSelectionMode(Qt.ItemSelectionMode.IntersectsItemShape)
