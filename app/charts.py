"""Live charts: the curve of a knob, utilisation per resource, and the calibration evidence.

Every chart owns its plot items and updates them with ``setData``/``setOpts``; nothing is
cleared and redrawn.  The knob curve's sweep (many evaluations) runs through a rate-limiting
timer, while its operating point follows every prediction at once.
"""

from __future__ import annotations

import html
import math
import statistics
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app import format as fmt
from app.knob_panel import KnobSlider
from models.calibration import SUBSYSTEMS, Check, all_checks
from models.design import Design
from models.knobs import Knob, knob, knobs_for
from models.prediction import Prediction
from models.schema import Value

if TYPE_CHECKING:
    from app.document import DesignDocument

SWEEP_POINTS = 32
SWEEP_INTERVAL_MS = 150
"""At most one sweep per this interval while knobs move."""
SLOW_SWEEP_MS = 100.0
"""A sweep slower than this (large designs) waits for a pause in the edits instead."""

LEVEL_COLOURS = (("#27ae60", 0.7), ("#f39c12", 0.9), ("#c0392b", math.inf))
SUBSYSTEM_COLOURS = {"storage": "#2e86c1", "network": "#17a589", "ft": "#8e44ad",
                     "consolidation": "#d35400", "stretched": "#7f8c8d"}


def level_colour(util: float) -> str:
    """Green below 70 %, amber below 90 %, red from 90 % up."""
    for colour, limit in LEVEL_COLOURS:
        if util < limit:
            return colour
    return LEVEL_COLOURS[-1][0]


def sweep_values(k: Knob, points: int = SWEEP_POINTS) -> list[Value]:
    """The values a curve of knob ``k`` is drawn through (every choice, or ``points`` steps)."""
    if k.spec.type == "bool":
        return [False, True]
    if k.choices is not None:
        return list(k.choices)
    mapping = KnobSlider(k)
    out: list[Value] = []
    for i in range(points):
        v = mapping.to_value(round(i * mapping.positions / (points - 1)))
        if v not in out:
            out.append(v)
    return out


def log_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 tick values from ``lo`` to ``hi`` (for log-scale knob axes)."""
    out: list[float] = []
    decade = 10.0 ** math.floor(math.log10(lo))
    while decade <= hi:
        out.extend(v for v in (decade, 2 * decade, 5 * decade) if lo <= v <= hi)
        decade *= 10.0
    return out


def _plot_widget() -> pg.GraphicsLayoutWidget:
    w = pg.GraphicsLayoutWidget()
    w.setBackground("w")
    return w


# --------------------------------------------------------------------------- knob curve


def latencies(p: Prediction) -> tuple[float, float]:
    """(mean, p95) the curve plots: web response times on a design that does no storage I/O
    but serves requests, storage latency otherwise."""
    if p.total_iops == 0 and p.vms.request_driven.any():
        return p.mean_response_ms, p.p95_response_ms
    return p.mean_latency_ms, p.p95_latency_ms


def default_knob(design: Design) -> Knob | None:
    """The knob whose curve a design opens on: request rate when most VMs serve requests
    (a web farm), else outstanding I/Os, else the first knob that applies."""
    choices = knobs_for(design)
    vms = design.of_kind("vm")
    web = sum(v.get("workload.profile") == "web" for v in vms)
    for path in (("vm.workload.req_per_s",) if vms and 2 * web > len(vms) else ()) + (
            "vm.workload.io_oio",):
        k = knob(path)
        if k is not None and k in choices:
            return k
    return choices[0] if choices else None


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
        self._own_change = False
        self._other_change = False
        self.sweeps = 0
        """How many sweeps have run (tests and the benchmark read it)."""
        self.last_sweep_ms = 0.0
        self.setAccessibleName("Knob curve")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel("Curve of"))
        self.combo = QComboBox()
        self.combo.setAccessibleName("Curve knob")
        self.combo.activated.connect(self._on_combo)
        top.addWidget(self.combo, 1)
        self.follow = QCheckBox("follow the last knob moved")
        self.follow.setChecked(True)
        self.follow.setAccessibleName("Follow the last knob moved")
        top.addWidget(self.follow)
        layout.addLayout(top)
        self.plots = _plot_widget()
        self.latency_plot = self.plots.addPlot(row=0, col=0)
        self.iops_plot = self.plots.addPlot(row=1, col=0)
        self.iops_plot.setXLink(self.latency_plot)
        self.latency_plot.setLabel("left", "time", units="ms")
        self.iops_plot.setLabel("left", "total IOPS")
        for plot in (self.latency_plot, self.iops_plot):
            # no grid: grid lines belong to the axes, which then repaint with every moved
            # point (6 ms per axis at 2,000 VMs)
            plot.getAxis("left").enableAutoSIPrefix(False)
        self.latency_plot.getAxis("bottom").setStyle(showValues=False)
        self.latency_plot.addLegend(offset=(-10, 10))
        blue, orange = pg.mkPen("#2e86c1", width=2), pg.mkPen("#d35400", width=2)
        self.latency_curve = self.latency_plot.plot([], [], pen=blue, name="mean")
        self.p95_curve = self.latency_plot.plot(
            [], [], pen=pg.mkPen("#2e86c1", width=1, style=Qt.PenStyle.DashLine), name="p95")
        self.iops_curve = self.iops_plot.plot([], [], pen=orange)
        marker = {"pen": None, "symbol": "o", "symbolSize": 11, "symbolPen": pg.mkPen("k"),
                  "symbolBrush": pg.mkBrush("#f1c40f")}
        # the operating point does not take part in auto-range: a moving marker would
        # rescale the axes (and re-lay them out) on every knob move
        self.point_latency = pg.PlotDataItem([], [], **marker)
        self.point_iops = pg.PlotDataItem([], [], **marker)
        self.latency_plot.addItem(self.point_latency, ignoreBounds=True)
        self.iops_plot.addItem(self.point_iops, ignoreBounds=True)
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
        first = default_knob(document.design)
        if first is not None:
            self.set_knob(first.path)

    # ------------------------------------------------------------------ knob choice
    def _fill_combo(self) -> None:
        current = self.knob.path if self.knob else None
        self.combo.blockSignals(True)
        self.combo.clear()
        for k in knobs_for(self.document.design):
            self.combo.addItem(f"{k.label} ({k.group})", k.path)
        self.combo.setCurrentIndex(self.combo.findData(current) if current else -1)
        self.combo.blockSignals(False)

    def _on_combo(self, index: int) -> None:
        path = self.combo.itemData(index)
        if isinstance(path, str):
            self.set_knob(path)

    def follow_knob(self, path: str) -> None:
        """The user moved knob ``path`` (connect KnobPanel.knob_touched here)."""
        if self.follow.isChecked() and (self.knob is None or self.knob.path != path):
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
            ticks = [(float(i), fmt.value(c, k.unit)) for i, c in enumerate(sweep_values(k))]
            axis.setTicks([ticks])
        elif k.log:
            mapping = KnobSlider(k)
            axis.setTicks([[(math.log10(v), fmt.number(v)) for v in log_ticks(mapping.lo,
                                                                              mapping.hi)]])
        else:
            axis.setTicks(None)
        for plot in (self.latency_plot, self.iops_plot):
            plot.setLogMode(x=k.log and k.choices is None, y=False)
        self.iops_plot.setLabel("bottom", k.label, units=k.unit if k.unit != "fraction" else "")
        self.iops_plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.knob_changed.emit(path)
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
        self._fill_combo()
        first = default_knob(self.document.design)
        if first is not None:
            self.set_knob(first.path)

    def _on_structure(self, *_: object) -> None:
        self._fill_combo()
        if self.knob is None or self.knob not in knobs_for(self.document.design):
            first = default_knob(self.document.design)
            if first is not None:
                self.set_knob(first.path)
            return
        self._other_change = True
        self._point_x = self.operating_x()

    def _on_scenario(self, *_: object) -> None:
        self._other_change = True
        self._point_x = self.operating_x()

    def _on_values_changed(self, select: str, prop: str) -> None:
        if self.knob is not None and prop == self.knob.prop:
            self._own_change = True
            self._point_x = self.operating_x()
            self.follow_knob(self.knob.path)
            return
        self._other_change = True
        from models.design import selector_kind  # noqa: PLC0415 (cheap, avoids a cycle)
        kind = selector_kind(self.document.design, select)
        k = knob(f"{kind}.{prop}")
        if k is not None:
            self.follow_knob(k.path)

    def _on_prediction(self, _p: object) -> None:
        """Move the operating point now; redraw the curve (rate-limited) only when something
        other than this knob changed, since the sweep sets the knob itself."""
        self.update_point()
        if self._other_change or not self._own_change:
            self.request_curve()
        self._own_change = self._other_change = False

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
            values = sweep_values(k)
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
        if k is None:
            return
        values = sweep_values(k)
        started = time.perf_counter()
        try:
            preds = self.document.sweep(k.path, values)
        except Exception as err:  # a failing model shows a message, never crashes
            self.status.setText(f"Cannot sweep {k.label}: {err}")
            return
        self.sweeps += 1
        self.last_sweep_ms = (time.perf_counter() - started) * 1000.0
        xs = np.array([self._x(v) for v in values], dtype=float)
        self._xs = list(xs)
        lat = [latencies(p) for p in preds]
        self.latency_curve.setData(xs, [m for m, _ in lat])
        self.p95_curve.setData(xs, [q for _, q in lat])
        self.iops_curve.setData(xs, [p.total_iops for p in preds])
        self.status.setText(f"{k.label} applied to every {k.kind}; study: {k.source}")

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
        self.point_latency.setData([x], [latencies(p)[0]])
        self.point_iops.setData([x], [p.total_iops])


# --------------------------------------------------------------------------- utilisation


class UtilisationChart(QWidget):
    """Horizontal bars of the most-utilised resources, coloured by level."""

    MAX_BARS = 12

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setAccessibleName("Utilisation chart")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.plots = _plot_widget()
        self.plot = self.plots.addPlot()
        self.plot.invertY(True)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setLabel("bottom", "utilisation", units="%")
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.plot.getAxis("bottom").setTicks(
            [[(t / 100.0, f"{t}") for t in range(0, 201, 25)]])
        self.bars = pg.BarGraphItem(x0=[], y=[], height=0.6, width=[], brushes=[])
        self.plot.addItem(self.bars)
        self.full_line = pg.InfiniteLine(1.0, angle=90, pen=pg.mkPen("#c0392b", width=1))
        self.ceiling_line = pg.InfiniteLine(
            0.9, angle=90, pen=pg.mkPen("#7f8c8d", style=Qt.PenStyle.DashLine),
            label="CPU ceiling", labelOpts={"position": 0.95, "color": "#7f8c8d"})
        self.plot.addItem(self.full_line)
        self.plot.addItem(self.ceiling_line)
        self.empty_text = pg.TextItem("No resource utilisation modelled yet", color="#7f8c8d")
        self.plot.addItem(self.empty_text)
        layout.addWidget(self.plots, 1)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setAccessibleName("Top bottleneck")
        layout.addWidget(self.detail)
        self.shown: list[tuple[str, str, float]] = []
        """(component, resource, util) of each bar, top first."""
        self._labels: list[str] | None = None
        self._ranges: tuple[tuple[float, float], tuple[float, float]] | None = None
        document.prediction_updated.connect(self.refresh)
        document.design_changed.connect(self.refresh)
        self.refresh()

    def refresh(self, *_: object) -> None:
        p = self.document.prediction
        top = p.bottlenecks(self.MAX_BARS) if p is not None else []
        top = [r for r in top if math.isfinite(r.util)]
        self.shown = [(r.component, r.resource, r.util) for r in top]
        n = len(top)
        utils = [max(0.0, r.util) for r in top]
        self.bars.setOpts(x0=[0.0] * n, y=list(range(n)), height=0.6, width=utils,
                          brushes=[pg.mkBrush(level_colour(u)) for u in utils])
        labels = [f"{self._name(r.component)} · {r.resource}" for r in top]
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
            self.detail.setText(f"Top bottleneck: {self._name(r.component)} {r.resource} at"
                                f" {fmt.percent(r.util)}. {r.explanation}"
                                f" (study: {r.source})")
        else:
            self.detail.setText("")

    def _name(self, cid: str) -> str:
        c = self.document.design.component(cid)
        return (c.name or c.id) if c is not None else cid


# --------------------------------------------------------------------------- evidence


@dataclass
class Evidence:
    checks: list[Check] = field(default_factory=list)
    subsystem: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)
    """Subsystems whose checks could not be computed, with the reason."""


_EVIDENCE: Evidence | None = None


def evidence() -> Evidence:
    """Every calibration check, computed once per process (they evaluate whole testbeds)."""
    global _EVIDENCE  # noqa: PLW0603 (a process-wide cache)
    if _EVIDENCE is None:
        ev = Evidence()
        for name in SUBSYSTEMS:
            try:
                checks = all_checks((name,))
            except Exception as err:  # a broken subsystem must not take the view down
                ev.errors[name] = f"{type(err).__name__}: {err}"
                continue
            ev.checks.extend(checks)
            ev.subsystem.extend([name] * len(checks))
        _EVIDENCE = ev
    return _EVIDENCE


def _case_field(c: Check, key: str) -> Any:
    try:
        return c.case().get(key, "")
    except KeyError:
        return ""


class EvidenceView(QWidget):
    """Published figures against the model, per calibration check, with the study's words."""

    COLUMNS = ("Case", "Subsystem", "Study", "Quantity", "Published", "Model", "Error",
               "Tolerance", "Role", "OK")

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.evidence: Evidence | None = None
        self.setAccessibleName("Calibration evidence")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel("Subsystem"))
        self.filter = QComboBox()
        self.filter.setAccessibleName("Evidence subsystem filter")
        self.filter.addItem("All subsystems", "")
        for name in SUBSYSTEMS:
            self.filter.addItem(name, name)
        self.filter.currentIndexChanged.connect(self._apply_filter)
        top.addWidget(self.filter)
        self.summary = QLabel("Calibration checks are computed when this view is first shown.")
        # one line whatever the text: the checks load after the window is shown, and a label
        # that grew a line then would resize the dock (and move the canvas under the user)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.summary.setAccessibleName("Evidence summary")
        top.addWidget(self.summary, 1)
        layout.addLayout(top)
        # plot beside the table in a wide dock, above it in a tall one (see resizeEvent)
        split = QSplitter(Qt.Orientation.Vertical)
        self.split = split
        self.plots = _plot_widget()
        self.plot = self.plots.addPlot()
        self.plot.setLabel("bottom", "published")
        self.plot.setLabel("left", "model")
        for name in ("bottom", "left"):
            self.plot.getAxis(name).setLogMode(True)
            self.plot.getAxis(name).enableAutoSIPrefix(False)
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.legend = self.plot.addLegend(offset=(10, 10))
        band = pg.mkPen("#bdc3c7")
        self.band_hi = pg.PlotDataItem([], [], pen=band)
        self.band_lo = pg.PlotDataItem([], [], pen=band)
        self.band = pg.FillBetweenItem(self.band_hi, self.band_lo, brush=pg.mkBrush(0, 0, 0, 25))
        self.identity = pg.PlotDataItem([], [], pen=pg.mkPen("#7f8c8d", width=1))
        for item in (self.band_hi, self.band_lo, self.band, self.identity):
            self.plot.addItem(item)
        self.points: dict[str, pg.PlotDataItem] = {}
        for name in SUBSYSTEMS:
            colour = SUBSYSTEM_COLOURS.get(name, "#34495e")
            item = self.plot.plot([], [], pen=None, symbol="o", symbolSize=8,
                                  symbolPen=None, symbolBrush=pg.mkBrush(colour))
            self.points[name] = item
        self.failing = self.plot.plot([], [], pen=None, symbol="o", symbolSize=13,
                                      symbolPen=pg.mkPen("#c0392b", width=2), symbolBrush=None)
        self.selected = self.plot.plot([], [], pen=None, symbol="s", symbolSize=16,
                                       symbolPen=pg.mkPen("k", width=2), symbolBrush=None)
        split.addWidget(self.plots)
        self.details = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.details)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.table.setAccessibleName("Calibration checks")
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)
        self.table.currentCellChanged.connect(self._on_current)
        self.details.addWidget(self.table)
        self.quote = QTextBrowser()
        self.quote.setAccessibleName("Study quote")
        self.quote.setPlaceholderText("Select a check to read what the study says.")
        self.details.addWidget(self.quote)
        self.details.setSizes([250, 120])
        layout.addWidget(split, 1)
        self._load_timer = QTimer(self)
        self._load_timer.setSingleShot(True)
        self._load_timer.setInterval(100)
        self._load_timer.timeout.connect(self.ensure_loaded)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        size = event.size()
        wide = size.width() > 1.6 * size.height()
        self.split.setOrientation(Qt.Orientation.Horizontal if wide
                                  else Qt.Orientation.Vertical)

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        """Compute the checks shortly after first shown, so the window paints first."""
        super().showEvent(event)
        if self.evidence is None and not self._load_timer.isActive():
            self.summary.setText("Computing the calibration checks…")
            self._load_timer.start()

    def ensure_loaded(self) -> None:
        """Compute the checks (once per process) and fill the plot and table."""
        self._load_timer.stop()
        if self.evidence is not None:
            return
        self.evidence = evidence()
        self._fill_table()
        self._apply_filter()

    def _visible(self) -> list[int]:
        ev = self.evidence
        if ev is None:
            return []
        wanted = self.filter.currentData()
        return [i for i, s in enumerate(ev.subsystem) if not wanted or s == wanted]

    def _fill_table(self) -> None:
        ev = self.evidence
        assert ev is not None
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(ev.checks))
        for row, (c, sub) in enumerate(zip(ev.checks, ev.subsystem, strict=True)):
            bound = {"gt": "> ", "lt": "< "}.get(c.bound, "")
            cells = (c.case_id, sub, str(_case_field(c, "study")), c.quantity,
                     bound + fmt.number(c.published), fmt.number(c.model),
                     fmt.signed_percent(c.error), "±" + fmt.percent(c.tolerance), c.role,
                     "yes" if c.ok else "NO")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, row)
                if col == len(cells) - 1 and not c.ok:
                    item.setForeground(QColor("#c0392b"))
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        self.table.setSortingEnabled(True)
        self.table.sortItems(1, Qt.SortOrder.AscendingOrder)  # grouped by subsystem

    def _apply_filter(self, *_: object) -> None:
        ev = self.evidence
        if ev is None:
            return
        visible = set(self._visible())
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            index = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
            self.table.setRowHidden(row, index not in visible)
        logs: list[tuple[float, float]] = []
        fails: list[tuple[float, float]] = []
        for name, item in self.points.items():
            xs, ys = [], []
            for i in sorted(visible):
                c = ev.checks[i]
                if ev.subsystem[i] != name:
                    continue
                xy = _log_point(c)
                if xy is None:
                    continue
                xs.append(xy[0])
                ys.append(xy[1])
                logs.append(xy)
                if not c.ok:
                    fails.append(xy)
            item.setData(xs, ys)
            self.legend.removeItem(item)
            if xs:
                self.legend.addItem(item, name)
        self.legend.removeItem(self.failing)
        if fails:
            self.legend.addItem(self.failing, "outside tolerance")
        self.failing.setData([f[0] for f in fails], [f[1] for f in fails])
        self.selected.setData([], [])
        lo = min((min(x, y) for x, y in logs), default=0.0) - 0.5
        hi = max((max(x, y) for x, y in logs), default=3.0) + 0.5
        tols = [ev.checks[i].tolerance for i in visible if 0 < ev.checks[i].tolerance < 1]
        tol = statistics.median(tols) if tols else 0.1
        line = np.array([lo, hi])
        self.identity.setData(line, line)
        self.band_hi.setData(line, line + math.log10(1 + tol))
        self.band_lo.setData(line, line + math.log10(1 - tol))
        self.plot.setRange(xRange=(lo, hi), yRange=(lo, hi), padding=0)
        checks = [ev.checks[i] for i in visible]
        ok = sum(c.ok for c in checks)
        honest = [abs(c.error) for c in checks if c.role == "check" and math.isfinite(c.error)]
        text = (f"{len(checks)} checks, {ok} within tolerance"
                f" ({sum(c.role == 'fit' for c in checks)} fit,"
                f" {sum(c.role == 'check' for c in checks)} check,"
                f" {sum(c.role == 'rule' for c in checks)} rule)")
        if honest:
            text += f"; median |error| on held-out checks {fmt.percent(statistics.median(honest))}"
        text += f". Band: ±{fmt.percent(tol)} (median tolerance)."
        not_plotted = len(checks) - len(logs)
        if not_plotted:
            text += f" {not_plotted} not plotted (zero or negative values)."
        if ev.errors:
            text += " Unavailable: " + "; ".join(f"{k} ({v})" for k, v in ev.errors.items())
        self.summary.setText(text)
        self.summary.setToolTip(text)

    def _on_current(self, row: int, _col: int, _prow: int, _pcol: int) -> None:
        ev = self.evidence
        item = self.table.item(row, 0) if row >= 0 else None
        if ev is None or item is None:
            return
        c = ev.checks[int(item.data(Qt.ItemDataRole.UserRole))]
        xy = _log_point(c)
        self.selected.setData([xy[0]] if xy else [], [xy[1]] if xy else [])
        study = html.escape(str(_case_field(c, "study")))
        quote = html.escape(str(_case_field(c, "quote")))
        note = f"<p>{html.escape(c.note)}</p>" if c.note else ""
        self.quote.setHtml(
            f"<p><b>{study}</b> — case <code>{html.escape(c.case_id)}</code>, role"
            f" <i>{c.role}</i></p><p>{html.escape(c.quantity)}: published"
            f" {fmt.number(c.published)}, model {fmt.number(c.model)}"
            f" ({fmt.signed_percent(c.error)})</p><blockquote>“{quote}”</blockquote>{note}")


def _log_point(c: Check) -> tuple[float, float] | None:
    if not (c.published > 0 and c.model > 0 and math.isfinite(c.model)):
        return None
    return math.log10(c.published), math.log10(c.model)
