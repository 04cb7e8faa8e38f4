"""The Sensitivity tab: the knobs that move an output most, as a tornado.

The ranking (:func:`models.analysis.sensitivity`) runs in the background a few knobs at a time
(a progress bar, Cancel) and again, coalesced, once the design has stopped changing for
:data:`RECOMPUTE_MS` while the tornado is in sight.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.charts.plots import label_axis, plot_widget
from app.document.design_document import DesignDocument
from app.panels.analysis.common import LANE, analysis_copy, stoppable
from app.support import theme
from app.support.jobs import Runner, Task, Work
from models.analysis import OUTPUTS, KnobSwing, Sensitivity, outputs_of, sensitivity
from models.document import numbers as fmt
from models.document.design import Design
from models.document.knobs import Knob, knobs_for
from models.engine.kpis import KPI_BY_KEY

RECOMPUTE_MS = 400
"""The tornado is recomputed this long after the last design change (coalescing timer)."""
CHUNK_MS = 60.0
"""Target time of one step of the ranking, between two progress reports (the number of
knobs per step adapts to it)."""
MAX_BARS = 10
PREFERRED = ("total_iops", "hosts_needed")
"""The output the tornado opens on: the first of these the design has (an estate without
I/O data: hosts needed), else the first it has."""
BANDS = {"around": "-50 % to +100 %", "range": "each knob's whole range",
         "step": "one slider step either way"}
"""The bands in the chooser (its tooltip says what the first means)."""
LOW, HIGH = "#2e86c1", "#d35400"
"""The bars of a knob's low setting and of its high setting (the caption says so)."""


def output_title(output: str) -> str:
    """An output as the dashboard's tile names it."""
    kpi = KPI_BY_KEY.get(output)
    return kpi.title if kpi is not None else output


def ranking(design: Design, output: str, band: str, knobs: list[Knob]) -> Work:
    """A job ranking ``knobs`` by how far each moves ``output``: a few knobs per step (one
    progress report per step), the steps merged into one :class:`Sensitivity`."""

    def work(task: Task) -> Sensitivity:
        evaluate = stoppable(task)
        pending, done, notes = list(knobs), [], []
        baseline, evaluations, chunk = math.nan, 0, 1
        started = time.perf_counter()
        while True:
            part, pending = pending[:chunk], pending[chunk:]
            step = time.perf_counter()
            s = sensitivity(design, output, band=band, knobs=part, evaluate=evaluate)
            took = (time.perf_counter() - step) * 1000.0
            chunk = max(1, min(16, int(chunk * CHUNK_MS / max(took, 1.0))))
            baseline = s.baseline
            done.extend(s.knobs)
            notes.extend(s.notes)
            evaluations += s.evaluations
            task.progress(len(knobs) - len(pending), len(knobs), "knobs")
            if not pending:
                return Sensitivity(output, s.unit, band, baseline, done, evaluations,
                                   (time.perf_counter() - started) * 1000.0, notes)

    return work


class SensitivityTab(QWidget):
    """Pick an output and a band; the ten knobs that move it most show as a tornado."""

    sensitivity_finished = Signal(object)
    """The knob swings shown, largest first."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        v = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("What moves"))
        self.output_combo = QComboBox()
        self.output_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.output_combo.setMinimumContentsLength(12)  # as narrow as its dock needs, never wider
        self.output_combo.setAccessibleName("Tornado output")
        self.offered: list[str] = []
        """The outputs in the chooser: those the design has (:func:`outputs_of`)."""
        self._sync_outputs()
        self.output_combo.currentIndexChanged.connect(lambda _i: self.start_sensitivity())
        row.addWidget(self.output_combo, 1)
        self.band_combo = QComboBox()
        self.band_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.band_combo.setMinimumContentsLength(12)  # as narrow as its dock needs, never wider
        self.band_combo.setAccessibleName("Tornado band")
        for key, text in BANDS.items():
            self.band_combo.addItem(text, key)
        self.band_combo.setToolTip("-50 % to +100 %: each value halved and doubled, a choice's"
                                   " neighbours either side (a switch: its other position)")
        self.band_combo.currentIndexChanged.connect(lambda _i: self.start_sensitivity())
        row.addWidget(self.band_combo)
        v.addLayout(row)
        row = QHBoxLayout()  # a second row: the tab fits a dock beside the side columns
        self.auto_check = QCheckBox("recompute on edits")
        self.auto_check.setToolTip("Recompute the tornado once the design stops changing")
        self.auto_check.setChecked(True)
        row.addWidget(self.auto_check)
        self.sens_button = QPushButton("Compute")
        self.sens_button.clicked.connect(self.start_sensitivity)
        row.addWidget(self.sens_button)
        self.sens_cancel = QPushButton("Cancel")
        self.sens_cancel.setEnabled(False)
        self.sens_cancel.clicked.connect(self.cancel_sensitivity)
        row.addWidget(self.sens_cancel)
        row.addStretch(1)
        v.addLayout(row)
        self.sens_progress = QProgressBar()
        self.sens_progress.setAccessibleName("Tornado progress")
        self.sens_progress.hide()
        v.addWidget(self.sens_progress)
        self.tornado_widget = plot_widget()
        self.tornado = self.tornado_widget.addPlot()
        self.tornado.invertY(True)
        self.tornado.setMouseEnabled(x=False, y=False)
        self.tornado.hideButtons()
        self.low_bars = pg.BarGraphItem(x0=[], y=[], height=0.34, width=[],
                                        brush=pg.mkBrush(LOW), pen=pg.mkPen(None))
        self.high_bars = pg.BarGraphItem(x0=[], y=[], height=0.34, width=[],
                                         brush=pg.mkBrush(HIGH), pen=pg.mkPen(None))
        self.tornado.addItem(self.low_bars)
        self.tornado.addItem(self.high_bars)
        self.baseline_line = pg.InfiniteLine(0.0, angle=90,
                                             pen=pg.mkPen(theme.tones().chart_text, width=1))
        self.tornado.addItem(self.baseline_line)
        self.tornado_widget.restyled.connect(
            lambda: self.baseline_line.setPen(pg.mkPen(theme.tones().chart_text, width=1)))
        # one readable row per bar, however short the dock is
        self.tornado_widget.setMinimumHeight(MAX_BARS * 15 + 50)
        v.addWidget(self.tornado_widget, 1)
        self.sens_status = QLabel("")
        self.sens_status.setWordWrap(True)
        self.sens_status.setAccessibleName("Tornado status")
        v.addWidget(self.sens_status)
        self.swings: list[KnobSwing] = []
        """The bars shown, largest swing first."""
        self.sens_baseline = math.nan
        self.stale = False
        """The design changed since the tornado shown was computed."""
        self.started = False
        """Whether a tornado was ever asked for (the tab computes one the first time it shows)."""
        self._sens_started = 0.0
        self.runner = Runner(self, lane=LANE, describe=str)
        self.runner.progressed.connect(self._progressed)
        self.runner.finished.connect(self._show_tornado)
        self.runner.failed.connect(self._failed)
        self._recompute = QTimer(self)
        self._recompute.setSingleShot(True)
        self._recompute.setInterval(RECOMPUTE_MS)
        self._recompute.timeout.connect(self._auto_recompute)
        document.prediction_updated.connect(self._design_changed)
        document.design_replaced.connect(self._design_changed)

    @property
    def output(self) -> str:
        return str(self.output_combo.currentData())

    def _sync_outputs(self) -> None:
        """Offer the outputs the design has (no Total IOPS on an estate without I/O data, no
        FT logging without FT VMs), keeping the one chosen while the design has it."""
        offered = outputs_of(self.document.prediction)
        if offered == self.offered:
            return
        chosen = self.output_combo.currentData()
        self.offered = offered
        combo = self.output_combo
        combo.blockSignals(True)
        combo.clear()
        for key in offered:
            combo.addItem(f"{output_title(key)} ({OUTPUTS[key][0]})", key)
        keep = chosen if chosen in offered else \
            next((o for o in PREFERRED if o in offered), offered[0] if offered else None)
        combo.setCurrentIndex(combo.findData(keep))
        combo.blockSignals(False)
        if chosen is not None and keep != chosen and self.swings:
            self.start_sensitivity()  # what it showed is gone from the design

    def set_output(self, output: str) -> None:
        self.output_combo.setCurrentIndex(self.output_combo.findData(output))

    def start_sensitivity(self) -> None:
        """(Re)start the tornado for the chosen output, in the background."""
        self._recompute.stop()
        self.stale = False
        self.started = True
        design = analysis_copy(self.document)
        knobs = list(knobs_for(design))
        self.sens_baseline = math.nan
        self._sens_started = time.perf_counter()
        self.sens_progress.setRange(0, max(1, len(knobs)))
        self.sens_progress.setValue(0)
        self.sens_progress.show()
        self.sens_cancel.setEnabled(True)
        self.sens_status.setText(f"Computing: {fmt.count(len(knobs), 'knob')}...")
        self.runner.submit(ranking(design, self.output, str(self.band_combo.currentData()),
                                   knobs))

    def cancel_sensitivity(self) -> None:
        running = self.runner.busy
        self.runner.cancel()
        self._recompute.stop()
        self._idle()
        if running:
            self.sens_status.setText("Cancelled: the bars show the previous result.")

    @property
    def sensitivity_running(self) -> bool:
        return self.runner.busy

    def _idle(self) -> None:
        self.sens_progress.hide()
        self.sens_cancel.setEnabled(False)

    def _progressed(self, done: int, _total: int, _what: str) -> None:
        self.sens_progress.setValue(done)

    def _failed(self, message: str) -> None:  # a failing model shows a message, never crashes
        self._idle()
        self.sens_status.setText(f"Cannot compute the tornado: {message}")

    def _show_tornado(self, result: object) -> None:
        if not isinstance(result, Sensitivity):
            return
        self._idle()
        self.sens_baseline = base = result.baseline
        output = result.output
        swings = sorted(result.knobs, key=lambda k: -k.swing if math.isfinite(k.swing)
                        else math.inf)
        self.swings = swings
        shown = [k for k in swings if math.isfinite(k.swing) and k.swing > 0][:MAX_BARS]
        unit = result.unit
        b = base if math.isfinite(base) else 0.0
        y = np.arange(len(shown), dtype=float)
        for bars, outs, dy in ((self.low_bars, [k.output_low for k in shown], -0.18),
                               (self.high_bars, [k.output_high for k in shown], 0.18)):
            ends = np.array([o if math.isfinite(o) else b for o in outs], dtype=float)
            bars.setOpts(x0=np.minimum(ends, b), y=y + dy, height=0.34,
                         width=np.abs(ends - b))  # from the design as it is to the setting
        ends = np.array([o for k in shown for o in (k.output_low, k.output_high)
                         if math.isfinite(o)] + [b], dtype=float)
        lo, hi = ends.min(), ends.max()
        self.baseline_line.setValue(b)
        labels = [k.label for k in shown]
        axis = self.tornado.getAxis("left")
        axis.setTicks([[(float(i), t) for i, t in enumerate(labels)]])
        metrics = QFontMetrics(self.font())
        axis.setWidth(max((metrics.horizontalAdvance(t) for t in labels), default=20) + 16)
        label_axis(self.tornado, "bottom", output_title(output), unit)
        if len(shown):
            pad = 0.05 * max(float(hi - lo), 1e-9)
            self.tornado.setRange(xRange=(float(lo) - pad, float(hi) + pad),
                                  yRange=(-0.5, len(shown) - 0.5), padding=0)
        elapsed = (time.perf_counter() - self._sens_started) * 1000.0
        if shown:
            k = shown[0]
            ends_ = " .. ".join(fmt.with_unit(o, unit) for o in (k.output_low, k.output_high)
                                if math.isfinite(o))
            top = f"; {k.label} moves it most ({ends_})"
        else:
            top = "; no knob moves it"
        self.sens_status.setText(
            f"{output_title(output)} now {fmt.with_unit(base, unit)}{top}. Blue: the knob's"
            " low setting, orange: its high setting (from the design as it is)."
            f" {result.evaluations} evaluations, {elapsed:,.0f} ms.")
        self.sens_status.setToolTip("\n".join(result.notes))
        self.sensitivity_finished.emit(self.swings)

    def _design_changed(self, *_: object) -> None:
        self._sync_outputs()
        if self.auto_check.isChecked() and (self.swings or self.sensitivity_running):
            self.stale = True
            if self.tornado_widget.isVisible():
                self._recompute.start()  # coalesced: once the edits pause
            else:
                self.cancel_sensitivity()  # hidden: recompute when shown again

    def _auto_recompute(self) -> None:
        if self.auto_check.isChecked() and self.tornado_widget.isVisible():
            self.start_sensitivity()

    def shown(self) -> None:
        """The tab came into sight: compute the tornado the first time, and recompute one the
        design has changed under (an empty chart asked the user to find Compute)."""
        first = not self.started
        if (self.stale or first) and self.auto_check.isChecked():
            self._recompute.start()
