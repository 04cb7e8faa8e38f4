"""Plot helpers the charts and the evidence view share: plots in the theme's colours, axes
titled and ticked one way.

:class:`ThemedPlots` takes its background, axes, legends and notes from
:func:`app.support.theme.tones` when it is built and again whenever the palette changes (a switch
between light and dark), so a chart reads like the panels around it.  Every plot it makes has
a :class:`UnitAxis` on each side, and every axis title goes through :func:`label_axis`: the
policy of :mod:`app.charts.axes` (the unit in parentheses, never an SI prefix).
"""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QEvent, Signal

from app.charts.axes import axis_title, tick_text
from app.support import theme

SIDES = ("left", "bottom", "right", "top")
TICK_TEXT_PX = 34.0
"""About the width a decade's tick text (``10,000``) takes on a log axis."""


class UnitAxis(pg.AxisItem):
    """An axis whose ticks read as :func:`app.charts.axes.tick_text` writes them, whose title
    never takes an SI prefix, and whose log scale labels only as many decades as fit."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self.unit = ""
        """The unit of the values (``fraction`` ticks read as percentages)."""
        self.log_step = 1
        """On a log scale, every how many decades a tick has text (as many as fit)."""
        self.autoSIPrefix = False  # the title carries the unit: see label_axis

    def tickStrings(self, values: list[float], scale: float,  # noqa: N802 (pyqtgraph)
                    spacing: float) -> list[str]:
        del scale  # never scaled: the title carries the unit as it is
        if self.logMode:
            if self.log_step > 1 and spacing == 1.0:  # the decades between: no text
                return [""] * len(values)
            return [tick_text(10.0 ** v, self.unit) if abs(v) < 300 else "" for v in values]
        return [tick_text(v, self.unit) for v in values]

    def tickValues(self, minVal: float, maxVal: float,  # noqa: N802,N803 (pyqtgraph)
                   size: float) -> list[tuple[float, list[float]]]:
        if not self.logMode or not math.isfinite(minVal) or not math.isfinite(maxVal):
            return list(super().tickValues(minVal, maxVal, size))
        lo, hi = sorted((minVal, maxVal))
        decades = [float(d) for d in range(math.ceil(lo), math.floor(hi) + 1)]
        if not decades:
            return list(super().tickValues(minVal, maxVal, size))
        room = size if self.orientation in ("top", "bottom") else size * 2.0
        step = max(1, math.ceil(len(decades) * TICK_TEXT_PX / max(room, 1.0)))
        self.log_step = step
        levels = [(float(step), [d for d in decades if d % step == 0])]
        if step > 1:  # the decades between, ticked without text
            levels.append((1.0, [d for d in decades if d % step]))
        return levels


def unit_axes() -> dict[str, UnitAxis]:
    """A :class:`UnitAxis` for each side a new plot shows (the left and the bottom: an axis
    given to a plot is shown)."""
    return {side: UnitAxis(side) for side in ("left", "bottom")}


def label_axis(plot: pg.PlotItem, side: str, title: str, unit: str = "") -> None:
    """Title ``plot``'s ``side`` axis ``title (unit)`` and tick it in ``unit``
    (:mod:`app.charts.axes`): the one way every chart labels an axis."""
    axis = plot.getAxis(side)
    if isinstance(axis, UnitAxis):
        axis.unit = unit
    # no SI prefix ever, and none left from an earlier range (enableAutoSIPrefix(False)
    # would compute one from the current range: "kI/Os", or an overflow on a log axis)
    axis.autoSIPrefix = False
    axis.autoSIPrefixScale = 1.0
    axis.setLabel(axis_title(title, unit), siPrefixEnableRanges=())
    axis.picture = None  # the ticks follow the new unit at the next paint
    axis.update()


class ThemedPlots(pg.GraphicsLayoutWidget):
    """A layout of plots that follows the light or dark theme."""

    restyled = Signal()
    """The theme's colours were applied again: items a chart coloured itself follow."""

    def __init__(self) -> None:
        super().__init__()
        # pyqtgraph binds addPlot to the layout on each instance: every plot made here gets
        # the axes of the policy, whichever name it is made by
        self.addPlot = self.add_plot
        self.notes: list[pg.TextItem] = []
        """Text items drawn on the plots (empty-chart hints), coloured like the axes."""
        self.restyle()

    def showEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.restyle()  # plots, legends and notes added since it was built

    def add_plot(self, *args: Any, **kwargs: Any) -> pg.PlotItem:
        """A plot with a :class:`UnitAxis` on each side (unless given other axes)."""
        kwargs.setdefault("axisItems", unit_axes())
        return self.ci.addPlot(*args, **kwargs)

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
    for name in SIDES:
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
