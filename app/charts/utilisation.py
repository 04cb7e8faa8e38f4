"""Utilisation per resource: the most utilised resources as bars coloured by level.

The bars are one item updated with ``setOpts``; the axis is re-laid out only when the names
of the resources shown change, and the x range moves in steps of 25 %.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.charts.plots import label_axis, plot_widget
from app.support import theme
from models.core.prediction import bottleneck_text, resource_words
from models.report.wording import plain

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

def level_colour(util: float) -> str:
    """The theme's utilisation colour (:func:`app.support.theme.util_colour`) as a pyqtgraph
    colour."""
    return theme.util_colour(util).name()


class UtilisationChart(QWidget):
    """Horizontal bars of the most-utilised resources, coloured by level."""

    MAX_BARS = 12

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setAccessibleName("Utilisation chart")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.plots = plot_widget()
        self.plot = self.plots.addPlot()
        self.plot.invertY(True)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        label_axis(self.plot, "bottom", "utilisation", "fraction")
        self.plot.getAxis("bottom").setTicks(
            [[(t / 100.0, f"{t}") for t in range(0, 201, 25)]])
        self.bars = pg.BarGraphItem(x0=[], y=[], height=0.6, width=[], brushes=[])
        self.plot.addItem(self.bars)
        self.full_line = pg.InfiniteLine(
            1.0, angle=90, pen=pg.mkPen(theme.UTIL_COLOURS[theme.Load.HOT], width=1))
        text = theme.tones().chart_text
        self.ceiling_line = pg.InfiniteLine(
            theme.UTIL_HOT, angle=90, pen=pg.mkPen(text, style=Qt.PenStyle.DashLine),
            label="CPU ceiling", labelOpts={"position": 0.95, "color": text})
        self.plot.addItem(self.full_line)
        self.plot.addItem(self.ceiling_line)
        self.empty_text = self.plots.add_note(self.plot, "No resource utilisation modelled yet")
        self.plots.restyled.connect(self._restyle)
        layout.addWidget(self.plots, 1)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setAccessibleName("Top bottleneck")
        layout.addWidget(self.detail)
        self.shown: list[tuple[str, str, float]] = []
        """(component, resource, util) of each bar, top first."""
        self._labels: list[str] | None = None
        self._ranges: tuple[tuple[float, float], tuple[float, float]] | None = None
        self._stale = False
        document.prediction_updated.connect(self.refresh)
        document.design_changed.connect(self.refresh)
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt)
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def _restyle(self) -> None:
        text = theme.tones().chart_text
        self.ceiling_line.setPen(pg.mkPen(text, style=Qt.PenStyle.DashLine))
        self.ceiling_line.label.setColor(text)

    def refresh(self, *_: object) -> None:
        """Show the latest prediction's busiest resources; behind another tab (hidden within
        a window) only once it is shown again: a knob step does not redraw what nobody sees."""
        if self.parentWidget() is not None and self.isHidden():
            self._stale = True
            return
        self._stale = False
        p = self.document.prediction
        top = p.bottlenecks(self.MAX_BARS) if p is not None else []
        top = [r for r in top if math.isfinite(r.util)]
        self.shown = [(r.component, r.resource, r.util) for r in top]
        n = len(top)
        utils = [max(0.0, r.util) for r in top]
        self.bars.setOpts(x0=[0.0] * n, y=list(range(n)), height=0.6, width=utils,
                          brushes=[pg.mkBrush(level_colour(u)) for u in utils])
        labels = [f"{self._name(r.component)} · {resource_words(r.resource).word}" for r in top]
        if labels != self._labels:  # re-laying out an axis costs more than the bars
            self._labels = labels
            axis = self.plot.getAxis("left")
            axis.setTicks([[(float(i), text) for i, text in enumerate(labels)]])
            metrics = QFontMetrics(axis.style.get("tickFont") or self.font())
            axis.setWidth(max((metrics.horizontalAdvance(t) for t in labels), default=20) + 16)
        self.empty_text.setVisible(n == 0)
        ceiling = self.document.value("design", "policy.cpu_util_max")
        if isinstance(ceiling, (int, float)) and not isinstance(ceiling, bool) \
                and float(ceiling) != self.ceiling_line.value():
            self.ceiling_line.setValue(float(ceiling))
        # the x range moves in steps of 25 %, so most knob moves leave the axes alone
        top_x = max(1.1, math.ceil(max(utils, default=0.0) * 1.05 * 4.0) / 4.0)
        ranges = ((0.0, top_x), (-0.5, max(n, 1) - 0.5))
        if ranges != self._ranges:
            self._ranges = ranges
            self.plot.setRange(xRange=ranges[0], yRange=ranges[1], padding=0)
        if top:
            r = top[0]
            names = {r.component: self._name(r.component)}  # what its explanation cites
            self.detail.setText(f"Top bottleneck: {bottleneck_text(r, self._name)}."
                                f" {plain(r.explanation, names)}"
                                f" (study: {r.source})")
        else:
            self.detail.setText("")

    def _name(self, cid: str) -> str:
        c = self.document.design.component(cid)
        return (c.name or c.id) if c is not None else cid
