"""The knob curve: the figures of the design across one knob's range, the operating point
marked (utilisation bars: :mod:`app.charts.utilisation`; evidence: :mod:`app.panels.evidence`).

The curve owns its plot items and updates them with ``setData``; nothing is cleared and
redrawn.  Which figures it shows and the values it sweeps come from the models
(:mod:`models.engine.metrics`, :mod:`models.engine.sweep`).  It follows the document only: a
``values_changed`` of a knob makes the curve that knob's (the last knob the user moved), and
a change of anything else sweeps the curve again through a rate-limiting timer, while the
operating point follows every prediction at once.  A shaded band around the mean time and
throughput curves shows their range over the published ranges of the model's coefficients
(:mod:`app.document.bands`); it is swept in the background once the edits pause (a new edit
stops it), and not at all when the design is so large that the sweep would take long.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from app.charts.plots import label_axis, log_ticks, plot_widget
from app.document.bands import LANE, tracker_for
from app.support import first_paint, gc_guard, theme
from app.support.jobs import Runner, Task
from models.core.prediction import Prediction
from models.core.uncertainty import Bands
from models.document import glossary
from models.document import numbers as fmt
from models.document.design import Design, selector_kind
from models.document.knobs import WORKLOAD_PROPS, Knob, knob
from models.document.schema import Value
from models.document.words import kind_text
from models.engine.metrics import (
    HOSTS_NEEDED,
    Series,
    ThroughputFigure,
    TimeFigure,
    flat_range,
    focus,
    latencies,
    series,
    throughput_of,
    time_of,
)
from models.engine.sweep import KnobScale, curve_values, iter_sweep, sweep_bands, zoom_values

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

SWEEP_INTERVAL_MS = 150
"""At most one sweep per this interval while knobs move."""
SLOW_SWEEP_MS = 100.0
"""A sweep slower than this (large designs) waits for a pause in the edits instead."""
BAND_POINTS = 12
"""Knob values the band is swept at (three full evaluations each)."""
BAND_SWEEP_MAX_MS = 4000.0
"""The band is swept in the background after the edits pause; not at all when the sweep's
estimated cost (from the last band evaluation) passes this (the status line says so)."""
TOO_LARGE_HINT = "Range not computed for designs this large."
NO_VMS_HINT = ("No VMs yet: once a VM runs on a host, this chart shows how the knob that"
               " matters for it (outstanding I/Os, request rate, ...) moves its figures.")

Changed = Literal["nothing", "own", "other"]
"""What changed since the last prediction: nothing, only the curve's own knob (its curve
stands: the sweep sets that knob itself), or anything else (sweep again)."""


BACKGROUND_COMPONENTS = 5000
"""A design with more components than this sweeps its curve off the GUI thread."""
BACKGROUND_DELAY_MS = 300
"""A background sweep starts this long after it is asked for."""
BACKGROUND_SWEEP_MS = 250.0
"""...as does one whose last sweep on the GUI thread took longer than this."""


def curve(design: Design, scenario: str, k: Knob, values: list[Value], times: TimeFigure,
          throughput: ThroughputFigure, check: Callable[[], None] = lambda: None
          ) -> tuple[list[Value], Series]:
    """The curve of knob ``k`` over ``values`` (zoomed to where it saturates, when it does
    early): Qt-free, so it runs on the GUI thread or in a job (``check`` raises when the
    job is cancelled)."""
    figures = series(iter_sweep(design, scenario, k.path, values, check=check), times,
                     throughput)
    zoomed = zoom_values(k, values, figures.mean)
    if zoomed:  # saturates early: draw the range that leads up to it instead
        values = zoomed
        figures = series(iter_sweep(design, scenario, k.path, zoomed, check=check), times,
                         throughput)
    return values, figures


def legend_offset(*curves: np.ndarray) -> tuple[int, int]:
    """The legend's offset (pyqtgraph's: positive x from the left, negative from the right;
    positive y from the top, negative from the bottom) at a corner the ``curves`` leave free:
    top left where they stay in the lower half over the first third of the x range, else top
    right where they do over the last third, else bottom right."""
    ys = np.array([np.asarray(c, float) for c in curves])
    finite = ys[np.isfinite(ys)]
    if finite.size < 2 or finite.max() <= finite.min():
        return (10, 5)
    lo, span = float(finite.min()), float(finite.max() - finite.min())
    third = max(1, ys.shape[1] // 3)

    def low(part: np.ndarray) -> bool:
        vals = part[np.isfinite(part)]
        return not vals.size or float(vals.max() - lo) / span < 0.55

    if low(ys[:, :third]):
        return (10, 5)
    if low(ys[:, -third:]):
        return (-10, 5)
    return (-10, -5)


def saturated(xs: Sequence[float] | np.ndarray, mean: Sequence[float] | np.ndarray
              ) -> tuple[float | None, bool]:
    """Where a curve has no steady figure (its mean is NaN): (the first value with one after
    a saturated start, True) when it saturates at the low end (too few cores: below 11, not
    "from 1"); (the first saturated value, False) when it saturates going up; (None, False)
    when it never does."""
    sat = [math.isnan(float(m)) for m in mean]
    if not any(sat) or len(sat) != len(xs):
        return None, False
    if sat[0]:
        steady = next((x for x, s in zip(xs, sat, strict=True) if not s), None)
        return (float(steady), True) if steady is not None else (float(xs[0]), False)
    return float(next(x for x, s in zip(xs, sat, strict=True) if s)), False


class KnobCurve(QWidget):
    """Mean/p95 latency and total IOPS against one knob, with the operating point marked."""

    knob_changed = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.knob: Knob | None = None
        self._xs: list[float] = []
        self._point_x: float | None = None
        """The knob's current value on the x axis (None when mixed); read from the document
        only when the knob's values change, since reading costs a pass over the components."""
        self._changed: Changed = "nothing"
        self.chosen = False
        """Whether the user chose the knob (in the combo box, or by moving it); until then
        the curve follows what the design's main workload is (:func:`default_knob`)."""
        self.sweeps = 0
        """How many sweeps have run (tests and the benchmark read it)."""
        self.last_sweep_ms = 0.0
        self.setAccessibleName("Knob curve")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel("Curve of"))
        self.combo = QComboBox()
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(12)  # as narrow as its dock needs, never wider
        self.combo.setAccessibleName("Curve knob")
        self.combo.activated.connect(self._on_combo)
        top.addWidget(self.combo, 1)
        self.follow = QCheckBox("follow the last knob moved")
        self.follow.setChecked(True)
        self.follow.setAccessibleName("Follow the last knob moved")
        top.addWidget(self.follow)
        layout.addLayout(top)
        self.plots = plot_widget()
        self.latency_plot = self.plots.addPlot(row=0, col=0)
        self.iops_plot = self.plots.addPlot(row=1, col=0)
        self.iops_plot.setXLink(self.latency_plot)
        label_axis(self.latency_plot, "left", "time", "ms")
        self.times: TimeFigure = latencies
        """The upper plot's figures (:func:`time_of`), chosen at each sweep."""
        self.throughput: ThroughputFigure = lambda q: q.total_iops
        """The lower plot's figure (:func:`throughput_of`), chosen at each sweep."""
        label_axis(self.iops_plot, "left", "total IOPS")
        # no grid: grid lines belong to the axes, which then repaint with every moved point
        # (6 ms per axis at 2,000 VMs)
        self.latency_plot.getAxis("bottom").setStyle(showValues=False)
        self.legend = self.latency_plot.addLegend(offset=(10, 5))  # top left: times rise
        blue, orange = pg.mkPen("#2e86c1", width=2), pg.mkPen("#d35400", width=2)
        self.latency_curve = self.latency_plot.plot([], [], pen=blue, name="mean",
                                                    connect="finite")
        self.p95_curve = self.latency_plot.plot(
            [], [], pen=pg.mkPen("#2e86c1", width=1, style=Qt.PenStyle.DashLine), name="p95",
            connect="finite")
        self.iops_curve = self.iops_plot.plot([], [], pen=orange, connect="finite")
        marker = {"pen": None, "symbol": "o", "symbolSize": 11,
                  "symbolPen": pg.mkPen(theme.tones().marker_edge),
                  "symbolBrush": pg.mkBrush("#f1c40f")}
        # the operating point does not take part in auto-range: a moving marker would
        # rescale the axes (and re-lay them out) on every knob move
        self.point_latency = pg.PlotDataItem([], [], **marker)
        self.point_iops = pg.PlotDataItem([], [], **marker)
        self.latency_plot.addItem(self.point_latency, ignoreBounds=True)
        self.iops_plot.addItem(self.point_iops, ignoreBounds=True)
        self.plots.restyled.connect(self._restyle)
        # uncertainty bands: two invisible edges and the fill between them, per plot
        self.band_edges: dict[str, tuple[pg.PlotDataItem, pg.PlotDataItem]] = {}
        self.band_fills: dict[str, pg.FillBetweenItem] = {}
        for name, plot, rgb in (("latency", self.latency_plot, (46, 134, 193)),
                                ("iops", self.iops_plot, (211, 84, 0))):
            lo, hi = pg.PlotDataItem([], [], pen=None), pg.PlotDataItem([], [], pen=None)
            fill = pg.FillBetweenItem(lo, hi, brush=pg.mkBrush(*rgb, 50))
            fill.setZValue(-10)
            plot.addItem(lo)
            plot.addItem(hi)
            # the fill's bounds are its edges'; an empty fill reports (0, 0), which pulled
            # a log axis out to 10^0 = 1 and left the curve in the right half of the plot
            plot.addItem(fill, ignoreBounds=True)
            self.band_edges[name] = (lo, hi)
            self.band_fills[name] = fill
        self._values: list[Value] = []
        """The knob values of the drawn curve (the band is swept at some of them)."""
        self.flat = False
        """Whether neither plotted figure moves across the knob's range."""
        self.focused: tuple[float, float] | None = None
        """The y range the hosts-needed plot is held to (round today's count), if any."""
        self.saturated_from: float | None = None
        """The first x where the response time has no steady value (the line breaks); where
        :attr:`saturated_below`, the first x after a start without one."""
        self.saturated_below = False
        """The curve saturates below :attr:`saturated_from` (too few of what the knob sets),
        not from it up."""
        self.band_sweeps = 0
        """How many band sweeps have run to the end (tests read it)."""
        self._band_values: list[Value] = []
        self._band_done: list[Bands] = []
        self._pending_sweep: Callable[[], Callable[[Task], object]] | None = None
        self._background_timer = QTimer(self)
        self._background_timer.setSingleShot(True)
        self._background_timer.setInterval(BACKGROUND_DELAY_MS)
        self._background_timer.timeout.connect(self._start_background_sweep)
        # the bands' lane: a large design's curve and bands each hold an engine of their own,
        # and side by side they took a 50,000-VM window past 1 GB
        self._sweep_jobs = Runner(self, lane=LANE)
        self._sweep_jobs.finished.connect(self._on_sweep)
        self._sweep_jobs.failed.connect(self._on_sweep_failed)
        self._band_jobs = Runner(self, lane=LANE)
        self._band_jobs.finished.connect(self._on_band_sweep)
        self._band_jobs.failed.connect(lambda _msg: self.clear_band())
        self.band_skipped = False
        """Whether the last band was left out because the design is too large."""
        self.bands_tracker = tracker_for(document)
        self.bands_tracker.bands_updated.connect(self._on_bands)
        layout.addWidget(self.plots, 1)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Knob curve status")
        layout.addWidget(self.status)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SWEEP_INTERVAL_MS)
        self._timer.timeout.connect(self.update_curve)
        document.design_replaced.connect(self._on_design_replaced)
        document.component_added.connect(self._on_structure)
        document.component_removed.connect(self._on_structure)
        document.link_added.connect(self._on_structure)
        document.link_removed.connect(self._on_structure)
        document.scenario_changed.connect(self._on_scenario)
        document.values_changed.connect(self._on_values_changed)
        document.prediction_updated.connect(self._on_prediction)
        self._fill_combo()
        first = document.default_knob()
        if first is not None:
            self.set_knob(first.path)

    def _restyle(self) -> None:
        edge = pg.mkPen(theme.tones().marker_edge)
        for point in (self.point_latency, self.point_iops):
            point.setSymbolPen(edge)

    # ------------------------------------------------------------------ knob choice
    def _fill_combo(self) -> None:
        current = self.knob.path if self.knob else None
        self.combo.blockSignals(True)
        self.combo.clear()
        for k in self.document.knobs():
            self.combo.addItem(f"{k.label} ({k.group})", k.path)
        self.combo.setCurrentIndex(self.combo.findData(current) if current else -1)
        self.combo.blockSignals(False)

    def _on_combo(self, index: int) -> None:
        path = self.combo.itemData(index)
        if isinstance(path, str):
            self.chosen = True
            self.set_knob(path)

    def set_knob(self, path: str) -> None:
        """Show the curve of knob ``path`` (``vm.workload.io_oio``)."""
        k = knob(path)
        if k is None:
            return
        self.knob = k
        self.combo.setCurrentIndex(self.combo.findData(path))
        axis = self.iops_plot.getAxis("bottom")
        if k.choices is not None:
            ticks = [(float(i), fmt.value(c, k.unit)) for i, c in enumerate(curve_values(k))]
            axis.setTicks([ticks])
        elif k.log:
            scale = KnobScale(k)
            axis.setTicks([[(math.log10(v), fmt.number(v)) for v in log_ticks(scale.lo,
                                                                              scale.hi)]])
        else:
            axis.setTicks(None)
        for plot in (self.latency_plot, self.iops_plot):
            plot.setLogMode(x=k.log and k.choices is None, y=False)
        label_axis(self.iops_plot, "bottom", k.label, k.unit)
        self.knob_changed.emit(path)
        self._cancel_band()
        self.clear_band()
        self._values = []
        if self.last_sweep_ms > SLOW_SWEEP_MS:
            self._xs = []
            for item in (self.latency_curve, self.p95_curve, self.iops_curve):
                item.setData([], [])
            self.request_curve()
        else:
            self.update_curve()
        self._point_x = self.operating_x()
        self.update_point()

    # ------------------------------------------------------------------ document signals
    def _on_design_replaced(self) -> None:
        self.chosen = False
        self._fill_combo()
        first = self.document.default_knob()
        if first is not None:
            self.set_knob(first.path)

    def _on_structure(self, *_: object) -> None:
        """A component or link came or went: the curve moves to the knob that matters for
        what is on the canvas now (outstanding I/Os once a VM with storage I/O is there),
        unless the user chose one."""
        self._fill_combo()
        first = self.document.default_knob()
        if self.knob is None or self.knob not in self.document.knobs() or \
                (not self.chosen and first is not None and first != self.knob):
            if first is not None:
                self.set_knob(first.path)
            return
        self._changed = "other"
        self._point_x = self.operating_x()

    def _on_scenario(self, *_: object) -> None:
        self._changed = "other"
        self._point_x = self.operating_x()

    def _on_values_changed(self, select: str, prop: str) -> None:
        """A value changed (a knob moved, an inspector edit, an undo): the curve follows the
        knob it belongs to; any other change sweeps the curve again at the next prediction."""
        if prop in WORKLOAD_PROPS:  # the knobs that apply may be others
            self._on_structure()
        kind = selector_kind(self.document.design, select)
        moved = knob(f"{kind}.{prop}") if kind is not None else None
        if moved is not None and moved != self.knob and self.follow.isChecked():
            self.chosen = True
            self.set_knob(moved.path)  # swept now, with the new value: its own change
        elif moved is not None and moved == self.knob:
            self._point_x = self.operating_x()
        else:
            self._changed = "other"
            return
        if self._changed == "nothing":
            self._changed = "own"

    def _on_prediction(self, _p: object) -> None:
        """Move the operating point now; sweep the curve again (rate-limited) unless only its
        own knob changed, since the sweep sets that knob itself."""
        self.update_point()
        self._cancel_band()  # the tracker sweeps again once the edits pause
        if self._changed != "own":
            self.request_curve()
        self._changed = "nothing"

    def request_curve(self) -> None:
        """Sweep again within SWEEP_INTERVAL_MS (a burst of changes leads to one sweep); when
        sweeps are slow, only once the edits pause for that long."""
        if self.last_sweep_ms > SLOW_SWEEP_MS or not self._timer.isActive():
            self._timer.start()

    # ------------------------------------------------------------------ drawing
    def _x(self, v: Value) -> float | None:
        k = self.knob
        if k is None or v is None:
            return None
        if k.choices is not None:
            values = curve_values(k)
            for i, c in enumerate(values):
                if c == v or (isinstance(c, float) and not isinstance(v, (str, bool))
                              and float(v) == c):
                    return float(i)
            return None
        if isinstance(v, (str, bool)):
            return None
        return float(v)

    def update_curve(self) -> None:
        self._timer.stop()
        k = self.knob
        empty = not self.document.design.of_kind("vm")
        self.plots.setVisible(not empty)
        if empty:  # nothing moves: say how to begin instead of drawing flat lines
            self.status.setText(NO_VMS_HINT)
            return
        if k is None:
            return
        values = curve_values(k)
        time_label, names, self.times = time_of(self.document.prediction)
        through_label, self.throughput = throughput_of(self.document.prediction)
        labels = (time_label, names, through_label)
        times, throughput = self.times, self.throughput
        if self._in_background():  # a large design: the window never waits for its curve
            def job() -> Callable[[Task], object]:
                """The sweep, over a copy of the design made when it starts (on the GUI
                thread: not while a new window waits for its first paint)."""
                doc = self.document
                design = gc_guard.aside(doc.design.copy, len(doc.design.components))
                scenario = doc.scenario

                def sweep(task: Task) -> tuple[list[Value], Series, tuple[object, ...]]:
                    return (*curve(design, scenario, k, values, times, throughput,
                                   task.check), labels)

                return sweep

            # after the window has painted: a worker holding the interpreter meanwhile would
            # slow the first paint of a large design by a second
            self._pending_sweep = job
            first_paint.later(self._background_timer.start)
            return
        started = time.perf_counter()
        try:
            values, figures = curve(self.document.design, self.document.scenario, k, values,
                                    times, throughput)
        except Exception as err:  # a failing model shows a message, never crashes
            self.status.setText(f"Cannot sweep {k.label}: {err}")
            return
        self.last_sweep_ms = (time.perf_counter() - started) * 1000.0
        self._draw(values, figures, labels)

    def _in_background(self) -> bool:
        """Whether the sweep runs off the GUI thread: a design of many VMs (its first sweep
        alone would hold a new window for a second) or one whose last sweep was slow."""
        return (len(self.document.session.design.components) > BACKGROUND_COMPONENTS
                or self.last_sweep_ms > BACKGROUND_SWEEP_MS)

    def _start_background_sweep(self) -> None:
        job, self._pending_sweep = self._pending_sweep, None
        if job is not None:
            self._sweep_jobs.submit(job())

    def _on_sweep(self, result: object) -> None:
        if not isinstance(result, tuple) or self.knob is None:
            return
        values, figures, labels = result
        self._draw(values, figures, labels)

    def _on_sweep_failed(self, message: str) -> None:
        self.status.setText(f"Cannot sweep the curve: {message}")

    def _draw(self, values: list[Value], figures: Series, labels: tuple[object, ...]) -> None:
        time_label, names, through_label = labels
        assert isinstance(time_label, str) and isinstance(through_label, str)
        assert isinstance(names, tuple)
        self.sweeps += 1
        self._values = values
        xs = np.array([self._x(v) for v in values], dtype=float)
        self._xs = list(xs)
        # a design without storage I/O or requests has no time to plot: the throughput
        # plot takes the whole height instead of sharing it with a flat line at 0 ms
        self.show_time_plot(figures.has_time)
        label_axis(self.latency_plot, "left", time_label)
        for curve_item, name in ((self.latency_curve, names[0]), (self.p95_curve, names[1])):
            legend_label = self.legend.getLabel(curve_item)
            if legend_label is not None and legend_label.text != name:
                legend_label.setText(name)
        self.latency_curve.setData(xs, figures.mean)
        self.p95_curve.setData(xs, figures.worst)
        # the legend sits where the curves are low: top left when they rise late (times),
        # top right when they fall (the hosts' CPU as cores are added), bottom right when
        # they are high at both ends (the busiest host as demand grows)
        offset = legend_offset(figures.mean, figures.worst)
        if tuple(self.legend.opts["offset"]) != offset:
            self.legend.setOffset(offset)
        label_axis(self.iops_plot, "left", through_label)
        self.iops_curve.setData(xs, figures.throughput)
        # the point reads the figures just drawn: after a new design, the last point was read
        # with the figures of the design before it (IOPS of a desktop design: 0)
        self.update_point()
        self.flat = True
        for plot, ys in ((self.latency_plot, figures.mean), (self.iops_plot, figures.throughput)):
            flat = flat_range(ys)
            if flat is None:
                plot.enableAutoRange(y=True)
                self.flat = False
            else:
                plot.setYRange(*flat, padding=0)
        p = self.document.prediction
        near = focus(figures.throughput, self.throughput(p)) \
            if through_label == HOSTS_NEEDED and p is not None else None
        self.focused = near  # the hosts an estate needs: round today's count, not 0-600
        if near is not None:
            self.iops_plot.setYRange(*near, padding=0)
        self.saturated_from, self.saturated_below = saturated(xs, figures.mean)
        self._show_status()

    def show_time_plot(self, shown: bool) -> None:
        """Show or fold away the upper (time) plot; the lower one then shows the x values."""
        if self.latency_plot.isVisible() == shown:
            return
        self.latency_plot.setVisible(shown)
        self.latency_plot.setMaximumHeight(1e6 if shown else 0)
        self.plots.ci.layout.setRowStretchFactor(0, 1 if shown else 0)
        # a folded plot has no width to share its x range from: the lower one ranges alone
        self.iops_plot.setXLink(self.latency_plot if shown else None)
        self.iops_plot.enableAutoRange(x=True)

    def _show_status(self) -> None:
        k = self.knob
        if k is None:
            return
        where = "across the design" if k.kind == "design" else \
            f"applied to every {kind_text(k.kind)}"  # a design's own figures, not a policy's
        text = f"{k.label} {where}; study: {k.source}"
        sat = self.saturated_from
        if sat is not None and k.choices is None:  # where the curve has no steady figure
            words = glossary.SATURATES_BELOW if self.saturated_below else glossary.SATURATES_FROM
            text += ". " + words.format(x=fmt.with_unit(sat, k.unit))
        if self.flat:  # e.g. outstanding I/Os against VMs that issue a set IOPS rate
            text += ". Flat: in this design the knob moves neither figure; pick another above"
        self.status.setText(f"{text}. {TOO_LARGE_HINT}" if self.band_skipped else text)

    def _on_bands(self, bands: Bands | None) -> None:
        """The document's bands are fresh (the edits paused): sweep the band along the curve
        in the background when the operating point has one; else hide it."""
        self._cancel_band()
        k = self.knob
        if k is None or bands is None or not bands.sources:
            self.clear_band()
            self._set_skipped(False)
            return
        values = self._values or curve_values(k)
        step = max(1, math.ceil((len(values) - 1) / (BAND_POINTS - 1)))
        band_values = values[::step] + ([values[-1]] if (len(values) - 1) % step else [])
        # each value costs about the tracker's two evaluations plus one
        if 1.5 * self.bands_tracker.last_ms * len(band_values) > BAND_SWEEP_MAX_MS:
            self.clear_band()
            self._set_skipped(True)
            return
        self._set_skipped(False)
        self._band_values = band_values
        design = gc_guard.aside(self.document.design.copy, len(self.document.design.components))
        scenario, path = self.document.scenario, k.path

        def job(task: Task) -> list[Bands]:
            done = []
            for b in sweep_bands(design, scenario, path, band_values):
                task.check()
                done.append(b)
            return done

        self._band_jobs.submit(job)

    def _set_skipped(self, skipped: bool) -> None:
        if skipped != self.band_skipped:
            self.band_skipped = skipped
            self._show_status()

    def _cancel_band(self) -> None:
        if self._band_jobs.busy:
            self._band_jobs.cancel()

    def _on_band_sweep(self, result: object) -> None:
        if not isinstance(result, list) or len(result) != len(self._band_values):
            return
        self._band_done = result
        self.band_sweeps += 1
        xs = np.array([self._x(v) for v in self._band_values], dtype=float)
        k = self.knob
        log = k is not None and k.log and k.choices is None
        times = self.times
        for name, f, curve in (("latency", lambda p: times(p)[0], self.latency_curve),
                               ("iops", self.throughput, self.iops_curve)):
            spans = [b.span(f) for b in self._band_done]
            lo = np.array([s[0] if s else np.nan for s in spans])
            hi = np.array([s[1] if s else np.nan for s in spans])
            edges = self.band_edges[name]
            if not np.any(hi > lo):
                edges[0].setData([], [])
                edges[1].setData([], [])
                continue
            # a saturated response time has no band (NaN): it ends where the line breaks
            x, low, high = self._hug(xs, lo, hi, curve, f, log)
            edges[0].setData(x, low)
            edges[1].setData(x, high)

    def _hug(self, xs: np.ndarray, lo: np.ndarray, hi: np.ndarray, curve: pg.PlotDataItem,
             f: Callable[[Prediction], float], log: bool
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(x, low, high) along the drawn curve: the band's ratios to the nominal at the
        band's few knob values, interpolated onto every point of the curve (the band then
        follows the curve's shape instead of cutting its corners).  Points without a figure
        (NaN: a saturated response) take no part and are left out."""
        nominal = np.array([f(b.runs[0]) for b in self._band_done], dtype=float)
        cx, cy = curve.xData, curve.yData  # as given to setData (getData is log-transformed)
        ok = np.isfinite(xs) & np.isfinite(lo) & np.isfinite(hi) & np.isfinite(nominal) \
            & (nominal > 0)
        if cx is None or cy is None or len(cx) < 2 or ok.sum() < 2:
            return xs[ok], lo[ok], hi[ok]
        cx, cy = np.asarray(cx, dtype=float), np.asarray(cy, dtype=float)

        def t(x: np.ndarray) -> np.ndarray:
            return np.log10(np.maximum(x, 1e-300)) if log else x

        at, order = t(cx), np.argsort(t(xs[ok]))
        bx = t(xs[ok])[order]
        r_lo = np.interp(at, bx, (lo[ok] / nominal[ok])[order])
        r_hi = np.interp(at, bx, (hi[ok] / nominal[ok])[order])
        low, high = cy * r_lo, cy * r_hi
        keep = np.isfinite(low) & np.isfinite(high)
        return cx[keep], low[keep], high[keep]

    @property
    def band_pending(self) -> bool:
        """Whether a band sweep is under way."""
        return self._band_jobs.busy

    def clear_band(self) -> None:
        for lo, hi in self.band_edges.values():
            lo.setData([], [])
            hi.setData([], [])

    def band_shown(self, name: str) -> bool:
        """Whether the band of plot ``name`` ('latency' or 'iops') has points."""
        xs = self.band_edges[name][1].getData()[0]
        return xs is not None and len(xs) > 0

    def operating_x(self) -> float | None:
        k = self.knob
        return self._x(self.document.value(k.kind, k.prop)) if k is not None else None

    def update_point(self) -> None:
        p = self.document.prediction
        x = self._point_x
        if p is None or x is None:
            self.point_latency.setData([], [])
            self.point_iops.setData([], [])
            return
        self.point_latency.setData([x], [self.times(p)[0]])
        self.point_iops.setData([x], [self.throughput(p)])
