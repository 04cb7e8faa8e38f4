"""Plot helpers the charts and the evidence view share: plots in the theme's colours.

:class:`ThemedPlots` takes its background, axes, legends and notes from
:func:`app.support.theme.tones` when it is built and again whenever the palette changes (a switch
between light and dark), so a chart reads like the panels around it.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QEvent, Signal

from app.support import theme


class ThemedPlots(pg.GraphicsLayoutWidget):
    """A layout of plots that follows the light or dark theme."""

    restyled = Signal()
    """The theme's colours were applied again: items a chart coloured itself follow."""

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[pg.TextItem] = []
        """Text items drawn on the plots (empty-chart hints), coloured like the axes."""
        self.restyle()

    def showEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.restyle()  # plots, legends and notes added since it was built

    def add_note(self, plot: pg.PlotItem, text: str) -> pg.TextItem:
        """A line of text on ``plot`` in the chart's text colour."""
        item = pg.TextItem(text, color=theme.tones().chart_text)
        plot.addItem(item)
        self.notes.append(item)
        return item

    def restyle(self) -> None:
        """Background, axes, legends and notes in the current theme's colours."""
        t = theme.tones()
        self.setBackground(t.chart_background)
        for item in self.ci.items:
            style_plot(item)
            if isinstance(item, pg.LegendItem):
                item.setLabelTextColor(t.chart_text)
        for note in self.notes:
            note.setColor(t.chart_text)
        self.restyled.emit()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() in theme.PALETTE_EVENTS and hasattr(self, "notes"):  # built
            self.restyle()


def style_plot(item: object) -> None:
    """Axes (lines, ticks, labels) and the legend of a plot in the current theme's colours."""
    if not isinstance(item, pg.PlotItem):
        return
    colour = theme.tones().chart_text
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        axis.setPen(colour)
        axis.setTextPen(colour)
    legend = item.legend
    if legend is not None:
        legend.setLabelTextColor(colour)


def plot_widget() -> ThemedPlots:
    """An empty layout of plots in the theme's colours."""
    return ThemedPlots()


def log_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 tick values from ``lo`` to ``hi`` (for log-scale knob axes)."""
    out: list[float] = []
    decade = 10.0 ** math.floor(math.log10(lo))
    while decade <= hi:
        out.extend(v for v in (decade, 2 * decade, 5 * decade) if lo <= v <= hi)
        decade *= 10.0
    return out
