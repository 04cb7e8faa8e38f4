"""The Analysis dock: goal seek, sensitivity (tornado) and host failure (N+1) on the open design.

Each tab runs one analysis of :mod:`models.analysis` on a copy of the active scenario, so the
user can keep editing while it runs:

* Goal seek and host failure run in a worker thread (:class:`Job`); a busy bar and a Cancel
  button show while they run (Cancel drops the answer).  A goal-seek answer is applied with
  "Apply" as ONE undoable edit (Ctrl+Z restores the design).
* The tornado is computed a few knobs at a time on a timer (progress bar, Cancel) and again,
  coalesced, once the design has stopped changing for :data:`RECOMPUTE_MS`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QThread, QTimer, Signal
from PySide6.QtGui import QFontMetrics, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app import format as fmt
from app import gc_guard
from app.canvas.layout import arrange_vms
from app.document.design_document import DesignDocument
from models.analysis import (
    OUTPUTS,
    FailureReport,
    KnobSwing,
    SeekResult,
    host_failure,
    rebuild,
    seek,
    sensitivity,
)
from models.document.design import Component, Design, Link, apply_scenario
from models.document.knobs import Knob, knobs_for
from models.engine.kpis import KPI_BY_KEY

RECOMPUTE_MS = 400
"""The tornado is recomputed this long after the last design change (coalescing timer)."""
CHUNK_MS = 60.0
"""Target time of one tornado step in the GUI thread (the chunk size adapts to it)."""
MAX_BARS = 10

GOAL_LABELS = {"hosts": "Fewest hosts that meet policy",
               "oio": "Largest outstanding I/Os per VM that meets policy",
               "vms": "Most VMs per host that meet policy"}
OUTPUT_LABELS = {key: KPI_BY_KEY[key].title for key in OUTPUTS if key in KPI_BY_KEY}
"""The sensitivity outputs by the names of their KPIs (:mod:`models.engine.kpis`)."""

_RUNNING: set[Job] = set()
"""Jobs still running (kept alive until their thread ends, even if the panel is gone)."""


class Job(QThread):
    """Runs ``fn`` in a worker thread; ``done`` (job, result) or ``failed`` (job, message)
    follows, delivered in the GUI thread (connect bound methods of a QObject)."""

    done = Signal(object, object)
    failed = Signal(object, str)

    def __init__(self, fn: Callable[[], object]):
        super().__init__()
        self.fn = fn
        self.cancelled = False
        gc_guard.install()  # a collection in the worker could destroy widgets there
        _RUNNING.add(self)
        self.finished.connect(self._finished)

    def run(self) -> None:
        try:
            result = self.fn()
        except Exception as err:  # an analysis error is shown, never crashes the app
            self.failed.emit(self, f"{type(err).__name__}: {err}")
            return
        self.done.emit(self, result)

    def _finished(self) -> None:
        _RUNNING.discard(self)
        self.deleteLater()


def wait_for_jobs(timeout_ms: int = 30000) -> None:
    """Wait for running analyses to end (before the application quits)."""
    for job in list(_RUNNING):
        job.cancelled = True
        job.wait(timeout_ms)


def analysis_copy(doc: DesignDocument) -> Design:
    """The active scenario of ``doc`` as a design of its own (components and links copied
    one level deep: the analyses may patch props; the document may change meanwhile)."""
    d = apply_scenario(doc.design, doc.scenario)
    return Design(d.name, d.notes, dict(d.policy),
                  [Component(c.id, c.kind, c.name, c.x, c.y, list(c.tags), dict(c.props))
                   for c in d.components],
                  [Link(lk.source, lk.target, lk.kind, dict(lk.props)) for lk in d.links], [])


def place_rebuilt(old: Design, new: Design) -> None:
    """Positions for a rebuilt design: host copies start on their original (``h~2`` on
    ``h``), then every host's VMs go in a grid under it and hosts whose grids would collide
    are spread in a row (:func:`app.canvas.layout.arrange_vms`)."""
    pos = {c.id: (c.x, c.y) for c in old.components}
    for c in new.components:
        if c.kind == "host":
            c.x, c.y = pos.get(c.id.partition("~")[0], (c.x, c.y))
    by_id = {c.id: c for c in new.components}
    for cid, (x, y) in arrange_vms(new).items():
        by_id[cid].x, by_id[cid].y = x, y


class AnalysisPanel(QWidget):
    """Three tabs: Goal seek, Sensitivity (tornado), Host failure (N+1)."""

    seek_finished = Signal(object)
    """The SeekResult shown (tests and the status bar follow it)."""
    sensitivity_finished = Signal(object)
    """The merged Sensitivity shown."""
    failure_finished = Signal(object)
    """The FailureReport shown."""
    status_message = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setAccessibleName("Analysis")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.tabs = QTabWidget(self)
        layout.addWidget(self.tabs)
        self.seek_result: SeekResult | None = None
        self._seek_edits = -1
        self._seek_job: Job | None = None
        self._failure_job: Job | None = None
        self.failure_report: FailureReport | None = None
        self.tabs.addTab(self._build_seek(), "Goal seek")
        self.tabs.addTab(self._build_tornado(), "Sensitivity")
        self.tabs.addTab(self._build_failure(), "Host failure")
        self._stale = False
        """The design changed since the tornado shown was computed."""
        self.tabs.currentChanged.connect(self._tab_changed)
        document.prediction_updated.connect(self._design_changed)
        document.design_replaced.connect(self._design_changed)

    # ================================================================== goal seek
    def _build_seek(self) -> QWidget:
        page = QWidget()
        v = QVBoxLayout(page)
        row = QHBoxLayout()
        self.goal_combo = QComboBox()
        self.goal_combo.setAccessibleName("Goal")
        for goal, label in GOAL_LABELS.items():
            self.goal_combo.addItem(label, goal)
        row.addWidget(self.goal_combo, 1)
        self.seek_button = QPushButton("Seek")
        self.seek_button.setToolTip("Search the smallest/largest setting that keeps every"
                                    " component within the design's policy")
        self.seek_button.clicked.connect(self.run_seek)
        row.addWidget(self.seek_button)
        self.seek_cancel = QPushButton("Cancel")
        self.seek_cancel.clicked.connect(self.cancel_seek)
        self.seek_cancel.setEnabled(False)
        row.addWidget(self.seek_cancel)
        v.addLayout(row)
        self.seek_busy = QProgressBar()
        self.seek_busy.setRange(0, 0)
        self.seek_busy.setAccessibleName("Goal seek running")
        self.seek_busy.hide()
        v.addWidget(self.seek_busy)
        self.seek_answer = QLabel("Choose a goal and press Seek.")
        self.seek_answer.setAccessibleName("Goal seek answer")
        self.seek_answer.setWordWrap(True)
        font = self.seek_answer.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.seek_answer.setFont(font)
        v.addWidget(self.seek_answer)
        self.seek_detail = QLabel()
        self.seek_detail.setWordWrap(True)
        self.seek_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.seek_detail.setAccessibleName("Goal seek detail")
        v.addWidget(self.seek_detail)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip("Change the design to the answer (one undo step)")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_seek)
        v.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignLeft)
        v.addStretch(1)
        return page

    def run_seek(self, goal: str | None = None) -> None:
        """Start a goal seek (``goal``: hosts, oio or vms; default: the chosen one)."""
        if isinstance(goal, str):
            self.goal_combo.setCurrentIndex(self.goal_combo.findData(goal))
        chosen = str(self.goal_combo.currentData())
        self.cancel_seek()
        design = analysis_copy(self.document)
        self._seek_edits = self.document.edits
        job = Job(lambda: seek(design, chosen))
        job.done.connect(self._seek_done)
        job.failed.connect(self._seek_failed)
        self._seek_job = job
        self.seek_result = None
        self.apply_button.setEnabled(False)
        self.seek_answer.setText(f"Seeking: {GOAL_LABELS[chosen].lower()}...")
        self.seek_detail.setText("")
        self._seek_running(True)
        job.start()

    def cancel_seek(self) -> None:
        if self._seek_job is not None:
            self._seek_job.cancelled = True
            self._seek_job = None
            self.seek_answer.setText("Goal seek cancelled.")
        self._seek_running(False)

    def _seek_running(self, on: bool) -> None:
        self.seek_busy.setVisible(on)
        self.seek_cancel.setEnabled(on)
        self.seek_button.setEnabled(not on)

    def _seek_done(self, job: Job, result: object) -> None:
        if job is not self._seek_job or not isinstance(result, SeekResult):
            return
        self._seek_job = None
        self._seek_running(False)
        self.seek_result = result
        r = result
        if r.value is None:
            self.seek_answer.setText(f"No setting in {r.search[0]}..{r.search[1]} meets"
                                     f" policy ({r.binding} fails).")
        else:
            extra = (f" ({r.extra['active_hosts']} + {r.extra['ha_spare_hosts']} HA spare)"
                     if r.goal == "hosts" else "")
            current = "" if r.current is None else f"; the design has {r.current:g}"
            self.seek_answer.setText(f"{r.value} {r.unit}{extra}{current}")
        lines = [f"Binding: {r.binding}"] if r.binding else []
        lines += [f"  {b.describe()}" for b in r.binding_detail[:3]]
        tried = ", ".join(f"{t.value} {'ok' if t.ok else 'fails'}"
                          for t in sorted(r.trials, key=lambda t: t.value))
        lines.append(f"Tried: {tried}")
        lines += [f"Note: {n}" for n in r.notes]
        self.seek_detail.setText("\n".join(lines))
        self.seek_detail.setToolTip(r.method)
        self.apply_button.setEnabled(r.value is not None and self._can_apply(r))
        self.seek_finished.emit(r)
        self.status_message.emit(f"Goal seek: {self.seek_answer.text()}")

    def _seek_failed(self, job: Job, message: str) -> None:
        if job is not self._seek_job:
            return
        self._seek_job = None
        self._seek_running(False)
        self.seek_answer.setText("Goal seek failed.")
        self.seek_detail.setText(message)

    def _can_apply(self, r: SeekResult) -> bool:
        if r.goal == "oio":
            return True
        ok = self.document.scenario == "base"
        if not ok:
            self.apply_button.setToolTip("Hosts and VM counts change the base design: switch"
                                         " to the base scenario to apply")
        return ok

    def apply_seek(self) -> None:
        """Apply the answer as ONE undo step: OIO on every VM (in the active scenario), or
        the design rebuilt with that many hosts / VMs per host."""
        r = self.seek_result
        if r is None or r.value is None:
            return
        doc = self.document
        self.seek_result = None  # applied: the design now differs from the one searched
        if r.goal == "oio":
            doc.set_value("vm", "workload.io_oio", int(r.value))
        else:
            base = analysis_copy(doc) if doc.scenario == "base" else doc.design
            if r.goal == "hosts":
                new, _ = rebuild(base, n_hosts=int(r.value))
                text = f"Goal seek: {r.value} hosts"
            else:
                new, _ = rebuild(base, vms_per_host=int(r.value))
                text = f"Goal seek: {r.value} VMs per host"
            place_rebuilt(doc.design, new)
            doc.replace_contents(new, text)
        self.apply_button.setEnabled(False)
        self.seek_detail.setText(self.seek_detail.text() + "\nApplied as one undo step"
                                 " (Ctrl+Z restores the design).")
        self.status_message.emit(f"Applied: {r.value} {r.unit} (Ctrl+Z undoes it)")

    # ================================================================== tornado
    def _build_tornado(self) -> QWidget:
        page = QWidget()
        v = QVBoxLayout(page)
        row = QHBoxLayout()
        row.addWidget(QLabel("What moves"))
        self.output_combo = QComboBox()
        self.output_combo.setAccessibleName("Tornado output")
        for key in OUTPUTS:
            self.output_combo.addItem(f"{OUTPUT_LABELS.get(key, key)} ({OUTPUTS[key][0]})",
                                      key)
        p = self.document.prediction  # a design without storage I/O: rank by hosts needed
        default = "total_iops" if p is None or p.total_iops > 0 else "hosts_needed"
        self.output_combo.setCurrentIndex(self.output_combo.findData(default))
        self.output_combo.currentIndexChanged.connect(lambda _i: self.start_sensitivity())
        row.addWidget(self.output_combo, 1)
        self.band_combo = QComboBox()
        self.band_combo.setAccessibleName("Tornado band")
        self.band_combo.addItem("over each knob's range", "range")
        self.band_combo.addItem("one slider step either way", "step")
        self.band_combo.currentIndexChanged.connect(lambda _i: self.start_sensitivity())
        row.addWidget(self.band_combo)
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
        v.addLayout(row)
        self.sens_progress = QProgressBar()
        self.sens_progress.setAccessibleName("Tornado progress")
        self.sens_progress.hide()
        v.addWidget(self.sens_progress)
        self.tornado_widget = pg.PlotWidget(background="w")
        self.tornado = self.tornado_widget.getPlotItem()
        self.tornado.invertY(True)
        self.tornado.setMouseEnabled(x=False, y=False)
        self.tornado.hideButtons()
        self.low_bars = pg.BarGraphItem(x0=[], y=[], height=0.6, width=[],
                                        brush=pg.mkBrush("#2e86c1"), pen=pg.mkPen(None))
        self.high_bars = pg.BarGraphItem(x0=[], y=[], height=0.6, width=[],
                                         brush=pg.mkBrush("#d35400"), pen=pg.mkPen(None))
        self.tornado.addItem(self.low_bars)
        self.tornado.addItem(self.high_bars)
        self.baseline_line = pg.InfiniteLine(0.0, angle=90, pen=pg.mkPen("#2b2b2b", width=1))
        self.tornado.addItem(self.baseline_line)
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
        self._pending: list[Knob] = []
        self._done: list[KnobSwing] = []
        self._notes: list[str] = []
        self._evaluations = 0
        self._chunk = 1
        self._sens_design: Design | None = None
        self._sens_started = 0.0
        self._step_timer = QTimer(self)
        self._step_timer.setInterval(0)
        self._step_timer.timeout.connect(self._sensitivity_step)
        self._recompute = QTimer(self)
        self._recompute.setSingleShot(True)
        self._recompute.setInterval(RECOMPUTE_MS)
        self._recompute.timeout.connect(self._auto_recompute)
        return page

    @property
    def output(self) -> str:
        return str(self.output_combo.currentData())

    def set_output(self, output: str) -> None:
        self.output_combo.setCurrentIndex(self.output_combo.findData(output))

    def start_sensitivity(self) -> None:
        """(Re)start the tornado for the chosen output: a few knobs per timer step."""
        self._recompute.stop()
        self._stale = False
        self._sens_design = analysis_copy(self.document)
        self._pending = list(knobs_for(self._sens_design))
        self._done, self._notes = [], []
        self._evaluations = 0
        self._chunk = 1
        self.sens_baseline = math.nan
        self._sens_started = time.perf_counter()
        self.sens_progress.setRange(0, max(1, len(self._pending)))
        self.sens_progress.setValue(0)
        self.sens_progress.show()
        self.sens_cancel.setEnabled(True)
        self.sens_status.setText(f"Computing: {len(self._pending)} knobs...")
        self._step_timer.start()

    def cancel_sensitivity(self) -> None:
        running = self._step_timer.isActive()
        self._step_timer.stop()
        self._recompute.stop()
        self._pending = []
        self.sens_progress.hide()
        self.sens_cancel.setEnabled(False)
        if running:
            self.sens_status.setText("Cancelled: the bars show the previous result.")

    @property
    def sensitivity_running(self) -> bool:
        return self._step_timer.isActive()

    def _sensitivity_step(self) -> None:
        design = self._sens_design
        if design is None or not self._pending:
            self._step_timer.stop()
            return
        chunk, self._pending = self._pending[:self._chunk], self._pending[self._chunk:]
        started = time.perf_counter()
        try:
            s = sensitivity(design, self.output, band=str(self.band_combo.currentData()),
                            knobs=chunk)
        except Exception as err:  # a failing model shows a message, never crashes
            self.cancel_sensitivity()
            self.sens_status.setText(f"Cannot compute the tornado: {err}")
            return
        took = (time.perf_counter() - started) * 1000.0
        self._chunk = max(1, min(16, int(self._chunk * CHUNK_MS / max(took, 1.0))))
        self.sens_baseline = s.baseline
        self._done.extend(s.knobs)
        self._notes.extend(s.notes)
        self._evaluations += s.evaluations
        self.sens_progress.setValue(self.sens_progress.maximum() - len(self._pending))
        if not self._pending:
            self._step_timer.stop()
            self.sens_progress.hide()
            self.sens_cancel.setEnabled(False)
            self._show_tornado()

    def _show_tornado(self) -> None:
        swings = sorted(self._done, key=lambda k: -k.swing if math.isfinite(k.swing)
                        else math.inf)
        self.swings = swings
        shown = [k for k in swings if math.isfinite(k.swing) and k.swing > 0][:MAX_BARS]
        base = self.sens_baseline
        unit = OUTPUTS[self.output][0]
        lo = np.array([min(k.output_low, k.output_high) for k in shown], dtype=float)
        hi = np.array([max(k.output_low, k.output_high) for k in shown], dtype=float)
        y = np.arange(len(shown), dtype=float)
        b = base if math.isfinite(base) else 0.0
        self.low_bars.setOpts(x0=lo, y=y, height=0.6, width=np.maximum(b - lo, 0.0))
        self.high_bars.setOpts(x0=np.full(len(shown), b), y=y, height=0.6,
                               width=np.maximum(hi - b, 0.0))
        self.baseline_line.setValue(b)
        labels = [k.label for k in shown]
        axis = self.tornado.getAxis("left")
        axis.setTicks([[(float(i), t) for i, t in enumerate(labels)]])
        metrics = QFontMetrics(self.font())
        axis.setWidth(max((metrics.horizontalAdvance(t) for t in labels), default=20) + 16)
        self.tornado.setLabel("bottom", f"{OUTPUT_LABELS.get(self.output, self.output)}"
                              f" ({unit})")  # no units=: pyqtgraph would add SI prefixes
        if len(shown):
            pad = 0.05 * max(float(hi.max() - lo.min()), 1e-9)
            self.tornado.setRange(xRange=(float(min(lo.min(), b)) - pad,
                                          float(max(hi.max(), b)) + pad),
                                  yRange=(-0.5, len(shown) - 0.5), padding=0)
        elapsed = (time.perf_counter() - self._sens_started) * 1000.0
        top = (f"; {shown[0].label} moves it most ({fmt.number(shown[0].output_low)} .."
               f" {fmt.number(shown[0].output_high)} {unit})" if shown else
               "; no knob moves it")
        self.sens_status.setText(
            f"{OUTPUT_LABELS.get(self.output, self.output)} now {fmt.number(base)} {unit}"
            f"{top}. Blue: the knob's low side, orange: its high side."
            f" {self._evaluations} evaluations, {elapsed:,.0f} ms.")
        self.sens_status.setToolTip("\n".join(self._notes))
        self.sensitivity_finished.emit(self.swings)

    def _design_changed(self, *_: object) -> None:
        if self.seek_result is not None and self.document.edits != self._seek_edits \
                and self._seek_job is None and self.apply_button.isEnabled():
            self.apply_button.setEnabled(False)
            self.seek_detail.setText(self.seek_detail.text() + "\nThe design changed since:"
                                     " seek again to apply.")
        if self.auto_check.isChecked() and (self.swings or self.sensitivity_running):
            self._stale = True
            if self.tornado_widget.isVisible():
                self._recompute.start()  # coalesced: once the edits pause
            else:
                self.cancel_sensitivity()  # hidden: recompute when shown again

    def _auto_recompute(self) -> None:
        if self.auto_check.isChecked() and self.tornado_widget.isVisible():
            self.start_sensitivity()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self._tab_changed(self.tabs.currentIndex())

    def _tab_changed(self, index: int) -> None:
        if index == 1 and self._stale and self.auto_check.isChecked():
            self._recompute.start()

    # ================================================================== host failure
    def _build_failure(self) -> QWidget:
        page = QWidget()
        v = QVBoxLayout(page)
        row = QHBoxLayout()
        self.failure_button = QPushButton("Fail each host in turn")
        self.failure_button.setToolTip("HA restarts each failed host's VMs on the survivors;"
                                       " the table lists what then breaks policy")
        self.failure_button.clicked.connect(self.run_failure)
        row.addWidget(self.failure_button)
        self.failure_cancel = QPushButton("Cancel")
        self.failure_cancel.setEnabled(False)
        self.failure_cancel.clicked.connect(self.cancel_failure)
        row.addWidget(self.failure_cancel)
        row.addStretch(1)
        v.addLayout(row)
        self.failure_busy = QProgressBar()
        self.failure_busy.setRange(0, 0)
        self.failure_busy.hide()
        v.addWidget(self.failure_busy)
        self.failure_summary = QLabel("Press the button to fail each host in turn.")
        self.failure_summary.setWordWrap(True)
        self.failure_summary.setAccessibleName("Host failure summary")
        v.addWidget(self.failure_summary)
        self.failure_table = QTableWidget(0, 5)
        self.failure_table.setAccessibleName("Host failure table")
        self.failure_table.setHorizontalHeaderLabels(
            ["Failed host", "VMs restarted", "FT fail-overs", "New breaches", "What breaks"])
        self.failure_table.horizontalHeader().setSectionResizeMode(
            4, QHeaderView.ResizeMode.Stretch)
        self.failure_table.verticalHeader().hide()
        self.failure_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        v.addWidget(self.failure_table, 1)
        return page

    def run_failure(self) -> None:
        self.cancel_failure()
        design = analysis_copy(self.document)
        job = Job(lambda: host_failure(design))
        job.done.connect(self._failure_done)
        job.failed.connect(self._failure_failed)
        self._failure_job = job
        self.failure_summary.setText("Failing each host in turn...")
        self._failure_running(True)
        job.start()

    def cancel_failure(self) -> None:
        if self._failure_job is not None:
            self._failure_job.cancelled = True
            self._failure_job = None
            self.failure_summary.setText("Cancelled.")
        self._failure_running(False)

    def _failure_running(self, on: bool) -> None:
        self.failure_busy.setVisible(on)
        self.failure_cancel.setEnabled(on)
        self.failure_button.setEnabled(not on)

    def _failure_done(self, job: Job, report: object) -> None:
        if job is not self._failure_job or not isinstance(report, FailureReport):
            return
        self._failure_job = None
        self._failure_running(False)
        self.failure_report = report
        rows = report.failures
        self.failure_table.setRowCount(len(rows))
        for i, f in enumerate(rows):
            new = f.new_breaches
            took = sum(x.lost == "primary" for x in f.ft)
            worst = "; ".join(b.describe() for b in new[:3]) + (
                f" (+{len(new) - 3} more)" if len(new) > 3 else "")
            if f.not_restarted:
                worst = f"{len(f.not_restarted)} VMs cannot restart. " + worst
            cells: list[Any] = [self._name(f.host), len(f.restarted), took, len(new),
                                worst or "nothing new breaks"]
            for j, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                if j in (1, 2, 3):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if new:
                    item.setForeground(pg.mkColor("#c0392b"))
                self.failure_table.setItem(i, j, item)
        pol = report.policy
        already = (f" {len(report.baseline)} breaches already before any failure."
                   if report.baseline else "")
        self.failure_summary.setText(
            ("Survives any single host failure." if report.survives else
             f"Does NOT survive: {sum(bool(f.new_breaches) for f in rows)} of {len(rows)}"
             " host failures break policy.")
            + f" Policy: CPU <= {fmt.percent(pol.get('cpu_util_max', math.nan))},"
            f" p95 <= {pol.get('p95_ms_max', math.nan):g} ms.{already}")
        self.failure_finished.emit(report)

    def _failure_failed(self, job: Job, message: str) -> None:
        if job is not self._failure_job:
            return
        self._failure_job = None
        self._failure_running(False)
        self.failure_summary.setText(f"Host failure failed: {message}")

    def _name(self, cid: str) -> str:
        c = self.document.component(cid)
        return f"{c.name} ({cid})" if c is not None and c.name else cid

    def shutdown(self) -> None:
        """Stop the tornado and wait for running jobs (the window is closing)."""
        self.cancel_sensitivity()
        self.cancel_seek()
        self.cancel_failure()
        wait_for_jobs()

