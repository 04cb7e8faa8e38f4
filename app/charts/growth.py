"""The Growth tab's chart: hosts needed per year by cluster (each beside the hosts it has,
dashed, with the month it runs out marked) and storage used against usable, year by year.

Items are made once and updated with ``setData`` (a cluster line per colour of
:data:`SERIES`, made as more clusters are shown); the axes follow :mod:`app.charts.axes`
("Year", "Hosts needed", "Storage (TiB)", ticks as numbers) and the theme's colours.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.charts.plots import label_axis, plot_widget
from app.support import theme
from models.analysis.growth import GrowthResult

SERIES = ("#2e86c1", "#d35400", "#16a085", "#a569bd", "#7f8c8d", "#e74c3c")
"""One colour per cluster shown, each at least 3:1 against both charts' backgrounds."""
USED, USABLE = "#2e86c1", "#7f8c8d"
MOST_TICKS = 12
"""Past this many years the year axis ticks itself."""


class GrowthChart(QWidget):
    """Hosts needed by cluster (left) and storage used against usable (right), per year."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Growth chart")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.plots = plot_widget()
        self.hosts_plot = self.plots.addPlot(row=0, col=0)
        self.storage_plot = self.plots.addPlot(row=0, col=1)
        for plot in (self.hosts_plot, self.storage_plot):
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            label_axis(plot, "bottom", "Year")
        label_axis(self.hosts_plot, "left", "Hosts needed", "hosts")
        label_axis(self.storage_plot, "left", "Storage", "TiB")
        # the key under the plots, in words: a legend on a plot this small covered the lines
        self.key = QLabel()
        self.key.setAccessibleName("Growth chart key")
        self.key.setTextFormat(Qt.TextFormat.RichText)
        self.key.setWordWrap(True)
        self.key.setStyleSheet("font-size: 8pt;")
        self.needed: list[pg.PlotDataItem] = []
        """A line per cluster shown: hosts needed, year by year."""
        self.have: list[pg.PlotDataItem] = []
        """The hosts each cluster has, dashed in its colour."""
        self.marks: list[pg.InfiniteLine] = []
        """The month each cluster shown runs out, a dotted vertical line in its colour."""
        self.used = self.storage_plot.plot([], [], pen=pg.mkPen(USED, width=2), symbol="o",
                                           symbolSize=5, symbolBrush=USED, symbolPen=None)
        self.usable = self.storage_plot.plot(
            [], [], pen=pg.mkPen(USABLE, width=2, style=Qt.PenStyle.DashLine))
        self.empty = self.plots.add_note(self.hosts_plot, "Press Grow to see the years")
        self.shown: list[str] = []
        """The clusters drawn, in colour order."""
        self.runs_out: dict[str, float] = {}
        """Cluster name -> the year (month / 12) it runs out, as marked."""
        layout.addWidget(self.plots, 1)
        layout.addWidget(self.key)

    def _line(self, i: int) -> tuple[pg.PlotDataItem, pg.PlotDataItem, pg.InfiniteLine]:
        """The items of the ``i``-th cluster shown, made the first time."""
        while len(self.needed) <= i:
            colour = SERIES[len(self.needed) % len(SERIES)]
            self.needed.append(self.hosts_plot.plot(
                [], [], pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=5,
                symbolBrush=colour, symbolPen=None))
            self.have.append(self.hosts_plot.plot(
                [], [], pen=pg.mkPen(colour, width=1, style=Qt.PenStyle.DashLine)))
            # the month in words is the legend's ("Cluster1: runs out in month 17"): words
            # on the plot fell on the clusters' lines
            mark = pg.InfiniteLine(0.0, angle=90, pen=pg.mkPen(colour, width=1.5,
                                                               style=Qt.PenStyle.DotLine))
            mark.hide()
            self.hosts_plot.addItem(mark, ignoreBounds=True)
            self.marks.append(mark)
        return self.needed[i], self.have[i], self.marks[i]

    def show_result(self, result: GrowthResult,
                    clusters: Sequence[tuple[str, list[tuple[int | None, int]]]]) -> None:
        """Draw ``result``: ``clusters`` (name, (hosts needed, hosts) per year), the first
        :data:`SERIES` of them; the storage of the whole design."""
        years = [y.year for y in result.years]
        shown = list(clusters)[:len(SERIES)]
        self.empty.setVisible(not shown)
        month = {r.name: r.month for r in result.runs_out}
        self.runs_out = {}
        key: list[str] = []
        for i, (name, per_year) in enumerate(shown):
            needed, have, mark = self._line(i)
            xs = [x for x, (n, _) in zip(years, per_year, strict=True) if n is not None]
            needed.setData(xs, [n for n, _ in per_year if n is not None])
            have.setData(years, [h for _, h in per_year])
            if name in month:
                at = month[name] / 12.0
                self.runs_out[name] = at
                mark.setValue(at)
                mark.show()
                key.append(_swatch(SERIES[i % len(SERIES)], f"{name} runs out in month"
                                   f" {month[name]} (dotted)"))
            else:
                mark.hide()
                key.append(_swatch(SERIES[i % len(SERIES)], name))
        for i in range(len(shown), len(self.needed)):
            self.needed[i].setData([], [])
            self.have[i].setData([], [])
            self.marks[i].hide()
        self.shown = [name for name, _ in shown]
        used = [y.storage_used_tib for y in result.years]
        self.used.setData(years, used)
        usable = [y.storage_usable_tib for y in result.years]
        if all(u is not None for u in usable):
            self.usable.setData(years, usable)
        else:
            self.usable.setData([], [])
        left = len(clusters) - len(shown)
        text = "Hosts needed (each cluster's hosts dashed): " + ", ".join(key) + (
            f", {left} more in the years' totals" if left > 0 else "")
        text += "; storage " + _swatch(USED, "used") + (
            ", " + _swatch(USABLE, "usable (dashed)") if all(u is not None for u in usable)
            else " (no capacity recorded)")
        self.key.setText(text)
        ticks = [[(y, f"{y:g}") for y in years]] if len(years) <= MOST_TICKS else None
        for plot in (self.hosts_plot, self.storage_plot):
            plot.getAxis("bottom").setTicks(ticks)
            plot.enableAutoRange()

    def clear(self) -> None:
        for item in (*self.needed, *self.have, self.used, self.usable):
            item.setData([], [])
        for mark in self.marks:
            mark.hide()
        self.key.setText("")
        self.shown, self.runs_out = [], {}
        self.empty.setVisible(True)
        self.empty.setColor(theme.tones().chart_text)


def _swatch(colour: str, text: str) -> str:
    """``text`` after a square of ``colour`` (the key's rich text)."""
    return f'<span style="color:{colour}">&#9632;</span>&nbsp;{html.escape(text)}'
